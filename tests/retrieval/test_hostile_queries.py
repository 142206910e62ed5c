"""Query extraction over planted inputs: commit subjects and small files built so a careless regular
expression or loop backtracks or walks the file once per character. Each is linear, so it takes
milliseconds; the bounds here are generous (a busy machine), the quadratic versions took 10-60 s."""

from __future__ import annotations

import time

from clanka_nb import engine
from clanka_nb.retrieval.queries._history import _Commit, _reason, message_query
from clanka_nb.retrieval.queries._queries import scan
from clanka_nb.retrieval.queries._test_names import scan_test_names

BOUND = 5.0  # seconds; each input below takes well under 0.5 s once linear


def _seconds(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def test_a_64_kb_version_like_subject_is_read_in_bounded_time():
    subject = "1." + "1" * 65_536 + " x"  # backtracked in v?\d+(?:\.\d+)+\S*\s*$: 44-61 s
    commit = _Commit("0" * 40, ["1" * 40], "Ann <ann@example.org>", subject)
    assert _seconds(lambda: _reason(commit, message_query(subject), 8)) < BOUND
    # The version test still reads what it did: a subject that is only a version is a bump.
    for version in ("1.2.3", "v2.0.0-beta.1", "10.4 ", "1.2.3\n\nThe notes of the release."):
        bump = _Commit("0" * 40, ["1" * 40], "Ann <ann@example.org>", version)
        assert _reason(bump, "several words of a query", 8) == "version"
    prose = _Commit("0" * 40, ["1" * 40], "Ann <ann@example.org>", "1.2 is the ratio the cache grows by")
    assert _reason(prose, "is the ratio the cache grows by", 8) is None


def test_a_huge_message_gives_a_bounded_query():
    message = "Clamp the discount to the price range " + "word " * 200_000
    assert _seconds(lambda: message_query(message)) < BOUND
    assert message_query(message).split()[:4] == ["Clamp", "the", "discount", "to"]


def _scan_seconds(name: str, text: str) -> float:
    codebase = engine.Codebase.from_texts({name: text}, languages="extended")
    codebase.text(name)  # parsed first: the time is the extraction's
    return _seconds(lambda: (scan(codebase), scan_test_names(codebase)))


def test_an_unclosed_inline_tag_repeated_in_a_doc_comment():
    text = "/**\n * " + "{@a " * 32_000 + "\n */\nexport function f(v: number) {\n  return v;\n}\n"  # 125 KiB
    assert _scan_seconds("tag.ts", text) < BOUND


def test_one_dotted_word_in_a_doc_comment():
    text = "/** " + "a." * 32_000 + "a */\nexport function f(v: number) {\n  return v;\n}\n"  # 63 KiB
    assert _scan_seconds("word.ts", text) < BOUND


def test_a_python_def_line_of_hashes_ending_in_a_quote():
    text = "def f(" + " #" * 32_000 + " '\n    return 1\n"
    assert _scan_seconds("hashes.py", text) < BOUND


def test_a_thousand_nested_test_calls():
    depth = 1_000
    opening = "".join(f'it("case number {i} of many", () => {{\n' for i in range(depth))
    text = 'import { f } from "./f"\n' + opening + "f()\n" + "})\n" * depth
    codebase = engine.Codebase.from_texts({"f.ts": "export function f() {\n  return 1;\n}\n", "a.test.ts": text},
                                          languages="extended")  # fmt: skip
    codebase.text("a.test.ts")
    tests = []
    assert _seconds(lambda: tests.append(scan_test_names(codebase))) < BOUND
    # Each test calls f (inside its body, however deep): every one gives a query targeting f.
    assert len(tests[0].queries) == depth and set(tests[0].queries["name"]) == {"f"}


def test_normal_input_reads_as_before():
    # The linear versions keep what the patterns did on ordinary text.
    from clanka_nb.retrieval.queries._comments import doc_comment
    from clanka_nb.retrieval.queries._query_text import judge

    lines = ["/**", " * Returns {@link Vector3 the vector} as a <b>bold</b> value.", " */"]
    assert judge(lines, "block").text == "Returns Vector3 the vector as a bold value."
    assert judge(["// see https://example.org/a.b.c for the details"], "line").reason is None
    assert judge(["// https://example.org/a.b.c"], "line").reason == "short"
    source = ["def f(a,  # the first value", "      b):  # the second one", '    """Adds the two values."""',
              "    return a"]
    found = doc_comment(source, 1, 4, "python")
    assert found is not None and found.kind == "docstring" and found.comment_start == 3
    quoted = ["def f(a='#'):", '    """Reads a hash mark as the default."""']
    found = doc_comment(quoted, 1, 2, "python")
    assert found is not None and found.comment_start == 2
