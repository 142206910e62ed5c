"""The vector cache on disk: a new process, a rerun or an interrupted sync embeds only what was never stored."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from clanka_nb.engine.embedding import input_hash
from clanka_nb.index import SemanticIndex, VectorCache, VectorCacheWarning, _vectors, default_cache, embedders

REPO = Path(__file__).resolve().parents[2]

# A child process: the hashed-words stand-in embedder (not a language model) counting what it is asked to embed.
CHILD = textwrap.dedent(
    """
    import json, sys, time
    import clanka_nb as cn
    from clanka_nb.index import SemanticIndex, embedders

    class Counting:
        def __init__(self, pause):
            self.inner = embedders.hashed_words(32)
            self.model_id = self.inner.model_id + "/counting"
            self.texts, self.pause, self.progress = [], pause, sys.argv[4]

        def __call__(self, texts):
            self.texts.extend(texts)
            with open(self.progress, "a") as out:
                out.write(f"{len(texts)}\\n")
            time.sleep(self.pause)
            return self.inner(texts)

    what, source, pause = sys.argv[1], sys.argv[2], float(sys.argv[3])
    embed = Counting(pause)
    if what == "sweep":
        table = cn.sweep(source, chunk_size=[10, 30], probe=cn.Probe(embed=embed), progress=False)
        print(json.dumps({"embedded": table.attrs["embedded"], "texts": len(embed.texts)}))
    else:
        index = SemanticIndex(source, embed=embed, db=sys.argv[5], batch_size=5, progress=False)
        report = index.sync()
        print(json.dumps({"embedded": report.embedded, "cached": report.cached, "inputs": report.inputs,
                          "texts": len(embed.texts)}))
    """
)


def _child(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    environment = {**os.environ, "CLANKA_NB_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    environment.pop("CLANKA_NB_CACHE", None)
    environment.update(env or {})
    return subprocess.Popen(
        [sys.executable, str(script), *args], env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def _result(process: subprocess.Popen[str]) -> dict[str, int]:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_a_second_identical_sweep_in_a_new_process_embeds_nothing(sample, tmp_path):
    progress = str(tmp_path / "calls")
    first = _result(_child(tmp_path, "sweep", str(sample), "0", progress))
    second = _result(_child(tmp_path, "sweep", str(sample), "0", progress))
    assert first["embedded"] == first["texts"] > 0
    assert second == {"embedded": 0, "texts": 0}
    # With the cache switched off, each process pays again.
    off = _result(_child(tmp_path, "sweep", str(sample), "0", progress, env={"CLANKA_NB_CACHE": "off"}))
    assert off["embedded"] == first["embedded"]


def test_a_sync_killed_halfway_resumes_embedding_only_what_was_not_stored(sample, tmp_path):
    progress = tmp_path / "calls"
    db = str(tmp_path / "index.sqlite")
    process = _child(tmp_path, "sync", str(sample), "0.3", str(progress), db)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if progress.exists() and len(progress.read_text().splitlines()) >= 4:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the sync ended before it could be interrupted"
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    stored = len(VectorCache(tmp_path / "cache" / _vectors.FILE_NAME))
    rerun = _result(_child(tmp_path, "sync", str(sample), "0", str(tmp_path / "calls-2"), db))
    assert 0 < stored < rerun["inputs"]
    assert rerun["cached"] == stored
    assert rerun["embedded"] == rerun["texts"] == rerun["inputs"] - stored


def _vectors_of(cache: VectorCache, texts: list[str], embed) -> np.ndarray:
    by_hash = {input_hash(text): text for text in texts}
    done = _vectors.embed_texts(embed, by_hash, model=embed.model_id, cache=cache)
    return np.stack([np.frombuffer(done.blobs[digest], dtype=np.float32) for digest in by_hash])


class Counted:
    def __init__(self) -> None:
        self.inner = embedders.hashed_words(16)
        self.model_id = "test/counted"
        self.count = 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.count += len(texts)
        return self.inner(texts)


def test_a_damaged_entry_is_removed_and_embedded_again_with_one_warning(tmp_path):
    path = tmp_path / "vectors.sqlite3"
    embed = Counted()
    texts = [f"function f{i}() {{}}" for i in range(6)]
    expected = _vectors_of(VectorCache(path), texts, embed)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE vectors SET vector = zeroblob(64) WHERE hash = ?", (input_hash(texts[0]),))
        db.execute("UPDATE vectors SET vector = 'text' WHERE hash = ?", (input_hash(texts[1]),))
    _vectors._warned.clear()
    embed.count = 0
    with pytest.warns(VectorCacheWarning, match="2 damaged entries") as caught:
        again = _vectors_of(VectorCache(path), texts, embed)
    assert len(caught) == 1
    assert embed.count == 2 and np.array_equal(again, expected)


@pytest.mark.parametrize("damage", ["garbage", "folder", "foreign"])
def test_an_unusable_file_falls_back_to_memory_with_one_warning(tmp_path, damage):
    path = tmp_path / "vectors.sqlite3"
    if damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    elif damage == "folder":
        path.mkdir()
    else:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE vectors (model TEXT, hash TEXT, vector BLOB)")
    before = path.read_bytes() if path.is_file() else None
    _vectors._warned.clear()
    embed = Counted()
    cache = VectorCache(path)
    texts = ["alpha beta", "gamma delta"]
    with pytest.warns(VectorCacheWarning, match="kept in memory") as caught:
        first = _vectors_of(cache, texts, embed)
        second = _vectors_of(cache, texts, embed)  # the memory fallback still embeds nothing twice
    assert len(caught) == 1
    assert embed.count == 2 and np.array_equal(first, second)
    if before is not None:
        assert path.read_bytes() == before


def test_the_file_stays_within_its_bound_least_recently_used_first(tmp_path):
    cache = VectorCache(tmp_path / "vectors.sqlite3", max_bytes=20_000)
    blob = np.zeros(64, dtype=np.float32).tobytes()  # 256 bytes, about 330 with its key
    for start in range(0, 300, 10):
        cache.put("test/model", [(f"{i:064x}", blob) for i in range(start, start + 10)])
        time.sleep(0.001)
    info = cache.info()
    assert 0 < info.bytes <= 20_000 and info.entries < 300
    kept = cache.get("test/model", [f"{i:064x}" for i in range(300)])
    assert f"{299:064x}" in kept and f"{0:064x}" not in kept  # the newest stay, the oldest went


def test_vectors_of_an_embedder_without_an_id_are_never_written_to_disk(tmp_path):
    path = tmp_path / "vectors.sqlite3"
    inner = embedders.hashed_words(8)
    cache = VectorCache(path)
    model = _vectors.model_id_of(lambda texts: inner(texts))
    assert model.startswith("local:")
    cache.put(model, [("a" * 64, np.ones(8, dtype=np.float32).tobytes())])
    assert cache.get(model, ["a" * 64])  # kept for this process
    assert VectorCache(path).get(model, ["a" * 64]) == {}  # not for another one


WRITER = textwrap.dedent(
    """
    import sys, warnings
    import numpy as np
    from clanka_nb.index import VectorCache
    warnings.simplefilter("error")
    cache = VectorCache(sys.argv[1])
    blob = np.full(32, float(sys.argv[2]), dtype=np.float32).tobytes()
    for start in range(0, 3000, 50):
        cache.put("test/model", [(f"{sys.argv[2]}-{i}", blob) for i in range(start, start + 50)])
    """
)


def test_two_processes_writing_at_once_both_keep_every_vector(tmp_path):
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    path = tmp_path / "vectors.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writers = [subprocess.Popen([sys.executable, str(script), str(path), str(n)], env=env, stderr=subprocess.PIPE,
                                text=True) for n in (1, 2)]  # fmt: skip
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
    cache = VectorCache(path)
    for n in (1, 2):
        found = cache.get("test/model", [f"{n}-{i}" for i in range(3000)])
        assert len(found) == 3000 and set(found.values()) == {np.full(32, n, dtype=np.float32).tobytes()}


def test_the_default_cache_is_the_file_in_the_cache_folder_unless_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "here"))
    monkeypatch.delenv("CLANKA_NB_CACHE", raising=False)
    assert default_cache().path == str(tmp_path / "here" / "vector-cache.sqlite3")
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")
    assert default_cache().path == ":memory:"


def test_an_index_reads_its_vectors_from_the_file_an_earlier_index_wrote(sample, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", VectorCacheWarning)
        path = tmp_path / "vectors.sqlite3"
        embed = Counted()
        first = SemanticIndex(sample, embed=embed, cache=VectorCache(path), progress=False).sync()
        embed.count = 0
        second = SemanticIndex(sample, embed=embed, cache=VectorCache(path), progress=False).sync()
    assert first.embedded > 0 and (second.embedded, second.cached, embed.count) == (0, first.embedded, 0)


def test_clear_that_leaves_vectors_behind_fails_and_says_so(tmp_path, capsys, monkeypatch):
    from clanka_nb.cli import main
    from clanka_nb.index import VectorCacheError

    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache" / _vectors.FILE_NAME).mkdir(parents=True)
    (tmp_path / "cache" / _vectors.FILE_NAME / "entry").write_text("x")
    with pytest.raises(VectorCacheError, match="it is a folder"):
        VectorCache(tmp_path / "cache" / _vectors.FILE_NAME).clear()
    assert main(["cache", "clear"]) == 1
    assert "could not clear the vector cache" in capsys.readouterr().err
