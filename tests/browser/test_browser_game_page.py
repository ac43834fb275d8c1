"""The game page in a real browser (Debian Chromium), at a desktop size and a
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


# Every control of the board page a finger can hit (visible, taking pointer
# events) is at least 44x44 CSS px; the board's piece and Article links are
# not tap targets on a phone (a tap opens the Square's zoom instead).
TAP_TARGETS = """els => els.filter(e => {
    const st = getComputedStyle(e);
    return e.getClientRects().length && st.pointerEvents !== 'none' && st.visibility !== 'hidden' && !e.closest('[hidden], details:not([open]) > :not(summary)');
}).map(e => [e.outerHTML.slice(0, 90), e.getBoundingClientRect().width, e.getBoundingClientRect().height])
  .filter(b => b[1] < 44 || b[2] < 44)"""


def assert_taps_ok(page) -> None:
    small = page.locator("#board a, #board button, #board select").evaluate_all(TAP_TARGETS)
    assert small == [], small


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
        assert_taps_ok(page)
    shot(page, f"table-{size}-01-start")
    # Zoom one Square: its three levels, large.
    # (A Square's background: the enemy Tank itself is a link to its help entry.)
    page.locator(".board .sq[data-row='8'][data-col='3']").click(position={"x": 3, "y": 3})
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
    if size == "phone":
        assert_taps_ok(page)  # with the action panel and its help links
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

    # 150-character names (the longest a username may be), for the player and
    # for the opponent: the game header names the opponent.
    user = django_user_model.objects.create_user("ax_" + "x" * 147, "ax@example.com", PASSWORD)
    opponent = django_user_model.objects.create_user("ox_" + "o" * 147, "axb@example.com", PASSWORD)
    assert len(user.username) == len(opponent.username) == 150
    game = create_game(creator=user, opponent="user", username=opponent.username, color="black", scenario=SCENARIO)
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
        expect(page.locator(".game-head .players")).to_contain_text(opponent.username)
        assert page.evaluate(
            "document.querySelector('.game-head').scrollWidth <= document.querySelector('.game-head').clientWidth + 1"
        ), "a long name breaks the game header"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the board page overflows"
        shot(page, f"table-{size}-long-names")

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
# render cache (games.pages.review); the default wait is plenty.
REVIEW_WAIT = 15000


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_review_three_boards_step_by_keyboard(new_page, shot, django_user_model, size):
    from games import selectors, services
    from games.engines import get_engine
    from games.models import Game

    engine = get_engine()
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
    settled(page)  # the new controls are wired when the swap settles
    shot(page, f"table-{size}-review-0")
    page.locator("#replay-caption").click()
    for at in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-at")).to_have_value(str(at), timeout=REVIEW_WAIT)
        settled(page)  # the new controls are wired when the swap settles
        expect(page).to_have_url(f"{page.url.split('?')[0]}?at={at}")
    shot(page, f"table-{size}-review-3")
    page.keyboard.press("Home")
    expect(page.locator("#replay-at")).to_have_value("0", timeout=REVIEW_WAIT)
    settled(page)  # the new controls are wired when the swap settles
    page.keyboard.press("End")
    expect(page.locator("#replay-at")).to_have_value("3", timeout=REVIEW_WAIT)
    settled(page)  # the new controls are wired when the swap settles
    expect(page.locator(".review-plot svg polyline")).to_have_count(4)
    assert axe_serious(page) == [], "review"


KB_SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right"},
        {"type": "destroyer", "color": "black", "row": 2, "col": 3},
        {"type": "king", "color": "white", "row": 10, "col": 10},
        {"type": "rocket_pawn", "color": "white", "row": 4, "col": 5},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "left"},
    ],
    "articles": [{"type": "bike", "row": 2, "col": 3}],
    "reinforcements": [
        {"type": "cleric", "color": "black", "row": 1, "col": 4, "hand": "right", "ready": True},
        {"type": "tank", "color": "white", "row": 10, "col": 5, "hand": "left"},
    ],
}


def off_thread(fn, *args, **kwargs):
    """Run a service call in a thread of its own: the doorbell's async_to_sync
    cannot run in this thread, where Playwright keeps an event loop."""
    import threading

    from django.db import connection

    out = {}

    def run():
        try:
            out["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed back to the test
            out["error"] = exc
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(30)
    if "error" in out:
        raise out["error"]
    return out.get("value")


def settled(page) -> None:
    """Wait until htmx has wired the swapped-in board (it does so when the
    swap settles, some milliseconds later): a key pressed before that would
    hit a button that does nothing yet, which no person types fast enough to
    meet."""
    expect(page.locator(".htmx-settling, .htmx-swapping, .htmx-request")).to_have_count(0)


def focused(page, selector) -> bool:
    return page.evaluate("sel => !!document.activeElement && document.activeElement.matches(sel)", selector)


def tab_to(page, selector, limit=80) -> None:
    """Tab until the focus is on `selector` (keyboard only)."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_every_action_by_keyboard_alone(new_page, shot, django_user_model):
    """A Fire, a Pick-up, a Reinforce, a Move and End Turn, with the keys the
    help page gives (games/ui/wec/help.py RECIPES), never the mouse; h opens the help
    entry of the focused piece; then the enemy's Move shows as changed since
    the player last looked, live."""
    from games import selectors, services
    from games.engines import get_engine
    from games.models import Game

    black = django_user_model.objects.create_user("kb_b", "kb_b@example.com", PASSWORD)
    white = django_user_model.objects.create_user("kb_w", "kb_w@example.com", PASSWORD)
    game = services.create_game(creator=black, opponent="user", username="kb_w", color="black", scenario=KB_SCENARIO)
    page = new_page(*SIZES["desktop"])
    log_in(page, "kb_b", f"/games/{game.pk}/")
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
    settled(page)
    v0 = version(page)
    panel = page.locator("#turn-panel")

    # Fire: m reaches the first piece (the Tank), Enter selects it, f goes to its
    # first Fire button, Tab to north, Enter.
    page.keyboard.press("m")
    tab_to(page, ".piece-btn[data-place='3-5-ground']")
    page.keyboard.press("Enter")
    expect(page.locator("#board[data-selected='3-5-ground']")).to_have_count(1)
    settled(page)
    page.keyboard.press("f")
    assert focused(page, "[data-group='fire'] .act-btn")
    tab_to(page, "[aria-label='Fire Flamer \u2191 north']")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 1))
    settled(page)
    expect(page.locator(".sq[data-row='4'][data-col='5'] .tok-white")).to_have_count(0)
    expect(panel.locator("[data-item='fires'] .ti-state")).to_have_text("1/2")

    # Pick-up: Escape clears the selection, m and Tab reach the Destroyer, p its Pick-up.
    page.keyboard.press("Escape")
    expect(page.locator("#board[data-selected='']")).to_have_count(1)
    settled(page)
    page.keyboard.press("m")
    tab_to(page, ".piece-btn[data-place='2-3-ground']")
    page.keyboard.press("Enter")
    expect(page.locator("#board[data-selected='2-3-ground']")).to_have_count(1)
    settled(page)
    page.keyboard.press("p")
    assert focused(page, "[data-group='pickup'] .act-btn")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 2))
    settled(page)
    expect(panel.locator("[data-item='pickup']")).to_have_class("done")

    # Reinforce: r, from anywhere, goes to the ready reinforcement.
    page.keyboard.press("Escape")
    expect(page.locator("#board[data-selected='']")).to_have_count(1)
    settled(page)
    page.keyboard.press("r")
    assert focused(page, "#turn-panel [data-group='reinforce'] .act-btn")
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 3))
    settled(page)
    expect(panel.locator("[data-item='reinforce']")).to_have_class("done")
    expect(page.locator(".sq[data-row='1'][data-col='4'] .tok-black")).to_have_count(1)

    # Move: the King, then the first of its highlighted Squares (the focus is there).
    page.keyboard.press("m")
    tab_to(page, ".piece-btn[data-place='1-1-ground']")
    page.keyboard.press("Enter")
    expect(page.locator("#board[data-selected='1-1-ground']")).to_have_count(1)
    settled(page)
    assert focused(page, ".target-btn, .choice-btn")
    page.keyboard.press("Enter")
    if page.locator(".choice-btn").count():
        page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 4))
    settled(page)
    shot(page, "table-keyboard-01-before-end-turn")

    # h: the Rules & help entry of the focused piece.
    page.keyboard.press("m")
    tab_to(page, ".piece-btn[data-place='3-5-ground']")
    page.keyboard.press("h")
    expect(page).to_have_url(f"{page.url.split('/games/')[0]}/help/#piece-tank")
    page.go_back()
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
    settled(page)

    # End Turn: e, then Enter confirms.
    page.keyboard.press("e")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(".their-turn-flag")).to_be_visible()

    # The enemy King steps while Black's page is open: the live board outlines
    # what changed since Black last looked, and says so in words.
    g = Game.objects.get(pk=game.pk)
    state = selectors.load_state(g)
    move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move" and a["from"][:2] == [10, 10])
    off_thread(services.submit_action, g.pk, white, move, expected_seq=g.seq)
    expect(page.locator(".board-scroll .sq.hl-seen[data-row='10'][data-col='10']")).to_have_count(1)
    expect(page.locator("#since-last-text")).to_be_visible()
    expect(page.locator("#since-last-text")).to_contain_text("changed since you last looked at this board: (")
    label = page.locator(".board-scroll .sq[data-row='10'][data-col='10']").get_attribute("aria-label")
    assert label.endswith(", changed since you last looked"), label
    shot(page, "table-keyboard-02-since-last")
    assert axe_serious(page) == []


