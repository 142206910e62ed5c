"""Probe queries from test names: `it("...")`, `test("...")`, `def test_...`, where the test calls exactly one
function of the project, resolved through the test file's own imports."""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

import pandas as pd
from tree_sitter import Node

from ... import engine
from ...defaults import MAX_FILE_SIZE
from ...engine.progress import ProgressBar
from ...engine.settings import Settings, checked_keywords, setting_docs
from ...engine.source import open_source
from ...frames import columns as _columns
from ...frames.source import Source
from ._comments import doc_comment
from ._convention_targets import resolve_tests
from ._queries import QUERIES, Masks, declared_texts
from ._query_text import MIN_WORDS
from ._test_conventions import text_of as _text
from ._test_conventions import walk as _walk

# Files that hold tests, by the conventions of vitest/jest/mocha, pytest, Go, JUnit, .NET, RSpec/minitest,
# PHPUnit and XCTest (Rust's `#[test]` functions live in any file: they are found by their attribute).
TEST_FILE = re.compile(
    r"(?:^|/)(?:__tests__|tests?|specs?)/|(?:^|[/.])Tests?/|\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|/)test_[^/]*\.py$|_test\.py$"
    r"|_test\.go$|[a-z0-9]Tests?\.(?:java|kt|cs|php|swift)$|_(?:test|spec)\.rb$"
)
TEST_NAMES: _columns.Schema = {**QUERIES, "test_path": _columns.STRING, "test_line": _columns.INT}
# Why a test gives no query: the keys of `attrs["dropped"]`.
TEST_REASONS = {
    "no_function": "it calls no function the test file imports from the project",
    "several_functions": "it calls more than one function of the project, so its name may be about any",
    "short": f"its name is under {MIN_WORDS} words",
    "ambiguous": "it calls a name several declarations of the project share, so its target cannot be told",
    "duplicate": "several tests have the same name",
}
_SCRIPT_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_TEST_CALLS = frozenset({"it", "test"})
_SCRIPT_GRAMMARS = frozenset({"python", "typescript", "tsx", "javascript"})  # the other grammars: _convention_targets


class _Test(NamedTuple):
    name: str
    line: int  # 1-based line of the test's name
    body: Node
    name_node: Node


class TestNames(NamedTuple):
    """The test-name queries, the test names' characters to mask, and the tests dropped by reason."""

    queries: pd.DataFrame
    masks: Masks
    dropped: Counter[str]


def _resolve_script(texts: dict[str, Any], test_path: str, specifier: str) -> str | None:
    """The project file a relative import of a test names (`./x`, `../x.js` for x.ts, `./dir` for its index)."""
    if not specifier.startswith("."):
        return None  # a package: not the project's code
    base = posixpath.normpath(posixpath.join(posixpath.dirname(test_path), specifier))
    stem, extension = posixpath.splitext(base)
    candidates = [base]
    if extension in _SCRIPT_EXTENSIONS:  # TypeScript's ESM style names the .js it compiles to
        candidates += [stem + other for other in _SCRIPT_EXTENSIONS]
    candidates += [base + other for other in _SCRIPT_EXTENSIONS]
    candidates += [posixpath.join(base, "index" + other) for other in _SCRIPT_EXTENSIONS]
    return next((path for path in candidates if path in texts), None)


def _script_imports(root: Node, texts: dict[str, Any], test_path: str) -> tuple[dict[str, tuple[str, str]],
                                                                                  dict[str, str]]:  # fmt: skip
    """Local name -> (project file, imported name) for named imports; local name -> file for `* as X`."""
    named: dict[str, tuple[str, str]] = {}
    modules: dict[str, str] = {}
    for node in root.children:
        if node.type != "import_statement" or (source := node.child_by_field_name("source")) is None:
            continue
        target = _resolve_script(texts, test_path, _text(source).strip("'\"`"))
        if target is None:
            continue
        for part in _walk(node):
            if part.type == "import_specifier" and (name := part.child_by_field_name("name")) is not None:
                alias = part.child_by_field_name("alias")
                named[_text(alias or name)] = (target, _text(name))
            elif part.type == "namespace_import":
                local = next((child for child in part.children if child.type == "identifier"), None)
                if local is not None:
                    modules[_text(local)] = target
    return named, modules


