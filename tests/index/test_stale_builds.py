"""A new database is built beside its place and moved there when complete; one a killed worker left half-built
more than an hour ago is removed by the next build in that folder, and nothing else is."""

from __future__ import annotations

import os
import time
from pathlib import Path

from clanka_nb.index import _repositories


def _aged(path: Path, hours: float) -> Path:
    path.write_bytes(b"half")
    then = time.time() - hours * 3600
    os.utime(path, (then, then))
    return path


def test_only_old_half_built_copies_of_this_database_go(tmp_path) -> None:
    target = tmp_path / "db[1].sqlite"  # glob characters in the name are matched as written
    old = _aged(tmp_path / ".db[1].sqlite.0123abcd.tmp", 2)
    young = _aged(tmp_path / ".db[1].sqlite.4567ef01.tmp", 0.1)  # a build running now
    other = _aged(tmp_path / ".db1.sqlite.0123abcd.tmp", 2)  # what a pattern db[1] would have matched
    mine = _aged(tmp_path / ".notes.tmp", 2)  # not a database's
    aside = _aged(tmp_path / "elsewhere.tmp", 2)
    linked = tmp_path / ".db[1].sqlite.89abcdef.tmp"
    linked.symlink_to(aside)  # a link is never followed, nor removed
    os.utime(linked, (time.time() - 7200,) * 2, follow_symlinks=False)
    _repositories._remove_stale(target)
    assert not old.exists()
    assert young.exists() and other.exists() and mine.exists() and aside.exists() and linked.is_symlink()


def test_a_folder_is_listed_once_for_all_its_databases(tmp_path, monkeypatch) -> None:
    # A thousand repositories' databases in one folder: listing it again for each new one grew with the folder.
    for number in range(3):
        _aged(tmp_path / f".r{number}.sqlite.0123abcd.tmp", 2)
    listed: list[str] = []
    real = os.scandir

    def counting(path: str) -> object:
        listed.append(path)
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    for number in range(3):
        _repositories._remove_stale(tmp_path / f"r{number}.sqlite")
    assert listed == [str(tmp_path)]
    assert not any(tmp_path.iterdir())  # each database's old copy went all the same
