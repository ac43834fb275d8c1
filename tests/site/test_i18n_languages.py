"""Languages: the switcher, remembered per user; the time zone
detected on the first visit; the catalogue check."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tools import i18n_check

ROOT = Path(__file__).resolve().parents[2]


def test_the_four_languages_are_offered():
    assert [code for code, _name in settings.LANGUAGES] == ["en", "de", "ru", "pl"]
    for code in ("de", "ru", "pl"):
        assert (ROOT / "locale" / code / "LC_MESSAGES" / "django.po").exists()
        assert (ROOT / "locale" / code / "LC_MESSAGES" / "django.mo").exists()


def test_the_check_finds_untranslated_and_fuzzy_entries(tmp_path):
    po = tmp_path / "de" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#: a.py:1\nmsgid "King"\nmsgstr "König"\n\n'
        '#: a.py:2\n#, fuzzy\nmsgid "Queen"\nmsgstr "Königin"\n\n'
        '#: a.py:3\nmsgid ""\n"Long "\n"text"\nmsgstr ""\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "eins"\nmsgstr[1] ""\n\n'
        '#, python-format\nmsgid "Game %(id)s"\nmsgstr "Partie %(id)s"\n',
        encoding="utf-8",
    )
    found = i18n_check.problems(po)
    assert [(kind, msgid) for _line, kind, msgid in found] == [
        ("fuzzy", "Queen"),
        ("untranslated", "Long text"),
        ("untranslated", "one"),
    ]
    assert i18n_check.main(["x", str(tmp_path)]) == 1
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "King"\nmsgstr "König"\n', encoding="utf-8")
    assert i18n_check.main(["x", str(tmp_path)]) == 0


def test_no_catalogue_has_untranslated_or_fuzzy_entries():
    assert i18n_check.main(["x", str(ROOT / "locale")]) == 0


@pytest.mark.django_db
def test_the_language_switch_is_remembered_per_user(client, alice):
    client.force_login(alice)
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302 and response.url == "/"
    alice.refresh_from_db()
    assert alice.language == "de"
    # A new session (no cookie) still gets the user's language.
    client.cookies.clear()
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert "Meine Partien" in html and 'lang="de"' in html
    assert client.post(reverse("set_language"), {"language": "xx"}).status_code == 400
    response = client.post(reverse("set_language"), {"language": "pl", "next": "https://evil.example/"})
    assert response.url == "/"
    assert "Moje partie" in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_a_visitor_gets_the_language_cookie(client):
    response = client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert "Войти" in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_the_time_zone_is_detected_once_and_never_overrides_a_choice(client, alice):
    client.force_login(alice)
    assert 'data-tz-url="' in client.get(reverse("home")).content.decode()
    assert client.post(reverse("detect_time_zone"), {"zone": "Not/AZone"}).status_code == 400
    assert client.post(reverse("detect_time_zone"), {"zone": "Europe/Berlin"}).status_code == 204
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Berlin"
    assert 'data-tz-url="' not in client.get(reverse("home")).content.decode()
    client.post(reverse("detect_time_zone"), {"zone": "Asia/Tokyo"})
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Berlin"
