"""Two people in two browsers play a game: one creates it and invites the other by
link; they play with the mouse (drag and drop, a blank's letter chosen in the dialog)
and the keyboard, challenge a phony off the board, exchange, and both always see the
same board and scores, the ones the engine computes. Then a finished game is reviewed.
Screenshots go to ``test-artifacts/browser``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import Connection, Server, board_from_rows, find_phony, move_message, new_game

from lexiko import movegen
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.review import ReviewDepth
from lexiko.rules import preset
from lexiko.tiles import BLANK, LETTER_MASK
from lexiko.web.limits import Limits

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RULES = preset("tournament")
TIMEOUT = 15_000  # ms, for any one thing to show on a page


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture
def app_options() -> dict[str, Any]:
    # the lobby's seed option; a test's client plays a game against a bot as fast as a
    # program can, more moves a second than a person's budget
    # (reviews small: 2 moves simulated 4 times a turn, in the review's own thread)
    return {
        "allow_seeds": True,
        "limits": Limits(messages="1000/second"),
        "review_depth": ReviewDepth(candidates=2, iterations=4),
        "review_jobs": 0,
    }


def seed_with_a_blank_first() -> int:
    """A seed whose first player starts with a blank on the rack."""
    for s in range(1000):
        g = Game(["Ann", "Bob"], RULES, seed=s, lexicon=None)
        if 0 in g.rack(g.player_on_turn):
            return s
    raise AssertionError("no seed found")


class Player:
    """One person's page."""

    def __init__(self, page: Any, name: str, shots: Path) -> None:
        self.page = page
        self.name = name
        self.shots = shots
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(TIMEOUT)

    def shot(self, label: str, full: bool = False) -> None:
        self.page.screenshot(path=str(self.shots / f"{label}-{self.name.lower()}.png"), full_page=full)

    def cell(self, r: int, c: int) -> Any:
        return self.page.locator(f'#board .cell[data-r="{r}"][data-c="{c}"]')

    def rack(self) -> list[str]:
        faces: list[str] = self.page.eval_on_selector_all("#rack .tile", "els => els.map(e => e.dataset.letter)")
        return faces

    def board(self) -> list[str]:
        cells: list[str] = self.page.eval_on_selector_all(
            "#board .cell",
            "els => els.map(e => { const t = e.querySelector('.tile.fixed');"
            " return t ? (t.classList.contains('blank') ? t.dataset.letter.toLowerCase() : t.dataset.letter) : '' })",
        )
        return cells

    def scores(self) -> list[int]:
        return [int(x) for x in self.page.locator(".player .score").all_inner_texts()]

    def wait_moves(self, n: int) -> None:
        self.page.wait_for_function(f"document.querySelectorAll('#moves li').length >= {n}")

    def drag_move(self, move: Place) -> None:
        """Drag each tile of a placement from the rack to its square; a blank's letter is
        chosen in the dialog."""
        for r, c, code in move.new_tiles():
            face = "?" if code & BLANK else RULES.tile_set.face(code)
            self.page.locator(f'#rack .tile[data-letter="{face}"]').first.drag_to(self.cell(r, c))
            if code & BLANK:
                letter = RULES.tile_set.face(code & LETTER_MASK)
                self.page.locator(f'#blank-letters button[value="{letter}"]').click()
            self.page.locator(f'#board .cell[data-r="{r}"][data-c="{c}"] .tile.placed').wait_for()

    def type_move(self, move: Place) -> None:
        """Click the first square and type the letters (the cursor skips tiles on the board)."""
        first = next(iter(move.new_tiles()))
        self.cell(first[0], first[1]).click()
        if move.down:
            self.cell(first[0], first[1]).click()  # a second click turns the cursor downwards
        for _, _, code in move.new_tiles():
            self.page.keyboard.press(RULES.tile_set.face(code & LETTER_MASK).lower())

    def expect_preview(self, score: int) -> None:
        self.page.locator("#preview").filter(has_text=f"{score} points").wait_for()

    def click(self, button: str) -> None:
        loc = self.page.locator(f"#{button}")
        self.page.wait_for_function(f"!document.getElementById('{button}').disabled")
        loc.click()


