"""The score of tiles a player has put on the board before playing them: the words
formed and the points, or why the placement is not allowed (in the void challenge mode
and in duplicate, also which words are not valid). Nothing is stored or changed."""

from __future__ import annotations

from typing import Any

from lexiko.duplicate import DuplicateGame
from lexiko.errors import LexikoError
from lexiko.game import word_is_valid
from lexiko.legality import check_placement
from lexiko.scoring import score_words, words_formed
from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame, placement_from_tiles

__all__ = ["preview"]


def preview(live: LiveGame, seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
    """The ``preview`` message answering ``message`` (its ``tiles``, its ``id``)."""
    out: dict[str, Any] = {"type": "preview", "id": message.get("id")}
    if live.duplicate is not None:
        return _preview_duplicate(live.duplicate, seat, message, out)
    g = live.game
    if g is None or seat is None:
        return {**out, "ok": False, "error": "only players of a game in progress can play"}
    try:
        move = placement_from_tiles(g, message.get("tiles") or [])
        move = check_placement(g.board, move, g.rules)
        rack = list(g.rack(seat))
        for t in move.rack_tiles():
            if t in rack:
                rack.remove(t)
            else:
                raise ActionError(f"{g.tiles.face(t)} is not on your rack")
        words = words_formed(g.board, move)
        if not words:
            raise ActionError("the play forms no word of two or more letters")
        points = score_words(words, move.tile_count, g.rules)
    except (LexikoError, ActionError) as e:
        return {**out, "ok": False, "error": str(e)}
    out.update(ok=True, move=move.notation(g.tiles, g.board), score=points, words=[w.text for w in words])
    if g.rules.challenge_rule == "void" and live.lexicon is not None:
        lex = live.lexicon
        bad = [w.text for w in words if not word_is_valid(lex, w.codes, g.rules)]
        out["invalid"] = bad
    return out


def _preview_duplicate(
    d: DuplicateGame, seat: int | None, message: dict[str, Any], out: dict[str, Any]
) -> dict[str, Any]:
    if seat is None or d.over:
        return {**out, "ok": False, "error": "only players of a game in progress can play"}
    try:
        move = check_placement(d.board, placement_from_tiles(d, message.get("tiles") or []), d.rules)
        rack = list(d.rack)
        for t in move.rack_tiles():
            if t not in rack:
                raise ActionError(f"{d.tiles.face(t)} is not on the rack")
            rack.remove(t)
        words = words_formed(d.board, move)
        if not words:
            raise ActionError("the play forms no word of two or more letters")
        points = score_words(words, move.tile_count, d.rules)
    except (LexikoError, ActionError) as e:
        return {**out, "ok": False, "error": str(e)}
    bad = [w.text for w in words if not word_is_valid(d.lexicon, w.codes, d.rules)]
    return {
        **out,
        "ok": True,
        "move": move.notation(d.tiles, d.board),
        "score": points,
        "words": [w.text for w in words],
        "invalid": bad,
    }
