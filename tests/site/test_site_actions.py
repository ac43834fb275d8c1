"""The action UI: every Action (Fire, Transport, Pick-up, Drop, Exchange,
Reinforce) offered from the player's own legal_actions, posted to the act
endpoint, validated against legal_actions, and rendered without leaking
anything of the enemy's."""

import html as htmllib
import json
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameAction, Seat
from games.ui.wec import panels

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

# Own ids in the 44xx range, enemy ids in the 987xx range, so a leak is unmistakable.
BLACK_IDS = {"king": 4401, "tank": 4402, "dozer": 4403, "queen": 4404, "jet": 4405, "chopper": 4406}
WHITE_IDS = {"king": 98761, "rocket_pawn": 98762, "jet": 98763, "tank": 98764, "pawn2": 98765}

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1, "id": 4401},
        {"type": "tank", "color": "black", "row": 4, "col": 5, "id": 4402},
        {"type": "dozer", "color": "black", "row": 3, "col": 3, "id": 4403},
        {"type": "queen", "color": "black", "row": 3, "col": 4, "id": 4404, "articles": ["flamer"]},
        {"type": "jet", "color": "black", "row": 6, "col": 6, "level": "air", "id": 4405},
        {"type": "chopper", "color": "black", "row": 6, "col": 6, "level": "air", "id": 4406},
        {"type": "king", "color": "white", "row": 10, "col": 1, "id": 98761},
        {"type": "rocket_pawn", "color": "white", "row": 5, "col": 5, "id": 98762},
        {"type": "jet", "color": "white", "row": 7, "col": 7, "level": "air", "id": 98763},
        {"type": "tank", "color": "white", "row": 9, "col": 9, "id": 98764, "stun": 2},
        {"type": "rocket_pawn", "color": "white", "row": 8, "col": 2, "id": 98765},
    ],
    "articles": [{"type": "bike", "row": 3, "col": 3}],
    "reinforcements": [{"type": "cleric", "color": "black", "row": 2, "col": 8, "armed": True, "ready": True}],
}


@pytest.fixture
def sgame(alice, bob):
    """Alice (Black, to move) against Bob (White) from SCENARIO."""
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=SCENARIO)


def board(client, game, **params):
    response = client.get(reverse("game_board", args=[game.pk]), params, **HX)
    assert response.status_code == 200
    return response.content.decode()


def my_version(client, game) -> int:
    """The view version of the signed-in player's seat (what their page shows)."""
    return Seat.objects.get(game_id=game.pk, user_id=client.session["_auth_user_id"]).version


def act(client, game, data, version=None):
    payload = dict(data)
    payload.setdefault("version", my_version(client, game) if version is None else version)
    return client.post(reverse("game_act", args=[game.pk]), payload, **HX)


FORM_RE = re.compile(
    r'<input type="hidden" name="action" value="([^"]*)">\s*<input type="hidden" name="version" value="\d+">\s*'
    r'<button type="submit"([^>]*)>(.*?)</button>',
    re.S,
)


def buttons(html_text):
    """[(label, action)] for every action button in a piece of the page."""
    out = []
    for value, attrs, text in FORM_RE.findall(html_text):
        label = re.search(r'aria-label="([^"]*)"', attrs)
        out.append((htmllib.unescape(label.group(1) if label else text).strip(), json.loads(htmllib.unescape(value))))
    return out


def section(html_text, marker, end="</section>"):
    return html_text.split(marker, 1)[1].split(end, 1)[0]


def action_panel(html_text):
    return section(html_text, 'id="action-panel"')


def square(html_text, row, col):
    return html_text.split(f'data-row="{row}" data-col="{col}"', 1)[1].split('role="gridcell"', 1)[0]


def ground_pieces(html_text, row, col):
    band = square(html_text, row, col).split('data-level="ground"', 1)[1].split('data-level="sub"', 1)[0]
    return re.findall(r'class="tok tok-(\w+) lvl-ground', band)


