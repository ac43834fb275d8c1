"""Two people and the AI, through a real browser, a real ASGI server and a real Celery worker."""

import re

import pytest
from browser_steps import (  # shared steps
    PASSWORD,
    accept_challenge,
    challenge,
    make_a_move,
    sign_up,
    wait_live,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_players_see_each_others_turns_live(new_page, shot):
    alice = new_page()
    bob = new_page(width=390, height=844)  # a phone-sized screen
    sign_up(alice, "alice_b")
    sign_up(bob, "bob_b")

    # A challenge first: Bob accepts it, then the game starts.
    game_path = challenge(alice, "bob_b")
    bob.goto("/")
    accept_challenge(bob)
    alice.goto(game_path)
    expect(alice.locator("#board")).to_be_visible()
    wait_live(alice)
    shot(alice, "01-alice-black-start")

    bob.goto("/")
    expect(bob.locator(".game-list li").first).to_contain_text("Their turn")
    bob.locator(".game-list a").first.click()
    wait_live(bob)
    expect(bob.locator(".their-turn-flag")).to_be_visible()
    shot(bob, "02-bob-white-phone-waiting")

    # Alice selects a piece: its targets light up.
    make_a_move(alice)
    shot(alice, "03-alice-after-end-turn")

    # Bob's page updates by itself (no reload) and it is his turn.
    expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=5000)
    make_a_move(bob)
    expect(alice.locator(".your-turn-flag")).to_be_visible(timeout=5000)
    shot(bob, "04-bob-after-his-turn-phone")

    # Keyboard only: Tab to a piece, Enter selects, Tab to a target, Enter moves.
    alice.locator(".piece-btn").first.focus()
    places = [el.get_attribute("data-place") for el in alice.locator(".piece-btn").all()]
    for place in places:
        alice.locator(f".piece-btn[data-place='{place}']").focus()
        alice.keyboard.press("Enter")
        expect(alice.locator(f"#board[data-selected='{place}']")).to_have_count(1)
        if alice.locator(".target-btn").count():
            break
    shot(alice, "05-alice-selected-piece-targets")
    alice.locator(".target-btn").first.focus()
    alice.keyboard.press("Enter")
    if alice.locator(".choice-btn").count():
        alice.locator(".choice-btn").first.focus()
        alice.keyboard.press("Enter")
    expect(alice.locator("#end-turn")).to_be_visible()
    alice.locator("#end-turn").focus()
    alice.keyboard.press("Enter")
    expect(alice.locator("#confirm-dialog")).to_be_visible()  # End Turn asks first; Enter on its focused Yes
    alice.keyboard.press("Enter")
    expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=5000)
    shot(bob, "06-bob-sees-alice-second-turn")

    # The page never carried piece ids of the other side.
    html = bob.content()
    assert "&quot;id&quot;" not in html


def test_play_against_the_ai(new_page, shot):
    page = new_page()
    sign_up(page, "carol_b")
    page.check("input[name=opponent][value=ai]")
    page.select_option("select[name=color]", "white")
    page.click("#new-game-form button[type=submit]")
    expect(page.locator("#board")).to_be_visible()
    # The AI (Black) opens; its move arrives without a reload.
    expect(page.locator(".your-turn-flag")).to_be_visible(timeout=30000)
    shot(page, "07-ai-opened")
    before = make_a_move(page, opponent_is_ai=True)
    expect(page.locator(".your-turn-flag")).to_be_visible(timeout=30000)
    # Our Move + End Turn (2) and at least the end of the AI's turn (1) more;
    # no action count is on the page.
    expect(page.locator("#board")).to_have_attribute("data-version", re.compile(r"\d+"))
    assert int(page.locator("#board").get_attribute("data-version")) >= before + 3
    assert page.locator("#board[data-seq]").count() == 0
    shot(page, "08-ai-replied")


SCENARIO = {
    "to_move": "black",
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 5},
        {"type": "king", "color": "white", "row": 10, "col": 5},
        {"type": "jet", "color": "black", "row": 2, "col": 2, "level": "air"},
        {"type": "chopper", "color": "black", "row": 6, "col": 2, "level": "air"},
        {"type": "tank", "color": "black", "row": 6, "col": 2, "level": "ground"},
        {"type": "sub", "color": "black", "row": 3, "col": 8, "level": "sub"},
        {"type": "dozer", "color": "black", "row": 4, "col": 4},
        {"type": "rocket_pawn", "color": "white", "row": 5, "col": 4},
        {"type": "jet", "color": "white", "row": 5, "col": 5, "level": "air"},
        {"type": "sub", "color": "white", "row": 4, "col": 7, "level": "sub"},
    ],
    "articles": [{"type": "bike", "row": 3, "col": 3}, {"type": "scuba", "row": 3, "col": 3}],
}


def test_levels_are_drawn_in_their_colors(new_page, shot, django_user_model):
    from games.services import create_game

    dee = django_user_model.objects.create_user("dee_b", "dee@example.com", PASSWORD)
    django_user_model.objects.create_user("eve_b", "eve@example.com", PASSWORD)
    game = create_game(creator=dee, opponent="user", username="eve_b", color="black", scenario=SCENARIO)
    page = new_page()
    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.fill("input[name=username]", "dee_b")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator("#board")).to_be_visible()
    wait_live(page)
    page.wait_for_load_state("networkidle")
    jet = page.locator(".sq[data-row='2'][data-col='2'] .band-air .tok")
    expect(jet).to_have_class(re.compile(r"tok-black lvl-air"))
    sub = page.locator(".sq[data-row='3'][data-col='8'] .band-sub .tok")
    expect(sub).to_have_class(re.compile(r"tok-black lvl-sub"))
    # Two levels on one Square: the Chopper above, the Tank on the ground.
    expect(page.locator(".sq[data-row='6'][data-col='2'] .band-air .tok")).to_have_text("Ch")
    expect(page.locator(".sq[data-row='6'][data-col='2'] .band-ground .tok")).to_have_text("T")
    colors = jet.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colors == "rgb(18, 58, 140)"
    page.locator(".sq[data-row='6'][data-col='2'] .band-air .piece-btn").click()
    expect(page.locator("#board[data-selected='6-2-air']")).to_have_count(1)
    shot(page, "09-levels-and-chopper-targets")
