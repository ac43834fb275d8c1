"""Steps the browser tests share: signing up a new player and waiting until
the game page's websocket is live."""

from playwright.sync_api import expect

PASSWORD = "Wec-browser-pw-55"


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("#new-game-form")).to_be_visible()


def wait_live(page):
    expect(page.locator("#game-root[data-live='1']")).to_have_count(1, timeout=10000)
