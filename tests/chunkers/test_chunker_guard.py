"""One hostile file never stops a bake-off: a chunker's error, recursion or slowness stays with that file.

Each file it fails on is counted as not handled (`ChunkedWith.failed`, with the reason; the sweep cuts it into
clanka's line windows, in `fallback_files`) and named in one `ChunkerFallbackWarning`; every other file and every
other chunker's row is kept.
"""

from __future__ import annotations

import json
import threading
import time
import warnings

import numpy as np
import pytest

import clanka_nb as cn
from clanka_nb import chunkers
from tests._shared import run_cli
from tests.chunkers._files import PEER_MODULES, need_peer

DEPTH = 10_000  # the 20 KB file, a line break after each bracket (one line of it is over the line bound)
NESTED = {
    "nested.py": "x = " + "[\n" * DEPTH + "]\n" * DEPTH,
    "nested_parens.py": "x = " + "(\n" * DEPTH + ")\n" * DEPTH,
    "nested.ts": "function f() " + "{\n" * DEPTH + "}\n" * DEPTH,
}
PLAIN = {
    "plain.py": "def total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n",
    "plain.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
}
BUDGET = chunkers.Budget(1500, characters_per_non_whitespace=1.4)


def _quietly(chunker, texts):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = chunkers.chunk_with(chunker, texts)
    fallbacks = [w for w in caught if issubclass(w.category, chunkers.ChunkerFallbackWarning)]
    return result, fallbacks


@pytest.mark.parametrize("name", sorted(PEER_MODULES))
def test_every_peer_gets_past_ten_thousand_nested_brackets(name: str) -> None:
    need_peer(name)
    peer = chunkers.PEERS[name](BUDGET)
    started = time.perf_counter()
    result, fallbacks = _quietly(peer, {**NESTED, **PLAIN})
    assert time.perf_counter() - started < 30  # minutes without the bounds (semantic-text-splitter)
    handled = set(result.spans) | set(result.unhandled)
    assert set(result.failed) == {path for path in NESTED if path not in result.unhandled}
    assert all("a syntax tree more than 256 levels deep" in reason for reason in result.failed.values())
    assert handled >= {path for path in PLAIN if path not in result.unhandled}
    if result.failed:
        assert len(fallbacks) == 1
        message = str(fallbacks[0].message)
        assert repr(peer.label) in message and all(repr(path) in message for path in result.failed)


def test_a_raising_callable_falls_back_on_that_file_alone_with_its_label_and_file() -> None:
    def fragile(path: str, text: str) -> list[tuple[int, int]]:
        if path == "plain.ts":
            return [(1, 1)] if 1 / 0 else []
        return [(1, 1)]

    result, fallbacks = _quietly(chunkers.as_chunker(fragile, "fragile"), PLAIN)
    assert result.spans == {"plain.py": [chunkers.Span(1, 1)]}
    assert result.failed == {"plain.ts": "ZeroDivisionError: division by zero"}
    assert len(fallbacks) == 1
    assert "'fragile' failed on 1 of 2 files" in str(fallbacks[0].message)
    assert "'plain.ts' (ZeroDivisionError: division by zero)" in str(fallbacks[0].message)


def test_a_recursion_error_falls_back() -> None:
    def recurse(path: str, text: str, depth: int = 0) -> list[tuple[int, int]]:
        return recurse(path, text, depth + 1)

    result, _ = _quietly(chunkers.as_chunker(recurse, "deep"), PLAIN)
    assert set(result.failed) == set(PLAIN) and not result.spans
    assert all(reason.startswith("RecursionError") for reason in result.failed.values())


def _slow(path: str, text: str) -> list[tuple[int, int]]:
    if path == "plain.py":
        end = time.monotonic() + 20
        while time.monotonic() < end:  # Python code: the timer interrupts it
            pass
    return [(1, 1)]


def test_a_slow_file_is_cut_short_at_the_time_limit() -> None:
    chunker = chunkers.as_chunker(_slow, "slow", file_seconds=0.3)
    started = time.perf_counter()
    result, fallbacks = _quietly(chunker, PLAIN)
    assert time.perf_counter() - started < 5
    assert result.failed == {"plain.py": "took longer than the time limit of 0.3 s per file"}
    assert result.spans == {"plain.ts": [chunkers.Span(1, 1)]}
    assert len(fallbacks) == 1


