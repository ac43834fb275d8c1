"""The core services' signals, for the features built on them.

The services never import the club or the vacation (they sit above the
core); what those do when something happens in a game they hear through a
signal, connected in games.apps.GamesConfig.ready.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent inside the transaction that ended a game (by its moves, resignation,
#: time or agreement), with `game` (its result set, its row locked) and
#: `seats` (with their users).  A receiver's exception rolls the end back.
game_ended = Signal()
