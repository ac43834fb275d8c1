"""`./wec run` itself, as the README gives it, on the embedded services:
with DATABASE_URL and REDIS_URL unset it starts PostgreSQL and Redis of its
own, answers /healthz, serves the home page, signs a new player up and
holds their websocket, and on SIGINT (Ctrl-C) or SIGTERM stops everything it
started: daphne, the Celery worker and its pool, beat, Redis, PostgreSQL.

Its data directory (WEC_VAR) is a temporary one, shared by the two runs of
this module (the second finds the cluster made and migrated, as a second
`./wec run` in a checkout does), so that it never meets the ./var of an
embedded test run going on in the same checkout."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
from pathlib import Path
from urllib.parse import urlencode

import psutil
import pytest
from childenv import ROOT, bare_env
from faultkit import free_port, wait_for

from tools.site.benchkit import Http, WebSocket

pytestmark = pytest.mark.procs

SESSION_RE = re.compile(r"sessionid=([^;]+)")


@pytest.fixture(scope="module")
def var(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("wec-run") / "var"


def healthy(port: int) -> bool:
    try:
        return Http(port).request("GET", "/healthz", {"Host": "127.0.0.1"})[0] == 200
    except OSError:
        return False


def naming(var: Path) -> list[psutil.Process]:
    """The processes with `var` on their command line (PostgreSQL, which
    pg_ctl leaves to init, Redis, beat)."""
    return [p for p in psutil.process_iter(["cmdline"]) if str(var) in " ".join(p.info["cmdline"] or [])]


def started_by(proc: psutil.Process, var: Path) -> list[psutil.Process]:
    """Everything `./wec run` started: its descendants, and what names its
    data directory."""
    found = {p.pid: p for p in [*proc.children(recursive=True), *naming(var)]}
    found.pop(proc.pid, None)
    return list(found.values())


def alive(processes: list[psutil.Process]) -> list[str]:
    left = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                left.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
        except psutil.NoSuchProcess:
            pass
    return left


def sign_up(port: int) -> str:
    """A new player through the sign-up form; their session cookie."""
    csrf = secrets.token_hex(16)  # a 32-character secret: Django takes it unmasked
    name = f"smoke{secrets.token_hex(4)}"
    password = secrets.token_urlsafe(16)
    body = urlencode(
        {"csrfmiddlewaretoken": csrf, "username": name, "email": f"{name}@example.com",
         "password1": password, "password2": password}
    ).encode()  # fmt: skip
    headers = {"Host": "127.0.0.1", "Cookie": f"csrftoken={csrf}",
               "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
    status, body, response = Http(port).request("POST", "/accounts/signup/", headers, body)
    assert status == 302, body[:2000]
    session = SESSION_RE.search(" ".join(response.headers.get_all("Set-Cookie") or []))
    assert session, response.headers
    return f"sessionid={session.group(1)}"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_wec_run_serves_on_the_embedded_services_and_stops_cleanly(var, tmp_path, stop):
    port = free_port()
    log = tmp_path / "wec-run.log"
    env = bare_env(HOST="127.0.0.1", PORT=port, WEC_VAR=var, PYTHONUNBUFFERED=1)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(ROOT / "wec"), "run"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    wec = psutil.Process(proc.pid)

    def output() -> str:
        return log.read_text(errors="replace")[-6000:]

    try:
        # A cluster to make, the migrations and collectstatic: on a loaded
        # 2-core machine the first start takes a minute or more.
        assert wait_for(lambda: proc.poll() is None and healthy(port), 300, every=0.5), output()
        assert "starting embedded PostgreSQL" in output() and "starting embedded Redis" in output()

        status, page, _r = Http(port).request("GET", "/", {"Host": "127.0.0.1"})
        assert status == 200 and b"</html>" in page, page[:500]

        # A websocket needs Redis (the channel layer) and the session in PostgreSQL.
        with pytest.raises(ConnectionError, match="403"):
            WebSocket(port, "/ws/notifications/", "")  # anonymous: refused
        ws = WebSocket(port, "/ws/notifications/", sign_up(port))
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.recv(10) == {"type": "pong"}
        ws.close()

        ready = re.compile(r"celery@\S+ ready")
        assert wait_for(lambda: ready.search(output()) and "beat: Starting" in output(), 60), output()
        started = started_by(wec, var)
        names = " ".join(" ".join(p.cmdline()) for p in started)
        for program in ("daphne", "worker", "beat", "redis-server", "postgres"):
            assert program in names, (program, names)
        # The links in emails name the address the site listens on (SITE_URL
        # unset: set by `./wec run` from HOST and PORT), in every process.
        site_processes = [p for p in started if re.search(r"daphne|celery", " ".join(p.cmdline()))]
        assert site_processes
        assert {p.environ().get("SITE_URL") for p in site_processes} == {f"http://127.0.0.1:{port}"}
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, stop)
        try:
            code = proc.wait(90)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    assert code == 0, output()
    assert "shutting down" in output() and "stopping embedded PostgreSQL" in output(), output()
    wait_for(lambda: not alive([*started, *naming(var)]), 10)
    left = alive([*started, *naming(var)])
    for p in [*started, *naming(var)]:  # not to leave them to the rest of the run
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    assert not left, left
    assert not healthy(port)
