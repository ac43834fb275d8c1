"""The new-game form's Wec option fields as a browser posts them, for the
site tests that fill in a challenge or a scenario's start form."""

from games.ui.wec import options as game_options


def options_post(**changes) -> dict:
    """Every option field with its default value, `changes` applied
    (unchecked boxes left out, as a browser leaves them out)."""
    values = {**game_options.defaults(), **changes}
    data = {}
    for opt in game_options.ALL_OPTIONS:
        value = values[opt.name]
        if opt.kind == "bool":
            if value:
                data[game_options.field_name(opt.name)] = "on"
        else:
            data[game_options.field_name(opt.name)] = str(value)
    return data
