"""The web app on a phone (390x844, touch) and with the keyboard alone: nothing wider
than the screen, every control reachable and tapped; a whole turn played with arrows,
letters and Enter; squares, tiles and scores labelled for screen readers; at 1280x800
the buttons and the exchange bar stay above the fold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import Server, new_game

from lexiko import movegen
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.rules import preset
from lexiko.tiles import BLANK, LETTER_MASK

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RULES = preset("tournament")
TIMEOUT = 15_000


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


def right_edge(page: Any, selector: str) -> float:
    box = None
    for _ in range(20):  # the page may be drawing the element again (the computer's move came)
        loc = page.locator(selector).first
        loc.wait_for()
        box = loc.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None, selector
    return float(box["x"] + box["width"])


def test_a_phone_shows_everything_and_every_control_answers_a_tap(
    browser: Any, server: Server, artifacts: Path
) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True, accept_downloads=True
    )
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#preset option", state="attached")
        page.fill("#your-name", "Ann")
        page.locator(".seat-kind").select_option("greedy")
        page.locator("#advanced summary").tap()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # was 705
        page.screenshot(path=str(artifacts / "30-phone-new-game.png"), full_page=True)
        page.locator("#create-button").tap()  # with every option open
        page.wait_for_url("**/game/**")
        page.locator("#rack .tile").nth(6).wait_for()

        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] <= 70  # two lines at most (was five)
        assert right_edge(page, '#board .cell[data-r="0"][data-c="14"]') <= 390  # the last column
        assert right_edge(page, "#rack .tile >> nth=6") <= 390  # the seventh tile
        for button in ("play", "exchange", "pass", "challenge"):
            assert right_edge(page, f"#{button}") <= 390, button
        page.locator("#status", has_text="your turn").wait_for()  # the computer may have started
        page.screenshot(path=str(artifacts / "31-phone-game.png"))

        # tap a tile, then a square: the tile goes there; Recall takes it back
        page.locator("#rack .tile").first.tap()
        assert "selected" in (page.locator("#rack .tile").first.get_attribute("class") or "")
        r, c = page.evaluate(
            "(() => { const e = [...document.querySelectorAll('#board .cell')]"
            ".find(x => !x.querySelector('.tile')); return [+e.dataset.r, +e.dataset.c]; })()"
        )
        page.locator(f'#board .cell[data-r="{r}"][data-c="{c}"]').tap()
        page.locator(f'#board .cell[data-r="{r}"][data-c="{c}"] .tile.placed').wait_for()
        assert page.locator("#rack .tile").count() == 6
        page.locator("#recall").tap()
        page.wait_for_function("document.querySelectorAll('#rack .tile').length === 7")
        before = sorted(page.eval_on_selector_all("#rack .tile", "els => els.map(e => e.dataset.letter)"))
        page.locator("#shuffle").tap()
        assert sorted(page.eval_on_selector_all("#rack .tile", "els => els.map(e => e.dataset.letter)")) == before
        # Exchange opens the bar; a tapped tile is chosen; Cancel closes it
        page.locator("#exchange").tap()
        page.locator("#exchange-bar").wait_for()
        page.locator("#rack .tile").nth(2).tap()
        page.locator("#exchange-confirm", has_text="Exchange 1").wait_for()
        page.locator("#exchange-cancel").tap()
        page.locator("#exchange-bar").wait_for(state="hidden")
        # Pass is a turn; the computer answers
        page.locator("#pass").tap()
        page.wait_for_function("document.querySelectorAll('#moves li').length >= 2")
        with page.expect_download() as dl:
            page.locator("#download").tap()
        assert dl.value.suggested_filename.endswith(".gcg")
        page.locator("header a.button", has_text="New game").tap()
        page.wait_for_url(server.url + "/")
    finally:
        ctx.close()


def ann_first_seed() -> int:
    for s in range(100):
        if Game(["Ann", "Computer"], RULES, seed=s, lexicon=None).player_on_turn == 0:
            return s
    raise AssertionError("no seed")


def test_a_turn_with_the_keyboard_alone_and_labels_for_screen_readers(
    browser: Any, server: Server, artifacts: Path, lex: Lexicon
) -> None:
    seed = ann_first_seed()
    mirror = Game(["Ann", "Computer"], RULES, seed=seed, lexicon=lex)
    with httpx.Client(base_url=server.url, timeout=20) as http:
        gid, tokens = new_game(http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=seed)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        page.goto(f"{server.url}/game/{gid}#t={tokens[0]}")
        page.locator("#rack .tile").nth(6).wait_for()
        # above the fold at 1280x800: every button, and the exchange bar when it opens
        for button in ("play", "exchange", "pass", "challenge"):
            box = page.locator(f"#{button}").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 800, button
        page.locator("#exchange").click()
        bar = page.locator("#exchange-bar").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= 800
        page.locator("#exchange-cancel").click()

        # labels: tiles, squares and scores say what they are
        faces = page.eval_on_selector_all("#rack .tile", "els => els.map(e => e.getAttribute('aria-label'))")
        rack = [RULES.tile_set.face(t) for t in mirror.rack(0)]
        assert sorted(faces) == sorted(
            "blank"
            if f == "?"
            else f"{f}, {RULES.tile_set.value(RULES.tile_set.code(f))} point"
            + ("" if RULES.tile_set.value(RULES.tile_set.code(f)) == 1 else "s")
            for f in rack
        )
        assert page.locator('#players [role="listitem"]').first.get_attribute("aria-label") == (
            "Ann (you): 0 points, 7 tiles, to play"
        )

        # Tab reaches the board at the start square
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('cell')"):
                break
        focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert focused == "8H: start, double word, typing across"

        found = movegen.generate(
            mirror.board, mirror.rack(0), lex, RULES, bag_count=mirror.bag_count, placements_only=True
        )
        move = next(m.move for m in found if isinstance(m.move, Place) and not any(t & BLANK for t in m.move.tiles))
        assert isinstance(move, Place)
        squares = list(move.new_tiles())

        def active_square() -> tuple[int, int]:
            r, c = page.evaluate("[+document.activeElement.dataset.r, +document.activeElement.dataset.c]")
            return int(r), int(c)

        def go_and_type() -> None:
            """From the focused square, arrows to the move's first square, Space for the direction, the letters."""
            r, c = active_square()
            for _ in range(abs(squares[0][0] - r)):
                page.keyboard.press("ArrowDown" if squares[0][0] > r else "ArrowUp")
            for _ in range(abs(squares[0][1] - c)):
                page.keyboard.press("ArrowRight" if squares[0][1] > c else "ArrowLeft")
            assert active_square() == squares[0][:2]
            page.keyboard.press(" ")  # Space turns the cursor: down, then across again
            assert page.evaluate("document.activeElement.getAttribute('aria-label')").endswith("typing down")
            if not move.down:
                page.keyboard.press(" ")
                assert page.evaluate("document.activeElement.getAttribute('aria-label')").endswith("typing across")
            for _, _, code in squares:
                page.keyboard.press(RULES.tile_set.face(code & LETTER_MASK).lower())

        go_and_type()
        score = mirror.copy().play(move, player=0).score
        page.locator("#preview").filter(has_text=f"{score} points").wait_for()
        first = page.locator(f'#board .cell[data-r="{squares[0][0]}"][data-c="{squares[0][1]}"]')
        letter = RULES.tile_set.face(squares[0][2])
        name = f"{squares[0][0] + 1}{chr(65 + squares[0][1])}"
        assert first.get_attribute("aria-label") == (
            f"{name}: {letter}, {RULES.tile_set.value(squares[0][2])} point"
            f"{'' if RULES.tile_set.value(squares[0][2]) == 1 else 's'}, your tile, not played yet"
        )
        page.keyboard.press("Escape")  # every tile back to the rack
        page.wait_for_function("document.querySelectorAll('#board .tile.placed').length === 0")
        assert page.evaluate("document.activeElement.classList.contains('cell')")
        go_and_type()
        page.keyboard.press("Enter")  # plays
        mirror.play(move, player=0)
        page.wait_for_function("document.querySelectorAll('#moves li').length >= 1")
        assert [int(x) for x in page.locator(".player .score").all_inner_texts()][0] == mirror.scores[0]
        assert (first.get_attribute("aria-label") or "").startswith(f"{name}: {letter}, ")

        # a rack tile picked with Enter, then put on an empty square with Enter
        page.locator("#status", has_text="your turn").wait_for()  # after the computer's move
        page.locator("#rack .tile").first.focus()
        page.keyboard.press("Enter")
        assert page.locator("#rack .tile").first.get_attribute("aria-pressed") == "true"
        page.keyboard.press("Shift+Tab")  # back to the board
        assert page.evaluate("document.activeElement.classList.contains('cell')")
        for _ in range(8):
            if not page.evaluate("!!document.activeElement.querySelector('.tile')"):
                break
            page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        assert page.locator("#board .tile.placed").count() == 1
        page.screenshot(path=str(artifacts / "32-keyboard.png"))
    finally:
        ctx.close()


