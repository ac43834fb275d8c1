"""Template helpers that ask a game's site package (games.registry)."""

from django import template

from games.registry import UI_REGISTRY, get_ui, nav_links

register = template.Library()


@register.filter
def game_label(engine: str) -> str:
    """The translated name of the game `engine` ("" for an unknown one)."""
    return str(get_ui(engine).LABEL) if engine in UI_REGISTRY else ""


@register.simple_tag
def game_nav_links() -> list:
    """(label, URL name) of every game's own pages, for the site's menu."""
    return nav_links()
