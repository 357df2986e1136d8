"""Where parallel work runs: lexiko's self-play, leave training and simulation take a
``concurrent.futures.Executor``; this module makes one for a cluster.

- ``process`` (the default): a process pool on this machine (``--jobs``).
- ``ray``: tasks on a Ray cluster (``pip install 'lexiko[ray]'``): the one at
  ``address`` (``ray://host:10001``, or ``auto`` for the cluster this machine belongs
  to), else a local Ray instance with ``jobs`` CPUs.
- ``dask``: a Dask distributed cluster (``pip install 'lexiko[dask]'``): the scheduler at
  ``address`` (``tcp://host:8786``), else a local cluster of ``jobs`` worker processes.

Results do not depend on the executor: games are seeded by their number.

>>> make_executor("process", None, 2)
(None, None)
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from lexiko.errors import LexikoError

__all__ = ["EXECUTORS", "RayExecutor", "make_executor"]

EXECUTORS = ("process", "ray", "dask")
"""The kinds `make_executor` knows."""


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fn(*args, **kwargs)


class RayExecutor(Executor):
    """A ``concurrent.futures.Executor`` over Ray tasks (each ``submit`` is a task; its
    future is Ray's own). Starts Ray (``address``, or a local instance of ``num_cpus``)
    unless it is running; `shutdown` stops what it started."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise LexikoError("--executor ray needs Ray, which is not installed: pip install 'lexiko[ray]'") from None
        if address and address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
            raise LexikoError(
                f"--address {address} connects through Ray Client, which needs grpcio (not installed): "
                "pip install 'lexiko[ray]' (it installs ray[client])"
            )
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            try:
                ray.init(
                    address=address,
                    num_cpus=None if address else num_cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    ignore_reinit_error=True,
                )
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise LexikoError(f"cannot reach the Ray cluster at {address}: {e}") from None
            self._started = True
        self._remote = ray.remote(_call)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        ref = self._remote.remote(fn, args, kwargs)
        fut: Future[Any] = ref.future()
        return fut

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
            self._started = False


def _dask(address: str | None, jobs: int) -> tuple[Executor, Callable[[], None]]:
    try:
        dist: Any = importlib.import_module("distributed")  # typed loosely: lexiko needs three calls of it
    except ImportError:
        raise LexikoError("--executor dask needs Dask: pip install 'lexiko[dask]'") from None
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if address:
        try:
            client = Client(address, timeout="5s")
        except OSError as e:
            raise LexikoError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        return client.get_executor(), client.close
    cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()

    return client.get_executor(), close


def make_executor(kind: str, address: str | None, jobs: int) -> tuple[Executor | None, Callable[[], None] | None]:
    """The executor of a kind and a function that releases it; ``(None, None)`` for the
    built-in process pool (the caller's ``jobs`` makes it)."""
    if kind == "process":
        if address:
            raise LexikoError("--address is for --executor ray or dask (the process pool runs here)")
        return None, None
    if kind == "ray":
        ex = RayExecutor(address, max(1, jobs))
        return ex, functools.partial(ex.shutdown, True)
    if kind == "dask":
        return _dask(address, jobs)
    raise LexikoError(f"unknown executor {kind!r}; known: {', '.join(EXECUTORS)}")
