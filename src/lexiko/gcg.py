"""GCG game records: read, replay through `Game`, write.

Reading is two steps. `parse` turns the text into a `GameRecord`
(pragmas, players, events, notes), checking the form of every line. `GameRecord.replay`
plays the events through a `Game`, checking every rack, placement, score and
running total. `load` does both. Errors are `RecordError`
naming the line.

A record is at most `MAX_RECORD_BYTES` (1,000,000 bytes) and each of its lines at most
`MAX_LINE_CHARS` (10,000 characters): real games are a few kilobytes with lines of a
few hundred characters, and a file past the bounds (``/dev/zero``, a log, a database)
is refused, not read on and on.

>>> text = '''#player1 ann Ann
... #player2 bob Bob
... >ann: DINNVWY 8D WINDY +32 32
... >bob: ADEEGIL 7C GALE +16 16
... '''
>>> game = parse(text).replay()
>>> game.scores
[32, 16]
>>> print(dumps(game).splitlines()[-3:])   # an unfinished game keeps its racks
['>bob: ADEEGIL 7C GALE +16 16', '#rack1 CMMNORV', '#rack2 CDEHIOT']
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from lexiko.board import parse_position
from lexiko.errors import LexikoError, NotationError, RecordError
from lexiko.files import write_file
from lexiko.game import Event, Game, WordJudge
from lexiko.move import Exchange, Place, parse_move
from lexiko.rules import Rules, format_bonus_tiers
from lexiko.tiles import TILE_SETS, TileSet
from lexiko.wordlists import LANGUAGE_LISTS

__all__ = [
    "GameRecord",
    "RecordEvent",
    "Player",
    "parse",
    "read",
    "load",
    "dumps",
    "write",
    "record_of",
    "MAX_RECORD_BYTES",
    "MAX_LINE_CHARS",
]

MAX_RECORD_BYTES = 1_000_000
"""The largest GCG record `read` and `parse` take, in bytes (characters for text)."""

MAX_LINE_CHARS = 10_000
"""The longest line of a GCG record, in characters (a long note included)."""

_BOUND = f"a game record has at most {MAX_RECORD_BYTES:,} bytes"

RecordKind = Literal[
    "play",
    "exchange",
    "pass",
    "withdrawn",
    "challenge-bonus",
    "challenge-penalty",
    "end-rack-bonus",
    "end-rack-penalty",
    "time-penalty",
]

#: Pragmas that may appear once, before the first event.
_HEADER_PRAGMAS = {
    "character-encoding",
    "title",
    "description",
    "id",
    "lexicon",
    "game-type",
    "board-layout",
    "tile-set",
    "tile-distribution",
    "incomplete",
    "style",
    "tournament",
    "round",
    "date",
    "lexiko-rules",
}
_GAME_TYPES = {"classic", "", "standard"}
_ENCODINGS = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "iso-8859-1": "latin-1",
    "iso8859-1": "latin-1",
    "latin-1": "latin-1",
    "latin1": "latin-1",
}
_LAYOUT_NAMES = {
    "standard15": "standard15",
    "crosswordgame": "standard15",
    "standard": "standard15",
    "super21": "super21",
    "supercrosswordgame": "super21",
    "mobile15": "mobile15",
    "lexulous15": "lexulous15",
}
_RACK = re.compile(r"^[^\s()]*$")
#: Characters of a rack besides letters: the blank, brackets of a tile of several letters, and
#: the marks some tiles have (Catalan L·L, the Ukrainian apostrophe).
_RACK_MARKS = frozenset("?[]") | {
    ch for ts in TILE_SETS.values() for face in ts.letters for ch in face if not ch.isalpha()
}
_SCORE = re.compile(r"^[+-]\d+$")
_INT = re.compile(r"^-?\d+$")


@dataclass(frozen=True)
class Player:
    """A player of a record: nickname (as events name them) and full name."""

    nick: str
    name: str


@dataclass(frozen=True)
class RecordEvent:
    """One event line of a record, as written.

    ``rack`` is the rack written before the move, ``position``/``word`` a play,
    ``tiles`` exchanged tiles or the tiles in parentheses of an end-of-game line,
    ``count`` an exchange written as a number of tiles.
    """

    line: int
    nick: str
    kind: RecordKind
    rack: str
    score: int
    total: int
    position: str = ""
    word: str = ""
    tiles: str = ""
    count: int = 0
    notes: tuple[str, ...] = ()
    extra: str = ""

    def move_text(self) -> str:
        """The move as GCG writes it between rack and score."""
        if self.kind == "play":
            return f"{self.position} {self.word}"
        if self.kind == "exchange":
            return f"-{self.tiles}" if self.tiles else f"-{self.count}"
        if self.kind == "pass":
            return "-"
        if self.kind == "withdrawn":
            return "--"
        if self.kind in ("challenge-bonus", "challenge-penalty"):
            return "(challenge)"
        if self.kind == "time-penalty":
            return "(time)"
        return f"({self.tiles})"

    def to_line(self) -> str:
        """The event as one GCG line."""
        sign = "+" if self.score >= 0 else "-"
        rack = self.rack + " " if self.rack else ""
        return f">{self.nick}: {rack}{self.move_text()} {sign}{abs(self.score)} {self.total}"


@dataclass(frozen=True)
class GameRecord:
    """A parsed GCG file: pragmas (name -> value), players, events and final racks."""

    players: tuple[Player, ...]
    events: tuple[RecordEvent, ...]
    pragmas: dict[str, str] = field(default_factory=dict)
    final_racks: dict[int, str] = field(default_factory=dict)
    final_rack_lines: dict[int, int] = field(default_factory=dict)
    header_notes: tuple[str, ...] = ()

    @property
    def nicks(self) -> list[str]:
        """Player nicknames in order."""
        return [p.nick for p in self.players]

    def to_text(self) -> str:
        """The record as GCG text (UTF-8 pragma first)."""
        lines = ["#character-encoding UTF-8"]
        lines.extend(f"#note {n}" for n in self.header_notes)
        for k, v in self.pragmas.items():
            if k != "character-encoding":
                lines.append(f"#{k} {v}".rstrip())
        for i, p in enumerate(self.players, 1):
            lines.append(f"#player{i} {p.nick} {p.name}".rstrip())
        for ev in self.events:
            lines.append(ev.to_line())
            lines.extend(f"#note {n}" for n in ev.notes)
        for i in sorted(self.final_racks):
            lines.append(f"#rack{i + 1} {self.final_racks[i]}")
        return "\n".join(lines) + "\n"

    # -- replay ----------------------------------------------------------------

    def rules(self) -> Rules:
        """The rules this record was played under, as far as it shows them: tile set
        and layout from pragmas (or the letters used), lexicon, the challenge rule
        from challenge bonuses, and the end-of-game rack convention."""
        tiles = self._tile_set()
        layout = _LAYOUT_NAMES.get(self.pragmas.get("board-layout", "standard15").lower(), "standard15")
        kw: dict[str, object] = {"tiles": tiles.name, "layout": layout, "name": "record"}
        if "lexicon" in self.pragmas:
            kw["lexicon"] = self.pragmas["lexicon"].split()[0]
        elif tiles.name in LANGUAGE_LISTS:
            kw["lexicon"] = LANGUAGE_LISTS[tiles.name]  # never an English list for another language
        bonuses = {ev.score for ev in self.events if ev.kind == "challenge-bonus"}
        kw["challenge_rule"] = "ten-point" if min(bonuses, default=0) >= 10 else "five-point" if bonuses else "single"
        if any(ev.kind == "challenge-penalty" for ev in self.events):
            kw["challenge_penalty_to"] = "challenger"
            kw["challenge_points"] = max(-ev.score for ev in self.events if ev.kind == "challenge-penalty")
        kw["end_rack_rule"] = self._end_rack_rule(tiles)
        if layout == "super21" and tiles.name == "english":
            kw["tiles"] = "super-english"
        kw.update(_lexiko_rules(self.pragmas.get("lexiko-rules", "")))
        try:
            return Rules(**kw)  # type: ignore[arg-type]
        except (TypeError, ValueError) as e:
            raise RecordError(f"bad #lexiko-rules pragma: {e}") from None

    def _tile_set(self) -> TileSet:
        name = (self.pragmas.get("tile-distribution") or self.pragmas.get("tile-set") or "").lower()
        name = name.replace(" set", "").strip()
        if name in TILE_SETS:
            return TILE_SETS[name]
        if name.replace("_", "-") in TILE_SETS:
            return TILE_SETS[name.replace("_", "-")]
        letters: set[str] = set()
        for ev in self.events:
            for text in (ev.rack, ev.word, ev.tiles):
                letters.update(ch.upper() for ch in text if ch.isalpha())
        lex = self.pragmas.get("lexicon", "").upper()
        by_lexicon = {"OSPS": "polish", "FISE": "spanish", "FILE": "spanish", "ODS": "french", "RD": "german"}
        for prefix, set_name in by_lexicon.items():
            if lex.startswith(prefix):
                return TILE_SETS[set_name]
        for ts in TILE_SETS.values():
            if letters <= set(ts.letters):
                return ts
        raise RecordError(
            f"no known tile set has the letters {''.join(sorted(letters))}; name it with #tile-distribution"
        )

    def _end_rack_rule(self, tiles: TileSet) -> Literal["single", "double"]:
        for ev in self.events:
            if ev.kind == "end-rack-bonus":
                try:
                    value = tiles.rack_value(_parse_rack(ev.tiles, tiles, ev.line))
                except RecordError:
                    return "double"
                if value and ev.score == value:
                    return "single"
                return "double"
        if any(ev.kind == "end-rack-penalty" for ev in self.events):
            # penalties after an out-play mean the single convention; after scoreless turns either
            return "double"
        return "double"

    def replay(self, rules: Rules | None = None, lexicon: WordJudge | None = None) -> Game:
        """Play the record through a `Game`, checking every rack, placement, score
        and running total; raises `RecordError` naming the first bad line.

        Words are not judged (records keep phonies) unless ``lexicon`` is given, in which
        case unchallenged phonies are listed in `Game.phonies`.
        """
        return _Replay(self, rules or self.rules(), lexicon).run()


def _lexiko_rules(text: str) -> dict[str, object]:
    """Options written by lexiko itself: ``key=value`` pairs separated by ``;``."""
    out: dict[str, object] = {}
    for part in text.split(";"):
        if "=" not in part:
            continue
        k, v = (x.strip() for x in part.split("=", 1))
        value: object = v
        if v in ("true", "false"):
            value = v == "true"
        elif v == "none":
            value = None
        elif _INT.match(v):
            value = int(v)
        else:
            try:
                value = float(v)
            except ValueError:
                pass
        out[k.replace("-", "_")] = value
    return out


def _parse_rack(text: str, tiles: TileSet, line: int) -> tuple[int, ...]:
    try:
        return tuple(tiles.parse_token(t.upper()) if t != "?" else 0 for t in tiles.tokens(text))
    except NotationError:
        raise RecordError(f"malformed rack {text!r}", line) from None


# -- parsing -------------------------------------------------------------------


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.splitlines()
    encoding: str | None = None
    for i, raw in enumerate(lines, 1):
        if raw.startswith(b"#character-encoding"):
            if i != 1:
                raise RecordError("#character-encoding must be the first line", i)
            name = raw[len(b"#character-encoding") :].decode("ascii", "replace").strip().lower()
            if name not in _ENCODINGS:
                raise RecordError(f"unsupported character encoding {name!r} (UTF-8 and ISO-8859-1 are)", 1)
            encoding = _ENCODINGS[name]
    if encoding is None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RecordError(f"text is not valid {encoding}", line) from None


def parse(source: str | bytes) -> GameRecord:
    """Parse GCG text (or bytes, decoded by the ``#character-encoding`` pragma, UTF-8 or
    else Latin-1). Checks the form of every line; see `GameRecord.replay` for the
    game itself."""
    if len(source) > MAX_RECORD_BYTES:
        unit = "bytes" if isinstance(source, bytes) else "characters"
        raise RecordError(f"the record has {len(source):,} {unit}; {_BOUND}")
    text = _decode(source) if isinstance(source, bytes) else source
    if isinstance(source, str):
        first = text.lstrip("\ufeff").split("\n", 1)[0]
        for i, line in enumerate(text.splitlines(), 1):
            if line.startswith("#character-encoding") and i != 1:
                raise RecordError("#character-encoding must be the first line", i)
        if first.startswith("#character-encoding"):
            name = first[len("#character-encoding") :].strip().lower()
            if name not in _ENCODINGS:
                raise RecordError(f"unsupported character encoding {name!r} (UTF-8 and ISO-8859-1 are)", 1)
    text = unicodedata.normalize("NFC", text.lstrip("\ufeff"))
    return _Parser(text).run()


class _Parser:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.players: dict[int, Player] = {}
        self.pragmas: dict[str, str] = {}
        self.events: list[RecordEvent] = []
        self.final_racks: dict[int, str] = {}
        self.final_rack_lines: dict[int, int] = {}
        self.header_notes: list[str] = []
        self.in_note = False

    def run(self) -> GameRecord:
        if not any(line.strip() for line in self.lines):
            raise RecordError("the file is empty")
        for i, raw in enumerate(self.lines, 1):
            if len(raw) > MAX_LINE_CHARS:
                raise RecordError(
                    f"the line has {len(raw):,} characters; a game record's lines have at most {MAX_LINE_CHARS:,}", i
                )
            line = raw.rstrip()
            if not line.strip():
                continue
            if line.startswith("#"):
                self._pragma(i, line)
            elif line.startswith(">"):
                self._event(i, line)
                self.in_note = False
            elif self.in_note:
                self._add_note(line.strip())
            else:
                raise RecordError(f"{line.strip()[:40]!r} is neither a pragma (#) nor an event (>)", i)
        if not self.players:
            raise RecordError("no #player lines")
        count = max(self.players)
        if sorted(self.players) != list(range(1, count + 1)):
            raise RecordError("players must be numbered #player1, #player2 ... without gaps")
        return GameRecord(
            players=tuple(self.players[i] for i in range(1, count + 1)),
            events=tuple(self.events),
            pragmas=self.pragmas,
            final_racks=self.final_racks,
            final_rack_lines=self.final_rack_lines,
            header_notes=tuple(self.header_notes),
        )

    def _add_note(self, text: str) -> None:
        last = self.events[-1]
        notes = last.notes
        if self.in_note and notes:
            notes = notes[:-1] + (notes[-1] + "\n" + text,)
        else:
            notes = notes + (text,)
        self.events[-1] = replace(last, notes=notes)

    def _pragma(self, i: int, line: str) -> None:
        name, _, value = line[1:].partition(" ")
        name = name.strip().lower()
        value = value.strip()
        self.in_note = False
        m = re.fullmatch(r"player(\d+)", name)
        if m:
            n = int(m.group(1))
            if self.events:
                raise RecordError(f"#player{n} comes after the first event", i)
            if n in self.players:
                raise RecordError(f"#player{n} is declared twice", i)
            nick, _, full = value.partition(" ")
            if not nick:
                raise RecordError(f"#player{n} needs a nickname", i)
            for p in self.players.values():
                if p.nick == nick:
                    raise RecordError(f"two players have the nickname {nick!r}", i)
                if p.name == (full.strip() or nick):
                    raise RecordError(f"two players have the name {p.name!r}", i)
            self.players[n] = Player(nick, full.strip() or nick)
            return
        m = re.fullmatch(r"rack(\d+)", name)
        if m:
            n = int(m.group(1)) - 1
            if not value or not _RACK.match(value) or not all(ch.isalpha() or ch in _RACK_MARKS for ch in value):
                raise RecordError(f"malformed rack {value!r}", i)
            if n in self.final_racks:
                raise RecordError(f"#rack{n + 1} is given twice", i)
            self.final_racks[n] = value
            self.final_rack_lines[n] = i
            return
        if name == "note":
            if not self.events:
                if self.players:
                    raise RecordError("#note before the first event (notes follow the event they are about)", i)
                self.header_notes.append(value)
                return
            self._add_note(value)
            self.in_note = True
            return
        if name in _HEADER_PRAGMAS:
            if self.events:
                raise RecordError(f"#{name} comes after the first event", i)
            if name in self.pragmas:
                raise RecordError(f"#{name} is given twice", i)
            if name == "game-type" and value.lower() not in _GAME_TYPES:
                raise RecordError(f"unrecognized game variant {value!r}", i)
            self.pragmas[name] = value
            return
        # Unknown pragmas are kept (other programs write their own) if before events.
        if not self.events and name not in self.pragmas:
            self.pragmas[name] = value

    def _event(self, i: int, line: str) -> None:
        if self.final_racks:
            raise RecordError("event after a final #rack line", i)
        head, sep, rest = line[1:].partition(":")
        nick = head.strip()
        if not sep or not nick:
            raise RecordError("an event line starts with >nickname:", i)
        if nick not in {p.nick for p in self.players.values()}:
            if len(self.players) < 2:
                raise RecordError(f"event for {nick!r} before the players are declared", i)
            raise RecordError(f"no player has the nickname {nick!r}", i)
        tokens = rest.split()
        self.events.append(_event_from_tokens(i, nick, tokens))


def _event_from_tokens(i: int, nick: str, tokens: list[str]) -> RecordEvent:
    if not tokens:
        raise RecordError("empty event", i)
    rack = ""
    if not tokens[0].startswith("("):
        rack = tokens.pop(0)
        if not _RACK.match(rack) or not all(ch.isalpha() or ch in _RACK_MARKS for ch in rack):
            raise RecordError(f"malformed rack {rack!r}", i)
    if not tokens:
        raise RecordError("event has no move", i)
    what = tokens[0]

    def numbers(at: int) -> tuple[int, int, str]:
        if len(tokens) < at + 2 or not _SCORE.match(tokens[at]) or not _INT.match(tokens[at + 1]):
            raise RecordError("event needs a score like +24 and a running total", i)
        return int(tokens[at]), int(tokens[at + 1]), " ".join(tokens[at + 2 :])

    if what.startswith("(") and what.endswith(")"):
        inner = what[1:-1]
        score, total, extra = numbers(1)
        if inner.lower() == "challenge":
            kind: RecordKind = "challenge-bonus" if score >= 0 else "challenge-penalty"
            return RecordEvent(i, nick, kind, rack, score, total, extra=extra)
        if inner.lower() == "time":
            return RecordEvent(i, nick, "time-penalty", rack, score, total, extra=extra)
        if not inner or not all(ch.isalpha() or ch in _RACK_MARKS for ch in inner):
            raise RecordError(f"malformed rack {what!r}", i)
        kind = "end-rack-penalty" if rack else "end-rack-bonus"
        return RecordEvent(i, nick, kind, rack, score, total, tiles=inner, extra=extra)
    if not rack:
        raise RecordError("a move needs the rack it was made from", i)
    if what == "--":
        score, total, extra = numbers(1)
        return RecordEvent(i, nick, "withdrawn", rack, score, total, extra=extra)
    if what == "-":
        score, total, extra = numbers(1)
        return RecordEvent(i, nick, "pass", rack, score, total, extra=extra)
    if what.startswith("-"):
        body = what[1:]
        score, total, extra = numbers(1)
        if body.isdigit():
            return RecordEvent(i, nick, "exchange", rack, score, total, count=int(body), extra=extra)
        if not all(ch.isalpha() or ch in _RACK_MARKS for ch in body):
            raise RecordError(f"malformed exchange {what!r}", i)
        return RecordEvent(i, nick, "exchange", rack, score, total, tiles=body, count=len(body), extra=extra)
    try:
        parse_position(what, 21)
    except NotationError:
        raise RecordError(f"{what!r} is not a position, exchange, pass or end-of-game count", i) from None
    if len(tokens) < 2:
        raise RecordError("a play needs a position and a word", i)
    score, total, extra = numbers(2)
    return RecordEvent(i, nick, "play", rack, score, total, position=what, word=tokens[1], extra=extra)


def read(path: str | Path) -> GameRecord:
    """Parse a GCG file (of at most `MAX_RECORD_BYTES`: a larger one, or an endless
    device, is a `RecordError` once that much is read)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:  # a NUL in the name
        raise RecordError(f"cannot read {str(path)!r}: a file name holds no NUL character") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{path} holds more than a game record: {_BOUND}")
    return parse(data)