# --- Fire -----------------------------------------------------------------------------
def test_fire_flamer_via_the_site_removes_the_enemy_from_both_pages(client, sgame, alice, bob):
    client.force_login(bob)
    assert ground_pieces(board(client, sgame), 5, 5) == ["white"]
    client.force_login(alice)
    page = board(client, sgame, sel="4-5-ground")
    assert ground_pieces(page, 5, 5) == ["white"]
    fires = dict(buttons(action_panel(page)))
    # Black sees row 10 at the top: its forward, [1, 0], is north on its screen.
    north = fires["Fire Flamer \u2191 north"]
    assert north == {"type": "fire", "from": [4, 5, "ground"], "piece": 4402, "weapon": "flamer", "direction": [1, 0]}
    assert "Fire Flamer \u2197 north-east" in fires and "Fire Flamer \u2199 south-west" in fires

    response = act(client, sgame, {"action": json.dumps(north)})
    assert response.status_code == 200
    page = response.content.decode()
    assert ground_pieces(page, 5, 5) == []
    entry = GameAction.objects.get(game=sgame)
    assert entry.action == north
    # The tank stays selected: its Flamer now cools down (badge), the turn panel counts the Fire.
    assert 'data-selected="4-5-ground"' in page
    tank = square(page, 4, 5)
    assert 'class="tb b-cd"' in tank and "Flamer 4" in tank
    turn = section(page, 'id="turn-panel"')
    assert re.search(r'data-item="fires"><span class="ti-label">Fires</span> <span class="ti-state">1/2', turn)
    assert "Fire Flamer" not in action_panel(page)  # a weapon fires once a Turn

    client.force_login(bob)
    assert ground_pieces(board(client, sgame), 5, 5) == []
    client.force_login(alice)
    assert ground_pieces(board(client, sgame), 5, 5) == []


def test_targeted_fire_names_the_enemy_by_place(client, sgame, alice):
    client.force_login(alice)
    page = board(client, sgame, sel="6-6-air")
    labels = [label for label, _ in buttons(action_panel(page))]
    assert "Fire SAM launcher at enemy Jet (7,7 air)" in labels


def test_aim_mode_lights_the_neighbouring_squares(client, sgame, alice, engine):
    client.force_login(alice)
    page = board(client, sgame, sel="4-5-ground", mode="aim", weapon="flamer")
    assert "target-aim" in page
    shown = set(re.findall(r'data-target="(\d+-\d+-\w+)"', page))
    assert shown == {f"{4 + dr}-{5 + dc}-ground" for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)}
    # Clicking the orange square north of the tank fires that way.
    north = [a for label, a in buttons(square(page, 5, 5))]
    assert north == [{"type": "fire", "from": [4, 5, "ground"], "piece": 4402, "weapon": "flamer", "direction": [1, 0]}]


def test_directions_are_named_from_whites_side(alice, bob):
    """White's board is turned 180 degrees: White's forward, [-1, 0], is its north."""
    names = panels._Names({"pieces": []}, "white")
    action = {"type": "fire", "from": [7, 5, "ground"], "weapon": "flamer", "direction": [-1, 0]}
    assert panels.describe(action, names, "white").label == "Fire Flamer \u2191 north"
    action["direction"] = [-1, -1]  # toward lower columns: White's right
    assert panels.describe(action, names, "white").label == "Fire Flamer \u2197 north-east"
    assert panels.describe(action, names, "black").label == "Fire Flamer \u2199 south-west"


