"""Which Dask client runs the work: the one given, the current one, or a local cluster of processes."""

from __future__ import annotations

import copy
import os

import dask.config
from distributed import Client, get_client

from ..engine.settings import checked_keywords

ClientLike = Client | str | None

# The cluster started for `client=None` when no client exists: one per Python process, reused.
_started: Client | None = None

# What the clusters clanka-nb starts run differently from Dask's defaults (issue 55). The sampling profiler (a stack
# sample of every thread every 10 ms, for the dashboard's profile page) took 3-5 ms of CPU per small repository's
# task. Dask's timers cost an idle cluster 54 ms of CPU a second (the client's process, with the scheduler and
# the nannies, 33; each worker 21), 11 slowed as below, and at 30-60 ms of wall time per small repository that
# was 2-3 ms of CPU per repository: the tick only warns of a blocked event loop, the system monitor feeds the
# dashboard's graphs, work stealing rarely moves tasks the scheduler queues itself (ours have no dependencies), and
# a worker past its memory limit is still paused or restarted, within a second rather than a tenth. Dask also
# starts its workers with MALLOC_TRIM_THRESHOLD_=65536, so that glibc hands freed memory back to the system at once:
# a small repository then took 180 page faults instead of 17 and about 1 ms more CPU (8%), as in a plain process
# given that variable. Without it glibc trims by its own rule (memory goes back once 128 KiB, growing with the
# largest block freed up to 64 MiB, lie free at the heap's top; the peak is the same). A MALLOC_TRIM_THRESHOLD_ in
# the environment is still passed on. A cluster the user starts keeps whatever its config says.
QUIET: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing-interval": "1s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,  # None: not set by the nanny
}


@checked_keywords
def local_client(n_workers: int | None = None) -> Client:
    """A client on a new `LocalCluster` of process workers, one single-threaded worker per core by default.

    One thread per worker because chunking is pure Python (the GIL would serialise threads). It runs without Dask's
    sampling profiler (the dashboard's profile page stays empty), with Dask's timers slowed and glibc's own memory
    trimming (`QUIET`): they cost a small repository a fifth of its CPU. Closing the client stops the cluster.

    Args:
        n_workers: Worker processes; None: one per core.

    Returns:
        The client, current until closed.

    Examples:
        >>> client = cnd.local_client(4)
    """
    count = n_workers or os.cpu_count() or 1
    # The scheduler and the nannies (in this process) read QUIET as they start; this process's config is as before
    # once they have. The workers get the whole config, as a nanny lays the one given over its own at the top level.
    with dask.config.set(QUIET):
        # A Client given no address starts the LocalCluster itself with these keywords, and so stops it on close();
        # one handed a cluster would leave its workers running until this process ends.
        return Client(n_workers=count, threads_per_worker=1, processes=True, config=copy.deepcopy(dask.config.config))


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
