"""Pictures: boards, racks and positions as SVG, for notebooks, files and web pages.

`board` draws a board: premium squares coloured and labelled, tiles with
their letter and value (a blank's letter in another colour and no value), the
last move's tiles highlighted, optional arrows and coordinates. `rack`
draws a rack, `position` a board with the rack of the player on turn.
Every function returns an `Svg`, a ``str`` that Jupyter shows as a
picture. Only the standard library is used.

Squares are named as the notation names them, ``H8`` (column letter, row
number), or given as ``(row, col)`` counted from 0.

>>> from lexiko.board import Board
>>> from lexiko.move import parse_move
>>> b = Board.empty().place(parse_move("8D WINDY"))
>>> picture = board(b, lastmove=parse_move("8D WINDY"), arrows=[("D8", "H8")], size=300)
>>> picture.startswith("<svg"), picture.count('class="tile lastmove"')
(True, 5)

The drawing's elements carry classes and ``data-`` attributes a test or a style
sheet can rely on: each square is a ``rect`` of class ``square`` (plus ``dl``
``tl`` ``ql`` ``dw`` ``tw`` ``qw`` for a premium square and ``start`` for the
start square) with ``data-square="H8"``; each tile a ``g`` of class ``tile``
(plus ``blank``, ``lastmove``) with ``data-square``, ``data-face`` (as the
notation writes it: lower case for a blank) and ``data-value``; each arrow a
``g`` of class ``arrow`` with ``data-tail`` and ``data-head``.
"""

from __future__ import annotations

import dataclasses
import html
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from lexiko.board import Board, column_name, parse_square, square_name
from lexiko.errors import LexikoError, NotationError
from lexiko.files import write_file
from lexiko.move import Exchange, Place
from lexiko.tiles import BLANK, ENGLISH, TileSet

if TYPE_CHECKING:
    from lexiko.game import Event, Game, Position

__all__ = [
    "Arrow",
    "Square",
    "Svg",
    "DEFAULT_COLORS",
    "board",
    "rack",
    "position",
    "game_html",
    "last_play",
    "render_file",
]

Square: TypeAlias = str | tuple[int, int]
"""A square: its name (``"H8"``) or ``(row, col)`` counted from 0."""

UNIT = 40
"""Side of a square in the drawing's own units (pixels at the natural size)."""

_MARGIN = 20  # room for the coordinates
_GAP = 4  # between rack tiles

DEFAULT_COLORS: dict[str, str] = {
    "margin": "#f4f1e8",
    "coord": "#4a4a4a",
    "square": "#d8d2c0",
    "square line": "#f4f1e8",
    "dl": "#b9def0",
    "tl": "#4b9ad4",
    "ql": "#8f7fd1",
    "dw": "#f5bcc4",
    "tw": "#e05f5c",
    "qw": "#b5405c",
    "premium text": "#262626",
    "star": "#262626",
    "tile": "#f3dca8",
    "tile line": "#b08a4a",
    "letter": "#1e1e1e",
    "value": "#1e1e1e",
    "blank letter": "#c0392b",
    "lastmove": "#ffd84d",
    "arrow": "#1d7a3a",
    "rack": "#8a6a3c",
}
"""The colours `board` and `rack` use; ``colors=`` overrides any of them."""

_Converter: TypeAlias = Callable[[str], bytes]

_PREMIUM_CLASS = {"d": "dl", "t": "tl", "q": "ql", "D": "dw", "T": "tw", "Q": "qw", "*": "dw"}
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


