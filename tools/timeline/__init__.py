"""The submit timeline: timing marks inside the web processes (app), the
driver that plays submits against them (submit) and the table (report).
Run as ``python -m tools.timeline.submit`` then ``python -m tools.timeline.report``."""
