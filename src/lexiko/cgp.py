"""CGP positions: the board, the racks, the scores and the run of scoreless turns in
one line, as crossword-game programs exchange them.

``<board> <rack1>/<rack2>... <score1>/<score2>... <zeros> [op args; ...]``

The board is rows joined by ``/`` with runs of empty squares as numbers and blanks in
lower case (tiles of several letters in brackets, ``[CH]``); the rack of the player on
turn comes first; ``zeros`` counts consecutive scoreless turns; operations such as
``lex TWL06;`` follow. A line is at most `MAX_CGP_CHARS` (10,000) characters.

The operations other programs write are understood: ``lex`` (lexicon), ``ld`` (letter
distribution: english, english_super, spanish, german, french, polish, catalan, and the
other languages' tile sets by their lexiko names),
``bdn`` (board: CrosswordGame, SuperCrosswordGame or a lexiko layout name), ``var``
(classic, classic_super, wordsmog/clabbers), ``bb`` (bingo bonus), ``cr`` (challenge
rule: void, single, double, 5pt, 10pt), ``etl`` (exchange tile limit) and ``mcnz``
(scoreless turns that end the game). Others (``gid``, ``lm``, ``tmr``, ``ti``, ``to``)
are kept in ``ops`` and change nothing.

>>> pos = parse("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 1 lex TWL06;")
>>> pos.racks, pos.scores, pos.zeros, pos.ops
(('ADEEGIL', ''), (0, 32), 1, {'lex': 'TWL06'})
>>> print(pos.board.tile_at(7, 3) == pos.board.tiles.code("W"))
True
>>> dumps(pos) == "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 1 lex TWL06;"
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lexiko.board import Board
from lexiko.errors import NotationError
from lexiko.game import Game, WordJudge
from lexiko.layouts import LAYOUTS, Layout
from lexiko.layouts import layout as layout_named
from lexiko.rules import Rules
from lexiko.tiles import ENGLISH, TILE_SETS, TileSet, tile_set
from lexiko.wordlists import LANGUAGE_LISTS

__all__ = ["CGP", "parse", "dumps", "from_game", "to_game", "rules_from_ops", "MAX_CGP_CHARS"]

MAX_CGP_CHARS = 10_000
"""The longest CGP line `parse` reads, in characters."""


@dataclass(frozen=True)
class CGP:
    """A position as CGP holds it. ``racks[0]`` and ``scores[0]`` are the player on turn's."""

    board: Board
    racks: tuple[str, ...]
    scores: tuple[int, ...]
    zeros: int = 0
    ops: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return dumps(self)


def _layout_for(rows: int) -> Layout:
    for lay in LAYOUTS.values():
        if lay.size == rows:
            return lay
    sizes = ", ".join(str(n) for n in sorted({lay.size for lay in LAYOUTS.values()}))
    raise NotationError(f"the board has {rows} rows; boards have {sizes}")


#: Letter-distribution names of other programs (``ld``) and their lexiko tile sets.
LETTER_DISTRIBUTIONS = {
    "english": "english",
    "english_super": "super-english",
    "super-english": "super-english",
    "spanish": "spanish",
    "german": "german",
    "french": "french",
    "polish": "polish",
    "catalan": "catalan",
    "italian": "italian",
    "dutch": "dutch",
    "portuguese": "portuguese",
    "norwegian": "norwegian",
    "swedish": "swedish",
    "danish": "danish",
    "bulgarian": "bulgarian",
    "ukrainian": "ukrainian",
    "czech": "czech",
    "slovak": "slovak",
    "hungarian": "hungarian",
    "romanian": "romanian",
    "greek": "greek",
    "russian": "russian",
    "mobile": "mobile",
    "lexulous": "lexulous",
}
#: Board names of other programs (``bdn``) and lexiko layouts.
BOARD_NAMES = {"crosswordgame": "standard15", "supercrosswordgame": "super21"}
#: Variant names (``var``): (lexiko variant, super board).
VARIANTS = {
    "classic": ("classic", False),
    "classic_super": ("classic", True),
    "wordsmog": ("clabbers", False),
    "wordsmog_super": ("clabbers", True),
    "clabbers": ("clabbers", False),
}
#: Challenge-rule names (``cr``).
CHALLENGES = {
    "void": "void",
    "single": "single",
    "double": "double",
    "5pt": "five-point",
    "10pt": "ten-point",
    "five-point": "five-point",
    "ten-point": "ten-point",
}


