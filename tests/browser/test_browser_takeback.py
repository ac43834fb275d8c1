"""Take-backs and undo requests in a friendly game, in a real browser (Debian
Chromium) at a desktop size and a phone size (390x844): Black moves and takes
the Move back, moves again and ends the Turn, asks White to undo it; White's
open page shows the request live, White grants it (after a confirmation), and
Black's open page is back at the start of that Turn, live.  Screenshots go to
tests/browser/artifacts/takeback-*.png."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Wec-browser-pw-56"
SIZES = {"desktop": (1100, 1000), "phone": (390, 844)}
SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False, "reinforcements": "none"},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right"},
        {"type": "king", "color": "white", "row": 10, "col": 10},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "left"},
    ],
    "articles": [],
}


def log_in(page, username, next_url):
    page.goto(f"/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")


AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


def axe_serious(page) -> list:
    """axe-core's serious and critical violations (as in test_browser_game_page)."""
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => JSON.stringify(await axe.run(document, {resultTypes: ['violations']}))")
    return [(v["id"], [n["target"] for n in v["nodes"]][:5]) for v in json.loads(result)["violations"] if v["impact"] in ("serious", "critical")]


def tap_size_ok(page, selector) -> None:
    box = page.locator(selector).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, (selector, box)


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))

KING_HOME = ".sq[data-row='1'][data-col='1'] .tok-black"


def move_king(page):
    v = version(page)
    page.locator(".piece-btn[data-place='1-1-ground']").click()
    expect(page.locator("#board[data-selected='1-1-ground']")).to_have_count(1)
    page.locator(".target-btn").first.click()
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v + 1))
    expect(page.locator(KING_HOME)).to_have_count(0)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_take_back_then_an_undo_request_granted(new_page, shot, django_user_model, size):
    from games.models import Game
    from games.services import create_game

    black = django_user_model.objects.create_user(f"ub_{size}", f"ub_{size}@example.com", PASSWORD)
    django_user_model.objects.create_user(f"uw_{size}", f"uw_{size}@example.com", PASSWORD)
    game = create_game(
        creator=black, opponent="user", username=f"uw_{size}", color="black", scenario=SCENARIO, competitive=False
    )
    width, height = SIZES[size]
    bpage = new_page(width, height)
    log_in(bpage, f"ub_{size}", f"/games/{game.pk}/")
    expect(bpage.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
    wpage = new_page(width, height)
    log_in(wpage, f"uw_{size}", f"/games/{game.pk}/")
    expect(wpage.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)

    # Nothing to take back before the first action.
    expect(bpage.locator("#take-back")).to_have_count(0)
    move_king(bpage)
    take_back = bpage.locator("#take-back")
    expect(take_back).to_be_visible()
    if size == "phone":
        tap_size_ok(bpage, "#take-back")
    assert axe_serious(bpage) == []
    shot(bpage, f"takeback-{size}-01-after-move")
    v = version(bpage)
    take_back.click()
    expect(bpage.locator("#board")).to_have_attribute("data-version", str(v + 1))
    expect(bpage.locator(KING_HOME)).to_have_count(1)
    expect(bpage.locator("#take-back")).to_have_count(0)
    shot(bpage, f"takeback-{size}-02-taken-back")

    # The keyboard does it too (u).
    move_king(bpage)
    v = version(bpage)
    bpage.locator("body").press("u")
    expect(bpage.locator("#board")).to_have_attribute("data-version", str(v + 1))
    expect(bpage.locator(KING_HOME)).to_have_count(1)

    # Move again and end the Turn (confirmed).
    move_king(bpage)
    bpage.locator("#end-turn").click()
    bpage.locator("#confirm-dialog .confirm-yes").click()
    expect(bpage.locator(".their-turn-flag")).to_be_visible()
    expect(bpage.locator("#take-back")).to_have_count(0)

    # Black asks White to undo that Turn; White's open page shows it live.
    bpage.locator("#request-undo").click()
    expect(bpage.locator("#undo-status")).to_have_text("You asked your opponent to undo your last turn.")
    expect(wpage.locator("#undo-status")).to_have_text("Your opponent asks you to undo their last turn.", timeout=15000)
    shot(bpage, f"takeback-{size}-03-undo-requested")
    shot(wpage, f"takeback-{size}-04-undo-request-seen")
    if size == "phone":
        for selector in ("#grant-undo", "#decline-undo"):
            tap_size_ok(wpage, selector)
        tap_size_ok(bpage, "#withdraw-undo")
    assert axe_serious(wpage) == []
    # Granting asks first.
    wpage.locator("#grant-undo").click()
    dialog = wpage.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    shot(wpage, f"takeback-{size}-05-grant-confirmation")
    dialog.locator(".confirm-yes").click()
    expect(wpage.locator(".their-turn-flag")).to_be_visible()
    # Black's page is back at the start of its Turn, live.
    expect(bpage.locator(KING_HOME)).to_have_count(1, timeout=15000)
    expect(bpage).to_have_title(f"\u25b6 Your turn \u00b7 vs uw_{size} \u00b7 Game {game.pk} \u00b7 Wec Online")
    expect(bpage.locator("#undo-status")).to_have_count(0)
    shot(bpage, f"takeback-{size}-06-after-undo")
    game.refresh_from_db()
    assert game.to_move == "black" and game.undo_request == "" and game.status == Game.Status.ACTIVE
