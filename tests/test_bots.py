"""Computer players: only legal moves (the lexicon judging, so a phony would raise or be
withdrawn), the same seed gives the same moves, the static player weighs the tiles
kept, the factory knows every kind and level."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lexiko.board import Board
from lexiko.bots import KINDS, LEVELS, GreedyBot, Player, RandomBot, StaticBot, make_player
from lexiko.bots.static import NON_OUTPLAY_PENALTY, endgame_leaves, opening_adjustment
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.movegen import generate
from lexiko.rules import TOURNAMENT, Rules
from lexiko.selfplay import play_game
from lexiko.tiles import BLANK, ENGLISH, GERMAN

E = ENGLISH
MakeGame = Callable[..., Game]


def bot(kind: str, lex: Lexicon, name: str, seed: int = 1) -> Player:
    return make_player(kind, lex, seed=seed, name=name)


@pytest.mark.parametrize("kind", ["random", "greedy", "static"])
def test_only_legal_moves_void_rule(kind: str, twl06: Lexicon) -> None:
    """Under the void rule with the lexicon judging, a phony would raise PhonyError."""
    rules = TOURNAMENT.replace(challenge_rule="void")
    for seed in (1, 2):
        g = play_game([bot(kind, twl06, "a", seed), bot("greedy", twl06, "b")], rules, twl06, seed=seed)
        assert g.is_over
        plays = [e for e in g.history if e.kind == "play"]
        assert plays and all(w in twl06 for e in plays for w in e.words)


@pytest.mark.parametrize("kind", ["random", "static"])
def test_only_legal_moves_single_rule(kind: str, twl06: Lexicon) -> None:
    """Under the single rule both players challenge every phony: none is ever played."""
    rules = TOURNAMENT.replace(challenge_rule="single")
    g = play_game([bot(kind, twl06, "a"), bot(kind, twl06, "b", 2)], rules, twl06, seed=5, first_player=1)
    assert g.is_over and not g.phonies
    assert not [e for e in g.history if e.kind == "withdrawn"]


def test_bots_challenge_phonies(twl06: Lexicon, game_factory: MakeGame) -> None:
    g = game_factory(["QXWAAAA"], TOURNAMENT.replace(challenge_rule="single"), lexicon=twl06)
    g.play("8F QXW")
    for kind in ("random", "greedy", "static"):
        assert bot(kind, twl06, "x").wants_challenge(g)
    g2 = game_factory(["QIAAAAA"], TOURNAMENT.replace(challenge_rule="single"), lexicon=twl06)
    g2.play("8G QI")
    assert not bot("static", twl06, "x").wants_challenge(g2)


def test_random_bot_same_seed_same_moves(twl06: Lexicon, game_factory: MakeGame) -> None:
    g = game_factory(["AEINRST"])
    moves = [RandomBot(twl06, seed=s).choose(g) for s in (7, 7, 8)]
    assert moves[0] == moves[1]
    assert all(isinstance(m, Place) for m in moves)
    # from a game, the moves follow from the seed
    picks = {RandomBot(twl06, seed=s).choose(g) for s in range(20)}
    assert len(picks) > 10


def test_random_bot_exchanges_or_passes_without_a_play(game_factory: MakeGame) -> None:
    lex = Lexicon.from_words(["ZZZZZZZZ"])
    g = game_factory(["AEINRST"])
    m = RandomBot(lex, seed=1).choose(g)
    assert isinstance(m, Exchange) and 1 <= len(m.tiles) <= 7
    g.apply(m)
    # no exchanges with fewer than seven tiles in the bag: pass
    g2 = game_factory(["AEINRST"], Rules(exchange_min_bag=100))
    assert isinstance(RandomBot(lex, seed=1).choose(g2), Pass)


def test_static_weighs_the_leave(game_factory: MakeGame) -> None:
    lex = Lexicon.from_words(["QI", "QIS"])
    g = game_factory(["QISEEEE"])
    assert GreedyBot(lex).choose(g).notation(E) == "8F QIS"  # 24 points
    keep_s = LeaveTable(E, tile_values={E.code("S"): [20.0]})
    c = StaticBot(lex, keep_s).candidate(g)
    assert (c.move.notation(E), c.score, c.equity, E.format(c.leave)) == ("8G QI", 22, 42.0, "EEEES")
    # with every leave worth 0 it scores like the greedy player, but its opening keeps the
    # I off the column of G7 and G9 (double letters): 0.7 off 8F QIS, nothing off 8G QIS
    c = StaticBot(lex, LeaveTable.zeros()).candidate(g)
    assert (c.move.notation(E), c.score, c.equity) == ("8G QIS", 24, 24.0)


def test_the_opening_adjustment_counts_premiums_beside_vowels() -> None:
    b = Board.empty()
    # 8D OAT: nothing beside D8, E8 or F8; 8C OAT: the O on C8 between C7 and C9 (2L each:
    # 0.35 each); 8G AIT: the A on G8 between G7 and G9, nothing beside H8
    assert opening_adjustment(b, Place(7, 3, False, E.parse("OAT")), 10.0) == 10.0
    assert opening_adjustment(b, Place(7, 2, False, E.parse("OAT")), 10.0) == 10.0 - 0.35 - 0.35
    assert opening_adjustment(b, Place(7, 6, False, E.parse("AIT")), 10.0) == 10.0 - 0.35 - 0.35
    # a blank standing for a vowel counts; the same play down column H mirrors it
    blank_a = (E.code("A") | BLANK,)
    assert opening_adjustment(b, Place(7, 6, False, (*blank_a, *E.parse("T"))), 0.0) == -0.35 - 0.35
    assert opening_adjustment(b, Place(6, 7, True, (*blank_a, *E.parse("T"))), 0.0) == -0.35 - 0.35
    # consonants never count
    assert opening_adjustment(b, Place(7, 6, False, E.parse("ST")), 3.0) == 3.0


def test_static_uses_the_shipped_table(twl06: Lexicon) -> None:
    assert StaticBot(twl06).table is LeaveTable.default(E)
    other = Lexicon.from_words(["ÄB"], tiles=GERMAN)
    assert len(StaticBot(other).table) == 0


def test_static_endgame_values(endgame_factory: MakeGame, twl06: Lexicon) -> None:
    g = endgame_factory(["QI", "AZ"])
    values = endgame_leaves(g.tiles, g.unseen())
    assert values(()) == 2 * (1 + 10)  # going out: twice the other rack
    assert values((E.code("Q"),)) == -20.0 - NON_OUTPLAY_PENALTY == -30.0  # kept: twice its value and the penalty

    # with the bag empty the static player maximises score + those values, not the table's
    g2 = endgame_factory(["AEQT", "IZ"])
    c = StaticBot(twl06).candidate(g2)
    best = generate(g2.board, g2.rack(), twl06, g2.rules, bag_count=0, leaves=endgame_leaves(g2.tiles, g2.unseen()))[0]
    assert c == best


def test_make_player_kinds_and_levels(twl06: Lexicon, tmp_path: Path) -> None:
    assert isinstance(make_player("random", twl06, seed=1), RandomBot)
    assert isinstance(make_player("greedy", twl06), GreedyBot)
    assert isinstance(make_player("Static", twl06), StaticBot)
    assert isinstance(make_player("beginner", twl06), RandomBot)
    assert isinstance(make_player("easy", twl06), GreedyBot)
    assert isinstance(make_player("medium", twl06), StaticBot)
    assert set(LEVELS.values()) <= set(KINDS)
    assert make_player("greedy", twl06, name="Gus").name == "Gus"
    path = tmp_path / "t.tsv"
    LeaveTable(E, {(19,): 9.0}).save(path)
    p = make_player(f"static:{path}", twl06)
    assert isinstance(p, StaticBot) and p.table.value("S") == 9.0
    with pytest.raises(LexikoError, match="unknown kind of player 'wizard'"):
        make_player("wizard", twl06)
    with pytest.raises(LexikoError, match="only the static player takes a file"):
        make_player("greedy:x", twl06)


def test_make_player_sim_hook(twl06: Lexicon) -> None:
    """``sim`` and ``hard`` import lexiko.bots.simulation lazily (written separately)."""
    try:
        import lexiko.bots.simulation  # noqa: F401
    except ImportError:
        with pytest.raises(LexikoError, match="simulation player"):
            make_player("hard", twl06)
    else:
        assert make_player("sim", twl06, seed=1).name == "sim"