def _ops(text: str) -> dict[str, str]:
    ops: dict[str, str] = {}
    for op in text.split(";"):
        op = op.strip()
        if op:
            name, _, args = op.partition(" ")
            ops[name] = args.strip()
    return ops


def _op_tiles(ops: dict[str, str]) -> TileSet:
    name = ops.get("ld")
    if name is None:
        return tile_set("super-english") if ops.get("var", "").endswith("_super") else ENGLISH
    key = LETTER_DISTRIBUTIONS.get(name.lower(), name.lower())
    if key not in TILE_SETS:
        known = ", ".join(sorted(LETTER_DISTRIBUTIONS))
        raise NotationError(f"unknown letter distribution 'ld {name}'; known: {known}")
    return tile_set(key)


def _op_layout(ops: dict[str, str]) -> Layout | None:
    name = ops.get("bdn")
    if name is None:
        return layout_named("super21") if ops.get("var", "").endswith("_super") else None
    key = BOARD_NAMES.get(name.lower(), name)
    if key not in LAYOUTS:
        known = ", ".join(["CrosswordGame", "SuperCrosswordGame", *sorted(LAYOUTS)])
        raise NotationError(f"unknown board 'bdn {name}'; known: {known}")
    return layout_named(key)


def parse(text: str, tiles: TileSet | None = None, layout: Layout | None = None) -> CGP:
    """Read a CGP line. The tiles follow from the ``ld`` operation (English without
    one) and the layout from ``bdn`` or the number of rows, unless given.

    >>> pos = parse("15/15/15/15/15/15/15/7[CH]E6/15/15/15/15/15/15/15 [LL]A?/ 0/0 0 ld spanish;")
    >>> pos.board.tiles.name, pos.racks
    ('spanish', ('[LL]A?', ''))

    Raises `NotationError` naming the field that is wrong, or saying that the line is
    longer than `MAX_CGP_CHARS` (10,000 characters: a 21x21 board with every operation
    takes well under 1,000).
    """
    if len(text) > MAX_CGP_CHARS:
        raise NotationError(f"the position has {len(text):,} characters; a CGP line has at most {MAX_CGP_CHARS:,}")
    parts = text.strip().split(None, 4)
    if len(parts) < 4:
        raise NotationError(
            f"a CGP position has a board, racks, scores and a scoreless-turn count; got {len(parts)} field(s)"
        )
    board_text, racks_text, scores_text, zeros_text = parts[:4]
    ops = _ops(parts[4]) if len(parts) == 5 else {}
    lay = layout if layout is not None else _op_layout(ops)
    if lay is None:
        lay = _layout_for(board_text.count("/") + 1)
    if tiles is None:
        # the super board's own tiles unless the position names others
        tiles = tile_set("super-english") if lay.name == "super21" and "ld" not in ops else _op_tiles(ops)
    board = Board.from_string(board_text, lay, tiles)
    racks = tuple(racks_text.split("/"))
    for r in racks:
        try:
            tiles.parse(r)
        except NotationError as e:
            raise NotationError(f"rack {r!r}: {e}") from None
    try:
        scores = tuple(int(s) for s in scores_text.split("/"))
    except ValueError:
        raise NotationError(f"scores {scores_text!r} are not numbers separated by '/'") from None
    if len(scores) != len(racks):
        raise NotationError(f"{len(racks)} racks but {len(scores)} scores")
    if not zeros_text.isdigit():
        raise NotationError(f"the scoreless-turn count {zeros_text!r} is not a number")
    rules_from_ops(ops)  # a bad operand is an error of the line, found now
    return CGP(board, racks, scores, int(zeros_text), ops)


def _int_op(ops: dict[str, str], name: str, what: str, least: int) -> int | None:
    if name not in ops:
        return None
    text = ops[name]
    if not re.fullmatch(r"-?\d+", text) or int(text) < least:
        raise NotationError(f"'{name} {text}': the {what} must be a whole number of at least {least}")
    return int(text)


