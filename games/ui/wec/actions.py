"""How a Wec action reaches the site: read from a posted form (one field per
key) and matched against the player's legal actions.  The shared act view and
submit service reach these through the GameUI hooks ``action_from_fields``
and ``accepts`` (games/registry.py), so they know no Wec action type."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.forms import ActionError
from games.services import IllegalMove, MalformedAction

#: The engine's action types (games/rules/wec/actions/common.py ACTION_TYPES).
ACTION_TYPES = ("move", "end_turn", "fire", "pickup", "drop", "exchange", "reinforce")
LEVELS = ("ground", "air", "sub")
_TEXT_FIELDS = ("weapon", "article", "swap", "path", "piece_type")
_ID_FIELDS = ("piece", "to_piece")
# Keys a player may leave out when only one of their pieces fits.
_OPTIONAL_IDS = ("piece", "to_piece")


def _place(text: str, *, square_only: bool = False) -> list:
    """'r-c-level' (or 'r-c' for a Square) -> [r, c, level] / [r, c]."""
    parts = str(text).strip().split("-")
    try:
        if square_only or len(parts) == 2:
            row, col = (int(x) for x in parts)
            level = None
        else:
            row, col, level = int(parts[0]), int(parts[1]), parts[2]
    except (TypeError, ValueError):
        raise ActionError(_("That square is not valid.")) from None
    if not (1 <= row <= 10 and 1 <= col <= 10) or (level is not None and level not in LEVELS):
        raise ActionError(_("That square is not valid."))
    return [row, col] if level is None else [row, col, level]


def action_from_fields(data) -> dict:
    """The action a form posted one field per key (`type`, places as
    'r-c-level', `direction` as 'dr,dc', ids as numbers), as the buttons of
    the Wec board post it.  Raises ActionError when it cannot be read;
    whether it is legal is the service's business."""
    kind = (data.get("type") or "").strip()
    if kind not in ACTION_TYPES:
        raise ActionError(_("That is not a valid action."))
    action: dict = {"type": kind}
    if data.get("from"):
        action["from"] = _place(data["from"])
    if data.get("to"):
        action["to"] = _place(data["to"], square_only=kind == "reinforce")
    if data.get("target"):
        action["target"] = _place(data["target"])
    if data.get("direction"):
        try:
            step = [int(x) for x in str(data["direction"]).split(",")]
        except ValueError:
            raise ActionError(_("That direction is not valid.")) from None
        if len(step) != 2 or step == [0, 0] or any(x not in (-1, 0, 1) for x in step):
            raise ActionError(_("That direction is not valid."))
        action["direction"] = step
    for key in _ID_FIELDS:
        if data.get(key):
            try:
                action[key] = int(data[key])
            except ValueError:
                raise ActionError(_("That is not a valid action.")) from None
    for key in _TEXT_FIELDS:
        if data.get(key):
            action[key] = str(data[key]).strip()
    if data.get("carry") in ("1", "true", "on"):
        action["carry"] = True
    return action


# Values that normalise to themselves (exact types: a subclass goes the long way).
_PLAIN = frozenset((str, int, bool, float, type(None)))


def _norm(value):
    """Lists for tuples, str keys, no None values in dicts, recursively.
    Plain values are passed over by an exact type test before any call: a
    submit normalises every legal action of its kind (~50), and the
    isinstance chain per leaf was most of `accepts`."""
    kind = type(value)
    if kind is dict:
        return {
            (k if type(k) is str else str(k)): (v if type(v) in _PLAIN else _norm(v))
            for k, v in value.items()
            if v is not None
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else _norm(v) for v in value]
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in value.items() if v is not None}
    return value


def normalise_action(action) -> object:
    """An action in one canonical form for comparison: lists for tuples, no
    None values, no `carry: false`, a Transport's default `path`, dozed Squares
    sorted."""

    return canonical_defaults(_norm(action))


def canonical_defaults(out: object) -> object:
    """An action already in lists and without None values, with the defaults
    made canonical: no `carry: false`, a Transport's `path`, dozed Squares
    sorted (the second half of `normalise_action`)."""
    if not isinstance(out, dict):
        return out
    if out.get("carry") is False:
        del out["carry"]
    if out.get("type") == "fire" and "to" in out and "path" not in out:
        out["path"] = "beeline"
    if isinstance(out.get("doze"), list):
        out["doze"] = sorted(out["doze"], key=repr)
    return out


def match_legal_action(action: dict, legal: list[dict]) -> dict:
    """The entry of `legal` (the player's legal_actions) that `action` is, after
    normalising; an action leaving out `piece` / `to_piece` matches when exactly
    one entry fits.  Raises IllegalMove (nothing else fits) or MalformedAction
    (several of the player's pieces could do it)."""
    wanted = normalise_action(action)
    kind = action.get("type")
    for candidate in legal:
        # (normalising never changes the type: others are passed over unnormalised)
        if candidate.get("type") == kind and normalise_action(candidate) == wanted:
            return candidate
    left_out = [k for k in _OPTIONAL_IDS if k not in wanted]
    if left_out:
        fits = {}
        for candidate in legal:
            if candidate.get("type") != kind:
                continue
            norm = normalise_action(candidate)
            for key in left_out:
                norm.pop(key, None)
            if norm == wanted:
                fits[repr(normalise_action(candidate))] = candidate
        if len(fits) == 1:
            return next(iter(fits.values()))
        if len(fits) > 1:
            raise MalformedAction(_("Several of your pieces could do that; choose one of them first."))
    if kind == "end_turn" and legal:
        raise IllegalMove(_("Make your Move before you end your turn."))
    if kind not in ACTION_TYPES:
        raise IllegalMove(_("There is no such action."))
    raise IllegalMove(_("That action is not allowed now."))
