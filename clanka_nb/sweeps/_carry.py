"""What applies a sweep's chosen setting in clanka, by kind of user (read from Effectful-Tech/clanka at
`_reference.CLANKA_COMMIT`; docs/clanka.md, "Using the result in clanka").

- The index clanka builds (`SemanticSearch.layer`): `resolveChunkConfig` in src/SemanticSearch.ts fixes chunkSize 30
  and chunkOverlap 0; the layer takes `chunkMaxCharacters` alone (default 10,000; clanka's CLI passes none).
- Code that calls the chunker itself (`CodeChunker.chunkFile` / `chunkFiles` / `chunkCodebase`): every option,
  `{ chunkSize, chunkOverlap, chunkMaxCharacters }` (no `chunkMaxCharacters`: no limit).
- Anything else (another size or overlap for the index, extended mode, another chunker): clanka must be changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..defaults import CHUNK_OVERLAP, CHUNK_SETTING_NAMES, CHUNK_SIZE
from ..keywords import checked_init
from ._reference import CLANKA_MODE

WHERE = "resolveChunkConfig in src/SemanticSearch.ts"


@dataclass(frozen=True)
class Chosen:
    """The setting an answer chose, as clanka would take it.

    Attributes:
        size: Lines per chunk (None on a whole chunker's row).
        overlap: Lines shared by consecutive pieces (None on a whole chunker's row).
        limit: The character limit (None: no limit).
        languages: The language mode it was cut in.
        kept: Whether it is clanka's own setting, kept.
        chunker: A whole chunker's label (None: the engine's cut).
    """

    size: int | None
    overlap: int | None
    limit: int | None
    languages: str
    kept: bool = False
    chunker: str | None = None

    @classmethod
    def of(cls, settings: Mapping[str, Any], *, kept: bool = False) -> Chosen:
        """From a row's settings (each chunk setting by its name, None for none; `languages`; `chunker`)."""
        size, overlap, limit = (None if settings.get(name) is None else int(settings[name])
                                for name in CHUNK_SETTING_NAMES)  # fmt: skip
        return cls(size, overlap, limit, str(settings.get("languages", CLANKA_MODE)), kept, settings.get("chunker"))

    def words(self) -> str:
        """How the answer names it ("chunk_size=60, chunk_overlap=0, no character limit")."""
        if self.chunker is not None:
            return f"the chunker {self.chunker}"
        values = (self.size, self.overlap, self.limit)
        parts = [f"{name}={value}" if value is not None else "no character limit"
                 for name, value in zip(CHUNK_SETTING_NAMES, values, strict=True)]  # fmt: skip
        if self.languages != CLANKA_MODE:
            parts.append(f'languages="{self.languages}"')
        return ", ".join(parts)


@checked_init
@dataclass(frozen=True)
class CarryBack:
    """What applies a setting in clanka, by kind of user.

    Attributes:
        semantic_search: For the index clanka builds: the `SemanticSearch.layer` options, or None where the layer
            cannot take the setting.
        code_chunker: For code that calls `CodeChunker` itself: the options object, or None where the chunker
            cannot cut so (extended mode, another chunker).
        change_needed: What clanka must change, and where (None: nothing).
        clause: All of it in one clause of the answer's message.
    """

    semantic_search: str | None
    code_chunker: str | None
    change_needed: str | None
    clause: str


def layer_options(limit: int | None) -> str:
    """The `SemanticSearch.layer` call that indexes with this character limit (None: no limit, `Infinity`)."""
    shown = "Infinity" if limit is None else f"{limit:_}"
    return f"SemanticSearch.layer({{ directory, chunkMaxCharacters: {shown} }})"


def chunker_options(size: int, overlap: int, limit: int | None) -> str:
    """The `CodeChunker` options object of a setting (no `chunkMaxCharacters`: no limit)."""
    parts = [f"chunkSize: {size}", f"chunkOverlap: {overlap}"]
    if limit is not None:
        parts.append(f"chunkMaxCharacters: {limit:_}")
    return "{ " + ", ".join(parts) + " }"


def carry_back(chosen: Chosen) -> CarryBack:
    """What applies `chosen` in clanka: the layer's options when clanka's index can take it, the chunker's options
    when its chunker can cut so, and what must change in clanka otherwise."""
    if chosen.chunker is not None or chosen.size is None or chosen.overlap is None:
        change = f"clanka must be changed to cut with {chosen.chunker}: its index cuts with CodeChunker ({WHERE})"
        return CarryBack(None, None, change, change)
    size, overlap, limit = chosen.size, chosen.overlap, chosen.limit
    options = chunker_options(size, overlap, limit)
    if chosen.languages != CLANKA_MODE:
        change = (f"clanka must be changed: its CodeChunker parses TS/JS only, and extended mode's grammars (Go, "
                  f"Rust, Java...) have no counterpart there; the size is set in {WHERE}")
        return CarryBack(None, None, change, change)
    if (size, overlap) == (int(CHUNK_SIZE), int(CHUNK_OVERLAP)):
        layer = layer_options(limit)
        said = "its default, nothing to change" if chosen.kept and limit == 10_000 else layer
        clause = (f"{said} for the index clanka builds (clanka's CLI passes no chunkMaxCharacters); {options} "
                  "for code that calls CodeChunker")
        return CarryBack(layer, options, None, clause)
    change = (f"clanka's index always cuts 30-line chunks with no overlap ({WHERE}): change it there to chunkSize "
              f"{size}, chunkOverlap {overlap} for the index clanka builds")
    return CarryBack(None, options, change, f"{options} for code that calls CodeChunker; {change}")