def load(path: str | Path, rules: Rules | None = None, lexicon: WordJudge | None = None) -> Game:
    """Read a GCG file and replay it: the game as the record left it."""
    return read(path).replay(rules, lexicon)


# -- replay ----------------------------------------------------------------------


class _Replay:
    def __init__(self, record: GameRecord, rules: Rules, lexicon: WordJudge | None) -> None:
        self.rec = record
        self.rules = rules
        self.tiles = rules.tile_set
        self.lexicon = lexicon
        self.index = {p.nick: i for i, p in enumerate(record.players)}
        self.cursor = 0  # history events matched so far
        self._skip: set[int] = set()  # history events matched out of order
        self._order: list[int] = []

    def run(self) -> Game:
        rec = self.rec
        first = self.index[rec.events[0].nick] if rec.events else 0
        rules = self.rules.replace(
            min_players=min(self.rules.min_players, len(rec.players)),
            draw_for_first=False,
        )
        try:
            game = Game(rec.nicks, rules, seed=0, lexicon=self.lexicon, first_player=first, deal=False)
        except LexikoError as e:
            raise RecordError(str(e)) from None
        self.game = game
        for k, ev in enumerate(rec.events):
            self.k = k
            try:
                self._event(ev)
            except RecordError:
                raise
            except LexikoError as e:
                raise RecordError(f"{e}  ({ev.to_line()})", ev.line) from None
        self._end_without_a_line()
        for p, rack in rec.final_racks.items():
            line = rec.final_rack_lines.get(p)
            if p >= len(rec.players):
                raise RecordError(f"#rack{p + 1}: there is no player {p + 1}", line)
            try:
                game.set_rack(p, _parse_rack(rack, self.tiles, line or 0))
            except LexikoError as e:
                raise RecordError(str(e), line) from None
        return game

    def _end_without_a_line(self) -> None:
        """End the game as lexiko's ``#lexiko-end`` pragma says (a loss on time, a
        resignation, a target reached and accepted, the match clock), for endings GCG has
        no line for."""
        g = self.game
        end = self.rec.pragmas.get("lexiko-end", "").split()
        if not end or g.is_over:
            return
        if end[0] == "time" and len(end) > 1 and end[1] in self.index:
            g.flag(self.index[end[1]])
        elif end[0] == "resigned" and len(end) > 1 and end[1] in self.index:
            g.resign(self.index[end[1]])
        elif g.awaiting_final_challenge:
            g.accept(player=self._challenger(g.history[-1]))

    def _expect(self, ev: RecordEvent, kinds: Iterable[str]) -> Event:
        """The next unmatched history event must be of one of these kinds and belong
        to the record event's player; scores and totals must agree."""
        hist = self.game.history
        if self.cursor >= len(hist):
            raise RecordError(f"{_describe(ev)} does not follow from the game so far", ev.line)
        got = hist[self.cursor]
        if got.kind not in kinds or self.game.players[got.player] != ev.nick:
            raise RecordError(
                f"{_describe(ev)} comes before {self.game.players[got.player]}'s {got.kind.replace('-', ' ')}",
                ev.line,
            )
        self.cursor += 1
        self._check_numbers(ev, got)
        return got

    def _expect_end(self, ev: RecordEvent) -> Event:
        """End-of-game rack events may come in any order among themselves."""
        hist = self.game.history
        ends = ("end-rack-bonus", "end-rack-penalty")
        j = self.cursor
        while j < len(hist) and hist[j].kind in ends:
            if self.game.players[hist[j].player] == ev.nick and hist[j].kind == ev.kind:
                got = hist[j]
                # move the matched event to the cursor: the record's order wins
                self._order.append(j)
                self._skip.add(j)
                while self.cursor in self._skip:
                    self.cursor += 1
                self._check_numbers(ev, got)
                return got
            j += 1
        return self._expect(ev, ends)

    def _check_numbers(self, ev: RecordEvent, got: Event) -> None:
        if got.score != ev.score:
            what = f"{ev.position} {ev.word}" if ev.kind == "play" else _describe(ev)
            raise RecordError(f"{what} scores {got.score:+d}, the record says {ev.score:+d}", ev.line)
        if got.total != ev.total:
            raise RecordError(f"{ev.nick}'s running total is {got.total}, the record says {ev.total}", ev.line)

    def _player(self, ev: RecordEvent) -> int:
        return self.index[ev.nick]

    def _event(self, ev: RecordEvent) -> None:
        g = self.game
        p = self._player(ev)
        if self.cursor < len(g.history) and ev.kind not in ("end-rack-bonus", "end-rack-penalty", "time-penalty"):
            pending = g.history[self.cursor]
            raise RecordError(
                f"{_describe(ev)} comes before {g.players[pending.player]}'s {pending.kind.replace('-', ' ')}",
                ev.line,
            )
        if ev.kind in ("play", "exchange", "pass"):
            if g.is_over:
                raise RecordError(f"{_describe(ev)} after the end of the game", ev.line)
            if g.player_on_turn != p and not g.awaiting_final_challenge:
                raise RecordError(f"{ev.nick} moves out of turn: it is {g.players[g.player_on_turn]}'s turn", ev.line)
            if g.awaiting_final_challenge and ev.kind == "pass" and ev.score == 0 and p != g.history[-1].player:
                # macondo and Woogles write a failed challenge of the play that ended the game
                # (double challenge) as the challenger's lost turn, "-" +0, before the end rack
                self._check_rack(ev, p)
                g.challenge(player=p, ruling=True)
                return
            if g.awaiting_final_challenge:
                raise RecordError(f"{_describe(ev)}: the last play ended the game and was not challenged off", ev.line)
            rack = _parse_rack(ev.rack, self.tiles, ev.line)
            g.set_rack(p, rack)
        if ev.kind == "play":
            try:
                move = parse_move(f"{ev.position} {ev.word}", self.tiles, g.board)
            except NotationError as e:
                raise RecordError(str(e), ev.line) from None
            assert isinstance(move, Place)
            self._check_rack_supplies(ev, move)
            self._stack_draws(p, Counter(g.rack(p)) - Counter(move.rack_tiles()))
            g.play(move, player=p)
            self._expect(ev, ("play",))
        elif ev.kind == "exchange":
            held = list(g.rack(p))
            tiles: tuple[int, ...]
            if ev.tiles:
                tiles = _parse_rack(ev.tiles, self.tiles, ev.line)
            else:
                if ev.count > len(held) or ev.count < 1:
                    raise RecordError(f"cannot exchange {ev.count} tiles from a rack of {len(held)}", ev.line)
                tiles = tuple(held[: ev.count])
            missing = Counter(tiles) - Counter(held)
            if missing:
                raise RecordError(
                    f"exchanged tiles {self.tiles.format(list(missing.elements()))} are not on the rack {ev.rack}",
                    ev.line,
                )
            if ev.tiles:
                self._stack_draws(p, Counter(held) - Counter(tiles))
            g.exchange(tiles, player=p)
            self._expect(ev, ("exchange",))
        elif ev.kind == "pass":
            g.pass_turn(player=p)
            self._expect(ev, ("pass",))
        elif ev.kind == "withdrawn":
            last = self._last_play(ev)
            if ev.rack:
                shown = _parse_rack(ev.rack, self.tiles, ev.line)
                if Counter(shown) != Counter(last.rack):
                    raise RecordError(
                        f"the withdrawn play's rack {ev.rack} is not the rack it was played from "
                        f"({self.tiles.format(self.tiles.rack_sort(last.rack))})",
                        ev.line,
                    )
            g.challenge(player=self._challenger(last), ruling=False)
            if ev.score == 0 and last.score != 0:
                # some programs write a withdrawn play as "-- +0" with the total restored
                ev = replace(ev, score=-last.score)
            self._expect(ev, ("withdrawn",))
        elif ev.kind == "challenge-bonus":
            last = self._last_play(ev)
            g.challenge(player=self._challenger(last), ruling=True, bonus=ev.score)
            self._expect(ev, ("challenge-bonus",))
        elif ev.kind == "challenge-penalty":
            if not g.awaiting_challenge:
                raise RecordError("challenge penalty without a play to challenge", ev.line)
            g.challenge(player=p, ruling=True)
            self._expect(ev, ("challenge-penalty",))
        elif ev.kind in ("end-rack-bonus", "end-rack-penalty"):
            self._end_rack(ev)
        elif ev.kind == "time-penalty":
            if self.cursor < len(g.history):
                pending = g.history[self.cursor]
                raise RecordError(
                    f"time penalty before {g.players[pending.player]}'s {pending.kind.replace('-', ' ')}", ev.line
                )
            self._end_without_a_line()
            if not g.is_over:
                raise RecordError("time penalty before the end of the game", ev.line)
            g.apply_penalty(p, ev.score)
            self._expect(ev, ("time-penalty",))

    def _next_rack(self, p: int) -> str | None:
        """The next rack the record shows for player ``p`` after the current event:
        their next move's rack, their rack at the end, or the tiles an opponent who
        went out counted from them; None when it cannot be known (a withdrawn play)."""
        rec = self.rec
        nick = rec.players[p].nick
        for ev in rec.events[self.k + 1 :]:
            if ev.nick == nick:
                if ev.kind in ("play", "exchange", "pass", "end-rack-penalty"):
                    return ev.rack
                if ev.kind in ("withdrawn", "end-rack-bonus"):
                    return None
            elif ev.kind == "end-rack-bonus" and len(rec.players) == 2:
                return ev.tiles
        return rec.final_racks.get(p)

    def _stack_draws(self, p: int, leave: Counter[int]) -> None:
        """Put on top of the bag what ``p`` must draw after keeping ``leave`` to hold the
        next rack the record shows, so the tiles left in the bag at the end are right.
        Best effort: tiles the bag does not hold are left to `Game.set_rack`."""
        text = self._next_rack(p)
        if not text:
            return
        try:
            nxt = Counter(self.tiles.parse(text))
        except LexikoError:
            return
        if leave - nxt:
            return  # the record's next rack does not follow from this one
        draws = list((nxt - leave).elements())
        if draws:
            self.game.set_next_draws(draws, available_only=True)

    def _check_rack(self, ev: RecordEvent, p: int) -> None:
        """The rack a line shows must be the rack ``p`` holds (where the bag is empty and
        the game has no choice left)."""
        if not ev.rack:
            return
        shown = _parse_rack(ev.rack, self.tiles, ev.line)
        if Counter(shown) != Counter(self.game.rack(p)):
            held = self.tiles.format(self.tiles.rack_sort(self.game.rack(p)))
            raise RecordError(f"{ev.nick}'s rack is {held}, the record says {ev.rack}", ev.line)

    def _check_rack_supplies(self, ev: RecordEvent, move: Place) -> None:
        rack = Counter(self.game.rack(self._player(ev)))
        need = Counter(move.rack_tiles())
        missing = need - rack
        if missing:
            raise RecordError(
                f"rack {ev.rack} cannot supply {ev.word}: no {self.tiles.format(list(missing.elements()))}",
                ev.line,
            )

    def _last_play(self, ev: RecordEvent) -> Event:
        g = self.game
        hist = g.history
        if not g.awaiting_challenge or not hist:
            raise RecordError(f"{_describe(ev)} without a play to challenge", ev.line)
        for h in reversed(hist):
            if h.kind == "play":
                if g.players[h.player] != ev.nick:
                    raise RecordError(
                        f"{_describe(ev)} names {ev.nick}, but the last play was {g.players[h.player]}'s", ev.line
                    )
                return h
        raise RecordError(f"{_describe(ev)} without a play to challenge", ev.line)

    def _challenger(self, play: Event) -> int:
        n = len(self.game.players)
        return (play.player + 1) % n

    def _end_rack(self, ev: RecordEvent) -> None:
        g = self.game
        p = self._player(ev)
        if g.awaiting_final_challenge and ev.kind == "end-rack-bonus":
            g.accept(player=self._challenger(g.history[-1]))
        if not g.is_over:
            raise RecordError(f"{_describe(ev)} before the end of the game", ev.line)
        counted = _parse_rack(ev.tiles, self.tiles, ev.line)
        if ev.kind == "end-rack-penalty":
            rack = _parse_rack(ev.rack, self.tiles, ev.line)
            if Counter(rack) != Counter(counted):
                raise RecordError(f"rack {ev.rack} and counted tiles ({ev.tiles}) differ", ev.line)
        got = self._expect_end(ev)
        if got.kind != ev.kind:
            raise RecordError(f"{_describe(ev)}: the game gives {got.kind.replace('-', ' ')} here", ev.line)
        if Counter(got.tiles) != Counter(counted):
            want = self.tiles.format(got.tiles)
            raise RecordError(f"end-of-game rack ({ev.tiles}) should be ({want})", ev.line)
        if got.player != p:
            raise RecordError(f"{_describe(ev)} belongs to {g.players[got.player]}", ev.line)