def test_off_the_main_thread_a_slow_file_falls_back_all_the_same() -> None:
    def sleepy(path: str, text: str) -> list[tuple[int, int]]:
        time.sleep(0.4 if path == "plain.py" else 0)
        return [(1, 1)]

    out = {}
    thread = threading.Thread(target=lambda: out.update(r=_quietly(chunkers.as_chunker(sleepy, file_seconds=0.2),
                                                                   PLAIN)[0]))  # fmt: skip
    thread.start()
    thread.join(10)
    assert out["r"].failed == {"plain.py": "took longer than the time limit of 0.2 s per file"}


def test_an_overlong_line_or_a_deep_syntax_tree_is_not_given_to_a_peer() -> None:
    limits = chunkers.InputLimits()
    assert limits.over("a.py", "x" * 20_001).startswith("a line of 20,001 characters")
    assert limits.over("a.py", "x = " + "[" * 100 + "]" * 100) is None
    assert limits.over("a.py", "x = " + "[" * 300 + "]" * 300) == "a syntax tree more than 256 levels deep"
    assert limits.over("a.txt", "[" * 300 + "]" * 300) is None  # no grammar: no tree, no depth bound


def test_the_time_limit_is_checked() -> None:
    for bad in (0, -1, float("nan"), "10", True):
        with pytest.raises(ValueError, match="file_seconds must be a positive number"):
            chunkers.as_chunker(_slow, file_seconds=bad)


def test_a_sweep_keeps_every_chunker_s_row_when_one_fails_on_a_file(tmp_path) -> None:
    for path, text in {**PLAIN, "nested.py": "x = " + "[\n" * 300 + "]\n" * 300}.items():
        (tmp_path / path).write_text(text, encoding="utf-8")

    def fragile(path: str, text: str) -> list[tuple[int, int]]:
        if "[\n[" in text:
            raise ZeroDivisionError("no")
        return [(1, 1)]

    with pytest.warns(chunkers.ChunkerFallbackWarning, match="'fragile' failed on 1 of 3 files"):
        table = cn.sweep(tmp_path, chunk_size=[30], progress=False,
                         chunkers={"fragile": fragile, "windows": chunkers.line_windows(30)})  # fmt: skip
    rows = table.set_index("chunker_label")
    assert rows.loc["fragile", "fallback_files"] == 1 and rows.loc["windows", "fallback_files"] == 0
    assert rows.loc["fragile", "chunks"] > 2  # the nested file got clanka's windows


def test_the_cli_bake_off_finishes_with_every_row_on_a_hostile_file(tmp_path, capsys) -> None:
    pytest.importorskip("bm25s")
    for name in ("astchunk", "langchain"):
        need_peer(name)
    for path, text in {**PLAIN, **NESTED}.items():
        (tmp_path / path).write_text(text, encoding="utf-8")
    status, out, err = run_cli(capsys, "sweep", str(tmp_path), "--chunk-size", "30", "--probe", "--chunkers",
                               "line-windows,astchunk,langchain", "--format", "json")  # fmt: skip
    assert status == 0, err
    rows = json.loads(out)
    labels = [row["chunker_label"] for row in rows]
    # The grid's row, clanka's own setting's (the reference row every probed sweep scores), and one per chunker.
    assert labels[:2] == ["clanka", "clanka"] and [row["reference"] for row in rows[:2]] == [False, True]
    assert len(labels) == 5


def test_a_bad_chunker_seconds_is_one_line(capsys) -> None:
    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunkers", "line-windows",
                             "--chunker-seconds", "soon")  # fmt: skip
    assert status == 2 and "is not a number of seconds" in err and err.count("\n") <= 2
    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunker-seconds", "5")
    assert status == 2 and "--chunker-seconds applies to the chunkers of --chunkers" in err


# Issue 42 item 8: a callable's answer is read exactly.
TEXT = "a\nb\nc\n"


def test_numpy_integers_are_line_numbers() -> None:
    spans = chunkers.as_chunker(lambda p, t: [(np.int64(1), np.int32(2))], "np")("f.txt", TEXT)
    assert spans == [chunkers.Span(1, 2)] and type(spans[0].start_line) is int


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ([("1", "2")], r"gave the line number '1' \(str\)"),
        ([(True, 2)], r"gave the line number True \(bool\)"),
        ([(1.0, 2)], r"gave the line number 1\.0 \(float\)"),
        ({"a": 1, "b": 2}, r"gave dict for 'f\.txt'"),
    ],
)
def test_a_wrong_answer_is_refused_for_what_is_wrong(answer, reason) -> None:
    with pytest.raises(chunkers.ChunkerAnswerError, match=reason):
        chunkers.chunk_with(lambda p, t: answer, {"f.txt": TEXT})
