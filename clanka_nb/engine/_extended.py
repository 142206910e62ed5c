"""Extended mode: declaration ranges in every language of the tables in `_language_specs`."""

from __future__ import annotations

from functools import cache

from tree_sitter import Node

from ._declarations import Declaration, parent_label, parser_for
from ._files import extension
from ._language_specs import SPECS_BY_EXTENSION, LanguageSpec, Rule
from ._parsing import parse
from ._text import collapse_whitespace, trim

DEFAULT_EXPORT_NAME = "default"
_ANONYMOUS_EXPORT = Rule("variable")  # `export default {…}`: a value with no rule of its own


def spec_for(path: str) -> LanguageSpec | None:
    """The language table extended mode uses for this path (None: not parsed)."""
    return SPECS_BY_EXTENSION.get(extension(path))


def extended_declarations(path: str, text: str, lines: list[str]) -> tuple[str | None, list[Declaration]]:
    """The grammar used for the file (None: not parsed) and its declaration ranges, in extended mode."""
    spec = spec_for(path)
    if spec is None:
        return None, []
    source = text.encode("utf-8", "surrogatepass")
    tree = parse(parser_for(spec.grammar), source)
    return spec.grammar, _Walker(spec, lines, source).walk(tree.root_node)


# --- paths (see the `_language_specs` docstring) ---


@cache
def _steps(path: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(alternative.split(".")) if alternative else () for alternative in path.split(","))


def _step(nodes: list[Node], step: str, visited: bool) -> list[Node]:
    out: list[Node] = []
    if step[0] in "@%":
        types = step[1:].split("|")
        for node in nodes:
            matches = [c for c in node.named_children if c.type in types]
            out.extend(matches if step[0] == "%" else matches[:1])
    elif step.endswith("*"):
        name = step[:-1]
        for node in nodes:
            while (inner := _inner(node, name)) is not None:
                if visited:
                    out.append(node)
                node = inner
            out.append(node)
    elif step.endswith("+"):
        for node in nodes:
            out.extend(node.children_by_field_name(step[:-1]))
    else:
        out.extend(c for c in (node.child_by_field_name(step) for node in nodes) if c is not None)
    return out


def _inner(node: Node, name: str) -> Node | None:
    """The `name` field, or the only named child of a node whose type ends in the field's name.

    C's `reference_declarator` and `parenthesized_declarator` hold their declarator outside the field.
    """
    inner = node.child_by_field_name(name)
    if inner is None and node.type.endswith(name) and node.named_child_count == 1:
        inner = node.named_children[0]
    return inner


def follow(node: Node, path: str, visited: bool = False) -> list[Node]:
    """The nodes `path` leads to from `node` (with `visited`, also the ones `field*` passes through)."""
    for alternative in _steps(path):
        nodes = [node]
        for step in alternative:
            nodes = _step(nodes, step, visited)
        if nodes:
            return nodes
    return []


