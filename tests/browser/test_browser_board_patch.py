"""In a real browser, a submit's answer is only the board's changed
parts (games.boardpatch, static/js/game.js), and the board the page then
shows is the board a full answer shows."""


import pytest
from browser_steps import accept_challenge, challenge, make_a_move, sign_up, wait_live
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The board's Squares and controls as the page shows them and as a full
# answer for the same view version and selection has them (CSRF tokens
# blanked: they differ per request).
COMPARE = """async () => {
  const board = document.getElementById("board");
  const query = board.dataset.query;
  const url = document.getElementById("game-root").dataset.boardUrl + (query ? "?" + query : "");
  const text = await (await fetch(url, {headers: {"HX-Request": "true"}})).text();
  const box = document.createElement("div");
  box.innerHTML = text;
  const strip = (el) => el.outerHTML.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
  const pick = (root) => Array.from(root.querySelectorAll("#board .board .sq, #board .controls, #board .game-head .turn-line"));
  const shown = pick(document), full = pick(box);
  if (shown.length !== full.length) return "counts " + shown.length + " " + full.length;
  for (let i = 0; i < shown.length; i++) {
    if (strip(shown[i]) !== strip(full[i])) return "differs at " + i + ": " + strip(shown[i]).slice(0, 300) + " | " + strip(full[i]).slice(0, 300);
  }
  return board.dataset.version === box.querySelector("#board").dataset.version ? "same" : "version";
}"""


def test_submits_are_answered_with_the_changed_parts(new_page):
    alice = new_page()
    bob = new_page()
    sign_up(alice, "alice_p")
    sign_up(bob, "bob_p")
    game_path = challenge(alice, "bob_p")
    bob.goto("/")
    accept_challenge(bob)
    alice.goto(game_path)
    wait_live(alice)
    bob.goto(game_path)
    wait_live(bob)

    answers = []
    for page in (alice, bob):
        page.on("response", lambda r: answers.append(r.headers.get("x-wec-patch")) if "/act/" in r.url else None)
    for _ in range(2):
        make_a_move(alice)
        assert alice.evaluate(COMPARE) == "same"
        expect(bob.locator(".your-turn-flag")).to_be_visible(timeout=5000)
        make_a_move(bob)
        assert bob.evaluate(COMPARE) == "same"
        expect(alice.locator(".your-turn-flag")).to_be_visible(timeout=5000)
    assert answers and all(a == "1" for a in answers), answers
