"""Run by test_site_faults.py in its own process, against a PRIVATE
PostgreSQL (WEC_PG_DIR / WEC_PG_PORT, DATABASE_URL pointing at it): pages
work, the database stops, requests fail cleanly with a 503 page, the
database starts again, requests work again.  Prints one JSON line."""

import json
import os
import sys
from pathlib import Path

# The project, tests/ (childenv) and tests/site (faultkit), as pytest has them.
for parent in (3, 2, 1):
    sys.path.insert(0, str(Path(__file__).resolve().parents[parent]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wecsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import close_old_connections, connection  # noqa: E402
from django.test import Client  # noqa: E402
from faultkit import PrivatePostgres  # noqa: E402

from accounts.models import User  # noqa: E402
from games import services  # noqa: E402
from games.models import GameAction  # noqa: E402

pg = PrivatePostgres(os.environ["WEC_PG_DIR"], int(os.environ["WEC_PG_PORT"]))
call_command("migrate", verbosity=0)
alice = User.objects.create_user("alice", "alice@example.com", "pw-Wec-12345")
User.objects.create_user("bob", "bob@example.com", "pw-Wec-12345")
game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
client = Client(raise_request_exception=False, HTTP_HOST="localhost")
client.force_login(alice)
page = f"/games/{game.pk}/"
act = f"/games/{game.pk}/act/"
out = {}


def request(method, *args, **kwargs):
    # A real server runs close_old_connections at the start and end of every
    # request (with CONN_HEALTH_CHECKS that drops a dead connection); Django's
    # test client leaves it out, so it is done here.
    close_old_connections()
    try:
        return getattr(client, method)(*args, **kwargs)
    finally:
        close_old_connections()


def probe(tag):
    r = request("get", page)
    body = r.content.decode(errors="replace")
    out[tag] = {"status": r.status_code, "retry_after": r.get("Retry-After"), "traceback": "Traceback" in body}
    out[tag]["clear"] = "briefly unavailable" in body
    r = request("post", act, {"type": "end_turn"}, HTTP_HX_REQUEST="true")
    out[tag]["act_status"] = r.status_code


probe("before")
pg.stop()
probe("down")
pg.start()
probe("after")
connection.close()  # this script's own connection died with the server (requests get fresh ones)
out["actions"] = GameAction.objects.count()
print(json.dumps(out))