def _module_file(texts: dict[str, Any], module: str) -> str | None:
    """The project file of a dotted Python module (`pkg.mod`), at the top or under `src/`."""
    path = module.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py", f"src/{path}.py", f"src/{path}/__init__.py"):
        if candidate in texts:
            return candidate
    return None


def _python_imports(root: Node, texts: dict[str, Any], test_path: str) -> tuple[dict[str, tuple[str, str]],
                                                                                  dict[str, str]]:  # fmt: skip
    named: dict[str, tuple[str, str]] = {}
    modules: dict[str, str] = {}
    package = posixpath.dirname(test_path).replace("/", ".")
    for node in root.children:
        if node.type == "import_statement":
            for alias in node.children_by_field_name("name"):
                if alias.type == "aliased_import":
                    target = _module_file(texts, _text(alias.child_by_field_name("name")))
                    if target is not None:
                        modules[_text(alias.child_by_field_name("alias"))] = target
        elif node.type == "import_from_statement" and (module := node.child_by_field_name("module_name")):
            dotted = _text(module)
            if module.type == "relative_import":
                dots = len(dotted) - len(dotted.lstrip("."))
                base = package.split(".") if package else []
                base = base[: len(base) - (dots - 1)] if dots > 1 else base
                dotted = ".".join([*base, dotted.lstrip(".")] if dotted.lstrip(".") else base)
            for alias in node.children_by_field_name("name"):
                name_node = alias.child_by_field_name("name") if alias.type == "aliased_import" else alias
                local_node = alias.child_by_field_name("alias") if alias.type == "aliased_import" else alias
                name, local = _text(name_node), _text(local_node)
                submodule = _module_file(texts, f"{dotted}.{name}" if dotted else name)
                target = _module_file(texts, dotted) if dotted else None
                if submodule is not None:
                    modules[local] = submodule
                elif target is not None:
                    named[local] = (target, name)
    return named, modules


def _string(node: Node) -> str | None:
    """The value of a plain string literal (no interpolation), else None."""
    if node.type == "string" or (node.type == "template_string"
                                 and not any(child.type == "template_substitution" for child in node.children)):
        return _text(node)[1:-1]  # fmt: skip
    return None


def _tests(root: Node, grammar: str) -> Iterator[_Test]:
    for node in _walk(root):
        if grammar == "python":
            if node.type == "function_definition" and (name := node.child_by_field_name("name")) is not None:
                text = _text(name)
                if text.startswith("test_") and (body := node.child_by_field_name("body")) is not None:
                    yield _Test(text.removeprefix("test_").replace("_", " ").strip(), name.start_point[0] + 1, body,
                                name)  # fmt: skip
        elif node.type == "call_expression":
            function = node.child_by_field_name("function")
            base = function
            while base is not None and base.type == "member_expression":  # it.effect(...), test.only(...)
                base = base.child_by_field_name("object")
            arguments = node.child_by_field_name("arguments")
            if base is None or base.type != "identifier" or _text(base) not in _TEST_CALLS or arguments is None:
                continue
            values = arguments.named_children
            if len(values) >= 2 and (title := _string(values[0])) is not None:
                yield _Test(" ".join(title.split()), values[0].start_point[0] + 1, values[-1], values[0])


def _call_of(node: Node, named: dict[str, tuple[str, str]], modules: dict[str, str]) -> tuple[str, str] | None:
    """The project function (file, name) one call node calls through its file's imports, else None."""
    if node.type not in ("call_expression", "call", "new_expression"):
        return None
    function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    if function is None:
        return None
    if function.type == "identifier" and _text(function) in named:
        return named[_text(function)]
    if function.type in ("member_expression", "attribute"):
        owner = function.child_by_field_name("object")
        member = function.child_by_field_name("property") or function.child_by_field_name("attribute")
        if owner is not None and member is not None and owner.type == "identifier" and _text(owner) in modules:
            return modules[_text(owner)], _text(member)
    return None


class _Calls(NamedTuple):
    """What a test body calls, as far as its query needs: up to two of the project functions (two means
    "several"), and whether any function it calls is a declaration a query can target."""

    some: tuple[tuple[str, str], ...]
    any_target: bool


