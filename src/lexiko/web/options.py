"""Rule options as the web app offers them: a schema for the form, checking what a
client sends, and the JSON the database keeps.

>>> r = rules_from_request("tournament", {"challenge_rule": "single", "time_minutes": 25}, players=2)
>>> r.challenge_rule, r.time_minutes, r.end_rack_rule
('single', 25.0, 'double')
>>> rules_from_json(rules_to_json(r)) == r
True
>>> rules_from_request("tournament", {"rack_size": "seven"}, players=2)
Traceback (most recent call last):
...
lexiko.web.options.OptionError: rack_size must be a whole number
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Union

from lexiko.layouts import LAYOUTS
from lexiko.rules import PRESETS, Rules, parse_bonus_tiers, preset
from lexiko.tiles import TILE_SETS

__all__ = [
    "OptionError",
    "rule_schema",
    "rules_from_request",
    "rules_to_json",
    "rules_from_json",
    "preset_names",
    "HIDDEN_FIELDS",
    "UNLISTED_FIELDS",
]

#: Fields a client does not set: the name follows the preset, the number of players
#: follows the seats.
HIDDEN_FIELDS = frozenset({"name", "min_players", "max_players"})
#: Fields the form does not show but a client may send (see `rules_from_request`):
#: the bonus tiers (pairs, ``"8:50"``) follow the preset in the form.
UNLISTED_FIELDS = frozenset({"bonus_tiers"})

#: Fields that only duplicate games use, and fields duplicate games do not use (no
#: turns, challenges, exchanges or clocks of players): the form shows each where it
#: matters (``"for"`` in the schema).
DUPLICATE_ONLY = frozenset(
    {
        "duplicate_seconds",
        "duplicate_min_vowels",
        "duplicate_min_consonants",
        "duplicate_rule_rounds",
        "duplicate_solo_bonus",
    }
)
NOT_DUPLICATE = frozenset(
    {
        "variant",
        "teams",
        "draw_for_first",
        "exchange_min_bag",
        "max_exchanges_per_player",
        "exchange_min_same_letter",
        "exchange_is_scoreless",
        "scoreless_turn_limit",
        "scoreless_passes_only",
        "end_rack_rule",
        "tiebreak",
        "target_score",
        "challenge_rule",
        "challenge_penalty_to",
        "challenge_points",
        "time_minutes",
        "time_increment",
        "max_overtime",
        "overtime_penalty",
        "match_minutes",
    }
)

_HELP = {
    "tiles": "tile set (letters, counts, values)",
    "layout": "board layout",
    "rack_size": "tiles on a rack",
    "lexicon": "word list",
    "variant": "classic, or Clabbers (any anagram of a word is valid)",
    "teams": "two teams of two (players 1+3 against 2+4)",
    "draw_for_first": "draw tiles to decide who plays first",
    "bingo_bonus": "bonus for playing a full rack",
    "bingo_tiles": "tiles to play for the bonus",
    "first_play_min_tiles": "tiles in the first play, at least",
    "exchange_min_bag": "exchanges allowed while the bag has at least this many tiles",
    "max_exchanges_per_player": "exchanges allowed per player (empty: no limit)",
    "exchange_min_same_letter": "exchanges only for a rack with this many tiles of one letter (empty: any rack)",
    "exchange_is_scoreless": "an exchange counts as a scoreless turn",
    "scoreless_turn_limit": "the game ends after this many scoreless turns in a row (0: never)",
    "scoreless_passes_only": "only passes count toward that limit (German club play); other turns break the run",
    "end_rack_rule": "end of game: single (each subtracts own rack) or double (out-player adds twice)",
    "tiebreak": "ties: none (a draw) or before-adjustment",
    "target_score": "Finish Line: the game ends when a player reaches this score",
    "challenge_rule": "challenges: void (words checked at once), single, double, five-point, ten-point",
    "challenge_penalty_to": "who pays for a failed challenge",
    "challenge_points": "points a failed challenge costs the challenger (challenge_penalty_to=challenger)",
    "time_minutes": "minutes on each player's clock (empty: no clock)",
    "time_increment": "seconds added to the clock after each turn",
    "max_overtime": "minutes of overtime before a player loses on time",
    "overtime_penalty": "points lost per started minute of overtime",
    "match_minutes": "team play: the match ends after this many minutes",
    "duplicate_seconds": "duplicate: seconds to play each round (empty: until everybody has played)",
    "duplicate_min_vowels": "duplicate: vowels a rack must hold in the early rounds (else it is drawn again)",
    "duplicate_min_consonants": "duplicate: consonants a rack must hold in the early rounds",
    "duplicate_rule_rounds": "duplicate: rounds the vowel and consonant minimums hold (then one of each)",
    "duplicate_solo_bonus": "duplicate: bonus for the only player to find the top (0: none)",
}


#: The largest value a client may give each number (none may be negative): a game has
#: no use for more, and huge values would break clocks and scores. Unlisted: 1000.
_MOST = {
    "rack_size": 15,
    "bingo_tiles": 15,
    "first_play_min_tiles": 15,
    "exchange_min_same_letter": 15,
    "target_score": 10_000,
    "time_minutes": 1440,
    "max_overtime": 1440,
    "match_minutes": 10_080,
    "time_increment": 3600,
    "duplicate_seconds": 3600,
    "duplicate_min_vowels": 15,
    "duplicate_min_consonants": 15,
    "duplicate_rule_rounds": 100,
}


def _in_range(name: str, value: float) -> None:
    most = _MOST.get(name, 1000)
    if not 0 <= value <= most:
        raise OptionError(f"{name} must be from 0 to {most}, not {value:g}")


class OptionError(ValueError):
    """A rule option the client sent that cannot be used (the message says why)."""


def preset_names() -> list[str]:
    """Presets a web game can use."""
    return sorted(PRESETS)


def _choices(name: str, tp: Any, lexicons: Iterable[str]) -> list[str] | None:
    if name == "tiles":
        return sorted(TILE_SETS)
    if name == "layout":
        return sorted(LAYOUTS)
    if name == "lexicon":
        return list(lexicons)
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if typing.get_origin(tp) is Literal:
        return [str(a) for a in args if a != "duplicate"]
    return None


def _kind(tp: Any) -> tuple[str, bool]:
    """('bool' | 'int' | 'float' | 'str', optional)."""
    origin = typing.get_origin(tp)
    optional = False
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional = len(args) < len(typing.get_args(tp))
        tp = args[0] if len(args) == 1 else tp
        origin = typing.get_origin(tp)
    if origin is Literal:
        return "str", optional
    if tp is bool:
        return "bool", optional
    if tp is int:
        return "int", optional
    if tp is float:
        return "float", optional
    return "str", optional


def _hints() -> dict[str, Any]:
    return typing.get_type_hints(Rules, include_extras=False)


def rule_schema(lexicons: Iterable[str] = ("TWL06", "SOWPODS")) -> list[dict[str, Any]]:
    """Every option a client may set: name, kind, whether it may be empty, choices,
    the default (of ``Rules()``) and a line of help.

    >>> [f for f in rule_schema() if f["name"] == "challenge_rule"][0]["choices"]
    ['void', 'single', 'double', 'five-point', 'ten-point']
    """
    lex = list(lexicons)
    hints = _hints()
    base = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        if f.name in HIDDEN_FIELDS or f.name in UNLISTED_FIELDS:
            continue
        tp = hints[f.name]
        kind, optional = _kind(tp)
        out.append(
            {
                "name": f.name,
                "kind": kind,
                "optional": optional,
                "choices": _choices(f.name, tp, lex),
                "default": getattr(base, f.name),
                "help": _HELP.get(f.name, ""),
                "max": _MOST.get(f.name, 1000) if kind in ("int", "float") else None,
                "for": "duplicate" if f.name in DUPLICATE_ONLY else "classic" if f.name in NOT_DUPLICATE else "all",
            }
        )
    return out


def _coerce(name: str, value: Any, kind: str, optional: bool, choices: list[str] | None) -> Any:
    if value is None or (value == "" and kind != "str"):
        if optional:
            return None
        raise OptionError(f"{name} needs a value")
    if kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(f"{name} must be true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise OptionError(f"{name} must be a whole number")
        try:
            f = float(value)
        except ValueError:
            raise OptionError(f"{name} must be a whole number") from None
        if not f.is_integer():
            raise OptionError(f"{name} must be a whole number")
        return int(f)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise OptionError(f"{name} must be a number")
        try:
            x = float(value)
        except ValueError:
            raise OptionError(f"{name} must be a number") from None
        if x != x or x in (float("inf"), float("-inf")):
            raise OptionError(f"{name} must be a finite number")
        return x
    if not isinstance(value, str):
        raise OptionError(f"{name} must be text")
    if choices is not None and value not in choices:
        raise OptionError(f"{name} must be one of: {', '.join(choices)}")
    return value


def rules_from_request(
    preset_name: str,
    options: Mapping[str, Any] | None,
    *,
    players: int,
    lexicons: Iterable[str] = ("TWL06", "SOWPODS"),
) -> Rules:
    """The rules of a preset with the client's changes, every value checked. Raises
    `OptionError` with a message for the client."""
    lex = list(lexicons)
    try:
        base = preset(preset_name, players=players)
    except ValueError as e:
        raise OptionError(str(e)) from None
    schema = {f["name"]: f for f in rule_schema(lex)}
    changes: dict[str, Any] = {}
    for key, value in (options or {}).items():
        if key == "bonus_tiers":
            changes[key] = _bonus_tiers(value)
            continue
        if key not in schema:
            raise OptionError(f"unknown rule option {key!r}")
        f = schema[key]
        v = _coerce(key, value, f["kind"], f["optional"], f["choices"])
        if f["kind"] in ("int", "float") and v is not None:
            _in_range(key, v)
        if v != getattr(base, key):
            changes[key] = v
    if base.variant == "duplicate" and changes.get("variant", "duplicate") != "duplicate":
        raise OptionError("the duplicate preset plays duplicate: choose another preset for other variants")
    if "lexicon" not in changes and base.lexicon not in lex and lex:
        changes["lexicon"] = lex[0]
    try:
        rules = base.replace(**changes)
    except (ValueError, TypeError) as e:
        raise OptionError(str(e)) from None
    if not rules.min_players <= players <= rules.max_players:
        lo, hi = rules.min_players, rules.max_players
        need = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
        raise OptionError(f"{rules.name} rules need {need} players, not {players}")
    return rules


def _bonus_tiers(value: Any) -> tuple[tuple[int, int], ...]:
    """Bonus tiers a client sent: text (``"8:50, 9:75"``) or pairs, in the ranges of
    ``bingo_tiles`` and ``bingo_bonus``."""
    try:
        tiers = parse_bonus_tiers(value)
    except ValueError as e:
        raise OptionError(str(e)) from None
    most_tiles, most_points = _MOST["bingo_tiles"], 1000
    for tiles, points in tiers:
        if tiles > most_tiles or points > most_points:
            raise OptionError(f"bonus_tiers may give up to {most_points} points for up to {most_tiles} tiles")
    return tiers


def rules_to_json(rules: Rules) -> str:
    """Every field of the rules as JSON."""
    return json.dumps(dataclasses.asdict(rules), sort_keys=True)


def rules_from_json(text: str) -> Rules:
    """Rules back from `rules_to_json` (unknown keys from a newer version are ignored)."""
    data = json.loads(text)
    names = {f.name for f in dataclasses.fields(Rules)}
    return Rules(**{k: v for k, v in data.items() if k in names})
