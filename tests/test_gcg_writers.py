"""Conventions of the programs that write GCG (macondo, Woogles, Quackle, MAGPIE) that a
record may use; each record here is in the repository, so these run on a fresh clone."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexiko import gcg
from lexiko.errors import RecordError

DATA = Path(__file__).parent / "data" / "gcg"


def test_a_failed_challenge_of_the_final_play_written_as_a_lost_turn() -> None:
    """macondo writes the challenger's "-" +0 after the out-play, then the end rack."""
    g = gcg.load(DATA / "final_challenge_failed.gcg")
    assert g.is_over and g.end_reason == "out"
    assert g.scores == [442, 451]
    assert [(e.player, e.kind, e.score, e.total) for e in g.history[-2:]] == [
        (1, "play", 14, 447),
        (1, "end-rack-bonus", 4, 451),
    ]


def test_the_lost_turn_line_must_show_the_challengers_rack() -> None:
    text = (DATA / "final_challenge_failed.gcg").read_text().replace(">Ann: LN - +0 442", ">Ann: LNX - +0 442")
    with pytest.raises(RecordError) as e:
        gcg.parse(text).replay()
    assert str(e.value) == "line 29: Ann's rack is LN, the record says LNX"


def test_a_pass_by_the_player_who_went_out_is_still_refused() -> None:
    text = (DATA / "final_challenge_failed.gcg").read_text().replace(">Ann: LN - +0 442", ">Bob: NOV - +0 447")
    with pytest.raises(RecordError) as e:
        gcg.parse(text).replay()
    assert str(e.value) == "line 29: Bob's pass: the last play ended the game and was not challenged off"


BASE = (DATA / "corpus" / "static_vs_greedy.gcg").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "text", "scores"),
    [
        ("Windows line ends and a byte-order mark", "\ufeff" + BASE.replace("\n", "\r\n"), [499, 301]),
        (
            "a note over two lines (Quackle)",
            BASE.replace("+76 76\n", "+76 76\n#note a long note\nthat goes on to a second line\n"),
            [499, 301],
        ),
        (
            "Woogles and macondo pragmas",
            BASE.replace(
                "#lexicon TWL06",
                "#lexicon TWL06\n#id io.woogles abcd1234\n#game-type classic\n"
                "#board-layout CrosswordGame\n#title A game\n#description a description",
            ),
            [499, 301],
        ),
        (
            "runs of spaces between fields",
            BASE.replace(">Bob: IILNORY 7C YON +25 25", ">Bob:  IILNORY  7C  YON  +25  25"),
            [499, 301],
        ),
        (
            "time penalties after the end, with and without a rack",
            BASE + ">Bob: BDE (time) -10 291\n>Ann: (time) -20 479\n",
            [479, 291],
        ),
        (
            "an exchange written as a count (the tiles unknown)",
            (DATA / "corpus" / "phony_challenged_off.gcg")
            .read_text(encoding="utf-8")
            .replace(">Eve: ACORRS? -ACO +0 34", ">Eve: ACORRS? -3 +0 34"),
            [415, 490],
        ),
    ],
)
def test_conventions_of_real_writers_load(name: str, text: str, scores: list[int]) -> None:
    assert gcg.parse(text).replay().scores == scores, name
