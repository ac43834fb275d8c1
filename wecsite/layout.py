"""The production process layout on one machine (`./wec serve`).

    N web processes (daphne, ASGI)  ─┐ one listening socket, opened here and
                                     │ inherited by each (`daphne --fd`): the
                                     │ kernel hands each new connection to one
                                     │ of them, so no proxy is needed on one host
    1 Celery worker, 1 Celery beat   │
    PostgreSQL, Redis                ┘ shared by all

Why several processes and not threads: every sync view of a web process
runs on one thread (asgiref's thread-sensitive executor, so that database
connections stay put: wecsite/asgi.py's OneThreadASGIHandler, as Django's
own handler starts a thread per request), so one process serves one view at
a time however many threads it has.  Processes are the unit of concurrency; websockets and
doorbells are async and cost a process almost nothing while they wait.  Each
process holds one persistent database connection (CONN_MAX_AGE), so the
database sees about `workers` (+ Celery) connections.

Standard library only: the `wec` script and the benchmark import it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_workers() -> int:
    return max(2, os.cpu_count() or 2)


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket for the web processes to share (port 0: any free one)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def web_command(fd: int, bin_dir: Path | None = None, access_log: bool = False) -> list[str]:
    bin_dir = bin_dir or Path(sys.executable).parent
    command = [str(bin_dir / "daphne"), "--fd", str(fd), "--proxy-headers", "wecsite.asgi:application"]
    if not access_log:
        command[1:1] = ["-v", "0"]
    return command


def start_web(
    sock: socket.socket, workers: int, env: dict, bin_dir: Path | None = None, log=None
) -> list[subprocess.Popen]:
    """`workers` daphne processes serving the already-listening `sock`."""
    procs = []
    for _ in range(workers):
        procs.append(
            subprocess.Popen(
                web_command(sock.fileno(), bin_dir),
                env=env,
                cwd=ROOT,
                pass_fds=(sock.fileno(),),
                start_new_session=True,
                stdout=log,
                stderr=log,
            )
        )
    return procs


def celery_commands(bin_dir: Path, var: Path, concurrency: int = 2) -> list[tuple[str, list[str]]]:
    return [
        (
            "worker",
            [str(bin_dir / "celery"), "-A", "wecsite", "worker", "-l", "info", "--concurrency", str(concurrency)],
        ),
        ("beat", [str(bin_dir / "celery"), "-A", "wecsite", "beat", "-l", "info", "-s", str(var / "celerybeat-schedule")]),
    ]
