"""Tests by the conventions of Go, Rust, Java, Kotlin, C#, Ruby, PHP and Swift, read from the engine's own
tree-sitter parse: each test's name as a query, and the names its body calls.

`_test_names` resolves those names to the project's declarations and keeps the tests that call exactly one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from tree_sitter import Node

# The grammars whose tests this module reads, and the text a file must hold to be parsed for tests (a cheap
# filter before the parse: the parse decides).
MARKERS = {
    "go": "func Test",
    "rust": "test",
    "java": "@",
    "kotlin": "@",
    "csharp": "[",
    "ruby": "",
    "php": "function test",
    "swift": "func test",
}
# The annotations or attributes that mark a test method (their last dotted part).
_JUNIT = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate"})
_DOTNET = frozenset({"Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod"})
_RUBY_TESTS = frozenset({"it", "test", "specify", "scenario"})
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


class Test(NamedTuple):
    """One test: the query its name gives, where its name is, its body and what to blank out of the index."""

    name: str
    line: int  # 1-based line of the test's name
    body: Node
    name_nodes: tuple[Node, ...]
    span: tuple[int, int]  # 1-based lines of the whole test


class Call(NamedTuple):
    """A name a test calls, with what qualifies it (`pkg.F`, `Type::f`, `obj.m`; None when bare) and how:
    "bare" (`f()`), "path" (Rust's `Type::f`, `module::f`: never a value), "member" (`X.f()`: a package or a type
    when X names one, else a value) or "value" (Rust's `x.f()`: a method of a value, whose type is not read)."""

    owner: str | None
    name: str
    kind: str


def text_of(node: Node | None) -> str:
    """The node's source text ("" for a field the parse left out, as error recovery may)."""
    return "" if node is None else (node.text or b"").decode("utf-8", "surrogateescape")


def walk(node: Node) -> Iterator[Node]:
    """The node and everything under it, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def words(identifier: str) -> str:
    """A test function's name as words: `TestParseURLWithPort` -> "parse URL with port", `test_reads_a_file` ->
    "reads a file", a Kotlin name in backticks as written; a leading `Test`/`test` is the convention, not a word."""
    name = identifier.strip("`")
    if " " in name:
        return " ".join(name.split())
    name = re.sub(r"^[Tt]est(?=[A-Z0-9_]|$)_?", "", name)
    return " ".join(word if word.isupper() and len(word) > 1 else word.lower() for word in _WORD.findall(name))


def _span(node: Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


def _attributes_before(node: Node, kind: str) -> Iterator[Node]:
    """The `kind` siblings right before `node` (Rust's `#[test]` lines above a function)."""
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type in (kind, "line_comment", "block_comment"):
        if sibling.type == kind:
            yield sibling
        sibling = sibling.prev_named_sibling


def _go_test(node: Node) -> Test | None:
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    parameters = text_of(node.child_by_field_name("parameters")).replace(" ", "")
    if node.type != "function_declaration" or name is None or body is None or "*testing.T" not in parameters:
        return None
    if not re.fullmatch(r"Test(?:[A-Z0-9_].*)?", text_of(name)):
        return None
    return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))


def _rust_test(node: Node) -> Test | None:
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if node.type != "function_item" or name is None or body is None:
        return None
    for item in _attributes_before(node, "attribute_item"):
        attribute = next((child for child in item.named_children if child.type == "attribute"), None)
        path = text_of(attribute.named_children[0]) if attribute is not None and attribute.named_children else ""
        if path.split("::")[-1] == "test":  # #[test], #[tokio::test]
            return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))
    return None


def _annotations(modifiers: Node | None) -> Iterator[Node]:
    for child in [] if modifiers is None else modifiers.named_children:
        if child.type in ("marker_annotation", "annotation"):
            yield child


def _java_test(node: Node) -> Test | None:
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if node.type != "method_declaration" or name is None or body is None:
        return None
    modifiers = next((child for child in node.children if child.type == "modifiers"), None)
    marks = {text_of(mark.child_by_field_name("name")).split(".")[-1]: mark for mark in _annotations(modifiers)}
    if not marks.keys() & _JUNIT:
        return None
    display = marks.get("DisplayName")
    arguments = display.child_by_field_name("arguments") if display is not None else None
    shown = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    if shown is not None and shown.type == "string_literal":  # @DisplayName("reads a thing"): the words people wrote
        return Test(" ".join(text_of(shown)[1:-1].split()), shown.start_point[0] + 1, body, (name, shown),
                    _span(node))  # fmt: skip
    return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))


