"""Board editor and scenarios: the engine's own check, errors at their
Square, saving (private or public), shipped scenarios, a game from one."""

import pytest
from django.urls import reverse

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
