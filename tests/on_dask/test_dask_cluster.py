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
