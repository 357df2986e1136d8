"""Two browsers connected to two different lexiko processes in shared mode (PostgreSQL,
Redis, real processes on loopback) play a game to its end: each types its moves, sees
the other's at once, and both pages end on the same result."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import RedisServer, ServerProcess, board_from_rows, new_game, test_postgres

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.rules import preset
from lexiko.tiles import BLANK, LETTER_MASK

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed"),
]

RULES = preset("casual")
TIMEOUT = 15_000


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture
def two_processes(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    with test_postgres() as pg:
        if pg is None:
            pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
        redis = RedisServer()
        extra = ["--redis-url", redis.start(), "--allow-seeds", "--games-per-hour", "0"]
        procs = [ServerProcess(pg, extra=extra, log_path=tmp_path / f"app{i}.log") for i in range(2)]
        try:
            for p in procs:
                p.start()
            yield procs
        finally:
            for p in procs:
                p.stop()
            redis.stop()


def state_of(page: Any) -> tuple[list[str], list[list[str]]]:
    rack = page.eval_on_selector_all("#rack .tile", "els => els.map(e => e.dataset.letter)")
    cells = page.eval_on_selector_all(
        "#board .cell",
        "els => els.map(e => { const t = e.querySelector('.tile.fixed');"
        " return t ? (t.classList.contains('blank') ? t.dataset.letter.toLowerCase() : t.dataset.letter) : '' })",
    )
    return rack, [cells[i * 15 : (i + 1) * 15] for i in range(15)]


def type_best(page: Any, lex: Lexicon) -> bool:
    """Type the best placement without a blank (False when there is none)."""
    rack, rows = state_of(page)
    board = board_from_rows(rows, RULES)
    found = movegen.generate(board, RULES.tile_set.parse("".join(rack)), lex, RULES, placements_only=True)
    move = next((m.move for m in found if isinstance(m.move, Place) and not any(t & BLANK for t in m.move.tiles)), None)
    if move is None:
        return False
    squares = list(move.new_tiles())
    page.locator(f'#board .cell[data-r="{squares[0][0]}"][data-c="{squares[0][1]}"]').click()
    if move.down:
        page.locator(f'#board .cell[data-r="{squares[0][0]}"][data-c="{squares[0][1]}"]').click()
    for _, _, code in squares:
        page.keyboard.press(RULES.tile_set.face(code & LETTER_MASK).lower())
    page.locator("#preview.good").wait_for()
    page.keyboard.press("Enter")
    return True


def test_two_browsers_on_two_processes_play_to_the_end(
    browser: Any, two_processes: list[ServerProcess], lex: Lexicon
) -> None:
    a, b = two_processes
    with httpx.Client(base_url=a.url, timeout=20) as http:
        gid, tokens = new_game(http, preset="casual", seed=3, options={"time_minutes": None})
    contexts = [browser.new_context(viewport={"width": 1360, "height": 900}, bypass_csp=True) for _ in range(2)]
    try:
        pages = []
        for ctx, server, token in zip(contexts, (a, b), tokens, strict=True):
            page = ctx.new_page()
            page.set_default_timeout(TIMEOUT)
            page.goto(f"{server.url}/game/{gid}#t={token}")
            page.locator("#rack .tile").nth(6).wait_for()
            pages.append(page)
        moves = 0
        for _ in range(80):
            if pages[0].locator("#result h2").is_visible():
                break
            on = next(p for p in pages if "your turn" in p.locator("#status").inner_text())
            played = moves < 4 and type_best(on, lex)  # two plays each, then passes until the end
            if not played:
                on.locator("#pass").click()
            moves += 1
            for p in pages:
                p.wait_for_function(
                    f"document.querySelectorAll('#moves li').length >= {moves}"
                    " || !!document.querySelector('#result h2')"
                )
        results = [p.locator("#result h2").inner_text() for p in pages]
        assert results[0] == results[1] and results[0]
        scores = [[int(x) for x in p.locator(".player .score").all_inner_texts()] for p in pages]
        assert scores[0] == scores[1] and max(scores[0]) > 0
        with httpx.Client(base_url=b.url, timeout=20) as http:
            state = http.get(f"/api/games/{gid}/state").json()
        assert state["status"] == "over" and [p["score"] for p in state["players"]] == scores[0]
    finally:
        for c in contexts:
            c.close()
