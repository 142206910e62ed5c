"""The field's code chunkers as adapters, each sized from one `Budget` and mapped back to the file's lines.

Every peer is set up so that nothing downloads at run time: characters, not a tokenizer from a hub; grammars
bundled in wheels (tree-sitter-language-pack below 1.0, astchunk's grammar packages); a fixed language per
file, never a language detector. A file whose language a peer has no grammar for gives None (not handled).
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable
from typing import Any

from ..engine import language_of
from ..extras import require
from ._adapter import Adapter, Result
from ._budget import Budget, as_budget
from ._guard import InputLimits
from ._spans import place_texts, spans_at_lines, spans_at_offsets, warn_unplaced

EXTRA = "chunkers"

# The engine's language names (engine.language_of) -> astchunk's: it parses Python, Java, C# and TypeScript, the
# last with the TSX grammar, which reads JavaScript (and JSX) too.
_ASTCHUNK_LANGUAGES = {"python": "python", "java": "java", "csharp": "csharp", "typescript": "typescript",
                       "tsx": "typescript", "javascript": "typescript"}  # fmt: skip
# The engine's language names -> LangChain's `Language` values where they differ (the rest are the same word).
_LANGCHAIN_NAMES = {"javascript": "js", "typescript": "ts", "tsx": "ts"}


@functools.cache
def _pack_has(language: str) -> bool:
    from tree_sitter_language_pack import get_language

    try:
        get_language(language)  # type: ignore[arg-type]
    except LookupError:
        return False
    return True


def pack_language(path: str) -> str | None:
    """The tree-sitter-language-pack grammar a file of this name is split with (None: the pack has none)."""
    language = language_of(path)
    return language if _pack_has(language) else None


def _per_language(make: Callable[[str], Any]) -> Callable[[str], Any]:
    """`make(language)` built once per language (a splitter holds its parser; building one is the slow part)."""
    return functools.cache(make)


def _version(distribution: str) -> str:
    return importlib.metadata.version(distribution)


# Each peer's own size parameters for a budget: what its factory passes, and what `peer_parameters` states.
def _astchunk_parameters(budget: Budget) -> dict[str, Any]:
    return {"max_chunk_size": budget.non_whitespace, "unit": "non-whitespace characters"}


def _chonkie_parameters(budget: Budget) -> dict[str, Any]:
    return {"chunk_size": budget.characters, "tokenizer": "character", "unit": "characters"}


def _langchain_parameters(budget: Budget) -> dict[str, Any]:
    return {"chunk_size": budget.characters, "chunk_overlap": 0, "length_function": "len", "unit": "characters"}


def _llama_index_parameters(budget: Budget) -> dict[str, Any]:
    return {"max_chars": budget.characters, "count_mode": "char", "unit": "characters"}


def _semantic_text_splitter_parameters(budget: Budget) -> dict[str, Any]:
    return {"capacity": budget.characters, "unit": "characters"}


def _peer(label: str, run: Callable[[str, str], list[Any] | None], spans: Callable[[str, str, list[Any]], Result],
          text_of: Callable[[Any], str], parameters: dict[str, Any]) -> Adapter:
    """An adapter from a peer's own run on one file (its chunk objects, None when it does not handle the file),
    how those become spans of the file, and how each gives its text."""

    def split(path: str, text: str) -> Result:
        found = run(path, text)
        return None if found is None else spans(path, text, found)

    def texts(path: str, text: str) -> list[str] | None:
        found = run(path, text)
        return None if found is None else [text_of(piece) for piece in found]

    # Bounded input: a peer's time on deep nesting or one long line grows too fast for a time limit (_guard.py).
    return Adapter(label, split, parameters, texts, limits=InputLimits())


def astchunk(budget: Budget | int | None = None, *, label: str = "astchunk") -> Adapter:
    """astchunk's `ASTChunkBuilder`, the cAST paper's own implementation: syntax-tree nodes merged up to
    `max_chunk_size` non-whitespace characters. Python, Java, C#, TypeScript (and JS/TSX through its TSX grammar)."""
    require(f"chunkers.astchunk ({label!r})", EXTRA, "astchunk")
    from astchunk import ASTChunkBuilder

    parameters = _astchunk_parameters(as_budget(budget))
    builder = _per_language(lambda language: ASTChunkBuilder(
        max_chunk_size=parameters["max_chunk_size"], language=language, metadata_template="default"))  # fmt: skip

    def run(path: str, text: str) -> list[dict[str, Any]] | None:
        language = _ASTCHUNK_LANGUAGES.get(language_of(path))
        if language is None:
            return None
        return builder(language).chunkify(text) if text.strip() else []

    def spans(path: str, text: str, chunks: list[dict[str, Any]]) -> Result:
        # Its metadata names each chunk's lines, 0-based and inclusive, counted as the file's LF lines.
        lines = ((c["metadata"]["start_line_no"] + 1, c["metadata"]["end_line_no"] + 1) for c in chunks)
        return spans_at_lines(text, lines)

    return _peer(label, run, spans, lambda chunk: chunk["content"], {**parameters, "version": _version("astchunk")})


def chonkie(budget: Budget | int | None = None, *, label: str = "chonkie CodeChunker") -> Adapter:
    """chonkie's `CodeChunker` at a character budget (tokenizer "character"), one grammar per language, with its
    own character offsets."""
    require(f"chunkers.chonkie ({label!r})", EXTRA, "chonkie")
    from chonkie import CodeChunker

    parameters = _chonkie_parameters(as_budget(budget))
    # tokenizer="character" keeps it off the model hub; a fixed language keeps it off magika's detector.
    chunker = _per_language(lambda language: CodeChunker(
        tokenizer="character", chunk_size=parameters["chunk_size"], language=language))  # fmt: skip

    def run(path: str, text: str) -> list[Any] | None:
        language = pack_language(path)
        if language is None:
            return None
        return chunker(language).chunk(text) if text.strip() else []

    def spans(path: str, text: str, chunks: list[Any]) -> Result:
        return spans_at_offsets(text, ((c.start_index, c.end_index) for c in chunks))

    return _peer(label, run, spans, lambda chunk: chunk.text, {**parameters, "version": _version("chonkie")})


