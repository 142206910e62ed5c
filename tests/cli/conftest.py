"""A tiny codebase on disk for the command-line tests."""

from __future__ import annotations

from pathlib import Path

import pytest

APP_TS = """\
// Adds two numbers.
export function add(a: number, b: number): number {
  return a + b;
}

export class Cart {
  total(): number {
    return 0;
  }
}
"""

NOTES_MD = "# Notes\n\nA short page of prose.\n"


@pytest.fixture
def code(tmp_path: Path) -> Path:
    """src/app.ts (a function, a class, a method), docs/notes.md (prose) and an empty src/empty.ts."""
    root = tmp_path / "code"
    (root / "src").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "app.ts").write_text(APP_TS, encoding="utf-8")
    (root / "src" / "empty.ts").write_text("   \n", encoding="utf-8")
    (root / "docs" / "notes.md").write_text(NOTES_MD, encoding="utf-8")
    return root
