"""Statistics the arenas print."""

from __future__ import annotations

import math


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a share of ``points``
    out of ``n`` games (a draw counts a half)."""
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))
