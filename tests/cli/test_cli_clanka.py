"""Issue 53 items 1-3 on the command line: the answer about clanka's setting is the first note after the table,
with what applies it in clanka, and a sweep that leaves the character limit at none says clanka's is 10,000."""

from __future__ import annotations

import json

import pytest

import clanka_nb as cn
from tests._shared import run_cli


def test_a_probed_sweep_notes_the_answer_first_with_what_applies_it_in_clanka(capsys) -> None:
    pytest.importorskip("bm25s")
    status, out, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "20,40", "--probe")
    assert status == 0, err
    notes = [line for line in err.splitlines() if line.startswith("clanka-nb: note: ")]
    answer = next(number for number, line in enumerate(notes) if line.startswith("clanka-nb: note: clanka: "))
    verdict = next(number for number, line in enumerate(notes) if line.startswith("clanka-nb: note: verdict: "))
    assert answer < verdict
    said = notes[answer]
    assert ("keep clanka's setting" in said or "change clanka's setting" in said) and "scored by BM25" in said
    assert "in clanka: " in said and ("SemanticSearch.layer" in said or "its default" in said)
    assert "CodeChunker" in said
    assert "reference" in out.splitlines()[0]  # the table marks clanka's own setting's row
    assert "clanka indexes with 10,000" in err  # the grid left chunk_max_characters at no limit


def test_a_sweep_of_the_character_limit_has_no_such_note_and_its_rows_say_which_is_clanka_s(capsys) -> None:
    pytest.importorskip("bm25s")
    status, out, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--max-chars",
                               "none,2000,10000", "--probe", "--format", "json")  # fmt: skip
    assert status == 0, err
    rows = json.loads(out)
    assert [(row["chunk_max_characters"], row["reference"]) for row in rows] == [
        (None, False), (2000, False), (10000, True)]  # fmt: skip
    assert "clanka indexes with 10,000" not in err


def test_the_cli_s_examples_sweep_the_character_limit(capsys) -> None:
    status, out, _ = run_cli(capsys, "sweep", "--help")
    assert status == 0 and "--max-chars none,2000,10000 --probe" in out
