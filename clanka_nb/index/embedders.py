"""Embedders: any callable `list[str] -> (n, d) array` works; these build common ones."""

from __future__ import annotations

import email.utils
import hashlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = [
    "Model2VecEmbedder", "OpenAIEmbedder", "SentenceTransformersEmbedder", "hashed_words", "model2vec", "openai",
    "sentence_transformers",
]

_RETRIED = {408, 409, 425, 429, 500, 502, 503, 504}
_WORD = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])|\d+")


class HashedWords:
    """A deterministic STAND-IN embedder, not a language model: a hashed bag of identifier words.

    Each text's words (identifiers split at camelCase and underscores, lower-cased) are hashed into
    `dimensions` signed buckets and the counts L2-normalised. Texts sharing words land near each other,
    which is enough to test and demonstrate the index offline; real retrieval needs a real model.
    """

    def __init__(self, dimensions: int = 256) -> None:
        if dimensions < 1:
            msg = f"dimensions must be at least 1, got {dimensions}"
            raise ValueError(msg)
        self.dimensions = dimensions
        self.model_id = f"stand-in/hashed-words-{dimensions}"

    def _bucket(self, word: str) -> tuple[int, float]:
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dimensions, 1.0 if value >> 63 else -1.0

    def __call__(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        cache: dict[str, tuple[int, float]] = {}
        for row, text in enumerate(texts):
            for word in _WORD.findall(text):
                word = word.lower()
                bucket = cache.get(word)
                if bucket is None:
                    bucket = cache[word] = self._bucket(word)
                out[row, bucket[0]] += bucket[1]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)

    def __repr__(self) -> str:
        return f"hashed_words(dimensions={self.dimensions})  # stand-in, not a language model"


def hashed_words(dimensions: int = 256) -> HashedWords:
    """The offline stand-in embedder (hashed bag of words) used by the tests, notebook and benchmarks."""
    return HashedWords(dimensions)


class EmbeddingServerError(RuntimeError):
    """The embedding endpoint failed in a way retrying does not fix (or kept failing after the retries)."""


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value.strip() else None
        return None if parsed is None else max(0.0, parsed.timestamp() - time.time())


