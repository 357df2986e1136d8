"""An event as text: lexiko's JSON event file, and TSH's ``.t`` division files.

Only text in and out (the ``lexiko tournament`` command reads and writes the files).

The JSON file holds the event's name and, per division, its settings, its players in
number order and its rounds, one pairing a line::

    {"format": "lexiko-tournament", "version": 1, "name": "Club night", "divisions": [
     {"name": "A", "settings": {"method": "swiss", ...},
      "players": [{"name": "Ann", "rating": 1800, "team": "", "withdrawn": false}, ...],
      "rounds": [
       [{"first": 1, "second": 2, "scores": [420, 380]}, {"first": 3, "bye": 50}]
      ]}]}

A pairing without ``scores`` has no result yet; a bye holds its spread.

A TSH ``.t`` file is one division, one player a line (players numbered from 1 by line):
the name, the rating, the opponents' numbers round by round (0 for a bye), a ``;`` and
the player's scores round by round (for a bye, its spread); then optional fields, each
after a ``;``: ``p12`` with 1 (went first), 2 (second) or 0 (bye) per round, ``team``
and the team's name, and ``off`` for a player who has withdrawn. A round paired but not
played has an opponent and no score. Names must not hold a word that is a number.

>>> from lexiko.tournament.model import Division, Pairing, Player
>>> d = Division("A")
>>> for name, rating in [("Lee, Ann", 1800), ("Ng, Bo", 1700), ("Ortiz, Cy", 0)]:
...     _ = d.add_player(Player(name, rating))
>>> _ = d.add_round([Pairing(2, 1), Pairing(3, None)]); _ = d.record(1, 1, 420, 2, 380)
>>> print(division_to_tsh(d), end="")
Lee, Ann 1800 2; 420; p12 2
Ng, Bo 1700 1; 380; p12 1
Ortiz, Cy 0 0; 50; p12 0
>>> division_from_tsh(division_to_tsh(d), "A") == d
True
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, fields
from typing import Any

from lexiko.tournament.model import Division, Event, Pairing, Player, Result, Round, Settings, TournamentError

__all__ = ["FORMAT", "event_to_json", "event_from_json", "division_to_tsh", "division_from_tsh"]

FORMAT = "lexiko-tournament"
"""The ``format`` field of an event file."""
VERSION = 1


def _pairing_json(p: Pairing, r: Result | None) -> dict[str, Any]:
    if p.second is None:
        return {"first": p.first, "bye": r.first if r is not None else None}
    out: dict[str, Any] = {"first": p.first, "second": p.second}
    if r is not None:
        out["scores"] = [r.first, r.second]
    return out


def event_to_json(event: Event) -> str:
    """``event`` as the text of its JSON file (one pairing a line; read back exactly by `event_from_json`).

    >>> e = Event("Club night", [Division("A")])
    >>> event_from_json(event_to_json(e)) == e
    True
    """
    parts = [
        "{",
        f' "format": "{FORMAT}", "version": {VERSION},',
        f' "name": {json.dumps(event.name, ensure_ascii=False)},',
        ' "divisions": [',
    ]
    for k, d in enumerate(event.divisions):
        parts.append("  {")
        parts.append(f'   "name": {json.dumps(d.name, ensure_ascii=False)},')
        parts.append(f'   "settings": {json.dumps(asdict(d.settings))},')
        parts.append('   "players": [')
        players = [json.dumps(asdict(p), ensure_ascii=False) for p in d.players]
        parts.append(",\n".join(f"    {p}" for p in players))
        parts.append("   ],")
        parts.append('   "rounds": [')
        rounds = []
        for rnd in d.rounds:
            lines = [f"     {json.dumps(_pairing_json(p, r))}" for p, r in zip(rnd.pairings, rnd.results, strict=True)]
            rounds.append("    [\n" + ",\n".join(lines) + "\n    ]")
        parts.append(",\n".join(rounds))
        parts.append("   ]")
        parts.append("  }" + ("," if k < len(event.divisions) - 1 else ""))
    parts.append(" ]")
    parts.append("}")
    return "\n".join(p for p in parts if p) + "\n"


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise TournamentError(f"not an event file: {where} has no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise TournamentError(f"not an event file: {where}: {key!r} is {value!r}")
    return value


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TournamentError(f"not an event file: {where}: {value!r} is not a whole number")
    return value


def event_from_json(text: str) -> Event:
    """The event of a JSON event file, checked; a `TournamentError` naming the problem
    when the text is not an event.

    >>> event_from_json('{"name": "x"}')
    Traceback (most recent call last):
    ...
    lexiko.tournament.model.TournamentError: not an event file: the file has no 'format'
    """
    try:
        data = json.loads(text)
    except ValueError as e:
        raise TournamentError(f"not an event file: not JSON ({e})") from None
    if _need(data, "format", str, "the file") != FORMAT:
        raise TournamentError(f"not an event file: its format is {data['format']!r}, not {FORMAT!r}")
    version = _need(data, "version", int, "the file")
    if version != VERSION:
        raise TournamentError(f"event file version {version} is not known (this lexiko reads version {VERSION})")
    event = Event(_need(data, "name", str, "the file"))
    for k, dd in enumerate(_need(data, "divisions", list, "the file"), 1):
        where = f"division {k}"
        name = _need(dd, "name", str, where)
        raw = _need(dd, "settings", dict, where)
        known = {f.name for f in fields(Settings)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise TournamentError(f"not an event file: {where} has unknown settings {', '.join(unknown)}")
        try:
            settings = Settings(**raw)
        except TypeError as e:
            raise TournamentError(f"not an event file: {where}: {e}") from None
        players = []
        for i, pp in enumerate(_need(dd, "players", list, where), 1):
            pw = f"{where}, player {i}"
            players.append(
                Player(
                    _need(pp, "name", str, pw),
                    _need(pp, "rating", int, pw),
                    _need(pp, "team", str, pw),
                    _need(pp, "withdrawn", bool, pw),
                )
            )
        division = Division(name, settings, players)
        for r, rr in enumerate(_need(dd, "rounds", list, where), 1):
            rw = f"{where}, round {r}"
            if not isinstance(rr, list):
                raise TournamentError(f"not an event file: {rw} is not a list of pairings")
            pairings: list[Pairing] = []
            results: list[Result | None] = []
            for pj in rr:
                first = _int(_need(pj, "first", int, rw), rw)
                if "bye" in pj:
                    pairings.append(Pairing(first, None))
                    results.append(Result(_int(pj["bye"], rw), 0))
                    continue
                second = _int(_need(pj, "second", int, rw), rw)
                pairings.append(Pairing(first, second))
                scores = pj.get("scores")
                if scores is None:
                    results.append(None)
                elif isinstance(scores, list) and len(scores) == 2:
                    results.append(Result(_int(scores[0], rw), _int(scores[1], rw)))
                else:
                    raise TournamentError(f"not an event file: {rw}: scores {scores!r} are not two numbers")
            _check_round(division, pairings, rw)
            division.rounds.append(Round(tuple(pairings), tuple(results)))
        event.add_division(division)
    return event


def _check_round(division: Division, pairings: list[Pairing], where: str) -> None:
    seen: set[int] = set()
    for p in pairings:
        for n in p.players:
            if not 1 <= n <= len(division.players):
                raise TournamentError(f"not an event file: {where} pairs player {n}, who is not in the division")
            if n in seen:
                raise TournamentError(f"not an event file: {where} pairs player {n} twice")
            seen.add(n)


# -- TSH


def division_to_tsh(division: Division) -> str:
    """``division`` as a TSH ``.t`` file (see the module's documentation)."""
    lines = []
    for n, player in enumerate(division.players, 1):
        if re.search(r"(^|\s)\d+(\s|$)", player.name) or ";" in player.name:
            raise TournamentError(f"a TSH file cannot hold the name {player.name!r} (a word that is a number, or ;)")
        if player.team and (";" in player.team or not player.team.strip()):
            raise TournamentError(f"a TSH file cannot hold the team name {player.team!r}")
        opps: list[str] = []
        scores: list[str] = []
        p12: list[str] = []
        for r, rnd in enumerate(division.rounds, 1):
            i = rnd.pairing_of(n)
            if i is None:
                if any(rnd.pairing_of(n) is not None for rnd in division.rounds[r:]):
                    raise TournamentError(
                        f"a TSH file cannot hold {division.label(n)}: not paired in round {r} but paired later"
                    )
                break
            p, res = rnd.pairings[i], rnd.results[i]
            if p.second is None:
                opps.append("0")
                p12.append("0")
                assert res is not None
                scores.append(str(res.first))
                continue
            first = p.first == n
            opps.append(str(p.second if first else p.first))
            p12.append("1" if first else "2")
            if res is not None:
                if len(scores) < len(opps) - 1:
                    raise TournamentError(f"a TSH file cannot hold {division.label(n)}: a result after a missing one")
                scores.append(str(res.first if first else res.second))
        parts = [f"{player.name} {player.rating}{''.join(' ' + o for o in opps)}", " ".join(scores)]
        if p12:
            parts.append("p12 " + " ".join(p12))
        if player.team:
            parts.append(f"team {player.team}")
        if player.withdrawn:
            parts.append("off 1")
        lines.append("; ".join(parts).rstrip() + "\n")
    return "".join(lines)


_LINE = re.compile(r"^(?P<name>\S.*?)\s+(?P<rating>\d+)(?P<opps>(?:\s+\d+)*)\s*$")


def division_from_tsh(text: str, name: str, settings: Settings | None = None) -> Division:
    """The division of a TSH ``.t`` file's text, checked (each opponent must list the
    player back in the same round); ``name`` and ``settings`` are not in the file.

    >>> division_from_tsh("Lee, Ann 1800 2; 420\\nNg, Bo 1700 3; 380\\nOrtiz, Cy 0 2; 0\\n", "A")
    Traceback (most recent call last):
    ...
    lexiko.tournament.model.TournamentError: line 1: player 1 (Lee, Ann) meets player 2 in round 1, who meets player 3
    """
    rows: list[tuple[Player, list[int], list[int], list[int]]] = []
    at: list[int] = []  # the line of each player
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue  # players are numbered by the lines that hold one
        at.append(number)
        head, *rest = line.split(";")
        m = _LINE.match(head.strip())
        if m is None:
            raise TournamentError(f"line {number}: not a TSH player line (name, rating, opponents): {line.strip()!r}")
        opps = [int(x) for x in m["opps"].split()]
        scores = []
        p12: list[int] = []
        team, off = "", False
        if rest:
            try:
                scores = [int(x) for x in rest[0].split()]
            except ValueError:
                raise TournamentError(f"line {number}: the scores are not whole numbers: {rest[0].strip()!r}") from None
            for extra in rest[1:]:
                key, _, value = extra.strip().partition(" ")
                if key == "p12":
                    p12 = [int(x) for x in value.split() if x.isdigit()]
                elif key == "team":
                    team = value.strip()
                elif key == "off":
                    off = True
        if len(scores) > len(opps):
            raise TournamentError(f"line {number}: {len(scores)} scores for {len(opps)} rounds")
        rows.append((Player(m["name"], int(m["rating"]), team, off), opps, scores, p12))
    division = Division(name, settings or Settings(), [r[0] for r in rows])
    count = max((len(r[1]) for r in rows), default=0)
    for r in range(count):
        pairings: list[Pairing] = []
        results: list[Result | None] = []
        for n, (player, opps, scores, p12) in enumerate(rows, 1):
            if r >= len(opps):
                continue
            opp = opps[r]
            score = scores[r] if r < len(scores) else None
            if opp == 0:
                pairings.append(Pairing(n, None))
                results.append(Result(score if score is not None else division.settings.bye_spread, 0))
                continue
            if not 1 <= opp <= len(rows) or opp == n:
                raise TournamentError(
                    f"line {at[n - 1]}: player {n} meets player {opp} in round {r + 1}, who is not in the file"
                )
            back = rows[opp - 1][1][r] if r < len(rows[opp - 1][1]) else None
            if back != n:
                raise TournamentError(
                    f"line {at[n - 1]}: player {n} ({player.name}) meets player {opp} in round {r + 1}, who meets "
                    + (f"player {back}" if back else "nobody")
                )
            if opp < n:
                continue  # entered from the other side
            other_scores, other_p12 = rows[opp - 1][2], rows[opp - 1][3]
            other = other_scores[r] if r < len(other_scores) else None
            if (score is None) != (other is None):
                raise TournamentError(f"line {at[n - 1]}: round {r + 1} has a score for one player of a game only")
            goes_first = (p12[r] if r < len(p12) else 0) != 2 and not (r < len(other_p12) and other_p12[r] == 1)
            pairings.append(Pairing(n, opp) if goes_first else Pairing(opp, n))
            if score is None or other is None:
                results.append(None)
            else:
                results.append(Result(score, other) if goes_first else Result(other, score))
        division.rounds.append(Round(tuple(pairings), tuple(results)))
    return division
