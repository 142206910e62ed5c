"""What the probe indexes for one setting: each chunk as clanka embeds it, doc comments masked out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import engine
from ...engine.embedding import embedding_text, numbered_lines
from ...engine.internals import ChunkHead
from ...frames.lines import LineIndex
from ..queries import Masks
from ._search_words import code_tokens


class Chunks:
    """One setting's chunks: the engine's chunks, with file index and line arrays for scoring."""

    def __init__(self, index: LineIndex, per_file: Sequence[Sequence[engine.CodeChunk | ChunkHead]]) -> None:
        self.items = [chunk for chunks in per_file for chunk in chunks]
        counts = [len(chunks) for chunks in per_file]
        self.file = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        self.start = np.fromiter((c.start_line for c in self.items), dtype=np.int64, count=len(self.items))
        self.end = np.fromiter((c.end_line for c in self.items), dtype=np.int64, count=len(self.items))
        # Global line positions (see LineIndex) of each chunk's first line.
        self.position = index.positions(self.file, self.start)
        # On a sample of the codebase: which chunks are always indexed (they hold some query's target).
        self.always: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.items)

    def subset(self, keep: np.ndarray, always: np.ndarray) -> Chunks:
        """The chunks where `keep` is True, with `always` (over all chunks) saying which were never left out."""
        out = object.__new__(Chunks)
        out.items = [chunk for chunk, kept in zip(self.items, keep.tolist(), strict=True) if kept]
        out.file, out.start, out.end, out.position = self.file[keep], self.start[keep], self.end[keep], \
            self.position[keep]
        out.always = always[keep]
        return out


# What each indexed chunk's header holds (`Probe(header=)`): the metadata its chunker gave (clanka's name, type and
# parent; a peer's none), the file's path alone for every chunker, or no header at all.
HEADERS = ("chunker", "path", "none")
Fields = tuple[str | None, str | None, str | None]


class MaskedText:
    """The codebase's lines with doc comments taken out; line numbers unchanged; and the header every chunk is
    indexed with (`HEADERS`), so that a bake-off can credit the cutting alone."""

    def __init__(self, index: LineIndex, masks: Masks, header: str = "chunker") -> None:
        self.index = index
        self.masks = masks
        self.header = header
        self._files: dict[str, list[str]] = {}

    def fields(self, chunk: engine.CodeChunk | ChunkHead) -> Fields | None:
        """The name, type and parent a chunk's header shows (None: no header)."""
        if self.header == "none":
            return None
        return (None, None, None) if self.header == "path" else (chunk.name, chunk.type, chunk.parent)

    def text(self, path: str, start_line: int, fields: Fields | None, content: str) -> str:
        """One chunk's indexed text: its header (unless none) and its numbered lines."""
        return numbered_lines(start_line, content) if fields is None else \
            embedding_text(path, start_line, *fields, content)  # fmt: skip

    def lines(self, path: str, text: engine.PreparedText) -> list[str]:
        mask = self.masks.get(path)
        if not mask:
            return text.lines
        if path not in self._files:
            lines = list(text.lines)
            for number, rest in mask.items():
                lines[number - 1] = rest
            self._files[path] = lines
        return self._files[path]

    def texts(self, chunks: Chunks) -> list[str]:
        """What clanka embeds for each chunk (metadata header, numbered lines), with the masked lines."""
        out = []
        for chunk, file in zip(chunks.items, chunks.file.tolist(), strict=True):
            text = self.index.texts[file]
            assert text is not None  # only readable files have chunks
            content = "\n".join(self.lines(chunk.path, text)[chunk.start_line - 1 : chunk.end_line])
            out.append(self.text(chunk.path, chunk.start_line, self.fields(chunk), content))
        return out


class LineTokens:
    """`code_tokens` of every (masked) line of the codebase as ids, computed once for all settings.

    `code_tokens` never joins words across lines and drops numbers, so a chunk's tokens are its
    header's tokens followed by its lines' tokens: the same as tokenizing the whole embedded text.
    """

    def __init__(self, masked: MaskedText) -> None:
        self.masked = masked
        self.vocab: dict[str, int] = {}
        ids: list[int] = []
        ends = [0]
        for path, text in zip(masked.index.paths, masked.index.texts, strict=True):
            if text is None:
                continue
            for line in masked.lines(path, text):
                ids.extend(self._ids(line))
                ends.append(len(ids))
        self.flat = np.asarray(ids, dtype=np.int64)
        self.ends = np.asarray(ends, dtype=np.int64)
        self._headers: dict[tuple[Any, ...], list[int]] = {}

    def _ids(self, text: str) -> list[int]:
        vocab = self.vocab
        return [vocab.setdefault(token, len(vocab)) for token in code_tokens(text)]

    def documents(self, chunks: Chunks) -> list[list[int]]:
        """Each chunk's token ids: its metadata header's, then its lines'."""
        starts = self.ends[chunks.position]
        stops = self.ends[chunks.position + (chunks.end - chunks.start) + 1]
        flat, headers = self.flat, self._headers
        documents = []
        for chunk, first, last in zip(chunks.items, starts.tolist(), stops.tolist(), strict=True):
            fields = self.masked.fields(chunk)
            key = (chunk.path, fields)
            header = headers.get(key)
            if header is None:
                header = [] if fields is None else self._ids(embedding_text(chunk.path, 1, *fields, ""))
                headers[key] = header
            documents.append(header + flat[first:last].tolist())
        return documents
