"""WorkProgress: plain lines in a log, none on a terminal, none for short work."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

from lexiko.progress import WorkProgress


def _clock(*times: float) -> Callable[[], float]:
    return iter(times).__next__


def _run(console: Console, clock: Callable[[], float], updates: list[dict[str, float]], total: float | None) -> str:
    out = io.StringIO()
    with WorkProgress(console=console, every=60, clock=clock, log=out) as bar:
        task = bar.add_task("round 1/2", total=total)
        for u in updates:
            bar.update(task, **u)
    return out.getvalue()


def test_a_log_gets_a_line_a_minute_with_the_time_left() -> None:
    text = _run(Console(file=io.StringIO()), _clock(0, 59, 60, 100, 125),
                [{"completed": 1}, {"completed": 1500}, {"completed": 1600}, {"completed": 3000}], 6000)
    assert text == (
        "round 1/2: 1,500/6,000 (25%), 1:00 elapsed, about 3:00 left\n"
        "round 1/2: 3,000/6,000 (50%), 2:05 elapsed, about 2:05 left\n"
    )


def test_without_a_total_the_line_says_what_is_done() -> None:
    text = _run(Console(file=io.StringIO()), _clock(0, 90), [{"completed": 7}], None)
    assert text == "round 1/2: 7, 1:30 elapsed\n"


def test_a_terminal_gets_the_bar_and_no_lines() -> None:
    terminal = Console(file=io.StringIO(), force_terminal=True)
    assert _run(terminal, _clock(0, 90, 200), [{"completed": 7}, {"completed": 8}], 10) == ""


def test_short_work_writes_nothing() -> None:
    assert _run(Console(file=io.StringIO()), _clock(0, 5, 10), [{"completed": 5}, {"completed": 10}], 10) == ""
