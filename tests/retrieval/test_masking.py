"""Masking: doc comments never reach the index, line numbers stay, and BM25's fast path indexes the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.scoring._probe import prepare_probe, probe, probe_frame
from clanka_nb.retrieval.search._index import LineTokens
from clanka_nb.retrieval.search._search import BM25Searcher
from clanka_nb.retrieval.search._search_words import code_tokens

from .conftest import ScriptedSearcher

SOURCE = """/**
 * Computes the squared length of a vector.
 */
export function lengthSq(v) {
  return v.x * v.x + v.y * v.y
}

/** Normalises the vector in place, keeping its direction. */ export function normalise(v) {
  return scale(v, 1 / Math.sqrt(lengthSq(v)))
}

// Helper.
export function scale(v, s) {
  return { x: v.x * s, y: v.y * s }
}
"""
COMMENT_WORDS = {"Computes", "squared", "Normalises", "place", "direction", "Helper"}
SAMPLE = Path(__file__).parents[2] / "clanka_nb" / "sample"


def _indexed(codebase: engine.Codebase, mask: bool = True, **options) -> list[str]:
    searcher = ScriptedSearcher()
    probe(codebase, Probe(searcher=searcher, mask=mask), **options)
    return searcher.texts


@pytest.mark.parametrize("chunk_size", [2, 30])
def test_no_doc_comment_text_is_indexed_but_all_code_is(chunk_size):
    codebase = engine.Codebase.from_texts({"vec.js": SOURCE})
    texts = _indexed(codebase, chunk_size=chunk_size)
    words = {word for text in texts for word in re.findall(r"\w+", text)}
    assert not words & COMMENT_WORDS  # also "Helper.", too short to be a query, is masked
    queries = probe(codebase, Probe(searcher=ScriptedSearcher()))["query"]
    assert not any(query in text for query in queries for text in texts)
    # Every meaningful line of code is still there, under its own line number, even the code after
    # a one-line `/** … */` (chunks hold meaningful lines; a lone `}` may be left out at size 2).
    joined = "\n".join(texts)
    for number, line in enumerate(SOURCE.splitlines(), 1):
        comment = line.lstrip().startswith(("*", "//", "/*"))
        code = line.split("*/")[-1] if "*/" in line else ("" if comment else line)
        if engine.is_meaningful_line(code):
            assert re.search(rf"^{number}: \s*{re.escape(code.strip())}$", joined, re.MULTILINE)


def test_without_masking_the_comments_are_indexed():
    texts = _indexed(engine.Codebase.from_texts({"vec.js": SOURCE}), mask=False)
    words = {word for text in texts for word in re.findall(r"\w+", text)}
    assert words >= COMMENT_WORDS


def test_masked_lines_keep_their_numbers():
    texts = _indexed(engine.Codebase.from_texts({"vec.js": SOURCE}), chunk_size=30)
    first = next(text for text in texts if "name: lengthSq" in text)
    numbered = first.split("---\n\n", 1)[1].split("\n")
    assert numbered[:4] == ["1: ", "2: ", "3: ", "4: export function lengthSq(v) {"]


@pytest.mark.parametrize("languages", ["clanka", "extended"])
def test_bm25_token_cache_equals_tokenizing_the_indexed_texts(languages):
    prepared = prepare_probe(SAMPLE, languages=languages)
    tokens = LineTokens(prepared.masked)
    for size, overlap in [(7, 0), (30, 5)]:
        chunks = prepared.chunks(engine.ChunkSettings.build(size, overlap))
        ids = tokens.documents(chunks)  # adds the tokens of new metadata headers to the vocabulary
        names = {index: token for token, index in tokens.vocab.items()}
        documents = [[names[i] for i in document] for document in ids]
        assert documents == [code_tokens(text) for text in prepared.masked.texts(chunks)]


def test_bm25_fast_path_ranks_as_indexing_the_texts_does():
    prepared = prepare_probe(SAMPLE)
    settings = engine.ChunkSettings.build(20, 2)
    fast = probe_frame(prepared, settings, Probe(searcher=BM25Searcher()))
    slow = probe_frame(prepared, settings, Probe(searcher=BM25Searcher(lambda text: code_tokens(text))))
    assert fast["rank"].isna().sum() < len(fast)  # the sample's doc comments find something
    assert fast["rank"].astype(object).tolist() == slow["rank"].astype(object).tolist()
    assert fast["precision"].tolist() == pytest.approx(slow["precision"].tolist())
