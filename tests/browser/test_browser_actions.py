"""The action panel in a real browser: select a piece, fire from the panel, end the turn."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Wec-browser-pw-55"

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "king", "color": "white", "row": 10, "col": 1},
        {"type": "tank", "color": "black", "row": 4, "col": 5},
        {"type": "rocket_pawn", "color": "white", "row": 5, "col": 5},
        {"type": "jet", "color": "black", "row": 6, "col": 6, "level": "air"},
        {"type": "jet", "color": "white", "row": 7, "col": 7, "level": "air"},
        {"type": "dozer", "color": "black", "row": 3, "col": 3},
    ],
    "articles": [{"type": "bike", "row": 3, "col": 3}],
}


def log_in(page, username, game_id):
    page.goto(f"/accounts/login/?next=/games/{game_id}/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)


def test_fire_from_the_action_panel_then_end_turn(new_page, shot, django_user_model):
    from games.services import create_game

    fay = django_user_model.objects.create_user("fay_b", "fay@example.com", PASSWORD)
    django_user_model.objects.create_user("gus_b", "gus@example.com", PASSWORD)
    game = create_game(creator=fay, opponent="user", username="gus_b", color="black", scenario=SCENARIO)
    page = new_page()
    log_in(page, "fay_b", game.pk)
    enemy = page.locator(".sq[data-row='5'][data-col='5'] .band-ground .tok")
    expect(enemy).to_have_class("tok tok-white lvl-ground")
    expect(page.locator("#turn-panel [data-item='fires'] .ti-state")).to_have_text("0/2")

    # Select the Tank: its Moves light up and the action panel lists its Fires.
    page.locator(".piece-btn[data-place='4-5-ground']").click()
    expect(page.locator("#board[data-selected='4-5-ground']")).to_have_count(1)
    expect(page.locator("#action-panel")).to_be_visible()
    fire_north = page.get_by_role("button", name="Fire Flamer \u2191 north", exact=True)
    expect(fire_north).to_be_visible()

    # Aiming on the board shows the eight neighbouring squares in orange.
    page.locator(".aim-btn[data-weapon='flamer']").click()
    expect(page.locator(".band.target-aim")).to_have_count(8)
    shot(page, "10-aim-flamer-on-the-board")
    page.locator("#cancel-mode").click()
    expect(page.locator(".band.target-aim")).to_have_count(0)
    shot(page, "11-action-panel-tank")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the panels go below the board
    shot(page, "11b-action-panel-tank-phone")
    page.set_viewport_size({"width": 1100, "height": 1000})

    # Fire north from the panel: the white pawn burns, the Tank's Flamer cools down.
    # (The page counts the player's own view versions: one more per own action.)
    v0 = int(page.locator("#board").get_attribute("data-version"))
    page.get_by_role("button", name="Fire Flamer \u2191 north", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 1))
    expect(enemy).to_have_count(0)
    expect(page.locator("#turn-panel [data-item='fires'] .ti-state")).to_have_text("1/2")
    expect(page.locator(".sq[data-row='4'][data-col='5'] .tb.b-cd")).to_have_text("4")
    shot(page, "12-after-fire")

    # The Move of the Turn (the Jet's), then End Turn.
    page.locator(".piece-btn[data-place='6-6-air']").click()
    expect(page.locator("#board[data-selected='6-6-air']")).to_have_count(1)
    page.locator(".target-btn").first.click()
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 2))
    page.locator("#end-turn").click()
    page.locator("#confirm-dialog .confirm-yes").click()  # End Turn asks first
    expect(page.locator(".their-turn-flag")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 3))
    shot(page, "13-after-end-turn")
    assert "tok-white lvl-ground" not in page.locator(".sq[data-row='5'][data-col='5']").inner_html()
