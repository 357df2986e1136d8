"""Reports of an event as text: one HTML page (standings, pairings and results, each
player's scorecard) and CSV tables. Only text: the ``lexiko tournament report`` command
writes the files.

>>> from lexiko.tournament.model import Division, Event, Pairing, Player
>>> d = Division("A")
>>> _ = d.add_player(Player("Ann", 1800)); _ = d.add_player(Player("Bo", 1700))
>>> _ = d.add_round([Pairing(1, 2)]); _ = d.record(1, 1, 420, 2, 380)
>>> print(standings_csv(Event("Club", [d])), end="")
division,rank,number,name,rating,team,wins,losses,spread,points,withdrawn
A,1,1,Ann,1800,,1,0,40,420,no
A,2,2,Bo,1700,,0,1,-40,380,no
>>> print(pairings_csv(Event("Club", [d])), end="")
division,round,first,first_name,second,second_name,first_score,second_score
A,1,1,Ann,2,Bo,420,380
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass

from lexiko.tournament.model import Division, Event
from lexiko.tournament.standings import outcome, standings, team_standings

__all__ = ["standings_csv", "pairings_csv", "scorecards_csv", "html_report", "scorecard", "CardLine", "wins_text"]


def wins_text(wins: float) -> str:
    """Wins as a report shows them: ``3``, ``2.5``.

    >>> wins_text(3.0), wins_text(2.5)
    ('3', '2.5')
    """
    return f"{wins:g}"


@dataclass(frozen=True)
class CardLine:
    """One round of a player's scorecard; ``opponent`` 0 for a bye, ``first`` None for a bye."""

    round: int
    opponent: int
    opponent_name: str
    first: bool | None
    score: int | None
    against: int | None
    wins: float
    spread: int


def scorecard(division: Division, number: int) -> list[CardLine]:
    """Player ``number``'s rounds, with the running wins and spread.

    >>> from lexiko.tournament.model import Division, Pairing, Player
    >>> d = Division("A"); _ = d.add_player(Player("Ann")); _ = d.add_player(Player("Bo"))
    >>> _ = d.add_round([Pairing(2, 1)]); _ = d.record(1, 1, 420, 2, 380)
    >>> scorecard(d, 1)
    [CardLine(round=1, opponent=2, opponent_name='Bo', first=False, score=420, against=380, wins=1.0, spread=40)]
    """
    lines = []
    wins, spread = 0.0, 0
    for r, rnd in enumerate(division.rounds, 1):
        i = rnd.pairing_of(number)
        if i is None:
            continue
        p, res = rnd.pairings[i], rnd.results[i]
        if p.second is None:
            if res is not None:
                wins += outcome(res, True)
                spread += res.first
            lines.append(CardLine(r, 0, "bye", None, res.first if res else None, None, wins, spread))
            continue
        first = p.first == number
        other = p.second if first else p.first
        score = against = None
        if res is not None:
            score, against = (res.first, res.second) if first else (res.second, res.first)
            share = outcome(res, False)
            wins += share if first else 1 - share
            spread += score - against
        lines.append(CardLine(r, other, division.players[other - 1].name, first, score, against, wins, spread))
    return lines


def _csv(rows: list[list[object]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def standings_csv(event: Event) -> str:
    """The standings of every division as CSV, with a header line."""
    rows: list[list[object]] = [
        ["division", "rank", "number", "name", "rating", "team", "wins", "losses", "spread", "points", "withdrawn"]
    ]
    for d in event.divisions:
        for s in standings(d):
            rows.append(
                [
                    d.name,
                    s.rank,
                    s.number,
                    s.name,
                    s.rating,
                    s.team,
                    wins_text(s.wins),
                    wins_text(s.losses),
                    s.spread,
                    s.points,
                    "yes" if s.withdrawn else "no",
                ]
            )
    return _csv(rows)


def pairings_csv(event: Event) -> str:
    """Every pairing of every round as CSV (a bye: no second player, its spread as the score)."""
    rows: list[list[object]] = [
        ["division", "round", "first", "first_name", "second", "second_name", "first_score", "second_score"]
    ]
    for d in event.divisions:
        for r, rnd in enumerate(d.rounds, 1):
            for p, res in zip(rnd.pairings, rnd.results, strict=True):
                second = "" if p.second is None else p.second
                second_name = "bye" if p.second is None else d.players[p.second - 1].name
                s1 = "" if res is None else res.first
                s2 = "" if res is None or p.second is None else res.second
                rows.append([d.name, r, p.first, d.players[p.first - 1].name, second, second_name, s1, s2])
    return _csv(rows)


def scorecards_csv(event: Event) -> str:
    """Every player's scorecard as CSV."""
    rows: list[list[object]] = [
        [
            "division",
            "number",
            "name",
            "round",
            "opponent",
            "opponent_name",
            "turn",
            "score",
            "against",
            "wins",
            "spread",
        ]
    ]
    for d in event.divisions:
        for n, p in enumerate(d.players, 1):
            for c in scorecard(d, n):
                turn = "" if c.first is None else "first" if c.first else "second"
                rows.append(
                    [
                        d.name,
                        n,
                        p.name,
                        c.round,
                        c.opponent or "",
                        c.opponent_name,
                        turn,
                        "" if c.score is None else c.score,
                        "" if c.against is None else c.against,
                        wins_text(c.wins),
                        c.spread,
                    ]
                )
    return _csv(rows)


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}td.n,th.n{text-align:left}"
    "tr.off td{color:#999}h2{margin-top:2em}"
)


