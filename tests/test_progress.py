"""WorkProgress: plain lines in a log, none on a terminal, none for short work."""

from __future__ import annotations

import io

from rich.console import Console

from lexiko.cli.progress import WorkProgress


def _run(console: Console, steps: list[tuple[float, dict[str, float]]], total: float | None) -> str:
    """Updates of one task at the given times (the task added at time 0)."""
    now, out = [0.0], io.StringIO()
    with WorkProgress(console=console, every=60, get_time=lambda: now[0], log=out) as bar:
        task = bar.add_task("round 1/2", total=total)
        for now[0], u in steps:
            bar.update(task, **u)
    return out.getvalue()


def test_a_log_gets_a_line_a_minute_with_the_time_left() -> None:
    text = _run(
        Console(file=io.StringIO()),
        [(59, {"completed": 1}), (60, {"completed": 1500}), (100, {"completed": 1600}), (125, {"completed": 3000})],
        6000,
    )
    assert text == (
        "round 1/2: 1,500/6,000 (25%), 1:00 elapsed, about 3:00 left\n"
        "round 1/2: 3,000/6,000 (50%), 2:05 elapsed, about 2:05 left\n"
    )


def test_without_a_total_the_line_says_what_is_done() -> None:
    assert _run(Console(file=io.StringIO()), [(90, {"completed": 7})], None) == "round 1/2: 7, 1:30 elapsed\n"


def test_each_task_counts_its_own_time() -> None:
    """A second round's time left is reckoned from its own start, not the first round's."""
    now, out = [0.0], io.StringIO()
    with WorkProgress(console=Console(file=io.StringIO()), every=60, get_time=lambda: now[0], log=out) as bar:
        first = bar.add_task("round 1/2", total=100)
        now[0] = 600
        bar.update(first, completed=100)
        second = bar.add_task("round 2/2", total=100)
        now[0] = 700
        bar.update(second, completed=50)
    assert out.getvalue().splitlines() == [
        "round 1/2: 100/100 (100%), 10:00 elapsed",
        "round 2/2: 50/100 (50%), 1:40 elapsed, about 1:40 left",
    ]


def test_a_terminal_gets_the_bar_and_no_lines() -> None:
    terminal = Console(file=io.StringIO(), force_terminal=True)
    assert _run(terminal, [(90, {"completed": 7}), (200, {"completed": 8})], 10) == ""


def test_short_work_writes_nothing() -> None:
    assert _run(Console(file=io.StringIO()), [(5, {"completed": 5}), (10, {"completed": 10})], 10) == ""


def test_a_new_task_waits_its_own_minute() -> None:
    """A second round's first games give no line (nor a wild guess of the time left)."""
    now, out = [0.0], io.StringIO()
    with WorkProgress(console=Console(file=io.StringIO()), every=60, get_time=lambda: now[0], log=out) as bar:
        first = bar.add_task("round 1/2", total=100)
        now[0] = 600
        bar.update(first, completed=100)
        second = bar.add_task("round 2/2", total=100)
        for now[0], done in ((602, 1), (659, 40), (661, 41)):
            bar.update(second, completed=done)
    assert out.getvalue().splitlines() == [
        "round 1/2: 100/100 (100%), 10:00 elapsed",
        "round 2/2: 41/100 (41%), 1:01 elapsed, about 1:28 left",
    ]
