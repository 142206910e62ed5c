"""`clanka-nb cache info|clear`: the parse cache filled by a run, shown and emptied."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb.cli import main


def test_cache_info_shows_entries_of_a_run_and_clear_empties_it(
    capsys, code: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["chunk", str(code), "-q"]) == 0
    capsys.readouterr()
    assert main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert f"path: {tmp_path / 'cache' / 'parse-cache.sqlite3'}" in info
    assert "entries: 1\n" in info  # src/app.ts; the empty file and the Markdown are never parsed
    assert main(["cache", "clear"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    assert main(["cache", "info"]) == 0
    assert "entries: 0\n" in capsys.readouterr().out


def test_cache_needs_an_action(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["cache", "drop"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'drop'" in capsys.readouterr().err


def test_cache_info_and_clear_cover_the_vector_cache(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    np = pytest.importorskip("numpy")
    from clanka_nb.index import VectorCache
    from clanka_nb.index._vectors import default_path

    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    VectorCache(default_path()).put("test/model", [(f"{i:064x}", np.ones(4, dtype=np.float32).tobytes())
                                                   for i in range(3)])
    assert main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert f"vectors path: {tmp_path / 'cache' / 'vector-cache.sqlite3'}" in info and "vectors: 3," in info
    assert main(["cache", "clear"]) == 0
    assert "removed 3 vectors" in capsys.readouterr().out
    assert len(VectorCache(default_path())) == 0


def test_clear_with_a_folder_where_the_cache_file_should_be_fails_and_says_so(
    capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Works as root too (chmod stops no root): a non-empty folder in the cache file's place cannot be cleared.
    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache" / "parse-cache.sqlite3").mkdir(parents=True)
    (tmp_path / "cache" / "parse-cache.sqlite3" / "entry").write_text("x")
    assert main(["cache", "clear"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "removed" not in err
    assert err.count("\n") == 1 and err.startswith("clanka-nb: error: could not clear the parse cache")
    assert "it is a folder" in err and "delete" in err


FULL_DISK = """
import resource, signal, sys
# A disk that is full for this process: no file may grow past a few bytes (SIGXFSZ ignored, so writes fail
# with EFBIG as on a full disk instead of killing the process). Root is bound by it too.
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
from clanka_nb.cli import main
sys.exit(main(["cache", "clear"]))
"""


def test_clear_on_a_full_disk_reports_the_entries_left_and_fails(
    capsys, code: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import subprocess
    import sys

    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["chunk", str(code), "-q"]) == 0
    capsys.readouterr()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run([sys.executable, "-c", FULL_DISK], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "removed" not in result.stdout
    err = result.stderr
    assert err.count("\n") == 1 and "could not clear the parse cache" in err and "1 entries are still there" in err
    # Nothing was lost or half-done: the entry is still there, and a clear with room removes it.
    assert main(["cache", "info"]) == 0
    assert "entries: 1\n" in capsys.readouterr().out
    assert main(["cache", "clear"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out


def test_cache_info_and_clear_cover_the_history_cache(capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")
    from clanka_nb.retrieval import history_queries
    from tests.retrieval.test_history_queries import commit, function, run_git

    monkeypatch.setenv("CLANKA_NB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CLANKA_NB_CACHE", raising=False)
    root = tmp_path / "repo"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    commit(root, "Add the parser of price labels", {"src/price.ts": function("parse", "value += 1;")})
    history_queries(root, progress=False)
    history_queries(root, progress=False, targets="all")
    assert main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert f"histories path: {tmp_path / 'cache' / 'history-cache.sqlite3'} (2 histories' queries)" in info
    assert main(["cache", "clear"]) == 0
    assert "removed 2 histories" in capsys.readouterr().out
    assert main(["cache", "info"]) == 0
    assert "(0 histories' queries)" in capsys.readouterr().out
