"""The explicit vacation: a player pauses every running clock of theirs
(games.vacation.services), and the clock check settles the days it costs."""