def test_resign_then_a_rematch_in_the_browser(browser: Any, server: Server, artifacts: Path) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as http:
        gid, tokens = new_game(http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=None)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("dialog", lambda d: d.accept())  # "Resign? You lose this game."
    try:
        page.goto(f"{server.url}/game/{gid}#t={tokens[0]}")
        page.locator("#rack .tile").nth(6).wait_for()
        page.locator("#resign").click()
        page.locator("#result h2", has_text="Computer wins").wait_for()
        page.locator("#result", has_text="a player resigned").wait_for()
        assert page.locator("#resign").is_hidden()
        page.locator("#rematch").click()
        page.locator("#rematch-link").click()
        page.wait_for_url(f"{server.url}/game/**")
        assert gid not in page.url
        page.locator("#rack .tile").nth(6).wait_for()  # the same seat, a new game
        assert page.locator(".player.me .name").inner_text() == "Ann (you)"
        page.screenshot(path=str(artifacts / "33-rematch.png"))
    finally:
        ctx.close()


def test_chat_with_mute_spectators_and_lookup_in_the_browser(browser: Any, server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as http:
        gid, tokens = new_game(
            http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], seed=None
        )
    pages = []
    try:
        for t in (tokens[0], tokens[1], None):
            ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
            page = ctx.new_page()
            page.set_default_timeout(TIMEOUT)
            page.goto(f"{server.url}/game/{gid}" + (f"#t={t}" if t else ""))
            page.locator("#status").filter(has_text="to play").wait_for()
            pages.append(page)
        ann, bob, watcher = pages
        ann.locator("#watchers", has_text="1 watching").wait_for()
        assert watcher.locator("#chat-form").is_hidden()  # spectators read only
        ann.fill("#chat-text", "good luck")
        ann.press("#chat-text", "Enter")
        for p in pages:
            p.locator("#chat-lines li", has_text="Ann: good luck").wait_for()
        bob.locator("#chat-lines li", has_text="good luck").locator("button", has_text="mute").click()
        assert bob.locator("#chat-lines li").count() == 0
        bob.locator("#chat-muted button", has_text="unmute Ann").wait_for()
        # no word judge during the game: the box says so; it opens when the game ends
        for p in pages:
            assert p.locator("#lookup-word").is_disabled()
            assert p.locator("#lookup-word").get_attribute("placeholder") == "the word judge opens when the game ends"
        ann.on("dialog", lambda d: d.accept())  # "Resign? You lose this game."
        ann.locator("#resign").click()
        watcher.locator("#result", has_text="a player resigned").wait_for()
        watcher.fill("#lookup-word", "qi")
        watcher.click("#lookup-form button")
        watcher.locator("#lookup-result", has_text="QI is valid in TWL06; no anagrams").wait_for()
    finally:
        for p in pages:
            p.context.close()


