"""Query hygiene: directives, banners, leftover markers, commented-out code and duplicates give no query,
and each dropped doc comment is listed with its reason. The fixture holds the cases found in zod 3.25."""

from __future__ import annotations

import re

import pytest

from clanka_nb import engine
from clanka_nb.retrieval import dropped_queries, probe_queries
from clanka_nb.retrieval.queries._query_text import DROP_REASONS, judge, reads_as_code

# The shapes seen in the newest zod 3.x (`biome-ignore lint: sadf`, `// /** @deprecated ... */`, commented-out
# type aliases, a `////` banner), written afresh around small declarations, and prose that must stay.
ZOD_LIKE = """// biome-ignore lint: sadf
export type Recursive = { next: Recursive | null };

// /** @deprecated Use `z.pipe()` and `z.transform()` instead. */
export function preprocess(fn: unknown) {
  return fn;
}

// export type $InferZodRecordOutput<
//   Key extends $ZodRecordKey = $ZodRecordKey,
//   Value extends SomeType = $ZodType,
// > = undefined extends Key["_zod"]["values"]
//   ? Record<core.output<Key>, core.output<Value>>
//   : Record<core.output<Key>, core.output<Value>>;
export type InferRecordOutput<Key extends string, Value> = Record<Key, Value>;

// type lkjasd = ConcatenateTupleOfStrings<["Hello", " ", "World", "!"]>; // "Hello World!"
export type Concatenated<T extends string[]> = T;

////////////////////////////////////////////
////     first-party string formats     ////
////////////////////////////////////////////
export interface StringFormats {
  format: string;
}

// ---------------------------------------------
// Helpers for the error map of string checks
// ---------------------------------------------
export function errorMap() {
  return {};
}

// @ts-expect-error the overload is missing on purpose
export const broken: number = "one";

/* istanbul ignore next */
export function unreachable(): never {
  throw new Error("unreachable");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
// Describes any value as a short string for error messages.
export function describe(value: any) {
  return String(value);
}

/** Returns a shallow copy of the schema's definition. */
export function cloneA() {
  return 1;
}

/** Returns a shallow copy of the schema's definition. */
export function cloneB() {
  return 2;
}

/** Checks that a string is a valid email address. */
export function email(s: string) {
  return s.includes("@");
}

// for backwards compatibility
export const legacy = true;

// requires TS 4.4+
export type Modern = `${string}`;
"""

PYTHON = '''def cached(key):
    """Cache or recompute"""
    return key


# result = compute(width, height)  # old signature
def area(width, height):
    return width * height


# noqa: E501
def long_line():
    return 1


# pylint: disable=unused-argument
def ignore(x):
    return 2


def helper():  # type: ignore
    """Returns the helper's result for the caller."""
    return 3
'''


def _by_name(frame):
    return {row["name"]: row for row in frame.astype(object).to_dict("records")}


@pytest.fixture(scope="module")
def zod_like():
    return engine.Codebase.from_texts({"schemas.ts": ZOD_LIKE})


def test_the_cases_from_zod_are_dropped_with_their_reason(zod_like):
    kept = _by_name(probe_queries(zod_like))
    assert set(kept) == {"describe", "email", "legacy", "Modern"}
    # The directive line is left out of a comment that also has prose.
    assert kept["describe"]["query"] == "Describes any value as a short string for error messages."
    dropped = _by_name(dropped_queries(zod_like))
    reasons = {name: row["reason"] for name, row in dropped.items()}
    assert reasons == {
        "Recursive": "directive",
        "preprocess": "markers",
        "InferRecordOutput": "code",
        "Concatenated": "code",
        "StringFormats": "banner",
        "errorMap": "banner",
        "broken": "directive",
        "unreachable": "directive",
        "cloneA": "duplicate",
        "cloneB": "duplicate",
    }
    assert dropped["InferRecordOutput"]["comment_start"] == 9  # the rows say where each comment is
    assert dropped["preprocess"]["query"].startswith("/** @deprecated")


def test_attrs_count_what_the_dropped_frame_lists(zod_like):
    queries = probe_queries(zod_like)
    dropped = dropped_queries(zod_like)
    assert queries.attrs["dropped"] == dropped["reason"].value_counts().loc[lambda s: s > 0].to_dict()
    assert sum(queries.attrs["dropped"].values()) == 10
    assert set(dropped["reason"].cat.categories) == set(DROP_REASONS)
    assert queries.attrs["source"] == "doc_comments"


def test_no_kept_query_is_a_directive_a_banner_has_markers_or_parses_as_code(zod_like):
    for query in probe_queries(zod_like)["query"]:
        assert not re.search(r"biome-ignore|eslint|@ts-|istanbul|/\*|\*/|(^|\s)//|([^\w\s.])\2{2,}", query)
        assert not (engine.parses_as_code(query, "typescript") and re.search(r"[(){}\[\];=<>]", query))


