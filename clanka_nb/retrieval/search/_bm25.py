"""BM25 as `bm25s` scores it (Lucene variant, float32) over chunks given as line ranges: lines tokenized once.

`bm25s` builds its index in Python, document by document, and the probe's chunks change with every
setting. Here the only tokens that can score, the queries', are found in the codebase's lines once;
a setting's term counts are then those of its chunks' line ranges (plus each chunk's metadata
header) and its scores a few numpy operations. Every step is the one bm25s takes, in the same
floating-point types and order, so the rankings are bm25s's (tests/probe compare them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...engine.embedding import embedding_text
from ._index import Chunks, LineTokens
from ._search_words import code_tokens


class ChunkBM25:
    """The queries and the codebase's query-token occurrences, for scoring any setting's chunks.

    `tokens` is the probe's `LineTokens` (each masked line's tokens); `k1` and `b` are BM25's.
    """

    def __init__(self, tokens: LineTokens, queries: Sequence[str], *, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self._tokens = tokens
        vocab: dict[str, int] = {}  # the query tokens only
        # Each query's tokens in order, repeats kept: bm25s adds one score per token, in this order.
        self.queries = [
            np.array([vocab.setdefault(token, len(vocab)) for token in code_tokens(query)], dtype=np.int64)
            for query in queries
        ]
        self.vocab = vocab
        lookup = np.full(len(tokens.vocab) + 1, -1, dtype=np.int64)
        for token, q in vocab.items():
            if token in tokens.vocab:
                lookup[tokens.vocab[token]] = q
        occurrence = lookup[tokens.flat]
        kept = np.flatnonzero(occurrence >= 0)
        # Every query token in the lines, in line order: its query-token id and its line's global position.
        self._token = occurrence[kept]
        self._line = np.searchsorted(tokens.ends, kept, side="right") - 1
        self._headers: dict[tuple[Any, ...], tuple[int, np.ndarray]] = {}

    def _header(self, path: str, fields: tuple[str | None, str | None, str | None] | None) -> tuple[int, np.ndarray]:
        """(token count, query-token ids) of a chunk's header (`MaskedText.fields`; None: no header), as
        `LineTokens.documents` puts it first."""
        key = (path, fields)
        found = self._headers.get(key)
        if found is None:
            words = [] if fields is None else code_tokens(embedding_text(path, 1, *fields, ""))
            ids = [self.vocab[word] for word in words if word in self.vocab]
            found = self._headers[key] = (len(words), np.array(ids, dtype=np.int64))
        return found

    def rankings(self, chunks: Chunks, depth: int) -> np.ndarray:
        """Ids of the top `depth` chunks for every query (-1 where fewer match), as `BM25Searcher` ranks them."""
        count, queries = len(chunks), self.queries
        ids = np.full((len(queries), depth), -1, dtype=np.int64)
        if not count or not queries:
            return ids
        postings = self._postings(chunks)
        for row, tokens in enumerate(queries):
            if not len(tokens):
                continue
            scores = _scores(postings, tokens, count)
            matching = np.flatnonzero(scores > 0)
            if len(matching) > depth:
                matching = np.sort(matching[np.argpartition(-scores[matching], depth - 1)[:depth]])
            top = matching[np.argsort(-scores[matching], kind="stable")]
            ids[row, : len(top)] = top
        return ids

    def scores(self, chunks: Chunks, row: int) -> np.ndarray:
        """Every chunk's score for query `row`: float32, bit for bit bm25s's `get_scores`."""
        return _scores(self._postings(chunks), self.queries[row], len(chunks))

    def _postings(self, chunks: Chunks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per query token (`starts` delimits each), the chunks holding it and its BM25 weight in each."""
        count, vocab = len(chunks), len(self.vocab)
        first = chunks.position
        last = first + (chunks.end - chunks.start)
        fields_of = self._tokens.masked.fields
        headers = [self._header(c.path, fields_of(c)) for c in chunks.items]
        header_length = np.fromiter((length for length, _ in headers), dtype=np.int64, count=count)
        lengths = header_length + self._tokens.ends[last + 1] - self._tokens.ends[first]
        # The query tokens of each chunk's lines: one run of the occurrences per chunk.
        low = np.searchsorted(self._line, first, side="left")
        runs = np.searchsorted(self._line, last, side="right") - low
        doc = np.repeat(np.arange(count, dtype=np.int64), runs)
        offsets = np.cumsum(runs) - runs
        line_tokens = self._token[np.arange(len(doc), dtype=np.int64) - np.repeat(offsets - low, runs)]
        header_ids = [ids for _, ids in headers]
        header_doc = np.repeat(np.arange(count, dtype=np.int64), [len(ids) for ids in header_ids])
        header_tokens = np.concatenate(header_ids) if header_ids else np.zeros(0, dtype=np.int64)
        pairs, tf = np.unique(
            np.concatenate([doc, header_doc]) * vocab + np.concatenate([line_tokens, header_tokens]),
            return_counts=True,
        )
        doc, token = np.divmod(pairs, vocab)
        df = np.bincount(token, minlength=vocab)
        idf = np.zeros(vocab, dtype=np.float32)
        for t in np.flatnonzero(df).tolist():  # bm25s's Lucene idf, in Python floats, stored as float32
            idf[t] = math.log(1 + (count - int(df[t]) + 0.5) / (int(df[t]) + 0.5))
        average = lengths.mean()  # as bm25s: the mean of an int array
        k1, b = self.k1, self.b
        norm = k1 * ((1 - b) + b * lengths / average)
        frequency = tf.astype(np.float64)
        weight = (idf[token] * (frequency / (norm[doc] + frequency))).astype(np.float32)
        order = np.argsort(token, kind="stable")  # by token, chunks ascending within each
        starts = np.concatenate([[0], np.cumsum(df)])
        return doc[order], weight[order], starts


def _scores(postings: tuple[np.ndarray, np.ndarray, np.ndarray], tokens: np.ndarray, count: int) -> np.ndarray:
    docs, weights, starts = postings
    scores = np.zeros(count, dtype=np.float32)
    for token in tokens.tolist():  # float32 sums in the query's token order, as bm25s adds them
        first, stop = starts[token], starts[token + 1]
        scores[docs[first:stop]] += weights[first:stop]
    return scores