def test_the_lobby_lists_open_and_live_games_and_mine(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    other = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        ann = ctx.new_page()
        ann.set_default_timeout(TIMEOUT)
        ann.goto(server.url + "/")
        ann.wait_for_selector("#preset option", state="attached")
        ann.fill("#your-name", "Ann")
        ann.locator(".seat-kind").select_option("human")  # a person: a clock by default
        ann.click("#advanced summary")
        assert ann.locator("#opt-time_minutes").input_value() == "25"
        ann.check("#public")
        ann.click("#create-button")
        ann.locator(".invite-link").wait_for()
        # someone else finds it in the lobby and takes the seat
        bob = other.new_page()
        bob.set_default_timeout(TIMEOUT)
        bob.goto(server.url + "/")
        bob.locator("#open-games .game-item", has_text="Ann").locator("a", has_text="Join").click()
        bob.fill("#join-name", "Bob")
        bob.click("#join-button")
        bob.wait_for_url("**/game/**")
        bob.locator("#rack .tile").nth(6).wait_for()
        assert "time_minutes=25" in bob.locator("#rules").inner_text()
        # now it is a game to watch; and Ann's own list has it
        ann.goto(server.url + "/")
        ann.locator("#live-games .game-item", has_text="Bob").locator("a", has_text="Watch").wait_for()
        ann.locator("#my-games .game-item", has_text="Bob").locator("a", has_text="in progress").click()
        ann.locator("#rack .tile").nth(6).wait_for()
        assert ann.locator(".player.me .name").inner_text() == "Ann (you)"
    finally:
        ctx.close()
        other.close()


def test_two_signed_in_players_and_a_game_resigned_at_once_is_not_rated(browser: Any, server: Server) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True) for _ in range(2)]
    try:
        ann, bob = (c.new_page() for c in contexts)
        for page, name in ((ann, "Ann"), (bob, "Bob")):
            page.set_default_timeout(TIMEOUT)
            page.goto(server.url + "/")
            page.fill("#account-user", name)
            page.fill("#account-password", "correct horse")
            page.click("#sign-up")
            page.locator("#account-name", has_text=name).wait_for()
            assert page.locator("#your-name").input_value() == name
        ann.wait_for_selector("#preset option", state="attached")
        ann.locator(".seat-kind").select_option("human")
        ann.click("#create-button")
        link = ann.locator(".invite-link").input_value()
        bob.goto(link)
        bob.wait_for_function("document.getElementById('join-name').readOnly")
        assert bob.locator("#join-name").input_value() == "Bob"
        bob.click("#join-button")
        bob.wait_for_url("**/game/**")
        ann.click("#go")
        for page in (ann, bob):
            page.locator(".player .rating").nth(1).wait_for()
        assert ann.locator(".player .name").all_inner_texts() == ["Ann (you) 1500", "Bob 1500"]
        bob.on("dialog", lambda d: d.accept())
        bob.click("#resign")  # before either has played: rating it would let ratings be farmed
        ann.locator("#status", has_text="Not rated: a game counts once each player has made 3 plays").wait_for()
        assert ann.locator(".player .name").all_inner_texts() == ["Ann (you) 1500", "Bob 1500"]
        ann.goto(server.url + "/")
        ann.locator("#account-rating", has_text="rating 1500, 0 rated games").wait_for()
        assert ann.locator("#ratings li").all_inner_texts() == ["no rated games yet"]
    finally:
        for c in contexts:
            c.close()