@dataclass
class OpenAIEmbedder:
    """An OpenAI-compatible `/embeddings` endpoint as an embedder (see `openai()`)."""

    model: str
    base_url: str
    api_key: str | None
    batch_size: int = 300
    dimensions: int | None = None
    timeout: float = 60.0
    max_retries: int = 5
    backoff: float = 0.5
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    requests: int = field(default=0, repr=False)

    @property
    def model_id(self) -> str:
        suffix = f"@{self.dimensions}" if self.dimensions else ""
        return f"openai:{self.base_url}:{self.model}{suffix}"

    def __call__(self, texts: list[str]) -> np.ndarray:
        import httpx

        with httpx.Client(timeout=self.timeout) as client:
            rows = [self._batch(client, texts[start : start + self.batch_size])
                    for start in range(0, len(texts), self.batch_size)]
        if not rows:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        widths = sorted({row.shape[1] for row in rows})
        if len(widths) > 1:
            msg = (
                f"the embedder openai({self.model!r}) returned vectors of {' and '.join(map(str, widths))} "
                f"dimensions within one call (batches of {self.batch_size}): the server behind base_url= mixes "
                "models; pin one model there, or pass dimensions="
            )
            raise EmbeddingServerError(msg)
        return np.concatenate(rows)

    def _batch(self, client: object, texts: list[str]) -> np.ndarray:
        import httpx

        body: dict[str, object] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.dimensions is not None:
            body["dimensions"] = self.dimensions
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = self.base_url.rstrip("/") + "/embeddings"
        problem = ""
        for attempt in range(self.max_retries + 1):
            wait = self.backoff * 2**attempt
            try:
                response = client.post(url, json=body, headers=headers)  # type: ignore[attr-defined]
            except httpx.TransportError as error:
                problem = f"could not reach {url} ({error})"
            else:
                self.requests += 1
                if response.status_code == 200:
                    return self._parse(response, len(texts))
                if response.status_code == 401:
                    msg = (
                        f"{url} refused the API key (401 Unauthorized); pass api_key= or set OPENAI_API_KEY "
                        "to a valid key for this server"
                    )
                    raise PermissionError(msg)
                problem = f"{url} answered {response.status_code}: {response.text[:300]}"
                if response.status_code not in _RETRIED:
                    msg = f"{problem}; check model={self.model!r}, dimensions= and base_url="
                    raise EmbeddingServerError(msg)
                wait = _retry_after(response.headers.get("Retry-After")) or wait
            if attempt < self.max_retries:
                self.sleep(min(wait, 60.0))
        msg = f"{problem} (gave up after {self.max_retries + 1} attempts); try again later or raise max_retries="
        raise EmbeddingServerError(msg)

    def _parse(self, response: object, count: int) -> np.ndarray:
        try:
            data = response.json()["data"]  # type: ignore[attr-defined]
            ordered = sorted(data, key=lambda item: item.get("index", 0))
            vectors = np.asarray([item["embedding"] for item in ordered], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as error:
            msg = f"the server's answer is not an OpenAI embeddings response ({error!r}); check base_url="
            raise EmbeddingServerError(msg) from error
        if vectors.ndim != 2 or vectors.shape[0] != count:
            got = vectors.shape[0] if vectors.ndim else 0
            msg = f"the server returned {got} vectors for {count} inputs; check base_url="
            raise EmbeddingServerError(msg)
        if self.dimensions is not None and vectors.shape[1] != self.dimensions:
            msg = (
                f"asked {self.model!r} for {self.dimensions}-dimensional vectors and got {vectors.shape[1]}; "
                "the model ignores dimensions=: drop it, or pick a model that supports it"
            )
            raise ValueError(msg)
        return vectors


def openai(
    model: str = "text-embedding-3-small",
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    batch_size: int = 300,
    dimensions: int | None = None,
    timeout: float = 60.0,
    max_retries: int = 5,
) -> OpenAIEmbedder:
    """An embedder for an OpenAI-compatible HTTP endpoint (OpenAI, Ollama, vLLM, LM Studio...), via httpx.

    `base_url` defaults to $OPENAI_BASE_URL or https://api.openai.com/v1, `api_key` to $OPENAI_API_KEY.
    Sends at most `batch_size` inputs per request; retries 429 and 5xx with exponential backoff, waiting
    as long as the server's Retry-After says when it says so.
    """
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}; clanka sends 300"
        raise ValueError(msg)
    url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
    return OpenAIEmbedder(
        model=model, base_url=url, api_key=key, batch_size=batch_size, dimensions=dimensions, timeout=timeout,
        max_retries=max_retries,
    )


class Model2VecEmbedder:
    """A model2vec static embedding model loaded from a local folder (see `model2vec()`)."""

    def __init__(self, folder: Path, model: object) -> None:
        self.folder = folder
        self.model = model
        # The folder's contents (weights, tokenizer, config), as for sentence-transformers: a changed tokenizer
        # is a new cache key, and a copy of the model elsewhere shares the cached vectors.
        self.model_id = f"model2vec:{_folder_digest(folder)[:16]}"

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.encode(list(texts), use_multiprocessing=False), dtype=np.float32)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"model2vec({str(self.folder)!r})"


def model2vec(folder: str | os.PathLike[str]) -> Model2VecEmbedder:
    """A model2vec model from a local folder (as `StaticModel.save_pretrained` writes it); never downloads.

    Needs `pip install model2vec`. Fetch a model once with the Hugging Face tools, then pass its folder.
    """
    path = Path(folder).expanduser()
    if not (path / "config.json").is_file():
        msg = (
            f"{str(folder)!r} is not a local model2vec folder (no config.json); clanka-nb never downloads models: "
            "save one with StaticModel.save_pretrained(folder) or fetch it once, then pass that folder"
        )
        raise FileNotFoundError(msg)
    try:
        from model2vec import StaticModel
    except ImportError as error:
        msg = "cn.embedders.model2vec needs the model2vec package: pip install model2vec"
        raise ImportError(msg) from error
    return Model2VecEmbedder(path.resolve(), StaticModel.from_pretrained(path, force_download=False))


