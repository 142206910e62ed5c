"""Issue 53 item 5: when most chunked files got line windows but extended mode has their grammar, one note says so,
names languages="extended" and says clanka itself cuts them into windows: in the frames, explain and the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb import frames
from tests._shared import run_cli


def _go_library(root: Path) -> Path:
    for number in range(4):
        (root / f"part{number}.go").write_text(
            "package lib\n\n" + "".join(f"// Add{number}x{i} adds.\nfunc Add{number}x{i}(a, b int) int {{\n"
                                        f"\treturn a + b + {i}\n}}\n\n" for i in range(12)))  # fmt: skip
    (root / "index.ts").write_text("export function main(): number {\n  return 1;\n}\n")
    return root


def test_a_go_library_in_clanka_mode_gets_one_note_naming_extended_mode(tmp_path: Path) -> None:
    root = _go_library(tmp_path)
    for frame in (frames.files(root), frames.chunk_codebase(root, progress=False)):
        note = frame.attrs["mode_note"]
        assert note.startswith("4 of the 5 chunked files got line windows") and "go (4)" in note
        assert 'languages="extended"' in note and "clanka itself would cut them into line windows" in note
    for frame in (frames.files(root, languages="extended"), frames.chunk_codebase(root, languages="extended")):
        assert "mode_note" not in frame.attrs  # extended mode cut them at their declarations


def test_a_codebase_mostly_in_clanka_s_languages_has_no_note(tmp_path: Path) -> None:
    for number in range(3):
        (tmp_path / f"m{number}.ts").write_text(f"export const v{number} = {number};\n")
    (tmp_path / "one.go").write_text("package lib\n\nfunc One() int {\n\treturn 1\n}\n")
    assert "mode_note" not in frames.files(tmp_path).attrs


def test_explain_s_sentence_names_extended_mode_for_such_a_file(tmp_path: Path) -> None:
    root = _go_library(tmp_path)
    why = frames.explain(root, "part0.go")["why"].iloc[0]
    assert "are not parsed, so they get line windows" in why
    assert 'languages="extended" would cut this go file at its declarations' in why
    assert "clanka itself cuts it into line windows" in why
    extended = frames.explain(root, "part0.go", languages="extended")["why"].iloc[0]
    assert 'languages="extended"' not in extended


@pytest.mark.parametrize("command", ["files", "chunk"])
def test_the_cli_says_the_note_once(capsys, tmp_path: Path, command: str) -> None:
    root = _go_library(tmp_path)
    status, _, err = run_cli(capsys, command, str(root))
    assert status == 0, err
    assert err.count('languages="extended" cuts them at their declarations') == 1
    status, _, err = run_cli(capsys, command, str(root), "--languages", "extended")
    assert status == 0 and 'languages="extended" cuts them' not in err
