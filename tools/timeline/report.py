"""The submit timeline's table from the marks tools/timeline/submit.py
wrote (all.json): the median wall and thread-CPU ms of each phase of one
submit, and of the bare INSERT view beside it.

    python -m tools.timeline.report /tmp/wec-timeline-*/all.json
"""

from __future__ import annotations

import json
import statistics
import sys

MS = 1000.0


# checkpoints in order: (name of the phase that ends here, predicate on a mark)
def cp(kind, prefix):
    return lambda e: e[3] == kind and e[4].startswith(prefix)


# the way in, up to the view, and the way out: the same for both views
WAY_IN = [
    ("daphne: request read, parsed, app called", cp("B", "asgi POST")),
    ("loop: body, hop 1 (request_started signal)", cp("I", "request_started")),
    ("back to loop, create_request, hop 2", cp("B", "middleware chain")),
    ("middleware to the health check", cp("B", "sql health check")),
    ("connection health check (SELECT 1)", cp("E", "sql health check")),
    ("middleware to the session read", cp("B", 'sql SELECT "django_session')),
    ("session SQL", cp("E", 'sql SELECT "django_session')),
    ("middleware/login to the user read", cp("B", 'sql SELECT "accounts_user')),
    ("user SQL", cp("E", 'sql SELECT "accounts_user')),
    ("rest of middleware, URL", cp("B", "url+view")),
]
WAY_OUT = [
    ("view exit, middleware out", cp("E", "middleware chain")),
    ("hop back to the loop", cp("B", "send http.response.start")),
    ("send (start + body)", lambda e: e[3] == "E" and e[4] == "send http.response.body"),
]
SUBMIT = [
    *WAY_IN,
    ("view: parse POST", cp("B", "redis pipeline")),
    ("rate limit (Redis INCR+EXPIRE)", cp("E", "redis pipeline")),
    ("view: action from POST", cp("B", "service")),
    ("lock+load rows (1 SQL)", cp("E", "lock+load rows")),
    ("load state, legal, engine apply", cp("B", "append_action")),
    ("log row + state row (dump, JSON)", cp("E", "save_state")),
    ("game row, clocks, notify", cp("B", "settle_views")),
    ("settle_views (views, digests)", cp("E", "settle_views")),
    ("note_shown (signature)", cp("B", "batch flush")),
    ("batch write (1 round trip)", cp("E", "batch flush")),
    ("schedule_ai, to COMMIT", cp("B", "sql COMMIT")),
    ("COMMIT", cp("E", "sql COMMIT")),
    ("on_commit hooks (bells queued)", cp("E", "on_commit hooks")),
    ("service exit, seat_for", cp("B", "answer: board_response")),
    ("answer: board_context", cp("E", "answer: board_context")),
    ("answer: render_board", cp("E", "answer: render_board")),
    ("answer: digests, history, since, patch, csrf", cp("E", "answer: board_response")),
    *WAY_OUT,
]
BARE = [*WAY_IN, ("view: INSERT", cp("E", "url+view")), *WAY_OUT]


def phases(events, t0, t1, spec):
    window = [e for e in events if t0 - 0.0005 <= e[0] <= t1 + 0.0005 and e[2] != "wec-doorbells"]
    out = []
    prev = (t0, None, "client")
    i = 0
    for name, pred in spec:
        hit = None
        while i < len(window):
            e = window[i]
            i += 1
            if pred(e):
                hit = e
                break
        if hit is None:
            return None
        cpu = (hit[1] - prev[1]) * MS if prev[1] is not None and prev[2] == hit[2] else None
        out.append((name, (hit[0] - prev[0]) * MS, cpu))
        prev = (hit[0], hit[1], hit[2])
    out.append(("daphne write, loopback, client read", (t1 - prev[0]) * MS, None))
    return out


def bell(events, t0, t1, commit_end, send_end):
    """The doorbell thread's busy time inside [t0, t1] and in [commit, send]."""
    busy = []
    start = None
    for e in events:
        if e[2] != "wec-doorbells" or not e[4].startswith("bell: _do"):
            continue
        if e[3] == "B":
            start = e
        elif start is not None:
            busy.append((start[0], e[0], (e[1] - start[1]) * MS))
            start = None

    def overlap(a, b):
        return sum(max(0.0, min(b, y) - max(a, x)) for x, y, _c in busy) * MS

    cpu = sum(c for x, y, c in busy if t0 <= x <= t1 + 0.03)
    before_send = overlap(commit_end, send_end)
    first = next((x for x, y, c in busy if x >= commit_end), None)
    return cpu, before_send, ((first - commit_end) * MS if first else None), overlap(t0, t1 + 0.03)


def table(data, kind, spec):
    events = data["events"]
    rows = {}
    totals = []
    bells = []
    for c in data["client"]:
        if c[0] != kind or c[3] != 200:
            continue
        ph = phases(events, c[1], c[2], spec)
        if ph is None:
            continue
        totals.append((c[2] - c[1]) * MS)
        for name, wall, cpu in ph:
            rows.setdefault(name, ([], []))
            rows[name][0].append(wall)
            if cpu is not None:
                rows[name][1].append(cpu)
        if kind == "submit":
            ce = next(e[0] for e in events if c[1] <= e[0] <= c[2] and e[3] == "E" and e[4] == "sql COMMIT")
            se = next(
                e[0]
                for e in events
                if c[1] <= e[0] <= c[2] + 0.002 and e[3] == "E" and e[4] == "send http.response.body"
            )
            bells.append(bell(events, c[1], c[2], ce, se))
    print(
        f"\n{kind}: {len(totals)} requests, client wall median {statistics.median(totals):.2f} ms "
        f"(p25 {statistics.quantiles(totals, n=4)[0]:.2f}, p75 {statistics.quantiles(totals, n=4)[2]:.2f})"
    )
    print("| phase | wall ms | thread CPU ms |\n|---|---|---|")
    sw = sc = 0.0
    for name, (walls, cpus) in rows.items():
        w = statistics.median(walls)
        c = statistics.median(cpus) if cpus else None
        sw += w
        sc += c or 0
        print(f"| {name} | {w:.2f} | {'' if c is None else f'{c:.2f}'} |")
    print(f"| (sum of medians) | {sw:.2f} | {sc:.2f} |")
    if bells:
        print(
            f"doorbell thread per submit: CPU {statistics.median([b[0] for b in bells]):.2f} ms; "
            f"busy between COMMIT and the answer's last send {statistics.median([b[1] for b in bells]):.2f} ms "
            f"(in {sum(1 for b in bells if b[1] > 0)} of {len(bells)}); starts "
            f"{statistics.median([b[2] for b in bells if b[2] is not None]):.2f} ms after COMMIT"
        )


def main(argv: list[str]) -> int:
    with open(argv[0]) as f:
        data = json.load(f)
    table(data, "submit", SUBMIT)
    table(data, "bare", BARE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
