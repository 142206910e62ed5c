"""The target of a Go, Rust, Java, Kotlin, C#, Ruby, PHP or Swift test: the one project declaration its body
calls, found by name where the language looks first (the test's own file, its package's folder, then the
project), never guessed between several."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import NamedTuple

from ... import engine
from ._comments import doc_comment
from ._test_conventions import MARKERS, Call, Test, calls, go_imports, rust_test_modules, tests

# A declaration a test can target: its file, its lines without leading comments, and the declaration.
Target = tuple[str, int, int, engine.Declaration]
# Grammars whose tests are read only from files named as tests (Go's `_test.go` is checked on its own).
_NAMED_FILES = frozenset({"ruby", "php", "swift"})


class Resolved(NamedTuple):
    """One test, with its target or why it has none (a key of `TEST_REASONS`)."""

    test_path: str
    test: Test
    target: Target | None
    reason: str | None


class _Index:
    """The project's declarations of one grammar by name, the tests' own lines left out."""

    def __init__(self, texts: dict[str, engine.PreparedText], grammar: str, excluded: dict[str, list[tuple[int, int]]],
                 test_file: re.Pattern[str]) -> None:  # fmt: skip
        self.grammar = grammar
        self.by_name: dict[str, list[Target]] = {}
        self.types: set[str] = set()  # the names of what holds a declaration: a qualifier naming one is a type
        for path, text in texts.items():
            if text.grammar != grammar or test_file.search(path):
                continue
            spans = excluded.get(path, [])
            for start, end, declaration, _ in text.plan():
                if declaration.name is None or any(low <= start and end <= high for low, high in spans):
                    continue
                comment = doc_comment(text.lines, start, end, text.grammar)
                first = start if comment is None else comment.target_start
                self.by_name.setdefault(declaration.name, []).append((path, first, end, declaration))
                if (parent := _parent(declaration)) is not None:
                    self.types.add(parent)

    def lookup(self, call: Call, test_path: str, package: str | None) -> list[Target]:
        """The declarations `call` may mean, nearest first: a qualified call's package folder (`package`), else the
        test's file, its folder, then the whole project; a type's own methods when the qualifier names a type."""
        found = self.by_name.get(call.name, [])
        if call.kind == "bare":  # a function's name, or a method of the test's own class (not the project's)
            found = [target for target in found if not _is_method(target[3])]
        typed = call.owner is not None and call.owner in self.types
        if call.kind == "value" or (call.kind == "member" and package is None and not typed):
            return []  # a method of a value: whose, the test's text does not say (as a JS test's `x.f()`)
        if call.owner is not None and package is None:
            owned = [target for target in found if _parent(target[3]) == call.owner]
            if owned:
                found = owned
            elif call.kind == "path" and call.owner not in ("crate", "self", "super", "Self"):
                # `module::f` in the module's file; `Vec::new`, `other_crate::f`: not the project's, left out
                found = [target for target in found if _module(target[0]) == call.owner]
            elif call.kind == "member":
                return []  # a type of the project without that method: a value's method of the same name
        if package is not None:
            return [target for target in found if posixpath.dirname(target[0]) == package]
        folder = posixpath.dirname(test_path)
        for near in ([t for t in found if t[0] == test_path],
                     [t for t in found if posixpath.dirname(t[0]) in (folder, _mirrored(folder))]):  # fmt: skip
            if near:
                return near
        return found


def _parent(declaration: engine.Declaration) -> str | None:
    """The bare name of what holds a declaration ("class Command" -> "Command", "impl Foo<T>" -> "Foo")."""
    if declaration.parent is None:
        return None
    return declaration.parent.split()[-1].split("<")[0].split("[")[0]


def _is_method(declaration: engine.Declaration) -> bool:
    """Whether a declaration belongs to a type (its parent a class, struct, trait or interface, not a module)."""
    return declaration.parent is not None and not declaration.parent.startswith(("namespace ", "module "))


def _module(path: str) -> str:
    """The Rust module a file is (`src/parse.rs` and `src/parse/mod.rs` are `parse`)."""
    stem = posixpath.splitext(posixpath.basename(path))[0]
    return posixpath.basename(posixpath.dirname(path)) if stem in ("mod", "lib", "main") else stem


def _mirrored(folder: str) -> str:
    """A test folder's code folder by the Maven/Gradle layout (`src/test/java/x` -> `src/main/java/x`)."""
    return folder.replace("src/test/", "src/main/", 1)


# What `_go_package` answers for a package from outside the project (a folder is never named so).
_OUTSIDE = "\0outside"


def _go_package(call: Call, imports: dict[str, str], folders: set[str], test_path: str) -> str | None:
    """The project folder a Go call's qualifier imports (`_OUTSIDE` when it imports no folder of the project;
    "" is the root's), the test's own folder for a bare call, None for a method called on a value (left out, as
    in any language)."""
    if call.kind == "bare":
        return posixpath.dirname(test_path)
    if call.owner not in imports:
        return None
    path = imports[call.owner]
    return next((folder for folder in sorted(folders, key=len, reverse=True)
                 if folder and (path == folder or path.endswith("/" + folder))), _OUTSIDE)  # fmt: skip


def _resolve(test: Test, test_path: str, index: _Index, grammar: str, context: tuple[dict[str, str], set[str]]
             ) -> tuple[Target | None, str | None]:  # fmt: skip
    """A test's one target, or why it has none."""
    chosen: set[Target] = set()
    ambiguous = False
    for call in set(calls(test.body)):
        package = _go_package(call, *context, test_path) if grammar == "go" else None
        if package == _OUTSIDE:
            continue  # a package from outside the project
        candidates = index.lookup(call, test_path, package)
        if len(candidates) == 1:
            chosen.add(candidates[0])
        elif candidates:
            ambiguous = True
    if len(chosen) > 1:
        return None, "several_functions"
    if ambiguous:
        return None, "ambiguous"
    if not chosen:
        return None, "no_function"
    return next(iter(chosen)), None


def resolve_tests(texts: dict[str, engine.PreparedText], test_file: re.Pattern[str]) -> Iterator[Resolved]:
    """Every test of the convention languages in `texts`, with its target or why it has none.

    Args:
        texts: Every file's text with its declarations.
        test_file: The compiled pattern of test files' paths (their declarations are the tests', not targets).
    """
    parsed: dict[str, list[tuple[str, Test, dict[str, str]]]] = {}
    excluded: dict[str, list[tuple[int, int]]] = {}
    for path, text in texts.items():
        grammar = text.grammar
        if grammar not in MARKERS or (grammar == "go" and not path.endswith("_test.go")):
            continue
        source = "\n".join(text.lines)
        if MARKERS[grammar] not in source or (grammar in _NAMED_FILES and not test_file.search(path)):
            continue  # (JUnit, .NET and Rust tests are found by their annotations wherever they are)
        root = engine.syntax_tree(source, grammar)
        if root is None:
            continue
        found = list(tests(root, grammar))
        if grammar == "rust":
            excluded[path] = [test.span for test in found] + list(rust_test_modules(root))
        elif found:
            excluded[path] = [(1, len(text.lines))]
        imports = go_imports(root) if grammar == "go" else {}
        parsed.setdefault(grammar, []).extend((path, test, imports) for test in found)
    for grammar, found_tests in parsed.items():
        index = _Index(texts, grammar, excluded, test_file)
        folders = {posixpath.dirname(path) for path, text in texts.items() if text.grammar == grammar}
        for path, test, imports in found_tests:
            target, reason = _resolve(test, path, index, grammar, (imports, folders))
            yield Resolved(path, test, target, reason)

