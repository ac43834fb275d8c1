"""`manage.py verify_games`: prove every game's log is whole and true.

For each game: the action rows are numbered 1..N without gaps and N is the
game's seq; each row's hash chain holds (games.store.action_log); replaying the rows
through the engine from the seq-0 snapshot accepts every action, and every
stored snapshot equals the replay's dump_scenario at its seq.  The first bad
row of each game is named; the exit code is 1 when anything is wrong."""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.models import Game, GameAction, GameState, GameTurn, Snapshot
from games.store.action_log import GENESIS_HASH, action_hash, apply_entry


def _plain(value):
    """The JSON form of a value, as a JSONField gives it back."""
    return json.loads(json.dumps(value))


def _load(engine, snapshot: tuple, records: list):
    doc, turns = snapshot
    if turns is None:
        return engine.load_scenario(doc)
    return engine.load_scenario(doc, history=[e for _n, e in records[:turns]])


def _same(engine, state, snapshot: tuple) -> bool:
    """Whether a stored (document, turns) is the replayed `state`."""
    doc, turns = snapshot
    if turns is None:
        return _plain(engine.dump_scenario(state)) == _plain(doc)
    return turns == engine.turn_count(state) and _plain(engine.dump_scenario(state, history=False)) == _plain(doc)


def verify_game(game: Game) -> tuple[str | None, int, int]:
    """(the first problem found or None, actions checked, snapshots checked)."""
    engine = get_engine(game.engine)
    snapshot_rows = {s.seq: s for s in Snapshot.objects.filter(game=game)}
    # A snapshot written without its history (its `turns`
    # says how many Turn records it has); it is checked against the replay's
    # dump without the history, and the records against the replay's own.
    snapshots = {seq: (s.state, s.turns) for seq, s in snapshot_rows.items()}
    records = list(GameTurn.objects.filter(game=game).order_by("number").values_list("number", "entry"))
    if [n for n, _e in records] != list(range(1, len(records) + 1)):
        return _("game %(game)s: the Turn records are not numbered 1..n") % {"game": game.pk}, 0, 0
    if 0 not in snapshots:
        return _("no start snapshot (seq 0)"), 0, 0
    try:
        state = _load(engine, snapshots[0], records)
    except Exception as exc:  # a broken snapshot is a finding, not a crash
        return _("the start snapshot does not load: %(error)s") % {"error": exc}, 0, 0
    checked_snapshots = 1
    prev = GENESIS_HASH
    expected_seq = 0
    count = 0
    rows = GameAction.objects.filter(game=game).select_related("seat").order_by("seq")
    for row in rows.iterator():
        where = _("row %(game)s#%(seq)s (id %(id)s)") % {"game": game.pk, "seq": row.seq, "id": row.pk}
        expected_seq += 1
        if row.seq != expected_seq:
            return (
                _("%(where)s: expected action number %(n)s") % {"where": where, "n": expected_seq},
                count,
                checked_snapshots,
            )
        if row.prev_hash != prev:
            return (
                _("%(where)s: its previous-row hash does not match the row before") % {"where": where},
                count,
                checked_snapshots,
            )
        if row.hash != action_hash(prev, game.pk, row.seq, row.seat.color, row.action):
            return (
                _("%(where)s: its hash does not match its contents") % {"where": where},
                count,
                checked_snapshots,
            )
        prev = row.hash
        try:
            if engine.to_move(state) != row.seat.color:
                return (
                    _("%(where)s: played by the side not to move") % {"where": where},
                    count,
                    checked_snapshots,
                )
            state = apply_entry(engine, state, row.action)
        except Exception as exc:
            return (
                _("%(where)s: the engine refuses it on replay: %(error)s") % {"where": where, "error": exc},
                count,
                checked_snapshots,
            )
        count += 1
        if row.seq in snapshots:
            checked_snapshots += 1
            if not _same(engine, state, snapshots[row.seq]):
                return (
                    _("%(where)s: the snapshot after it differs from the replay") % {"where": where},
                    count,
                    checked_snapshots,
                )
    if expected_seq != game.seq:
        return (
            _("game %(game)s: the log ends at action %(n)s but the game says %(seq)s")
            % {"game": game.pk, "n": expected_seq, "seq": game.seq},
            count,
            checked_snapshots,
        )
    extra = sorted(s for s in snapshots if s > game.seq)
    if extra:
        return (
            _("game %(game)s: a snapshot after the last action (seq %(seq)s)")
            % {"game": game.pk, "seq": extra[0]},
            count,
            checked_snapshots,
        )
    current = GameState.objects.filter(game=game).first()
    if current is not None and (
        current.seq != game.seq or not _same(engine, state, (current.state, current.turns))
    ):
        return (
            _("game %(game)s: the current-state row differs from the replay") % {"game": game.pk},
            count,
            checked_snapshots,
        )
    if current is not None and _plain(engine.turn_records(state)) != [e for _n, e in records]:
        return (
            _("game %(game)s: the Turn records differ from the replay") % {"game": game.pk},
            count,
            checked_snapshots,
        )
    if game.status == Game.Status.ACTIVE and engine.to_move(state) != game.to_move:
        return (
            _("game %(game)s: the replay has %(a)s to move but the game says %(b)s")
            % {"game": game.pk, "a": engine.to_move(state), "b": game.to_move},
            count,
            checked_snapshots,
        )
    return None, count, checked_snapshots


class Command(BaseCommand):
    help = _(
        "Replay every game from its start snapshot, check every snapshot and the hash chain, and name the first bad row."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, action="append", help=_("Only this game (may repeat)."))

    def handle(self, *args, **options):
        games = Game.objects.order_by("pk")
        if options.get("game"):
            games = games.filter(pk__in=options["game"])
        started = time.perf_counter()
        n_games = n_actions = n_snapshots = 0
        problems = 0
        for game in games.iterator():
            problem, actions, snaps = verify_game(game)
            n_games += 1
            n_actions += actions
            n_snapshots += snaps
            if problem:
                problems += 1
                self.stderr.write(_("game %(game)s: %(problem)s") % {"game": game.pk, "problem": problem})
        elapsed = time.perf_counter() - started
        self.stdout.write(
            _(
                "verify_games: %(g)s games, %(a)s actions, %(s)s snapshots checked in %(t).2f s; %(p)s with problems"
            )
            % {"g": n_games, "a": n_actions, "s": n_snapshots, "t": elapsed, "p": problems}
        )
        if problems:
            raise CommandError(_("%(p)s game(s) failed verification") % {"p": problems})
