"""One rule per test, on small hand-written inputs whose expected chunks are derived by hand from SPEC.md."""

from __future__ import annotations

import math
from contextlib import nullcontext

import pytest

from clanka_nb.engine import ChunkSettings, SettingClampedWarning, chunk_file_content

C, F, M, V = "class", "function", "method", "variable"


def rows(chunks):
    return [(c.start_line, c.end_line, c.name, c.type, c.parent) for c in chunks]


def spans(chunks):
    return [(c.start_line, c.end_line) for c in chunks]


def lines_of(content):
    return content.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# --- settings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "clamped"),
    [
        ((30, 0, None), (30, 0, None)),
        ((0, 0, None), (1, 0, None)),
        ((-5, 3, None), (1, 0, None)),
        ((10, 10, None), (10, 9, None)),
        ((10, 50, None), (10, 9, None)),
        ((10, -3, None), (10, 0, None)),
        ((30, 0, 400), (30, 0, 400)),
        ((30, 0, 0), (30, 0, 1)),
        ((30, 0, -10), (30, 0, 1)),
        ((30, 0, 2.7), (30, 0, 2)),
        ((30, 0, 0.5), (30, 0, 1)),
        ((30, 0, math.inf), (30, 0, None)),
        ((30, 0, -math.inf), (30, 0, 1)),
    ],
)
def test_settings_are_clamped_like_the_reference(requested, clamped):
    # A size or limit raised to 1 and an overlap cut below the size say so; a limit's floor or an endless one does not.
    raised = requested[:2] != clamped[:2] or (requested[2] is not None and requested[2] < 1)
    with pytest.warns(SettingClampedWarning) if raised else nullcontext():
        s = ChunkSettings.build(*requested)
    assert (s.effective_size, s.effective_overlap, s.effective_max_characters) == clamped
    assert (s.requested_size, s.requested_overlap) == requested[:2]
    assert s.clamped is (requested[:2] != clamped[:2])


def test_chunk_size_zero_means_one_line_windows():
    with pytest.warns(SettingClampedWarning, match="chunk_size=1"):
        assert spans(chunk_file_content("a.md", "a\nb", chunk_size=0)) == [(1, 1), (2, 2)]


def test_overlap_at_least_size_becomes_size_minus_one():
    content = "\n".join("abcdef")
    with pytest.warns(SettingClampedWarning, match="chunk_overlap=2"):
        assert spans(chunk_file_content("a.md", content, chunk_size=3, chunk_overlap=5)) == [
            (1, 3), (2, 4), (3, 5), (4, 6),
        ]


# --- declaration kinds --------------------------------------------------------------------------

