"""An event in the browser: a director creates it on its page, four people register by
its link, four computer players fill the other seats, three Swiss rounds are paired as
the games end; people resign their games against the computer on the game page, the
director enters the results of games between people, and a spectator's page follows the
standings without reloading. Results and standings are checked against
`lexiko.tournament` computed from the same results."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import webharness
from webharness import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PEOPLE = (("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Di", 1600))


def api_view(server: Server, event_id: str) -> dict[str, Any]:
    return dict(server.http.get(f"/api/events/{event_id}").json())


def wait_view(server: Server, event_id: str, pred: Any, timeout: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        v = api_view(server, event_id)
        if pred(v):
            return v
        assert time.monotonic() < deadline, f"the event did not get there: {v}"
        time.sleep(0.2)


def library_standings(view: dict[str, Any]) -> list[tuple[int, str, float, int]]:
    """The standings `lexiko.tournament` computes from the view's results, named as the
    page names players."""
    return [(rank, f"{name} ({n})", wins, spread) for rank, name, n, wins, spread in webharness.library_standings(view)]


def page_standings(page: Any) -> list[tuple[int, str, float, int]]:
    rows = page.locator("#standings-0 tbody tr").all()
    out = []
    for row in rows:
        cells = [c.inner_text() for c in row.locator("td").all()]
        out.append((int(cells[0]), cells[1], float(cells[2]), int(cells[4].replace("+", ""))))
    return out


def test_an_event_of_four_people_and_four_bots_over_three_rounds(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'events.db'}", bot_delay=0.0) as server:

        def context_page() -> Any:
            # bypass_csp: the app forbids eval, which Playwright's wait_for_function uses
            page = browser.new_context(bypass_csp=True, viewport={"width": 1100, "height": 900}).new_page()
            page.on("dialog", lambda d: d.accept())
            return page

        director = context_page()
        director.goto(server.url + "/")
        director.click("#new-event-link")
        director.fill("#event-name", "Club night")
        director.fill("#event-rounds", "3")
        director.fill("#event-minutes", "10")
        director.click("#create-event")
        director.locator("#register-link").wait_for()
        event_id = director.url.rsplit("/", 1)[1]
        link = director.locator("#register-link").get_attribute("href")
        assert link is not None and link.startswith(f"/event/{event_id}/register/")

        people: dict[str, Any] = {}
        for name, rating in PEOPLE:
            page = context_page()
            page.goto(server.url + link)
            page.locator("#register-division option").first.wait_for(state="attached")
            page.fill("#register-name", name)
            page.fill("#register-rating", str(rating))
            page.click("#register-button")
            page.locator("#you-line").filter(has_text=f"You are {name}").wait_for()
            people[name] = page
        director.select_option("#bot-kind", "greedy")
        for n in range(5, 9):
            director.click("#add-bot")
            director.locator("#division-0 p.muted").filter(has_text=f"{n} players").wait_for()
        spectator = context_page()
        spectator.goto(f"{server.url}/event/{event_id}")
        spectator.locator("#standings-0 tbody tr").nth(7).wait_for()
        director.click("#start")
        director.locator("#division-0 .round[data-round='1']").wait_for()

        names = {p["number"]: p["name"] for p in api_view(server, event_id)["divisions"][0]["players"]}
        humans = {n for n, name in names.items() if name in people}
        entered: dict[tuple[int, int], list[int]] = {}
        for r in range(1, 4):
            view = wait_view(server, event_id, lambda v, r=r: len(v["divisions"][0]["paired"]) == r)
            pairings = view["divisions"][0]["paired"][r - 1]["pairings"]
            for p in pairings:  # each person's page shows their table and opponent
                for me, other in ((p["first"], p["second"]), (p["second"], p["first"])):
                    if me in humans:
                        line = people[names[me]].locator("#you-game")
                        line.filter(has_text=f"Round {r}, table {p['table']}: you play {names[other]}").wait_for()
            for p in pairings:
                a, b = p["first"], p["second"]
                if a in humans and b in humans:  # the director enters it on the page
                    director.fill("#result-round", str(r))
                    director.fill("#result-player", str(a))
                    director.fill("#result-score", str(400 + r))
                    director.fill("#result-opponent", str(b))
                    director.fill("#result-opponent-score", str(380 - a))
                    director.click("#enter-result")
                    director.locator(f"#division-0 .round[data-round='{r}'] li[data-first='{a}']").filter(
                        has_text=f"{400 + r}–{380 - a}"
                    ).wait_for()
                    entered[r, a] = [400 + r, 380 - a]
                elif a in humans or b in humans:  # the person resigns on the game page
                    page = people[names[a if a in humans else b]]
                    page.click("#play-link")
                    page.wait_for_url(f"**/game/{p['game_id']}")
                    page.locator("#resign:not([hidden])").wait_for()
                    page.click("#resign")
                    page.locator("#result h2").wait_for()
                    if r == 1 and a in humans:
                        page.screenshot(path=str(artifacts / "event-game.png"))
                    page.goto(f"{server.url}/event/{event_id}")
            wait_view(server, event_id, lambda v, r=r: v["divisions"][0]["paired"][r - 1]["complete"])
            if r == 1:
                director.screenshot(path=str(artifacts / "event-director.png"), full_page=True)

        view = wait_view(server, event_id, lambda v: v["status"] == "over")
        spectator.locator("#event-status[data-status='over']").wait_for(timeout=10_000)
        spectator.screenshot(path=str(artifacts / "event-standings.png"), full_page=True)
        div = view["divisions"][0]
        assert [len(r["pairings"]) for r in div["paired"]] == [4, 4, 4]
        for rnd in div["paired"]:
            for p in rnd["pairings"]:
                a, b = p["first"], p["second"]
                if (rnd["round"], a) in entered:
                    assert p["scores"] == entered[rnd["round"], a]
                    continue
                result = server.http.get(f"/api/games/{p['game_id']}/state").json()["result"]
                (winner,) = result["winners"]
                if result["scores"][winner] > result["scores"][1 - winner]:
                    assert p["scores"] == result["scores"]  # the game's final scores
                else:  # a resignation while not behind: a forfeit, 50-0
                    assert p["scores"] == ([50, 0] if winner == 0 else [0, 50])
                if a not in humans and b not in humans:
                    assert result["reason"] != "resigned"
        expected = library_standings(view)
        assert page_standings(spectator) == expected
        assert page_standings(director) == expected