def test_phone_reinforcements_visible_and_sideways_scroll_kept(new_page, shot, django_user_model):
    """On a phone: the dashed reinforcement tags show on their Squares, and a
    live update keeps the board's sideways scroll position."""
    from games import services

    black = django_user_model.objects.create_user("ph_b", "ph_b@example.com", PASSWORD)
    django_user_model.objects.create_user("ph_w", "ph_w@example.com", PASSWORD)
    game = services.create_game(creator=black, opponent="user", username="ph_w", color="black", scenario=KB_SCENARIO)
    page = new_page(*SIZES["phone"])
    log_in(page, "ph_b", f"/games/{game.pk}/")
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
    settled(page)
    for row, col in ((1, 4), (10, 5)):
        square = page.locator(f".board-scroll .sq[data-row='{row}'][data-col='{col}']")
        expect(square.locator(".reinf")).to_be_visible()
        box, sq = square.evaluate("""el => [el.querySelector('.reinf').getBoundingClientRect().toJSON(),
                                             el.getBoundingClientRect().toJSON()]""")
        assert box["width"] >= 8 and box["height"] >= 8, box
        assert sq["x"] <= box["x"] and box["x"] + box["width"] <= sq["x"] + sq["width"] + 1, (box, sq)
    shot(page, "table-phone-reinforcements")
    # Scroll the board sideways, then something changes (Black's own Fire,
    # played elsewhere): the page fetches its board again and stays scrolled.
    scroll = page.locator(".board-scroll")
    assert scroll.evaluate("el => el.scrollWidth - el.clientWidth") > 60  # ten 46px columns do not fit
    scroll.evaluate("el => { el.scrollLeft = 60; }")
    assert scroll.evaluate("el => el.scrollLeft") == 60
    v0 = version(page)
    from games.models import Game

    g = Game.objects.get(pk=game.pk)
    off_thread(services.submit_action, g.pk, black,
               {"type": "fire", "from": [3, 5, "ground"], "weapon": "flamer", "direction": [1, 0]}, expected_seq=g.seq)
    expect(page.locator("#board")).to_have_attribute("data-version", str(v0 + 1))
    expect(page.locator(".sq[data-row='4'][data-col='5'] .tok-white")).to_have_count(0)
    settled(page)
    assert page.locator(".board-scroll").evaluate("el => el.scrollLeft") == 60
