"""Chunkers side by side: this engine, its line windows alone, the field's code chunkers and any callable, each
an adapter `(path, text) -> spans` of the file's lines, sized from one `Budget` and run on the same files.

The peers (astchunk, chonkie, LangChain, LlamaIndex, semantic-text-splitter) come with the `chunkers` extra
(`pip install 'clanka-nb[chunkers]'`); an adapter whose peer is missing raises `clanka_nb.extras.MissingExtraError`
naming it.
This package stands on the engine alone.
"""

from ._adapter import Adapter, Chunker, as_chunker
from ._astchunk import astchunk
from ._budget import UNITS, Budget, non_whitespace
from ._chonkie import chonkie
from ._engine import clanka, line_windows
from ._guard import FILE_SECONDS, TOTAL_SECONDS, ChunkerAnswerError, InputLimits
from ._langchain import langchain
from ._llama_index import llama_index
from ._named import NAMED, named_chunkers
from ._peers import PEERS, peer_parameters
from ._run import ChunkedWith, ChunkerFallbackWarning, chunk_with, chunk_with_each, read_source
from ._spans import Span, UnplacedChunkWarning, place_texts
from ._text_splitter import semantic_text_splitter

__all__ = [
    "FILE_SECONDS",
    "NAMED",
    "PEERS",
    "TOTAL_SECONDS",
    "UNITS",
    "Adapter",
    "Budget",
    "ChunkedWith",
    "Chunker",
    "ChunkerAnswerError",
    "ChunkerFallbackWarning",
    "InputLimits",
    "Span",
    "UnplacedChunkWarning",
    "as_chunker",
    "astchunk",
    "chonkie",
    "chunk_with",
    "chunk_with_each",
    "clanka",
    "langchain",
    "line_windows",
    "llama_index",
    "named_chunkers",
    "non_whitespace",
    "peer_parameters",
    "place_texts",
    "read_source",
    "semantic_text_splitter",
]
