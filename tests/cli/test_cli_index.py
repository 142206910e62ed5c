"""`clanka-nb index ROOT... --dask ADDRESS`: every repository's index on a cluster, one row per repository."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

from clanka_nb.cli import main

pytest.importorskip("distributed")
pytest.importorskip("apsw")


@pytest.fixture(scope="module")
def address():
    from clanka_nb.dask import local_client

    client = local_client(1)
    yield client.scheduler.address
    cluster = client.cluster
    client.close()
    cluster.close()


def test_index_builds_each_repository_and_a_second_run_reads_nothing(code, tmp_path, address) -> None:
    other = tmp_path / "other"
    shutil.copytree(code, other)
    out = tmp_path / "run.csv"
    assert main(["index", str(code), str(other), "--dask", address, "--stand-in", "-q", "-o", str(out)]) == 0
    first = pd.read_csv(out)
    assert list(first["status"]) == ["synced", "synced"] and (first["inputs"] > 0).all()
    assert (first["embedded"] + first["cached"] == first["inputs"]).all()
    assert first["embedded"].iloc[1] == 0  # the copy's inputs were embedded for the first (or before): not again
    assert (code / ".clanka" / "search.sqlite").is_file() and (other / ".clanka" / "search.sqlite").is_file()
    assert main(["index", str(code), str(other), "--dask", address, "--stand-in", "-q", "-o", str(out)]) == 0
    again = pd.read_csv(out)
    assert list(again["status"]) == ["unchanged", "unchanged"] and (again["embedded"] == 0).all()


def test_a_failing_repository_is_a_note_and_exit_1_the_others_are_indexed(code, tmp_path, address, capsys) -> None:
    missing = tmp_path / "missing"
    out = tmp_path / "run.jsonl"
    assert main(["index", str(missing), str(code), "--dask", address, "--stand-in", "-o", str(out)]) == 1
    rows = pd.read_json(out, lines=True)
    assert list(rows["status"]) == ["failed", "synced"]
    err = capsys.readouterr().err
    assert f"note: {missing}: FileNotFoundError" in err and err.count("\n") >= 1


def test_index_without_an_embedder_is_one_line_naming_the_options(code, capsys) -> None:
    assert main(["index", str(code)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--embed-url URL --embed-model NAME" in err and "--stand-in" in err
