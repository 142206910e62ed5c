"""Another process writing the same index (real processes, real SQLite): wait for it, and never embed for nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest

import clanka_nb as cn
from clanka_nb.index import IndexDatabaseError, SemanticIndex, VectorCache

from .conftest import Counting

# Holds an exclusive lock on the database (readers and writers both wait) for argv[3] seconds.
HOLD = """
import sys, time, apsw
connection = apsw.Connection(sys.argv[1])
connection.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
connection.execute("COMMIT")
"""

# One sync whose embedder waits (bounded) until the other process has embedded too, so both write at once.
SYNC = """
import json, sys, time
from pathlib import Path
from clanka_nb.index import SemanticIndex, VectorCache, embedders

db, root, mine, theirs = sys.argv[1:5]

class Together:
    model_id = "stand-in/hashed-words-8"

    def __init__(self):
        self.inner = embedders.hashed_words(8)
        self.texts = []

    def __call__(self, texts):
        self.texts.extend(texts)
        Path(mine).touch()
        deadline = time.monotonic() + 60
        while not Path(theirs).exists() and time.monotonic() < deadline:
            time.sleep(0.0005)
        return self.inner(texts)

embed = Together()
report = SemanticIndex(root, embed=embed, db=db, cache=VectorCache(), batch_size=100_000).sync()
print(json.dumps({"inputs": report.inputs, "embedded": report.embedded, "reused": report.reused,
                  "texts": len(embed.texts), "distinct": len(set(embed.texts))}))
"""


def _hold(db: Path, flag: Path, seconds: float) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db), str(flag), str(seconds)])
    deadline = time.monotonic() + 60
    while not flag.exists():
        assert holder.poll() is None and time.monotonic() < deadline, "the lock holder did not start"
        time.sleep(0.01)
    return holder


def _timed(action):
    started = time.monotonic()
    result = action()
    return result, time.monotonic() - started


def test_index_sync_and_open_wait_for_another_processs_write(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    (sample / "src" / "index.ts").write_text("export const changed = 2\n")

    holder = _hold(db, tmp_path / "lock-1", 1.0)
    index, waited = _timed(lambda: SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()))
    assert holder.wait(timeout=60) == 0 and waited > 0.5

    holder = _hold(db, tmp_path / "lock-2", 1.0)
    report, waited = _timed(index.sync)
    assert holder.wait(timeout=60) == 0 and waited > 0.5 and report.embedded > 0

    holder = _hold(db, tmp_path / "lock-3", 1.0)
    rows, waited = _timed(lambda: cn.open_index(db).rows())
    assert holder.wait(timeout=60) == 0 and waited > 0.5
    assert set(rows["hash"]) == set(index.rows()["hash"])


def test_a_lock_held_past_busy_timeout_is_named(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    holder = _hold(db, tmp_path / "lock", 5.0)
    try:
        with pytest.raises(IndexDatabaseError, match="busy_timeout="):
            SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache(), busy_timeout=0.3)
        with pytest.raises(IndexDatabaseError, match="busy_timeout="):
            cn.open_index(db, busy_timeout=0.3).rows()
    finally:
        holder.kill()
        holder.wait(timeout=60)


def _codebase(root: Path, files: int, version: int) -> None:
    for number in range(files):
        folder = root / f"pkg{number % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{number}.ts").write_text(
            f"export function price{number}(cents: number): number {{\n  return cents * {number + version}\n}}\n\n"
            f"export class Shelf{number} {{\n  size = {number}\n}}\n"
        )


@pytest.mark.parametrize("rounds", [2])
def test_two_concurrent_syncs_both_succeed_and_embed_each_input_once(tmp_path, rounds):
    root, db = tmp_path / "code", tmp_path / "search.sqlite"
    for version in range(rounds):
        _codebase(root, 300, version)
        flags = [tmp_path / f"embedded-{version}-{side}" for side in "ab"]
        runs = [subprocess.Popen([sys.executable, "-c", SYNC, str(db), str(root), str(mine), str(theirs)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for mine, theirs in (flags, flags[::-1])]
        outputs = [run.communicate(timeout=120) for run in runs]
        for run, (_, errors) in zip(runs, outputs, strict=True):
            assert run.returncode == 0, errors
        reports = [json.loads(out) for out, _ in outputs]
        inputs, new = reports[0]["inputs"], reports[0]["embedded"]
        # Both embedded before either wrote (the embedder waits for the other); each new input once per process.
        assert all(r["texts"] == r["distinct"] == r["embedded"] == new for r in reports), reports
        assert new == inputs if version == 0 else 0 < new < inputs
        # The second writer found the first one's rows and kept them instead of writing its own over them.
        assert sorted(r["reused"] for r in reports) == [inputs - new, inputs], reports
        connection = apsw.Connection(str(db))
        hashes = [row[0] for row in connection.execute("SELECT hash FROM chunks")]
        connection.close()
        assert len(hashes) == len(set(hashes)) == inputs
    with cn.open_index(db, embed=Counting(8)) as index:
        assert len(index.search("price", limit=5)) == 5


class Meanwhile(Counting):
    """The stand-in embedder that, on its first call, lets another connection change the index (a second writer)."""

    def __init__(self, change) -> None:
        super().__init__()
        self.change = change

    def __call__(self, texts):
        if self.change is not None:
            change, self.change = self.change, None
            change()
        return super().__call__(texts)


def test_rows_another_writer_deleted_while_this_sync_embedded_are_embedded_not_lost(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    (sample / "src" / "index.ts").write_text("export const changed = 2\n")
    other = SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache())
    victim = sorted(set(other.rows()["path"]) - {"src/index.ts"})[0]
    embed = Meanwhile(lambda: other.remove_file(victim))
    index = SemanticIndex(sample, embed=embed, db=db, cache=VectorCache())
    report = index.sync()
    rows = index.rows()
    assert victim in set(rows["path"])  # embedded again under the lock, not silently dropped
    assert len(rows) == len(set(rows["hash"])) == report.inputs
    assert embed.calls == 2 and report.embedded == len(embed.texts)
    other.close()


def test_rows_another_writer_added_while_this_sync_embedded_are_kept_not_doubled(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    other = SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache())
    embed = Meanwhile(other.sync)
    report = SemanticIndex(sample, embed=embed, db=db, cache=VectorCache()).sync()
    assert report.reused == report.inputs and report.embedded == report.inputs
    rows = other.rows()
    assert len(rows) == len(set(rows["hash"])) == report.inputs
    assert set(rows["sync_id"]) == {report.sync_id}
    other.close()
