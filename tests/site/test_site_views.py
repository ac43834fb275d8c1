import json
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameAction

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Wec-12345"


def login(client, user):
    client.force_login(user)
    return client


# --- accounts ---------------------------------------------------------------
def test_signup_login_logout(client):
    response = client.post(
        reverse("signup"),
        {"username": "dora", "email": "dora@example.com", "password1": "Xy-secret-991", "password2": "Xy-secret-991"},
    )
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"].username == "dora"
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated
    response = client.post(reverse("login"), {"username": "dora", "password": "Xy-secret-991"})
    assert response.status_code == 302


def test_signup_rejects_duplicate_email(client, alice):
    response = client.post(
        reverse("signup"),
        {"username": "al2", "email": "alice@example.com", "password1": "Xy-secret-991", "password2": "Xy-secret-991"},
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()


def test_profile_display_name_and_time_zone(client, alice):
    login(client, alice)
    response = client.post(
        reverse("profile"), {"display_name": "Alice A.", "email": "alice@example.com", "time_zone": "Europe/Paris"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice A." and alice.time_zone == "Europe/Paris"
    response = client.post(reverse("profile"), {"display_name": "", "email": "a@b.c", "time_zone": "Mars/Base"})
    assert response.status_code == 200  # invalid time zone: form shown again


def test_password_reset_by_email(client, alice, settings):
    settings.WEC_SITE_URL = "http://testserver"  # the reset link is built from SITE_URL alone
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": "Brand-new-pw-77", "new_password2": "Brand-new-pw-77"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Brand-new-pw-77")


# --- lobby ---------------------------------------------------------------------
def test_landing_for_anonymous(client):
    assert "Sign up" in client.get(reverse("home")).content.decode()


def test_new_game_vs_user_and_your_turn_marker(client, alice, bob):
    login(client, alice)
    response = client.post(reverse("new_game"), {"opponent": "user", "username": "bob", "color": "black"})
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == reverse("game_detail", args=[game.pk])
    # A challenge first: bob accepts, then the game (and its clock) starts.
    assert game.status == "challenge"
    login(client, bob)
    client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "accept"})
    login(client, alice)
    html = client.get(reverse("home")).content.decode()
    assert "Your turn" in html
    login(client, bob)
    html = client.get(reverse("home")).content.decode()
    assert "Their turn" in html