def _table(head: list[str], rows: list[list[str]], left: set[int], classes: list[str] | None = None) -> str:
    def cell(tag: str, i: int, v: str) -> str:
        return f"<{tag}{' class=n' if i in left else ''}>{html.escape(v)}</{tag}>"

    out = ["<table><tr>" + "".join(cell("th", i, h) for i, h in enumerate(head)) + "</tr>"]
    for k, row in enumerate(rows):
        cls = f' class="{classes[k]}"' if classes and classes[k] else ""
        out.append(f"<tr{cls}>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def html_report(event: Event) -> str:
    """The event as one HTML page: per division its standings (and team standings when
    players have teams), its rounds with pairings and results, and each player's scorecard."""
    e = html.escape
    parts = [
        "<!doctype html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{e(event.name)}</title>',
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{e(event.name)}</h1>",
    ]
    for d in event.divisions:
        parts.append(f"<h2>Division {e(d.name)}</h2>")
        parts.append(f"<p>{len(d.players)} players, {len(d.rounds)} rounds paired, {e(d.settings.method)}.</p>")
        table = standings(d)
        parts.append("<h3>Standings</h3>")
        parts.append(
            _table(
                ["Rank", "Player", "Rating", "Wins", "Losses", "Spread"],
                [
                    [
                        str(s.rank),
                        f"{s.name} (#{s.number})" + (" - withdrawn" if s.withdrawn else ""),
                        str(s.rating),
                        wins_text(s.wins),
                        wins_text(s.losses),
                        f"{s.spread:+d}",
                    ]
                    for s in table
                ],
                {1},
                ["off" if s.withdrawn else "" for s in table],
            )
        )
        if any(p.team for p in d.players):
            parts.append("<h3>Teams</h3>")
            parts.append(
                _table(
                    ["Rank", "Team", "Players", "Wins", "Spread"],
                    [
                        [str(t.rank), t.team or "(none)", str(t.players), wins_text(t.wins), f"{t.spread:+d}"]
                        for t in team_standings(d)
                    ],
                    {1},
                )
            )
        for r in range(len(d.rounds), 0, -1):
            rnd = d.rounds[r - 1]
            rows = []
            for p, res in zip(rnd.pairings, rnd.results, strict=True):
                first = f"{d.players[p.first - 1].name} (#{p.first})"
                if p.second is None:
                    rows.append([first, "bye", "" if res is None else f"{res.first:+d}"])
                else:
                    second = f"{d.players[p.second - 1].name} (#{p.second})"
                    rows.append([first, second, "" if res is None else f"{res.first}-{res.second}"])
            parts.append(f"<h3>Round {r}</h3>")
            parts.append(_table(["First", "Second", "Result"], rows, {0, 1}))
        parts.append("<h3>Scorecards</h3>")
        for n, player in enumerate(d.players, 1):
            rows = [
                [
                    str(c.round),
                    c.opponent_name if not c.opponent else f"{c.opponent_name} (#{c.opponent})",
                    "" if c.first is None else "1st" if c.first else "2nd",
                    "" if c.score is None else str(c.score),
                    "" if c.against is None else str(c.against),
                    wins_text(c.wins),
                    f"{c.spread:+d}",
                ]
                for c in scorecard(d, n)
            ]
            parts.append(f"<h4>{e(player.name)} (#{n}, {player.rating})</h4>")
            parts.append(_table(["Round", "Opponent", "Turn", "For", "Against", "Wins", "Spread"], rows, {1}))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
