"""The games' site packages, one per game (games/ui/<name>/), each reached
through games.registry; nothing shared lives here."""
