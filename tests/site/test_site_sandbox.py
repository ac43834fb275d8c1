"""The sandbox: one person plays both sides with free undo, kept in the
session (no Game row, no notification); importing a .wec record to step
through it, a bad record being a 400 that names its line."""

import re

import pytest
from django.urls import reverse

import games.rules.wec as wec
from games.models import Game, Notification

pytestmark = pytest.mark.django_db


def _step(html: str) -> int:
    return int(re.search(r'name="step" value="(\d+)"', html).group(1))


def _first_option(html: str, group: str) -> str:
    block = html[html.index(f'<optgroup label="{group}">'):]
    return re.search(r'<option value="(\d+)">', block).group(1)


def test_play_both_sides_with_undo_and_redo(client, alice):
    client.force_login(alice)
    assert "No sandbox yet" in client.get(reverse("sandbox")).content.decode()
    r = client.post(reverse("sandbox_start"), {"source": "shipped:standard"})
    assert r.status_code == 302
    html = client.get(reverse("sandbox")).content.decode()
    assert "Turn 1: Black to move" in html and _step(html) == 0
    # Black moves and ends the Turn; White moves: one person, both sides.
    for _ in range(2):
        html = client.get(reverse("sandbox")).content.decode()
        r = client.post(reverse("sandbox_act"), {"action": _first_option(html, "Moves"), "step": _step(html)})
        assert r.status_code == 302
        html = client.get(reverse("sandbox")).content.decode()
        r = client.post(reverse("sandbox_act"), {"action": _first_option(html, "End the Turn"), "step": _step(html)})
    html = client.get(reverse("sandbox")).content.decode()
    assert "Turn 3: Black to move" in html and "action 4 of 4" in html
    # Undo twice, redo once (htmx: the panel comes back).
    r = client.post(reverse("sandbox_act"), {"where": "back", "step": 4}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'id="sandbox"' in r.content.decode() and "<html" not in r.content.decode()
    client.post(reverse("sandbox_act"), {"where": "back", "step": 3})
    client.post(reverse("sandbox_act"), {"where": "forward", "step": 2})
    html = client.get(reverse("sandbox")).content.decode()
    assert "action 3 of 4" in html and "White to move" in html
    # Playing after an undo drops what followed.
    client.post(reverse("sandbox_act"), {"action": _first_option(html, "End the Turn"), "step": 3})
    assert "action 4 of 4" in client.get(reverse("sandbox")).content.decode()
    # Not a game: no row, nothing listed, no notification.
    assert Game.objects.count() == 0 and Notification.objects.count() == 0


def test_stale_and_bad_posts_change_nothing(client, alice):
    client.force_login(alice)
    assert client.post(reverse("sandbox_act"), {"action": "0", "step": "0"}).status_code == 400  # no sandbox
    client.post(reverse("sandbox_start"), {"source": "shipped:hidden-sub"})
    assert client.post(reverse("sandbox_act"), {"action": "0", "step": "5"}).status_code == 409
    assert client.post(reverse("sandbox_act"), {"action": "9999", "step": "0"}).status_code == 400
    assert client.post(reverse("sandbox_act"), {"action": "-1", "step": "0"}).status_code == 400
    assert client.post(reverse("sandbox_act"), {"where": "sideways", "step": "0"}).status_code == 400
    assert client.post(reverse("sandbox_start"), {"source": "shipped:nope"}).status_code == 404
    assert "action 0 of 0" in client.get(reverse("sandbox")).content.decode()
    # The hidden Sub is on the sandbox board: one person sees both sides.
    assert "Sub" in client.get(reverse("sandbox")).content.decode()


def _record(game_id_text: str, turns: list[str], options: str = '{"competitive": false}') -> str:
    head = f'[Site "Wec Online"]\n[Game "{game_id_text}"]\n[Options "{options.replace(chr(34), chr(92) + chr(34))}"]\n\n'
    return head + "".join(f"{n}. {t}\n" for n, t in enumerate(turns, 1))


def _some_turns(n: int = 6) -> list[str]:
    g = wec.new_game({"competitive": False})
    while len(g.log) < n:
        legal = wec.legal_actions(g)
        ends = [a for a in legal if a["type"] == "end_turn"]
        moves = [a for a in legal if a["type"] == "move"]
        g = wec.apply(g, ends[0] if ends else moves[len(g.log) % len(moves)])
    return wec.history(g, None)


def test_import_a_record_and_step_through_it(client, alice):
    client.force_login(alice)
    turns = _some_turns()
    r = client.post(reverse("sandbox_import"), {"record": _record("7", turns)})
    assert r.status_code == 302
    html = client.get(reverse("sandbox")).content.decode()
    assert "Imported record" in html and "action 0 of 12" in html
    client.post(reverse("sandbox_act"), {"where": "turn_forward", "step": 0})
    html = client.get(reverse("sandbox")).content.decode()
    assert "action 2 of 12" in html and "Turn 2: White to move" in html
    client.post(reverse("sandbox_act"), {"where": "last", "step": 2})
    html = client.get(reverse("sandbox")).content.decode()
    assert "action 12 of 12" in html
    for line in turns:
        assert line.replace(">", "&gt;") in html  # the record, complete
    # The site's own export imports too.
    from games import services

    bob = type(alice).objects.create_user("bob2", password="x")
    game = services.create_game(creator=alice, opponent="user", username="bob2", color="black", days_per_move=None)
    services.resign(game.pk, bob)
    exported = client.get(reverse("export_record", args=[game.pk])).content.decode()
    r = client.post(reverse("sandbox_import"), {"record": exported + "1. " + turns[0] + "\n"})
    assert r.status_code == 302


@pytest.mark.parametrize(
    ("mangle", "line", "words"),
    [
        (lambda t: t.replace("3. ", "3. garbage "), 7, "Line 7: "),
        (lambda t: t.replace("2. ", "5. "), 6, "Line 6: "),
        (lambda t: t.replace('[Options "', '[Options "{'), 3, "Line 3: "),
        (lambda t: t + "what is this\n", 11, "Line 11: "),
        (lambda t: t.replace("1. MV:", "1. MV:?"), 5, "Line 5: "),
        (lambda t: t.replace("4. ", "4. " + "MV:TA(1,1)->(9,9),"), 8, "Line 8: "),
    ],
)
def test_a_bad_record_is_a_400_naming_its_line(client, alice, mangle, line, words):
    client.force_login(alice)
    client.post(reverse("sandbox_start"), {"source": "shipped:standard"})
    text = mangle(_record("7", _some_turns()))
    r = client.post(reverse("sandbox_import"), {"record": text})
    assert r.status_code == 400, text
    assert words in r.content.decode(), re.findall(r'id="sandbox-error">([^<]*)', r.content.decode())
    # Nothing changed: the sandbox started before is still there, at its start.
    assert "The standard game" in client.get(reverse("sandbox")).content.decode()


def test_a_censored_record_is_refused(client, alice):
    client.force_login(alice)
    r = client.post(reverse("sandbox_import"), {"record": _record("1", ["MV:?"])})
    assert r.status_code == 400 and "Line 5: " in r.content.decode()
    assert client.post(reverse("sandbox_import"), {"record": ""}).status_code == 400
