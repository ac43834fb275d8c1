"""Board editor and scenarios: the engine's own check, errors at their
Square, saving (private or public), shipped scenarios, a game from one."""

import re

import pytest
from django.urls import reverse
from option_fields import options_post

from games import selectors
from games.models import Game, Scenario, Snapshot
from games.ui.wec import scenario_text
from games.ui.wec import selectors as wec_selectors

pytestmark = pytest.mark.django_db

SMALL = "to_move black\npiece black king 1 1\npiece black tank 3 3 ground hand=right articles=bike\npiece white king 10 10\n"


@pytest.mark.parametrize("key", list(scenario_text.SHIPPED))
def test_shipped_scenarios_pass_the_engine(key):
    doc = scenario_text.shipped_document(key)
    scenario_text.check(doc)
    assert scenario_text.parse(scenario_text.to_text(doc))["pieces"] == doc["pieces"]


def test_errors_name_the_line_or_the_square():
    with pytest.raises(scenario_text.ScenarioTextError) as err:
        scenario_text.parse("piece black tank 11 1")
    assert err.value.line == 1
    with pytest.raises(scenario_text.ScenarioTextError) as err:
        scenario_text.check(scenario_text.parse("piece black tank 5 5\n" * 3))
    assert err.value.square == (5, 5)


