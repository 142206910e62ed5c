"""The rules every language shares, checked in each: comment attachment, splitting, syntax errors."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import NamedTuple

import pytest

from ._support import chunks


class Lang(NamedTuple):
    path: str
    comment: str  # a line comment, "{}" for its text
    function: Callable[[str, int], str]  # source of a top-level function with n statement lines
    broken: str  # a few lines that do not parse
    prefix: str = ""  # what a file must start with


def _braces(head: str, statement: str) -> Callable[[str, int], str]:
    def function(name: str, n: int) -> str:
        body = "".join("    " + statement.format(i=i) + "\n" for i in range(n))
        return head.format(name=name) + " {\n" + body + "}\n"

    return function


def _keyword_end(head: str, statement: str, end: str = "end") -> Callable[[str, int], str]:
    def function(name: str, n: int) -> str:
        return (
            head.format(name=name) + "\n" + "".join("  " + statement.format(i=i) + "\n" for i in range(n)) + end + "\n"
        )

    return function


def _python(name: str, n: int) -> str:
    return f"def {name}():\n" + "".join(f"    x{i} = {i}\n" for i in range(n))


LANGS = {
    "python": Lang("m.py", "# {}", _python, "def broken(:\n    return [\n"),
    "go": Lang("m.go", "// {}", _braces("func {name}()", "x{i} := {i}"), "func broken( {\n", "package m\n"),
    "rust": Lang("m.rs", "// {}", _braces("fn {name}()", "let x{i} = {i};"), "fn broken( {\n let = ;\n"),
    "java": Lang("M.java", "// {}", _braces("class C_{name} {{\nvoid {name}()", "int x{i} = {i};"), "void broken( {\n"),
    "csharp": Lang("M.cs", "// {}", _braces("class C_{name} {{\nvoid {name}()", "var x{i} = {i};"), "void broken( {\n"),
    "kotlin": Lang("M.kt", "// {}", _braces("fun {name}()", "val x{i} = {i}"), "fun broken( {\n"),
    "c": Lang("m.c", "// {}", _braces("void {name}(void)", "int x{i} = {i};"), "void broken( {\n"),
    "cpp": Lang("m.cpp", "// {}", _braces("void {name}()", "int x{i} = {i};"), "void broken( {\n"),
    "ruby": Lang("m.rb", "# {}", _keyword_end("def {name}", "x{i} = {i}"), "def broken(\n  x = = 1\n"),
    "php": Lang("m.php", "// {}", _braces("function {name}()", "$x{i} = {i};"), "function broken( {\n", "<?php\n"),
    "swift": Lang("m.swift", "// {}", _braces("func {name}()", "let x{i} = {i}"), "func broken( {\n"),
    "scala": Lang("m.scala", "// {}", _braces("def {name}(): Unit =", "val x{i} = {i}"), "def broken( = {\n"),
    "lua": Lang("m.lua", "-- {}", _keyword_end("function {name}()", "local x{i} = {i}"), "function broken(\n"),
    "bash": Lang("m.sh", "# {}", _braces("{name}()", "x{i}={i}"), "broken() {\n  if then\n"),
    "typescript": Lang("m.ts", "// {}", _braces("function {name}()", "const x{i} = {i};"), "function broken( {\n"),
    "javascript": Lang("m.mjs", "// {}", _braces("function {name}()", "const x{i} = {i};"), "function broken( {\n"),
}

# Java and C# have no top-level functions: theirs are methods of a class `C_<name>` opened on the
# line above them, whose closing brace is added here.
_CLOSE = {"java": "}\n", "csharp": "}\n"}


def _function(lang: str, name: str, n: int) -> str:
    return LANGS[lang].function(name, n) + _CLOSE.get(lang, "")


def _kind(lang: str) -> str:
    return "method" if lang in _CLOSE else "function"


def _first_line(lang: str) -> int:
    """Line of the function in `_function`'s source."""
    return 2 if lang in _CLOSE else 1


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_comment_directly_above_is_attached_and_one_after_a_blank_line_is_not(lang):
    spec = LANGS[lang]
    head = spec.prefix + spec.comment.format("file notes") + "\n\n" + spec.comment.format("what run does") + "\n"
    src = head + _function(lang, "run", 2)
    # The comment is above the function (above its class for Java and C#).
    name, kind = ("C_run", "class") if lang in _CLOSE else ("run", "function")
    run = [c for c in chunks(spec.path, src) if c.name == name]
    attached = head.count("\n")  # the line of "what run does"
    assert [(c.type, c.start_line) for c in run] == [(kind, attached)]
    assert "what run does" in run[0].content
    assert "file notes" not in run[0].content


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_oversized_function_is_cut_into_named_segments(lang):
    spec = LANGS[lang]
    src = spec.prefix + _function(lang, "big", 40)
    first = spec.prefix.count("\n") + _first_line(lang)
    out = [c for c in chunks(spec.path, src, chunk_size=10) if c.name == "big"]
    assert len(out) >= 4
    assert {c.type for c in out} == {_kind(lang)}
    assert all(c.end_line - c.start_line + 1 <= 10 for c in out)
    assert out[0].start_line == first
    # Consecutive segments (no overlap asked) covering the function to its last statement.
    assert all(b.start_line == a.end_line + 1 for a, b in pairwise(out))
    assert out[-1].end_line >= first + 40


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_syntax_error_after_a_function_keeps_the_function(lang):
    spec = LANGS[lang]
    src = spec.prefix + _function(lang, "fine", 2) + "\n" + spec.broken
    got = {(c.name, c.type) for c in chunks(spec.path, src)}
    assert ("fine", _kind(lang)) in got
    # Nothing of the file is lost: the broken tail is in some chunk, named or not.
    covered = {n for c in chunks(spec.path, src) for n in range(c.start_line, c.end_line + 1)}
    assert len(src.rstrip("\n").split("\n")) in covered
