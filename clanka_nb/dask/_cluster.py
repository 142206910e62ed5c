"""Which Dask client runs the work: the one given, the current one, or a local cluster of processes."""

from __future__ import annotations

import os

from distributed import Client, LocalCluster, get_client

from ..engine.settings import checked_keywords

ClientLike = Client | str | None

# The cluster started for `client=None` when no client exists: one per Python process, reused.
_started: Client | None = None


@checked_keywords
def local_client(n_workers: int | None = None) -> Client:
    """A client on a new `LocalCluster` of process workers, one single-threaded worker per core by default.

    One thread per worker because chunking is pure Python (the GIL would serialise threads).

    Args:
        n_workers: Worker processes; None: one per core.

    Returns:
        The client, current until closed.

    Examples:
        >>> client = cnd.local_client(4)
    """
    count = n_workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True)
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
