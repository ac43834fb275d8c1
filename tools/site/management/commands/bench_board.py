"""`manage.py bench_board`: the board partial's render on a cache miss, timed
directly over several boards, in one process.

What games/pages/board.py does with a board it did not find in the cache,
after the context is built: the game's `render_board` (the template, with
Wec's grid written by its tag), the board's parts (games.boardpatch: handed
over by the renderer, or cut from the HTML) and their digests.  The contexts
are built once per board, outside the timing; each board is then rendered
`--renders` times and the median taken, the boards interleaved so that a
drift of the machine's speed touches every board alike.  The process's
memos are warm, as on a miss after the player's own previous board.

Boards: a `--long`-action Wec game and a 50-action one, both colours, the
side to move with up to three selected pieces and an aim mode; the long
game's review once it has ended (three grids: the truth and what each side
knew); a Marshal game after both setups.  Prints CPU medians
(`time.process_time`); asserts none.
"""

from __future__ import annotations

import logging
import secrets
import statistics
import time
from types import SimpleNamespace

from django.core.management.base import BaseCommand

from games import boardpatch, selectors, services
from games.engines import get_engine
from games.models import Game
from games.pages.board import CSRF_MARK
from games.registry import get_ui
from tools.site import benchkit


def _render(game, seat, context: dict) -> tuple[float, float, float]:
    """CPU seconds of (the render, its parts, their digests), as a miss does them."""
    ui = get_ui(game.engine)
    owner = (game.pk, str(game.created), seat.color)
    t0 = time.process_time()
    html = ui.render_board(dict(context))
    t1 = time.process_time()
    cut = getattr(html, "cut", None) or boardpatch.split(html)
    t2 = time.process_time()
    if cut is not None:
        boardpatch.digests(cut[0], owner)
    t3 = time.process_time()
    return t1 - t0, t2 - t1, t3 - t2


class Command(BaseCommand):
    help = "CPU time of the board partial's render on a cache miss, over several boards."

    def add_arguments(self, parser):
        parser.add_argument("--long", type=int, default=3000)
        parser.add_argument("--renders", type=int, default=60, help="renders of each board")
        parser.add_argument("--seed", type=int, default=1)

    def out(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()

    def _contexts(self, bg, engine, label: str, rng) -> list[tuple[str, Game, object, dict]]:
        """The boards of one Wec bench game: both colours, and the side to
        move's selections and an aim mode."""
        game = selectors.get_game(bg.game_id)
        state = selectors.load_state(game)
        ui = get_ui(game.engine)
        boards = []
        mover = engine.to_move(state)
        for color in ("black", "white"):
            seat = selectors.seat_by_color(game, color)
            request = SimpleNamespace(user=bg.players[color].user)
            boards.append((f"{label} {color}", game, seat, ui.board_context(request, game, seat)))
            if color != mover:
                continue
            legal = engine.legal_actions(state)
            places = sorted({tuple(a["from"]) for a in legal if isinstance(a.get("from"), list) and len(a["from"]) == 3})
            for n, place in enumerate(rng.sample(places, min(3, len(places))), 1):
                sel = ui.board_params({"sel": "-".join(str(x) for x in place)})
                boards.append((f"{label} {color} selected {n}", game, seat, ui.board_context(request, game, seat, **sel)))
            fires = [a for a in legal if a.get("type") == "fire" and a.get("weapon") and "direction" in a]
            if fires:
                a = fires[0]
                params = ui.board_params({"sel": "-".join(str(x) for x in a["from"]), "mode": "aim", "weapon": a["weapon"]})
                boards.append((f"{label} {color} aiming", game, seat, ui.board_context(request, game, seat, **params)))
        return boards

    def _marshal(self, tag: str) -> list[tuple[str, Game, object, dict]]:
        """Both players' boards of a Marshal game after both setups."""
        from games.rules import marshal as rules

        black, white = benchkit.make_player(f"m{tag}b"), benchkit.make_player(f"m{tag}w")
        game = services.create_game(creator=black.user, opponent="user", username=white.user.username,
                                    color="black", engine="marshal", days_per_move=None)
        for user, index in ((black.user, 0), (white.user, -1)):
            state = selectors.load_state(selectors.get_game(game.pk))
            services.submit_action(game.pk, user, {"type": "setup", "pieces": rules.legal_actions(state)[index]["pieces"]})
        game = selectors.get_game(game.pk)
        ui = get_ui(game.engine)
        boards = []
        for color, player in (("black", black), ("white", white)):
            seat = selectors.seat_by_color(game, color)
            boards.append((f"marshal {color}", game, seat, ui.board_context(SimpleNamespace(user=player.user), game, seat)))
        return boards

    def _time(self, boards, renders: int) -> dict[str, list[tuple[float, float, float]]]:
        for _label, game, seat, context in boards:  # warm: templates, words, memos
            context["csrf_token"] = CSRF_MARK
            _render(game, seat, context)
        times: dict[str, list] = {}
        for _ in range(renders):
            for label, game, seat, context in boards:
                times.setdefault(label, []).append(_render(game, seat, context))
        return times

    def _report(self, title: str, times: dict[str, list]) -> None:
        """Per kind of board, and over all boards: the median of each board's median."""
        def ms(values) -> str:
            return f"{statistics.median(values) * 1000:.3f}"

        per_board = {label: [sum(t) for t in ts] for label, ts in times.items()}
        self.out(f"  {title}: render + parts + digests {ms([statistics.median(v) for v in per_board.values()])} ms "
                 f"(median over {len(times)} boards: render "
                 f"{ms([statistics.median([t[0] for t in ts]) for ts in times.values()])}, parts "
                 f"{ms([statistics.median([t[1] for t in ts]) for ts in times.values()])}, digests "
                 f"{ms([statistics.median([t[2] for t in ts]) for ts in times.values()])} ms)")
        for label, values in per_board.items():
            self.out(f"    {label}: {ms(values)} ms")

    def handle(self, *args, long, renders, seed, **options):
        import random

        logging.getLogger("axes").setLevel(logging.WARNING)
        engine = get_engine()
        tag = secrets.token_hex(3)
        rng = random.Random(seed)
        lg = benchkit.new_bench_game(tag, 0, seed)
        benchkit.build_long_game(lg, engine, long)
        short = benchkit.new_bench_game(tag, 1, seed + 1)
        benchkit.build_long_game(short, engine, 50)
        live = self._contexts(lg, engine, f"{long} actions", rng) + self._contexts(short, engine, "50 actions", rng)
        marshal = self._marshal(tag)
        self.out(f"bench_board: {len(live)} live Wec boards, {len(marshal)} Marshal boards, {renders} renders each")
        self._report("Wec live board", self._time(live, renders))
        self._report("Marshal board", self._time(marshal, renders))
        # The long game ended: its board is the review (three grids).
        game = selectors.get_game(lg.game_id)
        services.resign(game.pk, lg.players[engine.to_move(lg.state)].user)
        game = selectors.get_game(lg.game_id)
        ui = get_ui(game.engine)
        review = []
        for color in ("black", "white"):
            seat = selectors.seat_by_color(game, color)
            review.append((f"review {color}", game, seat,
                           ui.board_context(SimpleNamespace(user=lg.players[color].user), game, seat)))
        self._report("Wec review board", self._time(review, max(3, renders // 10)))