def test_prose_that_parses_is_kept_and_commented_out_code_is_not():
    codebase = engine.Codebase.from_texts({"geo.py": PYTHON}, languages="extended")
    kept = _by_name(probe_queries(codebase))
    dropped = {name: row["reason"] for name, row in _by_name(dropped_queries(codebase)).items()}
    # "Cache or recompute" is a Python expression (a boolean `or`), but has nothing of code about it.
    assert engine.parses_as_code("Cache or recompute", "python")
    assert kept["cached"]["query"] == "Cache or recompute"
    assert kept["helper"]["query"] == "Returns the helper's result for the caller."
    assert dropped == {"area": "code", "long_line": "directive", "ignore": "directive"}


@pytest.mark.parametrize(
    ("lines", "grammar", "is_code"),
    [
        (["deprecated"], "typescript", False),  # one identifier parses, and is prose
        (["not supported here"], "python", False),  # does not parse
        (["cache or recompute"], "python", False),  # parses, no sign of code
        (["z.object().merge()"], "typescript", True),
        (["const x = compute(a, b);"], "javascript", True),
        (["export function f(", "  a: string,", "): void {}"], "typescript", True),
        (["result = compute(a, b)"], "python", True),
        (["Returns the value (or null) of the key."], "typescript", False),
        (["const x = compute(a, b);"], None, False),  # no grammar: nothing to parse with
    ],
)
def test_reads_as_code_both_ways(lines, grammar, is_code):
    assert reads_as_code(lines, grammar) is is_code


@pytest.mark.parametrize(
    ("lines", "kind", "reason"),
    [
        (["// prettier-ignore"], "line", "directive"),
        (["/* c8 ignore start */"], "block", "directive"),
        (["# type: ignore[attr-defined]"], "line", "directive"),
        (["# fmt: off"], "line", "directive"),
        (["# pragma: no cover"], "line", "directive"),
        (["/// <reference types=\"node\" />"], "line", "directive"),
        (["// ==== Parsing the input ===="], "line", "banner"),
        (["// 1, 2, 3 -> 4, 5 | 6 & 7"], "line", "banner"),
        (["// see /* the note */ below here"], "line", "markers"),
        (["// Global cache of parsed files, by path."], "line", None),  # prose, not an eslint `global` list
        (["// region of the screen that is redrawn"], "line", None),  # prose, not a `#region` marker
        (["// return the ID of this chunk as Hex"], "line", None),  # prose that starts with a keyword
        (["// Simply put, this is like (x: T): T => x."], "line", None),  # prose with an arrow in it
        (["// maps the keys one by one --> the values in order"], "line", None),  # an arrow, not `-->` of HTML
        (["// const email = /^[a-z/]+$/i; // from https://example.org/#re"], "line", "code"),
        (["// export function draft(x) {"], "line", "code"),  # a fragment that cannot parse
    ],
)
def test_judge_names_the_reason(lines, kind, reason):
    assert judge(lines, kind, "typescript").reason == reason


def test_placeholders_in_angle_brackets_stay_and_html_tags_go():
    # httpx 0.28.1's `encode_request`: "returning a two-tuple of (<headers>, <stream>)." once became "(, )."
    lines = ['"""', "Handles encoding the given content, returning a two-tuple of (<headers>, <stream>).", '"""']
    assert judge(lines, "docstring", "python") == (
        "Handles encoding the given content, returning a two-tuple of (<headers>, <stream>).", None)
    html = ["/**", " * Returns the <b>first</b> value<br/> of the <code>Map</code> given.", " */"]
    assert judge(html, "block", "typescript").text == "Returns the first value of the Map given."


@pytest.mark.parametrize(
    "line",
    [
        "// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript",
        "// https://base64.guru/standards/base64url",
        "// Adapted from https://stackoverflow.com/a/3143231",
        "// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression",
    ],
)
def test_a_link_is_no_words_of_a_query(line):
    # zod 3.25.76's src/v3: a bare link names no code; the words around it must make the query alone.
    assert judge([line], "line", "typescript").reason == "short"
    assert judge([line + " explains the padding rules"], "line", "typescript").reason is None


def test_a_commented_out_class_method_is_code():
    # zod 3.25.76's src/v3/types.ts keeps an old `merge<...>(merging) { ... }` method commented out inside
    # its class: a method parses only in a class body, and was kept as the query "merge< Incoming extends ...".
    # Longer than a query's 40 words, so the query text is cut before the closing brace.
    params = [f"//   Extra{i} extends keyof Incoming | keyof Output | keyof Input," for i in range(8)]
    method = ["// merge<", "//   Incoming extends AnyZodObject,", *params, "// >(", "//   merging: Incoming",
              "// ): ZodObject<Incoming> {", "//   const merged: any = this.extend(merging.shape);",
              "//   return merged;", "// }"]  # fmt: skip
    for grammar in ("typescript", "tsx", "javascript"):  # its built .js copy keeps the TypeScript comment
        assert judge(method, "line", grammar).reason == "code"
    assert judge(["// parse(input) returns the value { or null } of the key"], "line", "typescript").reason is None