# --- Pick-up, Drop, Exchange, Transport, Reinforce --------------------------------------------
def test_pickup_then_drop_via_the_site(client, sgame, alice, engine):
    client.force_login(alice)
    page = board(client, sgame, sel="3-3-ground")
    assert "Pick up Bike" in [label for label, _ in buttons(action_panel(page))]
    # Per-field form data (no piece id: the only piece there that can is found).
    response = act(client, sgame, {"type": "pickup", "from": "3-3-ground", "article": "bike"})
    assert response.status_code == 200, response.content.decode()
    page = response.content.decode()
    assert GameAction.objects.get(game=sgame, seq=1).action == {
        "type": "pickup", "from": [3, 3, "ground"], "piece": 4403, "article": "bike"
    }
    view = engine.view(selectors.load_state(Game.objects.get(pk=sgame.pk)), "black")
    assert not [a for a in view["articles"] if (a["row"], a["col"]) == (3, 3)]
    assert [p["articles"] for p in view["pieces"] if p.get("id") == 4403] == [["bike"]]
    assert 'class="art"' not in square(page, 3, 3)
    assert re.search(r'data-item="pickup"><span class="ti-label">Pick-up</span> <span class="ti-state">done', page)

    drops = dict(buttons(action_panel(page)))
    drop = drops["Drop Bike"]
    response = act(client, sgame, {"action": json.dumps(drop)})
    assert response.status_code == 200
    view = engine.view(selectors.load_state(Game.objects.get(pk=sgame.pk)), "black")
    assert [a["type"] for a in view["articles"] if (a["row"], a["col"]) == (3, 3)] == ["bike"]
    assert [p["articles"] for p in view["pieces"] if p.get("id") == 4403] == [[]]
    kinds = [a["type"] for a in GameAction.objects.filter(game=sgame).order_by("seq").values_list("action", flat=True)]
    assert kinds == ["pickup", "drop"]


def test_exchange_labels(client, sgame, alice):
    client.force_login(alice)
    page = board(client, sgame, sel="3-4-ground")
    labels = dict(buttons(action_panel(page)))
    give = labels["Give Flamer to Dozer (3,3)"]
    assert give["to_piece"] == 4403 and give["piece"] == 4404
    assert "Drop Flamer" in labels and "Fire Flamer \u2191 north" in labels


def test_transport_destination_form_and_board_mode(client, sgame, alice, engine):
    client.force_login(alice)
    act(client, sgame, {"type": "pickup", "from": "3-3-ground", "article": "bike"})
    page = board(client, sgame, sel="3-3-ground")
    form = section(page, 'class="transport-form" data-weapon="bike"', "</form>")
    assert form.count("<option") == 99 + 3  # every other Square's ground, and the three paths
    assert 'name="to"' in form and 'name="path"' in form and "Go by Bike" in form
    # "Choose the destination on the board": blue squares; several paths -> a choice.
    page = board(client, sgame, sel="3-3-ground", mode="dest", weapon="bike", piece=4403)
    assert "target-dest" in page
    assert len(set(re.findall(r'data-target="(\d+-\d+-ground)"', page))) == 99
    page = board(client, sgame, sel="3-3-ground", mode="dest", weapon="bike", piece=4403, to="8-4-ground")
    choices = section(page, 'class="choice-panel"', "</div>")
    assert "Which way to (8,4)?" in choices
    assert {a.get("path") for _, a in buttons(choices)} == {"beeline", "port", "starboard"}
    # The form's fields post the Transport.
    response = act(client, sgame, {"type": "fire", "from": "3-3-ground", "piece": "4403", "weapon": "bike",
                                   "to": "8-3-ground", "path": "beeline"})
    assert response.status_code == 200, response.content.decode()
    last = GameAction.objects.filter(game=sgame).latest("seq").action
    assert last == {"type": "fire", "from": [3, 3, "ground"], "piece": 4403, "weapon": "bike",
                    "to": [8, 3, "ground"], "path": "beeline"}
    page = board(client, sgame)
    assert 'class="tb b-tr"' in page  # the dozer is on its way


def test_reinforce_button_in_the_turn_panel(client, sgame, alice, engine):
    client.force_login(alice)
    page = board(client, sgame)
    turn = section(page, 'id="turn-panel"')
    [(label, action)] = buttons(section(turn, 'data-group="reinforce"', "</div>"))
    assert label == "Bring in Cleric at (2,8)"
    assert act(client, sgame, {"action": json.dumps(action)}).status_code == 200
    view = engine.view(selectors.load_state(Game.objects.get(pk=sgame.pk)), "black")
    assert any(p["type"] == "cleric" and (p["row"], p["col"]) == (2, 8) for p in view["pieces"])
    page = board(client, sgame)
    assert 'data-group="reinforce"' not in page
    assert re.search(r'data-item="reinforce"><span class="ti-label">Reinforce</span> <span class="ti-state">done', page)
    # No Move yet: no End Turn button, a hint instead.
    assert 'id="end-turn"' not in page and "Make your Move" in page