def _kotlin_test(node: Node) -> Test | None:
    if node.type != "function_declaration":
        return None
    modifiers = next((child for child in node.children if child.type == "modifiers"), None)
    marks = {text_of(mark).lstrip("@").split("(")[0].split(".")[-1] for mark in
             ([] if modifiers is None else modifiers.named_children) if mark.type == "annotation"}  # fmt: skip
    name = next((child for child in node.named_children if child.type == "simple_identifier"), None)
    body = next((child for child in node.named_children if child.type == "function_body"), None)
    if not marks & _JUNIT or name is None or body is None:
        return None
    return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))


def _csharp_test(node: Node) -> Test | None:
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if node.type != "method_declaration" or name is None or body is None:
        return None
    marks = {text_of(attribute.child_by_field_name("name")).split(".")[-1] for child in node.children
             if child.type == "attribute_list" for attribute in child.named_children}  # fmt: skip
    if not marks & _DOTNET:
        return None
    return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))


def _ruby_test(node: Node) -> Test | None:
    method, arguments = node.child_by_field_name("method"), node.child_by_field_name("arguments")
    block = node.child_by_field_name("block")
    if node.type != "call" or text_of(method) not in _RUBY_TESTS or arguments is None or block is None:
        return None
    if node.child_by_field_name("receiver") is not None or not arguments.named_children:
        return None
    title = arguments.named_children[0]
    if title.type != "string" or any(child.type != "string_content" for child in title.named_children):
        return None  # an interpolated title is not the words a person wrote
    return Test(" ".join(text_of(title)[1:-1].split()), title.start_point[0] + 1, block, (title,), _span(node))


def _named_test(node: Node, kinds: tuple[str, ...]) -> Test | None:
    """PHPUnit's and XCTest's `function testXxx()` / `func testXxx()`: a method named by the convention."""
    if node.type not in kinds:
        return None
    name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
    if name is None or body is None or not re.fullmatch(r"test[A-Z0-9_].*", text_of(name)):
        return None
    return Test(words(text_of(name)), name.start_point[0] + 1, body, (name,), _span(node))


def tests(root: Node, grammar: str) -> Iterator[Test]:
    """Every test of one parsed file by its language's convention."""
    for node in walk(root):
        if grammar == "go":
            found = _go_test(node)
        elif grammar == "rust":
            found = _rust_test(node)
        elif grammar == "java":
            found = _java_test(node)
        elif grammar == "kotlin":
            found = _kotlin_test(node)
        elif grammar == "csharp":
            found = _csharp_test(node)
        elif grammar == "ruby":
            found = _ruby_test(node)
        elif grammar == "php":
            found = _named_test(node, ("method_declaration", "function_definition"))
        elif grammar == "swift":
            found = _named_test(node, ("function_declaration",))
        else:
            return
        if found is not None:
            yield found


def _owner(node: Node | None) -> str | None:
    """What qualifies a call when it is a plain name (a package, a type, a variable), else None; of a path
    (`reqwest::Client::builder`, `Vec::<u8>::new`), its last name."""
    if node is not None and node.type == "scoped_identifier":
        node = node.child_by_field_name("name")
    elif node is not None and node.type in ("generic_type", "scoped_type_identifier"):
        node = node.child_by_field_name("type") or node.child_by_field_name("name")
    if node is not None and node.type in ("identifier", "type_identifier", "constant", "simple_identifier",
                                          "package_identifier", "name", "variable_name", "self"):  # fmt: skip
        return text_of(node).lstrip("$")
    return None


def _macro_calls(tokens: Node) -> Iterator[Call]:
    """Calls inside a Rust macro's tokens (`assert_eq!(parse(x), 1)`), which the grammar leaves unparsed: a name
    followed by parentheses, qualified by the name before a `::`."""
    children = tokens.children
    for index, child in enumerate(children):
        if child.type == "token_tree":
            yield from _macro_calls(child)
        elif child.type == "identifier" and index + 1 < len(children) and children[index + 1].type == "token_tree" \
                and text_of(children[index + 1]).startswith("("):  # fmt: skip
            before = children[index - 1].type if index else None
            owner = children[index - 2] if before == "::" and index >= 2 else None
            kind = "path" if before == "::" else "value" if before == "." else "bare"
            yield Call(_owner(owner), text_of(child), kind)


