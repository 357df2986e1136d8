"""Rules: every option of the game as one frozen value, and named presets.

>>> r = Rules()
>>> r.rack_size, r.bingo_bonus, r.challenge_rule, r.scoreless_turn_limit
(7, 50, 'double', 6)
>>> preset("nine-tile").rack_size
9
>>> finish_line(players=3, level="intermediate").target_score
100
>>> r.replace(challenge_rule="void").challenge_rule
'void'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from lexiko.errors import RulesError
from lexiko.layouts import Layout, layout
from lexiko.tiles import TileSet, tile_set
from lexiko.wordlists import ENGLISH_LISTS, ENGLISH_TILE_SETS, SYSTEM_LISTS

__all__ = [
    "Rules",
    "ChallengeRule",
    "PRESETS",
    "preset",
    "family",
    "finish_line",
    "parse_bonus_tiers",
    "format_bonus_tiers",
    "CASUAL",
    "TOURNAMENT",
    "NINE_TILE",
    "EIGHT_TILE",
    "LEXULOUS",
    "SUPER",
    "TEAMS",
    "MOBILE",
    "CLABBERS",
    "DUPLICATE",
    "SPANISH",
    "POLISH",
    "GERMAN",
    "FRENCH",
    "CATALAN",
    "ITALIAN",
    "DUTCH",
    "PORTUGUESE",
    "BRAZILIAN",
    "NORWEGIAN",
    "SWEDISH",
    "DANISH",
    "BULGARIAN",
    "UKRAINIAN",
    "CZECH",
    "SLOVAK",
    "ROMANIAN",
    "GREEK",
    "RUSSIAN",
    "LANGUAGE_PRESETS",
]

ChallengeRule = Literal["void", "single", "double", "five-point", "ten-point"]
CHALLENGE_RULES: tuple[str, ...] = ("void", "single", "double", "five-point", "ten-point")
Variant = Literal["classic", "clabbers", "duplicate"]


def parse_bonus_tiers(value: object) -> tuple[tuple[int, int], ...]:
    """Bonus tiers from text (``"8:50"``, ``"8:50, 9:75"``; empty: none) or pairs.

    >>> parse_bonus_tiers("9:75, 8:50")
    ((8, 50), (9, 75))
    >>> parse_bonus_tiers([[8, 50]])
    ((8, 50),)
    """
    bad = f"bonus_tiers must be tiles:bonus pairs such as 8:50, not {value!r}"
    if isinstance(value, str):
        pairs: list[object] = [p.split(":") for p in value.replace(",", " ").split()]
    elif isinstance(value, list | tuple):
        pairs = list(value)
    else:
        raise ValueError(bad)
    out = []
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ValueError(bad)
        try:
            tiles, points = (int(x) for x in pair)
        except (TypeError, ValueError):
            raise ValueError(bad) from None
        if tiles < 1 or points < 0:
            raise ValueError(bad)
        out.append((tiles, points))
    return tuple(sorted(out))


def format_bonus_tiers(tiers: tuple[tuple[int, int], ...]) -> str:
    """Text of bonus tiers, as `parse_bonus_tiers` reads it (``"8:50"``)."""
    return ", ".join(f"{t}:{b}" for t, b in tiers)


@dataclass(frozen=True)
class Rules:
    """Every option of the game (see rules.md). Defaults are the tournament rules,
    except where rules.md names another default (``end_rack_rule``). Options that make
    no game raise `RulesError` naming every problem."""

    name: str = "standard"
    #: Equipment: tile set and layout by name (see `lexiko.tiles`, `lexiko.layouts`).
    tiles: str = "english"
    layout: str = "standard15"
    rack_size: int = 7
    #: Word list by name (``TWL06``, ``SOWPODS``) or a path to a file of words.
    lexicon: str = "TWL06"
    variant: Variant = "classic"
    min_players: int = 2
    max_players: int = 4
    #: Two teams of two: players 1 and 3 against 2 and 4; scores and clocks per team.
    teams: bool = False
    draw_for_first: bool = True

    #: Bonus for placing at least ``bingo_tiles`` tiles in one play.
    bingo_bonus: int = 50
    bingo_tiles: int = 7
    #: Larger bonuses for more tiles: ``(tiles, bonus)`` pairs, each above ``bingo_tiles``;
    #: a play earns the bonus of the largest tier it reaches (Lexulous-style: 40 for 7
    #: tiles, 50 for 8 is ``bingo_tiles=7, bingo_bonus=40, bonus_tiers=((8, 50),)``).
    #: Also given as text, ``"8:50"`` (see `parse_bonus_tiers`).
    bonus_tiers: tuple[tuple[int, int], ...] = ()
    first_play_min_tiles: int = 2

    #: Exchange allowed while the bag holds at least this many tiles.
    exchange_min_bag: int = 7
    max_exchanges_per_player: int | None = None
    #: An exchange only for a player holding at least this many tiles of one letter (the
    #: seeds' team rule: 3); None: any rack may exchange.
    exchange_min_same_letter: int | None = None
    exchange_is_scoreless: bool = True

    #: The game ends after this many consecutive scoreless turns (0: never).
    scoreless_turn_limit: int = 6
    #: Only passes count toward ``scoreless_turn_limit`` (German club play: "4 consecutive
    #: passes"); any other turn (an exchange, a play, a withdrawn play, a lost turn) breaks the run.
    scoreless_passes_only: bool = False
    #: ``single``: the player who went out adds every other rack once, each player
    #: subtracts their own; ``double``: out-player adds twice the other rack, the other
    #: subtracts nothing. ``double`` is a two-player rule: with 3 or more players a game
    #: applies ``single``.
    end_rack_rule: Literal["single", "double"] = "single"
    tiebreak: Literal["none", "before-adjustment"] = "none"
    #: Finish Line: the game ends when a player (or team) reaches this score.
    target_score: int | None = None

    challenge_rule: ChallengeRule = "double"
    #: ``challenged``: points of a failed challenge go to the challenged player (five-
    #: and ten-point rules); ``challenger``: the challenger loses ``challenge_points``.
    challenge_penalty_to: Literal["challenged", "challenger"] = "challenged"
    challenge_points: int = 5

    #: Clock: minutes per player (per team with teams), increment seconds per turn.
    time_minutes: float | None = None
    time_increment: float = 0.0
    max_overtime: float = 10.0
    overtime_penalty: int = 10
    #: Team rules: the match ends after this many minutes of play in all.
    match_minutes: float | None = None

    #: Duplicate (see `lexiko.duplicate`): seconds each player has to submit a move
    #: (None: no limit); the shared rack must hold at least this many vowels and
    #: consonants (a blank counts as either) up to round ``duplicate_rule_rounds``, and at
    #: least one of each after, else all its tiles go back and seven are drawn again;
    #: ``duplicate_solo_bonus`` points go to a player who alone finds the top score.
    duplicate_seconds: float | None = None
    duplicate_min_vowels: int = 2
    duplicate_min_consonants: int = 2
    duplicate_rule_rounds: int = 15
    duplicate_solo_bonus: int = 0

    def __post_init__(self) -> None:
        problems = []
        try:
            # text ("8:50") and JSON lists ([[8, 50]]) become the tuple of pairs
            object.__setattr__(self, "bonus_tiers", parse_bonus_tiers(self.bonus_tiers))
        except ValueError as e:
            problems.append(str(e))
            object.__setattr__(self, "bonus_tiers", ())
        if self.challenge_rule not in CHALLENGE_RULES:
            problems.append(f"challenge_rule must be one of {', '.join(CHALLENGE_RULES)}")
        try:
            _ = self.tile_set
            lay = self.board_layout
        except ValueError as e:
            raise RulesError(str(e)) from None
        if not 1 <= self.rack_size <= lay.size:
            problems.append(f"rack_size must be 1 to {lay.size}")
        if not 1 <= self.bingo_tiles:
            problems.append("bingo_tiles must be at least 1")
        tier_tiles = [t for t, _ in self.bonus_tiers]
        if tier_tiles and (tier_tiles[0] <= self.bingo_tiles or tier_tiles != sorted(set(tier_tiles))):
            problems.append(
                f"bonus_tiers must each be for more than bingo_tiles ({self.bingo_tiles}) tiles, "
                "no two for the same number"
            )
        if not 1 <= self.first_play_min_tiles <= self.rack_size:
            problems.append("first_play_min_tiles must be between 1 and the rack size")
        if not 1 <= self.min_players <= self.max_players:
            problems.append("min_players must be at least 1 and at most max_players")
        if self.teams and not (self.min_players <= 4 <= self.max_players):
            problems.append("team play needs four players")
        if self.exchange_min_bag < 1:
            problems.append("exchange_min_bag must be at least 1")
        if self.exchange_min_same_letter is not None and not 1 <= self.exchange_min_same_letter <= self.rack_size:
            problems.append("exchange_min_same_letter must be 1 to the rack size, or None")
        if self.scoreless_turn_limit < 0:
            problems.append("scoreless_turn_limit must be 0 (never) or more")
        if self.end_rack_rule not in ("single", "double"):
            problems.append("end_rack_rule must be 'single' or 'double'")
        if self.tiebreak not in ("none", "before-adjustment"):
            problems.append("tiebreak must be 'none' or 'before-adjustment'")
        if self.variant not in ("classic", "clabbers", "duplicate"):
            problems.append("variant must be 'classic', 'clabbers' or 'duplicate'")
        if self.challenge_penalty_to not in ("challenged", "challenger"):
            problems.append("challenge_penalty_to must be 'challenged' or 'challenger'")
        if self.time_minutes is not None and self.time_minutes <= 0:
            problems.append("time_minutes must be positive")
        for name in ("bingo_bonus", "challenge_points", "time_increment", "max_overtime", "overtime_penalty"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must be 0 or more, not {getattr(self, name)}")
        for name in ("target_score", "match_minutes", "max_exchanges_per_player"):
            value = getattr(self, name)
            if value is not None and value < 0:
                problems.append(f"{name} must be 0 or more (or None), not {value}")
        problems.extend(self._lexicon_problems())
        if self.duplicate_seconds is not None and self.duplicate_seconds <= 0:
            problems.append("duplicate_seconds must be positive")
        fits = self.rack_size < 1 or self.duplicate_min_vowels + self.duplicate_min_consonants <= self.rack_size
        if not (0 <= self.duplicate_min_vowels and 0 <= self.duplicate_min_consonants and fits):
            problems.append("duplicate_min_vowels and duplicate_min_consonants must be 0 or more and fit the rack")
        if self.duplicate_rule_rounds < 0 or self.duplicate_solo_bonus < 0:
            problems.append("duplicate_rule_rounds and duplicate_solo_bonus must be 0 or more")
        if problems:
            raise RulesError("; ".join(problems))

    def _lexicon_problems(self) -> list[str]:
        """A word list of one language never judges a game of another's tiles."""
        lex = self.lexicon.lower()
        spec = SYSTEM_LISTS.get(lex)
        if spec is not None and spec.tiles != self.tiles:
            return [f"lexicon {lex} is a {spec.language} list: it does not suit {self.tiles} tiles"]
        if self.lexicon.upper() in ENGLISH_LISTS and self.tiles not in ENGLISH_TILE_SETS:
            own = sorted(s.package for s in SYSTEM_LISTS.values() if s.tiles == self.tiles)
            where = f"a file, or {', '.join(own)}" if own else "a file of words, one a line"
            return [
                f"lexicon {self.lexicon} is an English list: {self.tiles} tiles need a word list of their "
                f"language ({where})"
            ]
        return []

    @property
    def tile_set(self) -> TileSet:
        """The `TileSet` named by ``tiles``."""
        return tile_set(self.tiles)

    @property
    def board_layout(self) -> Layout:
        """The `Layout` named by ``layout``."""
        return layout(self.layout)

    def bonus(self, tiles_placed: int) -> int:
        """Points a play of that many tiles earns on top of its words.

        >>> [LEXULOUS.bonus(n) for n in (6, 7, 8)], Rules().bonus(7)
        ([0, 40, 50], 50)
        """
        if tiles_placed < self.bingo_tiles:
            return 0
        points = self.bingo_bonus
        for tiles, tier in self.bonus_tiers:
            if tiles_placed >= tiles:
                points = tier
        return points

    @property
    def challenge_bonus(self) -> int:
        """Points a failed challenge gives the challenged player (0 when none)."""
        if self.challenge_penalty_to == "challenger":
            return 0
        return {"five-point": 5, "ten-point": 10}.get(self.challenge_rule, 0)

    @property
    def challenger_penalty(self) -> int:
        """Points a failed challenge costs the challenger (0 when none)."""
        if self.challenge_penalty_to == "challenger" and self.challenge_rule != "void":
            return self.challenge_points
        return 0

    @property
    def failed_challenge_loses_turn(self) -> bool:
        """True under the double-challenge rule."""
        return self.challenge_rule == "double"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any Rules)."""
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """One line naming the options that differ from ``Rules()``."""
        base = Rules()

        def shown(name: str) -> object:
            value = getattr(self, name)
            return format_bonus_tiers(value) if name == "bonus_tiers" else value

        diffs = [
            f"{f.name}={shown(f.name)!r}"
            for f in dataclasses.fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return f"{self.name}: " + (", ".join(diffs) if diffs else "standard options")


#: Casual play, the default against the computer (rules.md section 6): words are checked
#: when played and a phony is refused, not placed and challenged off.
CASUAL = Rules(name="casual", challenge_rule="void")
TOURNAMENT = Rules(name="tournament", end_rack_rule="double")
NINE_TILE = Rules(name="nine-tile", rack_size=9, bingo_tiles=7)
EIGHT_TILE = Rules(name="eight-tile", rack_size=8, bingo_tiles=8)
#: Lexulous-style games (docs/variants.md): 8-tile racks, its board and 89 tiles, 40
#: points for playing 7 tiles and 50 for all 8, words checked as they are played.
LEXULOUS = Rules(
    name="lexulous",
    rack_size=8,
    layout="lexulous15",
    tiles="lexulous",
    bingo_tiles=7,
    bingo_bonus=40,
    bonus_tiers=((8, 50),),
    challenge_rule="void",
)
SUPER = Rules(name="super", layout="super21", tiles="super-english", end_rack_rule="double")
MOBILE = Rules(name="mobile", layout="mobile15", tiles="mobile", bingo_bonus=35, challenge_rule="void")
TEAMS = Rules(
    name="teams",
    teams=True,
    min_players=4,
    max_players=4,
    challenge_rule="single",
    challenge_penalty_to="challenger",
    challenge_points=5,
    exchange_min_bag=11,
    exchange_min_same_letter=3,
    exchange_is_scoreless=False,
    scoreless_turn_limit=8,
    time_minutes=15,
    # a team out of its 15 minutes cannot move any more: no overtime, no penalty
    max_overtime=0,
    overtime_penalty=0,
    match_minutes=30,
    lexicon="SOWPODS",
)
CLABBERS = Rules(name="clabbers", variant="clabbers")
DUPLICATE = Rules(
    name="duplicate",
    variant="duplicate",
    min_players=1,
    max_players=10_000,
    challenge_rule="void",
    duplicate_seconds=180,
)
# Languages play with Debian's spelling lists by default (casual lists: lexiko.wordlists)
SPANISH = Rules(name="spanish", tiles="spanish", lexicon="wspanish", exchange_min_bag=1, scoreless_turn_limit=12)
POLISH = Rules(
    name="polish", tiles="polish", lexicon="wpolish", max_exchanges_per_player=3, exchange_is_scoreless=False
)
GERMAN = Rules(name="german", tiles="german", lexicon="wngerman", scoreless_turn_limit=4, scoreless_passes_only=True)
FRENCH = Rules(name="french", tiles="french", lexicon="wfrench")
CATALAN = Rules(name="catalan", tiles="catalan", lexicon="wcatalan")
ITALIAN = Rules(name="italian", tiles="italian", lexicon="witalian")
DUTCH = Rules(name="dutch", tiles="dutch", lexicon="wdutch")
PORTUGUESE = Rules(name="portuguese", tiles="portuguese", lexicon="wportuguese")
BRAZILIAN = Rules(name="brazilian", tiles="portuguese", lexicon="wbrazilian")
NORWEGIAN = Rules(name="norwegian", tiles="norwegian", lexicon="wnorwegian")
SWEDISH = Rules(name="swedish", tiles="swedish", lexicon="wswedish")
DANISH = Rules(name="danish", tiles="danish", lexicon="wdanish")
BULGARIAN = Rules(name="bulgarian", tiles="bulgarian", lexicon="wbulgarian")
UKRAINIAN = Rules(name="ukrainian", tiles="ukrainian", lexicon="wukrainian")
# no plain list in Debian: the words of its Aspell dictionary (lexiko.aspell)
CZECH = Rules(name="czech", tiles="czech", lexicon="aspell-cs")
SLOVAK = Rules(name="slovak", tiles="slovak", lexicon="aspell-sk")
ROMANIAN = Rules(name="romanian", tiles="romanian", lexicon="aspell-ro")
GREEK = Rules(name="greek", tiles="greek", lexicon="aspell-el")
RUSSIAN = Rules(name="russian", tiles="russian", lexicon="aspell-ru")
LANGUAGE_PRESETS = (
    ITALIAN,
    DUTCH,
    PORTUGUESE,
    BRAZILIAN,
    NORWEGIAN,
    SWEDISH,
    DANISH,
    BULGARIAN,
    UKRAINIAN,
    CZECH,
    SLOVAK,
    ROMANIAN,
    GREEK,
    RUSSIAN,
)
"""The presets of the languages added after the first five (each the standard rules)."""


def family(players: int = 2) -> Rules:
    """The seeds' family rules: free (single) challenges, the game ends when every
    player has passed twice in a row, each player subtracts their own rack, ties go
    to the higher score before that adjustment."""
    return Rules(
        name="family",
        challenge_rule="single",
        scoreless_turn_limit=2 * players,
        end_rack_rule="single",
        tiebreak="before-adjustment",
    )


_FINISH_TARGETS = {
    "beginner": {2: 70, 3: 60, 4: 50},
    "intermediate": {2: 120, 3: 100, 4: 90},
    "expert": {2: 200, 3: 180, 4: 160},
}


def finish_line(players: int = 2, level: str = "intermediate") -> Rules:
    """Finish Line: play until a player reaches the target for the number of players
    and the level (beginner, intermediate, expert)."""
    try:
        target = _FINISH_TARGETS[level][players]
    except KeyError:
        raise RulesError(f"Finish Line needs 2 to 4 players and a level of {', '.join(_FINISH_TARGETS)}") from None
    return Rules(name=f"finish-line-{level}", target_score=target, challenge_rule="void")


PRESETS: dict[str, Rules] = {
    r.name: r
    for r in (
        CASUAL,
        TOURNAMENT,
        NINE_TILE,
        EIGHT_TILE,
        LEXULOUS,
        SUPER,
        MOBILE,
        TEAMS,
        CLABBERS,
        DUPLICATE,
        SPANISH,
        POLISH,
        GERMAN,
        FRENCH,
        CATALAN,
        *LANGUAGE_PRESETS,
        Rules(),
    )
}
PRESETS["family"] = family(2)
PRESETS["finish-line"] = finish_line(2, "intermediate")


def preset(name: str, players: int = 2) -> Rules:
    """The preset of that name; ``family`` and ``finish-line[-level]`` take the number
    of players into account; an unknown name is a `RulesError`.

    >>> preset("family", players=3).scoreless_turn_limit
    6
    """
    key = name.lower()
    if key == "family":
        return family(players)
    if key.startswith("finish-line"):
        level = key[len("finish-line-") :] or "intermediate"
        return finish_line(players, level)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}; known: {', '.join(sorted(PRESETS))}") from None
