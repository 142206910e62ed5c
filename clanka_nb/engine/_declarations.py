"""Declaration ranges of TypeScript/JavaScript files, found with tree-sitter as the reference finds them."""

from __future__ import annotations

import codecs
import functools
from collections.abc import Iterator
from functools import cache
from importlib.metadata import version
from typing import NamedTuple

import tree_sitter_javascript
import tree_sitter_typescript
from tree_sitter import Language, Node, Parser
from tree_sitter_language_pack import get_parser

from ._files import extension
from ._parsing import parse
from ._text import collapse_whitespace, to_utf16, trim


class Declaration(NamedTuple):
    """One recorded range: 1-based inclusive lines, and the metadata its chunks carry.

    Attributes:
        start_line: The range's first line (1-based).
        end_line: Its last line (inclusive).
        name: The declaration's name; None when it has none.
        type: Its kind ("function", "class"...).
        parent: The name of the declaration holding it; None when none does.
        body_start: Its own first line, after the leading comments its range takes in; None when not recorded.
    """

    start_line: int
    end_line: int
    name: str | None
    type: str | None
    parent: str | None
    # The declaration's own first line, after the leading comments its range takes in (None: not recorded).
    # Chunking never reads it; `explain` names the comment lines with it.
    body_start: int | None = None


# A Declaration from a tuple of its fields, without the Python call `Declaration(...)` is: a codebase makes
# tens of thousands of them, in the walk, from the parse cache and from the workers' answers.
declaration_of = functools.partial(tuple.__new__, Declaration)


# Grammar per extension; the reference parses only these four (`mjs`, `mts`, `cts` stay windows).
GRAMMARS = {"ts": "typescript", "tsx": "tsx", "js": "javascript", "jsx": "javascript"}

NODE_CHUNK_TYPES = {  # tree-sitter node type -> the chunk type it gives
    "class_declaration": "class",
    "enum_declaration": "enum",
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "internal_module": "namespace",
    "module": "namespace",
    "interface_declaration": "interface",
    "method_definition": "method",
    "generator_method_definition": "method",
    "type_alias_declaration": "type-alias",
}
_VARIABLES = ("lexical_declaration", "variable_declaration")
_NAMESPACES = ("internal_module", "module")
_WRAPPERS = ("export_statement", "ambient_declaration")  # what `unwrap` looks through


# The reference's own grammar versions (tree-sitter-javascript 0.23.1, tree-sitter-typescript 0.23.2):
# on code with syntax errors another grammar version recovers differently, and so cuts differently.
_REFERENCE_LANGUAGES = {
    "typescript": tree_sitter_typescript.language_typescript,
    "tsx": tree_sitter_typescript.language_tsx,
    "javascript": tree_sitter_javascript.language,
}


class GrammarUnavailableError(RuntimeError):
    """An extended-mode grammar cannot be loaded by the installed tree-sitter core (say which, and the fix)."""


@cache
def parser_for(grammar: str) -> Parser:
    """One language-pack parser per grammar and process (extended mode; the pack bundles its grammars)."""
    try:
        return get_parser(grammar)  # type: ignore[arg-type]  # the pack's grammars, which its Literal type lists
    except ValueError as error:
        # The `exact` extra holds the core at 0.24, which reads grammars of language versions 13-14 only;
        # the C# grammar the pack requires is version 15.
        if "Incompatible Language version" not in str(error):
            raise
        msg = (
            f"extended mode cannot load the {grammar} grammar: {error} (tree-sitter {version('tree-sitter')} is "
            "installed, as the `exact` extra pins it for the reference's error recovery in clanka mode); for "
            "extended mode on this language install the default versions: pip install 'tree-sitter>=0.25' "
            "'tree-sitter-language-pack>=0.13,<1.0'"
        )
        raise GrammarUnavailableError(msg) from None


@cache
def reference_parser(grammar: str) -> Parser:
    """One parser per grammar and process with the grammar version the reference uses (clanka mode)."""
    return Parser(Language(_REFERENCE_LANGUAGES[grammar]()))


