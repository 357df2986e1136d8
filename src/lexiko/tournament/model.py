"""The values of an event: players, pairings, results, rounds, divisions and the event.

Players are numbered from 1 in the order they joined their division (as in TSH's files).
A round holds its pairings and, for each, its result once entered; a bye is a pairing
without an opponent, its result entered when it is paired. Every change to a division
checks the whole input first and applies whole or not at all.

>>> d = Division("A", Settings(method="round-robin"))
>>> for name, rating in [("Ann", 1800), ("Bo", 1700), ("Cy", 1500)]:
...     _ = d.add_player(Player(name, rating))
>>> d.add_round([Pairing(1, 2), Pairing(3, None)])
Round(Pairing(1, 2), Pairing(3, None): bye +50)
>>> d.record(1, 1, 420, 2, 380)
Round(Pairing(1, 2): 420-380, Pairing(3, None): bye +50)
>>> d.record(1, 1, 420, 3, 380)
Traceback (most recent call last):
...
lexiko.tournament.model.TournamentError: round 1 has no game between player 1 (Ann) and player 3 (Cy)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lexiko.errors import LexikoError

__all__ = [
    "TournamentError",
    "Player",
    "Pairing",
    "Result",
    "Round",
    "Settings",
    "Division",
    "Event",
    "METHODS",
]

METHODS = (
    "round-robin",
    "double-round-robin",
    "swiss",
    "king-of-the-hill",
    "initial-fontes",
    "factor",
    "elimination",
    "team-round-robin",
    "manual",
)
"""The pairing methods, by the names files and the command line use (see `lexiko.tournament.pairing`)."""


class TournamentError(LexikoError, ValueError):
    """Input an event cannot take (an unknown pairing, a result entered twice, a round
    paired too early, a file that is not an event); the event is left unchanged."""


@dataclass(frozen=True)
class Player:
    """A player of a division: ``rating`` 0 for unrated, ``team`` empty outside team events.

    >>> Player("Ann", 1800, team="North")
    Player('Ann', 1800, team='North')
    """

    name: str
    rating: int = 0
    team: str = ""
    withdrawn: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("a player needs a name")
        if self.rating < 0:
            raise TournamentError(f"a rating is a whole number of at least 0, not {self.rating}")

    def __repr__(self) -> str:
        extra = (f", team={self.team!r}" if self.team else "") + (", withdrawn=True" if self.withdrawn else "")
        return f"Player({self.name!r}, {self.rating}{extra})"


@dataclass(frozen=True)
class Pairing:
    """Player ``first`` goes first against ``second``; ``second`` is None for a bye.

    >>> Pairing(4, 7), Pairing(3, None).is_bye
    (Pairing(4, 7), True)
    """

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        """Whether this is a bye (no opponent)."""
        return self.second is None

    @property
    def players(self) -> tuple[int, ...]:
        """The one or two players of the pairing."""
        return (self.first,) if self.second is None else (self.first, self.second)

    def __repr__(self) -> str:
        return f"Pairing({self.first}, {self.second})"


@dataclass(frozen=True)
class Result:
    """The scores of a game, the first player's first; for a bye, ``first`` is the
    spread the bye counts for (50 a win by 50, -50 a forfeit loss) and ``second`` is 0.

    >>> Result(420, 380).spread, Result(400, 400).spread
    (40, 0)
    """

    first: int
    second: int

    @property
    def spread(self) -> int:
        """The first player's score minus the second's."""
        return self.first - self.second


@dataclass(frozen=True)
class Round:
    """A round: its pairings and, for each, its result or None while it is being played."""

    pairings: tuple[Pairing, ...]
    results: tuple[Result | None, ...]

    @property
    def complete(self) -> bool:
        """Whether every game of the round has its result."""
        return all(r is not None for r in self.results)

    def pairing_of(self, player: int) -> int | None:
        """The index of ``player``'s pairing in this round, or None when they were not paired."""
        for i, p in enumerate(self.pairings):
            if player == p.first or player == p.second:
                return i
        return None

    def __repr__(self) -> str:
        parts = []
        for p, r in zip(self.pairings, self.results, strict=True):
            if r is None:
                parts.append(repr(p))
            elif p.is_bye:
                parts.append(f"{p!r}: bye {r.first:+d}")
            else:
                parts.append(f"{p!r}: {r.first}-{r.second}")
        return f"Round({', '.join(parts)})"


