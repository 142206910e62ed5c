"""Which Dask client runs the work: the one given, the current one, or a local cluster of processes."""

from __future__ import annotations

import os
from typing import Any

import dask.config
from distributed import Client, LocalCluster, get_client

from ..engine.settings import checked_keywords

ClientLike = Client | str | None

# The cluster started for `client=None` when no client exists: one per Python process, reused.
_started: Client | None = None

# What our own workers run differently from Dask's defaults. The sampling profiler (a stack sample of every thread
# every 10 ms, for the dashboard's profile page) took 3-5 ms of CPU per small repository's task and made the task's
# own thread compete for the GIL; a cluster the user starts keeps whatever its config says.
WORKER_CONFIG = {"distributed": {"worker": {"profile": {"enabled": False}}}}


def _worker_config() -> dict[str, Any]:
    """This process's Dask config with `WORKER_CONFIG` over it, for the nannies to hand their workers.

    Returns:
        The whole config, since a nanny lays the one given over its own only at the top level.
    """
    merged: dict[str, Any] = dask.config.merge(dask.config.config, WORKER_CONFIG)
    return merged


@checked_keywords
def local_client(n_workers: int | None = None) -> Client:
    """A client on a new `LocalCluster` of process workers, one single-threaded worker per core by default.

    One thread per worker because chunking is pure Python (the GIL would serialise threads). Its workers run
    without Dask's sampling profiler (the dashboard's profile page stays empty): it cost a small repository's task
    a fifth of its CPU.

    Args:
        n_workers: Worker processes; None: one per core.

    Returns:
        The client, current until closed.

    Examples:
        >>> client = cnd.local_client(4)
    """
    count = n_workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True, config=_worker_config())
    return Client(cluster)


def resolve_client(client: ClientLike) -> Client:
    """The client to run on: `client` itself, a connection to an address, the current client, or a local one."""
    global _started
    if isinstance(client, Client):
        return client
    if isinstance(client, str):
        return Client(client)
    if client is not None:
        msg = f"client must be a distributed.Client, an address like 'tcp://host:8786', or None; got {client!r}"
        raise TypeError(msg)
    try:
        return get_client()
    except ValueError:  # no client in this process yet
        pass
    if _started is None or _started.status != "running":
        _started = local_client()
    return _started
