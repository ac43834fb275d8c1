"""Every Wec game made before the record term existed gets ``open_record``
false: a friendly game keeps the fog of war its players expected (their
pages showed "as you saw it"; docs/rulings.md, "Open record").

The term lives in the game's options: on the game row (and its scenario,
which a challenge's accepted proposal sets up again), and in the engine's
state documents (GameState.state, Snapshot.state: the dumped game carries
its options).  The action log (GameAction, append-only and hash-chained) and
the Turn records hold no options and are not touched.  The seats' view
versions are bumped, so that no board rendered with the open record is
served from the render cache again.  Competitive and finished games are
written the same way (censoring follows the engine's one test: it changes
nothing for them), so every Wec game states its record term.

Backwards: the term is removed again (the manual's default, an open record
in a friendly game)."""

from django.db import migrations
from django.db.models import F

TERM = "open_record"


def _with_term(doc, value):
    if isinstance(doc, dict) and isinstance(doc.get("options"), dict) and TERM not in doc["options"]:
        return {**doc, "options": {**doc["options"], TERM: value}}
    return None


def close_records(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameState = apps.get_model("games", "GameState")
    Snapshot = apps.get_model("games", "Snapshot")
    Seat = apps.get_model("games", "Seat")
    for game in Game.objects.filter(engine="wec").iterator():
        options = dict(game.options or {})
        if TERM in options:
            continue
        options[TERM] = False
        fields = {"options": options}
        scenario = _with_term(game.scenario, False)
        if scenario is not None:
            fields["scenario"] = scenario
        Game.objects.filter(pk=game.pk).update(**fields)
        for model in (GameState, Snapshot):
            for pk, state in model.objects.filter(game_id=game.pk).values_list("pk", "state"):
                doc = _with_term(state, False)
                if doc is not None:
                    model.objects.filter(pk=pk).update(state=doc)
        Seat.objects.filter(game_id=game.pk).update(version=F("version") + 1)


def reopen_records(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameState = apps.get_model("games", "GameState")
    Snapshot = apps.get_model("games", "Snapshot")
    for game in Game.objects.filter(engine="wec", **{f"options__{TERM}": False}).iterator():
        options = {k: v for k, v in (game.options or {}).items() if k != TERM}
        Game.objects.filter(pk=game.pk).update(options=options)
        for model in (GameState, Snapshot):
            for pk, state in model.objects.filter(game_id=game.pk).values_list("pk", "state"):
                if isinstance(state, dict) and isinstance(state.get("options"), dict):
                    doc = {**state, "options": {k: v for k, v in state["options"].items() if k != TERM}}
                    model.objects.filter(pk=pk).update(state=doc)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_wt_abuse_draw_turns_notice_index")]

    operations = [migrations.RunPython(close_records, reopen_records)]
