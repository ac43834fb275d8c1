"""Game options: defaults and validation (the table in docs/engine-api.md).

The seed's standard game moves two different pieces a turn (l. 6) and scatters
volcanoes over the board (l. 18); the options vary those and the board."""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "columns": 10,
    "setup_rows": 3,
    "neutral_rows": 4,
    "volcanoes": 8,
    "moves_per_turn": 2,
    "no_return": "next_turn",
    "turn_limit": 0,
}

_INT_RANGES: dict[str, tuple[int, int]] = {
    "columns": (10, 12),
    "setup_rows": (3, 4),
    "neutral_rows": (2, 6),
    "moves_per_turn": (1, 2),
    "turn_limit": (0, 1000),
}
NO_RETURN_VALUES: tuple[str, ...] = ("next_turn", "until_moved")


def resolve(options: dict[str, Any] | None) -> dict[str, Any]:
    """The full option set: ``options`` over the defaults.

    Raises ``ValueError`` naming an unknown option or a bad value.
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    unknown = sorted(set(options) - set(DEFAULTS), key=str)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}")
    out = dict(DEFAULTS)
    out.update(options)
    for name, (low, high) in _INT_RANGES.items():
        value = out[name]
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"option {name!r} must be a whole number from {low} to {high}, not {value!r}")
    volcanoes = out["volcanoes"]
    # Fewer volcanoes than columns can never wall one zone off from the other.
    if type(volcanoes) is not int or not 0 <= volcanoes <= out["columns"] - 1:
        raise ValueError(
            f"option 'volcanoes' must be a whole number from 0 to {out['columns'] - 1}, not {volcanoes!r}"
        )
    if out["no_return"] not in NO_RETURN_VALUES:
        raise ValueError(
            f"option 'no_return' must be one of {', '.join(NO_RETURN_VALUES)}, not {out['no_return']!r}"
        )
    return out
