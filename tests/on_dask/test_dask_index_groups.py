"""`sync_indexes` sends small repositories several to a task: each still its own outcome, failure and place in order;
a task that fails is run again one repository per task; Ctrl-C stops a group between repositories."""

from __future__ import annotations

import _thread
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from clanka_nb import dask as cd
from clanka_nb.dask import _indexes
from clanka_nb.index import embedders
from tests._shared import ctrl_c_raises

pytest.importorskip("apsw")
pytest.importorskip("sqlite_vec")

MARKER = "boom_for_the_group_test"


class Boom(Exception):
    """Not one of the errors a repository's sync turns into its failed row: it ends the whole task."""


class BoomOn:
    """The hashed-words stand-in (not a language model) that raises `Boom` on any input holding `MARKER`."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.inner = embedders.hashed_words(32)
        self.model_id = self.inner.model_id
        self.seconds = seconds

    def __call__(self, texts: list[str]) -> np.ndarray:
        if any(MARKER in text for text in texts):
            raise Boom(MARKER)
        time.sleep(self.seconds)
        return self.inner(texts)


def _tiny(folder: Path, count: int) -> list[str]:
    roots = []
    for number in range(count):
        root = folder / f"repo{number:02d}"
        root.mkdir(parents=True)
        body = MARKER if number == 13 else f"number {number}"
        (root / "code.py").write_text(f"def f{number}():\n    return {body!r}\n")
        roots.append(str(root))
    return roots


def test_the_group_size_gives_every_thread_a_few_tasks_of_at_most_16() -> None:
    assert _indexes._group_size(3, 2) == 1
    assert _indexes._group_size(24, 2) == 3  # 8 tasks: 4 per thread
    assert _indexes._group_size(1000, 2) == 16
    assert _indexes._group_size(10, 0) == 2  # no worker yet: as if one thread


def test_grouped_repositories_keep_their_own_outcomes_and_a_failed_task_is_split(client, tmp_path) -> None:
    from distributed import get_task_stream

    roots = _tiny(tmp_path, 24)
    shutil.rmtree(roots[5])  # a missing folder: its own failed row, inside its group
    with get_task_stream(client) as stream:
        run = cd.sync_indexes(roots, embed=BoomOn(), client=client, db=lambda root: str(Path(root) / "index.sqlite"),
                              cache=tmp_path / "vectors.sqlite", progress=False)
    assert [repo.root for repo in run.repositories] == roots
    statuses = [repo.status for repo in run.repositories]
    # 12 shared 13's group: synced by the group's try, then found `unchanged` by its own task (its database whole).
    want = {5: "failed", 12: "unchanged", 13: "failed"}
    assert statuses == [want.get(number, "synced") for number in range(24)], run.frame()
    assert "does not exist" in run.repositories[5].error
    assert "Boom" in run.repositories[13].error and MARKER in run.repositories[13].error
    assert all(repo.embedded == 1 for number, repo in enumerate(run.repositories) if number not in want)
    # 8 groups of 3 (2 threads, 4 tasks each), then the failed group's 3 repositories one per task.
    tasks = [record for record in stream.data if str(record["key"]).startswith("group")]
    assert len(tasks) == 8 + 3, [record["key"] for record in stream.data]


def _distinct(folder: Path, count: int) -> list[str]:
    """Repositories of 12 small files whose every input differs (none found in the vector cache: each embeds)."""
    roots = []
    for number in range(count):
        root = folder / f"repo{number}"
        root.mkdir()
        for index in range(12):
            body = f"def repo_{number}_file_{index}():\n    return {number * 100 + index}\n"
            (root / f"m{index}.py").write_text(body)
        roots.append(str(root))
    return roots


def test_ctrl_c_stops_each_group_after_the_repository_under_way(client, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(_indexes, "TASKS_PER_THREAD", 1)  # 8 repositories on 2 threads: 2 groups of 4
    roots = _distinct(tmp_path, 8)
    dbs = [Path(root) / ".clanka" / "search.sqlite" for root in roots]
    interrupted: list[bool] = []

    def interrupt_once_a_database_appears() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(db.exists() for db in dbs):
            time.sleep(0.01)
        interrupted.append(True)
        _thread.interrupt_main()  # as Ctrl-C

    interrupter = threading.Thread(target=interrupt_once_a_database_appears)
    interrupter.start()
    with ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
        cd.sync_indexes(roots, embed=BoomOn(0.2), client=client, cache=tmp_path / "vectors.sqlite", batch_size=4,
                        progress=False)
    interrupter.join()
    assert interrupted
    deadline = time.monotonic() + 120  # each group finishes the repository under way, then looks and stops
    while time.monotonic() < deadline and any(client.run(lambda dask_worker: len(dask_worker.state.executing))
                                              .values()):
        time.sleep(0.05)
    made = sum(db.exists() for db in dbs)
    # Each group stops at the repository after the one under way when it looks (about 1 s a repository here):
    # without the look both groups run to their end, all 8.
    assert 1 <= made < len(dbs), made