def _folder_digest(folder: Path) -> str:
    """SHA-256 over every file's relative path and bytes: the model's identity.

    Weights, tokenizer, pooling and normalisation all change the vectors, so all of them are in it; reading
    the bytes (not sizes and times) keeps the id across copies and catches a model replaced in place. Hidden
    entries (a hub download's .cache) and Markdown (the model card) do not change a vector, so are left out.
    """
    files = sorted(
        p for p in folder.rglob("*")
        if p.is_file() and p.suffix.lower() != ".md"
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    # Reading a large model takes seconds: within a process, unchanged files (same stat) are not read twice.
    stamp = tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns, f.stat().st_ino) for f in files)
    known = _DIGESTS.get(stamp)
    if known is not None:
        return known
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(folder).as_posix().encode() + b"\0")
        with file.open("rb") as handle:
            digest.update(hashlib.file_digest(handle, "sha256").digest())
    _DIGESTS[stamp] = digest.hexdigest()
    return _DIGESTS[stamp]


_DIGESTS: dict[tuple[tuple[str, int, int, int], ...], str] = {}


class SentenceTransformersEmbedder:
    """A sentence-transformers model loaded from a local folder (see `sentence_transformers()`)."""

    def __init__(self, folder: Path, model: object, batch_size: int) -> None:
        self.folder = folder
        self.model = model
        self.batch_size = batch_size
        # The files alone, not the folder's name or place: a copy of the model shares its cached vectors.
        self.model_id = f"sentence-transformers:{_folder_digest(folder)[:16]}"

    @property
    def dimensions(self) -> int:
        """The vector length the model gives."""
        method = getattr(self.model, "get_embedding_dimension", None)
        if method is None:  # sentence-transformers 5's name
            method = self.model.get_sentence_embedding_dimension  # type: ignore[attr-defined]
        found = method()
        return int(found) if found is not None else self(["."]).shape[1]

    def __call__(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        vectors = self.model.encode(  # type: ignore[attr-defined]
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def __repr__(self) -> str:
        return f"sentence_transformers({str(self.folder)!r}, batch_size={self.batch_size})"


def sentence_transformers(
    name_or_path: str | os.PathLike[str], *, batch_size: int = 32, device: str | None = None,
) -> SentenceTransformersEmbedder:
    """A sentence-transformers model from a local folder (as `SentenceTransformer.save` writes it); never downloads.

    Needs `pip install "clanka-nb[sentence-transformers]"` and a torch build of your choice. Fetch a model
    once (`SentenceTransformer(name).save(folder)` online, or the Hugging Face tools), then pass its folder.
    `batch_size` is how many texts go through the model at once; `device` is torch's (default: its choice).
    """
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}"
        raise ValueError(msg)
    path = Path(name_or_path).expanduser()
    if not ((path / "modules.json").is_file() or (path / "config.json").is_file()):
        msg = (
            f"{str(name_or_path)!r} is not a local sentence-transformers folder (no modules.json or config.json); "
            "clanka-nb never downloads models: save one with SentenceTransformer(name).save(folder) or fetch it "
            "once, then pass that folder"
        )
        raise FileNotFoundError(msg)
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        msg = (
            "cn.embedders.sentence_transformers needs the sentence-transformers package: "
            'pip install "clanka-nb[sentence-transformers]" (or pip install sentence-transformers)'
        )
        raise ImportError(msg) from error
    path = path.resolve()
    try:
        model = SentenceTransformer(str(path), device=device, local_files_only=True)
    except (OSError, ValueError) as error:
        msg = f"could not load a sentence-transformers model from {str(path)!r} ({error}); check the folder's files"
        raise ValueError(msg) from error
    if len(model) == 0:
        msg = f"{str(path)!r} holds no modules (modules.json lists none); pass a saved sentence-transformers folder"
        raise ValueError(msg)
    return SentenceTransformersEmbedder(path, model, batch_size)
