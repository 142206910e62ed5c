"""The `exact` extra: tree-sitter's 0.24 core, which recovers from syntax errors as the reference's core does.

These run where that core is installed: `.ci/run` builds a venv with `pip install -e .[exact]` for them
(and runs the round-2 conformance cases there, which must all pass). The default install has a newer
core, so here they skip.
"""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest

from clanka_nb import engine


def _core() -> tuple[int, ...]:
    return tuple(int(part) for part in version("tree-sitter").split(".")[:2])


pytestmark = pytest.mark.skipif(
    _core() >= (0, 25), reason="needs the `exact` extra's tree-sitter 0.24 core (.ci/run's exact venv runs it)"
)

CSHARP = "namespace Shop;\n\npublic class Cart\n{\n    public int Count() { return 0; }\n}\n"


def test_error_recovery_is_the_references() -> None:
    # From issue 10: the reference keeps the class around the broken `e>st`; a 0.25+ core loses it.
    text = "export default class Aniect extends AnimatedWithChildren {\n e>st "
    chunks = engine.chunk_file_content("x.js", text, chunk_size=30, chunk_overlap=0)
    assert [(c.start_line, c.end_line, c.name, c.type) for c in chunks] == [(1, 2, "Aniect", "class")]


def test_clanka_mode_does_not_need_the_newer_grammars(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("export function a() {\n  return 1;\n}\n", encoding="utf-8")
    (tmp_path / "b.cs").write_text(CSHARP, encoding="utf-8")  # a window file in clanka mode: never parsed
    chunks = engine.chunk_codebase(tmp_path)
    assert [(c.path, c.name) for c in chunks] == [("a.ts", "a"), ("b.cs", None)]


@pytest.mark.parametrize("files", [1, 20], ids=["in-process", "worker-processes"])
def test_a_grammar_the_core_cannot_load_is_a_clear_error(tmp_path: Path, files: int) -> None:
    for index in range(files):
        (tmp_path / f"cart{index}.cs").write_text(CSHARP, encoding="utf-8")
    with pytest.raises(engine.GrammarUnavailableError) as caught:
        engine.Codebase(tmp_path, languages="extended", workers=2, cache=False)
    message = str(caught.value)
    assert "csharp grammar" in message
    assert f"tree-sitter {version('tree-sitter')} is installed" in message
    assert "pip install 'tree-sitter>=0.25'" in message
