"""Correspondence features in a real browser: the clock, the live notification
badge, and the review of an ended game (record toggle, replay)."""

import re

import pytest
from browser_steps import accept_challenge, challenge, sign_up, wait_live  # shared steps
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def make_a_move(page):
    """Select own pieces until one has targets, move it, and end the turn."""
    expect(page.locator(".your-turn-flag")).to_be_visible()
    for place in [el.get_attribute("data-place") for el in page.locator(".piece-btn").all()]:
        page.locator(f".piece-btn[data-place='{place}']").click()
        expect(page.locator(f"#board[data-selected='{place}']")).to_have_count(1)
        if page.locator(".target-btn").count():
            break
    page.locator(".target-btn").first.click()
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    page.locator("#end-turn").click()
    page.locator("#confirm-dialog .confirm-yes").click()  # End Turn asks first
    expect(page.locator(".their-turn-flag")).to_be_visible()


def test_clock_badge_and_review(new_page, shot):
    alice = new_page()
    bob = new_page()
    sign_up(alice, "alice_c")
    sign_up(bob, "bob_c")

    # A challenge: Bob is told, answers it, and only then does the clock start.
    game_path = challenge(alice, "bob_c", days_per_move="2")
    bob.goto("/")
    expect(bob.locator("#notif-link .notif-count")).to_have_text(re.compile(r"^1"))
    accept_challenge(bob)
    alice.goto(game_path)
    wait_live(alice)
    expect(alice.locator("#clocks")).to_contain_text("2 days per move")
    expect(alice.locator("#clocks .clock.running .time-left")).to_have_text(re.compile(r"^1 day 23 h left$"))

    # Bob waits on the home page (he read the challenge's notice) ...
    bob.goto("/")
    expect(bob.locator("#notif-link .notif-count")).to_have_count(0)
    expect(bob.locator(".game-list li").first).to_contain_text("Their turn")
    # ... and when Alice ends her turn, his badge and list update by themselves.
    bob.wait_for_timeout(1000)  # let the notification socket connect
    make_a_move(alice)
    expect(bob.locator("#notif-link .notif-count")).to_have_text(re.compile(r"^1"), timeout=10000)
    expect(bob.locator(".game-list li").first).to_contain_text("Your turn", timeout=10000)
    expect(bob.locator(".game-list li").first).to_contain_text("left")
    shot(bob, "11-bob-badge-your-turn")

    # Opening the game reads its notices.
    bob.locator(".game-list a").first.click()
    wait_live(bob)
    expect(bob.locator("#notif-link .notif-count")).to_have_count(0)
    expect(bob.locator(".history .hist-plain li")).to_have_count(1)  # inside the closed record

    # Bob resigns; Alice's page turns into the review by itself.
    bob.get_by_role("button", name="Resign").click()
    bob.locator("#confirm-dialog .confirm-yes").click()  # the page's own confirmation dialog
    # (the review draws three boards: give a loaded machine time)
    expect(alice.locator("#replay")).to_be_visible(timeout=20000)
    expect(alice.locator(".turn-line")).to_contain_text("You won.")
    expect(alice.locator(".history")).to_have_attribute("open", "")
    expect(alice.locator(".history .hist-plain")).to_be_visible()
    expect(alice.locator(".history .hist-notation")).to_be_hidden()
    alice.locator("label[for=hist-notation]").click()
    expect(alice.locator(".history .hist-notation")).to_be_visible()
    expect(alice.locator(".history .hist-plain")).to_be_hidden()
    expect(alice.locator(".history .hist-notation li").first).to_contain_text("MV:")
    expect(alice.locator("#replay-caption")).to_contain_text("After turn 1 of 1")
    shot(alice, "12-alice-review-end")
    alice.locator("#replay-prev").click()
    expect(alice.locator("#replay-caption")).to_contain_text("Start position.")
    expect(alice.locator("#replay-at")).to_have_value("0")
    alice.locator("#replay-at").focus()
    alice.keyboard.press("ArrowRight")
    expect(alice.locator("#replay-caption")).to_contain_text("After turn 1 of 1")
    shot(alice, "13-alice-review-replay")