def test_new_game_form_errors(client, alice):
    login(client, alice)
    response = client.post(reverse("new_game"), {"opponent": "user", "username": "ghost", "color": "black"})
    assert response.status_code == 400
    response = client.post(reverse("new_game"), {"opponent": "user", "username": "", "color": "black"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_new_game_vs_ai(client, alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    login(client, alice)
    client.post(reverse("new_game"), {"opponent": "ai", "color": "black"})
    game = Game.objects.get()
    assert {s.color: s.user.is_ai for s in game.seats.all()} == {"black": False, "white": True}


def test_seek_accept_via_views(client, alice, bob):
    login(client, alice)
    client.post(reverse("new_game"), {"opponent": "open", "color": "random"})
    seek = Game.objects.get()
    login(client, bob)
    assert "Accept" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("accept_seek", args=[seek.pk]))
    assert response.status_code == 302
    assert Game.objects.get().status == "active"


# --- game page ---------------------------------------------------------------------
def board_rows(html):
    return [int(x) for x in re.findall(r'class="coord rank-coord" aria-hidden="true">(\d+)<', html)]


def board_cols(html):
    return [int(x) for x in re.findall(r'class="coord file-coord">(\d+)<', html)]


def test_game_page_orientation(client, game, alice, bob):
    html = login(client, alice).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert board_rows(html) == list(range(10, 0, -1)) and board_cols(html) == list(range(1, 11))
    html = login(client, bob).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert board_rows(html) == list(range(1, 11)) and board_cols(html) == list(range(10, 0, -1))


def test_game_page_only_for_participants(client, game, carol):
    login(client, carol)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 404
    assert client.get(reverse("game_board", args=[game.pk])).status_code == 404
    assert client.post(reverse("game_act", args=[game.pk]), {"action": "{}", "seq": 0}).status_code == 404


def test_board_shows_only_the_players_view(client, game, alice, bob, engine):
    state = selectors.load_state(game)
    for user, color in ((alice, "black"), (bob, "white")):
        view = engine.view(state, color)
        html = login(client, user).get(reverse("game_board", args=[game.pk])).content.decode()
        html = html.split('class="board board-', 1)[1].split('class="controls"', 1)[0]
        for side in ("black", "white"):
            shown = len(re.findall(rf'class="tok tok-{side} lvl-', html))
            assert shown == sum(1 for p in view["pieces"] if p["color"] == side), (color, side)
        # No piece ids reach the page at all, and no enemy piece data.
        assert '"piece"' not in html and "&quot;piece&quot;" not in html  # not our turn (bob) / no selection
        if color == "white":
            assert "target-btn" not in html and "piece-btn" not in html


def test_selecting_a_piece_highlights_its_targets(client, game, alice, engine):
    state = selectors.load_state(game)
    move = next(a for a in engine.legal_actions(state) if a["type"] == "move")
    r, c, lvl = move["from"]
    login(client, alice)
    response = client.get(reverse("game_board", args=[game.pk]), {"sel": f"{r}-{c}-{lvl}"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    expected = {tuple(a["to"]) for a in engine.legal_actions(state) if a["type"] == "move" and a["from"] == [r, c, lvl]}
    shown = {
        (int(a), int(b), lv) for a, b, lv in re.findall(r'data-target="(\d+)-(\d+)-(\w+)"', html)
    }
    assert shown == expected
    targets = engine.move_targets(state, r, c, lvl)
    assert {tuple(t) for t in targets} >= shown


def test_post_move_and_errors(client, game, alice, bob, engine):
    state = selectors.load_state(game)
    move = next(a for a in engine.legal_actions(state) if a["type"] == "move")
    url = reverse("game_act", args=[game.pk])
    hx = {"HTTP_HX_REQUEST": "true"}
    seats = {s.color: s for s in game.seats.all()}

    def version(color):
        seats[color].refresh_from_db()
        return seats[color].version

    login(client, bob)
    assert client.post(url, {"action": json.dumps(move), "version": version("white")}, **hx).status_code == 409
    login(client, alice)
    v = version("black")
    assert client.post(url, {"action": "{not json", "version": v}, **hx).status_code == 400
    assert client.post(url, {"action": json.dumps({"type": "end_turn"}), "version": v}, **hx).status_code == 422
    assert client.post(url, {"action": json.dumps(move), "version": v + 3}, **hx).status_code == 409
    assert not GameAction.objects.exists()
    assert version("black") == v  # refused posts change nothing, the version included
    response = client.post(url, {"action": json.dumps(move), "version": v}, **hx)
    assert response.status_code == 200
    assert 'id="end-turn"' in response.content.decode()
    # The answer's forms carry the player's new version (own actions always bump it).
    assert version("black") == v + 1
    assert f'name="version" value="{v + 1}"' in response.content.decode()
    response = client.post(url, {"action": json.dumps({"type": "end_turn"}), "version": v + 1}, **hx)
    assert response.status_code == 200
    assert Game.objects.get().to_move == "white"
    # Without htmx: the refusal's own 4xx and a small page saying why (not a redirect).
    response = client.post(url, {"action": json.dumps(move), "version": version("black")})
    assert response.status_code == 409
    assert 'id="refused-message"' in response.content.decode()


def test_move_options_groups_several_actions_per_target(game, engine, monkeypatch):
    """Where several actions share a from/to, the page offers a choice."""
    base = {"type": "move", "piece": 3, "from": [1, 1, "ground"], "to": [2, 1, "ground"]}
    fake = [base, dict(base, carry=True), dict(base, doze=[[2, 2]]), {"type": "end_turn"}]
    monkeypatch.setattr(engine, "legal_actions", lambda state: fake)
    from games.ui.wec.selectors import move_options

    options = move_options(game, "black", 1, 1, "ground")
    [(target, choices)] = options.targets.items()
    assert target == (2, 1, "ground") and len(choices) == 3
    labels = [c.label for c in choices]
    assert any("carrying" in label for label in labels) and any("dozing 2,2" in label for label in labels)
    assert json.loads(choices[1].action_json) == dict(base, carry=True)


def test_game_list_partial(client, game, alice):
    html = login(client, alice).get(reverse("game_list")).content.decode()
    assert f"Game {game.pk}" in html and "Your turn" in html


def test_ensure_ai_player_command_is_idempotent():
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("ensure_ai_player")
    call_command("ensure_ai_player")
    [ai] = get_user_model().objects.filter(is_ai=True)
    assert not ai.has_usable_password()


def test_services_error_statuses_are_4xx():
    for cls in (services.NotYourGame, services.NotYourTurn, services.StaleState, services.MalformedAction,
                services.IllegalMove, services.GameNotActive, services.InvalidRequest):
        assert 400 <= cls.status < 500


HIDDEN_SCENARIO = {
    "to_move": "black",
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 5},
        {"type": "king", "color": "white", "row": 10, "col": 5},
        {"type": "sub", "color": "white", "row": 9, "col": 9, "level": "sub"},
        {"type": "stealth_pawn", "color": "white", "row": 8, "col": 2},
        {"type": "tank", "color": "black", "row": 2, "col": 2},
    ],
}


def test_hidden_enemy_pieces_never_reach_the_page(client, alice, bob, engine):
    game = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", scenario=HIDDEN_SCENARIO
    )
    state = selectors.load_state(game)
    seen = {(p["type"], p["row"], p["col"], p["level"]) for p in engine.view(state, "black")["pieces"]}
    true_white = [p for p in engine.dump_scenario(state)["pieces"] if p["color"] == "white"]
    hidden = [p for p in true_white if (p["type"], p["row"], p["col"], p.get("level", "ground")) not in seen]
    assert hidden, "the scenario should hide something from Black"
    login(client, alice)
    pages = [client.get(reverse("game_detail", args=[game.pk])).content.decode()]
    # Also with a piece selected (the page then carries actions for Black's own pieces).
    pages.append(client.get(reverse("game_board", args=[game.pk]), {"sel": "2-2-ground"}).content.decode())
    for html in pages:
        for piece in hidden:
            square = html.split(f'data-row="{piece["row"]}" data-col="{piece["col"]}"', 1)[1].split('role="gridcell"')[0]
            assert "tok-white" not in square
        board = html.split('class="board board-', 1)[1].split('class="controls"', 1)[0]
        shown_white = len(re.findall(r'class="tok tok-white lvl-', board))
        assert shown_white == len(true_white) - len(hidden)
        # No piece ids of the other side anywhere.
        ids = {str(p["id"]) for p in engine.dump_scenario(state)["pieces"] if p["color"] == "white"}
        for m in re.finditer(r"&quot;piece&quot;:(\d+)", html):
            assert m.group(1) not in ids


def test_game_list_times_in_user_time_zone(client, game, alice):
    from django.utils import timezone
    from django.utils.formats import date_format

    alice.time_zone = "Pacific/Kiritimati"
    alice.save()
    html = login(client, alice).get(reverse("game_list")).content.decode()
    game.refresh_from_db()
    with timezone.override("Pacific/Kiritimati"):
        local = date_format(timezone.localtime(game.updated), "SHORT_DATETIME_FORMAT")
    assert local in html


def test_result_reason_is_readable(client, game, alice):
    services.resign(game.pk, alice)
    html = login(client, alice).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "You lost." in html and "(resignation)" in html


@pytest.mark.parametrize("name", ["wec", "marshal"])
def test_each_game_ai_chooses_an_action_the_engine_takes(name):
    """The AI task asks the game's own package (GameUI.ai_action) for every
    action; what comes back is one the engine accepts for the side to move."""
    import random

    from games.engines import get_engine
    from games.registry import get_ui

    engine, ui = get_engine(name), get_ui(name)
    state = engine.new_game(ui.engine_options({"competitive": True}) or None)
    memo: dict = {}
    for _ in range(3):
        action = ui.ai_action(engine, state, "easy", random.Random(1), memo, 0.5)
        assert action is not None
        state = engine.apply(state, action)


def test_clock_check_task_runs():
    from games.tasks import check_clocks

    assert check_clocks() == 0


def test_hidden_enemy_move_stays_out_of_the_opponents_history(client, game, alice, bob, engine):
    """Black moves a stealthed AAA: White's page must not show that Move, not
    even in the history, while the game runs (site games are competitive)."""
    state = selectors.load_state(Game.objects.get(pk=game.pk))
    assert engine.dump_scenario(state)["options"]["competitive"] is True
    aaa = next(p["id"] for p in engine.view(state, "black")["pieces"] if p["type"] == "aaa" and p["col"] == 3)
    aaa_move = next(
        a for a in engine.legal_actions(state)
        if a["type"] == "move" and a["piece"] == aaa and a["to"] == [3, 4, "ground"]
    )
    services.submit_action(game.pk, alice, aaa_move, expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    client.force_login(bob)
    html = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert "AAA(2,3)" not in html and "MV:?" in html
    client.force_login(alice)
    html = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert "MV:AAA(2,3)-&gt;(3,4)" in html or "MV:AAA(2,3)->(3,4)" in html
