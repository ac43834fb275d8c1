"""Steps the browser tests share: signing up a new player, challenging
another and accepting, waiting until the game page's websocket is live, and
making a Move and ending the Turn by clicks."""

import re

from playwright.sync_api import expect

PASSWORD = "Wec-browser-pw-55"


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#new-game-form")).to_be_visible()


def wait_live(page):
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)


def refresh_board(page):
    """Swap a fresh #board in as the live page does when its socket (re)opens
    or the opponent acts, and wait until it has settled."""
    page.evaluate(
        """() => new Promise((done) => {
            const root = document.getElementById("game-root");
            document.body.addEventListener("htmx:afterSettle", () => done(), {once: true});
            window.htmx.ajax("GET", root.dataset.boardUrl, {target: "#board", swap: "outerHTML"});
        })"""
    )


def challenge(page, opponent: str, **selects: str) -> str:
    """Challenge `opponent` to a game as Black, with any other <select> of the
    new-game form set from `selects` (name -> value); return the game's path,
    which the challenge's page becomes once it is accepted."""
    page.check("input[name=opponent][value=user]")
    page.fill("input[name=username]", opponent)
    page.select_option("select[name=color]", "black")
    for name, value in selects.items():
        page.select_option(f"select[name={name}]", value)
    page.click("#new-game-form button[type=submit]")
    expect(page.locator("#challenge")).to_be_visible()
    return re.sub(r"^https?://[^/]+", "", page.url).replace("challenge/", "")


def accept_challenge(page):
    """From the dashboard, open the challenge waiting for this player and accept it."""
    page.get_by_role("link", name="Challenge: answer it").click()
    page.click("#accept-challenge")


def make_a_move(page, opponent_is_ai=False):
    """Select own pieces until one has targets, move it, and end the turn."""
    expect(page.locator(".your-turn-flag")).to_be_visible()
    # The player's own view version: one more for each of its own actions.
    seq_before = int(page.locator("#board").get_attribute("data-version"))
    places = [el.get_attribute("data-place") for el in page.locator(".piece-btn").all()]
    assert places, "no selectable pieces"
    for place in places:
        page.locator(f".piece-btn[data-place='{place}']").click()
        expect(page.locator(f"#board[data-selected='{place}']")).to_have_count(1)
        if page.locator(".target-btn").count():
            break
    else:
        raise AssertionError("no piece could move")
    target = page.locator(".target-btn").first
    target.click()
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    expect(page.locator("#end-turn")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-version", str(seq_before + 1))
    page.locator("#end-turn").click()
    page.locator("#confirm-dialog .confirm-yes").click()  # End Turn asks first
    if opponent_is_ai:  # the AI may already have answered; our version moved past the Move either way
        expect(page.locator("#board")).not_to_have_attribute("data-version", str(seq_before + 1))
    else:
        expect(page.locator(".their-turn-flag")).to_be_visible()
    return seq_before
