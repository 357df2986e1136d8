"""Make the repository's own corpus of complete games, tests/data/gcg/corpus (run from the
repository's root: ``python tests/data/make_corpus.py``). The games are lexiko's players
against each other, seeded, with a phony challenged off, exchanges, blanks, three
players and several challenge rules; tests/test_corpus.py replays them."""

from __future__ import annotations

from pathlib import Path

from lexiko import gcg
from lexiko.bots import make_player
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.movegen import generate
from lexiko.rules import TOURNAMENT, Rules, preset
from lexiko.tiles import BLANK


def phony_for(g: Game, lex: Lexicon) -> Place | None:
    """One of the best placements with its last two tiles swapped, when that forms a
    word the lexicon lacks."""
    pos = g.position()
    for c in generate(pos.board, pos.rack, lex, pos.rules, bag_count=pos.bag_count, placements_only=True)[:50]:
        m = c.move
        assert isinstance(m, Place)
        t = list(m.tiles)
        idx = [i for i, x in enumerate(t) if x]
        if len(idx) < 2 or t[idx[-1]] == t[idx[-2]]:
            continue
        t[idx[-1]], t[idx[-2]] = t[idx[-2]], t[idx[-1]]
        p = Place(m.row, m.col, m.down, tuple(t))
        try:
            ev = g.copy().play(p)
        except Exception:
            continue
        if any(w not in lex for w in ev.words):
            return p
    return None


def play(
    lex: Lexicon,
    out: Path,
    name: str,
    players: list[str],
    kinds: list[str],
    rules: Rules,
    seed: int,
    phony_turn: int | None = None,
    exchange_turn: int | None = None,
) -> None:
    g = Game(players, rules, seed=seed, lexicon=lex)
    bots = [make_player(k, lex, seed=seed + i) for i, k in enumerate(kinds)]
    turn = 0
    while not g.is_over:
        p = g.player_on_turn
        if g.awaiting_final_challenge:
            g.accept(player=p)
            continue
        if g.awaiting_challenge and bots[p].wants_challenge(g):
            g.challenge(player=p)
            continue
        phony = phony_for(g, lex) if turn == phony_turn else None
        if phony is not None:
            g.play(phony, player=p)
        elif turn == exchange_turn and g.can_exchange():
            g.exchange(g.rack(p)[:3], player=p)
        else:
            g.apply(bots[p].choose(g), player=p)
        turn += 1
    (out / f"{name}.gcg").write_text(gcg.dumps(g), encoding="utf-8")
    blank = "a blank" if any(c & BLANK for c in g.board.cells) else "no blank"
    print(name, g.end_reason, g.scores, sorted({e.kind for e in g.history}), blank)


def main() -> None:
    lex = Lexicon.load("TWL06")
    out = Path(__file__).parent / "gcg" / "corpus"
    out.mkdir(parents=True, exist_ok=True)
    play(lex, out, "static_vs_greedy", ["Ann", "Bob"], ["static", "greedy"], TOURNAMENT, 1)
    play(lex, out, "greedy_vs_static", ["Cleo", "Dev"], ["greedy", "static"], TOURNAMENT, 2)
    play(
        lex,
        out,
        "phony_challenged_off",
        ["Eve", "Finn"],
        ["static", "static"],
        TOURNAMENT,
        3,
        phony_turn=4,
        exchange_turn=2,
    )
    play(
        lex,
        out,
        "five_point_challenge",
        ["Gus", "Hana"],
        ["static", "greedy"],
        Rules(challenge_rule="five-point"),
        4,
        phony_turn=6,
    )
    play(
        lex,
        out,
        "three_players",
        ["Ida", "Jon", "Kit"],
        ["static", "greedy", "random"],
        preset("casual"),
        5,
        exchange_turn=1,
    )
    play(
        lex,
        out,
        "single_challenge_single_end_rack",
        ["Lou", "Mae"],
        ["static", "static"],
        Rules(challenge_rule="single"),
        6,
        phony_turn=3,
    )


if __name__ == "__main__":
    main()
