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
