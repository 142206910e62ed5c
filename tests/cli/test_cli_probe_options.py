"""`clanka-nb sweep --probe` builds one `Probe` from its options: the library's checks, the library's columns."""

from __future__ import annotations

import json

import pytest

import clanka_nb as cn
from tests._shared import run_cli as run

pytest.importorskip("bm25s")


def _error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clanka-nb: error: "), err
    return lines[0]


def test_budget_metric_and_targets_reach_the_probe(capsys):
    sample = str(cn.sample_codebase())
    status, out, err = run(capsys, "sweep", sample, "--probe", "--chunk-size", "10,60", "--budget", "1000,2000",
                           "--metric", "budget_found@1000", "--targets", "all", "--format", "json")  # fmt: skip
    assert status == 0, err
    rows = json.loads(out)
    expected = cn.sweep(sample, chunk_size=[10, 60], progress=False,
                        probe=cn.Probe(budget=[1000, 2000], metric="budget_found@1000", targets="all"))  # fmt: skip
    for name in ("budget_found@1000", "budget_covered@1000_low", "budget_covered@2000", "tokens@5", "lines@10"):
        assert [row[name] for row in rows] == pytest.approx(expected[name].tolist())
    assert "verdict: " in err


def test_the_table_shows_the_budgeted_columns_and_the_verdict_metric_s_interval(capsys):
    status, out, _ = run(capsys, "sweep", str(cn.sample_codebase()), "--probe", "--chunk-size", "10", "-q")
    header = out.splitlines()[0].split()
    # The verdict's measure is shown; the other columns of the view are shown or, to fit 100 columns, named in
    # the footer as left out (-o FILE.csv has them all).
    footer = " ".join(out.split("\n\n", 1)[1].split()) if "\n\n" in out else ""
    assert "budget_covered@2000" in header
    for name in ("tokens@5", "budget_found@2000", "budget_covered@2000_low"):
        assert name in header or f" {name}," in footer or f" {name};" in footer, name
    assert status == 0 and "budget_found@2000_low" not in header and "budget_found@2000_low" not in footer


@pytest.mark.parametrize(("argv", "says"), [
    (["--budget", "1000"], "--budget is an option of the probe; add --probe"),
    (["--metric", "mrr", "--k", "3"], "--k, --metric are options of the probe; add --probe"),
    (["--probe", "--metric", "recall@7"], "metric must name one of"),
    (["--probe", "--budget", "0"], "'0' is not a number of tokens"),
])  # fmt: skip
def test_a_bad_or_lone_probe_option_is_one_error(capsys, argv, says):
    status, _, err = run(capsys, "sweep", str(cn.sample_codebase()), *argv)
    assert status == 2 and says in _error(err)


def test_the_margin_reaches_the_verdict_and_a_bad_one_is_one_line(capsys):
    sample = str(cn.sample_codebase())
    status, _, err = run(capsys, "sweep", sample, "--probe", "--chunk-size", "10,20", "--margin", "0.5")
    assert status == 0 and "equivalent to the best within \u00b10.5" in err  # half the scale: both within it
    status, _, err = run(capsys, "sweep", sample, "--probe", "--chunk-size", "10,20", "--margin", "none")
    assert status == 0 and "equivalent" not in err
    status, _, err = run(capsys, "sweep", sample, "--probe", "--margin", "2")
    assert status == 2 and "is not a margin" in err and "e.g. --margin 0.02" in err
    status, _, err = run(capsys, "sweep", sample, "--margin", "0.1")
    assert status == 2 and "--margin is an option of the probe" in err