def langchain(budget: Budget | int | None = None, *, label: str = "LangChain from_language") -> Adapter:
    """LangChain's `RecursiveCharacterTextSplitter.from_language`: the language's separators tried in turn
    (regular expressions, no parse), chunks of at most `chunk_size` characters, no overlap, with the offsets it
    finds itself (`add_start_index`)."""
    require(f"chunkers.langchain ({label!r})", EXTRA, "langchain_text_splitters")
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    parameters = _langchain_parameters(as_budget(budget))
    known = {language.value for language in Language}
    splitter = _per_language(lambda value: RecursiveCharacterTextSplitter.from_language(
        Language(value), chunk_size=parameters["chunk_size"], chunk_overlap=0, add_start_index=True))  # fmt: skip

    def run(path: str, text: str) -> list[Any] | None:
        name = language_of(path)
        value = _LANGCHAIN_NAMES.get(name, name)
        return splitter(value).create_documents([text]) if value in known else None

    def spans(path: str, text: str, documents: list[Any]) -> Result:
        # Each chunk's offset as it found it in the text, in order; -1 where it found none.
        found = [(d.metadata["start_index"], len(d.page_content)) for d in documents]
        placed = [(start, start + length) for start, length in found if start >= 0]
        warn_unplaced(label, path, len(found) - len(placed), len(found))
        return spans_at_offsets(text, placed)

    version = _version("langchain-text-splitters")
    return _peer(label, run, spans, lambda document: document.page_content, {**parameters, "version": version})


def llama_index(budget: Budget | int | None = None, *, label: str = "LlamaIndex CodeSplitter") -> Adapter:
    """LlamaIndex's `CodeSplitter` at `max_chars` characters. It gives texts alone (stripped), so each is found in
    the file in order; a file whose parse begins with an error it refuses (ValueError): not handled."""
    require(f"chunkers.llama_index ({label!r})", EXTRA, "llama_index")
    from llama_index.core.node_parser import CodeSplitter

    parameters = _llama_index_parameters(as_budget(budget))
    # tokenizer=list: without one it builds a tiktoken tokenizer (a download); in "char" mode it is not used.
    # split_text reads max_chars only, but the line overlap must be above 0.
    splitter = _per_language(lambda language: CodeSplitter(
        language=language, chunk_lines_overlap=1, max_chars=parameters["max_chars"], tokenizer=list))  # fmt: skip

    def run(path: str, text: str) -> list[str] | None:
        language = pack_language(path)
        if language is None:
            return None
        try:
            return splitter(language).split_text(text)
        except ValueError:  # "Could not parse code with language ...": it refuses the file
            return None

    def spans(path: str, text: str, pieces: list[str]) -> Result:
        placed = place_texts(text, pieces)
        warn_unplaced(label, path, placed.unplaced, len(pieces))
        return placed.spans

    return _peer(label, run, spans, str, {**parameters, "version": _version("llama-index-core")})


def semantic_text_splitter(
    budget: Budget | int | None = None, *, label: str = "semantic-text-splitter CodeSplitter"
) -> Adapter:
    """semantic-text-splitter's `CodeSplitter` at `capacity` characters, with its own character offsets."""
    require(f"chunkers.semantic_text_splitter ({label!r})", EXTRA, "semantic_text_splitter")
    from semantic_text_splitter import CodeSplitter
    from tree_sitter_language_pack import get_binding

    parameters = _semantic_text_splitter_parameters(as_budget(budget))
    splitter = _per_language(lambda language: CodeSplitter(get_binding(language), parameters["capacity"]))

    def run(path: str, text: str) -> list[tuple[int, str]] | None:
        language = pack_language(path)
        # chunk_indices: (character offset, chunk text), its chunks trimmed of outer whitespace.
        return None if language is None else splitter(language).chunk_indices(text)

    def spans(path: str, text: str, chunks: list[tuple[int, str]]) -> Result:
        return spans_at_offsets(text, ((at, at + len(piece)) for at, piece in chunks))

    version = _version("semantic-text-splitter")
    return _peer(label, run, spans, lambda chunk: chunk[1], {**parameters, "version": version})


# Each peer's adapter factory, by the name `peer_parameters` states its sizes under.
PEERS: dict[str, Callable[..., Adapter]] = {
    "astchunk": astchunk,
    "chonkie": chonkie,
    "langchain": langchain,
    "llama_index": llama_index,
    "semantic_text_splitter": semantic_text_splitter,
}
_SIZES: dict[str, Callable[[Budget], dict[str, Any]]] = {
    "astchunk": _astchunk_parameters,
    "chonkie": _chonkie_parameters,
    "langchain": _langchain_parameters,
    "llama_index": _llama_index_parameters,
    "semantic_text_splitter": _semantic_text_splitter_parameters,
}


def peer_parameters(budget: Budget | int | None = None) -> dict[str, dict[str, Any]]:
    """For one budget, each peer's own size parameters as its adapter passes them, with the unit it counts in
    (for a table: every chunker at the same size); nothing is imported, so it works without the extra."""
    budget = as_budget(budget)
    return {name: parameters(budget) for name, parameters in _SIZES.items()}
