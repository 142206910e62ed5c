"""The `languages` setting: the two modes never leak into each other, on every entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb.engine import Codebase, chunk_codebase, chunk_file, chunk_file_content, chunk_files, is_meaningful_file

PY = "import os\n\n\ndef main():\n    return os.getcwd()\n"
TS = "/* Header. */\n\nexport abstract class Base {\n  run() {}\n}\n"


def _shape(chunks) -> list[tuple]:
    return [(c.path, c.start_line, c.end_line, c.name, c.type, c.parent) for c in chunks]


def test_every_entry_point_takes_the_setting(tmp_path: Path):
    (tmp_path / "app.py").write_text(PY, encoding="utf-8")
    (tmp_path / "base.ts").write_text(TS, encoding="utf-8")
    extended = [
        _shape(chunk_file_content("app.py", PY, languages="extended")),
        _shape(chunk_file(tmp_path, "app.py", languages="extended")),
        _shape(c for c in chunk_files(tmp_path, ["app.py"], languages="extended")),
        _shape(c for c in chunk_codebase(tmp_path, languages="extended") if c.path == "app.py"),
        _shape(c for c in Codebase(tmp_path, languages="extended").chunks() if c.path == "app.py"),
        _shape(c for c in Codebase.from_texts({"app.py": PY}, languages="extended").chunks()),
    ]
    assert all(shape == [("app.py", 4, 5, "main", "function", None)] for shape in extended)
    clanka = _shape(chunk_codebase(tmp_path))
    assert ("app.py", 1, 5, None, None, None) in clanka  # a blind window in the reference's mode


def test_clanka_mode_is_unchanged_on_typescript():
    # The reference skips an abstract class; extended mode records it and its method.
    assert chunk_file_content("base.ts", TS) == chunk_file_content("base.ts", TS, languages="clanka")
    assert [(c.name, c.type) for c in chunk_file_content("base.ts", TS)] == [(None, None)]
    assert [(c.name, c.type) for c in chunk_file_content("base.ts", TS, languages="extended")] == [
        ("Base", "class"),
        ("run", "method"),
    ]


def test_prepared_text_reports_the_grammar():
    codebase = Codebase.from_texts({"app.py": PY, "base.ts": TS, "notes.md": "# Notes\n"}, languages="extended")
    assert [codebase.text(p).grammar for p in ("app.py", "base.ts", "notes.md")] == ["python", "typescript", None]
    reference = Codebase.from_texts({"app.py": PY}, languages="clanka")
    assert reference.text("app.py").grammar is None
    assert reference.text("app.py").declarations == []


def test_a_file_without_declarations_falls_back_to_windows():
    src = "import os\nprint(os.getcwd())\n" * 3
    out = chunk_file_content("script.py", src, chunk_size=4, languages="extended")
    assert [(c.start_line, c.end_line, c.name, c.type) for c in out] == [(1, 4, None, None), (5, 6, None, None)]


def test_unknown_mode_is_rejected_with_the_choices():
    with pytest.raises(ValueError, match=r"'clanka'.*'extended'"):
        chunk_file_content("a.py", PY, languages="python")


def test_extended_mode_does_not_change_which_files_are_listed(tmp_path: Path):
    # `.pyi` and `.cjs` are parsed when given, but the reference's listing never includes them.
    for name in ("stub.pyi", "tool.cjs", "run.bash", "app.py"):
        (tmp_path / name).write_text("def f(): pass\n" if name.endswith(("py", "pyi")) else "x=1\n", encoding="utf-8")
    assert Codebase(tmp_path, languages="extended").files == Codebase(tmp_path).files == ["app.py"]
    assert not is_meaningful_file("stub.pyi")
    assert chunk_file_content("stub.pyi", "def f(): ...\n", languages="extended")[0].name == "f"


def test_deep_nesting_does_not_exhaust_the_stack():
    depth = 1500
    src = "".join(f"namespace n{i} {{\n" for i in range(depth)) + "int leaf() { return 1; }\n" + "}\n" * depth
    out = chunk_file_content("deep.cpp", src, chunk_size=100_000, languages="extended")
    leaf = next(c for c in out if c.name == "leaf")
    assert (leaf.type, leaf.parent, leaf.start_line) == ("function", f"namespace n{depth - 1}", depth + 1)
    ruby = "".join(f"module M{i}\n" for i in range(depth)) + "def leaf; end\n" + "end\n" * depth
    leaf = next(
        c for c in chunk_file_content("deep.rb", ruby, chunk_size=100_000, languages="extended") if c.name == "leaf"
    )
    assert leaf.parent == f"namespace M{depth - 1}"