# --- validation -------------------------------------------------------------------------------
def test_illegal_posted_actions_are_refused_and_change_nothing(client, sgame, alice, bob):
    client.force_login(alice)
    bad = [
        # The dozer has no Flamer.
        ({"action": json.dumps({"type": "fire", "from": [3, 3, "ground"], "weapon": "flamer",
                                "direction": [1, 0]})}, 422),
        # Not a direction.
        ({"action": json.dumps({"type": "fire", "from": [4, 5, "ground"], "piece": 4402, "weapon": "flamer",
                                "direction": [2, 0]})}, 422),
        # Another piece's id at the tank's place.
        ({"action": json.dumps({"type": "fire", "from": [4, 5, "ground"], "piece": 4403, "weapon": "flamer",
                                "direction": [1, 0]})}, 422),
        # An enemy's place and weapon.
        ({"action": json.dumps({"type": "fire", "from": [5, 5, "ground"], "weapon": "rocket_launcher",
                                "direction": [-1, 0]})}, 422),
        # Nothing to pick up there; a Drop of what it does not carry.
        ({"type": "pickup", "from": "4-5-ground", "article": "bike"}, 422),
        ({"type": "drop", "from": "3-3-ground", "article": "flamer"}, 422),
        # A reinforcement that is not there; an End Turn before the Move.
        ({"type": "reinforce", "to": "2-7", "piece_type": "cleric"}, 422),
        ({"type": "end_turn"}, 422),
        # Malformed.
        ({"type": "fire", "from": "11-1-ground", "weapon": "flamer", "direction": "1,0"}, 400),
        ({"type": "fire", "from": "4-5-ground", "weapon": "flamer", "direction": "north"}, 400),
        ({"type": "teleport"}, 400),
        ({"action": "[1, 2]"}, 400),
    ]
    for data, status in bad:
        response = act(client, sgame, data)
        assert response.status_code == status, (data, response.status_code)
        assert 'id="board-error"' in response.content.decode()
    # A legal Fire with a stale version (double submit).
    fire = {"type": "fire", "from": [4, 5, "ground"], "piece": 4402, "weapon": "flamer", "direction": [1, 0]}
    shown = my_version(client, sgame)
    assert act(client, sgame, {"action": json.dumps(fire)}, version=shown + 7).status_code == 409
    # Not your turn.
    client.force_login(bob)
    assert act(client, sgame, {"action": json.dumps(fire)}).status_code == 409
    assert not GameAction.objects.filter(game=sgame).exists()
    assert Game.objects.get(pk=sgame.pk).seq == 0
    # The same Fire, posted twice with the version the page showed: the second is refused.
    client.force_login(alice)
    assert act(client, sgame, {"action": json.dumps(fire)}, version=shown).status_code == 200
    assert act(client, sgame, {"action": json.dumps(fire)}, version=shown).status_code == 409
    assert GameAction.objects.filter(game=sgame).count() == 1


def test_error_message_is_translated_text(client, sgame, alice):
    client.force_login(alice)
    response = act(client, sgame, {"type": "end_turn"})
    assert "Make your Move before you end your turn." in response.content.decode()
    response = act(client, sgame, {"type": "drop", "from": "3-3-ground", "article": "flamer"})
    assert "That action is not allowed now." in response.content.decode()


