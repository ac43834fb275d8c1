"""The plain-words game record in the reader's language.

The engine writes each Turn as an English sentence (games/rules/wec/plain.py)
and offers its parts (plain_parts.plain_parts); here each part becomes a
whole translated phrase with placeholders. English lines are shown exactly as
the engine wrote them; a line the engine's reader does not recognise stays
English rather than half translated."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from games.rules.wec.plain_parts import plain_parts
from games.ui.wec.board import PROJECTILES

from .words import PIECE_PHRASES, article_name, piece_name

_COMPASS = {
    "north": gettext_lazy("north"), "south": gettext_lazy("south"), "east": gettext_lazy("east"),
    "west": gettext_lazy("west"), "north-east": gettext_lazy("north-east"),
    "north-west": gettext_lazy("north-west"), "south-east": gettext_lazy("south-east"),
    "south-west": gettext_lazy("south-west"),
}
_PATHS = {"port": gettext_lazy("port"), "starboard": gettext_lazy("starboard")}
_KILLED_BY = {
    "flamer": gettext_lazy("by a Flamer"), "rocket": gettext_lazy("by a Rocket"), "sam": gettext_lazy("by a SAM"),
    "torpedo": gettext_lazy("by a Torpedo"), "stunner_kill": gettext_lazy("by a Stunner kill"),
    "conversion_kill": gettext_lazy("by a Conversion kill"), "crash": gettext_lazy("in a crash"),
}
# The engine's English names of what a piece resisted.
_ATTACKS = {"Rocket": "rocket", "SAM": "sam", "Torpedo": "torpedo"}
_WEAPON_ARTICLES = {"Flamer": "flamer", "Stunner": "stunner", "Conversion Symbol": "conversion"}


def _square(p: dict[str, Any]) -> str:
    words = {"row": p["row"], "col": p["col"]}
    level = p.get("level", "ground")
    if level == "air":
        return _("(%(row)s,%(col)s) in the air") % words
    if level == "sub":
        return _("(%(row)s,%(col)s) under water") % words
    return f"({p['row']},{p['col']})"


def _bare(p: dict[str, Any]) -> str:
    phrase = PIECE_PHRASES.get((p["color"], None))
    return str(phrase % {"piece": piece_name(p["type"])})


def _who(p: dict[str, Any]) -> str:
    return pgettext("record", "%(piece)s %(square)s") % {"piece": _bare(p), "square": _square(p)}


def _proj(kind: str) -> str:
    return str(PROJECTILES[kind][1])


def _list(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("%(list)s and %(last)s") % {"list": ", ".join(items[:-1]), "last": items[-1]}


def _event(e: dict[str, Any]) -> str:
    k = e["k"]
    w: dict[str, Any] = {}
    if "piece" in e:
        w["piece"] = _bare(e["piece"]) if k in ("landed", "rode_on") else _who(e["piece"])
    if "at" in e:
        w["square"] = _square(e["at"])
    if "target" in e:
        w["piece"] = _who(e["target"])
    if "proj" in e:
        w["projectile"] = _proj(e["proj"])
    if "dir" in e:
        w["direction"] = _COMPASS[e["dir"]]
    if k == "destroyed_by":
        w["by"] = _KILLED_BY[e["by"]]
        return (_("%(piece)s was destroyed %(by)s") if e["was"] else _("%(piece)s destroyed %(by)s")) % w
    if k == "resisting":
        attack = e["attack"]
        w["attack"] = _proj(_ATTACKS[attack]) if attack in _ATTACKS else article_name(_WEAPON_ARTICLES[attack])
        return _("%(piece)s resisting the %(attack)s") % w
    if k == "landed":
        return (_("%(piece)s coming down to %(square)s") if e["attached"] else _("%(piece)s came down to %(square)s")) % w
    phrases = {
        "taking": _("taking %(piece)s"),
        "was_taken": _("%(piece)s was taken"),
        "destroying": _("destroying %(piece)s"),
        "stunning": _("stunning %(piece)s"),
        "was_stunned": _("%(piece)s was stunned"),
        "converting": _("converting %(piece)s"),
        "was_converted": _("%(piece)s was converted"),
        "crashed": _("%(piece)s crashed"),
        "rode_on": _("%(piece)s rode on to %(square)s"),
        "arrived": _("%(piece)s arrived"),
        "stopping": _("stopping at %(square)s"),
        "bumped": _("but a piece unseen at %(square)s blocked the dozing"),
        "hit": _("a %(projectile)s hit %(square)s"),
        "homing_flew": _("a %(projectile)s homing on %(piece)s flew to %(square)s"),
        "flew": _("a %(projectile)s flew %(direction)s to %(square)s"),
        "lock_lost": _("a %(projectile)s lost its target"),
        "spent": _("the %(projectile)s, with no heading to fly on, was spent"),
        "gone": _("a %(projectile)s left the board"),
    }
    return phrases[k] % w


def _thing(kind: str) -> str:
    # An Article, or (only the XXX box and Rocket names overlap) a piece type.
    name = article_name(kind)
    return str(piece_name(kind)) if str(name) == kind.replace("_", " ") else str(name)


def _head(h: dict[str, Any]) -> str:
    k = h["k"]
    w: dict[str, Any] = {}
    if "to" in h:
        w["square"] = _square(h["to"])
    if "target" in h:
        w["piece"] = _who(h["target"])
    if "dir" in h:
        w["direction"] = _COMPASS[h["dir"]]
    if "proj" in h:
        w["projectile"] = _proj(h["proj"])
    if "article" in h:
        w["article"] = _thing(h["article"])
    if k == "moved":
        if h.get("carried"):
            w["piece"] = piece_name(h["carried"])
            return _("moved to %(square)s, carrying the %(piece)s") % w
        return _("moved to %(square)s") % w
    if k == "dozed":
        if h.get("pushed"):
            w["pieces"] = _list([_who(p) for p in h["pushed"]])
            return _("dozed %(direction)s to %(square)s, pushing %(pieces)s") % w
        return _("dozed %(direction)s to %(square)s") % w
    if k == "set_off":
        if h.get("path"):
            w["path"] = _PATHS[h["path"]]
            return _("set off by %(article)s for %(square)s by the %(path)s path") % w
        return _("set off by %(article)s for %(square)s") % w
    if k == "fired":
        w["weapon"] = article_name(h["weapon"])
        return _("fired its %(weapon)s %(direction)s") % w
    if k == "swapped":
        w["other"] = _thing(h["swap"])
        return _("swapped its %(article)s for the %(other)s of %(piece)s") % w
    phrases = {
        "fired_rocket_at": _("fired its Rocket at %(piece)s"),
        "homing": _("launched a homing %(projectile)s at %(piece)s"),
        "launched": _("launched a %(projectile)s %(direction)s"),
        "picked_up": _("picked up %(article)s"),
        "dropped": _("dropped its %(article)s"),
        "gave": _("gave its %(article)s to %(piece)s"),
        "reinforced": _("arrived as a reinforcement"),
    }
    return phrases[k] % w


def _clause(c: dict[str, Any]) -> str:
    k = c["k"]
    events = [_event(e) for e in c["parts"]]
    if k == "no_move":
        return {"Black": _("Black made no Move"), "White": _("White made no Move")}.get(
            c["side"], _("The side to move made no Move"))
    if k == "unseen_move":
        return {"Black": _("Black moved a piece out of sight"), "White": _("White moved a piece out of sight")}.get(
            c["side"], _("The side to move moved a piece out of sight"))
    if k == "end_of_turn":
        return _("at the end of the Turn %(events)s") % {"events": ", ".join(events)}
    if k == "events":
        return ", ".join(events)
    head = _head(c["head"])
    subject = c.get("subject")
    if subject is not None:
        where = {**subject, "level": "ground"} if c["head"]["k"] == "reinforced" else subject
        head = pgettext("record", "%(piece)s %(action)s") % {"piece": _who(where), "action": head}
    return ", ".join([head] + events)


def translated_line(line: str) -> str:
    """A plain-words record line in the active language (English unchanged)."""
    language = get_language() or "en"
    if language.split("-")[0] == "en":
        return line
    return _translated(line, language)


# Reading a line back costs about half a millisecond; a record's lines never
# change, and each board render shows them all again, so keep the answers.
# The language is part of the key (the active one is what gettext uses).
@lru_cache(maxsize=8192)
def _translated(line: str, language: str) -> str:
    clauses = plain_parts(line)
    if not clauses:
        return line
    text = "; ".join(_clause(c) for c in clauses)
    return text[:1].upper() + text[1:] + "."
