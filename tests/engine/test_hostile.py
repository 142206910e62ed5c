"""Hostile inputs: they must not take quadratic time, read outside the root or lose a file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pathspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clanka_nb.engine import (
    Codebase,
    FileStatus,
    UnreadableFileWarning,
    _codebase,
    chunk_codebase,
    chunk_file,
    chunk_files,
    list_file_names,
    list_files,
    prepared_texts,
)
from clanka_nb.engine._chunker import PreparedText, plan_ranges
from clanka_nb.engine._declarations import Declaration, parent_label
from clanka_nb.engine._listing import _linear

_decl = st.builds(
    Declaration,
    st.integers(1, 40),
    st.integers(1, 40),
    st.sampled_from(["A", "B", None]),
    st.sampled_from(["class", "method", None, "function"]),
    st.sampled_from(["class A", "class B", None]),
)


@given(st.lists(_decl, max_size=30))
def test_plan_ranges_truncates_a_class_exactly_when_a_method_of_it_lies_inside(decls):
    text = PreparedText("a.ts", ["x"] * 30, "typescript", decls)
    plan = plan_ranges(text)
    expected = [
        d.type == "class" and any(
            m.type == "method" and m.parent == parent_label("class", d.name)
            and m.start_line >= d.start_line and m.end_line <= d.end_line
            for m in decls
        )
        for d in decls
        if max(1, min(30, d.end_line)) >= max(1, min(30, d.start_line))
    ]
    assert [r.first_segment_only for r in plan] == expected


# --- ignore rules that made regex matching backtrack for minutes -------------------------------------

_glob_piece = st.sampled_from(["a", "b", "*", "**", "?", "/", "[ab]", "[!a]", "[+-0]", ".", "**/", "/**/", "\\*"])
_path_piece = st.sampled_from(["a", "b", "/", ".", "*", "+", "0", "ab"])


@given(st.lists(_glob_piece, min_size=1, max_size=8).map("".join), st.lists(_path_piece, max_size=12).map("".join))
def test_rewritten_ignore_regexes_match_exactly_what_pathspec_matches(glob, path):
    try:
        patterns = pathspec.GitIgnoreSpec.from_lines([glob]).patterns
    except (ValueError, re.error):
        return
    for pattern in patterns:
        if pattern.regex is None:
            continue
        rewritten = re.compile(_linear(pattern.regex.pattern), pattern.regex.flags)
        for candidate in (path, path + "/"):
            assert bool(rewritten.search(candidate)) == bool(pattern.regex.search(candidate)), (glob, candidate)


def list_within(seconds: float, root: Path) -> list[str]:
    """list_files(root) in a fresh process, failing instead of hanging past `seconds` (a regex holds the GIL)."""
    code = "import json, sys; from clanka_nb.engine import list_files; print(json.dumps(list_files(sys.argv[1])))"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(root)],
            capture_output=True, text=True, timeout=seconds, env=env, check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"listing took longer than {seconds} s")
    return json.loads(done.stdout)


_NAMES = ["a" * 40 + ".ts", "a" * 39 + "c.ts", "a" * 20 + "b" * 20 + ".ts"]
_DEEP = "/".join(["a"] * 30) + "/"
_ALL = sorted([*_NAMES, *(_DEEP + name for name in _NAMES)])
_AB = "a" * 20 + "b" * 20 + ".ts"


@pytest.mark.parametrize(
    ("rule", "hidden"),
    [
        ("**********", _ALL),
        ("**********x", []),
        ("*a*a*a*a*a*a*a*a*a*a*b*", [_AB, _DEEP + _AB]),
        ("a**********b*", [_AB, _DEEP + _AB]),
        ("*a*a*a*a*a*a*a*a*a*a*c", []),
        ("**/a/**/a/**/a/**/a/**/a/**/a/**/b", []),
        ("**/a/**/a/**/a/**/a/**/a/**/a/**/a*c.ts", [_DEEP + "a" * 39 + "c.ts"]),
    ],
)
def test_a_hostile_ignore_rule_lists_in_bounded_time(tmp_path, rule, hidden):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text(f"{rule}\n", encoding="utf-8")
    deep = tmp_path.joinpath(*["a"] * 30)
    deep.mkdir(parents=True)
    for folder in (tmp_path, deep):
        for name in _NAMES:
            (folder / name).write_text("const x = 1\n", encoding="utf-8")
    listed = list_within(20, tmp_path)
    assert sorted(listed) == [path for path in _ALL if path not in hidden]


# --- paths that resolve outside the root ---------------------------------------------------------------

SECRET = "export const secret = 'outside the root'\n"


@pytest.fixture
def linked(tmp_path: Path) -> Path:
    """root/ with outside.ts (a link to a file outside), linkdir/ (a link to a folder outside), inner.ts
    (a link to a file inside) and own.ts."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.ts").write_text(SECRET, encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    (root / "own.ts").write_text("export const own = 1\n", encoding="utf-8")
    (root / "outside.ts").symlink_to(outside / "secret.ts")
    (root / "linkdir").symlink_to(outside, target_is_directory=True)
    (root / "inner.ts").symlink_to(root / "own.ts")
    return root


REFUSED = ["outside.ts", "linkdir/secret.ts"]


@pytest.mark.parametrize("path", REFUSED)
def test_chunk_file_refuses_a_path_resolving_outside_the_root(linked, path):
    with pytest.warns(UnreadableFileWarning, match="resolves outside the root folder"):
        assert chunk_file(linked, path) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_chunk_files_and_codebase_never_read_outside_the_root(linked, workers, monkeypatch):
    monkeypatch.setattr(_codebase, "MIN_FILES_FOR_PROCESSES", 0)
    with pytest.warns(UnreadableFileWarning, match="resolves outside the root folder"):
        chunks = list(chunk_files(linked, [*REFUSED, "own.ts", "inner.ts"], workers=workers))
    assert [c.path for c in chunks] == ["own.ts", "inner.ts"]  # a link that stays inside is read
    assert all("secret" not in c.content for c in list(chunk_codebase(linked, workers=workers)))


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_codebase_reports_a_refused_path(linked):
    codebase = Codebase(linked, paths=[*REFUSED, "own.ts"])
    for path in REFUSED:
        report = codebase.report(path)
        assert report.status is FileStatus.NOT_INDEXED
        assert "resolves outside the root folder" in report.reason
        assert codebase.text(path) is None
    assert [c.path for c in codebase.chunks()] == ["own.ts"]


def test_the_root_itself_may_be_a_link(linked, tmp_path):
    alias = tmp_path / "alias"
    alias.symlink_to(linked, target_is_directory=True)
    assert [c.path for c in chunk_file(alias, "own.ts")] == ["own.ts"]
    with pytest.warns(UnreadableFileWarning):
        assert chunk_file(alias, "outside.ts") == []


# --- two files, one reported path -------------------------------------------------------------------------


@pytest.fixture
def slashes(tmp_path: Path) -> Path:
    (tmp_path / "back").mkdir()
    (tmp_path / "back" / "slash.ts").write_text("export const real = 1\n", encoding="utf-8")
    (tmp_path / "back\\slash.ts").write_text("export const backslash = 2\n", encoding="utf-8")
    return tmp_path


def test_each_listed_file_is_read_by_its_own_name(slashes):
    assert list_files(slashes) == ["back/slash.ts", "back/slash.ts"]
    assert list_file_names(slashes) == ["back/slash.ts", "back\\slash.ts"]
    for chunks in (list(chunk_codebase(slashes)), Codebase(slashes).chunks()):
        assert [(c.path, c.name) for c in chunks] == [("back/slash.ts", "real"), ("back/slash.ts", "backslash")]


def test_a_collision_is_flagged_in_both_reports(slashes):
    codebase = Codebase(slashes)
    assert codebase.files == ["back/slash.ts", "back\\slash.ts"]
    for name in codebase.files:
        report = codebase.report(name)
        assert report.status is FileStatus.CHUNKED
        assert "are all reported as 'back/slash.ts'" in report.reason
    assert codebase.text("back\\slash.ts").declarations[0].name == "backslash"
    assert codebase.text("back/slash.ts").declarations[0].name == "real"


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
@pytest.mark.parametrize("workers", [1, 2])
def test_prepared_texts_refuses_what_resolves_outside_the_root(linked, workers, monkeypatch):
    monkeypatch.setattr(_codebase, "MIN_FILES_FOR_PROCESSES", 0)
    results = list(prepared_texts(linked, [*REFUSED, "own.ts", "../outside/secret.ts"], workers=workers))
    assert [report.path for _, report in results] == [*REFUSED, "own.ts", "../outside/secret.ts"]
    for text, report in results:
        if report.path == "own.ts":
            assert text is not None and report.status is FileStatus.CHUNKED
        else:
            assert text is None and "resolves outside the root folder" in report.reason
