"""What the site accepts from a request: one policy for user text and one
bounded reader for JSON.

Text.  Whatever a user writes that others see (chat lines, scenario names,
usernames and display names) and whatever reaches a query (URL parameters)
goes through `text_problem` / `check_text`.  Refused:

* control characters (Unicode category Cc: NUL, the other C0 and C1 codes,
  DEL), except the line breaks and tabs of a field that has several lines;
* format characters (Cf): bidirectional overrides, embeddings, isolates and
  marks, zero-width spaces, the byte-order mark, soft hyphens, tags: they
  change how a text looks or reads without being seen;
* line and paragraph separators (Zl, Zp) in a one-line field;
* private-use code points (Co) and lone surrogates (Cs): no font shows the
  former, and the database cannot store the latter.

The zero-width joiner and non-joiner are the one exception in free text
(``joiners=True``, chat): between two visible characters they build emoji
sequences and the letters of some scripts, and hide nothing there.  Names
refuse them too (accounts.names folds them away, so two names could differ
only by one).  PostgreSQL cannot store NUL in text and jsonb columns, so a
NUL that got past this policy would be a DataError (a 500), not a refusal.

JSON.  Every JSON document a request carries (form fields such as an
action, a setup or a sandbox's starting position, WebSocket frames) is read
by `read_json`: a size limit, a nesting limit checked before the parser
runs (Python's json module recurses once per level, so a deep document
raised RecursionError), no NaN or Infinity (nor a number too big for a float), and no string the database
could not store.  Anything else is a JSONInputError, which the views answer
with a 400.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner
LINE_BREAKS = frozenset("\n\r\t")
_VISIBLE = frozenset("LMNS")  # letters, marks, numbers, symbols (first letter of the category)


def _joins_visible(text: str, index: int) -> bool:
    """Whether the joiner at `index` stands between two visible characters."""
    if index == 0 or index == len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    return (unicodedata.category(before)[0] in _VISIBLE or before == "\ufe0f") and unicodedata.category(
        after
    )[0] in _VISIBLE


def forbidden_character(text: str, *, multiline: bool = False, joiners: bool = False) -> str | None:
    """The first character `text` may not contain under the policy above, or None."""
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cc":
            if multiline and ch in LINE_BREAKS:
                continue
            return ch
        if category == "Cf":
            if joiners and ch in JOINERS and _joins_visible(text, index):
                continue
            return ch
        if category in ("Co", "Cs") or (category in ("Zl", "Zp") and not multiline):
            return ch
    return None


def text_problem(text: str, *, multiline: bool = False, joiners: bool = False) -> str | None:
    """A translated sentence saying why `text` is refused, or None when it is fine."""
    if forbidden_character(text, multiline=multiline, joiners=joiners) is None:
        return None
    return _("Control characters, invisible characters and direction overrides are not allowed in this text.")


def check_text(text: str, *, multiline: bool = False, joiners: bool = False) -> str:
    """`text` itself, or a ValidationError (for forms and services alike)."""
    problem = text_problem(text, multiline=multiline, joiners=joiners)
    if problem is not None:
        raise ValidationError(problem, code="forbidden_character")
    return text


def validate_one_line_text(text: str) -> None:
    """The policy as a Django field validator (one-line fields)."""
    check_text(text)


def is_plain_url_text(text: str) -> bool:
    """Whether a URL parameter may reach a query: no character the policy
    refuses (a NUL reaches PostgreSQL as a DataError)."""
    return forbidden_character(text) is None


# --- JSON ------------------------------------------------------------------------------


class JSONInputError(ValueError):
    """A JSON document the site does not read (a 400)."""


def nesting(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside
    strings do not count).  Linear and without recursion, so that a
    document too deep for the parser is measured safely."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise JSONInputError(name)


def _storable(value: Any) -> bool:
    """No NUL and no lone surrogate in any string or key (walked without recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):  # 1e999 reads as Infinity
        raise JSONInputError(text)
    return value


def read_json(text: str | bytes | None, *, max_chars: int, max_depth: int) -> Any:
    """The value of a JSON text no longer than `max_chars` and nested no deeper
    than `max_depth`; JSONInputError for anything else (see the module)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError("not UTF-8") from None
    if not isinstance(text, str) or len(text) > max_chars:
        raise JSONInputError("too long")
    if nesting(text) > max_depth:
        raise JSONInputError("too deep")
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):  # ValueError covers JSONDecodeError and over-long integers
        raise JSONInputError("not JSON") from None
    if not _storable(value):
        raise JSONInputError("unstorable string")
    return value


class PlainTextConverter:
    """A URL path segment under the text policy (a username in
    /players/<plain:username>/): anything else matches no URL, so it is a 404
    before it can reach a query."""

    regex = "[^/]{1,150}"

    def to_python(self, value: str) -> str:
        if not is_plain_url_text(value):
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        return value