@dataclass(frozen=True)
class Settings:
    """How a division is run.

    - ``method``: the pairing method of each round (one of `METHODS`).
    - ``rounds``: the rounds planned (0: not fixed); Gibsonization needs it.
    - ``bye_spread``: the spread a bye counts for (a win when at least 0).
    - ``missed_spread``: the spread of a round a late entry missed (a loss when below 0).
    - ``gibson``: pair a player who has clinched first place against players out of the prizes.
    - ``prizes``: the places that win a prize (who a Gibsonized player may not meet).
    - ``fontes``: the rounds initial fontes pairs within rating groups (odd: groups of ``fontes + 1``).
    - ``factor``: for factor pairing, the player ranked N meets the player ranked N + ``factor``.

    >>> Settings(method="swiss", rounds=7).method
    'swiss'
    >>> Settings(method="chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lexiko.tournament.model.TournamentError: no pairing method 'chess' (round-robin, ..., manual)
    """

    method: str = "swiss"
    rounds: int = 0
    bye_spread: int = 50
    missed_spread: int = -50
    gibson: bool = False
    prizes: int = 1
    fontes: int = 3
    factor: int = 2

    def __post_init__(self) -> None:
        check_method(self.method)
        for name in ("rounds", "prizes", "fontes", "factor"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < (0 if name == "rounds" else 1):
                raise TournamentError(f"{name} must be a whole number of at least {0 if name == 'rounds' else 1}")


def check_method(method: str) -> str:
    """``method`` if it is one of `METHODS`, else a `TournamentError` naming them."""
    if method not in METHODS:
        raise TournamentError(f"no pairing method {method!r} ({', '.join(METHODS)})")
    return method


@dataclass
class Division:
    """A division: its players (numbered from 1), its rounds, its settings.

    Change it only through its methods: each checks its input and changes nothing on error.
    """

    name: str
    settings: Settings = field(default_factory=Settings)
    players: list[Player] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    def __repr__(self) -> str:
        return (
            f"Division({self.name!r}, {self.settings.method}, {len(self.players)} players, {len(self.rounds)} rounds)"
        )

    # -- players

    def player(self, number: int) -> Player:
        """Player ``number`` (from 1), or a `TournamentError`."""
        if not 1 <= number <= len(self.players):
            raise TournamentError(f"division {self.name} has no player {number} (players are 1 to {len(self.players)})")
        return self.players[number - 1]

    def label(self, number: int) -> str:
        """``player 3 (Cy)``: how messages name a player."""
        return f"player {number} ({self.player(number).name})"

    def find(self, who: str) -> int:
        """The number of the player named ``who`` (or numbered, as text), or a `TournamentError`.

        >>> d = Division("A"); _ = d.add_player(Player("Ann Lee"))
        >>> d.find("ann lee"), d.find("1")
        (1, 1)
        """
        if who.strip().isdigit():
            number = int(who)
            self.player(number)
            return number
        matches = [i + 1 for i, p in enumerate(self.players) if p.name.casefold() == who.strip().casefold()]
        if len(matches) != 1:
            raise TournamentError(
                f"division {self.name} has no player named {who!r}"
                if not matches
                else f"{len(matches)} players of division {self.name} are named {who!r}: give a number"
            )
        return matches[0]

    def active(self) -> list[int]:
        """The numbers of the players who have not withdrawn."""
        return [i + 1 for i, p in enumerate(self.players) if not p.withdrawn]

    def add_player(self, player: Player) -> int:
        """Add ``player`` and return their number. A late entry (rounds already paired)
        gets, for each round before, a missed round counting ``settings.missed_spread``."""
        if any(p.name.casefold() == player.name.casefold() for p in self.players):
            raise TournamentError(f"division {self.name} already has a player named {player.name!r}")
        self.players.append(player)
        number = len(self.players)
        missed = Result(self.settings.missed_spread, 0)
        self.rounds = [Round((*r.pairings, Pairing(number, None)), (*r.results, missed)) for r in self.rounds]
        return number

    def withdraw(self, number: int) -> None:
        """Withdraw player ``number``: their results stay, later rounds leave them out. A
        player whose game of the current round has no result yet cannot withdraw before it
        has one (enter the result, or a forfeit with `forfeit`)."""
        player = self.player(number)
        if player.withdrawn:
            raise TournamentError(f"{self.label(number)} has already withdrawn")
        if self.rounds:
            last = self.rounds[-1]
            i = last.pairing_of(number)
            if i is not None and last.results[i] is None:
                raise TournamentError(
                    f"{self.label(number)} has a game in round {len(self.rounds)} without a result: "
                    "enter its result (or a forfeit) first"
                )
        self.players[number - 1] = dataclasses.replace(player, withdrawn=True)

    def reinstate(self, number: int) -> None:
        """Let a withdrawn player play again from the next round."""
        player = self.player(number)
        if not player.withdrawn:
            raise TournamentError(f"{self.label(number)} has not withdrawn")
        self.players[number - 1] = dataclasses.replace(player, withdrawn=False)

    # -- rounds

    def check_pairings(self, pairings: Sequence[Pairing], everyone: bool = True) -> None:
        """A `TournamentError` unless ``pairings`` pair each active player at most once
        (exactly once when ``everyone``) and nobody else."""
        seen: set[int] = set()
        for p in pairings:
            for n in p.players:
                self.player(n)
                if self.players[n - 1].withdrawn:
                    raise TournamentError(f"{self.label(n)} has withdrawn and cannot be paired")
                if n in seen:
                    raise TournamentError(f"{self.label(n)} is paired twice in one round")
                seen.add(n)
        missing = [n for n in self.active() if n not in seen]
        if missing and everyone:
            raise TournamentError(f"{', '.join(self.label(n) for n in missing)} not paired")

    def add_round(self, pairings: Iterable[Pairing], *, everyone: bool = True) -> Round:
        """Add the next round with ``pairings`` (byes get their result at once); the last
        round must be complete, and every active player paired unless not ``everyone``
        (an elimination's losers)."""
        pairings = tuple(pairings)
        self.check_next_round()
        self.check_pairings(pairings, everyone)
        bye = Result(self.settings.bye_spread, 0)
        new = Round(pairings, tuple(bye if p.is_bye else None for p in pairings))
        self.rounds.append(new)
        return new

    def check_next_round(self) -> None:
        """A `TournamentError` when the next round cannot be paired yet (or the planned rounds are over)."""
        if self.rounds and not self.rounds[-1].complete:
            missing = sum(r is None for r in self.rounds[-1].results)
            raise TournamentError(
                f"round {len(self.rounds)} of division {self.name} is not complete ({missing} result"
                f"{'s' if missing > 1 else ''} missing): enter them before pairing round {len(self.rounds) + 1}"
            )
        if self.settings.rounds and len(self.rounds) >= self.settings.rounds:
            raise TournamentError(f"division {self.name} has played all its {self.settings.rounds} rounds")
        if not self.active():
            raise TournamentError(f"division {self.name} has no players to pair")

    def unpair(self) -> Round:
        """Remove the last round, to pair it again; only while none of its games has a result."""
        if not self.rounds:
            raise TournamentError(f"division {self.name} has no round to remove")
        last = self.rounds[-1]
        if any(r is not None for p, r in zip(last.pairings, last.results, strict=True) if not p.is_bye):
            raise TournamentError(f"round {len(self.rounds)} has results: it cannot be paired again")
        return self.rounds.pop()

    def _locate(self, round_number: int, a: int, b: int | None) -> tuple[Round, int, bool]:
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentError(
                f"division {self.name} has no round {round_number}"
                + (f" (rounds 1 to {len(self.rounds)} are paired)" if self.rounds else " (no round is paired)")
            )
        rnd = self.rounds[round_number - 1]
        self.player(a)
        if b is not None:
            self.player(b)
        i = rnd.pairing_of(a)
        if i is None or (b is not None and b not in rnd.pairings[i].players) or a == b:
            other = f"{self.label(b)}" if b is not None else "anyone"
            raise TournamentError(f"round {round_number} has no game between {self.label(a)} and {other}")
        pairing = rnd.pairings[i]
        if pairing.is_bye:
            raise TournamentError(f"{self.label(a)} has a bye in round {round_number}: it has no game to enter")
        return rnd, i, pairing.first == a

    def record(self, round_number: int, a: int, score_a: int, b: int, score_b: int, *, correct: bool = False) -> Round:
        """Enter the result of the game between ``a`` and ``b`` in ``round_number`` (either order).

        A result entered before is refused unless ``correct`` (a correction); scores are
        whole numbers (a game's scores may be negative only down to -1000, never above 2000).
        """
        for s in (score_a, score_b):
            if not isinstance(s, int) or isinstance(s, bool) or not -1000 <= s <= 2000:
                raise TournamentError(f"a score is a whole number from -1000 to 2000, not {s!r}")
        rnd, i, a_first = self._locate(round_number, a, b)
        if rnd.results[i] is not None and not correct:
            old = rnd.results[i]
            assert old is not None
            raise TournamentError(
                f"round {round_number}: the game between {self.label(a)} and {self.label(b)} already has a result "
                f"({old.first}-{old.second}); correct it to change it"
            )
        result = Result(score_a, score_b) if a_first else Result(score_b, score_a)
        return self._set(round_number, i, result)

    def record_spread(
        self, round_number: int, a: int, b: int, score_a: int, score_b: int, spread: int, *, correct: bool = False
    ) -> Round:
        """Like `record`, with the spread as read on a scorecard: it must add up.

        >>> d = Division("A"); _ = d.add_player(Player("Ann")); _ = d.add_player(Player("Bo"))
        >>> _ = d.add_round([Pairing(1, 2)])
        >>> d.record_spread(1, 1, 2, 420, 380, 50)
        Traceback (most recent call last):
        ...
        lexiko.tournament.model.TournamentError: the scores 420-380 make a spread of 40, not 50
        """
        if score_a - score_b != spread:
            raise TournamentError(f"the scores {score_a}-{score_b} make a spread of {score_a - score_b}, not {spread}")
        return self.record(round_number, a, score_a, b, score_b, correct=correct)

    def forfeit(self, round_number: int, loser: int, opponent: int | None = None, *, correct: bool = False) -> Round:
        """Record that ``loser`` forfeited their game (against ``opponent``, checked when
        given): the opponent wins by the bye spread (at least 1), scored that to 0."""
        rnd, i, _ = self._locate(round_number, loser, opponent)
        pairing = rnd.pairings[i]
        other = pairing.second if pairing.first == loser else pairing.first
        assert other is not None
        if rnd.results[i] is not None and not correct:
            raise TournamentError(
                f"round {round_number}: the game between {self.label(loser)} and {self.label(other)} "
                "already has a result"
            )
        win = max(self.settings.bye_spread, 1)
        result = Result(0, win) if pairing.first == loser else Result(win, 0)
        return self._set(round_number, i, result)

    def _set(self, round_number: int, i: int, result: Result) -> Round:
        rnd = self.rounds[round_number - 1]
        results = list(rnd.results)
        results[i] = result
        self.rounds[round_number - 1] = new = Round(rnd.pairings, tuple(results))
        return new


@dataclass
class Event:
    """An event: its name and its divisions (names unique).

    >>> e = Event("Club night"); _ = e.add_division(Division("A")); e
    Event('Club night', [Division('A', swiss, 0 players, 0 rounds)])
    """

    name: str
    divisions: list[Division] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"Event({self.name!r}, {self.divisions!r})"

    def division(self, name: str | None = None) -> Division:
        """The division named ``name`` (any case), or the only one when ``name`` is None."""
        if name is None:
            if len(self.divisions) == 1:
                return self.divisions[0]
            if not self.divisions:
                raise TournamentError(f"event {self.name!r} has no division")
            names = ", ".join(d.name for d in self.divisions)
            raise TournamentError(f"event {self.name!r} has {len(self.divisions)} divisions ({names}): name one")
        for d in self.divisions:
            if d.name.casefold() == name.casefold():
                return d
        raise TournamentError(f"event {self.name!r} has no division {name!r}")

    def add_division(self, division: Division) -> Division:
        """Add ``division`` (its name must be new)."""
        if not division.name.strip():
            raise TournamentError("a division needs a name")
        if any(d.name.casefold() == division.name.casefold() for d in self.divisions):
            raise TournamentError(f"event {self.name!r} already has a division {division.name!r}")
        self.divisions.append(division)
        return division
