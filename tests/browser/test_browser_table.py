"""The table in a real browser (Debian Chromium), at a desktop size and a
phone size (390x844): a Turn with a Move, a Fire, a Pick-up and End Turn with
its confirmation; an own-piece Fire that asks first; the review's three
boards stepped with the keyboard; axe-core on the board, dashboard and help
pages (0 serious or critical violations).  Screenshots go to
tests/browser/artifacts/table-*.png.  The page weight and time to first
render of the board page are printed (figures, never asserted)."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Wec-browser-pw-55"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {"desktop": (1100, 1000), "phone": (390, 844)}

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False, "reinforcements": "none"},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right"},
        {"type": "dozer", "color": "black", "row": 4, "col": 6},
        {"type": "destroyer", "color": "black", "row": 2, "col": 3},
        {"type": "king", "color": "white", "row": 10, "col": 10},
        {"type": "rocket_pawn", "color": "white", "row": 4, "col": 5},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "left"},
    ],
    "articles": [{"type": "bike", "row": 2, "col": 3}],
}


def log_in(page, username, next_url):
    page.goto(f"/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")


def axe_serious(page) -> list:
    """Run axe-core in the page; the serious and critical violations.  It is
    evaluated over the DevTools protocol, which the page's CSP does not govern
    (an injected <script> would be refused, rightly)."""
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => JSON.stringify(await axe.run(document, {resultTypes: ['violations']}))")
    violations = json.loads(result)["violations"]
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in violations if v["impact"] in ("serious", "critical")
    ]


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_turn_with_move_fire_pickup_and_confirmed_end_turn(new_page, shot, django_user_model, size):
    from games.services import create_game

    black = django_user_model.objects.create_user(f"tb_{size}", f"tb_{size}@example.com", PASSWORD)
    django_user_model.objects.create_user(f"tw_{size}", f"tw_{size}@example.com", PASSWORD)
    game = create_game(creator=black, opponent="user", username=f"tw_{size}", color="black", scenario=SCENARIO)
    width, height = SIZES[size]
    page = new_page(width, height)
    log_in(page, f"tb_{size}", f"/games/{game.pk}/")
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
    expect(page).to_have_title(f"\u25b6 Your turn \u00b7 vs tw_{size} \u00b7 Game {game.pk} \u00b7 Wec Online")
    # Icons: every token draws its own SVG symbol, with the letter tag kept.
    expect(page.locator(".sq[data-row='3'][data-col='5'] .tok svg use")).to_have_attribute("href", "#p-tank")
    expect(page.locator(".sq[data-row='3'][data-col='5'] .tok .tag")).to_have_text("T")
    if size == "phone":
        # One level at a time by default; every board button is at least 44x44.
        expect(page.locator("#board")).to_have_attribute("data-focus-level", "ground")
        for box in page.locator(".board .cell-btn").evaluate_all(
            "els => els.filter(e => e.offsetParent).map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
        ):
            assert box[0] >= 44 and box[1] >= 44, box
        # Articles stay visible on a phone.
        expect(page.locator(".sq[data-row='2'][data-col='3'] .arts .art")).to_be_visible()
    shot(page, f"table-{size}-01-start")
    # Zoom one Square: its three levels, large.
    page.locator(".board .sq[data-row='8'][data-col='3']").click()
    expect(page.locator("#square-zoom")).to_be_visible()
    expect(page.locator("#square-zoom h2")).to_have_text("Square 8,3, all three levels")
    expect(page.locator("#square-zoom .band")).to_have_count(3)
    expect(page.locator("#square-zoom .tok-white")).to_have_count(1)
    shot(page, f"table-{size}-01b-square-zoom")
    page.locator("#square-zoom-close").click()
    expect(page.locator("#square-zoom")).to_be_hidden()

    # Fire: north-east would burn our own Dozer: the page asks, and Cancel changes nothing.
    page.locator(".piece-btn[data-place='3-5-ground']").click()
    expect(page.locator("#board[data-selected='3-5-ground']")).to_have_count(1)
    v0 = version(page)
    page.get_by_role("button", name="Fire Flamer \u2197 north-east", exact=True).click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".confirm-text")).to_contain_text("Dozer (4,6)")
    shot(page, f"table-{size}-02-own-fire-confirmation")
    dialog.locator(".confirm-no").click()
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(300)
    assert version(page) == v0
    # North hits only the enemy Pawn: no question, it fires at once.
    page.get_by_role("button", name="Fire Flamer \u2191 north", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 1))
    expect(page.locator(".sq[data-row='4'][data-col='5'] .tok-white")).to_have_count(0)
    expect(page.locator("#turn-panel [data-item='fires'] .ti-state")).to_have_text("1/2")

    # Pick-up: the Destroyer takes the Bike lying on its Square.
    page.locator(".piece-btn[data-place='2-3-ground']").click()
    expect(page.locator("#board[data-selected='2-3-ground']")).to_have_count(1)
    page.get_by_role("button", name="Pick up Bike", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 2))
    expect(page.locator("#turn-panel [data-item='pickup']")).to_have_class("done")

    # Move: the King steps.
    page.locator(".piece-btn[data-place='1-1-ground']").click()
    expect(page.locator("#board[data-selected='1-1-ground']")).to_have_count(1)
    page.locator(".target-btn").first.click()
    if page.locator(".choice-btn").count():
        page.locator(".choice-btn").first.click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 3))
    # Our own actions this Turn are outlined.
    assert page.locator(".sq.hl-own").count() >= 2
    shot(page, f"table-{size}-03-before-end-turn")

    # The open record stays open across a live update.
    page.locator("details.legend summary").click()
    expect(page.locator("details.legend")).to_have_attribute("open", "")
    # End Turn asks for confirmation.
    page.locator("#end-turn").click()
    expect(dialog).to_be_visible()
    shot(page, f"table-{size}-04-end-turn-confirmation")
    dialog.locator(".confirm-yes").click()
    expect(page.locator(".their-turn-flag")).to_be_visible()
    expect(page.locator("details.legend")).to_have_attribute("open", "")
    expect(page).to_have_title(f"Black to move \u00b7 vs tw_{size} \u00b7 Game {game.pk} \u00b7 Wec Online".replace("Black", "White"))
    shot(page, f"table-{size}-05-after-end-turn")
    assert axe_serious(page) == []


def test_axe_on_dashboard_help_and_board_and_page_figures(new_page, shot, django_user_model, live_stack):
    from games.services import create_game

    user = django_user_model.objects.create_user("ax_" + "x" * 140, "ax@example.com", PASSWORD)  # a 150-char name
    django_user_model.objects.create_user("ax_b", "axb@example.com", PASSWORD)
    game = create_game(creator=user, opponent="user", username="ax_b", color="black", scenario=SCENARIO)
    for size, (width, height) in SIZES.items():
        page = new_page(width, height)
        log_in(page, user.username, "/")
        expect(page.locator("#my-games-h")).to_be_visible()
        assert axe_serious(page) == [], "dashboard"
        # A very long name does not widen the page.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "dashboard overflows"
        shot(page, f"table-{size}-dashboard")
        page.goto("/help/")
        expect(page.locator("#piece-tank")).to_be_visible()
        assert axe_serious(page) == [], "help"
        shot(page, f"table-{size}-help")
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#board")).to_be_visible()
        assert axe_serious(page) == [], "board"
        assert page.evaluate(
            "document.querySelector('.game-head').scrollWidth <= document.querySelector('.game-head').clientWidth + 1"
        ), "a long name breaks the game header"

    # Figures for the report: bytes transferred for the board page and time to first render.
    page = new_page(*SIZES["desktop"])
    log_in(page, user.username, "/")
    expect(page.locator("#my-games-h")).to_be_visible()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#board")).to_be_visible()
    figures = json.loads(page.evaluate("""() => JSON.stringify({
        resources: performance.getEntriesByType('resource').map(r => [r.name, r.transferSize, r.encodedBodySize, r.decodedBodySize]),
        nav: performance.getEntriesByType('navigation').map(n => [n.transferSize, n.encodedBodySize, n.decodedBodySize, n.responseEnd, n.domContentLoadedEventEnd, n.loadEventEnd])[0],
        paint: performance.getEntriesByType('paint').map(p => [p.name, p.startTime]),
    })"""))
    html = figures["nav"]
    total = html[2] + sum(r[3] for r in figures["resources"] if "/static/" in r[0])
    print(f"\nBOARD PAGE: html {html[2]} bytes (decoded), static {[(r[0].rsplit('/', 1)[-1], r[3]) for r in figures['resources'] if '/static/' in r[0]]}")
    print(f"BOARD PAGE WEIGHT (HTML+CSS+JS+SVG, uncompressed): {total} bytes")
    print(f"FIRST RENDER: {figures['paint']}; responseEnd {html[3]:.0f} ms, DOMContentLoaded {html[4]:.0f} ms, load {html[5]:.0f} ms")
    (Path(__file__).resolve().parent / "artifacts" / "table-figures.json").write_text(json.dumps(figures, indent=1))


# A review step is now rendered once per ended game and served from the
# render cache (games.review_cache); the default wait is plenty.
REVIEW_WAIT = 15000


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_review_three_boards_step_by_keyboard(new_page, shot, django_user_model, size):
    from games import selectors, services
    from games.engine import get_game_engine
    from games.models import Game

    engine = get_game_engine()
    black = django_user_model.objects.create_user(f"rb_{size}", f"rb_{size}@example.com", PASSWORD)
    white = django_user_model.objects.create_user(f"rw_{size}", f"rw_{size}@example.com", PASSWORD)
    game = services.create_game(creator=black, opponent="user", username=f"rw_{size}", color="black", scenario=SCENARIO)
    players = {"black": black, "white": white}
    for _ in range(3):
        g = Game.objects.get(pk=game.pk)
        state = selectors.load_state(g)
        who = engine.to_move(state)
        move = next(a for a in engine.legal_actions(state) if a["type"] == "move")
        services.submit_action(g.pk, players[who], move, expected_seq=g.seq)
        services.submit_action(g.pk, players[who], {"type": "end_turn"}, expected_seq=g.seq + 1)
    services.resign(game.pk, white)
    page = new_page(*SIZES[size])
    log_in(page, f"rb_{size}", f"/games/{game.pk}/?at=0")
    expect(page.locator("#replay")).to_be_visible()
    for which in ("truth", "black", "white"):
        expect(page.locator(f".review-board[data-board='{which}'] .board")).to_be_visible()
    expect(page.locator("#replay-at")).to_have_value("0", timeout=REVIEW_WAIT)
    shot(page, f"table-{size}-review-0")
    page.locator("#replay-caption").click()
    for at in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-at")).to_have_value(str(at), timeout=REVIEW_WAIT)
        expect(page).to_have_url(f"{page.url.split('?')[0]}?at={at}")
    shot(page, f"table-{size}-review-3")
    page.keyboard.press("Home")
    expect(page.locator("#replay-at")).to_have_value("0", timeout=REVIEW_WAIT)
    page.keyboard.press("End")
    expect(page.locator("#replay-at")).to_have_value("3", timeout=REVIEW_WAIT)
    expect(page.locator(".review-plot svg polyline")).to_have_count(4)
    assert axe_serious(page) == [], "review"