def parse_like_reference(grammar: str, text: str) -> Node:
    """The root node of `text` parsed as the reference's Node binding parses it: as UTF-16.

    tree-sitter's error recovery weighs candidate trees by their size in bytes, so on code with
    errors UTF-8 input can win another recovery than the reference's. Byte offsets in the tree are
    then twice JavaScript string indices; node text is UTF-16-LE (see `_text`).
    """
    return _parse_utf16(grammar, to_utf16(text))


def _parse_utf16(grammar: str, source: bytes) -> Node:
    return parse(reference_parser(grammar), source, "utf16").root_node


# The codec's own function: `bytes.decode("utf-16-le", ...)` looks the codec up by name on every call,
# which costs three times the decoding of a name. It is the incremental decoder's step, so every call passes
# final=True: without it a name ending in a lone high surrogate loses that unit (held back as the first half
# of a pair still to come), where JavaScript's slice keeps it.
_decode_utf16 = codecs.utf_16_le_decode


def _text(node: Node, source: bytes) -> str:
    """The node's text, sliced from the parsed bytes (a long text's tree may keep none: see `_parsing`)."""
    return _decode_utf16(source[node.start_byte : node.end_byte], "surrogatepass", True)[0]


def _clean(text: str) -> str | None:
    if text.isidentifier():  # the usual name: nothing to trim or collapse
        return text
    cleaned = collapse_whitespace(text)
    return cleaned or None


def _declarators(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type == "variable_declarator"]


def describe(node: Node, source: bytes, kind: str) -> tuple[str | None, str | None]:
    """The chunk type and name of an (unwrapped) node of the UTF-16 `source`; either may be None.

    `kind` is the node's type, which the caller has read already (each read makes a new string).
    """
    if kind in _VARIABLES:
        declarators = _declarators(node)
        # Arrow functions and function expressions make the declaration a function.
        is_function = any(_declarator_type(d) == "function" for d in declarators)
        names = [_declarator_name(d, source) for d in declarators]
        return ("function" if is_function else "variable"), _clean(", ".join(n for n in names if n))
    if kind == "variable_declarator":
        # A declarator standing alone at declaration level (left there by error recovery, as in
        # `let f = () => 1 , , K <`) is typed by its own value, as the reference types one.
        return _declarator_type(node), _declarator_name(node, source)
    chunk_type = NODE_CHUNK_TYPES.get(kind)
    if chunk_type is not None:
        field = node.child_by_field_name("name")
        return chunk_type, (_clean(_text(field, source)) if field is not None else None)
    return None, None


def _declarator_type(declarator: Node) -> str:
    """The type a declarator gives: `function` when its value is a function (arrow, expression), else `variable`."""
    value = declarator.child_by_field_name("value")
    return "function" if value is not None and "function" in value.type else "variable"


def _declarator_name(declarator: Node, source: bytes) -> str | None:
    field = declarator.child_by_field_name("name")
    return _clean(_text(field, source)) if field is not None else None


def unwrap(node: Node, kind: str) -> tuple[Node, str]:
    """`export …` becomes what it exports, `declare …` what it declares, as often as either applies.

    `kind` is the node's type; the node reached is given with its own.
    """
    while True:
        if kind == "export_statement":
            inner = node.child_by_field_name("declaration")
            if inner is None and node.named_child_count:
                inner = node.named_children[0]
        elif kind == "ambient_declaration":
            inner = next(
                (c for c in node.named_children if c.type.endswith("_declaration") or c.type in _NAMESPACES),
                None,
            )
        else:
            return node, kind
        if inner is None:
            return node, kind
        node, kind = inner, inner.type


def parent_label(kind: str | None, name: str | None) -> str | None:
    """`"<type> <name>"`, or whichever of the two exists."""
    label = " ".join(part for part in (kind, name) if part)
    return label or None