def _call_expression(node: Node) -> Call | None:
    """Go's, Rust's, Kotlin's and Swift's `call_expression`."""
    function = node.child_by_field_name("function")
    kind = None if function is None else function.type
    if function is None:  # Kotlin and Swift: the callee is the first child
        function = node.named_children[0] if node.named_children else None
        kind = None if function is None else function.type
    if function is None:
        return None
    if kind in ("identifier", "simple_identifier"):  # f()
        return Call(None, text_of(function), "bare")
    if kind == "selector_expression":  # Go: pkg.F(), value.M()
        operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
        return Call(_owner(operand), text_of(field), "member")
    if kind == "scoped_identifier":  # Rust: Type::f(), module::f()
        path, name = function.child_by_field_name("path"), function.child_by_field_name("name")
        return Call(_owner(path), text_of(name), "path")
    if kind == "field_expression":  # Rust: value.m()
        return Call(None, text_of(function.child_by_field_name("field")), "value")
    if kind == "navigation_expression" and function.named_children:  # Kotlin, Swift: X.m()
        suffix = function.named_children[-1]
        member = suffix.named_children[-1] if suffix.named_children else None
        return None if member is None else Call(_owner(function.named_children[0]), text_of(member), "member")
    return None


def _member_call(owner: Node | None, name: Node | None) -> Call | None:
    """A call by name with an optional qualifier (Java, C#, Ruby, PHP)."""
    if name is None:
        return None
    return Call(None, text_of(name), "bare") if owner is None else Call(_owner(owner), text_of(name), "member")


def _call(node: Node) -> Call | None:
    """The name one call node calls, with its qualifier."""
    kind = node.type
    if kind == "call_expression":
        return _call_expression(node)
    if kind == "method_invocation":  # Java
        return _member_call(node.child_by_field_name("object"), node.child_by_field_name("name"))
    if kind == "invocation_expression" and (function := node.child_by_field_name("function")) is not None:  # C#
        if function.type == "member_access_expression":
            return _member_call(function.child_by_field_name("expression"), function.child_by_field_name("name"))
        return _member_call(None, function) if function.type == "identifier" else None
    if kind == "call":  # Ruby
        return _member_call(node.child_by_field_name("receiver"), node.child_by_field_name("method"))
    if kind in ("member_call_expression", "scoped_call_expression"):  # PHP
        scope = node.child_by_field_name("scope") or node.child_by_field_name("object")
        return _member_call(scope, node.child_by_field_name("name"))
    if kind == "function_call_expression":  # PHP
        function = node.child_by_field_name("function")
        return _member_call(None, function) if function is not None and function.type == "name" else None
    return None


def calls(body: Node) -> Iterator[Call]:
    """Every name a test's body calls (as written: resolving them to the project is the caller's)."""
    for node in walk(body):
        if node.type == "token_tree" and node.parent is not None and node.parent.type == "macro_invocation":
            yield from _macro_calls(node)
            continue
        found = _call(node)
        if found is not None and found.name:
            yield found


def rust_test_modules(root: Node) -> Iterator[tuple[int, int]]:
    """The lines of each `#[cfg(test)] mod`: helpers there are the tests', not the project's."""
    for node in walk(root):
        if node.type == "mod_item" and any("cfg(test)" in text_of(item).replace(" ", "")
                                           for item in _attributes_before(node, "attribute_item")):  # fmt: skip
            yield _span(node)


def go_imports(root: Node) -> dict[str, str]:
    """Local name -> import path of a Go file's imports (the path's last part unless renamed)."""
    found: dict[str, str] = {}
    for node in walk(root):
        if node.type == "import_spec" and (path := node.child_by_field_name("path")) is not None:
            value = text_of(path).strip('"`')
            alias = node.child_by_field_name("name")
            found[text_of(alias) if alias is not None else value.rsplit("/", 1)[-1]] = value
    return found
