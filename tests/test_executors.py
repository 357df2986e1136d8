"""Self-play on a cluster: a local Ray instance and a local Dask cluster play the same
seeded games as the process pool, to the last score; the command line takes
--executor and --address, and says what is missing or unreachable."""

from __future__ import annotations

import pytest

from lexiko.cli import main
from lexiko.executors import make_executor
from lexiko.rules import preset
from lexiko.selfplay import autoplay

RULES = preset("tournament")


def results(**kw: object) -> tuple[list[list[int]], list[float]]:
    stats = autoplay(["static", "greedy"], 8, seed=3, rules=RULES, chunk_size=2, **kw)  # type: ignore[arg-type]
    return [sorted(s) for s in stats.scores], stats.points


@pytest.fixture(scope="module")
def pooled() -> tuple[list[list[int]], list[float]]:
    return results(jobs=2)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["ray", "dask"])
def test_a_cluster_plays_the_same_games_as_the_process_pool(kind: str, pooled: object) -> None:
    pytest.importorskip(kind if kind == "ray" else "distributed", reason=f"{kind} is not installed")
    executor, release = make_executor(kind, None, 2)
    assert executor is not None and release is not None
    try:
        assert results(executor=executor) == pooled
    finally:
        release()


@pytest.mark.slow
def test_the_command_line_names_the_executor_and_its_problems(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["autoplay", "--games", "2", "--address", "tcp://127.0.0.1:9"]) == 2
    assert capsys.readouterr().out == ("error: --address is for --executor ray or dask (the process pool runs here)\n")
    pytest.importorskip("distributed", reason="distributed is not installed")
    assert main(["autoplay", "--games", "2", "--executor", "dask", "--address", "tcp://127.0.0.1:9"]) == 2
    assert capsys.readouterr().out.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_a_ray_client_address_without_grpcio_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lexiko[ray]`` installed plain ``ray``, and ``--address ray://HOST:10001`` (the
    address docs/scale.md shows first) needs Ray Client's grpcio: the extra now asks for
    ``ray[client]``, and without grpcio the message says which command installs it."""
    pytest.importorskip("ray", reason="ray is not installed")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "grpc" else real(name, *a))
    assert main(["autoplay", "--games", "1", "--executor", "ray", "--address", "ray://127.0.0.1:1"]) == 2
    assert capsys.readouterr().out.replace("\n", " ") == (
        "error: --address ray://127.0.0.1:1 connects through Ray Client, which needs grpcio (not installed): "
        "pip install 'lexiko[ray]' (it installs ray[client]) "
    )