class Svg(str):
    """An SVG document: a ``str`` that Jupyter shows as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Arrow:
    """An arrow from square to square, drawn over the board (``tail == head``: a ring).

    >>> Arrow("H8", "H12").color is None
    True
    """

    tail: Square
    head: Square
    color: str | None = None
    """``None``: the ``"arrow"`` colour."""


# -- helpers ---------------------------------------------------------------------------


def _colors(overrides: Mapping[str, str] | None) -> dict[str, str]:
    out = dict(DEFAULT_COLORS)
    if overrides:
        unknown = sorted(set(overrides) - set(DEFAULT_COLORS))
        if unknown:
            raise LexikoError(
                f"unknown colour {', '.join(map(repr, unknown))}; known: {', '.join(sorted(DEFAULT_COLORS))}"
            )
        out.update(overrides)
    return out


def _square(sq: Square, size: int) -> tuple[int, int]:
    if isinstance(sq, str):
        return parse_square(sq, size)
    row, col = sq
    if not (0 <= row < size and 0 <= col < size):
        raise NotationError(f"square (row {row}, column {col}) is off the {size}x{size} board")
    return row, col


def _num(x: float) -> str:
    """A coordinate without needless decimals."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """A child element; ``class_`` stands for ``class``, other ``_`` for ``-``."""
    e = ET.SubElement(parent, tag)
    for k, v in attrs.items():
        name = "class" if k == "class_" else k.replace("_", "-")
        e.set(name, _num(v) if isinstance(v, float) else str(v))
    if text is not None:
        e.text = text
    return e


def _document(width: float, height: float, size: int | None, cls: str) -> ET.Element:
    root = ET.Element("svg")
    root.set("xmlns", "http://www.w3.org/2000/svg")
    root.set("version", "1.2")
    root.set("baseProfile", "tiny")
    root.set("viewBox", f"0 0 {_num(width)} {_num(height)}")
    if size is not None:
        if size <= 0:
            raise LexikoError(f"the picture's size must be positive, not {size}")
        root.set("width", _num(size))
        root.set("height", _num(size * height / width))
    else:
        root.set("width", _num(width))
        root.set("height", _num(height))
    root.set("class", cls)
    return root


def _text(root: ET.Element) -> Svg:
    return Svg(ET.tostring(root, encoding="unicode"))


def _letter_size(face: str) -> float:
    """Font size of a face: smaller for CH, L·L, QU."""
    return {1: 0.6, 2: 0.43}.get(len(face), 0.32) * UNIT


def _tile(
    parent: ET.Element,
    x: float,
    y: float,
    code: int,
    tiles: TileSet,
    colors: Mapping[str, str],
    *,
    square: str | None = None,
    highlight: bool = False,
) -> None:
    """One tile with its top-left corner at (x, y); code 0 is an undesignated blank."""
    blank = code == 0 or bool(code & BLANK)
    face = tiles.face(code)
    value = tiles.value(code)
    cls = "tile" + (" blank" if blank else "") + (" lastmove" if highlight else "")
    attrs: dict[str, object] = {"class_": cls, "data_face": face, "data_value": value}
    if square is not None:
        attrs["data_square"] = square
    g = _el(parent, "g", **attrs)
    _el(
        g,
        "rect",
        x=x + 1.5,
        y=y + 1.5,
        width=UNIT - 3,
        height=UNIT - 3,
        rx=4,
        ry=4,
        fill=colors["lastmove" if highlight else "tile"],
        stroke=colors["tile line"],
        stroke_width=1,
    )
    if code == 0:
        return  # a blank on a rack: no letter yet
    shown = face.upper()
    fs = _letter_size(shown)
    cx = x + UNIT * (0.5 if blank else 0.44)
    _el(
        g,
        "text",
        shown,
        class_="letter",
        x=cx,
        y=y + UNIT * 0.5 + fs * 0.36,
        font_family=_FONT,
        font_size=fs,
        font_weight="bold",
        text_anchor="middle",
        fill=colors["blank letter" if blank else "letter"],
    )
    if not blank:
        _el(
            g,
            "text",
            str(value),
            class_="value",
            x=x + UNIT - 4,
            y=y + UNIT - 4.5,
            font_family=_FONT,
            font_size=UNIT * 0.24,
            text_anchor="end",
            fill=colors["value"],
        )


def _star(parent: ET.Element, cx: float, cy: float, r: float, color: str) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.4
        a = -math.pi / 2 + i * math.pi / 5
        points.append(f"{_num(cx + radius * math.cos(a))},{_num(cy + radius * math.sin(a))}")
    _el(parent, "polygon", class_="star", points=" ".join(points), fill=color)


def _arrow(parent: ET.Element, tail: tuple[int, int], head: tuple[int, int], x0: float, color: str) -> None:
    (tr, tc), (hr, hc) = tail, head
    tx, ty = x0 + (tc + 0.5) * UNIT, x0 + (tr + 0.5) * UNIT
    hx, hy = x0 + (hc + 0.5) * UNIT, x0 + (hr + 0.5) * UNIT
    g = _el(parent, "g", class_="arrow", data_tail=square_name(tr, tc), data_head=square_name(hr, hc))
    if (tr, tc) == (hr, hc):
        _el(
            g,
            "circle",
            cx=tx,
            cy=ty,
            r=UNIT * 0.42,
            fill="none",
            stroke=color,
            stroke_width=UNIT * 0.12,
            stroke_opacity=0.8,
        )
        return
    length = math.hypot(hx - tx, hy - ty)
    ux, uy = (hx - tx) / length, (hy - ty) / length
    head_len, half = UNIT * 0.5, UNIT * 0.3
    bx, by = hx - ux * head_len, hy - uy * head_len  # the base of the head
    _el(
        g,
        "line",
        x1=tx,
        y1=ty,
        x2=bx,
        y2=by,
        stroke=color,
        stroke_width=UNIT * 0.16,
        stroke_linecap="round",
        stroke_opacity=0.8,
    )
    pts = [(hx, hy), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    _el(g, "polygon", points=" ".join(f"{_num(px)},{_num(py)}" for px, py in pts), fill=color, fill_opacity=0.8)


def _highlighted(lastmove: Place | Iterable[Square] | None, size: int) -> set[tuple[int, int]]:
    if lastmove is None:
        return set()
    if isinstance(lastmove, Place):
        return {(r, c) for r, c, _ in lastmove.new_tiles()}
    return {_square(sq, size) for sq in lastmove}


def _draw_board(
    parent: ET.Element,
    b: Board,
    *,
    lastmove: Place | Iterable[Square] | None,
    arrows: Iterable[Arrow | tuple[Square, Square]],
    coordinates: bool,
    colors: Mapping[str, str],
) -> float:
    """Draw ``b`` into ``parent`` from (0, 0); returns the side of the drawing."""
    n = b.size
    m = _MARGIN if coordinates else 0
    side = 2 * m + n * UNIT
    lit = _highlighted(lastmove, n)
    drawn_arrows = []
    for a in arrows:
        arrow = a if isinstance(a, Arrow) else Arrow(a[0], a[1])
        drawn_arrows.append((_square(arrow.tail, n), _square(arrow.head, n), arrow.color or colors["arrow"]))
    _el(parent, "rect", class_="margin", x=0, y=0, width=side, height=side, fill=colors["margin"])
    squares = _el(parent, "g", class_="squares")
    labels = _el(parent, "g", class_="labels")
    for r in range(n):
        for c in range(n):
            x, y = m + c * UNIT, m + r * UNIT
            ch = b.layout.premium(r, c)
            kind = _PREMIUM_CLASS.get(ch)
            cls = "square" + (f" {kind}" if kind else "") + (" start" if ch in "*+" else "")
            _el(
                squares,
                "rect",
                class_=cls,
                data_square=square_name(r, c),
                x=x,
                y=y,
                width=UNIT,
                height=UNIT,
                fill=colors[kind or "square"],
                stroke=colors["square line"],
                stroke_width=1,
            )
            if b.tile_at(r, c):
                continue
            if ch in "*+":
                _star(labels, x + UNIT / 2, y + UNIT / 2, UNIT * 0.36, colors["star"])
            elif kind:
                _el(
                    labels,
                    "text",
                    kind.upper(),
                    class_="premium",
                    data_square=square_name(r, c),
                    x=x + UNIT / 2,
                    y=y + UNIT / 2 + 4,
                    font_family=_FONT,
                    font_size=UNIT * 0.3,
                    text_anchor="middle",
                    fill=colors["premium text"],
                )
    if coordinates:
        coords = _el(parent, "g", class_="coordinates")
        for i in range(n):
            _el(
                coords,
                "text",
                column_name(i),
                class_="coord column",
                x=m + (i + 0.5) * UNIT,
                y=m - 5,
                font_family=_FONT,
                font_size=12,
                text_anchor="middle",
                fill=colors["coord"],
            )
            _el(
                coords,
                "text",
                str(i + 1),
                class_="coord row",
                x=m - 3,
                y=m + (i + 0.5) * UNIT + 4,
                font_family=_FONT,
                font_size=11 if i >= 9 else 12,
                text_anchor="end",
                fill=colors["coord"],
            )
    tiles_g = _el(parent, "g", class_="tiles")
    for r in range(n):
        for c in range(n):
            code = b.tile_at(r, c)
            if code:
                _tile(
                    tiles_g,
                    m + c * UNIT,
                    m + r * UNIT,
                    code,
                    b.tiles,
                    colors,
                    square=square_name(r, c),
                    highlight=(r, c) in lit,
                )
    for r, c in sorted(lit):
        if not b.tile_at(r, c):  # a highlighted empty square (a move not on this board)
            _el(
                tiles_g,
                "rect",
                class_="lastmove",
                data_square=square_name(r, c),
                x=m + c * UNIT + 2,
                y=m + r * UNIT + 2,
                width=UNIT - 4,
                height=UNIT - 4,
                fill=colors["lastmove"],
                fill_opacity=0.6,
            )
    if drawn_arrows:
        arrows_g = _el(parent, "g", class_="arrows")
        for tail, head, color in drawn_arrows:
            _arrow(arrows_g, tail, head, m, color)
    return side


def _rack_codes(tiles: Sequence[int] | str, tile_set: TileSet) -> tuple[int, ...]:
    return tile_set.parse(tiles) if isinstance(tiles, str) else tuple(tiles)


def _draw_rack(
    parent: ET.Element, codes: Sequence[int], tile_set: TileSet, colors: Mapping[str, str], slots: int
) -> float:
    """Draw a rack from (0, 0); returns its width (its height is UNIT + 2 * _GAP)."""
    width = slots * (UNIT + _GAP) + _GAP
    _el(parent, "rect", class_="rack", x=0, y=0, width=width, height=UNIT + 2 * _GAP, rx=5, ry=5, fill=colors["rack"])
    for i, code in enumerate(codes):
        _tile(parent, _GAP + i * (UNIT + _GAP), _GAP, code, tile_set, colors)
    return width


# -- the public drawings -----------------------------------------------------------------


def board(
    board: Board,
    *,
    lastmove: Place | Iterable[Square] | None = None,
    arrows: Iterable[Arrow | tuple[Square, Square]] = (),
    coordinates: bool = True,
    size: int | None = None,
    colors: Mapping[str, str] | None = None,
) -> Svg:
    """A board as an SVG document.

    ``lastmove`` highlights a play's new tiles (a `Place`) or any
    squares; ``arrows`` are `Arrow` values or ``(tail, head)`` pairs of squares;
    ``coordinates`` writes the column letters above and the row numbers at the left;
    ``size`` is the width in pixels (default: 40 a square); ``colors`` overrides some of
    `DEFAULT_COLORS`. Bad squares raise `NotationError`, an
    unknown colour name `LexikoError`.

    >>> from lexiko.board import Board
    >>> doc = board(Board.parse("21/" * 20 + "21", layout="super21"), coordinates=False)
    >>> doc.count('<rect class="square'), doc.count('class="square qw"'), 'width="840"' in doc
    (441, 4, True)
    >>> doc = board(Board.empty(), size=150, colors={"tw": "black"})
    >>> doc[:4], 'width="150"' in doc, doc.count('fill="black"')
    ('<svg', True, 8)
    """
    c = _colors(colors)
    n = board.size
    side = n * UNIT + (2 * _MARGIN if coordinates else 0)
    root = _document(side, side, size, "lexiko-board")
    root.set("data-layout", board.layout.name)
    root.set("data-tiles", board.tiles.name)
    _draw_board(root, board, lastmove=lastmove, arrows=arrows, coordinates=coordinates, colors=c)
    return _text(root)


def rack(
    tiles: Sequence[int] | str,
    tile_set: TileSet = ENGLISH,
    *,
    slots: int | None = None,
    size: int | None = None,
    colors: Mapping[str, str] | None = None,
) -> Svg:
    """A rack as an SVG document: tile codes (``0`` a blank) or notation (``"AEINST?"``).

    ``slots`` is the rack's length in tiles (default: 7, or more when more tiles are given).

    >>> doc = rack("QU?", ENGLISH)
    >>> doc.count('class="tile"'), doc.count('class="tile blank"'), 'data-value="10"' in doc
    (2, 1, True)
    """
    c = _colors(colors)
    codes = _rack_codes(tiles, tile_set)
    n = max(slots if slots is not None else 7, len(codes), 1)
    width = n * (UNIT + _GAP) + _GAP
    root = _document(width, UNIT + 2 * _GAP, size, "lexiko-rack")
    root.set("data-tiles", tile_set.name)
    _draw_rack(root, codes, tile_set, c, n)
    return _text(root)


def position(
    position: Position,
    *,
    lastmove: Place | Iterable[Square] | None = None,
    arrows: Iterable[Arrow | tuple[Square, Square]] = (),
    coordinates: bool = True,
    size: int | None = None,
    colors: Mapping[str, str] | None = None,
) -> Svg:
    """A position as an SVG document: the board and, under it, the rack of the player on turn.

    >>> from lexiko.game import Game
    >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "DINNVWY")
    >>> doc = position(g.position())
    >>> doc.count('<rect class="square'), doc.count('class="tile"')
    (225, 7)
    """
    c = _colors(colors)
    b = position.board
    n = b.size
    side = n * UNIT + (2 * _MARGIN if coordinates else 0)
    slots = max(position.rules.rack_size, len(position.rack))
    rack_w = slots * (UNIT + _GAP) + _GAP
    height = side + UNIT + 4 * _GAP
    width = max(side, rack_w)
    root = _document(width, height, size, "lexiko-position")
    root.set("data-layout", b.layout.name)
    root.set("data-tiles", b.tiles.name)
    g_board = _el(root, "g", class_="board")
    _draw_board(g_board, b, lastmove=lastmove, arrows=arrows, coordinates=coordinates, colors=c)
    g_rack = _el(
        root, "g", class_="player-rack", transform=f"translate({_num((width - rack_w) / 2)},{_num(side + _GAP)})"
    )
    _draw_rack(g_rack, position.rack, b.tiles, c, slots)
    return _text(root)


# -- games -----------------------------------------------------------------------------


def last_play(game: Game) -> Place | None:
    """The play of the last turn if it stands on the board (not after an exchange, a
    pass or a withdrawn play); end-of-game and challenge entries are looked past.

    >>> from lexiko.game import Game
    >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "DINNVWY")
    >>> _ = g.play("8D WINDY")
    >>> last_play(g).position
    '8D'
    >>> _ = g.pass_turn()
    >>> last_play(g) is None
    True
    """
    for ev in reversed(game.history):
        if ev.kind == "play":
            return ev.move if isinstance(ev.move, Place) else None
        if ev.kind in ("exchange", "pass", "withdrawn", "lost-turn", "out-of-time"):
            return None
    return None


def _event_text(ev: Event, tiles: TileSet, before: Board) -> str:
    if ev.kind == "play" and isinstance(ev.move, Place):
        return ev.move.notation(tiles, before)
    if ev.kind == "exchange" and isinstance(ev.move, Exchange):
        return ev.move.notation(tiles)
    names = {
        "pass": "-",
        "withdrawn": "-- (withdrawn)",
        "challenge-bonus": "(challenge)",
        "challenge-penalty": "(challenge)",
        "lost-turn": "(lost turn)",
        "out-of-time": "(out of time)",
        "time-penalty": "(time)",
    }
    if ev.kind in names:
        return names[ev.kind]
    return f"({tiles.format(ev.tiles)})"  # end-of-game rack bonus or penalty


def game_html(game: Game, *, size: int | None = None) -> str:
    """A game as HTML: the board (the last play highlighted), the scores, whose turn
    it is and the move list as a table. Every text is escaped.

    >>> from lexiko.game import Game
    >>> g = Game(["Ann", "<b>Bob</b>"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "DINNVWY")
    >>> _ = g.play("8D WINDY")
    >>> page = game_html(g)
    >>> "&lt;b&gt;Bob&lt;/b&gt; to play" in page, "<td>8D WINDY</td>" in page
    (True, True)
    """
    esc = html.escape
    tiles = game.tiles
    names = game.players
    picture = board(game.board, lastmove=last_play(game), size=size)
    on_turn = game.player_on_turn
    rows = []
    for i, (name, score) in enumerate(zip(names, game.scores, strict=True)):
        mark = ' class="on-turn"' if i == on_turn and not game.is_over else ""
        rows.append(f"<tr{mark}><td>{esc(name)}</td><td>{score}</td></tr>")
    if game.is_over:
        won = game.winners()
        if game.rules.teams:
            sides = [" and ".join(names[t::2]) for t in (0, 1)]
        else:
            sides = list(names)
        result = " and ".join(sides[w] for w in won)
        verb = "draw" if len(won) > 1 else "wins"
        status = f"Game over ({game.end_reason}): {result} {verb}"
    else:
        status = f"{names[on_turn]} to play · bag {game.bag_count}"
    moves = []
    b = Board.empty(game.board.layout, tiles)
    for k, ev in enumerate(game.history, 1):
        text = _event_text(ev, tiles, b)
        if ev.kind == "play" and isinstance(ev.move, Place):
            b = b.place(ev.move)
        elif ev.kind == "withdrawn" and isinstance(ev.move, Place):
            b = b.remove([(r, c) for r, c, _ in ev.move.new_tiles()])
        rack_text = tiles.format(tiles.rack_sort(ev.rack))
        moves.append(
            f"<tr><td>{k}</td><td>{esc(names[ev.player])}</td><td>{esc(rack_text)}</td>"
            f"<td>{esc(text)}</td><td>{ev.score:+d}</td><td>{ev.total}</td></tr>"
        )
    head = "<tr><th>#</th><th>Player</th><th>Rack</th><th>Move</th><th>Score</th><th>Total</th></tr>"
    return (
        '<div class="lexiko-game" style="display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap">'
        f"<div>{picture}</div><div>"
        '<table class="lexiko-scores"><tr><th>Player</th><th>Score</th></tr>' + "".join(rows) + "</table>"
        f'<p class="lexiko-status">{esc(status)}</p>'
        f'<table class="lexiko-moves"><thead>{head}</thead><tbody>' + "".join(moves) + "</tbody></table>"
        "</div></div>"
    )


# -- files -------------------------------------------------------------------------------

_MOVE_KINDS = ("play", "exchange", "pass")


def render_file(
    gcg_path: str | Path,
    turn: int | None,
    out_path: str | Path,
    *,
    size: int | None = None,
    coordinates: bool = True,
) -> None:
    """Draw the board of a GCG record after its ``turn``-th move (plays, exchanges and
    passes counted from 1; 0 the empty board; ``None`` the end of the record) into
    ``out_path``, with that move's tiles highlighted when it is a play that stands.

    A ``.svg`` file is written as it is; a ``.png`` file needs CairoSVG
    (``pip install cairosvg``) and the Cairo library. Errors are
    `LexikoError` with a one-line message.

    >>> render_file("game.gcg", 12, "board.svg")  # doctest: +SKIP
    """
    from lexiko import gcg

    out = Path(out_path)
    kind = out.suffix.lower()
    if kind not in (".svg", ".png"):
        raise LexikoError(f"cannot write {out}: the picture must be a .svg or .png file")
    convert = _png_converter() if kind == ".png" else None
    record = gcg.read(gcg_path)
    moves = [i for i, ev in enumerate(record.events) if ev.kind in _MOVE_KINDS]
    if turn is None or turn == len(moves):
        game = record.replay()
    elif 0 <= turn < len(moves):
        cut = dataclasses.replace(record, events=record.events[: moves[turn]], final_racks={}, final_rack_lines={})
        game = cut.replay(record.rules())
    else:
        raise LexikoError(f"the record has {len(moves)} moves: --turn must be 0 to {len(moves)}")
    lastmove = last_play(game) if turn != 0 else None
    doc = board(game.board, lastmove=lastmove, size=size, coordinates=coordinates)
    try:
        write_file(out, doc.encode("utf-8") if convert is None else convert(doc))
    except OSError as e:
        raise LexikoError(f"cannot write {out}: {e.strerror or e}") from None


def _png_converter() -> _Converter:
    """CairoSVG's converter, or a LexikoError saying what to install."""
    try:
        import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise LexikoError(
            "PNG pictures need CairoSVG, which is not installed: pip install cairosvg (or write a .svg file)"
        ) from None
    except OSError:  # cairocffi found no Cairo library
        raise LexikoError(
            "PNG pictures need the Cairo library, which CairoSVG cannot load: apt-get install libcairo2 "
            "(or write a .svg file)"
        ) from None

    def convert(doc: str) -> bytes:
        png: bytes = cairosvg.svg2png(bytestring=doc.encode("utf-8"))
        return png

    return convert
