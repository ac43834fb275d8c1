"""Development tools (benchmarks, load tests, arenas, soaks, timelines): not part of the product; nothing in games/, accounts/ or wecsite/ imports them."""
