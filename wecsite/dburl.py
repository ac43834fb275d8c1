"""A postgres:// URL for a Django DATABASES entry: the inverse of
dj_database_url.parse, for handing this process's database to another one
(`./wec`, a test's Celery worker or web process, the benchmark's web
processes).

The HOST may be a Unix socket directory (the embedded PostgreSQL of `./wec`
listens only there): its slashes are percent-encoded so that they do not end
the host part (a plain `host:port/name` put the directory into the database
name).  urllib lower-cases only the part of a host before its first "%", so
an encoded directory keeps its capitals.  Passwords and user names may hold
any character; libpq options (OPTIONS) go into the query string.

Standard library only: the `wec` script loads it by path."""

from __future__ import annotations

from urllib.parse import quote, urlencode


def database_url(db: dict) -> str:
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or ""
    if host.startswith("/"):
        host = quote(host, safe="")
    elif ":" in host:
        host = f"[{host}]"  # IPv6
    port = f":{db['PORT']}" if db.get("PORT") else ""
    options = {k: v for k, v in (db.get("OPTIONS") or {}).items() if isinstance(v, str | int | float)}
    query = f"?{urlencode(options)}" if options else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}{query}"
