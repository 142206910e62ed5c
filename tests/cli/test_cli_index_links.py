"""`clanka-nb index` on a clone whose `.clanka` links to another repository's: one note, exit 1, that index kept."""

from __future__ import annotations

import os
import shutil

import pandas as pd
import pytest

from clanka_nb.cli import main

pytest.importorskip("distributed")
pytest.importorskip("apsw")


def test_a_linked_clanka_folder_is_a_one_line_note_and_the_other_index_is_kept(code, tmp_path, capsys) -> None:
    from clanka_nb.dask import local_client

    clone = tmp_path / "clone"
    shutil.copytree(code, clone)
    (clone / "src" / "planted.ts").write_text("export const planted = 1;\n")
    client = local_client(1)
    try:
        address = client.scheduler.address
        assert main(["index", str(code), "--dask", address, "--stand-in", "-q"]) == 0
        index = code / ".clanka" / "search.sqlite"
        before = index.read_bytes()
        os.symlink(code / ".clanka", clone / ".clanka")  # as a clone carries it: git stores links
        out = tmp_path / "run.csv"
        assert main(["index", str(clone), "--dask", address, "--stand-in", "-o", str(out)]) == 1
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert list(pd.read_csv(out)["status"]) == ["failed"]
    notes = [line for line in capsys.readouterr().err.splitlines() if "note:" in line]
    assert len(notes) == 1 and "symbolic link" in notes[0] and "db=" in notes[0]
    assert index.read_bytes() == before
