"""The Rules & Help page (public: no game data, nothing hidden)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from . import help as helpdata
from .words import article_abbr, article_name, piece_abbr, piece_name


@require_GET
def help_page(request):
    pieces = [
        {"key": k, "name": piece_name(k), "abbr": piece_abbr(k), "group": g, "text": t, "diagram": helpdata.piece_diagram(k)}
        for k, g, t in helpdata.PIECES
    ]
    articles = [
        {"key": k, "name": article_name(k), "abbr": article_abbr(k), "group": g, "text": t,
         "diagram": helpdata.article_diagram(k),
         "transport": k in ("bike", "jump_pack", "scuba")}
        for k, g, t in helpdata.ARTICLES
    ]
    context = {
        "pieces": pieces,
        "articles": articles,
        "actions": helpdata.action_entries(),
        "options": helpdata.OPTIONS,
        "notation": helpdata.NOTATION,
        "keys": helpdata.KEYS,
        "recipes": helpdata.RECIPES,
    }
    return render(request, "games/wec/help.html", context)
