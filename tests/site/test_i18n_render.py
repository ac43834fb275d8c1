"""The translated catalogues at render time: every translation keeps
its msgid's placeholders (a wrong one raises in Python code and silently falls
back to English in a template), every plural form is reachable, and the main
pages render in each language."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from tools import i18n_check

ROOT = Path(__file__).resolve().parents[2]

LANGS = ("de", "ru", "pl")
NAMED = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdif]")


def _catalogue(lang: str) -> list:
    return i18n_check.parse_po(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po")


@pytest.mark.parametrize("lang", LANGS)
def test_every_translation_keeps_its_placeholders(lang):
    bad = []
    for entry in _catalogue(lang):
        if not entry.msgid or entry.obsolete:
            continue
        wanted = set(NAMED.findall(entry.msgid)) | set(NAMED.findall(entry.msgid_plural or ""))
        values = {name: 7 for name in wanted}
        for index, text in entry.msgstr.items():
            if not text:
                continue
            if set(NAMED.findall(text)) != wanted:
                bad.append((entry.msgid, index, text))
                continue
            if wanted or "%%" in entry.msgid:
                try:
                    text % values
                except (KeyError, ValueError, TypeError) as error:
                    bad.append((entry.msgid, index, f"{text} ({error})"))
            if entry.msgid.endswith("\n") != text.endswith("\n"):
                bad.append((entry.msgid, index, "trailing newline"))
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_match_the_header_and_the_compiled_catalogue(lang):
    if i18n_check.problems(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"):
        pytest.skip(f"the {lang} catalogue is not finished yet")
    entries = _catalogue(lang)
    header = entries[0].msgstr[0] if entries and entries[0].msgid == "" else ""
    nplurals = int(re.search(r"nplurals=(\d+)", header).group(1))
    for entry in entries:
        if entry.msgid_plural and any(entry.msgstr.values()):
            assert sorted(entry.msgstr) == list(range(nplurals)), entry.msgid
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    # Every form is chosen for some count from 0 to 200.
    assert {compiled.plural(n) for n in range(201)} == set(range(nplurals))


def test_polish_plurals_follow_the_grammar():
    with translation.override("pl"):
        days = [translation.ngettext("%(n)d day", "%(n)d days", n) % {"n": n} for n in (1, 2, 5, 12, 22, 25, 112)]
    assert days == ["1 dzień", "2 dni", "5 dni", "12 dni", "22 dni", "25 dni", "112 dni"]
    with translation.override("pl"):
        seconds = [
            translation.ngettext(
                "You are doing that too often. Please wait %(seconds)d second and try again.",
                "You are doing that too often. Please wait %(seconds)d seconds and try again.",
                n,
            ) % {"seconds": n}
            for n in (1, 3, 5, 14, 24)
        ]
    assert [s.split("Poczekaj ")[1].split(" i ")[0] for s in seconds] == [
        "1 sekundę", "3 sekundy", "5 sekund", "14 sekund", "24 sekundy",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_main_pages_render_in_each_language(client, alice, bob, carol, lang):
    playing = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    challenge = services.create_game(creator=alice, opponent="user", username="carol", color="white", as_challenge=True)
    finished = services.create_game(creator=alice, opponent="user", username="bob", color="white")
    services.resign(finished.pk, alice)
    client.force_login(alice)
    assert client.post(reverse("set_language"), {"language": lang, "next": "/"}).status_code == 302
    pages = [
        reverse("home"),
        reverse("game_list"),
        reverse("profile"),
        reverse("help"),
        reverse("notifications"),
        reverse("leaderboard"),
        reverse("archive"),
        reverse("scenario_editor"),
        reverse("player_profile", args=["alice"]),
        reverse("game_detail", args=[playing.pk]),
        reverse("game_board", args=[playing.pk]) + "?sel=2-2-ground",
        reverse("game_clocks", args=[playing.pk]),
        reverse("challenge_detail", args=[challenge.pk]),
        reverse("game_detail", args=[finished.pk]),
        reverse("game_replay", args=[finished.pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
    html = client.get(reverse("game_detail", args=[playing.pk])).content.decode()
    expected = {"de": "Meine Partien", "ru": "Мои партии", "pl": "Moje partie"}[lang]
    assert expected in html
    if lang == "pl":
        assert "Twoja tura" in html
        replay = client.get(reverse("game_detail", args=[finished.pk])).content.decode()
        assert "Koniec partii." in replay and "Przegrana." in replay and "(poddanie)" in replay
    client.force_login(carol)
    assert client.get(reverse("watch", args=[playing.pk])).status_code == 200
