"""`sync_indexes`: clanka's index of many repositories built on a LocalCluster, as `SemanticIndex.sync` builds it."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import dask as cd
from clanka_nb.index import SemanticIndex, VectorCache, embedders

from .conftest import STDLIB

pytest.importorskip("apsw")
sqlite_vec = pytest.importorskip("sqlite_vec")


class Slow:
    """The hashed-words stand-in (not a language model), a little slow per call: a kill lands mid-sync."""

    def __init__(self, seconds: float) -> None:
        self.inner = embedders.hashed_words(32)
        self.model_id = self.inner.model_id
        self.seconds = seconds

    def __call__(self, texts: list[str]) -> np.ndarray:
        time.sleep(self.seconds)
        return self.inner(texts)


def _copies(tmp_path: Path) -> list[str]:
    """Three real codebases copied (clanka's index goes inside each): the sample, two stdlib packages."""
    out = []
    for number, source in enumerate([cn.sample_codebase(), STDLIB / "json", STDLIB / "wsgiref"]):
        target = tmp_path / f"repo{number}"
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        out.append(str(target))
    return out


def _tables(db: str | Path) -> dict[str, object]:
    """Every table of an index database, row by row (the vec0 table through sqlite-vec); syncIds as their count."""
    import apsw

    connection = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    try:
        schema = sorted(connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
        chunks = connection.execute("SELECT id, path, content, hash, vector FROM chunks ORDER BY id").fetchall()
        syncs = connection.execute("SELECT count(DISTINCT syncId) FROM chunks").fetchone()[0]
        vectors = connection.execute("SELECT rowid, vector FROM chunk_vectors ORDER BY rowid").fetchall()
    finally:
        connection.close()
    return {"schema": schema, "chunks": chunks, "sync_ids": syncs, "chunk_vectors": vectors}


def _local(roots: list[str], folder: Path) -> list[dict[str, object]]:
    folder.mkdir()
    out = []
    for number, root in enumerate(roots):
        db = folder / f"{number}.sqlite"
        with SemanticIndex(root, embed=embedders.hashed_words(32), db=db, cache=VectorCache(), workers=1,
                           progress=False) as index:
            index.sync()
        out.append(_tables(db))
    return out


def test_indexes_built_on_the_cluster_equal_local_syncs_and_a_rerun_embeds_nothing(client, tmp_path) -> None:
    roots = _copies(tmp_path)
    expected = _local(roots, tmp_path / "local")
    run = cd.sync_indexes(roots, embed=embedders.hashed_words(32), client=client, cache=tmp_path / "vectors.sqlite",
                          progress=False)
    assert [repo.status for repo in run.repositories] == ["synced"] * 3, run.frame()
    assert [repo.root for repo in run.repositories] == roots
    for repo, want in zip(run.repositories, expected, strict=True):
        assert repo.db == str(Path(repo.root) / ".clanka" / "search.sqlite")  # where clanka reads it
        assert _tables(repo.db) == want
        assert want["sync_ids"] == 1 and repo.embedded == repo.inputs > 0
    again = cd.sync_indexes(roots, embed=embedders.hashed_words(32), client=client, cache=tmp_path / "vectors.sqlite",
                            progress=False)
    assert again.embedded == 0 and {repo.status for repo in again.repositories} == {"unchanged"}
    # One file edited: that repository alone is synced again, and only its new inputs are embedded.
    edited = Path(roots[1]) / "decoder.py"
    edited.write_text(edited.read_text() + "\n\ndef added_for_the_test():\n    return 42\n")
    third = cd.sync_indexes(roots, embed=embedders.hashed_words(32), client=client, cache=tmp_path / "vectors.sqlite",
                            progress=False)
    assert [repo.status for repo in third.repositories] == ["unchanged", "synced", "unchanged"]
    assert 0 < third.repositories[1].embedded < run.repositories[1].embedded
    with SemanticIndex(roots[1], embed=embedders.hashed_words(32), db=tmp_path / "local" / "1.sqlite",
                       cache=VectorCache(), workers=1, progress=False) as index:
        index.sync()  # the same re-sync in this process, on its own copy of the first index
    assert _tables(third.repositories[1].db) == _tables(tmp_path / "local" / "1.sqlite")


def test_failing_repositories_are_reported_and_the_others_finish(client, tmp_path) -> None:
    import apsw

    roots = _copies(tmp_path)
    foreign = tmp_path / "foreign"
    (foreign / ".clanka").mkdir(parents=True)
    other = apsw.Connection(str(foreign / ".clanka" / "search.sqlite"))
    other.execute("CREATE TABLE notes (body TEXT)")
    other.close()
    locked = Path(roots[2]) / ".clanka" / "search.sqlite"
    locked.parent.mkdir()
    holder = apsw.Connection(str(locked))
    holder.execute("CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, "
                   "content TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, syncId TEXT NOT NULL)")
    holder.execute("BEGIN EXCLUSIVE")  # another process writing it for longer than busy_timeout
    try:
        run = cd.sync_indexes([*roots, foreign, tmp_path / "missing"], embed=embedders.hashed_words(32),
                              client=client, cache=tmp_path / "vectors.sqlite", busy_timeout=0.5, progress=False)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    statuses = [repo.status for repo in run.repositories]
    assert statuses == ["synced", "synced", "failed", "failed", "failed"], run.frame()
    errors = [repo.error for repo in run.failed]
    assert "locked" in errors[0] and "busy_timeout" in errors[0]
    assert "not a clanka index" in errors[1]
    assert "does not exist" in errors[2]
    assert all("\n" not in error for error in errors)
    assert len(run.frame()) == 5


def test_a_killed_worker_leaves_every_database_as_it_was_or_complete(tmp_path) -> None:
    roots = _copies(tmp_path)
    expected = _local(roots, tmp_path / "local")
    started = cd.local_client(2)
    try:
        pids = started.run(os.getpid)
        killed: list[int] = []

        def kill_a_busy_worker() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                busy = [address for address, keys in started.processing().items() if keys]
                if busy:
                    time.sleep(0.2)  # inside its sync: embedding, the transaction not yet begun or under way
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.005)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        run = cd.sync_indexes(roots, embed=Slow(0.3), client=started, cache=tmp_path / "vectors.sqlite",
                              batch_size=8, progress=False)
        killer.join()
    finally:
        cluster = started.cluster
        started.close()
        cluster.close()
    assert killed, "no worker was killed"
    assert [repo.status for repo in run.repositories] == ["synced"] * 3, run.frame()
    for repo, want in zip(run.repositories, expected, strict=True):
        assert _tables(repo.db) == want  # run again elsewhere from the file as it was: whole, each row once


_KILLED_MID_SYNC = """
import os, signal, sys, threading
from clanka_nb.dask._indexes import IndexTask
from clanka_nb.dask._limit import EmbedLimit
from clanka_nb.engine.settings import Settings
from clanka_nb.index import embedders

class Dies:
    model_id = "stand-in/hashed-words-32"
    def __init__(self):
        self.calls = 0
    def __call__(self, texts):
        self.calls += 1
        if self.calls == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # as a worker killed while it embeds
        return embedders.hashed_words(32)(texts)

task = IndexTask(Dies(), Dies.model_id, Settings(chunk_max_characters=10_000), sys.argv[3], "",
                 EmbedLimit(), 4, 5.0)
task(sys.argv[1], sys.argv[2])
"""


@pytest.mark.parametrize("existing", [False, True])
def test_a_sync_killed_mid_way_leaves_the_database_as_it_was(tmp_path, existing: bool) -> None:
    root = str(tmp_path / "repo")
    db = Path(root) / ".clanka" / "search.sqlite"
    Path(root).mkdir()
    if existing:  # an index of one file; then the whole sample arrives, and its sync is killed
        (Path(root) / "kept.ts").write_text("export function kept(): number { return 1 }\n")
        with SemanticIndex(root, embed=embedders.hashed_words(32), db=db, cache=VectorCache(), progress=False) as index:
            index.sync()
        before = _tables(db)
    shutil.copytree(cn.sample_codebase(), root, dirs_exist_ok=True)
    script = tmp_path / "killed.py"
    script.write_text(_KILLED_MID_SYNC)
    env = {**os.environ, "PYTHONPATH": str(Path(cd.__file__).parents[2])}
    done = subprocess.run([sys.executable, str(script), root, str(db), str(tmp_path / "v.sqlite")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    if existing:
        assert _tables(db) == before
    else:
        assert not db.exists()  # no half-made file where clanka looks


def test_churn_of_many_histories_stacks_each_repositorys_table_and_names_the_failed(client, tmp_path) -> None:
    from clanka_nb import history

    clones = [Path("/work/corpus-git/httpx")]  # a real clone (not modified: churn reads its objects)
    if not (clones[0] / ".git").exists():
        pytest.skip("needs the httpx clone of the benchmark corpus")
    plain = tmp_path / "not-a-clone"
    plain.mkdir()
    (plain / "a.ts").write_text("export const a = 1;\n")
    got = cd.churn([*clones, plain], client=client, revs="HEAD~3..HEAD", chunk_size=[20, 40])
    expected = history.churn(clones[0], revs="HEAD~3..HEAD", chunk_size=[20, 40], progress=False)
    assert list(got["root"].unique()) == [str(clones[0])]
    columns = [name for name in expected.columns if name != "seconds"]
    pd.testing.assert_frame_equal(got[columns], expected[columns], check_exact=True)
    assert len(got.attrs["failed"]) == 1 and got.attrs["failed"][0].startswith(f"{plain}: ")


class _Counting(BaseHTTPRequestHandler):
    """An OpenAI-compatible /embeddings answer after a short delay, recording when each request came."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        owner = self.server
        with owner.lock:  # type: ignore[attr-defined]
            owner.now += 1  # type: ignore[attr-defined]
            owner.most = max(owner.most, owner.now)  # type: ignore[attr-defined]
            owner.starts.append(time.monotonic())  # type: ignore[attr-defined]
        time.sleep(0.05)
        rows = embedders.hashed_words(16)(list(body["input"]))
        answer = json.dumps({"data": [{"index": i, "embedding": r.tolist()} for i, r in enumerate(rows)]}).encode()
        with owner.lock:  # type: ignore[attr-defined]
            owner.now -= 1  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize(("concurrency", "rate"), [(1, None), (3, 8.0)])
def test_all_workers_embedding_calls_keep_to_one_limit(client, tmp_path, concurrency: int, rate: float | None) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    server.daemon_threads = True
    server.lock, server.now, server.most, server.starts = threading.Lock(), 0, 0, []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        roots = _copies(tmp_path)
        embed = embedders.openai("limited", base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
                                 api_key=None, concurrency=1)
        run = cd.sync_indexes(roots, embed=embed, client=client, cache=tmp_path / "v.sqlite", batch_size=8,
                              embed_concurrency=concurrency, embed_rate=rate, progress=False)
    finally:
        server.shutdown()
        server.server_close()
    assert not run.failed, run.frame()
    starts = sorted(server.starts)  # type: ignore[attr-defined]
    assert len(starts) >= 10  # many calls, from both workers
    assert server.most <= concurrency  # type: ignore[attr-defined]
    if rate is not None:
        # At most floor(rate) calls begin per window of floor(rate) / rate seconds, so n calls span at least
        # ceil(n / floor(rate)) - 1 windows (less a little for the network's jitter; unlimited they take ~0.5 s).
        window, most = math.floor(rate) / rate, math.floor(rate)
        assert starts[-1] - starts[0] >= (math.ceil(len(starts) / most) - 1) * window - 0.3


def test_two_roots_writing_one_database_is_refused_before_any_work(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    with pytest.raises(ValueError, match="same index") as caught:
        cd.sync_indexes([tmp_path / "a", tmp_path / "a"], embed=embedders.hashed_words(32), client="tcp://unused")
    assert "\n" not in str(caught.value)


def test_an_index_at_other_settings_than_clanka_s_says_so_once_per_repository(client, tmp_path) -> None:
    # Issue 53 item 4: never written silently where clanka reads it.
    from clanka_nb.index import ClankaRebuildWarning

    roots = _copies(tmp_path)[:2]
    with pytest.warns(ClankaRebuildWarning) as caught:
        run = cd.sync_indexes(roots, embed=embedders.hashed_words(32), client=client, chunk_size=60,
                              cache=tmp_path / "vectors.sqlite", progress=False)  # fmt: skip
    notes = [str(w.message) for w in caught if w.category is ClankaRebuildWarning]
    assert len(notes) == 2
    for repo, note in zip(run.repositories, notes, strict=True):
        assert repo.clanka_note == note and note.startswith(f"{repo.db} was written at chunk_size=60")
        assert ".tmp" not in note and "will re-embed" in note  # the database's own place, not the temporary file
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", ClankaRebuildWarning)
        clanka_s = cd.sync_indexes(roots, embed=embedders.hashed_words(32), client=client,
                                   cache=tmp_path / "vectors.sqlite", progress=False)  # fmt: skip
    assert all(repo.clanka_note is None for repo in clanka_s.repositories)