def _body_calls(root: Node, bodies: set[int], imports: tuple[dict[str, tuple[str, str]], dict[str, str]],
                test_path: str, has_target: Callable[[tuple[str, str]], bool]) -> dict[int, _Calls]:  # fmt: skip
    """`_Calls` of each body node (by id), from one walk of the tree: each node's summary is merged from its
    children's, so nested tests (a test inside a test inside ...) cost the file's size, not its square."""
    found: dict[int, _Calls] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    merged: list[_Calls] = []  # one summary per node whose children are done, in walk order
    counts: list[int] = []  # how many children each open node has
    while stack:
        node, done = stack.pop()
        if not done:
            children = node.children
            stack.append((node, True))
            counts.append(len(children))
            stack.extend((child, False) for child in reversed(children))
            continue
        count = counts.pop()
        parts = merged[len(merged) - count :] if count else []
        del merged[len(merged) - count :]
        some: list[tuple[str, str]] = []
        any_target = False
        own = _call_of(node, *imports)
        own = None if own is None or own[0] == test_path else own  # a test calls other files of the project
        for part in ([_Calls((own,), has_target(own))] if own is not None else []) + parts:
            any_target = any_target or part.any_target
            for call in part.some:
                if len(some) < 2 and call not in some:
                    some.append(call)
        summary = _Calls(tuple(some), any_target)
        if node.id in bodies:
            found[node.id] = summary
        merged.append(summary)
    return found


def _target(text: engine.PreparedText, name: str) -> tuple[int, int, engine.Declaration] | None:
    """The one declaration called `name` in the file (its lines without leading comments), else None."""
    matches = [(start, end, declaration) for start, end, declaration, _ in text.plan() if declaration.name == name]
    if len(matches) != 1:
        return None
    start, end, declaration = matches[0]
    comment = doc_comment(text.lines, start, end, text.grammar)
    return (start if comment is None else comment.target_start), end, declaration


def _masked(lines: list[str], nodes: tuple[Node, ...], masked: dict[int, str] | None = None) -> dict[int, str]:
    """The test's name blanked out of its line(s): search must find the code, not the test naming it (`masked`:
    lines already blanked, blanked further)."""
    masked = {} if masked is None else masked
    for node in nodes:
        first, last = node.start_point[0], node.end_point[0]
        for row in range(first, last + 1):
            line = masked.get(row + 1, lines[row]).encode("utf-8", "surrogateescape")
            start = node.start_point[1] if row == first else 0
            end = node.end_point[1] if row == last else len(line)
            masked[row + 1] = (line[:start] + b" " * (end - start) + line[end:]).decode("utf-8", "surrogateescape")
    return masked


def _convention_rows(texts: dict[str, engine.PreparedText], masks: Masks, dropped: Counter[str]
                     ) -> Iterator[dict[str, Any]]:  # fmt: skip
    """The rows of the Go, Rust, Java, Kotlin, C#, Ruby, PHP and Swift tests (`_convention_targets`), each test's
    name added to `masks` and each test left out counted in `dropped`."""
    for found in resolve_tests(texts, TEST_FILE):
        test = found.test
        _masked(texts[found.test_path].lines, test.name_nodes, masks.setdefault(found.test_path, {}))
        if found.target is None:
            dropped[found.reason or "no_function"] += 1
            continue
        if len(re.findall(r"\w+", test.name)) < MIN_WORDS:
            dropped["short"] += 1
            continue
        path, start, end, declaration = found.target
        yield {"query": test.name, "path": path, "start_line": start, "end_line": end, "name": declaration.name,
               "type": declaration.type, "comment_start": None, "comment_end": None, "test_path": found.test_path,
               "test_line": test.line}  # fmt: skip