def _start_with_comments(siblings: list[Node], index: int, lines: list[str]) -> int:
    """0-based first row of siblings[index], moved up over comments separated only by blank lines."""
    start = siblings[index].start_point.row
    i = index - 1
    while i >= 0 and siblings[i].type == "comment":
        comment = siblings[i]
        gap = lines[comment.end_point.row + 1 : start]
        if any(trim(line) for line in gap):
            break
        start = comment.start_point.row
        i -= 1
    return start


def _range(siblings: list[Node], index: int, lines: list[str], after_comment: bool) -> tuple[int, int, int]:
    """1-based first line (with leading comments), last line, and the declaration's own first line.

    `after_comment`: whether the sibling before is a comment (the caller has read its type already).
    """
    node = siblings[index]
    own = node.start_point.row
    # Most declarations follow no comment: then the walk over comments is not needed.
    start = _start_with_comments(siblings, index, lines) if after_comment else own
    return start + 1, node.end_point.row + 1, own + 1


def collect(root: Node, lines: list[str], source: bytes) -> list[Declaration]:
    """Walk the root's named children (and namespace bodies) in order, recording declarations.

    The walk keeps its own stack, so namespaces nested thousands deep cannot exhaust Python's.
    """
    out: list[Declaration] = []
    # One frame per sibling list being walked: (siblings, where the walk over them is, parent label).
    # A namespace's body is walked by a new frame; its own walk picks up after it when that one ends.
    children = root.named_children
    frames: list[tuple[list[Node], Iterator[tuple[int, Node]], str | None]] = [(children, enumerate(children), None)]
    while frames:
        siblings, walk, parent = frames[-1]
        after_comment = False  # whether the sibling before is a comment (a namespace's body starts afresh)
        for index, original in walk:
            node_type = original.type  # read once: each read makes a new string
            previous_is_comment, after_comment = after_comment, node_type == "comment"
            if after_comment or "import" in node_type:
                continue
            node, node_type = unwrap(original, node_type) if node_type in _WRAPPERS else (original, node_type)
            kind, name = describe(node, source, node_type)
            if kind is None and name is None:
                continue
            start, end, body = _range(siblings, index, lines, previous_is_comment)
            out.append(declaration_of((start, end, name, kind, parent, body)))
            if node_type == "class_declaration":
                out.extend(_methods(node, name, lines, source))
            elif node_type in _NAMESPACES:
                inner = node.child_by_field_name("body")
                if inner is not None:
                    children = inner.named_children
                    frames.append((children, enumerate(children), parent_label(kind, name)))
                    break
        else:
            frames.pop()
    return out


def _methods(cls: Node, class_name: str | None, lines: list[str], source: bytes) -> Iterator[Declaration]:
    body = cls.child_by_field_name("body")
    if body is None:
        return
    members = body.named_children
    parent = parent_label("class", class_name)
    after_comment = False
    for index, member in enumerate(members):
        member_type = member.type
        previous_is_comment, after_comment = after_comment, member_type == "comment"
        if "method" in member_type:
            start, end, body_start = _range(members, index, lines, previous_is_comment)
            kind, name = describe(member, source, member_type)
            yield declaration_of((start, end, name, kind, parent, body_start))


def clanka_declarations(path: str, text: str, lines: list[str]) -> tuple[str | None, list[Declaration]]:
    """The grammar used for the file (None: not parsed) and its declaration ranges, as the reference finds them."""
    grammar = GRAMMARS.get(extension(path))
    if grammar is None:
        return None, []
    source = to_utf16(text)
    if len(source) >= 2 * REFERENCE_PARSER_LIMIT:
        return grammar, []  # the reference's parse throws, its catch gives no ranges: line windows
    return grammar, collect(_parse_utf16(grammar, source), lines, source)


# The reference parses with `parser.parse(content, undefined, { bufferSize: 1024 * 1024 })`, and its
# binding (node-tree-sitter 0.21.1) throws "Invalid argument" for a string of that many UTF-16 units (two
# bytes each) or more; the reference catches it and falls back to line windows.
REFERENCE_PARSER_LIMIT = 1024 * 1024