def test_match_legal_action_normalises():
    from games.ui.wec.actions import match_legal_action

    legal = [
        {"type": "move", "piece": 3, "from": [1, 1, "ground"], "to": [2, 1, "ground"]},
        {"type": "fire", "from": [5, 5, "ground"], "piece": 8, "weapon": "bike", "to": [8, 5, "ground"],
         "path": "beeline"},
        {"type": "drop", "from": [6, 6, "air"], "piece": 9, "article": "flamer"},
        {"type": "drop", "from": [6, 6, "air"], "piece": 10, "article": "flamer"},
    ]
    assert match_legal_action(
        {"type": "move", "from": (1, 1, "ground"), "to": [2, 1, "ground"], "carry": False}, legal
    ) is legal[0]
    assert match_legal_action(
        {"type": "fire", "from": [5, 5, "ground"], "weapon": "bike", "to": [8, 5, "ground"]}, legal
    ) is legal[1]
    with pytest.raises(services.MalformedAction):  # two pieces there could drop a Flamer
        match_legal_action({"type": "drop", "from": [6, 6, "air"], "article": "flamer"}, legal)
    assert match_legal_action(
        {"type": "drop", "from": [6, 6, "air"], "piece": 10, "article": "flamer"}, legal
    ) is legal[3]
    with pytest.raises(services.IllegalMove):
        match_legal_action({"type": "move", "from": [1, 1, "ground"], "to": [3, 1, "ground"]}, legal)



