"""What each indexed chunk costs a query that retrieves it: the tokens of its embedding input, and its lines."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...engine.embedding import embedding_text
from ...engine.token_counts import ESTIMATE, TokenCounter, estimated_tokens, remembering
from ..search import Chunks, MaskedText


class ChunkCosts:
    """Tokens and lines of each chunk as the index sees it (metadata header, numbered masked lines).

    With a token counter, the chunks' embedding inputs are counted (each distinct input once for the life of
    this object: most are the same at many settings). Without one, the chars/4 estimate of the same input, from
    prefix sums over the numbered lines' lengths: no text is built, so the BM25 probe stays as fast.
    """

    def __init__(self, masked: MaskedText, counter: TokenCounter | None) -> None:
        self.masked = masked
        self.counter = None if counter is None or counter.estimated else remembering(counter)
        self.name = ESTIMATE.name if counter is None or counter.estimated else counter.name
        self._ends: np.ndarray | None = None  # prefix sums of each numbered line's characters, its LF included
        self._headers: dict[tuple[Any, ...], int] = {}

    def _line_ends(self) -> np.ndarray:
        if self._ends is None:
            lengths: list[int] = []
            index = self.masked.index
            for path, text in zip(index.paths, index.texts, strict=True):
                if text is None:
                    continue
                # "<number>: <line>\n": the line's number, a colon and a space, the line, its LF.
                lengths.extend(len(str(number)) + len(line) + 3
                               for number, line in enumerate(self.masked.lines(path, text), start=1))  # fmt: skip
            self._ends = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
        return self._ends

    def _header(self, path: str, fields: tuple[str | None, str | None, str | None] | None) -> int:
        key = (path, fields)
        length = self._headers.get(key)
        if length is None:
            # The header, its closing "---" and blank line, less the "1: " an empty first line adds (none: 0).
            length = 0 if fields is None else len(embedding_text(path, 1, *fields, "")) - len("1: ")
            self._headers[key] = length
        return length

    def tokens(self, chunks: Chunks) -> np.ndarray:
        """Each chunk's tokens (float: the estimate is not rounded)."""
        if not len(chunks):
            return np.zeros(0)
        if self.counter is not None:
            return np.asarray(self.counter.count_many(self.masked.texts(chunks)), dtype=np.float64)
        ends = self._line_ends()
        last = chunks.position + (chunks.end - chunks.start)
        headers = np.fromiter((self._header(c.path, self.masked.fields(c)) for c in chunks.items),
                              dtype=np.int64, count=len(chunks))  # fmt: skip
        # The lines' numbered text, joined with LF (no LF after the last line).
        characters = headers + ends[last + 1] - ends[chunks.position] - 1
        return np.asarray(estimated_tokens(characters), dtype=np.float64)

    @staticmethod
    def lines(chunks: Chunks) -> np.ndarray:
        return (chunks.end - chunks.start + 1).astype(np.float64)


def charged(tokens: np.ndarray, chunks: Chunks, share: float | None) -> np.ndarray:
    """What each chunk costs a query on the whole codebase: its tokens, or on a sample a distractor's tokens
    1/share times (it stands for 1/share of the codebase's distractors ranked where it is)."""
    if chunks.always is None or share is None:
        return tokens
    return np.where(chunks.always, tokens, tokens / share)


def budget_depth(costs: np.ndarray, budget: int) -> int:
    """How many chunks a budget can ever take: the most of the cheapest whose costs sum to at most `budget`."""
    if not len(costs):
        return 0
    return int(np.searchsorted(np.cumsum(np.sort(costs)), budget, side="right"))
