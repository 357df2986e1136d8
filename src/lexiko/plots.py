"""Pictures of results, for people who would rather look than read: self-play score
distributions with win rates, and a game's spread and equity lost turn by turn.

Drawn with matplotlib (an optional extra: ``pip install 'lexiko[plot]'``), with its
non-interactive Agg backend, so they work without a screen. The functions take plain
numbers and return the figure; `save` writes it (PNG, SVG or PDF by the suffix).

>>> fig = autoplay_figure(["static", "greedy"], [[410, 380, 450], [390, 400, 360]],
...                       [0.67, 0.33], [(0.21, 0.94), (0.06, 0.79)])
>>> [ax.get_title() for ax in fig.axes]
['Final scores', 'Win rate (95% interval)']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lexiko.errors import LexikoError

__all__ = ["autoplay_figure", "review_figure", "review_series", "save", "check_output"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise LexikoError("plots need matplotlib, which is not installed: pip install 'lexiko[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def autoplay_figure(
    players: Sequence[str],
    scores: Sequence[Sequence[int]],
    win_rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
) -> Any:
    """Each player's final scores as a histogram, and each win rate with its interval."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    lo = min((min(s) for s in scores if s), default=0)
    hi = max((max(s) for s in scores if s), default=1)
    bins = [lo + (hi - lo + 1) * i / 30 for i in range(31)]
    for name, s in zip(players, scores, strict=True):
        mean = sum(s) / len(s) if s else 0.0
        left.hist(s, bins=bins, alpha=0.55, label=f"{name} (mean {mean:.1f})")
    left.set_title("Final scores")
    left.set_xlabel("score")
    left.set_ylabel("games")
    left.legend()
    x = list(range(len(players)))
    below = [r - i[0] for r, i in zip(win_rates, intervals, strict=True)]
    above = [i[1] - r for r, i in zip(win_rates, intervals, strict=True)]
    right.bar(x, win_rates, yerr=[below, above], capsize=8, color="#1f6f5c", alpha=0.8)
    right.axhline(1 / len(players) if players else 0.5, color="#999", linestyle="--", linewidth=1)
    right.set_xticks(x, list(players))
    right.set_ylim(0, 1)
    right.set_title("Win rate (95% interval)")
    right.set_ylabel("share of games won")
    return fig


def review_series(history: Sequence[Any]) -> list[int]:
    """The spread (first player's score minus the second's) after each move of a game's
    history (plays, exchanges and passes; what follows a move, such as a play taken back
    or a challenge's penalty, counts with it).

    >>> from lexiko.game import Game
    >>> g = Game(["A", "B"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "DINNVWY"); _ = g.play("8D WINDY"); _ = g.pass_turn()
    >>> review_series(g.history)
    [32, 32]
    """
    totals = [0, 0]
    out: list[int] = []
    for ev in history:
        if ev.player < 2:
            totals[ev.player] = ev.total
        if ev.kind in ("play", "exchange", "pass"):
            out.append(totals[0] - totals[1])
        elif out:
            out[-1] = totals[0] - totals[1]
    return out


def review_figure(names: Sequence[str], spreads: Sequence[int], lost: Sequence[tuple[int, float]]) -> Any:
    """The spread after each move, and the equity each move gave away (``lost``: the
    mover's seat and the equity lost, one pair a move)."""
    plt = _pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 6), sharex=True, layout="constrained")
    turns = list(range(1, len(spreads) + 1))
    top.plot(turns, spreads, marker="o", color="#1f6f5c")
    top.axhline(0, color="#999", linewidth=1, linestyle="--")
    top.set_title(f"Spread ({names[0]} minus {names[1]})" if len(names) > 1 else "Spread")
    top.set_ylabel("points")
    colors = ["#1f6f5c", "#c98a1b", "#3a78c2", "#b3412e"]
    for seat, name in enumerate(names):
        xs = [i + 1 for i, (p, _) in enumerate(lost) if p == seat]
        ys = [v for p, v in lost if p == seat]
        bottom.bar(xs, ys, color=colors[seat % len(colors)], label=name)
    bottom.set_title("Equity given away by each move")
    bottom.set_xlabel("move")
    bottom.set_ylabel("equity")
    bottom.legend()
    return fig


def check_output(path: str | Path) -> Path:
    """Check, before any work, that a plot can be written there: matplotlib is
    installed, the suffix is a picture's and the folder exists."""
    out = Path(path)
    _pyplot()
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise LexikoError(f"cannot write {out}: a plot is a .png, .svg or .pdf file")
    if not out.parent.is_dir():
        raise LexikoError(f"cannot write {out}: no folder {out.parent}")
    return out


def save(fig: Any, path: str | Path) -> None:
    """Write the figure; the suffix says the format (.png, .svg, .pdf)."""
    out = Path(path)
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise LexikoError(f"cannot write {out}: a plot is a .png, .svg or .pdf file")
    try:
        fig.savefig(out, dpi=100)
    except OSError as e:
        raise LexikoError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        _pyplot().close(fig)