KINDS = {
    "class with methods": (
        "a.ts",
        "class Shelf {\n  add(book) {\n    return book\n  }\n  *all() {\n    yield 1\n  }\n}",
        [(1, 8, "Shelf", C, None), (2, 4, "add", M, "class Shelf"), (5, 7, "all", M, "class Shelf")],
    ),
    "exported class": (
        "a.ts", "export class Cart {\n  clear() {}\n}", [(1, 3, "Cart", C, None), (2, 2, "clear", M, "class Cart")]
    ),
    "method signature has no name or type": (
        "a.ts",
        "class S {\n  run(): void\n  go() {\n    return 1\n  }\n}",
        [(1, 6, "S", C, None), (2, 2, None, None, "class S"), (3, 5, "go", M, "class S")],
    ),
    "enum": ("a.ts", "enum Color {\n  Red,\n  Green,\n}", [(1, 4, "Color", "enum", None)]),
    "interface": ("a.ts", "interface Book {\n  title: string\n}", [(1, 3, "Book", "interface", None)]),
    "type alias": ("a.ts", "type Id = string", [(1, 1, "Id", "type-alias", None)]),
    "exported type alias": ("a.ts", "export type Pair = [number, number]", [(1, 1, "Pair", "type-alias", None)]),
    "function": ("a.ts", "function total(a) {\n  return a\n}", [(1, 3, "total", F, None)]),
    "generator": ("a.ts", "function* ids() {\n  yield 1\n}", [(1, 3, "ids", F, None)]),
    "arrow function const": ("a.ts", "const add = (a, b) => a + b", [(1, 1, "add", F, None)]),
    "function expression let": ("a.ts", "let g = function () {\n  return 1\n}", [(1, 3, "g", F, None)]),
    "plain const": ("a.ts", "const limit = 10", [(1, 1, "limit", V, None)]),
    "var": ("a.js", "var count = 0", [(1, 1, "count", V, None)]),
    "declare const": ("a.ts", "declare const VERSION: string", [(1, 1, "VERSION", V, None)]),
    "several declarators": ("a.ts", "let a = 1, b = 2", [(1, 1, "a, b", V, None)]),
    "one arrow among declarators": ("a.ts", "const x = 1, f = () => x", [(1, 1, "x, f", F, None)]),
    "export namespace": (
        "a.ts",
        "export namespace Store {\n  export function open() {\n    return 1\n  }\n}",
        [(1, 5, "Store", "namespace", None), (2, 4, "open", F, "namespace Store")],
    ),
    "nested namespaces": (
        "a.ts",
        "export namespace Outer {\n  export namespace Inner {\n    export const x = 1\n  }\n}",
        [
            (1, 5, "Outer", "namespace", None),
            (2, 4, "Inner", "namespace", "namespace Outer"),
            (3, 3, "x", V, "namespace Inner"),
        ],
    ),
    "declare namespace": (
        "a.ts",
        "declare namespace Api {\n  interface Req {\n    id: number\n  }\n}",
        [(1, 5, "Api", "namespace", None), (2, 4, "Req", "interface", "namespace Api")],
    ),
    "module keyword": (
        "a.ts",
        "module Legacy {\n  const v = 1\n}",
        [(1, 3, "Legacy", "namespace", None), (2, 2, "v", V, "namespace Legacy")],
    ),
    "declare module": (
        "a.ts",
        'declare module "fs" {\n  export interface Stat {\n    size: number\n  }\n}',
        [(1, 5, '"fs"', "namespace", None), (2, 4, "Stat", "interface", 'namespace "fs"')],
    ),
    "name whitespace collapsed": ("a.ts", 'declare module "my  lib" {\n}', [(1, 2, '"my lib"', "namespace", None)]),
    "export declare const (unwrapped twice)": ("a.ts", "export declare const x: number", [(1, 1, "x", V, None)]),
    "export declare namespace": (
        "a.ts",
        "export declare namespace NS {\n  const k: number\n}",
        [(1, 3, "NS", "namespace", None), (2, 2, "k", V, "namespace NS")],
    ),
    "declare class with a signature": (
        "a.ts", "declare class A {\n  m(): void\n}", [(1, 3, "A", C, None), (2, 2, None, None, "class A")]
    ),
    "export default class": (
        "a.ts", "export default class Foo {\n  m() {}\n}", [(1, 3, "Foo", C, None), (2, 2, "m", M, "class Foo")]
    ),
    "export default function": ("a.ts", "export default function main() {\n  return 0\n}", [(1, 3, "main", F, None)]),
    "tsx arrow component": ("Card.tsx", "export const Card = () => <div>hi</div>", [(1, 1, "Card", F, None)]),
    "jsx function": ("App.jsx", "function App() {\n  return <p/>\n}", [(1, 3, "App", F, None)]),
    "js class": ("a.js", "class A {\n  m() {}\n}", [(1, 3, "A", C, None), (2, 2, "m", M, "class A")]),
    "upper-case extension is parsed": ("LIB.TS", "function f() {}", [(1, 1, "f", F, None)]),
}


@pytest.mark.parametrize(("path", "source", "expected"), KINDS.values(), ids=KINDS.keys())
def test_each_declaration_kind_gives_its_type_name_and_parent(path, source, expected):
    assert rows(chunk_file_content(path, source)) == expected


def test_skipped_nodes_give_no_chunks():
    source = "\n".join([
        'import { a } from "./a"',  # 1 import
        "export { a }",  # 2 export clause: no type, no name
        "console.log(a)",  # 3 bare expression
        "abstract class Base {",  # 4-6 abstract class (and its methods)
        "  run() {}",
        "}",
        "export default function () {",  # 7-9 anonymous default export
        "  return 1",
        "}",
        "const kept = 1",  # 10
    ])
    assert rows(chunk_file_content("a.ts", source)) == [(10, 10, "kept", V, None)]


def test_ambient_declarations_without_a_declaration_inside_are_skipped():
    # `declare function` holds a function_signature; `declare global` a statement block: neither unwraps.
    source = "declare function f(): void\ndeclare global {\n  interface W {}\n}\nconst kept = 1"
    assert rows(chunk_file_content("a.ts", source)) == [(5, 5, "kept", V, None)]


@pytest.mark.parametrize(
    "source",
    ['import x from "y"\nconsole.log(x)', "// just a note\n", "export default class {\n  m() {}\n}", "export { a, b }"],
)
def test_a_ts_file_without_declarations_falls_back_to_windows(source):
    expected_end = len(lines_of(source.rstrip("\n")))
    assert rows(chunk_file_content("a.ts", source)) == [(1, expected_end, None, None, None)]


