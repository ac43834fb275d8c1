"""The club in a real browser: a challenge with options, a proposed change,
acceptance, a draw by agreement, a spectator who sees nothing hidden, and the
language switch."""

import re

import pytest
from browser_steps import sign_up  # shared steps
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_challenge_change_accept_draw_and_a_spectator(new_page, shot):
    from games import selectors
    from games.models import Game

    alice = new_page()
    bob = new_page()
    watcher = new_page()  # not signed in
    sign_up(alice, "alice_club")
    sign_up(bob, "bob_club")

    # A challenge with options, in plain words.
    alice.check("input[name=opponent][value=user]")
    alice.fill("input[name=username]", "bob_club")
    alice.select_option("select[name=color]", "black")
    alice.locator("#game-options summary").click()
    alice.select_option("select[name=opt_tank_range]", "8")
    alice.select_option("select[name=opt_white_government]", "democracy")
    shot(alice, "20-challenge-options")
    alice.click("#new-game-form button[type=submit]")
    expect(alice.locator("#challenge-terms")).to_contain_text("Tank range: 8")
    challenge_path = re.sub(r"^https?://[^/]+", "", alice.url)
    game_path = challenge_path.replace("challenge/", "")

    # Bob proposes a change; Alice approves it; Bob accepts.
    bob.goto(challenge_path)
    expect(bob.locator("#challenge-terms")).to_contain_text("Democracy")
    bob.locator("#propose-form #game-options summary").click()
    bob.fill("#propose-form input[name=opt_flamer_rate]", "6")
    bob.click("#propose-change")
    expect(bob.locator("#proposal")).to_contain_text("Your proposed change waits for approval")
    expect(bob.locator("#accept-challenge")).to_have_count(0)
    alice.goto(challenge_path)
    expect(alice.locator("#proposal")).to_contain_text("Flamer: 6")
    shot(alice, "21-change-proposed")
    alice.click("#approve-change")
    expect(alice.locator("#challenge-terms")).to_contain_text("Flamer: 6")
    bob.goto(challenge_path)
    bob.click("#accept-challenge")
    expect(bob.locator("#board")).to_be_visible()
    alice.goto(game_path)
    expect(alice.locator(".your-turn-flag")).to_be_visible()

    # A spectator sees the board both players see, and nothing hidden.
    watcher.goto(game_path + "watch/")
    expect(watcher.locator("#watch")).to_be_visible()
    game = Game.objects.get(pk=int(game_path.strip("/").split("/")[-1]))
    from games.ui.wec.selectors import public_view

    public = public_view(game, selectors.load_state(game))
    expect(watcher.locator("#watch .tok")).to_have_count(len(public["pieces"]))
    assert len(public["pieces"]) < len(selectors.load_state(game).pieces)  # the stealthed ones stay hidden
    assert "cooldown" not in watcher.content().lower()
    shot(watcher, "22-spectator")

    # A draw by agreement.
    alice.click("#offer-draw")
    expect(alice.locator("#draw-status")).to_contain_text("You offered a draw.")
    bob.goto(game_path)
    expect(bob.locator("#draw-status")).to_contain_text("Your opponent offers a draw.")
    bob.click("#accept-draw")
    expect(bob.locator(".turn-line")).to_contain_text("Drawn.")
    expect(alice.locator(".turn-line")).to_contain_text("Drawn.", timeout=10000)
    shot(bob, "23-drawn")
    watcher.goto(game_path + "watch/")
    expect(watcher.locator("#replay")).to_be_visible()


def test_the_language_switch(new_page, shot):
    page = new_page()
    sign_up(page, "dora_club")
    page.select_option("#lang-select", "de")
    page.click("#lang-go")
    expect(page.locator("nav")).to_contain_text("Meine Partien")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    shot(page, "24-deutsch")
    page.goto("/")
    expect(page.locator("nav")).to_contain_text("Meine Partien")  # remembered
    page.select_option("#lang-select", "pl")
    page.click("#lang-go")
    expect(page.locator("nav")).to_contain_text("Moje partie")


def test_the_editor_saves_a_scenario_and_a_game_starts_from_it(new_page, shot):
    page = new_page()
    sign_up(page, "erin_club")
    page.goto("/scenarios/")
    page.fill("#scenario-text", "piece black king 1 1\npiece black tank 5 5\npiece black tank 5 5\npiece black tank 5 5\npiece white king 10 10\n")
    page.click("#check-scenario")
    expect(page.locator("#editor-error")).to_contain_text("Square 5,5:")
    page.fill(
        "#scenario-text",
        "to_move black\npiece black king 1 1\npiece black tank 3 3 ground hand=right articles=bike\npiece white king 10 10\n",
    )
    page.fill("#scenario-name", "Bike lesson")
    page.click("#save-scenario")
    expect(page.locator("#scenario-list")).to_contain_text("Bike lesson")
    expect(page.locator("#editor .board .tok")).to_have_count(3)
    shot(page, "25-editor-saved")
    page.check("#scenario-start input[name=opponent][value=ai]")
    page.select_option("#scenario-start select[name=color]", "black")
    page.click("#start-from-scenario")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#board .board .tok")).to_have_count(3)
    shot(page, "26-game-from-scenario")


