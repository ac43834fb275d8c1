"""Reads.  Nothing here writes to the database.

The modules hold the reads by subject (`games`: a game and its seats;
`state`: its engine state and legal actions; `history`: what a player is
shown of it, the record, the review's frames and the view digest;
`clocks`; `lists`; `notifications`); this package gives their public
names in one place, so `from games import selectors; selectors.get_game(...)`
reads as before.  The club's and the vacation's own reads live with them
(games.club.selectors, games.vacation.selectors).
"""

from .clocks import Clock, due_seat_ids, game_clocks
from .games import engine_name, game_from_rows, get_game, known_to, seat_by_color, seat_for, with_seats
from .history import (
    RecordLines,
    history_lines,
    is_review,
    record_censored,
    record_open,
    replay_frames,
    seat_board_basics,
    view_digest,
)
from .lists import open_seeks, scenarios_for, user_games
from .notifications import unread_notification_count, user_notifications
from .state import legal_actions, load_state

__all__ = [
    "Clock",
    "RecordLines",
    "due_seat_ids",
    "engine_name",
    "game_clocks",
    "game_from_rows",
    "get_game",
    "history_lines",
    "record_censored",
    "record_open",
    "is_review",
    "known_to",
    "legal_actions",
    "load_state",
    "open_seeks",
    "replay_frames",
    "scenarios_for",
    "seat_board_basics",
    "seat_by_color",
    "seat_for",
    "unread_notification_count",
    "user_games",
    "user_notifications",
    "view_digest",
    "with_seats",
]