@pytest.mark.parametrize("path", ["a.mjs", "a.mts", "a.cts", "a.md", "a.txt", "a.go"])
def test_only_ts_tsx_js_jsx_are_parsed(path):
    source = "function f() {\n  return 1\n}"
    assert rows(chunk_file_content(path, source)) == [(1, 3, None, None, None)]


def test_python_is_windows_in_the_reference_mode():
    assert rows(chunk_file_content("a.py", "def f():\n    return 1\n")) == [(1, 2, None, None, None)]


def test_chunk_content_is_lines_joined_with_lf():
    chunks = chunk_file_content("a.ts", "function f() {\r\n  return 1\r\n}\r\n")
    assert [c.content for c in chunks] == ["function f() {\n  return 1\n}"]


# --- comments -----------------------------------------------------------------------------------

COMMENTS = {
    "adjacent comments": ("// about a\n/* more */\nfunction a() {}", [(1, 3, "a", F, None)]),
    "blank and whitespace-only lines between": ("/** docs */\n\n   \t\nexport function b() {}", [(1, 4, "b", F, None)]),
    "a chain of comments across blank lines": ("// one\n\n// two\n\nconst c = 1", [(1, 5, "c", V, None)]),
    "a statement in between": ("// stray\n;\nfunction d() {}", [(3, 3, "d", F, None)]),
    "a declaration in between": (
        "// about x\nlet x = 1\nfunction d() {}",
        [(1, 2, "x", V, None), (3, 3, "d", F, None)],
    ),
    "a trailing comment is not attached backwards": ("function a() {}\n// trailing", [(1, 1, "a", F, None)]),
    "method comments across blank lines": (
        "class A {\n  /** a */\n\n  /* b */\n   \n  m() {}\n}",
        [(1, 7, "A", C, None), (2, 6, "m", M, "class A")],
    ),
    # The `;` is not a node of the class body, but its line is not whitespace-only.
    "a non-blank line between comment and method": (
        "class A {\n  // docs\n  ;\n  m() {}\n}",
        [(1, 5, "A", C, None), (4, 4, "m", M, "class A")],
    ),
}


@pytest.mark.parametrize(("source", "expected"), COMMENTS.values(), ids=COMMENTS.keys())
def test_comment_attachment(source, expected):
    assert rows(chunk_file_content("a.ts", source)) == expected


# --- splitting ----------------------------------------------------------------------------------

LONG = "function long() {\n" + "".join(f"  const a{i} = {i}\n" for i in range(1, 9)) + "}"  # 10 lines


@pytest.mark.parametrize(
    ("size", "overlap", "expected"),
    [
        (30, 0, [(1, 10)]),
        (10, 0, [(1, 10)]),
        (4, 0, [(1, 4), (5, 8), (9, 10)]),
        (4, 1, [(1, 4), (4, 7), (7, 10)]),
        (4, 3, [(1, 4), (2, 5), (3, 6), (4, 7), (5, 8), (6, 9), (7, 10)]),
        (9, 2, [(1, 9), (8, 10)]),
    ],
)
def test_a_long_declaration_is_split_with_overlap(size, overlap, expected):
    chunks = chunk_file_content("a.ts", LONG, chunk_size=size, chunk_overlap=overlap)
    assert spans(chunks) == expected
    assert {(c.name, c.type, c.parent) for c in chunks} == {("long", F, None)}
    lines = LONG.split("\n")
    assert [c.content for c in chunks] == ["\n".join(lines[s - 1 : e]) for s, e in expected]


def test_segments_without_a_meaningful_line_are_skipped():
    source = "function f() {\n  return 1\n\n\n}"
    assert spans(chunk_file_content("a.ts", source, chunk_size=2)) == [(1, 2)]


# "function f() {" is 14 characters, "  return 1" 10, "}" 1: the whole range is 14+1+10+1+1 = 27.
@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        (None, [(1, 3)]),
        (27, [(1, 3)]),
        (26, [(1, 2)]),  # (3, 3) is only "}"
        (24, [(1, 1), (2, 3)]),
        (5, [(1, 1), (2, 2)]),  # single lines stay even when too long
    ],
)
def test_max_characters_pulls_a_segment_back(limit, expected):
    source = "function f() {\n  return 1\n}"
    assert spans(chunk_file_content("a.ts", source, chunk_max_characters=limit)) == expected


