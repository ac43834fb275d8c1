"""Engine refusals in the reader's language.

The rules engines (games/rules/) are free of Django, so their IllegalAction
messages are English.  Each game's site package keeps a table of the messages
its engine gives that can reach a player through the site: a pattern the
engine's whole message must match, the translated msgid, and how to put each
captured word into the reader's language (a piece type by its translated name,
say).  A message no pattern knows is passed on as the engine wrote it, so a
new engine message is never lost, only untranslated until a row is added.
The Wec board editor does the same for the position errors of its text
(games/ui/wec/scenario_text.py, ``engine_message``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple


class Refusal(NamedTuple):
    """One row of a game's refusal table."""

    pattern: re.Pattern[str]  # matched against the engine's whole message
    text: Any  # a lazy msgid with %(name)s for the pattern's named groups
    words: dict[str, Callable[[str], Any]] = {}  # group name -> translator of the captured word


def translate(message: str, table: Sequence[Refusal]) -> str:
    """`message` in the active language when a row of `table` knows it."""
    for row in table:
        match = row.pattern.fullmatch(message)
        if match is None:
            continue
        values = {}
        for key, value in match.groupdict().items():
            if value is not None:
                values[key] = str(row.words[key](value)) if key in row.words else value
        return str(row.text) % values
    return message
