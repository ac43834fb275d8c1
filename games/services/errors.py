"""The refusals of the services: each a GameError subclass carrying the HTTP
status to answer with (403 not your game, 409 not your turn / stale version
/ not active, 400 malformed, 422 illegal, 500 an engine fault).  A refused
request changes nothing: the service raises before its transaction
commits."""

from __future__ import annotations

import secrets

from django.utils.translation import gettext as _


class GameError(Exception):
    """A request the site refuses; `status` is the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotYourGame(GameError):
    status = 403


class GameNotActive(GameError):
    status = 409


class NotYourTurn(GameError):
    status = 409


class StaleState(GameError):
    status = 409


class MalformedAction(GameError):
    status = 400


class IllegalMove(GameError):
    status = 422


class InvalidRequest(GameError):
    status = 400


class EngineFault(GameError):
    """The rules engine raised on a request that got past every check: a bug on
    our side, not the player's.  Answered as a 500 with this message (never a
    bare error page); the trace goes to the log under `incident`, which the
    message quotes so a player's report can be matched to it."""

    status = 500

    def __init__(self, incident: str):
        super().__init__(
            _(
                "Something went wrong on our side while playing that. Nothing was changed, "
                "and the operators have been told (reference %(incident)s)."
            )
            % {"incident": incident}
        )
        self.incident = incident


def new_incident() -> str:
    """A short random reference that ties a player's error message to the log."""
    return secrets.token_hex(4)