def rules_from_ops(ops: dict[str, str], rules: Rules | None = None) -> Rules:
    """The rules a position's operations ask for, on top of ``rules`` (default ``Rules()``).

    >>> r = rules_from_ops({"lex": "TWL06", "bb": "35", "cr": "5pt", "mcnz": "4", "etl": "1"})
    >>> r.lexicon, r.bingo_bonus, r.challenge_rule, r.scoreless_turn_limit, r.exchange_min_bag
    ('TWL06', 35, 'five-point', 4, 1)
    """
    base = rules if rules is not None else Rules()
    changes: dict[str, Any] = {}
    if "lex" in ops and re.fullmatch(r"[\w.\-/]+", ops["lex"]):
        changes["lexicon"] = ops["lex"]
    if "ld" in ops or ops.get("var", "").endswith("_super"):
        changes["tiles"] = _op_tiles(ops).name
        if "lex" not in ops and changes["tiles"] in LANGUAGE_LISTS:
            changes["lexicon"] = LANGUAGE_LISTS[changes["tiles"]]  # the language's own list, never English
    lay = _op_layout(ops)
    if lay is not None:
        changes["layout"] = lay.name
    if "var" in ops:
        var = VARIANTS.get(ops["var"].lower())
        if var is None:
            raise NotationError(f"unknown variant 'var {ops['var']}'; known: {', '.join(VARIANTS)}")
        changes["variant"] = var[0]
    if "cr" in ops:
        rule = CHALLENGES.get(ops["cr"].lower())
        if rule is None:
            raise NotationError(
                f"challenge rule 'cr {ops['cr']}' is not one lexiko plays; known: void, single, double, 5pt, 10pt"
            )
        changes["challenge_rule"] = rule
    for name, field_name, what, least in (
        ("bb", "bingo_bonus", "bingo bonus", 0),
        ("etl", "exchange_min_bag", "exchange tile limit", 1),
        ("mcnz", "scoreless_turn_limit", "number of scoreless turns", 0),
    ):
        value = _int_op(ops, name, what, least)
        if value is not None:
            changes[field_name] = value
    try:
        return base.replace(**changes) if changes else base
    except ValueError as e:
        raise NotationError(f"the position's operations do not make rules: {e}") from None


def dumps(pos: CGP) -> str:
    """Write a CGP line (operations sorted as given)."""
    out = f"{pos.board.to_string()} {'/'.join(pos.racks)} {'/'.join(map(str, pos.scores))} {pos.zeros}"
    if len(pos.racks) == 1:
        out = out.replace(f" {pos.racks[0]} ", f" {pos.racks[0]}/ ", 1)
    ops = " ".join(f"{k} {v};" if v else f"{k};" for k, v in pos.ops.items())
    return f"{out} {ops}" if ops else out


def from_game(game: Game, *, with_racks: bool = True) -> CGP:
    """The game's position from the player on turn's side (other racks hidden unless
    ``with_racks``)."""
    n = len(game.players)
    t = game.player_on_turn
    order = [(t + i) % n for i in range(n)]
    racks = tuple(game.tiles.format(game.tiles.rack_sort(game.rack(p))) if with_racks or p == t else "" for p in order)
    scores = tuple(game.scores[p] for p in order)
    ops = {"lex": game.rules.lexicon}
    if game.tiles.name != "english":
        ops["ld"] = game.tiles.name  # other tiles are named, so that the line reads back
    return CGP(game.board, racks, scores, game.scoreless_turns, ops)


def to_game(
    pos: CGP | str,
    rules: Rules | None = None,
    *,
    players: list[str] | None = None,
    seed: int | None = None,
    lexicon: WordJudge | None | str = "auto",
) -> Game:
    """A game set up at the position (a `CGP`, or a CGP line), the player on turn
    first (empty racks are dealt). The operations set the rules (see `rules_from_ops`);
    the tiles and layout are the position's own.

    >>> game = to_game("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 ADEEGIL/ 0/32 0 lex TWL06;", seed=1)
    >>> game.rack(), game.scores, game.rules.lexicon
    (Rack('ADEEGIL'), [0, 32], 'TWL06')
    """
    if isinstance(pos, str):
        pos = parse(pos)
    base = rules_from_ops(pos.ops, rules).replace(tiles=pos.board.tiles.name, layout=pos.board.layout.name)
    racks = [pos.board.tiles.parse(r) for r in pos.racks]
    return Game.from_position(
        pos.board,
        racks,
        list(pos.scores),
        players=players,
        rules=base,
        scoreless_turns=pos.zeros,
        seed=seed,
        lexicon=lexicon,
    )
