"""The cluster clanka-nb starts runs without Dask's sampling profiler; a cluster the user gives keeps its own."""

from __future__ import annotations

import dask.config
from distributed import Worker


def _profiled(dask_worker: Worker) -> bool:  # Dask passes its Worker by this name
    return "profile" in dask_worker.periodic_callbacks or "profile-cycle" in dask_worker.periodic_callbacks


def test_the_cluster_we_start_samples_no_stacks_and_leaves_this_process_config_alone(client) -> None:
    before = dask.config.get("distributed.worker.profile.enabled")
    assert set(client.run(_profiled).values()) == {False}
    assert set(client.run(lambda: dask.config.get("distributed.worker.profile.enabled")).values()) == {False}
    assert dask.config.get("distributed.worker.profile.enabled") == before


def test_a_users_own_cluster_keeps_its_profiler() -> None:
    from distributed import Client, LocalCluster

    from clanka_nb.dask._cluster import resolve_client

    with dask.config.set({"distributed.worker.profile.enabled": True}), \
            LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as mine:
        assert resolve_client(mine) is mine
        assert set(mine.run(_profiled).values()) == {True}


def test_the_cluster_we_start_slows_dasks_timers_and_leaves_this_process_config_alone(client) -> None:
    # Issue 55: an idle cluster's timers cost 54 ms of CPU a second with Dask's defaults, 11 with these.
    from clanka_nb.dask._cluster import QUIET

    assert dask.config.get("distributed.admin.tick.interval") != QUIET["distributed.admin.tick.interval"]
    for key, value in QUIET.items():
        assert set(client.run(lambda key=key: dask.config.get(key)).values()) == {value}, key

    def monitor_ms(dask_scheduler: object) -> float:  # Dask passes its Scheduler by this name
        return dask_scheduler.periodic_callbacks["monitor"].callback_time  # type: ignore[attr-defined, no-any-return]

    assert client.run_on_scheduler(monitor_ms) == 5_000  # the scheduler, in this process, started under QUIET


def test_the_cluster_we_start_trims_memory_as_glibc_does_and_stops_with_its_client(monkeypatch) -> None:
    # Issue 55: Dask's MALLOC_TRIM_THRESHOLD_=65536 cost a small repository 10x the page faults and ~1 ms more CPU.
    import os

    import psutil

    from clanka_nb.dask import local_client

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    client = local_client(1)
    try:
        assert set(client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values()) == {None}
        assert "MALLOC_TRIM_THRESHOLD_" not in os.environ  # nothing leaked into this process either
        workers = [psutil.Process(pid) for pid in client.run(os.getpid).values()]
    finally:
        client.close()
    assert client.cluster.status.name == "closed"
    _gone, alive = psutil.wait_procs(workers, timeout=60)  # a bound on a hang only: the close waited for them
    assert not alive, alive


def test_a_malloc_trim_threshold_in_the_environment_is_still_passed_on(monkeypatch) -> None:
    import os

    from clanka_nb.dask import local_client

    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    with local_client(1) as client:
        assert set(client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_")).values()) == {"131072"}