def node_text(node: Node, source: bytes) -> str | None:
    """The node's text in the UTF-8 `source`, trimmed, whitespace runs made one space; None when empty
    (as the reference's names). Sliced from `source`: a long text's tree may keep none (see `_parsing`)."""
    return collapse_whitespace(source[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")) or None


def last_row(node: Node, lines: list[str]) -> int:
    """0-based last line of the node that holds some of its text.

    Some nodes end at column 0 of the next line (a Rust `///` comment keeps its LF) or take the blank
    lines after them (Scala's indented bodies): those lines are not the declaration's.
    """
    start, end = node.start_point.row, node.end_point
    row = end.row - 1 if end.column == 0 and end.row > start else end.row
    row = max(start, min(row, len(lines) - 1))
    while row > start and not trim(lines[row]):
        row -= 1
    return row


# --- the walk ---


class _Frame:
    """Siblings being walked, where the walk is, and what they belong to."""

    __slots__ = ("in_class", "index", "nodes", "parent")

    def __init__(self, nodes: list[Node], parent: str | None, in_class: bool):
        self.nodes, self.parent, self.in_class, self.index = nodes, parent, in_class, 0


class _Walker:
    """One file's walk: the language's table, its lines, and the declarations found."""

    def __init__(self, spec: LanguageSpec, lines: list[str], source: bytes):
        self.spec, self.lines, self.source = spec, lines, source
        self.skipped = spec.comments | spec.leading

    def walk(self, root: Node) -> list[Declaration]:
        """Declarations in source order; an explicit stack so that deep nesting cannot exhaust Python's."""
        out: list[Declaration] = []
        stack = [_Frame(root.named_children, None, False)]
        while stack:
            frame = stack[-1]
            if frame.index >= len(frame.nodes):
                stack.pop()
                continue
            index = frame.index
            frame.index += 1
            inner = self._visit(frame, index, out)
            if inner is not None:
                stack.append(inner)
        return out + self._unread(root, out)

    def _unread(self, root: Node, found: list[Declaration]) -> list[Declaration]:
        """Unnamed ranges for the lines of top-level syntax errors that no declaration holds.

        Whatever tree-sitter could not make sense of is kept, rather than lost from every chunk.
        """
        broken = [root] if root.type == "ERROR" else [n for n in root.named_children if n.type == "ERROR"]
        if not broken:
            return []
        held = bytearray(len(self.lines) + 2)  # 1-based: 1 where some declaration holds the line
        for d in found:
            held[d.start_line : d.end_line + 1] = b"\x01" * (d.end_line + 1 - d.start_line)
        out = []
        for node in broken:
            row, end = node.start_point.row + 1, last_row(node, self.lines) + 1
            while row <= end:
                if held[row] or not trim(self.lines[row - 1]):
                    row += 1
                    continue
                stop = row
                while stop < end and not held[stop + 1]:
                    stop += 1
                while not trim(self.lines[stop - 1]):
                    stop -= 1
                out.append(Declaration(row, stop, None, None, None))
                row = stop + 1
        return out

    def _visit(self, frame: _Frame, index: int, out: list[Declaration]) -> _Frame | None:
        """Record frame.nodes[index] if it is a declaration; the frame of its members, if any, to walk next."""
        spec = self.spec
        original = frame.nodes[index]
        if original.type in self.skipped:
            return None
        node, anonymous = self._unwrap(original)
        rule = spec.rules.get(node.type) or (_ANONYMOUS_EXPORT if anonymous else None)
        if rule is None:
            # Syntax errors: still read what parsed inside the broken part.
            return _Frame(node.named_children, frame.parent, frame.in_class) if node.type == "ERROR" else None
        if rule.role == "group":
            members = [c for c in node.named_children if c.type in spec.rules]
            if len(members) != 1:
                return _Frame(node.named_children, frame.parent, frame.in_class)
            node, rule = members[0], spec.rules[members[0].type]
        if rule.role == "transparent":
            return _Frame(_nodes(follow(node, rule.body)), frame.parent, frame.in_class)
        needs_body = rule.role in ("class", "namespace") or rule.bodiless != "keep"
        body = _first(follow(node, rule.body)) if needs_body else None
        if body is None and rule.bodiless != "keep":
            if rule.bodiless == "scope":  # `namespace A.B;`: the parent of what follows it
                frame.parent = parent_label("namespace", self._name(node, rule)[0])
            return None
        kind = self._kind(node, rule)
        name, owner = self._name(node, rule)
        if anonymous:
            name = name or DEFAULT_EXPORT_NAME
        if owner is not None and kind == "function":
            kind = "method"
        if frame.in_class:
            # Members that are chunks: methods and nested types (fields and prototypes stay in the class).
            if kind == "variable" or not rule.in_class or name is None:
                return None
            if kind == "function":
                kind = "method"
        start = self._start(frame.nodes, index)
        end, own = last_row(original, self.lines) + 1, original.start_point.row + 1
        out.append(Declaration(start + 1, end, name, kind, owner or frame.parent, own))
        if body is None:
            return None
        if rule.role == "class" and kind == "class":
            return _Frame(body.named_children, parent_label("class", name), True)
        if rule.role == "namespace":
            return _Frame(body.named_children, parent_label("namespace", name), False)
        return None

    def _unwrap(self, node: Node) -> tuple[Node, bool]:
        """The declaration a wrapper stands for, and whether it is an anonymous exported value."""
        wrappers, rules = self.spec.wrappers, self.spec.rules
        while (wrap := wrappers.get(node.type)) is not None:
            inner = _first([c for c in map(node.child_by_field_name, wrap.fields) if c is not None])
            if inner is None and wrap.default is not None:
                value = node.child_by_field_name(wrap.default)
                if value is not None:
                    return value, True
            if inner is None and wrap.children != frozenset():
                accepted = rules if wrap.children is None else wrap.children
                inner = _first([c for c in node.named_children if c.type in accepted])
            if inner is None:
                return node, False
            node = inner
        return node, False

    def _kind(self, node: Node, rule: Rule) -> str | None:
        if rule.kinds:
            for child in node.children:
                if child.type in rule.kinds:
                    return rule.kinds[child.type]
        if rule.functions is not None:
            path, types = rule.functions
            if any(n.type in types for n in follow(node, path, visited=True)):
                return "function"
        return rule.type

    def _name(self, node: Node, rule: Rule) -> tuple[str | None, str | None]:
        """The name, and the parent it implies ("class <Receiver>" for methods defined outside their class)."""
        if rule.name.startswith("="):
            return rule.name[1:], None
        owner = None
        if rule.receiver is not None:
            receiver = self._joined(follow(node, rule.receiver))
            owner = parent_label("class", receiver) if receiver else None
        nodes = follow(node, rule.name)
        scopes = self.spec.scopes
        if len(nodes) == 1 and nodes[0].type in scopes:
            target: Node | None = nodes[0]
            scope: Node | None = None
            while target is not None and target.type in scopes:
                scope_field, name_field = scopes[target.type]
                scope, target = target.child_by_field_name(scope_field), target.child_by_field_name(name_field)
            nodes = [target] if target is not None else []
            if scope is not None:
                owner = parent_label("class", self._joined([scope]))
        return self._joined(nodes), owner

    def _joined(self, nodes: list[Node]) -> str | None:
        names = [node_text(self._base_type(n), self.source) for n in nodes]
        return ", ".join(n for n in names if n) or None

    def _base_type(self, node: Node) -> Node:
        """`*Box`, `Box<T>`, `pkg.Box` -> `Box`, by the language's type_names table."""
        type_names = self.spec.type_names
        while (path := type_names.get(node.type)) is not None:
            inner = _first(follow(node, path))
            if inner is None:
                break
            node = inner
        return node

    def _start(self, siblings: list[Node], index: int) -> int:
        """0-based first row, moved up over comments and attributes directly above (no blank line between).

        A comment on the line where the previous sibling ends is that sibling's trailing comment.
        """
        start, i = self._climb(siblings, index - 1, siblings[index].start_point.row)
        if i < 0:
            # The first member: Python puts a comment right under `class X:` beside the body, not in it.
            body = siblings[index].parent
            owner = body.parent if body is not None else None
            if body is not None and owner is not None:
                around = owner.named_children
                position = next((k for k, n in enumerate(around) if n.id == body.id), 0)
                start, _ = self._climb(around, position - 1, start)
        elif siblings[i].type in self.spec.swallowing and start == siblings[index].start_point.row:
            node = siblings[i]
            while node.named_child_count and node.type not in self.skipped:
                node = node.named_children[-1]
            if node.type in self.skipped and node.parent is not None:
                inner = node.parent.named_children
                start, _ = self._climb(inner, len(inner) - 1, start)
        return start

    def _climb(self, siblings: list[Node], i: int, start: int) -> tuple[int, int]:
        """Move `start` up over siblings[i], siblings[i - 1]… while they are attached comments."""
        while i >= 0 and siblings[i].type in self.skipped:
            comment = siblings[i]
            if last_row(comment, self.lines) < start - 1:
                break
            before = siblings[i - 1] if i else None
            if (
                before is not None
                and before.type not in self.skipped
                and last_row(before, self.lines) >= comment.start_point.row
            ):
                break
            start = comment.start_point.row
            i -= 1
        return start, i


def _first(nodes: list[Node]) -> Node | None:
    return nodes[0] if nodes else None


def _nodes(found: list[Node]) -> list[Node]:
    """Named children of the one node a transparent rule's body path found."""
    return found[0].named_children if found else []