def _exactly(words: str, n: int):
    """A pattern for a text holding `words` exactly `n` times."""
    other = rf"(?:(?!{words})[\s\S])*"
    return re.compile(rf"^{other}(?:{words}{other}){{{n}}}$")


def test_the_point_and_click_editor(new_page, shot):
    """Place, move and remove by clicks (htmx swaps the editor; the text
    follows), an engine error shown at its Square, a government per side,
    then save and start a game from the result."""
    page = new_page()
    sign_up(page, "fay_club")
    page.goto("/scenarios/")
    page.fill("#scenario-text", "to_move black\npiece black king 1 1\npiece white king 10 10\n")
    text = page.locator("#scenario-text")
    # Place a right-handed Tank on 3,3.
    page.check("#editor-palette input[name=tool][value=place]")
    page.check("#editor-palette input[name=kind][value=piece]")
    page.select_option("#ed-piece", "tank")
    page.select_option("#ed-color", "black")
    page.click("#ed-sq-3-3")
    expect(text).to_have_value(re.compile(r"piece black tank 3 3 ground hand=right"))
    expect(page.locator("#editor-ok")).to_be_visible()
    # Three pieces on one Square: the engine's complaint shows at 5,5.
    for n in range(1, 4):
        page.click("#ed-sq-5-5")
        # One click at a time: a click while the last one is on its way is dropped.
        expect(text).to_have_value(_exactly("tank 5 5", n))
    expect(page.locator("#editor-error")).to_contain_text("Square 5,5:")
    expect(page.locator("td.ed-error #ed-sq-5-5")).to_have_count(1)
    expect(page.locator("#ed-sq-5-5")).to_have_attribute("aria-describedby", "editor-error")
    shot(page, "27-editor-error-at-square")
    # Remove them again, one click each.
    page.check("#editor-palette input[name=tool][value=remove]")
    for n in (2, 1, 0):
        page.click("#ed-sq-5-5")
        expect(text).to_have_value(_exactly("tank 5 5", n))
    expect(page.locator("#editor-ok")).to_be_visible()
    expect(text).not_to_have_value(re.compile(r"5 5"))
    # Move the Tank by pick-and-place.
    page.check("#editor-palette input[name=tool][value=move]")
    page.click("#ed-sq-3-3")
    expect(page.locator("td.ed-held #ed-sq-3-3")).to_have_count(1)
    page.click("#ed-sq-4-6")
    expect(text).to_have_value(re.compile(r"piece black tank 4 6 ground hand=right"))
    # An Article on the ground, and White becomes a democracy.
    page.check("#editor-palette input[name=tool][value=place]")
    page.check("#editor-palette input[name=kind][value=article]")
    page.select_option("#ed-article", "bike")
    page.click("#ed-sq-6-6")
    expect(text).to_have_value(re.compile(r"article bike 6 6"))
    page.select_option("#ed-gov-white", "democracy")
    page.click("#set-government")
    expect(text).to_have_value(re.compile(r"piece white president 10 10"))
    expect(page.locator("#ed-sq-10-10")).to_have_attribute("aria-label", re.compile("President"))
    shot(page, "28-editor-clicked")
    page.fill("#scenario-name", "Clicked together")
    page.click("#save-scenario")
    expect(page.locator("#scenario-list")).to_contain_text("Clicked together")
    page.check("#scenario-start input[name=opponent][value=ai]")
    page.select_option("#scenario-start select[name=color]", "black")
    page.click("#start-from-scenario")
    expect(page.locator("#board .board .tok")).to_have_count(3)


def test_the_sandbox(new_page, shot):
    """One person plays both sides, undoes and redoes."""
    page = new_page()
    sign_up(page, "gus_club")
    page.goto("/sandbox/")
    page.select_option("#sandbox-source", "shipped:hidden-sub")
    page.click("#sandbox-start-btn")
    expect(page.locator("#sandbox-status")).to_contain_text("Black to move")
    page.select_option("#sandbox-action", index=0)
    page.click("#sandbox-play-btn")
    expect(page.locator("#sandbox-status")).to_contain_text("action 1 of 1")
    page.select_option("#sandbox-action", label="End turn")
    page.click("#sandbox-play-btn")
    expect(page.locator("#sandbox-status")).to_contain_text("White to move")
    shot(page, "29-sandbox")
    page.click("#sandbox-undo")
    expect(page.locator("#sandbox-status")).to_contain_text("Black to move")
    page.click("#sandbox-redo")
    expect(page.locator("#sandbox-status")).to_contain_text("action 2 of 2")
