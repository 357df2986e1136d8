"""Chromium draws a lexiko.svg board: the screenshot has the asked size and shows the
board's colours (the structure itself is tested in tests/test_svg.py)."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from typing import Any

import pytest

from lexiko import svg
from lexiko.board import Board
from lexiko.move import Place, parse_move

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def decode_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels of an 8-bit RGB or RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xFF
        pixels.extend((line[i], line[i + 1], line[i + 2]) for i in range(0, stride, bpp))
        prev = line
    return width, height, pixels


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(x - y) <= 2 for x, y in zip(a, b, strict=True))


def test_chromium_renders_a_board_of_the_asked_size_with_its_colours(browser: Any) -> None:
    play = parse_move("8D WINDy")
    assert isinstance(play, Place)
    doc = svg.board(Board.empty().place(play), lastmove=play, arrows=[("D8", "H12")], size=320)
    page = browser.new_page(viewport={"width": 400, "height": 400})
    try:
        page.set_content(f"<!doctype html><html><body style='margin:0;background:#fff'>{doc}</body></html>")
        png = page.locator("svg").screenshot()
    finally:
        page.close()
    width, height, pixels = decode_png(png)
    assert (width, height) == (320, 320)
    colours = Counter(pixels)
    assert len(colours) > 50, "the picture is blank"
    most = colours.most_common(1)[0][0]
    assert near(most, rgb(svg.DEFAULT_COLORS["square"])), most  # plain squares cover most of the board
    for name in ("tw", "dw", "tl", "dl", "lastmove", "margin"):
        want = rgb(svg.DEFAULT_COLORS[name])
        assert sum(n for c, n in colours.items() if near(c, want)) > 100, f"no {name} colour on the picture"
    # the top-left corner is margin, A1 (scaled by 320/640) a triple word square
    assert near(pixels[0], rgb(svg.DEFAULT_COLORS["margin"]))
    assert near(pixels[12 * width + 12], rgb(svg.DEFAULT_COLORS["tw"]))
