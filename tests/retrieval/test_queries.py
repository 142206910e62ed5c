"""Query extraction from doc comments, on hand-written files whose answers are read off the text."""

from __future__ import annotations

import pandas as pd
import pytest

from clanka_nb import engine
from clanka_nb.retrieval.queries._queries import check_queries, probe_queries
from clanka_nb.retrieval.queries._query_text import first_sentences, query_text

JSDOC = """import { Vec } from "./vec"

/**
 * Computes the squared length of a vector.
 * Cheaper than the length, for comparisons. Ignores the w component.
 * @param v the vector
 * @returns the squared length
 */
export function lengthSq(v: Vec): number {
  return v.x * v.x + v.y * v.y
}

export function undocumented(a: number): number {
  return a * 2
}
"""

LINE_COMMENTS = """// Clamps a value between two bounds.
// Works with numbers only.
function clamp(x, lo, hi) {
  return Math.min(hi, Math.max(lo, x))
}

// Helper.
function tiny() {
  return 1
}

class Timer {
  /** Starts counting from {@link Clock zero} again. */
  reset() {
    this.t = 0
  }
}
"""

PYTHON = '''import math


def area(width, height):
    """Return the area of a rectangle given its sides.

    Args:
        width: the first side.
    """
    return width * height


# Distance between two points in the plane.
def distance(a, b):
    return math.dist(a, b)


def bare(x):
    return x
'''


def _rows(queries: pd.DataFrame) -> dict[str, dict]:
    return {row["name"]: row for row in queries.astype(object).to_dict("records")}


def test_jsdoc_gives_its_description_and_the_code_below_it():
    queries = probe_queries(engine.Codebase.from_texts({"vec.ts": JSDOC}))
    rows = _rows(queries)
    assert set(rows) == {"lengthSq"}  # the undocumented function gives no query
    row = rows["lengthSq"]
    assert row["query"] == "Computes the squared length of a vector. Cheaper than the length, for comparisons."
    assert (row["path"], row["start_line"], row["end_line"]) == ("vec.ts", 9, 11)
    assert (row["comment_start"], row["comment_end"]) == (3, 8)


def test_line_comments_and_method_jsdoc_short_comments_give_none():
    rows = _rows(probe_queries(engine.Codebase.from_texts({"util.js": LINE_COMMENTS})))
    assert set(rows) == {"clamp", "reset"}  # "Helper." is one word: no query
    assert rows["clamp"]["query"] == "Clamps a value between two bounds. Works with numbers only."
    assert (rows["clamp"]["start_line"], rows["clamp"]["end_line"]) == (3, 5)
    assert rows["reset"]["query"] == "Starts counting from Clock zero again."
    assert (rows["reset"]["start_line"], rows["reset"]["end_line"]) == (14, 16)
    assert rows["reset"]["type"] == "method"


def test_python_docstrings_and_hash_comments_in_either_mode():
    codebase = engine.Codebase.from_texts({"geo.py": PYTHON}, languages="extended")
    rows = _rows(probe_queries(codebase))
    assert set(rows) == {"area", "distance"}
    assert rows["area"]["query"] == "Return the area of a rectangle given its sides."
    # The docstring is inside the body: the target is the whole function, the comment lines 5-9.
    assert (rows["area"]["start_line"], rows["area"]["end_line"]) == (4, 10)
    assert (rows["area"]["comment_start"], rows["area"]["comment_end"]) == (5, 9)
    assert rows["distance"]["query"] == "Distance between two points in the plane."
    assert (rows["distance"]["start_line"], rows["distance"]["comment_start"]) == (14, 13)
    # The reference cuts Python into line windows, but the queries and targets come from the
    # declarations all the same: the same rows, with the codebase's own mode in attrs.
    clanka = probe_queries(engine.Codebase.from_texts({"geo.py": PYTHON}))
    assert clanka.attrs["languages"] == "clanka"
    pd.testing.assert_frame_equal(clanka, probe_queries(codebase), check_like=True, check_flags=False)


def test_one_line_block_comment_before_code_on_the_same_line():
    source = "/** Parses the header of a message. */ export function parse(s) {\n  return s\n}\n"
    rows = _rows(probe_queries(engine.Codebase.from_texts({"p.ts": source})))
    assert rows["parse"]["query"] == "Parses the header of a message."
    assert (rows["parse"]["start_line"], rows["parse"]["end_line"]) == (1, 3)


def test_texts_documenting_several_declarations_and_license_headers_are_left_out():
    source = (
        "/* Copyright (c) 2024 Someone. All rights reserved. */\n"
        "export function first() {\n  return 1\n}\n\n"
        "/** Returns a copy of this object. */\nexport function a() {\n  return 2\n}\n\n"
        "/** Returns a copy of this object. */\nexport function b() {\n  return 3\n}\n\n"
        "/** Returns the sum of both values. */\nexport function c() {\n  return 4\n}\n"
    )
    rows = _rows(probe_queries(engine.Codebase.from_texts({"d.ts": source})))
    assert set(rows) == {"c"}


@pytest.mark.parametrize(
    ("lines", "kind", "expected"),
    [
        (["/** Makes a box. Its sides are equal. It is red. */"], "block", "Makes a box. Its sides are equal."),
        (["// Splits the text into words", "//", "// Second paragraph here."], "line", "Splits the text into words"),
        (["/**", " * @deprecated use the other one instead", " */"], "block", None),
        (["// const x = compute(a, b);"], "line", None),
        (["/** Draws the <b>bold</b> `label` text. */"], "block", "Draws the bold label text."),
    ],
)
def test_query_text(lines, kind, expected):
    assert query_text(lines, kind) == expected


def test_first_sentences_keeps_initials_and_abbreviations_inside_a_sentence():
    text = '"A. Author, B. Author" for the card, e.g. this one. Second one. Third one.'
    assert first_sentences(text) == '"A. Author, B. Author" for the card, e.g. this one. Second one.'
    assert len(first_sentences("word " * 100).split()) == 40


def test_user_queries_are_checked_against_the_codebase():
    codebase = engine.Codebase.from_texts({"vec.ts": JSDOC})
    good = pd.DataFrame({"query": ["squared length"], "path": ["vec.ts"], "start_line": [9], "end_line": [11]})
    assert check_queries(good, codebase)["start_line"].tolist() == [9]
    with pytest.raises(KeyError, match="end_line"):
        check_queries(good.drop(columns="end_line"), codebase)
    with pytest.raises(KeyError, match=r"other\.ts"):
        check_queries(good.assign(path="other.ts"), codebase)
    with pytest.raises(ValueError, match=r"lines 9-99 of vec\.ts"):
        check_queries(good.assign(end_line=99), codebase)
    with pytest.raises(TypeError, match="DataFrame"):
        check_queries([("q", "vec.ts", 1, 2)], codebase)  # type: ignore[arg-type]
