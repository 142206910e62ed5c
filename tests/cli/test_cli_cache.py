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