def racks_of(g: Game, seat: int) -> list[str]:
    return sorted(g.tiles.face(t) for t in g.rack(seat))


def best_placement(g: Game, lex: Lexicon, seat: int, *, blank: bool | None) -> Place:
    """The best placement of a seat's rack, with (True) or without (False) a blank."""
    cands = movegen.generate(g.board, g.rack(seat), lex, RULES, bag_count=g.bag_count, placements_only=True)
    for c in cands:
        assert isinstance(c.move, Place)
        has = any(t & BLANK for t in c.move.tiles)
        if blank is None or has == blank:
            return c.move
    raise AssertionError("no placement found")


def test_two_players_play_a_game_in_two_browsers(browser: Any, server: Server, artifacts: Path, lex: Lexicon) -> None:
    seed = seed_with_a_blank_first()
    mirror = Game(["Ann", "Bob"], RULES, seed=seed, lexicon=lex)  # what the engine says should happen
    # bypass_csp: the app forbids eval, which Playwright's wait_for_function uses
    ctx_a = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ctx_b = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True, accept_downloads=True)
    ann = Player(ctx_a.new_page(), "Ann", artifacts)
    bob = Player(ctx_b.new_page(), "Bob", artifacts)
    try:
        # Ann creates the game: an invited person in seat 2, the seed in the options
        ann.page.goto(server.url + "/")
        ann.page.select_option("#preset", "tournament")  # challenges (the default, casual, refuses phonies)
        ann.page.fill("#your-name", "Ann")
        ann.page.locator(".seat-kind").select_option("human")
        ann.page.locator(".seat-name").fill("Bob")
        ann.page.click("#advanced summary")
        ann.page.fill("#seed", str(seed))
        ann.shot("01-new-game")
        ann.page.click("#create-button")
        link = ann.page.locator(".invite-link").input_value()
        assert "/join/" in link
        ann.shot("02-invitation")
        # Bob follows the link
        bob.page.goto(link)
        bob.page.fill("#join-name", "Bob")
        bob.page.click("#join-button")
        bob.page.wait_for_url("**/game/**")
        ann.page.click("#go")
        for p in (ann, bob):
            p.page.locator("#rack .tile").nth(6).wait_for()
        seats = {0: ann, 1: bob}
        assert sorted(ann.rack()) == racks_of(mirror, 0) and sorted(bob.rack()) == racks_of(mirror, 1)

        first = mirror.player_on_turn
        p, q = seats[first], seats[1 - first]
        # 1. the first player drags a word using the blank, choosing its letter
        move = best_placement(mirror, lex, first, blank=True)
        p.drag_move(move)
        ev = mirror.copy().play(move, player=first)
        p.expect_preview(ev.score)
        p.shot("03-blank-preview")
        p.click("play")
        mirror.play(move, player=first)
        for x in (ann, bob):
            x.wait_moves(1)
        assert ann.board() == bob.board() and ann.scores() == bob.scores() == mirror.scores
        assert any(f.islower() for f in ann.board())  # the blank's letter, shown as a blank

        # 2. the second player drags a phony; the first challenges it off the board
        phony = find_phony(mirror.board, mirror.rack(1 - first), lex, RULES)
        assert phony is not None
        q.drag_move(phony)
        q.page.locator("#preview.good").wait_for()
        q.click("play")
        mirror.play(phony, player=1 - first)
        p.wait_moves(2)
        p.shot("04-phony-on-board")
        p.click("challenge")
        mirror.challenge(player=first)
        for x in (ann, bob):
            x.page.locator("#moves li.k-withdrawn").wait_for()
        assert ann.board() == bob.board() and ann.scores() == bob.scores() == mirror.scores
        bob.shot("05-after-challenge")

        # 3. the first player exchanges three tiles
        assert mirror.player_on_turn == first
        p.click("exchange")
        tiles = p.page.locator("#rack .tile")
        chosen = [tiles.nth(i).get_attribute("data-letter") for i in range(3)]
        for i in range(3):
            tiles.nth(i).click()
        p.page.locator("#exchange-confirm").filter(has_text="Exchange 3").wait_for()
        p.shot("06-exchange")
        p.click("exchange-confirm")
        mirror.exchange("".join(sorted(chosen, key=lambda f: (f == "?", f))), player=first)
        for x in (ann, bob):
            x.wait_moves(4)
        assert sorted(p.rack()) == racks_of(mirror, first)

        # 4. the second player types a word on the keyboard
        move = best_placement(mirror, lex, 1 - first, blank=False)
        q.type_move(move)
        ev = mirror.copy().play(move, player=1 - first)
        q.expect_preview(ev.score)
        q.page.keyboard.press("Enter")
        mirror.play(move, player=1 - first)
        for x in (ann, bob):
            x.wait_moves(5)
            x.page.wait_for_function(f"document.querySelector('#bag').textContent === '{mirror.bag_count}'")
        assert ann.board() == bob.board()
        assert ann.scores() == bob.scores() == mirror.scores
        assert sorted(ann.rack()) == racks_of(mirror, 0) and sorted(bob.rack()) == racks_of(mirror, 1)
        unseen = ann.page.locator("#unseen-count").inner_text()
        assert unseen == f"({len(mirror.unseen(0))})"
        for x in (ann, bob):
            x.shot("07-both-see-the-same")

        # 5. the record downloads as GCG
        with bob.page.expect_download() as dl:
            bob.page.click("#download")
        text = Path(dl.value.path()).read_text()
        assert "#player1 Ann Ann" in text and "#player2 Bob Bob" in text
        assert ann.errors == [] and bob.errors == []
    finally:
        ctx_a.close()
        ctx_b.close()


