"""`clanka-nb sweep --chunkers`: whole chunkers by name, sized from one `--chunker-budget`, as the library's rows."""

from __future__ import annotations

import json

import pytest

import clanka_nb as cn
from clanka_nb.defaults import CHUNKER_BUDGET
from tests._shared import run_cli as run
from tests.chunkers._files import need_peer


def _error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clanka-nb: error: "), err
    return lines[0]


def test_named_chunkers_are_rows_of_the_library_s_sweep(capsys):
    pytest.importorskip("bm25s")
    sample = str(cn.sample_codebase())
    status, out, err = run(capsys, "sweep", sample, "--chunk-size", "30", "--probe", "--chunkers",
                           "line-windows,clanka", "--chunker-budget", "1200", "--format", "json")  # fmt: skip
    assert status == 0, err
    rows = json.loads(out)
    budget = cn.chunkers.Budget(1200).measured_on(sample)
    expected = cn.sweep(sample, chunk_size=[30], probe=True, progress=False,
                        chunkers=cn.chunkers.named_chunkers(["line-windows", "clanka"], budget, languages="clanka"))
    # The named clanka's label says its mode (issue 46 item 1): the CLI passes --languages, "clanka" by default.
    # The grid's row, clanka's own setting (issue 53: every probed sweep scores it), then the chunkers.
    assert [row["chunker_label"] for row in rows] == expected["chunker_label"].tolist() == [
        "clanka", "clanka", "line windows of 1200 chars", "clanka (clanka), at most 1200 chars"]  # fmt: skip
    assert [row["reference"] for row in rows] == [False, True, False, False]
    for name in ("chunks", "coverage", "budget_covered@2000", "budget_covered@2000_low", "tokens@5"):
        assert [row[name] for row in rows] == pytest.approx(expected[name].tolist())
    assert "verdict: " in err and "chunker=" in err


def test_the_table_names_each_row_s_chunker(capsys):
    status, out, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--chunkers",
                           "line_windows", "-q")  # fmt: skip
    assert status == 0, err
    header = out.splitlines()[0].split()
    assert header[0] == "chunker_label" and "fallback_files" in header
    assert f"line windows of {CHUNKER_BUDGET} chars" in out  # the default budget, stated in the label


def test_a_peer_by_name(capsys):
    need_peer("astchunk")
    status, out, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--chunkers",
                           "astchunk", "--format", "json", "-q")  # fmt: skip
    assert status == 0, err
    rows = json.loads(out)
    assert rows[1]["chunker_label"] == "astchunk" and rows[1]["fallback_files"] > 0
    assert json.loads(rows[1]["chunker_parameters"])["unit"] == "non-whitespace characters"


def test_an_unknown_name_is_a_usage_error_naming_the_choices(capsys):
    status, _, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunkers", "line-windows,tiktok")
    line = _error(err)
    assert status == 2 and "'tiktok'" in line and "astchunk" in line and "line-windows" in line


def test_a_budget_without_chunkers_is_a_usage_error(capsys):
    status, _, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunker-budget", "900")
    assert status == 2 and "add --chunkers" in _error(err)


@pytest.mark.parametrize("value", ["0", "lots", "-5"])
def test_a_bad_budget_is_refused_by_the_parser(capsys, value):
    status, _, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunkers", "clanka", "--chunker-budget",
                         value)  # fmt: skip
    assert status == 2 and "--chunker-budget 1500" in err


def test_a_probed_bake_off_that_fills_100_columns_keeps_fallback_files(capsys):
    # Probed, the table has far more columns than 100 hold: fallback_files is among those never left out
    # (issue 56, 5), so a terminal user sees which rows are a chunker's own cut.
    pytest.importorskip("bm25s")
    status, out, err = run(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--probe",
                           "--chunkers", "line_windows", "-q")  # fmt: skip
    assert status == 0, err
    lines = out.splitlines()
    assert "left out to fit 100 columns" in out  # the case at issue: columns were dropped
    assert "fallback_files" in lines[0].split() and max(map(len, lines)) <= 100