def test_windows_are_pulled_back_and_still_advance():
    # Lines of 4 characters: two lines joined are 9 characters, three are 14.
    content = "\n".join(["aaaa"] * 5)
    chunks = chunk_file_content("a.md", content, chunk_size=4, chunk_overlap=2, chunk_max_characters=9)
    assert spans(chunks) == [(1, 2), (2, 3), (3, 4), (4, 5)]


@pytest.mark.parametrize(("limit", "expected"), [(5, [(1, 2)]), (4, [(1, 1), (2, 2)])])
def test_window_length_counts_the_line_break(limit, expected):
    assert spans(chunk_file_content("a.md", "ab\ncd", chunk_max_characters=limit)) == expected


# --- windows ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "size", "overlap", "expected"),
    [
        ("a\n\n--\nb\nc", 2, 0, [(1, 2), (4, 5)]),  # the next start skips lines that are not meaningful
        ("a\nb\n\nc\nd", 2, 1, [(1, 2), (2, 3), (4, 5)]),
        ("a\nb\nc", 2, 1, [(1, 2), (2, 3)]),  # stops once a window reaches the last line
        ("a\nb\nc\nd\ne", 3, 0, [(1, 3), (4, 5)]),
        ("}\n\nx\n", 30, 0, [(3, 3)]),
    ],
)
def test_line_windows(content, size, overlap, expected):
    chunks = chunk_file_content("a.md", content, chunk_size=size, chunk_overlap=overlap)
    assert spans(chunks) == expected
    assert all(c.name is None and c.type is None and c.parent is None for c in chunks)


# --- class truncation ---------------------------------------------------------------------------


def test_a_split_class_with_methods_keeps_only_its_first_segment():
    source = "class Big {\n  a() {\n    return 1\n  }\n  b() {\n    return 2\n  }\n}"
    assert rows(chunk_file_content("a.ts", source, chunk_size=3)) == [
        (1, 3, "Big", C, None),
        (2, 4, "a", M, "class Big"),
        (5, 7, "b", M, "class Big"),
    ]


def test_a_split_class_without_methods_keeps_every_segment():
    source = "class Plain {\n  x = 1\n  y = 2\n  z = 3\n}"
    expected = [(1, 2, "Plain", C, None), (3, 4, "Plain", C, None)]  # (5, 5) is only "}"
    assert rows(chunk_file_content("a.ts", source, chunk_size=2)) == expected


def test_methods_of_another_class_with_the_same_name_do_not_truncate():
    source = "class A {\n  x = 1\n  y = 2\n  z = 3\n}\nclass A {\n  m() {}\n}"
    assert rows(chunk_file_content("a.ts", source, chunk_size=2)) == [
        (1, 2, "A", C, None),
        (3, 4, "A", C, None),
        (6, 7, "A", C, None),  # the second A has m() inside it: first segment only
        (7, 7, "m", M, "class A"),
    ]


# --- dedup and order ----------------------------------------------------------------------------


def test_identical_chunks_are_emitted_once():
    assert rows(chunk_file_content("a.ts", "let a = 1; let a = 2")) == [(1, 1, "a", V, None)]


def test_chunks_differing_only_in_type_both_stay_in_recorded_order():
    expected = [(1, 1, "f", V, None), (1, 1, "f", F, None)]
    assert rows(chunk_file_content("a.ts", "const f = 1; function f() {}")) == expected


def test_sorted_by_start_then_end_before_name():
    source = "class A { m() { return 1 }\n  n() {}\n}"
    assert rows(chunk_file_content("a.ts", source)) == [
        (1, 1, "m", M, "class A"),
        (1, 3, "A", C, None),
        (2, 2, "n", M, "class A"),
    ]


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("const b = 1; const B = 2; const a = 3; const _z = 4", ["_z", "a", "b", "B"]),
        ("const x9 = 1; const x10 = 2", ["x10", "x9"]),  # digits compare one by one
        ("const eb = 1; const éa = 2", ["éa", "eb"]),  # accents matter only after the letters
        ("const $b = 1; const a = 2; const _c = 3", ["_c", "$b", "a"]),
    ],
)
def test_name_ties_are_ordered_by_icu_collation(source, names):
    assert [c.name for c in chunk_file_content("a.ts", source)] == names


def test_a_missing_name_sorts_as_the_empty_string():
    assert rows(chunk_file_content("a.ts", "class S { run(): void; go() {} }")) == [
        (1, 1, None, None, "class S"),
        (1, 1, "go", M, "class S"),
        (1, 1, "S", C, None),
    ]