def scan_test_names(codebase: engine.Codebase, texts: dict[str, engine.PreparedText] | None = None) -> TestNames:
    """Every test whose body calls exactly one function of the project, as a query targeting that function."""
    texts = declared_texts(codebase) if texts is None else texts
    rows: list[dict[str, Any]] = []
    masks: Masks = {}
    dropped: Counter[str] = Counter()
    targets: dict[tuple[str, str], tuple[int, int, engine.Declaration] | None] = {}

    def target_of(path: str, name: str) -> tuple[int, int, engine.Declaration] | None:
        if (path, name) not in targets:  # each file's declarations are listed once per name, not once per test
            targets[path, name] = _target(texts[path], name)
        return targets[path, name]

    for test_path, text in texts.items():
        if not TEST_FILE.search(test_path) or text.grammar not in _SCRIPT_GRAMMARS:
            continue
        grammar = text.grammar
        root = engine.syntax_tree("\n".join(text.lines), grammar)
        if root is None:
            continue
        imports = _python_imports if grammar == "python" else _script_imports
        named, modules = imports(root, texts, test_path)
        tests = list(_tests(root, grammar))
        # One summary per test body, from one walk of the file.
        calls = _body_calls(root, {test.body.id for test in tests}, (named, modules), test_path,
                            lambda call: target_of(*call) is not None)  # fmt: skip
        for test in tests:
            _masked(text.lines, (test.name_node,), masks.setdefault(test_path, {}))
            called = calls[test.body.id]
            if len(called.some) != 1 or not called.any_target:
                dropped["no_function" if not called.any_target else "several_functions"] += 1
                continue
            if len(re.findall(r"\w+", test.name)) < MIN_WORDS:
                dropped["short"] += 1
                continue
            path, name = called.some[0]
            start, end, declaration = target_of(path, name)  # type: ignore[misc]  # target_of gives a triple for a called name
            rows.append({"query": test.name, "path": path, "start_line": start, "end_line": end,
                         "name": declaration.name, "type": declaration.type, "comment_start": None,
                         "comment_end": None, "test_path": test_path, "test_line": test.line})  # fmt: skip
    rows.extend(_convention_rows(texts, masks, dropped))
    seen = Counter(row["query"] for row in rows)
    dropped["duplicate"] += sum(count for count in seen.values() if count > 1)
    rows = [row for row in rows if seen[row["query"]] == 1]
    by_grammar = Counter(str(texts[row["test_path"]].grammar) for row in rows)
    attrs = {"root": str(codebase.root), "languages": codebase.languages, "source": "test_names",
             "dropped": {reason: dropped[reason] for reason in TEST_REASONS if dropped[reason]},
             "by_language": dict(by_grammar.most_common())}  # fmt: skip
    frame = _columns.build({name: [row[name] for row in rows] for name in TEST_NAMES}, TEST_NAMES, attrs)
    return TestNames(frame, masks, dropped)


@checked_keywords
@setting_docs
def unit_test_queries(
    source: Source = None,
    *,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> pd.DataFrame:
    """Probe queries written by people: test names, each targeting the one project function its test calls.

    A test is `it("...", ...)` or `test("...", ...)` (also `it.effect`, `test.only`, ...) in a
    `*.test.ts` / `*.spec.js` / `__tests__/` file, or `def test_...` in a pytest file (the name after
    `test_`, underscores as spaces). The tie to the code is read, not guessed: the calls in the test's
    body are resolved through the test file's imports of the project (`import { f } from "./mod"`,
    `import * as M from "../mod"`, `from pkg.mod import f`, `from pkg import mod`), and a test gives a
    query only when it calls exactly one project function and that file declares exactly one
    declaration of that name; the target is that declaration without its leading comments. Tests that
    call none or several, names under 3 words and names several tests share are left out and counted
    in `attrs["dropped"]`. The probe blanks test names out of the index, as it blanks doc comments.

    Go's `func TestXxx(t *testing.T)`, Rust's `#[test] fn`, JUnit's `@Test` methods (Java and Kotlin; a
    `@DisplayName` is the name), .NET's `[Fact]`/`[Theory]`/`[Test]`/`[TestCase]`/`[TestMethod]` methods,
    RSpec's and minitest's `it "..."`/`test "..."`, PHPUnit's and XCTest's `testXxx` methods are read the
    same way from the engine's own parse (a function's name as words: `TestParseURL` -> "parse URL"), their
    calls resolved where the language looks: a bare name in the test's file, then its folder (a Go package;
    Maven's `src/main/...` for `src/test/...`), then the project; `pkg.F` in the Go package `pkg` imports;
    `Type.f`/`Type::f` among `Type`'s methods. A method called on a value (`x.f()`) is left out, as in a
    JS test; a name several declarations share there is "ambiguous", never guessed.

    Columns: those of `probe_queries` (comment_start and comment_end NA), `test_path` and `test_line`
    (where the test is). `attrs["source"]` is "test_names"; `attrs["by_language"]` counts the queries by the
    grammar of their test file.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        paths: Only these files; None: every file.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per query: those of `probe_queries`, `test_path` and `test_line`.

    Examples:
        >>> cn.unit_test_queries("my-repo")[["query", "path", "test_path"]]
    """
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    return scan_test_names(open_source(source, settings, paths=paths, progress=progress).codebase).queries
