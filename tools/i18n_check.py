#!/usr/bin/env python3
"""List the untranslated and fuzzy entries of the gettext catalogues.

    python -m tools.i18n_check [locale-dir]      (default: ./locale)

Prints one line per problem (file, line, kind, msgid) and a summary per
catalogue; exits 1 when any catalogue has an untranslated or fuzzy entry.
Pure Python (no GNU gettext needed); the i18n tests in tests/site use it."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    line: int
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    obsolete: bool = False


def _unquote(text: str) -> str:
    return ast.literal_eval(text.strip()) if text.strip().startswith('"') else ""


def parse_po(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int | None] | None = None

    def finish():
        nonlocal current
        if current is not None and (current.msgid or current.msgstr):
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            target = None
            continue
        if line.startswith("#~"):
            if current is None:
                current = Entry(number)
            current.obsolete = True
            continue
        if line.startswith("#,"):
            if current is None or current.msgid or current.msgstr:
                finish()
                current = Entry(number)
            current.fuzzy = current.fuzzy or "fuzzy" in line
            continue
        if line.startswith("#"):
            if current is None:
                current = Entry(number)
            continue
        if current is None:
            current = Entry(number)
        if line.startswith("msgid_plural "):
            current.msgid_plural = _unquote(line[13:])
            target = ("msgid_plural", None)
        elif line.startswith("msgid "):
            if current.msgid or current.msgstr:
                finish()
                current = Entry(number)
            current.msgid = _unquote(line[6:])
            target = ("msgid", None)
        elif line.startswith("msgstr["):
            index = int(line[7 : line.index("]")])
            current.msgstr[index] = _unquote(line[line.index("]") + 1 :])
            target = ("msgstr", index)
        elif line.startswith("msgstr "):
            current.msgstr[0] = _unquote(line[7:])
            target = ("msgstr", 0)
        elif line.startswith('"') and target is not None:
            kind, index = target
            if kind == "msgid":
                current.msgid += _unquote(line)
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + _unquote(line)
            else:
                current.msgstr[index] = current.msgstr.get(index, "") + _unquote(line)
    finish()
    return entries


def problems(path: Path) -> list[tuple[int, str, str]]:
    """(line, "untranslated" | "fuzzy", msgid) for each bad entry (the header excluded)."""
    out = []
    for entry in parse_po(path):
        if entry.obsolete or entry.msgid == "":
            continue
        if entry.fuzzy:
            out.append((entry.line, "fuzzy", entry.msgid))
        elif not entry.msgstr or any(not text for text in entry.msgstr.values()):
            out.append((entry.line, "untranslated", entry.msgid))
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "locale"
    failed = False
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        found = problems(po)
        total = sum(1 for e in parse_po(po) if e.msgid and not e.obsolete)
        for line, kind, msgid in found:
            print(f"{po}:{line}: {kind}: {msgid[:80]!r}")
        print(f"{po}: {total - len(found)} of {total} translated, {len(found)} to do")
        failed = failed or bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
