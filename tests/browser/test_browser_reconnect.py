"""After its game socket drops and comes back, a page catches up by itself:
the opponent's turn that ended while the socket was down (its doorbell rang
nobody) shows without a reload."""

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Wec-browser-pw-55"


def test_a_page_catches_up_after_its_socket_comes_back(new_page, django_user_model):
    from games import selectors, services
    from games.engines import get_engine

    fay = django_user_model.objects.create_user("fay_b", "fay@example.com", PASSWORD)
    django_user_model.objects.create_user("gus_b", "gus@example.com", PASSWORD)
    game = services.create_game(creator=fay, opponent="user", username="gus_b", color="black")

    # Gus's game socket goes through a route the test controls: while `down`,
    # every new connection is refused at once (as a dead server would).
    state = {"down": False, "routes": [], "connections": 0}

    def handler(ws):
        if state["down"]:
            ws.close(code=1011)
            return
        state["connections"] += 1
        ws.connect_to_server()
        state["routes"].append(ws)

    page = new_page()
    page.route_web_socket(re.compile(r".*/ws/games/.*"), handler)
    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.fill("input[name=username]", "gus_b")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator(".their-turn-flag")).to_be_visible()
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)

    state["down"] = True
    state["routes"][-1].close(code=1011)
    expect(page.locator("#game-root[data-live='1']")).to_have_count(0, timeout=10000)

    # Fay plays her whole turn while Gus's socket is down.  (Called from this
    # thread, where Playwright runs its event loop, the services' doorbells
    # fail anyway and are logged: only the reconnect can bring the news.)
    g = selectors.get_game(game.pk)
    move = next(a for a in get_engine().legal_actions(selectors.load_state(g)) if a["type"] == "move")
    services.submit_action(game.pk, fay, move, expected_seq=g.seq)
    services.submit_action(game.pk, fay, {"type": "end_turn"}, expected_seq=g.seq + 1)
    time.sleep(1)

    state["down"] = False
    # The next reconnect (the page retries by itself) fetches the board again.
    expect(page.locator(".your-turn-flag")).to_be_visible(timeout=20000)
    assert state["connections"] >= 2