def test_review_of_a_finished_game(browser: Any, server: Server, artifacts: Path, lex: Lexicon) -> None:
    http = httpx.Client(base_url=server.url, timeout=20)
    gid, tokens = new_game(http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=12)
    conn = Connection(server.ws_url, gid, tokens[0])
    try:
        for _ in range(60):
            st = conn.wait_state(lambda s: s["status"] == "over" or s["can"]["accept"] or s["turn"] == 0)
            if st["status"] == "over":
                break
            if st["can"]["accept"]:
                conn.act({"type": "accept"})
                continue
            rack = tuple(RULES.tile_set.parse_token(f) for f in st["rack"])
            cand = movegen.best_move(board_from_rows(st["board"], RULES), rack, lex, RULES, bag_count=st["bag_count"])
            conn.act(move_message(cand.move, RULES.tile_set))
        assert conn.wait_state(lambda s: s["status"] == "over")["status"] == "over"
    finally:
        conn.close()
        http.close()
    ctx = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ann = Player(ctx.new_page(), "Ann", artifacts)
    try:
        ann.page.goto(f"{server.url}/game/{gid}#t={tokens[0]}")
        ann.page.locator("#result h2").wait_for()
        ann.page.click("#review-load")
        ann.page.locator(".review-turn").first.wait_for(timeout=60_000)
        n = ann.page.locator(".review-turn").count()
        points = ann.page.locator(".review-chart polyline.spread").get_attribute("points") or ""
        assert len(points.split()) == n  # the chart: one point of spread per turn
        assert n >= 10
        # its axes say what they show: turns along the bottom, the spread and the win chance
        titles = ann.page.locator(".review-chart .axis-title").all_text_contents()
        assert titles == ["turn", "spread (Ann − Computer)", "Ann's win chance"]
        ticks = ann.page.locator(".review-chart .tick").all_text_contents()
        assert ticks[0] == "1" and "0%" in ticks and "100%" in ticks
        accuracy = ann.page.locator(".review-summary tbody tr").first.locator("td").all_text_contents()
        assert accuracy[0] == "Ann" and accuracy[1].endswith("%")
        ann.page.locator(".review-turn").nth(4).click()
        ann.page.locator(".review-best li").first.click()
        ann.page.locator("#board .tile.review-best").first.wait_for()
        ann.shot("08-review", full=True)
        assert ann.errors == []
    finally:
        ctx.close()


