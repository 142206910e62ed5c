"""Any callable is a chunker; its answers are checked; what cannot be placed is said, never dropped silently."""

from __future__ import annotations

import warnings

import pytest

from clanka_nb import chunkers, engine
from tests.chunkers._files import FILES

PATH, TEXT = "stock/items.py", FILES["stock/items.py"]


def paragraphs(path: str, text: str) -> list[str]:
    """A user's chunker that gives texts: the file cut at blank lines."""
    return [part for part in text.split("\n\n") if part.strip()]


def test_a_callable_giving_texts_is_placed_in_order() -> None:
    chunker = chunkers.as_chunker(paragraphs)
    assert chunker.label == "paragraphs"
    spans = chunker(PATH, TEXT)
    rows = TEXT.split("\n")
    assert len(spans) == len(paragraphs(PATH, TEXT))
    for span, part in zip(spans, paragraphs(PATH, TEXT), strict=True):
        assert "\n".join(rows[span.start_line - 1 : span.end_line]) == part.strip("\n")


def test_repeated_texts_land_on_their_own_places() -> None:
    text = "}\n}\n}\n"
    spans = chunkers.as_chunker(lambda p, t: ["}", "}", "}"], label="braces")(PATH, text)
    assert [(s.start_line, s.end_line) for s in spans] == [(1, 1), (2, 2), (3, 3)]


def test_texts_with_rewrapped_whitespace_are_placed() -> None:
    text = "def f(a,\n      b):\n    return a\n"
    spans = chunkers.as_chunker(lambda p, t: ["def f(a, b): return a"], label="joined")(PATH, text)
    assert spans == [chunkers.Span(1, 3)]


def test_spans_pairs_and_code_chunks_are_taken_as_they_are() -> None:
    assert chunkers.as_chunker(lambda p, t: [(1, 2), chunkers.Span(3, 4, "x", "function")])(PATH, TEXT) == [
        (1, 2, None, None, None), (3, 4, "x", "function", None)]  # fmt: skip
    chunks = engine.chunk_file_content(PATH, TEXT)
    spans = chunkers.as_chunker(lambda p, t: engine.chunk_file_content(p, t), label="engine")(PATH, TEXT)
    assert [(s.start_line, s.end_line) for s in spans] == [(c.start_line, c.end_line) for c in chunks]


def test_an_object_with_a_label_keeps_it() -> None:
    class Halves:
        label = "halves"

        def __call__(self, path: str, text: str) -> list[tuple[int, int]]:
            count = text.count("\n")
            return [(1, count // 2), (count // 2 + 1, count)]

    result = chunkers.chunk_with(Halves(), {PATH: TEXT})
    assert result.label == "halves" and len(result.spans[PATH]) == 2
    assert chunkers.chunk_with(Halves(), {PATH: TEXT}, label="two").label == "two"


def test_lines_outside_the_file_are_an_error_naming_the_chunker() -> None:
    with pytest.raises(ValueError, match=r"chunker 'wide' gave lines 1\.\.999"):
        chunkers.as_chunker(lambda p, t: [(1, 999)], label="wide")(PATH, TEXT)
    with pytest.raises(TypeError, match="a chunk is a Span"):
        chunkers.as_chunker(lambda p, t: [3.5], label="odd")(PATH, TEXT)
    with pytest.raises(TypeError, match="a callable"):
        chunkers.as_chunker("not callable")


def test_a_chunk_that_cannot_be_placed_is_one_warning_naming_chunker_file_and_count() -> None:
    pieces = ["import csv", "this text is in no file", "also nowhere", "def total"]
    with pytest.warns(chunkers.UnplacedChunkWarning) as caught:
        spans = chunkers.as_chunker(lambda p, t: pieces, label="lossy")(PATH, TEXT)
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "'lossy'" in message and repr(PATH) in message and "2 of its 4 chunks" in message
    assert len(spans) == 2  # the two found, in order


def test_placed_chunks_give_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chunkers.as_chunker(paragraphs)(PATH, TEXT)


def test_none_is_a_file_not_handled() -> None:
    result = chunkers.chunk_with(lambda p, t: None if p.endswith(".md") else [(1, 1)], FILES, label="no docs")
    assert result.unhandled == ("README.md",)
    assert set(result.spans) == {"src/inventory.ts", "stock/items.py"}


def test_an_adapter_relabelled_keeps_its_texts_and_parameters() -> None:
    adapter = chunkers.clanka(chunk_size=5)
    renamed = chunkers.as_chunker(adapter, label="clanka at 5")
    assert chunkers.as_chunker(adapter) is adapter
    assert renamed.label == "clanka at 5" and renamed.parameters == adapter.parameters
    assert renamed(PATH, TEXT) == adapter(PATH, TEXT)