def test_editor_checks_saves_and_starts_a_challenge(client, alice, bob):
    client.force_login(alice)
    html = client.get(reverse("scenario_editor")).content.decode()
    assert "The standard game" in html and "piece black king 1 5" in html
    bad = client.post(reverse("scenario_editor"), {"text": "piece black tank 5 5\n" * 3, "what": "check"})
    assert bad.status_code == 400 and "Square 5,5:" in bad.content.decode()
    ok = client.post(reverse("scenario_editor"), {"text": SMALL, "what": "check"})
    assert ok.status_code == 200 and "The engine accepts this position." in ok.content.decode()
    saved = client.post(reverse("scenario_editor"), {"text": SMALL, "what": "save", "name": "Bike test"})
    scenario = Scenario.objects.get()
    assert saved.status_code == 302 and scenario.owner == alice and not scenario.public
    # Private: Bob cannot use it.
    client.force_login(bob)
    assert client.get(reverse("scenario_editor") + f"?from=id:{scenario.pk}").status_code == 404
    client.force_login(alice)
    response = client.post(
        reverse("scenario_start"),
        {"source": f"id:{scenario.pk}", "opponent": "user", "username": "bob", "color": "black", "days_per_move": "3"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == "challenge"
    start = Snapshot.objects.get(game=game, seq=0).state
    assert len(start["pieces"]) == 3 and start["pieces"][1]["articles"] == ["bike"]
    assert wec_selectors.scenario_document("id:999", alice) is None


# --- the start form offers the new-game form's choices ----------------------------------


def test_the_start_form_offers_every_choice_of_the_new_game_form(client, alice):
    client.force_login(alice)
    html = client.get(reverse("scenario_editor") + "?from=shipped:stunned-king").content.decode()
    form = html[html.index('id="scenario-start"'):]
    form = form[: form.index("</form>")]
    for needle in (
        'name="opponent" value="user"', 'name="opponent" value="open"', 'name="opponent" value="ai"',
        'name="username"', 'name="color"', 'name="days_per_move"', 'name="increment_hours"',
        'name="bank_cap_days"', 'name="kind"', 'name="ai_level"', 'name="ai_clock"',
        'name="opt_stun_turns"', 'name="opt_black_government"', 'id="scenario-options"',
    ):
        assert needle in form, needle
    # The shipped scenario's explanation is shown with it.
    assert 'id="scenario-about"' in html and "Stunner Pawn" in html


def test_a_scenario_starts_an_ai_game_with_level_and_clock(client, alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda game_id: None)
    client.force_login(alice)
    response = client.post(reverse("scenario_start"), {
        "source": "shipped:homing-sam", "opponent": "ai", "color": "black", "days_per_move": "2",
        "ai_level": "hard", "ai_clock": "on", "kind": "friendly", **options_post(sam_rate=6),
    })
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == "active"
    assert (game.ai_level, game.days_per_move, game.competitive) == ("hard", 2, False)
    assert game.options == {"sam_rate": 6, "competitive": False, "open_record": False}
    start = Snapshot.objects.get(game=game, seq=0).state
    assert start["options"]["sam_rate"] == 6 and start["options"]["competitive"] is False
    assert len(start["pieces"]) == 4
    assert game.seats.get(user=alice).color == "black" and game.seats.get(color="black").deadline is not None


def test_a_scenario_starts_a_seek_with_a_bank_clock(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("scenario_start"), {
        "source": "shipped:sonar", "opponent": "open", "color": "white", "days_per_move": "3",
        "increment_hours": "12", "bank_cap_days": "5", "kind": "competitive",
        # Posted with another game's name: scenarios are Wec positions whatever is posted.
        "engine": "marshal", **options_post(),
    })
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == "open" and game.engine == "wec"
    assert (game.days_per_move, game.increment_hours, game.bank_cap_days) == (3, 12, 5)
    assert game.competitive and game.seats.get(user=alice).color == "white"
    assert Snapshot.objects.get(game=game, seq=0).state["pieces"][3]["type"] == "sub"


def test_options_posted_replace_the_scenarios_own(client, alice, bob):
    scenario = Scenario.objects.create(
        owner=alice, name="Quiet fire", document={**scenario_text.parse(SMALL), "options": {"seen_when_firing": False}},
    )
    client.force_login(alice)
    html = client.get(reverse("scenario_editor") + f"?from=id:{scenario.pk}").content.decode()
    field = re.search(r'<input[^>]*name="opt_seen_when_firing"[^>]*>', html).group(0)
    assert "checked" not in field  # the form starts from the scenario's options
    base = {"source": f"id:{scenario.pk}", "opponent": "user", "username": "bob", "color": "black"}
    # Without option fields the scenario's own options hold...
    client.post(reverse("scenario_start"), base)
    assert Game.objects.latest("pk").options == {"seen_when_firing": False, "competitive": True, "open_record": False}
    # ...with them, what was posted (here the standard value again).
    client.post(reverse("scenario_start"), {**base, **options_post()})
    game = Game.objects.latest("pk")
    assert game.options == {"competitive": True, "open_record": False}
    assert Snapshot.objects.get(game=game, seq=0).state["options"]["seen_when_firing"] is True


def test_a_bad_start_is_refused_and_starts_nothing(client, alice, bob):
    client.force_login(alice)
    base = {"source": "shipped:reinforcements", "opponent": "user", "username": "bob", "color": "black"}
    assert client.post(reverse("scenario_start"), {**base, **options_post(), "opt_stun_turns": "99"}).status_code == 400
    assert client.post(reverse("scenario_start"), {**base, "increment_hours": "-3"}).status_code == 400
    assert client.post(reverse("scenario_start"), {**base, "username": "nobody"}).status_code == 400
    assert client.post(reverse("scenario_start"), {**base, "source": "shipped:nothing"}).status_code == 404
    assert not Game.objects.exists()


# --- the shipped lessons: each one's first actions do what its explanation says -----------


def _act(engine, state, **wanted):
    """The legal action with these keys (places compared by row and column)."""
    for action in engine.legal_actions(state):
        if all(
            (action.get(k) or [None, None])[:2] == v if k in ("from", "to", "target") else action.get(k) == v
            for k, v in wanted.items()
        ):
            return engine.apply(state, action), action
    raise AssertionError(f"not legal: {wanted}")


def _king_turn(engine, state):
    """The side to move's King steps somewhere, and the Turn ends."""
    color = engine.to_move(state)
    king = next(p for p in engine.view(state, color)["pieces"] if p["type"] == "king" and p["color"] == color)
    state, _action = _act(engine, state, type="move", **{"from": [king["row"], king["col"]]})
    return engine.apply(state, {"type": "end_turn"})


def _pieces(engine, state, color):
    return {(p["color"], p["type"]): p for p in engine.view(state, color)["pieces"]}


def lesson_stunned_king(engine, state):
    state, _ = _act(engine, state, type="fire", weapon="stunner", direction=[1, 0])
    seen = _pieces(engine, state, "white")
    assert seen[("white", "king")]["stun"] == 3 and seen[("white", "king")]["articles"] == []
    assert engine.view(state, "white")["articles"] == [{"type": "jump_pack", "row": 8, "col": 5}]
    state = _king_turn(engine, state)
    # White's King takes no action while stunned: only the Tank may Move.
    assert {tuple(a["from"][:2]) for a in engine.legal_actions(state) if a["type"] == "move"} == {(10, 10)}
    return state


def lesson_homing_sam(engine, state):
    state, _ = _act(engine, state, type="fire", weapon="sam_launcher", target=[7, 6])
    state = _king_turn(engine, state)
    [sam] = engine.view(state, "black")["projectiles"]
    assert sam["homing"] and sam["target"] == [7, 6, "air"] and (sam["row"], sam["col"]) == (5, 6)
    # The Jet lands: the SAM loses its target and flies straight on.
    state, _ = _act(engine, state, type="move", **{"from": [7, 6], "to": [7, 6]})
    state = _king_turn(engine, engine.apply(state, {"type": "end_turn"}))
    [sam] = engine.view(state, "black")["projectiles"]
    assert not sam["homing"] and (sam["row"], sam["col"]) == (6, 7)
    assert ("white", "jet") in _pieces(engine, state, "white")
    return state


def lesson_transport_crash(engine, state):
    assert ("white", "aaa") not in _pieces(engine, state, "black")  # stealthed: Black does not see it
    state, _ = _act(engine, state, type="fire", weapon="bike", to=[8, 3])
    for _turn in range(3):
        state = _king_turn(engine, _king_turn(engine, state))
    tank = _pieces(engine, state, "black")[("black", "tank")]
    assert (tank["row"], tank["col"]) == (5, 3) and not tank.get("transport")
    assert any("crashed" in line for line in engine.plain_history(state, "black"))
    return state


def lesson_reinforcements(engine, state):
    waiting = engine.view(state, "black")["reinforcements"]
    assert {"color": "white", "row": 8, "col": 7} in waiting  # where, not what
    state, _ = _act(engine, state, type="move", **{"from": [2, 4], "to": [3, 4]})
    state = _king_turn(engine, engine.apply(state, {"type": "end_turn"}))
    state, _ = _act(engine, state, type="move", **{"from": [3, 4], "to": [2, 3]})
    state, _ = _act(engine, state, type="reinforce", to=[3, 4], piece_type="jet")
    jet = _pieces(engine, state, "black")[("black", "jet")]
    assert (jet["row"], jet["col"], jet["level"]) == (3, 4, "ground")
    return state


def lesson_sonar(engine, state):
    assert ("white", "sub") not in _pieces(engine, state, "black")
    state, _ = _act(engine, state, type="move", **{"from": [4, 5], "to": [5, 5]})
    assert ("white", "sub") in _pieces(engine, state, "black")
    state, _ = _act(engine, state, type="fire", weapon="torpedo_launcher", target=[8, 5])
    state = engine.apply(state, {"type": "end_turn"})
    [torpedo] = engine.view(state, "black")["projectiles"]
    assert torpedo["homing"] and torpedo["level"] == "sub"
    return state


def lesson_hidden_sub(engine, state):
    state = _king_turn(engine, state)
    before = engine.view(state, "black")
    state, _ = _act(engine, state, type="move", **{"from": [9, 9], "to": [8, 9]})
    assert engine.view(state, "black") == before  # the Move does not show
    state, _ = _act(engine, state, type="fire", weapon="torpedo_launcher", direction=[-1, 0])
    sub = _pieces(engine, state, "black")[("white", "sub")]  # the Fire does
    assert (sub["row"], sub["col"], sub["level"]) == (8, 9, "sub")
    return state


def lesson_bike_transport(engine, state):
    state, _ = _act(engine, state, type="fire", weapon="bike", to=[7, 3])
    tank = _pieces(engine, state, "black")[("black", "tank")]
    assert (tank["row"], tank["col"]) == (4, 3) and tank["transport"]["to"][:2] == [7, 3]
    # A riding piece does not Move: the King makes the Turn's Move.
    assert {tuple(a["from"][:2]) for a in engine.legal_actions(state) if a["type"] == "move"} == {(1, 1)}
    return _king_turn(engine, state)


def lesson_standard(engine, state):
    state, _ = _act(engine, state, type="move")
    return engine.apply(state, {"type": "end_turn"})


LESSONS = {
    "standard": lesson_standard,
    "hidden-sub": lesson_hidden_sub,
    "bike-transport": lesson_bike_transport,
    "stunned-king": lesson_stunned_king,
    "homing-sam": lesson_homing_sam,
    "transport-crash": lesson_transport_crash,
    "reinforcements": lesson_reinforcements,
    "sonar": lesson_sonar,
}


def test_every_shipped_scenario_has_a_lesson_and_an_explanation():
    assert set(LESSONS) == set(scenario_text.SHIPPED)
    assert len(scenario_text.SHIPPED) >= 6
    for key, shipped in scenario_text.SHIPPED.items():
        assert len(str(shipped.about)) > 40, key
        assert scenario_text.shipped_about(f"shipped:{key}") == str(shipped.about)
    assert scenario_text.shipped_about("id:1") == scenario_text.shipped_about("shipped:nope") == ""


@pytest.mark.parametrize("key", list(LESSONS))
def test_each_shipped_lesson_plays_as_explained(key, engine):
    doc = scenario_text.shipped_document(key)
    state = engine.load_scenario({**doc, "options": {**doc["options"], "competitive": True}})
    LESSONS[key](engine, state)


@pytest.mark.parametrize("key", ["stunned-king", "homing-sam", "transport-crash", "reinforcements", "sonar"])
def test_a_game_from_each_new_lesson_takes_its_first_action_on_the_site(key, alice, bob, engine):
    from games import services

    game = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", scenario=scenario_text.shipped_document(key)
    )
    state = selectors.load_state(game)
    first = next(a for a in engine.legal_actions(state) if a["type"] in ("fire", "move"))
    services.submit_action(game.pk, alice, first)
    game.refresh_from_db()
    assert game.seq == 1 and game.status == "active"