def _describe(ev: RecordEvent) -> str:
    names = {
        "play": "play",
        "exchange": "exchange",
        "pass": "pass",
        "withdrawn": "withdrawn play (--)",
        "challenge-bonus": "challenge bonus",
        "challenge-penalty": "challenge penalty",
        "end-rack-bonus": "end-of-game rack points",
        "end-rack-penalty": "end-of-game rack penalty",
        "time-penalty": "time penalty",
    }
    return f"{ev.nick}'s {names[ev.kind]}"


# -- writing -----------------------------------------------------------------------


def record_of(game: Game, names: Iterable[str] | None = None) -> GameRecord:
    """The record of a game: one event per history entry (a lost turn is written as
    a pass), final racks of an unfinished game, and the rules as pragmas."""
    tiles = game.tiles
    nicks = [re.sub(r"\s+", "_", n) for n in game.players]
    full = list(names) if names is not None else list(game.players)
    players = tuple(Player(n, f) for n, f in zip(nicks, full, strict=True))
    events: list[RecordEvent] = []
    for i, ev in enumerate(game.history, 1):
        rack = tiles.format(tiles.rack_sort(ev.rack))
        nick = nicks[ev.player]
        kind: RecordKind
        if ev.kind == "play":
            assert isinstance(ev.move, Place)
            text = ev.move.notation(tiles)
            pos, word = text.split(" ")
            events.append(RecordEvent(i, nick, "play", rack, ev.score, ev.total, position=pos, word=word))
            continue
        if ev.kind == "exchange":
            assert isinstance(ev.move, Exchange)
            ex = tiles.format(tiles.rack_sort(ev.move.tiles))
            events.append(RecordEvent(i, nick, "exchange", rack, 0, ev.total, tiles=ex, count=len(ev.move.tiles)))
            continue
        if ev.kind in ("pass", "lost-turn", "out-of-time"):
            kind = "pass"
        elif ev.kind == "withdrawn":
            kind = "withdrawn"
        elif ev.kind in ("challenge-bonus", "challenge-penalty", "time-penalty"):
            kind = ev.kind
        elif ev.kind == "end-rack-bonus":
            events.append(RecordEvent(i, nick, "end-rack-bonus", "", ev.score, ev.total, tiles=tiles.format(ev.tiles)))
            continue
        else:
            kind = "end-rack-penalty"
            events.append(RecordEvent(i, nick, kind, rack, ev.score, ev.total, tiles=tiles.format(ev.tiles)))
            continue
        events.append(RecordEvent(i, nick, kind, rack, ev.score, ev.total))
    pragmas: dict[str, str] = {}
    r = game.rules
    pragmas["lexicon"] = r.lexicon
    if r.layout != "standard15":
        pragmas["board-layout"] = r.layout
    pragmas["tile-distribution"] = r.tiles
    opts = _rules_pragma(r)
    if opts:
        pragmas["lexiko-rules"] = opts
    if game.end_reason in ("time", "target", "match-time", "resigned"):
        # GCG has no line for these endings: say how the game ended, so it replays over
        loser = game.lost_on_time if game.end_reason != "resigned" else game.resigned
        pragmas["lexiko-end"] = game.end_reason + (f" {players[loser].nick}" if loser is not None else "")
    final: dict[int, str] = {}
    if not game.is_over:
        for p in range(len(game.players)):
            rack_text = tiles.format(game.rack(p))
            if rack_text:
                final[p] = rack_text
    return GameRecord(players, tuple(events), pragmas, final)


