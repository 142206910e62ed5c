"""Token statistics are named by what counted them: the chars/4 estimate as `est_tokens_*`, a tokenizer's counts as
`tokens_*` (the total a whole number), in the frame, its attrs, the CLI's table and its files (issue 39)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb.cli import main
from clanka_nb.frames import columns
from clanka_nb.widgets._tune_model import render_stats

SAMPLE = cn.sample_codebase()
ESTIMATES = ["est_tokens_mean", "est_tokens_p95", "est_tokens_total"]
COUNTS = ["tokens_mean", "tokens_p95", "tokens_total"]


def _token_columns(frame: pd.DataFrame) -> list[str]:
    return [name for name in frame.columns if "tokens_" in name]


def test_without_a_counter_the_chars_over_4_values_carry_the_estimate_name() -> None:
    frame = cn.sweep(SAMPLE, chunk_size=[10, 30], workers=1, progress=False)
    assert _token_columns(frame) == ESTIMATES  # no `tokens_*` column holds characters / 4
    assert frame.attrs["token_counter"] == "chars/4 estimate"
    chunks = cn.chunk_codebase(SAMPLE, chunk_size=10, workers=1, progress=False)
    assert frame["est_tokens_total"].iloc[0] == chunks["characters"].sum() / 4
    # A limit alone counts with the estimate too (of the embedding inputs, rounded up): still named as one.
    limited = cn.sweep(SAMPLE, chunk_size=[10], token_limit=50, workers=1, progress=False)
    assert _token_columns(limited) == ESTIMATES and "over_limit" in limited.columns


def test_with_a_counter_the_columns_are_whole_counts() -> None:
    def words(text: str) -> int:
        return len(text.split())

    frame = cn.sweep(SAMPLE, chunk_size=[10, 30], token_counter=words, workers=1, progress=False)
    assert _token_columns(frame) == COUNTS
    assert str(frame["tokens_total"].dtype) == "Int64"
    assert frame.attrs["token_counter"] == "words"
    for row in frame.itertuples():
        chunks = cn.chunk_codebase(SAMPLE, chunk_size=row.chunk_size, token_counter=words, workers=1, progress=False)
        assert row.tokens_total == chunks["tokens"].sum()


def test_the_names_are_defined_once_and_found_through_one_helper() -> None:
    assert list(columns.token_stats_schema(estimated=True)) == ESTIMATES
    assert list(columns.token_stats_schema(estimated=False)) == COUNTS
    assert columns.token_stat_in(["chunks", "est_tokens_p95"], "p95") == "est_tokens_p95"
    assert columns.token_stat_in(["tokens_p95"], "p95") == "tokens_p95"
    assert columns.token_stat_in(["chunks"], "p95") is None
    with pytest.raises(ValueError, match="no token statistic"):
        columns.token_stat("median", estimated=True)


def test_the_cli_table_header_and_files_name_the_estimate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["sweep", str(SAMPLE), "--chunk-size", "10,20"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert "est_tokens_p95" in header and "tokens_p95" not in header
    assert main(["sweep", str(SAMPLE), "--chunk-size", "10", "--format", "jsonl"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert [name for name in record if "tokens_" in name] == ESTIMATES
    for name in ("sweep.csv", "sweep.parquet"):
        assert main(["sweep", str(SAMPLE), "--chunk-size", "10", "-o", str(tmp_path / name)]) == 0
    written = [pd.read_csv(tmp_path / "sweep.csv"), pd.read_parquet(tmp_path / "sweep.parquet")]
    assert all(_token_columns(frame) == ESTIMATES for frame in written)


def test_the_tuning_panel_labels_the_total_by_its_column() -> None:
    row = cn.sweep(SAMPLE, chunk_size=[10], workers=1, progress=False).iloc[0].to_dict()
    html = render_stats(row)
    assert 'data-stat="est_tokens_total"' in html and "tokens (≈ chars / 4)" in html
    counted = {**{k: v for k, v in row.items() if k not in ESTIMATES}, "tokens_total": 1234, "token_counter": "words"}
    html = render_stats(counted)
    assert 'data-stat="tokens_total"' in html and "tokens (words)" in html and "1,234" in html
