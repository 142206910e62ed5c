"""A worker process killed in the middle of a run: Dask reschedules its work and the result is still whole."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import dask as cd

from .conftest import PANDAS, STDLIB, expected_chunks


@pytest.fixture
def client() -> Iterator:
    """A fresh LocalCluster of two process workers per test: each test kills one of them."""
    started = cd.local_client(2)
    yield started
    cluster = started.cluster
    started.close()
    cluster.close()


def _kill_a_worker_holding_results(client, future, timeout: float = 120) -> int:
    """SIGKILL the process of a worker once it holds finished partitions and the run is not over; its pid."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        holding = [address for address, keys in client.has_what().items() if keys]
        if holding and not future.done():
            os.kill(pids[holding[0]], signal.SIGKILL)
            return pids[holding[0]]
        time.sleep(0.005)
    raise AssertionError("the run ended before a worker could be killed; give it more files")


def test_killing_a_worker_mid_run_still_gives_every_row(client) -> None:
    roots = [str(STDLIB / "email"), str(STDLIB / "json"), str(PANDAS / "io" / "formats")]
    frame = cd.chunk_codebases(roots, client=client, files_per_partition=1)
    expected = expected_chunks(roots)
    before = set(client.run(os.getpid).values())
    future = client.compute(frame)
    killed = _kill_a_worker_holding_results(client, future)
    got = future.result().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert killed in before and killed not in set(client.run(os.getpid).values())  # it really was lost


def test_a_sweep_survives_a_worker_killed_while_it_measures_a_batch(client) -> None:
    roots = [str(STDLIB / "email"), str(PANDAS / "io" / "formats")]
    grid = {"chunk_size": [10, 20, 30, 40, 60], "chunk_overlap": [0, 5]}
    baseline = cd.sweep(roots, client=client, files_per_partition=2, **grid)
    pids = client.run(os.getpid)
    killed: list[tuple[float, int]] = []

    def kill_a_busy_worker() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            busy = [address for address, keys in client.processing().items() if any("SweepTask" in k for k in keys)]
            if busy:
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append((time.monotonic(), pids[busy[0]]))
                return
            time.sleep(0.005)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    again = cd.sweep(roots, client=client, files_per_partition=2, **grid)
    finished = time.monotonic()
    killer.join()
    assert killed and killed[0][0] < finished  # the kill landed while the sweep was running
    assert killed[0][1] not in set(client.run(os.getpid).values())
    pd.testing.assert_frame_equal(again.drop(columns="seconds"), baseline.drop(columns="seconds"), check_exact=True)


# Issue 50, item 5: one repository that kills its worker must not take every other repository's table with it.
MARKER = "kills-the-worker-that-counts-it"


class KillingCounter:
    """A token counter that kills its own process on the text of one repository (as a hostile file might)."""

    def __call__(self, text: str) -> int:
        if MARKER in text:
            os.kill(os.getpid(), signal.SIGKILL)
        return len(text) // 4


def _clone(folder: Path, second: str) -> str:
    """A git repository of two commits, the second adding a file holding `second`."""
    folder.mkdir()
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    (folder / "a.py").write_text("def a():\n    return 1\n")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    (folder / "b.py").write_text(f"def b():\n    return {second!r}\n")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "second"], check=True)
    return str(folder)


def test_churn_keeps_every_table_when_one_repository_kills_its_worker_each_time(tmp_path) -> None:
    import dask

    killer = _clone(tmp_path / "killer", MARKER)
    plain = _clone(tmp_path / "plain", "harmless")
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):  # KilledWorker at its second death
        started = cd.local_client(2)
    try:
        got = cd.churn([killer, plain], client=started, revs="HEAD~1..HEAD", token_counter=KillingCounter())
    finally:
        cluster = started.cluster
        started.close()
        cluster.close()
    assert list(got["root"].unique()) == [plain] and got["tokens_embedded"].gt(0).any()
    assert len(got.attrs["failed"]) == 1 and got.attrs["failed"][0].startswith(f"{killer}: KilledWorker: ")
