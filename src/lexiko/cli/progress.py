"""Progress of long work: rich's bar on a terminal, and a plain line now and then
everywhere else (a log file, ``nohup``, a pipe), where rich draws nothing until the end.
`WorkProgress.report` is the library's `lexiko.progress.Progress` callback.

>>> import io
>>> from rich.console import Console
>>> now, out = [0.0], io.StringIO()
>>> with WorkProgress(console=Console(file=io.StringIO()), every=60, get_time=lambda: now[0], log=out) as bar:
...     task = bar.add_task("games", total=200)
...     for now[0], done in ((30, 10), (61, 20), (62, 30), (130, 40)):
...         bar.update(task, completed=done)
>>> print(out.getvalue(), end="")
games: 20/200 (10%), 1:01 elapsed, about 9:09 left
games: 40/200 (20%), 2:10 elapsed, about 8:40 left
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.progress import Progress, TaskID

__all__ = ["WorkProgress", "LOG_EVERY"]

LOG_EVERY = 60.0
"""Seconds between two plain progress lines when the output is not a terminal."""


def _clock_text(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``.

    >>> _clock_text(59.6), _clock_text(61), _clock_text(3725)
    ('1:00', '1:01', '1:02:05')
    """
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class WorkProgress(Progress):
    """`rich.progress.Progress`, which also writes a line to ``log`` (standard
    error unless given) while its console is not a terminal: for a task that has run
    ``every`` seconds (`LOG_EVERY` unless given) since it was added or last
    written, its description, how much is done, the time taken and, with a total, the
    time left at the pace so far (both counted from when the task was added). Short
    work writes no line at all.
    """

    def __init__(self, *columns: Any, every: float | None = None, log: TextIO | None = None, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self._every = LOG_EVERY if every is None else every
        self._log = log
        self._last: dict[TaskID, float] = {}  # when each task last wrote a line

    def update(self, task_id: TaskID, **kwargs: Any) -> None:
        super().update(task_id, **kwargs)
        if self.console.is_terminal or self.console.is_jupyter:  # rich draws the bar there
            return
        now = self.get_time()
        task = next(t for t in self.tasks if t.id == task_id)
        since = self._last.get(task_id, task.start_time if task.start_time is not None else now)
        if now - since < self._every:  # a new task (a training round) waits its own minute, not guessing from its start
            return
        self._last[task_id] = now
        elapsed = task.elapsed or 0.0  # since the task was added
        line = f"{task.description}: {task.completed:,.0f}"
        if task.total:
            line += f"/{task.total:,.0f} ({100 * task.completed / task.total:.0f}%)"
        line += f", {_clock_text(elapsed)} elapsed"
        if task.total and 0 < task.completed < task.total:
            line += f", about {_clock_text(elapsed * (task.total - task.completed) / task.completed)} left"
        out = self._log if self._log is not None else sys.stderr
        print(line, file=out, flush=True)

    def stop(self) -> None:
        """Stop the display. A bar that vanishes at the end (``transient``) leaves
        nothing, not even the empty line rich writes where the output is no terminal."""
        if self.live.transient and not self.disable:
            self.live.stop()
        else:
            super().stop()

    def report(self, phase: str, done: int, total: int) -> None:
        """The library's progress callback (`lexiko.progress.Progress`): the task
        whose description is ``phase`` (added with ``total`` the first time) has ``done``.

        >>> import io
        >>> from rich.console import Console
        >>> with WorkProgress(console=Console(file=io.StringIO())) as bar:
        ...     bar.report("round 1/2", 5, 10)
        ...     bar.report("fitting", 1, 3)
        ...     bar.report("round 1/2", 10, 10)
        >>> [(t.description, t.completed, t.total) for t in bar.tasks]
        [('round 1/2', 10, 10), ('fitting', 1, 3)]
        """
        task = next((t.id for t in self.tasks if t.description == phase), None)
        if task is None:
            task = self.add_task(phase, total=total)
        self.update(task, completed=done)
