"""Marshal and Spy through a real browser, ASGI server and Celery worker
: a challenge for the game with its options, both sides set up on
the setup screen (tap to swap, the default, Ready), moves by click including
a fight and a Spy reveal, each player's page shows only what that player
may know, and after a resignation the review steps through every Turn."""

import re

import pytest
from browser_steps import accept_challenge, refresh_board, sign_up, wait_live  # shared steps
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def move(page, frm: str, to: str):
    version = int(page.locator("#board").get_attribute("data-version"))
    page.locator(f".piece-btn[data-place='{frm}']").click()
    expect(page.locator(f"#board[data-selected='{frm}']")).to_have_count(1)
    page.locator(f".target-btn[data-target='{to}']").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(version))


def tokens(page, color):
    """The titles of every token of `color` on the board."""
    return [el.get_attribute("title") for el in page.locator(f"#mboard .mtok-{color}").all()]


def test_marshal_challenge_setup_fight_and_spy_reveal(new_page, shot):
    alice = new_page()
    bob = new_page(width=390, height=844)
    sign_up(alice, "alice_m")
    sign_up(bob, "bob_m")

    # A Marshal and Spy challenge with an option changed (no volcanoes).
    alice.select_option("select[name=engine]", "marshal")
    alice.check("input[name=opponent][value=user]")
    alice.fill("input[name=username]", "bob_m")
    alice.select_option("select[name=color]", "black")
    alice.locator("#game-options-marshal summary").click()
    alice.fill("input[name=mopt_volcanoes]", "0")
    alice.click("#new-game-form button[type=submit]")
    expect(alice.locator("#challenge")).to_be_visible()
    expect(alice.locator("#challenge")).to_contain_text("Volcanoes")
    expect(alice.locator("#challenge-game")).to_contain_text("Marshal and Spy")
    game_path = re.sub(r"^https?://[^/]+", "", alice.url).replace("challenge/", "")
    bob.goto("/")
    accept_challenge(bob)

    # Black sets up: the default army is filled in; two taps swap two pieces.
    alice.goto(game_path)
    wait_live(alice)
    expect(alice.locator("#setup-screen")).to_be_visible()
    expect(alice.locator("#setup-ready")).to_be_enabled()
    alice.click("#setup-clear")
    expect(alice.locator("#setup-ready")).to_be_disabled()
    alice.click("#setup-default")
    alice.click("#msq-2-6")  # a General...
    # The live page swaps the board in when its socket (re)opens or the
    # opponent acts; the arrangement in progress (and the General picked up)
    # must survive that.
    refresh_board(alice)
    alice.click("#msq-3-1")  # ...to the front row
    alice.click("#msq-2-7")  # a Spy...
    alice.click("#msq-3-2")  # ...beside it
    expect(alice.locator("#msq-3-1 use")).to_have_attribute("href", "#m-general")
    expect(alice.locator("#msq-3-2 use")).to_have_attribute("href", "#m-spy")
    alice.click("#setup-save")
    expect(alice.locator("#setup-status")).to_contain_text("favourite")
    shot(alice, "m01-alice-setup")
    alice.click("#setup-ready")
    expect(alice.locator(".their-turn-flag")).to_be_visible()

    # White sets up with the default army; Black's pieces never showed before.
    bob.goto(game_path)
    wait_live(bob)
    expect(bob.locator("#setup-screen")).to_be_visible()
    assert bob.locator("#mboard .mtok-black").count() == 0
    bob.click("#setup-ready")
    expect(bob.locator(".their-turn-flag")).to_be_visible()
    expect(alice.locator(".your-turn-flag")).to_be_visible(timeout=10000)

    move(alice, "3-1", "4-1")
    move(alice, "3-2", "4-2")
    expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=10000)
    move(bob, "8-1", "7-1")
    move(bob, "8-2", "7-2")
    expect(alice.locator(".your-turn-flag")).to_be_visible(timeout=10000)
    move(alice, "4-1", "5-1")
    move(alice, "4-2", "5-2")
    expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=10000)
    move(bob, "7-1", "6-1")  # next to Black's Spy: revealed to Black
    move(bob, "8-3", "7-3")
    expect(alice.locator(".your-turn-flag")).to_be_visible(timeout=10000)
    expect(alice.locator("#msq-6-1 .mtok-white")).to_have_attribute("title", "Captain — revealed by your Spy")
    move(alice, "5-1", "6-1")  # the General attacks the Captain and wins
    move(alice, "5-2", "6-2")  # the Spy reveals two Lieutenants
    expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=10000)
    shot(alice, "m02-alice-after-fight")
    shot(bob, "m03-bob-after-fight")

    # Black's page: its own types, the revealed White pieces, the rest unknown.
    white_seen = tokens(alice, "white")
    assert sorted(t for t in white_seen if t != "unknown piece") == [
        "Lieutenant — revealed by your Spy", "Lieutenant — revealed by your Spy",
    ]
    assert len(white_seen) == 29
    expect(alice.locator("#lost-enemy")).to_contain_text("Captain ×1")
    expect(alice.locator("#msq-6-1 .mtok-black")).to_have_attribute("title", "General")
    # White's page: every Black piece unknown (the General that won too), its
    # own Captain lost, and it is told which of its pieces Black knows.
    black_seen = tokens(bob, "black")
    assert len(black_seen) == 30 and set(black_seen) == {"unknown piece"}
    expect(bob.locator("#lost-own")).to_contain_text("Captain ×1")
    expect(bob.locator("#known-own")).to_contain_text("Lieutenant (7,2)")
    expect(bob.locator("#known-own")).to_contain_text("Lieutenant (7,3)")
    assert bob.locator("#mboard .mtok-black use[href='#m-unknown']").count() == 30
    # The censored records: Black's own letters for its moves, "?" on White's side.
    bob.locator("#history summary").click()
    bob.locator("label[for=hist-notation]").click()
    expect(bob.locator("#hist-notation-list")).to_contain_text("5. B: ?(5,1)x3(6,1)+")
    alice.locator("#history summary").click()
    alice.locator("label[for=hist-notation]").click()
    expect(alice.locator("#hist-notation-list")).to_contain_text("5. B: 5(5,1)x3(6,1)+, S(5,2)-(6,2)")

    # White resigns between Turns; Black's page turns into the review, which
    # steps through every Turn (two moves each), line for line with the record.
    bob.get_by_role("button", name="Resign").click()
    bob.locator("#confirm-dialog .confirm-yes").click()
    expect(alice.locator("#replay")).to_be_visible(timeout=20000)
    expect(alice.locator("#replay-caption")).to_contain_text("After turn 5 of 5")
    expect(alice.locator("#replay #msq-6-1 .mtok-black")).to_have_attribute("title", "General")
    alice.locator("#replay-prev").click()
    expect(alice.locator("#replay-caption")).to_contain_text("After turn 4 of 5")
    expect(alice.locator("#replay #msq-6-1 .mtok-white")).to_have_attribute("title", re.compile(r"^Captain"))
    expect(alice.locator("#replay #msq-5-1 .mtok-black")).to_have_attribute("title", "General")
    alice.locator("#replay-first").click()
    expect(alice.locator("#replay-caption")).to_contain_text("Start position.")
    expect(alice.locator("#replay #msq-3-1 .mtok-black")).to_have_attribute("title", "General")
    alice.locator("#replay-next").click()
    expect(alice.locator("#replay-caption")).to_contain_text("After turn 1 of 5")
    expect(alice.locator("#replay #msq-4-1 .mtok-black")).to_have_attribute("title", "General")
    shot(alice, "m04-alice-review-turn-1")