def test_a_duplicate_game_in_two_browsers_with_bots(
    browser: Any, server: Server, artifacts: Path, lex: Lexicon
) -> None:
    """Ann creates a duplicate game (Bob invited, two computer players), untimed rounds; in
    round 1 Ann types a move and Bob, who never sees it, passes; then both pass until the
    game ends, and both pages show the master sheet the downloaded record replays to."""
    from webharness import board_from_rows

    from lexiko import duplicate

    dup = preset("duplicate")
    ctx_a = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ctx_b = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ann = Player(ctx_a.new_page(), "Ann", artifacts)
    bob = Player(ctx_b.new_page(), "Bob", artifacts)
    try:
        ann.page.goto(server.url + "/")
        ann.page.wait_for_function("document.querySelectorAll('#preset option').length > 0")
        ann.page.select_option("#preset", "duplicate")
        ann.page.fill("#your-name", "Ann")
        ann.page.click("#advanced summary")
        assert ann.page.locator("#opt-challenge_rule").is_hidden()  # duplicate has no challenges
        ann.page.fill("#opt-duplicate_seconds", "")  # untimed: a round ends when everybody has played
        ann.page.locator(".seat-kind").first.select_option("static")
        ann.page.click("#add-seat")
        ann.page.locator(".seat-name").nth(1).fill("Bob")
        ann.page.click("#add-seat")
        ann.page.locator(".seat-kind").nth(2).select_option("greedy")
        ann.shot("20-new-duplicate-game")
        ann.page.click("#create-button")
        link = ann.page.locator(".invite-link").input_value()
        bob.page.goto(link)
        bob.page.fill("#join-name", "Bob")
        bob.page.click("#join-button")
        bob.page.wait_for_url("**/game/**")
        ann.page.click("#go")
        game_id = ann.page.url.split("/game/")[1].split("#")[0]
        for p in (ann, bob):
            p.page.locator("#rack .tile").nth(6).wait_for()
            p.page.locator("#round-title", has_text="Round 1").wait_for()
        assert sorted(ann.rack()) == sorted(bob.rack())  # one rack for everybody
        closed = "the chat is closed while a duplicate round is on: it opens when the game ends"
        for p in (ann, bob):  # players could pass each other their moves
            assert p.page.locator("#chat-text").is_disabled()
            assert p.page.locator("#chat-text").get_attribute("placeholder") == closed

        # round 1: Ann types the best placement's letters; Bob never sees her move
        board = board_from_rows([ann.board()[i * 15 : (i + 1) * 15] for i in range(15)], dup)
        rack = dup.tile_set.parse("".join(ann.rack()))
        found = movegen.generate(board, rack, lex, dup.replace(variant="classic"), placements_only=True)
        best = next(
            m
            for m in sorted(found, key=lambda m: -m.score)
            if isinstance(m.move, Place) and not any(t & BLANK for t in m.move.tiles)
        )
        assert isinstance(best.move, Place)
        ann.type_move(best.move)
        ann.expect_preview(best.score)
        ann.click("play")
        text = best.move.notation(dup.tile_set)
        ann.page.locator("#round-mine", has_text=f"Your move: {text} ({best.score})").wait_for()
        bob.page.locator(".player", has_text="Ann").locator(".played", has_text="played").wait_for()
        assert text.split()[1] not in bob.page.content()
        ann.shot("21-duplicate-move-played")
        bob.click("pass")
        for p in (ann, bob):
            p.page.locator("#round-title", has_text="Round 2").wait_for()
            p.page.locator("#round-last li", has_text=f"Ann: {text} {best.score}").wait_for()
        assert ann.board() == bob.board() and ann.scores() == bob.scores()
        assert ann.scores()[0] == best.score
        bob.shot("22-duplicate-round-2")

        # then both pass every round until the game is over
        for n in range(2, 60):
            if ann.page.locator("#master-sheet").is_visible():
                break
            for p in (ann, bob):
                p.click("pass")
            for p in (ann, bob):
                p.page.wait_for_function(
                    f"document.getElementById('round-title').textContent !== 'Round {n}' ||"
                    " !document.getElementById('master-sheet').hidden"
                )
        sheets = [p.page.locator("#master-sheet").inner_text() for p in (ann, bob)]
        record = httpx.get(f"{server.url}/api/games/{game_id}/duplicate", timeout=20).text
        replayed = duplicate.loads(record, lex)  # every round's top and every move scored again
        assert sheets[0] == sheets[1] == duplicate.master_sheet(replayed)
        assert replayed.totals["Ann"] == best.score and replayed.totals["Bob"] == 0
        ann.shot("23-duplicate-master-sheet", full=True)
        assert ann.page.locator("#chat-text").is_enabled()  # the game is over: the table talks
        assert not ann.errors and not bob.errors, ann.errors + bob.errors
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_duplicate_event_by_one_link_started_by_its_creator(browser: Any, server: Server, artifacts: Path) -> None:
    """Ann creates a duplicate game (the page's computer player and three invited
    seats); Bob comes by the one link for everybody; Ann's waiting page shows that link
    and a start button, and starting leaves the two open seats out: both pages show a
    round of Ann, Bob and the computer."""
    ctx_a = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ctx_b = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ann = Player(ctx_a.new_page(), "Ann", artifacts)
    bob = Player(ctx_b.new_page(), "Bob", artifacts)
    try:
        ann.page.goto(server.url + "/")
        ann.page.wait_for_function("document.querySelectorAll('#preset option').length > 0")
        ann.page.select_option("#preset", "duplicate")
        ann.page.fill("#your-name", "Ann")
        for _ in range(3):
            ann.page.click("#add-seat")
        ann.page.click("#create-button")
        ann.page.locator("#created").wait_for()
        links = ann.page.locator("#invite-list .invite-link")
        assert links.count() == 4  # the one link, then each seat's own
        assert "Everybody" in ann.page.locator("#invite-list li").first.inner_text()
        everybody = links.first.input_value()
        bob.page.goto(everybody)
        bob.page.fill("#join-name", "Bob")
        bob.page.click("#join-button")
        bob.page.wait_for_url("**/game/**")
        ann.page.click("#go")
        ann.page.locator("#start-now").wait_for()
        assert ann.page.locator("#open-link").input_value() == everybody
        assert bob.page.locator("#start-now").is_hidden()  # only the creator starts it
        ann.shot("30-duplicate-event-waiting")
        ann.page.once("dialog", lambda d: d.accept())
        ann.page.click("#start-now")
        for p in (ann, bob):
            p.page.locator("#round-title", has_text="Round 1").wait_for()
            p.page.locator("#rack .tile").nth(6).wait_for()
        assert ann.page.locator("#waiting").is_hidden()
        names = ann.page.locator(".player .name").all_inner_texts()
        assert len(names) == 3 and names[0].startswith("Ann") and any(n.startswith("Bob") for n in names), names
        assert bob.page.locator(".player.me .name").inner_text().startswith("Bob")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_record_sent_from_the_lobby_is_reviewed(
    browser: Any, server: Server, artifacts: Path, tmp_path: Path
) -> None:
    record = tmp_path / "short.gcg"
    record.write_text(
        "#player1 Ann Ann\n#player2 Bob Bob\n>Ann: DINNVWY 8D WINDY +32 32\n>Bob: AEEGRST F2 GREATE.S +65 65\n"
    )
    ctx = browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True)
    ann = Player(ctx.new_page(), "Ann", artifacts)
    try:
        ann.page.goto(server.url)
        ann.page.set_input_files("#review-file", str(record))
        ann.page.click("#review-button")
        ann.page.wait_for_url("**/review/gcg-*")
        ann.page.locator(".review-turn").nth(1).wait_for(timeout=60_000)
        assert ann.page.locator(".review-turn .played").all_text_contents() == ["8D WINDY 32", "F2 GREATE(N)S 65"]
        assert ann.page.locator(".review-chart .axis-title").first.text_content() == "turn"
        ann.page.locator(".review-turn").first.click()
        assert ann.page.locator(".review-best li").count() >= 2
        ann.shot("09-review-of-a-record", full=True)
        assert ann.errors == []
    finally:
        ctx.close()
