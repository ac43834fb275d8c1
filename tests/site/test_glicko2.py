"""Glicko-2 against Glickman's published worked example ("Example of the
Glicko-2 system", 2013): a 1500 / 200 / 0.06 player beats a 1400 / 30 and
loses to a 1550 / 100 and a 1700 / 300 with tau 0.5."""

import math

from hypothesis import given
from hypothesis import strategies as st

from games.glicko2 import Rating, rate


def test_glickman_worked_example():
    after = rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
        tau=0.5,
    )
    assert round(after.rating, 2) == 1464.05  # the paper rounds this to 1464.06
    assert round(after.deviation, 2) == 151.52
    assert math.isclose(after.volatility, 0.05999, abs_tol=0.00001)


def test_no_games_only_widens_the_deviation():
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.deviation > 200 and after.volatility == 0.06


ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_never_lowers_and_a_loss_never_raises(player, opponent):
    won = rate(player, [(opponent, 1.0)])
    lost = rate(player, [(opponent, 0.0)])
    drawn = rate(player, [(opponent, 0.5)])
    assert lost.rating <= drawn.rating <= won.rating
    assert won.rating >= player.rating >= lost.rating
    # A game never widens the deviation beyond the pre-period one (Glickman's
    # step 6, with the new volatility): step 7 can only narrow it.
    assert 0 < won.deviation <= math.sqrt(player.deviation**2 + (won.volatility * 173.7178) ** 2) + 1e-6
