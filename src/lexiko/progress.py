"""How long library work says how far it is: a callback ``progress(phase, done, total)``
that self-play, leave training and compiling a lexicon call as they go. The library
draws nothing; a face turns the calls into a bar or log lines (the ``lexiko`` command's
`lexiko.cli.progress.WorkProgress`), a notebook may print them.

>>> from lexiko.lexicon import Lexicon
>>> from lexiko.selfplay import autoplay
>>> seen: list[tuple[str, int, int]] = []
>>> def note(phase: str, done: int, total: int) -> None:
...     seen.append((phase, done, total))
>>> _ = autoplay(["greedy", "random"], 2, lexicon=Lexicon.from_words(["AB", "BA", "AA"]), progress=note)
>>> seen[-1]
('games', 2, 2)
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Progress"]


class Progress(Protocol):
    """Called as long work goes on: ``phase`` names the part under way (``"games"``,
    ``"round 2/4"``, ``"fitting"``, ``"gaddag"``), ``done`` of ``total`` units are done.
    Any function of those three arguments will do."""

    def __call__(self, phase: str, done: int, total: int, /) -> None: ...