_RULE_FIELDS = (
    "rack_size",
    "bingo_bonus",
    "bingo_tiles",
    "bonus_tiers",
    "challenge_rule",
    "challenge_penalty_to",
    "challenge_points",
    "end_rack_rule",
    "scoreless_turn_limit",
    "scoreless_passes_only",
    "exchange_min_bag",
    "exchange_is_scoreless",
    "tiebreak",
    "variant",
    "teams",
    "target_score",
)


def _rules_pragma(r: Rules) -> str:
    base = Rules()
    parts = []
    for f in _RULE_FIELDS:
        v = getattr(r, f)
        if v != getattr(base, f) or f in ("challenge_rule", "end_rack_rule"):
            text = "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
            if f == "bonus_tiers":
                text = format_bonus_tiers(v)
            parts.append(f"{f.replace('_', '-')}={text}")
    return "; ".join(parts)


def dumps(game: Game | GameRecord) -> str:
    """GCG text of a game (or of a parsed record)."""
    rec = game if isinstance(game, GameRecord) else record_of(game)
    return rec.to_text()


def write(game: Game | GameRecord, path: str | Path) -> None:
    """Write a game (or record) as a GCG file, UTF-8, whole or not at all and only over a
    file (see `lexiko.files.write_file`)."""
    write_file(path, dumps(game).encode("utf-8"))