def test_engine_refusal_reaches_a_wec_player_in_german(client, alice, sgame, monkeypatch):
    """An engine refusal on the submit path is shown in the reader's language
    (games/ui/wec/refusals.py).  The site lets only listed legal actions reach
    the engine, so the test lets Alice's posted action through unmatched: the
    engine itself then refuses "you have no piece at (2, 2, ground)"."""
    from games.ui import wec as wec_ui

    monkeypatch.setattr(wec_ui, "accepts", lambda engine, state, color, action, legal: action)
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    response = act(client, sgame, {"type": "move", "from": "2-2-ground", "to": "3-2-ground"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Du hast keine Figur auf (2, 2, Boden)." in page
    assert "you have no piece" not in page
    assert GameAction.objects.filter(game=sgame).count() == 0


def test_wec_refusal_table_translates_real_engine_messages():
    """Rows of the table match what the engine writes (a change of wording
    shows up here), in German; an unknown message is passed on as written."""
    from django.utils import translation

    from games.registry import get_ui
    from games.rules import wec as rules

    ui = get_ui("wec")
    fresh = rules.new_game({"competitive": False})
    with pytest.raises(rules.IllegalAction) as end_early:
        rules.apply(fresh, {"type": "end_turn"})
    with pytest.raises(rules.IllegalAction) as no_undo:
        rules.undo(rules.new_game({"competitive": True}), 1)
    with translation.override("de"):
        assert ui.refusal(str(end_early.value)) == "Ziehe, bevor du deinen Zug beendest."
        assert ui.refusal(str(no_undo.value)) != str(no_undo.value)
        assert ui.refusal("something new") == "something new"


# --- what the page shows -------------------------------------------------------------------------
def test_action_panel_never_shows_another_pieces_actions(client, sgame, alice, engine):
    client.force_login(alice)
    state = selectors.load_state(sgame)
    legal = engine.legal_actions(state)
    for place, ids in (("4-5-ground", {4402}), ("3-4-ground", {4404}), ("3-3-ground", {4403}),
                       ("6-6-air", {4405, 4406})):
        r, c, level = place.split("-")
        origin = [int(r), int(c), level]
        page = board(client, sgame, sel=place)
        panel = action_panel(page)
        shown = buttons(panel)
        expected = [a for a in legal if a.get("from") == origin and a["type"] not in ("move",)]
        assert len(shown) == len(expected), place
        for _label, action in shown:
            assert action["from"] == origin and action.get("piece") in ids, (place, action)
        # Two pieces share the air at (6,6): one section each, each with only its own actions.
        for pid in ids if len(ids) > 1 else ():
            part = panel.split(f'data-piece="{pid}"', 1)[1].split('class="piece-actions"', 1)[0]
            assert {a.get("piece") for _l, a in buttons(part)} <= {pid}
    # The Jet's section offers its SAM, the Chopper's its Stunner, never the other way round.
    page = board(client, sgame, sel="6-6-air")
    jet = action_panel(page).split('data-piece="4405"', 1)[1].split('class="piece-actions"', 1)[0]
    chopper = action_panel(page).split('data-piece="4406"', 1)[1].split('class="piece-actions"', 1)[0]
    assert "SAM launcher" in jet and "Stunner" not in jet
    assert "Stunner" in chopper and "SAM launcher" not in chopper


def test_pages_never_contain_enemy_ids(client, sgame, alice, bob):
    pages = []
    client.force_login(alice)
    pages.append(("black", client.get(reverse("game_detail", args=[sgame.pk])).content.decode()))
    for sel in ("4-5-ground", "3-3-ground", "3-4-ground", "6-6-air", "1-1-ground"):
        pages.append(("black", board(client, sgame, sel=sel)))
    pages.append(("black", board(client, sgame, sel="4-5-ground", mode="aim", weapon="flamer")))
    pages.append(("black", board(client, sgame, sel="6-6-air", mode="aim", weapon="sam_launcher", piece=4405)))
    fire = {"type": "fire", "from": [4, 5, "ground"], "piece": 4402, "weapon": "flamer", "direction": [1, 0]}
    pages.append(("black", act(client, sgame, {"action": json.dumps(fire)}).content.decode()))
    client.force_login(bob)
    pages.append(("white", client.get(reverse("game_detail", args=[sgame.pk])).content.decode()))
    pages.append(("white", board(client, sgame, sel="10-1-ground")))
    for color, page in pages:
        enemy = WHITE_IDS.values() if color == "black" else BLACK_IDS.values()
        for pid in enemy:
            assert not re.search(rf"(?<!\d){pid}(?!\d)", page), (color, pid)
    # Black's own ids do appear in its actions (that is how it names its pieces).
    assert "4402" in pages[1][1]


def test_badges_and_projectiles(client, sgame, alice, bob, engine, monkeypatch):
    client.force_login(alice)
    page = board(client, sgame)
    # The stunned white Tank carries a stun badge for both sides.
    assert 'class="tb b-stun" aria-hidden="true">\u26a12<' in square(page, 9, 9)
    real_view = engine.view

    def view_with_projectiles(state, color, **kw):
        v = real_view(state, color, **kw)
        if color == "black":
            v["projectiles"] = [
                {"kind": "sam", "row": 6, "col": 7, "level": "air", "color": "black", "direction": [1, 1]},
                {"kind": "rocket", "row": 7, "col": 3, "level": "ground"},
            ]
        return v

    monkeypatch.setattr(engine, "view", view_with_projectiles)
    # Same view version as before: the render cache would (rightly) answer
    # with the board it has; this test changes the engine under it.
    from django.core.cache.backends.dummy import DummyCache

    from games.store import render_cache

    monkeypatch.setattr(render_cache, "cache", lambda: DummyCache("", {}))
    page = board(client, sgame)
    sam = square(page, 6, 7).split('data-level="air"', 1)[1].split('data-level="ground"', 1)[0]
    assert 'class="proj proj-own" data-kind="sam" title="Your SAM, flying \u2197 north-east"' in sam
    assert ">S\u2197<" in sam
    rocket = square(page, 7, 3).split('data-level="ground"', 1)[1].split('data-level="sub"', 1)[0]
    assert 'class="proj" data-kind="rocket" title="Enemy Rocket"' in rocket
    client.force_login(bob)
    assert 'class="proj' not in board(client, sgame).split('class="controls"')[0]


def test_a_fired_sam_shows_on_the_firers_page_only(client, sgame, alice, bob, engine):
    """With the engine filling view()["projectiles"]: the SAM just launched sits
    on its firer's Square, shown to its side only."""
    client.force_login(alice)
    page = board(client, sgame, sel="6-6-air")
    sam = dict(buttons(action_panel(page)))["Fire SAM launcher \u2191 north"]
    assert act(client, sgame, {"action": json.dumps(sam)}).status_code == 200
    state = selectors.load_state(Game.objects.get(pk=sgame.pk))
    if not engine.view(state, "black")["projectiles"]:
        pytest.skip("this engine version does not report projectiles in view() yet")
    page = board(client, sgame)
    air = square(page, 6, 6).split('data-level="air"', 1)[1].split('data-level="ground"', 1)[0]
    assert 'class="proj proj-own" data-kind="sam" title="Your SAM, flying \u2191 north"' in air
    client.force_login(bob)
    assert 'class="proj' not in board(client, sgame).split('class="controls"')[0]
