"""`clanka-nb sweep --probe` says how many queries each source gave, test names by language (issue 52)."""

from __future__ import annotations

import pytest

from tests._shared import run_cli as run

CODE = """package money

// Rounds an amount to whole cents for the invoice.
func RoundCents(v int) int { return v }
"""
TEST = """package money

import "testing"

func TestRoundCentsKeepsWholeAmounts(t *testing.T) {
\tif RoundCents(3) != 3 { t.Fatal("bad") }
}
"""


def test_the_note_counts_test_names_by_language(capsys, tmp_path):
    pytest.importorskip("bm25s")
    (tmp_path / "money.go").write_text(CODE)
    (tmp_path / "money_test.go").write_text(TEST)
    status, _, err = run(capsys, "sweep", str(tmp_path), "--chunk-size", "10", "--probe", "--languages", "extended")
    assert status == 0, err
    assert "queries: 1 from doc comments; 1 from test names (go 1)" in err
