"""A real stack for browser tests: daphne (HTTP + WebSockets) and a Celery
worker in subprocesses, on the test database and the Redis from settings,
driven by Playwright with the system Chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from childenv import child_env

# Playwright's sync API runs an event loop in this thread; Django's ORM calls
# from the test body are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("WEC_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.hookimpl(tryfirst=True)  # before -m selects
def pytest_collection_modifyitems(config, items):
    """A test on the live stack starts daphne and a Celery worker: `procs`,
    like every test that starts processes (.ci/run's embedded pass)."""
    for item in items:
        if "live_stack" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.procs)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not start")


@pytest.fixture(scope="module")
def live_stack(django_db_setup, django_db_blocker):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    env = child_env(
        SECRET_KEY="browser-test-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    bindir = Path(sys.executable).parent
    logs = {name: open(ARTIFACTS / f"{name}.log", "w") for name in ("web", "worker")}
    procs = {
        "web": subprocess.Popen(
            [str(bindir / "daphne"), "-b", "127.0.0.1", "-p", str(port), "wecsite.asgi:application"],
            cwd=ROOT, env=env, stdout=logs["web"], stderr=subprocess.STDOUT, start_new_session=True,
        ),
        "worker": subprocess.Popen(
            [str(bindir / "celery"), "-A", "wecsite", "worker", "--pool", "solo", "-l", "info"],
            cwd=ROOT, env=env, stdout=logs["worker"], stderr=subprocess.STDOUT, start_new_session=True,
        ),
    }
    try:
        _wait_port(port, procs["web"])
        yield {"url": f"http://127.0.0.1:{port}", "procs": procs}
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs.values():
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        for f in logs.values():
            f.close()


@pytest.fixture(scope="module")
def browser(live_stack):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_stack):
    contexts = []
    # Anything the Content-Security-Policy blocked on any page of the test.
    csp_violations: list[str] = []

    def watch(message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            csp_violations.append(f"{message.text} at {message.location}")

    def make(width=1100, height=1000):
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_stack["url"])
        context.set_default_timeout(15000)
        contexts.append(context)
        # Name the blocked element too (Chromium's own message does not).
        context.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => console.error("
            "'Content Security Policy violation:', e.violatedDirective, e.sample,"
            " e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 200) : String(e.target)))"
        )
        page = context.new_page()
        page.on("console", watch)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not csp_violations, csp_violations


@pytest.fixture
def shot():
    def take(page, name):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take
