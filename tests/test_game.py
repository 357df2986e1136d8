"""Game: the draw for first play, the seeded bag, turns, every illegal action (exact
message, nothing changed), challenges in every mode, the end of the game, ties, clocks,
2 to 4 players, teams and undo."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from lexiko.errors import GameStateError, IllegalMoveError, LexikoError, NotationError, PhonyError
from lexiko.game import Accept, Challenge, Game
from lexiko.legality import place_from_squares
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.movegen import generate
from lexiko.rules import TEAMS, Rules, family, finish_line
from lexiko.tiles import ENGLISH

E = ENGLISH
VOID = Rules(challenge_rule="void")
MakeGame = Callable[..., Game]
Snap = Callable[[Game], dict[str, Any]]
Clock = Any  # conftest.FakeClock: call it for the time, advance(seconds) to spend time

#: rack values used below
QZ = 20
FULL = Counter(E.bag())


def kinds(g: Game) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.score) for e in g.history]


def all_tiles(g: Game) -> Counter[int]:
    """Board + racks + bag (the bag is what player 0 cannot see, less the other racks)."""
    out: Counter[int] = Counter(g.board.played_tiles())
    for i in range(len(g.players)):
        out.update(g.rack(i))
    out.update(g.unseen(0))
    for i in range(1, len(g.players)):
        out.subtract(g.rack(i))
    return +out


def refused(g: Game, snap: Snap, action: Callable[[], object], error: type[Exception], message: str) -> None:
    """The action raises ``error`` with exactly ``message`` and changes nothing."""
    before = snap(g)
    with pytest.raises(error) as e:
        action()
    assert str(e.value) == message
    assert isinstance(e.value, LexikoError)
    assert snap(g) == before


# -- setup: the draw for first play and the deal ----------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_draw_for_first_play(n: int) -> None:
    saw_tie = saw_blank = False
    for seed in range(120):
        g = Game([f"P{i}" for i in range(n)], seed=seed, lexicon=None)
        contenders = list(range(n))
        for rnd in g.first_draw:
            assert [p for p, _ in rnd] == contenders  # only the tied players draw again
            best = min(t for _, t in rnd)  # blank (0) first, then the letter nearest A
            contenders = [p for p, t in rnd if t == best]
            saw_blank |= best == 0
        assert contenders == [g.first_player]
        saw_tie |= len(g.first_draw) > 1
        assert g.player_on_turn == g.first_player
        # the drawn tiles went back: every rack is full and no tile is lost
        assert [len(g.rack(i)) for i in range(n)] == [7] * n
        assert g.bag_count == 100 - 7 * n
        assert all_tiles(g) == FULL
    assert saw_tie and saw_blank


def test_a_blank_beats_everything() -> None:
    g = Game(["P1", "P2"], seed=45, lexicon=None)
    assert g.first_draw == [[(0, E.code("D")), (1, 0)]]
    assert g.first_player == 1 and g.player_on_turn == 1


def test_tied_players_draw_again() -> None:
    g = Game(["P1", "P2", "P3"], seed=16, lexicon=None)
    assert g.first_draw == [[(0, 1), (1, 1), (2, 21)], [(0, 12), (1, 0)]]  # A, A, U; then L, blank
    assert g.first_player == 1


def test_no_draw_when_the_rules_say_so() -> None:
    g = Game(["P1", "P2", "P3"], Rules(draw_for_first=False), seed=3, lexicon=None)
    assert g.first_draw == [] and g.first_player == 0 and g.player_on_turn == 0


def test_the_first_player_draws_first() -> None:
    # without the draw the same seed gives the same shuffled bag: the seven tiles on
    # top go to whoever plays first
    a = Game(["P1", "P2"], seed=99, lexicon=None, first_player=0)
    b = Game(["P1", "P2"], seed=99, lexicon=None, first_player=1)
    assert a.rack(0) == b.rack(1) and a.rack(1) == b.rack(0)


def test_same_seed_same_game() -> None:
    def run(seed: int) -> tuple[Any, ...]:
        g = Game(["P1", "P2"], seed=seed, lexicon=None)
        racks = (g.rack(0), g.rack(1), g.first_player)
        g.exchange(g.rack_text()[:3])
        g.exchange(g.rack_text()[-2:])
        return racks, g.rack(0), g.rack(1), g.unseen(0)

    assert run(2024) == run(2024)
    assert run(2024) != run(2025)
    g = Game(["P1", "P2"], lexicon=None)  # a random seed, kept for a replay
    again = Game(["P1", "P2"], seed=g.seed, lexicon=None)
    assert (g.rack(0), g.rack(1), g.first_player) == (again.rack(0), again.rack(1), again.first_player)


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        (["A"], {}, "standard rules need 2 to 4 players, not 1"),
        (["A", "B", "C", "D", "E"], {}, "standard rules need 2 to 4 players, not 5"),
        (["A", "A"], {}, "two players have the same name"),
        (["A", "B"], {"first_player": 2}, "first_player must be 0 to 1"),
        (
            ["A", "B"],
            {"rules": Rules(variant="duplicate", min_players=1)},
            "duplicate games are played with lexiko.duplicate, not Game",
        ),
        (["A", "B", "C"], {"rules": Rules(teams=True)}, "team play needs four players (two teams of two), not 3"),
        (["A", "B"], {"rules": TEAMS}, "teams rules need exactly 4 players, not 2"),
    ],
)
def test_bad_game_setup(players: list[str], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GameStateError) as e:
        Game(players, lexicon=None, **kwargs)
    assert str(e.value) == message


# -- turns ------------------------------------------------------------------------------


def test_a_play(game_factory: MakeGame) -> None:
    g = game_factory(["DINNVWY", "ADEEGIL"], VOID)
    ev = g.play("8D WINDY")
    assert (ev.player, ev.kind, ev.score, ev.total) == (0, "play", 32, 32)
    assert ev.rack == E.parse("DINNVWY")
    assert ev.words == ("WINDY",)
    assert ev.move == Place(7, 3, False, E.parse("WINDY"))
    assert g.board.to_string().split("/")[7] == "3WINDY7"
    assert len(g.rack(0)) == 7 and Counter(g.rack(0)) >= Counter(E.parse("NV"))
    assert g.bag_count == 86 - 5
    assert g.scores == [32, 0] and g.player_on_turn == 1 and g.scoreless_turns == 0
    assert g.history == [ev]
    assert all_tiles(g) == FULL


def test_a_play_with_a_blank(game_factory: MakeGame) -> None:
    g = game_factory(["?DINVWY"], VOID)
    ev = g.play("8D WINDy")
    assert ev.score == (8 + 1 + 1 + 2 + 0) * 2
    assert ev.rack == E.parse("DINVWY?")  # racks are written with the blank last
    assert g.board.face_at(7, 7) == "y" and g.board.played_tiles()[-1] == 0
    assert all_tiles(g) == FULL


def test_play_draws_back_to_seven_while_the_bag_has_tiles(endgame_factory: MakeGame) -> None:
    g = endgame_factory(["AEIRSTU", "BCDFGHJ"], bag="LMN", rules=VOID)
    g.play("9H AT")
    assert g.rack(0) == E.rack_sort(E.parse("EIRSULM"))  # L and M drawn, N left
    assert g.bag_count == 1
    g.pass_turn()
    g.play("10I SUE")
    assert g.rack(0) == E.rack_sort(E.parse("IRLMN"))  # only one tile to draw
    assert g.bag_count == 0 and not g.is_over


def test_an_exchange_draws_first_then_returns_the_tiles(endgame_factory: MakeGame) -> None:
    # seven tiles in the bag: exchanging seven must give exactly those seven
    g = endgame_factory(["AEIOUQV", "BCDFGHJ"], bag="KLMNPRS", rules=VOID)
    ev = g.exchange("AEIOUQV")
    assert (ev.player, ev.kind, ev.score, ev.move) == (0, "exchange", 0, Exchange(E.parse("AEIOUQV")))
    assert ev.rack == E.rack_sort(E.parse("AEIOUQV"))
    assert g.rack(0) == E.parse("KLMNPRS")
    assert g.unseen(1) == E.rack_sort(E.parse("AEIOUQVKLMNPRS"))
    assert g.bag_count == 7
    assert g.scoreless_turns == 1 and g.exchanges_made == [1, 0]
    assert g.player_on_turn == 1


def test_an_exchange_keeps_the_rack_size_and_the_bag(game_factory: MakeGame) -> None:
    g = game_factory(["AEIQUUV"])
    g.set_next_draws(E.parse("RST"))
    g.exchange("QUU")
    assert g.rack(0) == E.rack_sort(E.parse("AEIVRST"))
    assert g.bag_count == 86
    assert all_tiles(g) == FULL


def test_a_pass(game_factory: MakeGame) -> None:
    g = game_factory()
    ev = g.pass_turn()
    assert (ev.player, ev.kind, ev.score, ev.total, ev.move) == (0, "pass", 0, 0, Pass())
    assert g.player_on_turn == 1 and g.scoreless_turns == 1
    assert g.apply("pass") is not None
    assert g.player_on_turn == 0 and g.scoreless_turns == 2
    assert g.rack(0) == g.history[0].rack


def test_apply_reads_text(game_factory: MakeGame) -> None:
    g = game_factory(["DINNVWY", "AEIQUUV"], VOID)
    assert g.apply("8D WINDY") is not None
    ev = g.apply("-QUU")
    assert ev is not None and ev.kind == "exchange" and ev.move == Exchange(E.parse("QUU"))


def test_position_shows_what_the_player_on_turn_sees(game_factory: MakeGame) -> None:
    g = game_factory(["DINNVWY", "ADEEGIL"], VOID)
    g.play("8D WINDY")
    p = g.position()
    assert p.player == 1 and p.rack == g.rack(1) and p.scores == (32, 0)
    assert p.bag_count == 81 and p.board == g.board and p.rules == g.rules
    assert len(p.unseen) == 81 + 7
    assert Counter(p.unseen) + Counter(p.rack) + Counter(g.board.played_tiles()) == FULL


# -- every illegal action: exact message, nothing changes ---------------------------------


@pytest.fixture
def opened(game_factory: MakeGame, twl06: Lexicon) -> Game:
    """Void challenge rule with TWL06: P1 has played FASTEN at 8D (26); P2 to play."""
    g = game_factory(["AEFNSTX", "AEIQSTZ"], VOID, lexicon=twl06)
    g.play("8D FASTEN")
    g.set_rack(1, "AEIQSTZ")
    return g


def test_first_play_rules(game_factory: MakeGame, twl06: Lexicon, snap: Snap) -> None:
    g = game_factory(["AEFNSTX"], VOID, lexicon=twl06)
    refused(g, snap, lambda: g.play("8A FASTEN"), IllegalMoveError, "the first play must cover the centre square H8")
    refused(g, snap, lambda: g.play("H1 FASTEN"), IllegalMoveError, "the first play must cover the centre square H8")
    refused(g, snap, lambda: g.play("8H A"), IllegalMoveError, "the first play must place at least 2 tiles")
    assert g.play("H3 FASTEN").score == (4 + 1 * 2 + 1 + 1 + 1 + 1) * 2  # A on the DL H4, N on the star
    assert g.board.face_at(7, 7) == "N"


def test_illegal_placements_are_refused(opened: Game, snap: Snap) -> None:
    g = opened
    refused(g, snap, lambda: g.play("2A ZATIS"), IllegalMoveError, "the play does not touch any tile on the board")
    refused(
        g, snap, lambda: g.play(Place(7, 8, False, E.parse("ZA"))), IllegalMoveError, "square I8 is already occupied"
    )
    # a gap: an empty square inside the word
    refused(
        g,
        snap,
        lambda: g.play(Place(6, 3, False, (E.code("Z"), 0, E.code("A")))),
        IllegalMoveError,
        "square E7 is empty: there is a gap in the word",
    )
    refused(g, snap, lambda: g.play("7D Z.A"), NotationError, "'7D Z.A': square E7 is empty; nothing to play through")
    # tiles not in one line never become a play
    refused(
        g,
        snap,
        lambda: g.play(place_from_squares(g.board, [(6, 3, E.code("Z")), (8, 4, E.code("A"))])),
        IllegalMoveError,
        "tiles are not in one line",
    )
    refused(g, snap, lambda: g.play(Place(7, 3, False, (0, 0))), IllegalMoveError, "no tiles placed")
    refused(g, snap, lambda: g.play("-QQ"), IllegalMoveError, "tiles Q are not on your rack (AEIQSTZ)")


def test_play_takes_every_notation(opened: Game) -> None:
    g = opened
    ev = g.play("-QZ")
    assert (ev.kind, ev.player, ev.move, ev.rack) == ("exchange", 1, Exchange(E.parse("QZ")), E.parse("AEIQSTZ"))
    p = g.player_on_turn
    assert g.play("pass").kind == "pass" and g.history[-1].player == p
    rack = g.rack_text()
    assert g.play(f"exchange {rack[:2]}").move == Exchange(E.parse(rack[:2]))
    assert g.play("-").move == Pass()


def test_a_candidate_made_for_another_position_is_checked(snap: Snap) -> None:
    """A generated candidate applied after the board changed is checked like any play:
    8G QI was made on the empty board; after 8H AA its I would cover the A on H8."""
    lex = Lexicon.from_words(["QI", "AA", "QIA"])
    g = Game(["A", "B"], seed=1, lexicon=lex, first_player=0)
    g.set_rack(0, "QIEEEEE")
    stale = next(c for c in generate(g.board, g.rack(), lex) if c.notation() == "8G QI")
    assert stale.score == 22
    g.set_rack(0, "AAEEEEE")
    g.play("8H AA")
    g.set_rack(1, "QIEEEEE")
    refused(g, snap, lambda: g.apply(stale), IllegalMoveError, "square H8 is already occupied")
    assert g.board.played_tiles() == [E.code("A"), E.code("A")]


def test_a_candidate_is_scored_on_the_board_it_is_played_on() -> None:
    """A stale candidate whose squares are still free is judged and scored afresh: the S
    of AAS, made for 3 points, also forms SO once 9H HO is down, for 5."""
    lex = Lexicon.from_words(["AA", "AAS", "AH", "HO", "SO"])
    g = Game(["A", "B"], seed=1, lexicon=lex, first_player=0)
    g.set_rack(0, "AAEEEEE")
    g.play("8G AA")
    g.set_rack(1, "SEEEEEE")
    stale = next(c for c in generate(g.board, g.rack(), lex) if c.notation(board=g.board) == "8G (AA)S")
    assert stale.score == 3
    g.pass_turn()
    g.set_rack(0, "HOEEEEE")
    g.play("9H HO")
    ev = g.apply(stale)
    assert ev is not None and (ev.score, ev.words) == (5, ("AAS", "SO"))


def test_tiles_not_on_the_rack_are_refused(opened: Game, snap: Snap) -> None:
    g = opened
    refused(g, snap, lambda: g.play("D9 OX"), IllegalMoveError, "tiles OX are not on your rack (AEIQSTZ)")
    refused(g, snap, lambda: g.play("9D aI"), IllegalMoveError, "tiles ? are not on your rack (AEIQSTZ)")
    refused(g, snap, lambda: g.play("9E ZZ"), IllegalMoveError, "tiles Z are not on your rack (AEIQSTZ)")
    refused(g, snap, lambda: g.exchange("QQ"), IllegalMoveError, "tiles Q are not on your rack (AEIQSTZ)")


def test_phony_words_are_refused_in_void_mode(opened: Game, snap: Snap) -> None:
    g = opened
    before = snap(g)
    with pytest.raises(PhonyError) as e:
        g.play("9E QZ")  # Q under the A, Z under the S
    assert str(e.value) == "words QZ, AQ, SZ are not in the lexicon"
    assert e.value.words == ["QZ", "AQ", "SZ"]
    assert snap(g) == before
    refused(g, snap, lambda: g.play("D9 ZATIS"), PhonyError, "word FZATIS is not in the lexicon")
    # a good main word with one bad cross word
    refused(g, snap, lambda: g.play("9D ZA"), PhonyError, "word FZ is not in the lexicon")
    refused(g, snap, lambda: g.play("8J IS"), PhonyError, "word FASTENIS is not in the lexicon")
    # a good play: AI across on row 9, making FA and AI down
    ev = g.play("9D AI")
    assert (ev.score, ev.words) == (9, ("AI", "FA", "AI"))


def test_exchange_errors(endgame_factory: MakeGame, game_factory: MakeGame, snap: Snap) -> None:
    g = endgame_factory(["AEIOUQV", "BCDFGHJ"], bag="KLMNPR", rules=VOID)
    refused(
        g,
        snap,
        lambda: g.exchange("Q"),
        IllegalMoveError,
        "cannot exchange: the bag has 6 tiles and an exchange needs at least 7",
    )
    g = game_factory(["AEIOUQV"], Rules(max_exchanges_per_player=1))
    refused(g, snap, lambda: g.exchange(""), IllegalMoveError, "name the tiles to exchange")
    g.exchange("Q")
    g.pass_turn()
    refused(g, snap, lambda: g.exchange("A"), IllegalMoveError, "no exchanges left: the rules allow 1 per player")
    # Spanish rules: one tile in the bag is enough, but not for more tiles than it holds
    g = endgame_factory(["AEIOUQV", "BCDFGHJ"], bag="KL", rules=Rules(exchange_min_bag=1))
    refused(g, snap, lambda: g.exchange("QVU"), IllegalMoveError, "cannot exchange 3 tiles: the bag has only 2")
    g.exchange("QV")
    assert g.rack(0) == E.rack_sort(E.parse("AEIOUKL"))


def test_turn_and_game_state_errors(opened: Game, snap: Snap) -> None:
    g = opened
    refused(g, snap, lambda: g.play("9D AI", player=0), GameStateError, "it is not your turn: P2 is to play, not P1")
    refused(g, snap, lambda: g.pass_turn(player=0), GameStateError, "it is not your turn: P2 is to play, not P1")
    refused(g, snap, lambda: g.exchange("A", player=0), GameStateError, "it is not your turn: P2 is to play, not P1")
    refused(
        g,
        snap,
        lambda: g.challenge(),
        GameStateError,
        "there are no challenges under these rules: words are checked when played",
    )
    refused(g, snap, lambda: g.accept(), GameStateError, "there is no play to accept")
    refused(
        g, snap, lambda: g.apply("8D FASTENS", player=0), GameStateError, "it is not your turn: P2 is to play, not P1"
    )


def test_set_rack_errors(game_factory: MakeGame, snap: Snap) -> None:
    g = game_factory(["AEIOUQZ", "BCDFGHJ"])
    refused(
        g,
        snap,
        lambda: g.set_rack(1, "QQ"),
        IllegalMoveError,
        "rack QQ is not available: no Q left among the unseen tiles",
    )
    refused(g, snap, lambda: g.set_rack(0, "AEIOUQVX"), IllegalMoveError, "a rack holds at most 7 tiles, not 8")
    refused(g, snap, lambda: g.set_next_draws(E.parse("ZZ")), IllegalMoveError, "the bag has no ZZ to draw")
    # a tile on another rack moves over, and that rack is refilled from the bag
    g.set_rack(1, "QBCDFGH")
    assert g.rack(1) == E.rack_sort(E.parse("QBCDFGH")) and len(g.rack(0)) == 7
    assert all_tiles(g) == FULL


def test_nothing_happens_after_the_game_is_over(endgame_factory: MakeGame, snap: Snap) -> None:
    g = endgame_factory(["AT", "QZ"], rules=VOID)
    g.play("9H AT")
    assert g.is_over
    for action in (
        lambda: g.play("9J Q", player=1),
        lambda: g.pass_turn(),
        lambda: g.exchange("Q"),
        lambda: g.challenge(),
        lambda: g.accept(),
    ):
        refused(g, snap, action, GameStateError, "the game is over")


# -- challenges -------------------------------------------------------------------------


def challenge_game(rules: Rules, twl06: Lexicon, game_factory: MakeGame, *, phony: bool) -> Game:
    """P1 plays FASTEN (valid) or FASTNE (phony) at 8D for 26; P2 (AEIORSU) may challenge."""
    g = game_factory(["AEFNSTX", "AEIORSU"], rules, lexicon=twl06)
    ev = g.play("8D FASTNE" if phony else "8D FASTEN")
    assert ev.score == 26 and g.awaiting_challenge and g.player_on_turn == 1
    return g


@pytest.mark.parametrize("mode", ["single", "double", "five-point", "ten-point"])
def test_a_successful_challenge_takes_the_play_back(
    mode: str, twl06: Lexicon, game_factory: MakeGame, snap: Snap
) -> None:
    g = challenge_game(Rules(challenge_rule=mode), twl06, game_factory, phony=True)
    rack_after_play = g.rack(0)
    ev = g.challenge()
    assert ev is not None
    assert (ev.player, ev.kind, ev.score, ev.total, ev.words) == (0, "withdrawn", -26, 0, ("FASTNE",))
    assert kinds(g) == [(0, "play", 26), (0, "withdrawn", -26)]
    assert g.scores == [0, 0]
    assert g.board.is_empty
    assert g.rack(0) == E.parse("AEFNSTX")  # the tiles are back on the rack
    assert g.bag_count == 86  # the tiles drawn after the play are back in the bag
    assert g.player_on_turn == 1  # the player who played lost the turn
    assert g.scoreless_turns == 1
    assert not g.awaiting_challenge and g.phonies == []
    assert all_tiles(g) == FULL
    # the star is free again and still doubles
    assert g.play("8D ROUSE").score == (2 + 1 + 1 + 1 + 1) * 2
    # the tiles drawn after the play went back into a shuffled bag: the phony player saw
    # them, so the same play must not draw them again in the same order (as it did once)
    g2 = challenge_game(Rules(challenge_rule=mode), twl06, game_factory, phony=True)
    g2.challenge()
    g2.pass_turn()
    g2.play("8D FASTNE")
    assert g2.rack(0) != rack_after_play


def test_challenge_outcomes_for_a_valid_play(twl06: Lexicon, game_factory: MakeGame) -> None:
    # single: nothing happens to the challenger
    g = challenge_game(Rules(challenge_rule="single"), twl06, game_factory, phony=False)
    assert g.challenge() is None
    assert kinds(g) == [(0, "play", 26)] and g.scores == [26, 0]
    assert g.player_on_turn == 1 and g.scoreless_turns == 0 and not g.awaiting_challenge
    assert g.pass_turn().player == 1

    # double: the challenger loses the next turn (a scoreless turn)
    g = challenge_game(Rules(challenge_rule="double"), twl06, game_factory, phony=False)
    ev = g.challenge()
    assert ev is not None and (ev.player, ev.kind, ev.score) == (1, "lost-turn", 0)
    assert kinds(g) == [(0, "play", 26), (1, "lost-turn", 0)]
    assert g.player_on_turn == 0 and g.scoreless_turns == 1 and g.scores == [26, 0]

    # five- and ten-point: the challenged player gets the points, the challenger plays on
    for mode, bonus in (("five-point", 5), ("ten-point", 10)):
        g = challenge_game(Rules(challenge_rule=mode), twl06, game_factory, phony=False)
        ev = g.challenge()
        assert ev is not None and (ev.player, ev.kind, ev.score, ev.total) == (0, "challenge-bonus", bonus, 26 + bonus)
        assert g.scores == [26 + bonus, 0] and g.player_on_turn == 1 and g.scoreless_turns == 0

    # the seeds' team rule: the challenger loses 5 points instead
    rules = Rules(challenge_rule="single", challenge_penalty_to="challenger")
    g = challenge_game(rules, twl06, game_factory, phony=False)
    ev = g.challenge()
    assert ev is not None and (ev.player, ev.kind, ev.score, ev.total) == (1, "challenge-penalty", -5, -5)
    assert g.scores == [26, -5] and g.player_on_turn == 1


def test_challenge_with_a_ruling_and_a_bonus(game_factory: MakeGame) -> None:
    g = game_factory(["AEFNSTX"], Rules(challenge_rule="five-point"))
    g.play("8D FASTNE")
    with pytest.raises(GameStateError, match="^no lexicon to judge the challenge: give a ruling$"):
        g.challenge()
    assert g.awaiting_challenge
    ev = g.challenge(ruling=True, bonus=10)  # a record shows 10 for two words
    assert ev is not None and ev.score == 10 and g.scores == [36, 0]
    g = game_factory(["AEFNSTX"], Rules(challenge_rule="five-point"))
    g.play("8D FASTEN")
    ev = g.apply(Challenge(ruling=False))
    assert ev is not None and ev.kind == "withdrawn" and g.scores == [0, 0]


def test_challenge_errors(twl06: Lexicon, game_factory: MakeGame, snap: Snap) -> None:
    g = game_factory(["AEFNSTX", "AEIORSU"], Rules(challenge_rule="single"), lexicon=twl06)
    refused(g, snap, lambda: g.challenge(), GameStateError, "there is no play to challenge")
    g.play("8D FASTEN")
    refused(g, snap, lambda: g.challenge(player=0), GameStateError, "you cannot challenge your own play")
    refused(g, snap, lambda: g.accept(player=0), GameStateError, "you cannot accept your own play")
    g.challenge()
    refused(g, snap, lambda: g.challenge(), GameStateError, "that play has already been challenged")
    g.pass_turn()
    refused(g, snap, lambda: g.challenge(), GameStateError, "there is no play to challenge")


def test_a_challenge_must_come_before_the_challengers_turn(twl06: Lexicon, game_factory: MakeGame) -> None:
    g = challenge_game(Rules(challenge_rule="single"), twl06, game_factory, phony=True)
    g.pass_turn()  # P2 acts: the phony stands
    assert not g.awaiting_challenge
    with pytest.raises(GameStateError, match="^there is no play to challenge$"):
        g.challenge(player=1)
    assert g.scores == [26, 0]
    assert [e.move for e in g.phonies] == [Place(7, 3, False, E.parse("FASTNE"))]


def test_phonies_are_recorded_when_accepted(twl06: Lexicon, game_factory: MakeGame) -> None:
    g = challenge_game(Rules(challenge_rule="double"), twl06, game_factory, phony=True)
    g.accept()
    assert len(g.phonies) == 1 and g.phonies[0].words == ("FASTNE",)
    assert g.player_on_turn == 1 and not g.awaiting_challenge
    g = challenge_game(Rules(challenge_rule="double"), twl06, game_factory, phony=False)
    g.accept()
    g.pass_turn()
    assert g.phonies == []


def test_double_challenge_by_a_player_not_on_turn(game_factory: MakeGame) -> None:
    g = game_factory(["AEFNSTX"], Rules(challenge_rule="double"), players=3)
    g.play("8D FASTEN")
    assert g.challenge(player=2, ruling=True) is None  # P3 challenged while P2 is on turn
    assert g.player_on_turn == 1
    g.pass_turn()
    # P3's turn is lost, P1 plays next
    assert kinds(g) == [(0, "play", 26), (1, "pass", 0), (2, "lost-turn", 0)]
    assert g.player_on_turn == 0 and g.scoreless_turns == 2


def test_challenging_a_play_that_goes_out(endgame_factory: MakeGame, twl06: Lexicon, snap: Snap) -> None:
    def out(rules: Rules) -> Game:
        g = endgame_factory(["AT", "QZ"], rules=rules, scores=[100, 90], lexicon=twl06)
        g.play("9H AT")  # AT and YA: 3 + 5
        assert g.awaiting_final_challenge and not g.is_over
        return g

    g = out(Rules(challenge_rule="double"))
    refused(
        g,
        snap,
        lambda: g.pass_turn(),
        GameStateError,
        "Player 1's last play would end the game: challenge it or accept it",
    )
    assert g.challenge() is None  # valid: the game ends, nobody loses a turn
    assert g.is_over and g.end_reason == "out"
    assert kinds(g) == [(0, "play", 8), (0, "end-rack-bonus", QZ), (1, "end-rack-penalty", -QZ)]
    assert g.scores == [128, 70]

    g = out(Rules(challenge_rule="five-point"))
    g.challenge()
    assert kinds(g) == [
        (0, "play", 8),
        (0, "challenge-bonus", 5),
        (0, "end-rack-bonus", QZ),
        (1, "end-rack-penalty", -QZ),
    ]
    assert g.scores == [133, 70]

    g = out(Rules(challenge_rule="single"))
    g.accept()
    assert g.is_over and g.scores == [128, 70]

    g = out(Rules(challenge_rule="single"))
    g.challenge(ruling=False)  # the adjudicator rules it out
    assert not g.is_over and g.rack(0) == E.parse("AT") and g.scores == [100, 90]
    assert g.player_on_turn == 1 and g.bag_count == 0


# -- the end of the game -------------------------------------------------------------


def test_scoreless_turns_end_the_game(game_factory: MakeGame) -> None:
    g = game_factory(["AEIOUQV", "BCDFGHJ"])
    g.exchange("Q")
    for _ in range(4):
        g.pass_turn()
    assert not g.is_over and g.scoreless_turns == 5
    r0, r1 = g.rack(0), g.rack(1)
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    assert g.scores_before_end == [0, 0]
    # everybody subtracts their own rack, nobody adds
    assert sorted(kinds(g)[6:]) == [
        (0, "end-rack-penalty", -E.rack_value(r0)),
        (1, "end-rack-penalty", -E.rack_value(r1)),
    ]
    assert g.scores == [-E.rack_value(r0), -E.rack_value(r1)]
    assert [e.tiles for e in g.history[6:] if e.player == 1] == [r1]


def test_what_counts_as_a_scoreless_turn(game_factory: MakeGame) -> None:
    # a play scoring 0 (two blanks) is a scoreless turn
    g = game_factory(["??AEIOU", "BCDFGHJ"], VOID)
    assert g.play("8G ab").score == 0
    assert g.scoreless_turns == 1
    # a scoring play ends the run
    g.pass_turn()
    g.set_rack(0, "DINNVWY")
    assert g.play("H7 W.N").score == 4 + 0 + 1
    assert g.scoreless_turns == 0


def test_exchange_that_is_not_scoreless_breaks_the_run(game_factory: MakeGame) -> None:
    # Polish and team rules: an exchange is not a scoreless turn, so the passes
    # before it are no longer consecutive
    g = game_factory(rules=Rules(exchange_is_scoreless=False, scoreless_turn_limit=3))
    g.pass_turn()
    g.pass_turn()
    g.exchange(g.rack_text()[:2])
    assert g.scoreless_turns == 0
    g.pass_turn()
    g.pass_turn()
    assert not g.is_over
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"


def test_scoreless_limit_options(game_factory: MakeGame) -> None:
    g = game_factory(rules=Rules(scoreless_turn_limit=0))
    for _ in range(20):
        g.pass_turn()
    assert not g.is_over
    # family rules with three players: everybody passes twice in a row
    g = game_factory(rules=family(3), players=3)
    for _ in range(5):
        g.pass_turn()
    assert not g.is_over
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"


def test_challenged_off_plays_and_lost_turns_are_scoreless(twl06: Lexicon, game_factory: MakeGame) -> None:
    g = challenge_game(Rules(challenge_rule="double", scoreless_turn_limit=3), twl06, game_factory, phony=True)
    g.challenge()  # withdrawn: 1
    g.pass_turn()  # 2
    g.play("8D FASTEN")
    assert g.scoreless_turns == 0
    g.challenge()  # a failed double challenge: P2 loses the turn, 1
    assert g.scoreless_turns == 1 and g.player_on_turn == 0
    g.pass_turn()
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"


@pytest.mark.parametrize(
    ("rule", "expected_scores", "expected_events"),
    [
        ("single", [128, 70], [(0, "end-rack-bonus", QZ), (1, "end-rack-penalty", -QZ)]),
        ("double", [148, 90], [(0, "end-rack-bonus", 2 * QZ)]),
    ],
)
def test_going_out(
    rule: str, expected_scores: list[int], expected_events: list[Any], endgame_factory: MakeGame
) -> None:
    g = endgame_factory(["AT", "QZ"], rules=Rules(end_rack_rule=rule, challenge_rule="void"), scores=[100, 90])
    assert g.bag_count == 0
    g.play("9H AT")
    assert g.is_over and g.end_reason == "out"
    assert g.scores_before_end == [108, 90]
    assert kinds(g)[1:] == expected_events
    assert g.history[1].tiles == E.parse("QZ")
    assert g.scores == expected_scores
    assert g.winners() == [0]
    # the spread is the same either way
    assert g.scores[0] - g.scores[1] == 58


def test_going_out_with_three_players(endgame_factory: MakeGame) -> None:
    g = endgame_factory(["AT", "QZ", "EK"], rules=VOID, scores=[10, 20, 30])
    g.play("9H AT")
    assert kinds(g)[1:] == [(0, "end-rack-bonus", 26), (1, "end-rack-penalty", -20), (2, "end-rack-penalty", -6)]
    assert g.scores == [18 + 26, 0, 24]
    assert g.winners() == [0]


def test_a_bag_that_is_not_empty_means_no_going_out(endgame_factory: MakeGame) -> None:
    g = endgame_factory(["AT", "QZ"], bag="E", rules=VOID)
    g.play("9H AT")
    assert not g.is_over and g.rack(0) == E.parse("E")


@pytest.mark.parametrize(("tiebreak", "winners"), [("none", [0, 1]), ("before-adjustment", [1])])
def test_ties(tiebreak: str, winners: list[int], endgame_factory: MakeGame) -> None:
    g = endgame_factory(["AT", "QZ"], rules=Rules(challenge_rule="void", tiebreak=tiebreak), scores=[100, 148])
    g.play("9H AT")
    assert g.scores == [128, 128]
    assert g.scores_before_end == [108, 148]
    assert g.winners() == winners


def test_a_draw_stays_a_draw_when_the_scores_were_level_before(game_factory: MakeGame) -> None:
    g = game_factory(["AEINRST", "EIORSTU"], family(2))
    for _ in range(4):
        g.pass_turn()
    assert g.is_over and g.scores == [-7, -7]
    assert g.winners() == [0, 1]


def test_finish_line(endgame_factory: MakeGame) -> None:
    g = endgame_factory(["AT", "QZ"], bag="EEEEEEE", rules=finish_line(2, "beginner"), scores=[60, 0])
    g.play("9H AT")
    assert g.scores == [68, 0] and not g.is_over
    g = endgame_factory(["AT", "QZ"], bag="EEEEEEE", rules=finish_line(2, "beginner"), scores=[62, 0])
    g.play("9H AT")
    assert g.is_over and g.end_reason == "target" and g.scores == [70, 0]  # no rack adjustment
    assert g.winners() == [0]
    # with challenges, the play that reaches the target may still be challenged
    rules = finish_line(2, "beginner").replace(challenge_rule="single")
    g = endgame_factory(["AT", "QZ"], bag="EEEEEEE", rules=rules, scores=[62, 0])
    g.play("9H AT")
    assert g.awaiting_final_challenge and not g.is_over
    g.apply(Accept())
    assert g.is_over and g.end_reason == "target"


# -- clocks -----------------------------------------------------------------------------


def test_clocks_run_for_the_player_on_turn(game_factory: MakeGame, clock: Clock) -> None:
    g = game_factory(rules=Rules(time_minutes=1, time_increment=5), clock=clock)
    assert (g.time_left(0), g.time_left(1)) == (60, 60)
    clock.advance(20)
    assert (g.time_left(0), g.time_left(1)) == (40, 60)
    ev = g.pass_turn()
    assert ev.elapsed == 20
    assert (g.time_left(0), g.time_left(1)) == (45, 60)  # 5 seconds back per turn
    g.pass_turn(elapsed=30)  # the caller may say how long the turn took
    assert (g.time_left(0), g.time_left(1)) == (45, 35)
    assert game_factory().time_left(0) is None


def test_overtime_costs_points_per_started_minute(game_factory: MakeGame, clock: Clock) -> None:
    rules = Rules(time_minutes=1, max_overtime=5, scoreless_turn_limit=2)
    g = game_factory(["AEIRSTU", "BCDFGHJ"], rules, clock=clock)
    clock.advance(60 + 61)  # one minute and one second over: two started minutes
    g.pass_turn()
    clock.advance(60)  # exactly on time: nothing
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    assert kinds(g)[2:] == [
        (1, "end-rack-penalty", -E.rack_value(E.parse("BCDFGHJ"))),
        (0, "end-rack-penalty", -7),
        (0, "time-penalty", -20),
    ]
    assert g.time_left(0) == -61 and g.time_left(1) == 0


def test_losing_on_time(game_factory: MakeGame, clock: Clock) -> None:
    rules = Rules(time_minutes=1, max_overtime=1, challenge_rule="void")
    g = game_factory(["DINNVWY"], rules, clock=clock)
    g.play("8D WINDY")  # no time spent
    clock.advance(10)
    g.pass_turn()
    clock.advance(60 + 60)  # exactly at the end of overtime: still playing
    g.pass_turn()
    assert not g.is_over
    g.pass_turn()  # P2
    clock.advance(1)  # P1 is now past max_overtime
    g.pass_turn()
    assert g.is_over and g.end_reason == "time"
    assert g.winners() == [1]  # whatever the scores
    assert g.scores[0] > g.scores[1]
    assert kinds(g)[-1] == (0, "time-penalty", -20)


# -- two, three and four players ----------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_turns_go_round(n: int, game_factory: MakeGame) -> None:
    g = game_factory(players=n, first_player=n - 1)
    assert g.bag_count == 100 - 7 * n
    order = []
    for _ in range(n + 1):
        order.append(g.player_on_turn)
        g.pass_turn()
    assert order == [n - 1] + list(range(n))
    assert all(len(g.rack(i)) == 7 for i in range(n))


def test_four_players_end_on_six_scoreless_turns_by_default(game_factory: MakeGame) -> None:
    g = game_factory(players=4)
    for _ in range(6):
        g.pass_turn()
    assert g.is_over and len([e for e in g.history if e.kind == "end-rack-penalty"]) == 4


# -- teams ------------------------------------------------------------------------------


def test_team_scores_and_challenges(game_factory: MakeGame, clock: Clock, snap: Snap) -> None:
    g = game_factory(["AEFNSTX"], TEAMS, players=4, clock=clock)
    g.play("8D FASTEN")
    refused(
        g, snap, lambda: g.challenge(player=2, ruling=True), GameStateError, "you cannot challenge your own team's play"
    )
    ev = g.challenge(player=3, ruling=True)
    assert ev is not None and (ev.player, ev.kind, ev.score) == (3, "challenge-penalty", -5)
    assert g.scores == [26, 0, 0, -5] and g.team_scores() == [26, -5]
    assert g.player_on_turn == 1  # a failed challenge costs no turn under these rules
    g.set_rack(1, "AEIORSU")
    assert g.play("E9 OR").score == 3  # AOR down from the A of FASTEN
    assert g.scores == [26, 3, 0, -5] and g.team_scores() == [26, -2]


def test_team_exchanges(endgame_factory: MakeGame, snap: Snap) -> None:
    rules = TEAMS.replace(time_minutes=None, match_minutes=None)  # no clocks here
    g = endgame_factory(["AT", "QZ", "EE", "II"], bag="ABCDEFGHIJ", rules=rules)
    refused(
        g,
        snap,
        lambda: g.exchange("A"),
        IllegalMoveError,
        "cannot exchange: the bag has 10 tiles and an exchange needs at least 11",
    )
    g = endgame_factory(["AT", "QZ", "EEE", "II"], bag="ABCDEFGHIJK", rules=rules)
    g.pass_turn()
    g.pass_turn()
    assert g.can_exchange()
    g.exchange("EE")  # not a pass: the passes before it no longer count
    assert g.scoreless_turns == 0
    # the seeds' team rule: an exchange only with three or more tiles of one letter
    assert not g.can_exchange()  # P4 holds II
    refused(
        g,
        snap,
        lambda: g.exchange("I"),
        IllegalMoveError,
        "cannot exchange: the rules allow an exchange only with 3 or more tiles of one letter on the rack",
    )


def test_eight_passes_end_a_team_game(game_factory: MakeGame, clock: Clock) -> None:
    g = game_factory(rules=TEAMS, players=4, clock=clock)
    for _ in range(7):
        g.pass_turn()
    assert not g.is_over
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    assert len(g.winners()) in (1, 2) and set(g.winners()) <= {0, 1}


def test_team_clocks(game_factory: MakeGame, clock: Clock) -> None:
    g = game_factory(rules=TEAMS, players=4, clock=clock)
    clock.advance(100)
    g.pass_turn()  # P1, team 1
    clock.advance(200)
    g.pass_turn()  # P2, team 2
    clock.advance(300)
    g.pass_turn()  # P3, team 1
    assert [g.time_left(i) for i in range(4)] == [500, 700, 500, 700]
    # team 2 runs out of its 15 minutes: it cannot move any more, team 1 plays on
    clock.advance(701)
    g.pass_turn()  # P4
    assert not g.is_over
    assert g.player_on_turn == 0
    g.pass_turn()  # P1
    assert g.player_on_turn == 2  # P2's turn is skipped
    assert kinds(g)[-2:] == [(0, "pass", 0), (1, "out-of-time", 0)]
    # the match ends after 30 minutes of play in all, racks subtracted
    clock.advance(500)
    g.pass_turn()  # P3: team 1 reaches its 15 minutes, 30:01 in all
    assert g.is_over and g.end_reason == "match-time"
    assert [e.kind for e in g.history[-4:]] == ["end-rack-penalty"] * 4
    assert not any(e.kind == "time-penalty" for e in g.history)


# -- undo -------------------------------------------------------------------------------


def test_undo(game_factory: MakeGame, twl06: Lexicon, snap: Snap) -> None:
    g = game_factory(["AEFNSTX", "AEIORSU"], Rules(challenge_rule="single"), lexicon=twl06)
    with pytest.raises(GameStateError, match="^nothing to undo$"):
        g.undo()
    start = snap(g)
    g.play("8D FASTNE")
    after_play = snap(g)
    g.challenge()
    g.undo()
    assert snap(g) == after_play and g.awaiting_challenge
    g.undo()
    assert snap(g) == start
    # the bag is restored too: the same play draws the same tiles
    g.play("8D FASTNE")
    assert snap(g) == after_play


def test_undo_restores_the_shuffles() -> None:
    """Only an exchange shuffles the bag; undoing actions in any mix restores the
    generator, so the same actions draw the same tiles again."""

    def play(g: Game) -> list[tuple[int, ...]]:
        out = []
        g.exchange(g.rack(0)[:3])
        out.append(g.rack(0))
        g.pass_turn()
        with pytest.raises(IllegalMoveError):  # refused: changes nothing
            g.exchange((26, 26, 26, 26))
        g.exchange(g.rack(0)[:5])
        out += [g.rack(0), g.rack(1)]
        g.pass_turn()
        return out

    g = Game(["A", "B"], seed=11, lexicon=None, first_player=0, deal=True)
    first = play(g)
    for _ in range(4):
        g.undo()
    assert play(g) == first
    g2 = Game(["A", "B"], seed=11, lexicon=None, first_player=0)
    assert play(g2) == first


def test_undo_after_the_end(endgame_factory: MakeGame, snap: Snap) -> None:
    g = endgame_factory(["AT", "QZ"], rules=VOID)
    before = snap(g)
    g.play("9H AT")
    assert g.is_over
    g.undo()
    assert snap(g) == before and not g.is_over


# -- variants -----------------------------------------------------------------------------


def test_nine_tile_game(game_factory: MakeGame) -> None:
    from lexiko.rules import NINE_TILE

    g = game_factory(["AEFNSTXYZ"], NINE_TILE.replace(challenge_rule="void"))
    assert len(g.rack(0)) == 9 and len(g.rack(1)) == 9 and g.bag_count == 82
    ev = g.play("8D FASTEN")  # six tiles: no bingo
    assert ev.score == 26 and len(g.rack(0)) == 9 and g.bag_count == 76


def test_super_game(game_factory: MakeGame) -> None:
    from lexiko.rules import SUPER

    g = game_factory(["ACEEETT"], SUPER.replace(challenge_rule="void"), players=3)
    assert g.bag_count == 200 - 21 and g.board.size == 21
    assert all_tiles(g) == Counter(g.tiles.bag())
    assert Counter(g.tiles.bag())[0] == 4
    refused_move = "8H CAT"
    with pytest.raises(IllegalMoveError, match="^the first play must cover the centre square K11$"):
        g.play(refused_move)
    assert g.play("11K CAT").score == (3 + 1 + 1) * 2


def test_clabbers_accepts_anagrams_of_words(game_factory: MakeGame, twl06: Lexicon) -> None:
    g = game_factory(["AEFNSTX"], Rules(variant="clabbers", challenge_rule="void"), lexicon=twl06)
    with pytest.raises(PhonyError, match="^word XFASTE is not in the lexicon$"):
        g.play("8D XFASTE")
    ev = g.play("8D TSAFNE")  # an anagram of FASTEN
    assert ev.score == (2 + 1 + 1 + 4 + 1 + 1) * 2
    g = game_factory(["AEFNSTX"], VOID, lexicon=twl06)
    with pytest.raises(PhonyError, match="^word TSAFNE is not in the lexicon$"):
        g.play("8D TSAFNE")


def test_from_position(game_factory: MakeGame) -> None:
    from lexiko.board import Board
    from lexiko.move import parse_move

    b = Board.empty().place(parse_move("8D WINDy"))
    g = Game.from_position(b, [E.parse("AEIRST?"), ()], [32, 0], turn=1, lexicon=None, seed=1, scoreless_turns=2)
    assert g.player_on_turn == 1 and g.scores == [32, 0] and g.scoreless_turns == 2
    assert g.rack(0) == E.parse("AEIRST?") and len(g.rack(1)) == 7
    assert g.bag_count == 100 - 5 - 7 - 7
    assert all_tiles(g) == FULL
    assert Counter(g.unseen(0))[0] == 0  # one blank on the board, the other on P1's rack
    with pytest.raises(IllegalMoveError, match="^the position uses more tiles than the set holds: \\? too many$"):
        Game.from_position(b, [E.parse("??"), ()], lexicon=None)


def test_the_order_exchanged_tiles_are_named_in_does_not_change_the_bag() -> None:
    racks = []
    for named in ("DINV", "VNID"):
        g = Game(["A", "B"], seed=11, lexicon=None, first_player=0)
        g.set_rack(0, "DINNVWY")
        g.exchange(named)
        g.pass_turn()
        racks.append((g.rack(0), g.rack(1), g.unseen(0)))
    assert racks[0] == racks[1]


def test_flag_charges_the_turn_and_ends_the_game_on_time() -> None:
    now = [0.0]
    rules = Rules(challenge_rule="void", time_minutes=1, max_overtime=1, overtime_penalty=10)
    g = Game(["A", "B"], rules, seed=1, lexicon=None, first_player=0, clock=lambda: now[0])
    now[0] = 125.0  # A thinks past the minute and the overtime minute
    g.flag(0)
    assert g.end_reason == "time" and g.lost_on_time == 0 and g.winners() == [1]
    assert [(e.kind, e.score) for e in g.history] == [("time-penalty", -20)]  # 65 s over: 2 minutes
    with pytest.raises(GameStateError, match="^the game is over$"):
        g.flag(1)


def test_a_player_resigns_on_turn_or_not_and_loses_whatever_the_scores() -> None:
    now = [0.0]
    rules = Rules(challenge_rule="void", time_minutes=25)
    g = Game(["A", "B"], rules, seed=1, lexicon=None, first_player=0, clock=lambda: now[0])
    g.set_rack(0, "DINNVWY")
    g.play("8D WINDY")
    now[0] = 40.0
    g.resign(0)  # not on turn, ahead 32-0: still the loser
    assert g.end_reason == "resigned" and g.resigned == 0 and g.winners() == [1] and g.scores == [32, 0]
    assert g.time_left(1) == 25 * 60 - 40  # B was thinking until A resigned
    with pytest.raises(GameStateError, match="^the game is over$"):
        g.resign(1)
    g.undo()
    assert not g.is_over and g.resigned is None
    with pytest.raises(GameStateError, match="^there is no player 2$"):
        g.resign(2)


def test_a_resigned_team_loses_and_a_resignation_replays_from_gcg() -> None:
    from lexiko import gcg

    g = Game(
        ["A", "B", "C", "D"],
        Rules(teams=True, min_players=4, max_players=4, challenge_rule="void"),
        seed=3,
        lexicon=None,
    )
    g.resign(2)  # A and C are a team
    assert g.winners() == [1]
    two = Game(["Ann", "Bob"], Rules(challenge_rule="void"), seed=1, lexicon=None, first_player=0)
    two.set_rack(0, "DINNVWY")
    two.play("8D WINDY")
    two.resign(1)
    text = gcg.dumps(two)
    assert "#lexiko-end resigned Bob" in text
    again = gcg.parse(text).replay(lexicon=None)
    assert again.end_reason == "resigned" and again.winners() == [0] and again.scores == [32, 0]


# -- rules that were wrong (issue 9): each test failed before its fix ----------------------


def test_a_challenge_never_resets_the_clock_of_the_player_on_turn(
    twl06: Lexicon, game_factory: MakeGame, clock: Clock
) -> None:
    g = game_factory(["DINNVWY"], Rules(challenge_rule="single", time_minutes=25), lexicon=twl06, clock=clock)
    g.play("8D WINDY")
    clock.advance(600)
    assert g.challenge() is None  # WINDY is good: a free challenge costs nothing else
    clock.advance(60)
    g.pass_turn()
    assert g.time_left(1) == 25 * 60 - 660
    # an accept charges the thinking time too
    g = game_factory(["DINNVWY"], Rules(challenge_rule="single", time_minutes=25), lexicon=twl06, clock=clock)
    g.play("8D WINDY")
    clock.advance(100)
    g.accept()
    clock.advance(20)
    assert g.time_left(1) == 25 * 60 - 120


def test_a_failed_double_challenge_charges_the_challenger(twl06: Lexicon, game_factory: MakeGame, clock: Clock) -> None:
    g = game_factory(["DINNVWY"], Rules(challenge_rule="double", time_minutes=25), lexicon=twl06, clock=clock)
    g.play("8D WINDY")
    clock.advance(300)
    g.challenge()  # fails: P2 loses the turn, and the 300 s spent deciding
    assert g.player_on_turn == 0 and g.time_left(1) == 25 * 60 - 300
    clock.advance(10)
    assert g.time_left(0) == 25 * 60 - 10


def test_explicit_thinking_time_of_a_challenge_is_charged(twl06: Lexicon, game_factory: MakeGame, clock: Clock) -> None:
    g = game_factory(["DINNVWY"], Rules(challenge_rule="single", time_minutes=25), lexicon=twl06, clock=clock)
    g.play("8D WINDY", elapsed=5)
    g.challenge(elapsed=600)
    g.pass_turn(elapsed=60)
    assert g.time_left(0) == 25 * 60 - 5 and g.time_left(1) == 25 * 60 - 660


def test_a_challenge_by_a_player_not_on_turn_keeps_the_turns_clock_running(
    twl06: Lexicon, game_factory: MakeGame, clock: Clock
) -> None:
    g = game_factory(
        ["DINNVWY"], Rules(challenge_rule="single", time_minutes=25), players=3, lexicon=twl06, clock=clock
    )
    g.play("8D WINDY")
    clock.advance(50)
    g.challenge(player=2)  # P3 challenges while P2 is thinking
    clock.advance(50)
    assert [g.time_left(i) for i in range(3)] == [1500, 1400, 1500]


def test_going_out_past_the_overtime_limit_loses_on_time(endgame_factory: MakeGame) -> None:
    rules = Rules(challenge_rule="void", time_minutes=1, max_overtime=1)
    g = endgame_factory(["AT", "QZ"], rules=rules, scores=[100, 90])
    g.play("9H AT", elapsed=200)  # 80 s past the minute of overtime
    assert g.is_over and g.end_reason == "time" and g.lost_on_time == 0
    assert g.winners() == [1]
    assert [k for _, k, _ in kinds(g)] == ["play", "time-penalty"]  # no end-of-game rack bonus
    # within the overtime it ends normally, with the penalty
    g = endgame_factory(["AT", "QZ"], rules=rules, scores=[100, 90])
    g.play("9H AT", elapsed=100)
    assert g.end_reason == "out" and g.lost_on_time is None
    assert kinds(g) == [
        (0, "play", 8),
        (0, "end-rack-bonus", QZ),
        (1, "end-rack-penalty", -QZ),
        (0, "time-penalty", -10),
    ]


def test_going_out_past_the_limit_loses_on_time_in_challenge_modes_too(endgame_factory: MakeGame) -> None:
    rules = Rules(challenge_rule="double", time_minutes=1, max_overtime=1)
    g = endgame_factory(["AT", "QZ"], rules=rules, scores=[100, 90])
    g.play("9H AT", elapsed=200)
    assert g.is_over and g.end_reason == "time" and g.winners() == [1]


def test_the_double_end_rack_rule_is_for_two_players(endgame_factory: MakeGame) -> None:
    from lexiko.rules import SUPER, TOURNAMENT

    assert TOURNAMENT.end_rack_rule == SUPER.end_rack_rule == "double"
    g = endgame_factory(["AT", "QZ", "EK"], rules=TOURNAMENT.replace(challenge_rule="void"), scores=[10, 20, 30])
    g.play("9H AT")
    # with three players the single rule: 20 + 6 added once, each opponent subtracts their own rack
    assert kinds(g)[1:] == [(0, "end-rack-bonus", 26), (1, "end-rack-penalty", -20), (2, "end-rack-penalty", -6)]
    g2 = endgame_factory(["AT", "QZ"], rules=TOURNAMENT_VOID, scores=[10, 20])
    g2.play("9H AT")
    assert kinds(g2)[1:] == [(0, "end-rack-bonus", 2 * QZ)]


TOURNAMENT_VOID = Rules(end_rack_rule="double", challenge_rule="void")


def test_a_sixth_scoreless_turn_that_is_a_play_can_be_challenged(twl06: Lexicon, game_factory: MakeGame) -> None:
    def start(word: str) -> Game:
        g = game_factory(["BCDFGHJ", "??KLMNP"], Rules(challenge_rule="double"), lexicon=twl06)
        for _ in range(5):
            g.pass_turn()
        assert g.player_on_turn == 1 and g.scoreless_turns == 5
        assert g.play(word).score == 0  # two blanks score nothing
        assert not g.is_over and g.awaiting_final_challenge
        return g

    # a phony: challenged off; the withdrawn play is the sixth scoreless turn, so the game
    # ends, and P2 subtracts the rack it holds again (K L M N P: 5 + 1 + 3 + 1 + 3)
    g = start("8G zx")
    w = g.challenge()
    assert w is not None and w.kind == "withdrawn" and w.invalid == ("ZX",)
    assert g.is_over and g.end_reason == "scoreless" and g.phonies == []
    assert sorted(g.rack(1)) == sorted(E.parse("??KLMNP"))
    assert kinds(g)[-2:] == [(0, "end-rack-penalty", -E.rack_value(E.parse("BCDFGHJ"))), (1, "end-rack-penalty", -13)]
    # accepted, the phony stands and is recorded; the game ends on the sixth scoreless turn
    g = start("8G zx")
    g.accept()
    assert g.is_over and g.end_reason == "scoreless" and [e.words for e in g.phonies] == [("ZX",)]
    # a good word challenged under double: the challenger's lost turn changes nothing more
    g = start("8G at")
    g.challenge()
    assert g.is_over and g.end_reason == "scoreless" and g.board.played_tiles()
    # and a normal move is refused until the play is challenged or accepted
    g = start("8G at")
    with pytest.raises(GameStateError, match="challenge it or accept it"):
        g.pass_turn()


def test_german_club_play_ends_after_four_consecutive_passes(game_factory: MakeGame) -> None:
    from lexiko.rules import GERMAN

    rules = GERMAN.replace(tiles="english", lexicon="TWL06")  # the rule, with English tiles to name them easily
    g = game_factory(["AEIOUQV", "BCDFGHJ"], rules)
    g.pass_turn()
    g.pass_turn()
    g.exchange("Q")  # an exchange is not a pass: the run starts again
    assert g.scoreless_turns == 0
    for _ in range(3):
        g.pass_turn()
    assert not g.is_over and g.scoreless_turns == 3
    g.pass_turn()
    assert g.is_over and g.end_reason == "scoreless"
    # the default counts every scoreless turn
    g = game_factory(["AEIOUQV", "BCDFGHJ"], rules.replace(scoreless_passes_only=False))
    g.pass_turn()
    g.pass_turn()
    g.exchange("Q")
    assert not g.is_over
    g.pass_turn()
    assert g.is_over


# -- the moves of the player on turn ----------------------------------------------------


def test_moves_lists_the_generators_moves_for_the_player_on_turn(opened: Game, twl06: Lexicon) -> None:
    from lexiko.movegen import generate

    g = opened
    every = g.moves()
    assert every == generate(g.board, g.rack(), twl06, g.rules, bag_count=g.bag_count)
    assert g.moves(best=3) == every[:3]
    assert [(c.notation(g.tiles, g.board), c.score) for c in every[:3]] == [
        ("J6 ZEST", 43),
        ("J8 SIZE", 43),
        ("J6 QIS", 42),
    ]
    # seven different tiles, 80 in the bag: every choice of tiles to exchange, and the pass last
    assert sum(isinstance(c.move, Exchange) for c in every) == 2**7 - 1
    assert every[-1].move == Pass() and len(every) == 650
    assert g.play(every[0]).score == every[0].score


def test_moves_leaves_out_an_exchange_the_rules_refuse_now(game_factory: MakeGame, twl06: Lexicon) -> None:
    g = game_factory(["AEINRST"], Rules(max_exchanges_per_player=1), lexicon=twl06)
    assert any(isinstance(c.move, Exchange) for c in g.moves())
    g.play("-A")
    g.play("-")
    assert g.exchanges_made == [1, 0] and not g.can_exchange()
    assert not any(isinstance(c.move, Exchange) for c in g.moves())
    assert any(isinstance(c.move, Pass) for c in g.moves())


def test_moves_are_none_once_the_game_is_over_and_need_a_word_list(game_factory: MakeGame, twl06: Lexicon) -> None:
    g = game_factory(["QI"], VOID, lexicon=None)  # judges no words: the rules' lexicon lists them
    assert [c.notation() for c in g.moves(best=2)] == ["8G QI", "8H QI"]
    assert [c.notation() for c in g.moves(best=1, lexicon=Lexicon.from_words(["IQ"]))] == ["8G IQ"]
    g.resign(0)
    assert g.moves() == []
