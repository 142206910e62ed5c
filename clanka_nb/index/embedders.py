"""Embedders: any callable `list[str] -> (n, d) array` works; these build common ones."""

from __future__ import annotations

import base64
import datetime
import email.utils
import hashlib
import json
import logging
import math
import os
import re
import reprlib
import threading
import time
import urllib.parse
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._exports import check_modules, ensured, exports_root

__all__ = [
    "EmbeddingServerError", "Model2VecEmbedder", "OpenAIEmbedder", "SentenceTransformersEmbedder", "hashed_words",
    "model2vec", "openai", "sentence_transformers",
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


# Batches in flight at once: clanka's SemanticSearch also runs its requests concurrently. Four keeps a local
# server (Ollama, a laptop's LM Studio, which run one or two batches at a time) from queueing requests past
# their deadline, and hides most of a hosted API's latency; raise it for a server that scales.
DEFAULT_CONCURRENCY = 4
_MAX_DIMENSIONS = 8192  # sqlite-vec's longest vector: bounds an answer when dimensions= was not given
_ERROR_BYTES = 4096  # read of an error answer's body: enough for a message, never a flood
_QUOTE = 200  # characters of a server's message shown in an error
_CREDENTIAL = re.compile(r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]+|\bsk-[A-Za-z0-9_-]{6,}")


def _endpoint(url: str) -> str:
    """scheme://host:port/path of `url`, no trailing slash: what it reaches, never a credential (the model id's part).

    Userinfo, the query (`api-key=`, `api-version=`) and the fragment are left out: they say how to reach the
    endpoint, not which vectors it gives, as the same server with another key gives the same vectors.
    """
    parts = urllib.parse.urlsplit(url)
    return _printable(f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path.rstrip('/')}")


def _public_url(url: str) -> str:
    """`url` as reprs and errors show it: no userinfo, every query value and the fragment as `***`.

    The names of query parameters stay (`?api-version=***&api-key=***`), so it still says what was passed.
    """
    parts = urllib.parse.urlsplit(url)
    shown = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}"
    if parts.query:
        pieces = (piece.partition("=") for piece in parts.query.split("&"))
        shown += "?" + "&".join(f"{name}=***" if equals else "***" for name, equals, _ in pieces)
    if parts.fragment:
        shown += "#***"
    return _printable(shown)


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _quoted(text: str, secrets: tuple[str | None, ...]) -> str:
    """A server's words made safe to show: credentials redacted, control characters escaped, length capped."""
    for secret in secrets:
        if secret and len(secret) >= 4:  # shorter ones would blank out ordinary letters
            text = text.replace(secret, "***")
    text = _CREDENTIAL.sub(lambda m: f"{m.group(1)}{m.group(2)}***" if m.group(1) else "sk-***", text)
    return _printable(text[:_QUOTE]) + ("..." if len(text) > _QUOTE else "")


def _retry_after(value: str | None) -> float | None:
    """Seconds a Retry-After header asks for (a number or an HTTP date); None when it says nothing usable."""
    if value is None or not value.strip():
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None  # "soon", a typo, a date from another calendar: the default backoff applies
        if when.tzinfo is None:  # HTTP dates are GMT; "-0000" parses as naive
            when = when.replace(tzinfo=datetime.UTC)
        seconds = when.timestamp() - time.time()
    return None if math.isnan(seconds) else max(0.0, seconds)


class _Cancelled(Exception):
    """A batch not sent (or not retried) because another batch of the same call already failed."""


class _Wrong(Exception):
    """What is wrong with an answer the server called a success."""


def _answer_vectors(body: bytes, count: int, most: int) -> np.ndarray:
    """The (count, d) float32 vectors of an OpenAI embeddings answer, in input order, or _Wrong saying why not."""
    # Bounded before parsing: every Python object json builds sits inside a container or after a comma, so
    # these counts bound the memory of the parse whatever the body holds.
    if body.count(b"{") + body.count(b"[") > 8 * count + 256 or body.count(b",") > count * (most + 16) + 256:
        msg = (f"not an OpenAI embeddings response: more JSON than {count} vectors of at most {most} numbers "
               "(pass dimensions= if the model gives longer vectors)")
        raise _Wrong(msg)
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError) as error:
        msg = f"not an OpenAI embeddings response: not JSON ({reprlib.repr(str(error))})"
        raise _Wrong(msg) from None
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        msg = "not an OpenAI embeddings response: no `data` list of objects"
        raise _Wrong(msg)
    if len(data) != count:
        msg = f"{len(data)} embeddings for {count} inputs"
        raise _Wrong(msg)
    indexed = sum("index" in item for item in data)
    if indexed not in (0, count):
        msg = f"`index` on only some items ({indexed} of {count}), so the vectors cannot be matched to the inputs"
        raise _Wrong(msg)
    if indexed:  # the API may answer out of order: `index` says which input each vector is for
        position_of: dict[int, int] = {}
        for position, item in enumerate(data):
            index = item["index"]
            if type(index) is not int:
                msg = f"index {reprlib.repr(index)} (item {position}) is not an integer"
                raise _Wrong(msg)
            if not 0 <= index < count:
                msg = (f"index {reprlib.repr(index)} (item {position}) is out of range for {count} inputs "
                       f"(0 to {count - 1})")
                raise _Wrong(msg)
            if index in position_of:
                msg = f"index {index} (items {position_of[index]} and {position}) appears more than once"
                raise _Wrong(msg)
            position_of[index] = position
        data = [data[position_of[index]] for index in range(count)]  # n distinct indices in 0..n-1: all there
    rows = [item.get("embedding") for item in data]
    for position, row in enumerate(rows):
        if not isinstance(row, list):
            msg = f"the embedding of input {position} is not a list of numbers ({type(row).__name__})"
            raise _Wrong(msg)
    lengths = sorted({len(row) for row in rows})
    if len(lengths) > 1 or lengths == [0]:
        msg = f"vectors of different lengths ({lengths[0]} to {lengths[-1]} numbers)" if len(lengths) > 1 \
            else "empty vectors"
        raise _Wrong(msg)
    array = np.array(rows)
    if array.dtype.kind not in "fi" or array.ndim != 2:  # strings, booleans, nulls, huge integers, nested lists
        msg = "an embedding that is not a list of numbers"
        raise _Wrong(msg)
    with np.errstate(over="ignore"):
        vectors = array.astype(np.float32)
    bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
    if bad.size:
        msg = (f"numbers that are not finite (NaN, infinite, or beyond float32's range) in {bad.size} vectors "
               f"(first: input {int(bad[0])})")
        raise _Wrong(msg)
    return vectors


@dataclass(repr=False)
class OpenAIEmbedder:
    """An OpenAI-compatible `/embeddings` endpoint as an embedder (see `openai()`).

    The key never appears in its repr, its `model_id` or an error; neither does a password in `base_url`, nor
    the values of its query (`?api-key=...`) or its fragment.
    """

    model: str
    base_url: str
    api_key: str | None = field(repr=False)
    batch_size: int = 300
    dimensions: int | None = None
    timeout: float | None = 60.0
    max_retries: int = 5
    backoff: float = 0.5
    max_wait: float = 60.0
    requests: int = field(default=0, repr=False)
    concurrency: int = DEFAULT_CONCURRENCY
    _count_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    # The width of the first answer, kept: later calls send all their batches at once (a sweep calls many times).
    _width: int | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.timeout is not None and math.isinf(self.timeout) and self.timeout > 0:
            self.timeout = None  # no deadline, as None says (a socket takes no infinite timeout)
        if self.timeout is not None and (isinstance(self.timeout, bool) or not self.timeout > 0):
            msg = f"timeout must be a number of seconds above 0 (or None for no deadline), got {self.timeout!r}"
            raise ValueError(msg)
        if isinstance(self.concurrency, bool) or not isinstance(self.concurrency, int) or self.concurrency < 1:
            msg = (f"concurrency must be a whole number of requests in flight at once (1 or more), got "
                   f"{self.concurrency!r}; {DEFAULT_CONCURRENCY} is the default, 1 sends one batch at a time")
            raise ValueError(msg)
        # Spaces around it (pasted from a .env file) or no http(s):// would keep `user:password@` from being
        # recognised, and so from being stripped from the repr, the model id and errors: the URL is not shown.
        self.base_url = self.base_url.strip()
        if not re.match(r"(?i)https?://", self.base_url):
            msg = "base_url must start with http:// or https://, e.g. http://localhost:11434/v1 (it is not shown here)"
            raise ValueError(msg)
        try:
            urllib.parse.urlsplit(self.base_url)
        except ValueError as error:  # "Invalid IPv6 URL": a bracket left open
            msg = f"base_url is not a URL ({error}); pass one like http://host:port/v1 (it is not shown here)"
            raise ValueError(msg) from None

    @property
    def model_id(self) -> str:
        suffix = f"@{self.dimensions}" if self.dimensions else ""
        return f"openai:{_endpoint(self.base_url)}:{self.model}{suffix}"

    def __repr__(self) -> str:
        return (
            f"openai({self.model!r}, base_url={_public_url(self.base_url)!r}, "
            f"api_key={'***' if self.api_key else None}, batch_size={self.batch_size}, dimensions={self.dimensions}, "
            f"timeout={self.timeout}, max_retries={self.max_retries}, concurrency={self.concurrency})"
        )

    def __call__(self, texts: list[str]) -> np.ndarray:
        import httpx

        from . import _http

        # /embeddings goes on the path; the query (Azure's api-version and api-key) is sent as it was written, and
        # the fragment, never sent by HTTP, is dropped.
        parts = urllib.parse.urlsplit(self.base_url)
        target = urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/embeddings", fragment=""))
        try:
            url = httpx.URL(target)
        except httpx.InvalidURL as error:
            msg = f"base_url {_public_url(self.base_url)!r} is not a URL ({error}); pass one like http://host:port/v1"
            raise ValueError(msg) from None
        # userinfo goes as HTTP Basic auth (as httpx does with it); the URL sent and shown carries none.
        auth = (url.username, url.password) if url.username or url.password else None
        url = url.copy_with(username=None, password=None)
        batches = [texts[start : start + self.batch_size] for start in range(0, len(texts), self.batch_size)]
        if not batches:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        rows: list[np.ndarray] = []
        width = self.dimensions or self._width  # else the first answer's: every later batch must match it
        if width is None:
            # The embedder's first batch goes alone: its answer fixes the width, and so the size cap of every
            # later answer (read at most `concurrency` at a time), as it did when batches went one by one. The
            # width is kept, so only the first call of an embedder waits for one batch before the others.
            with _http.Session(url, self.timeout) as session:
                rows.append(self._batch(session, url, auth, batches[0], None, threading.Event()))
            width, batches = rows[0].shape[1], batches[1:]
            self._width = width
        rows += self._concurrently(url, auth, batches, width)
        return np.concatenate(rows)

    def _concurrently(self, url: object, auth: tuple[str, str] | None, batches: list[list[str]],
                      width: int) -> list[np.ndarray]:
        """The vectors of `batches`, in their order, at most `concurrency` requests in flight at once.

        Each worker thread has its own session: a session's deadline belongs to the one request it is sending.
        The first failure (in batch order) is raised once the batches in flight end (each within its deadline);
        batches not yet sent are cancelled.
        """
        from . import _http

        if not batches:
            return []
        local = threading.local()
        sessions: list[_http.Session] = []
        guard = threading.Lock()
        # Set on the first failure, and on an interrupt (Ctrl-C) in the caller's thread: batches not yet sent are
        # not sent, and those in their retries give up at once (their waits wake on it).
        stop = threading.Event()

        def send(batch: list[str]) -> np.ndarray:
            if stop.is_set():
                raise _Cancelled
            session = getattr(local, "session", None)
            if session is None:
                session = local.session = _http.Session(url, self.timeout)  # type: ignore[arg-type]
                with guard:
                    sessions.append(session)
                if stop.is_set():  # stopped while this session was made: the abort below did not see it
                    raise _Cancelled
            try:
                return self._batch(session, url, auth, batch, width, stop)
            except BaseException:
                stop.set()
                raise

        workers = min(self.concurrency, len(batches))
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="clanka-nb-embed")
        try:
            futures: list[Future[np.ndarray]] = [pool.submit(send, batch) for batch in batches]
            for future in futures:  # the first real failure, not a batch that gave up because of it
                error = future.exception()
                if error is not None and not isinstance(error, _Cancelled):
                    raise error
            return [future.result() for future in futures]
        except BaseException:
            # A failure or an interrupt: nothing more is sent, and the requests in flight are cut off now rather
            # than run to their deadlines and retries (every answer not yet read is thrown away; nothing was
            # written: the caller stores a call's vectors only once it returns).
            stop.set()
            with guard:
                for session in sessions:
                    session.abort()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            for session in sessions:
                session.close()

    def _secrets(self) -> tuple[str | None, ...]:
        """What must not be shown even when a server echoes it: the key, base_url's password in its forms, and
        the values of its query and its fragment (as written and decoded)."""
        parts = urllib.parse.urlsplit(self.base_url)
        found: list[str | None] = [self.api_key]
        userinfo, at, _ = parts.netloc.rpartition("@")
        if at:
            password = userinfo.partition(":")[2]
            basic = base64.b64encode(urllib.parse.unquote(userinfo).encode()).decode()
            found += [password, urllib.parse.unquote(password), basic]
        pieces = parts.query.split("&") if parts.query else []
        for value in [piece.partition("=")[2] if "=" in piece else piece for piece in pieces] + [parts.fragment]:
            found += [value, urllib.parse.unquote_plus(value)]
        # Longest first, so a secret is never left half shown because a shorter one inside it was replaced first.
        return tuple(sorted({secret for secret in found if secret}, key=len, reverse=True))

    def _batch(self, session: object, url: object, auth: tuple[str, str] | None, texts: list[str],
               width: int | None, stop: threading.Event) -> np.ndarray:
        import httpx

        from . import _http

        assert isinstance(session, _http.Session)
        body: dict[str, object] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.dimensions is not None:
            body["dimensions"] = self.dimensions
        headers = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        content = json.dumps(body).encode()
        shown = _public_url(str(url))
        most = width or _MAX_DIMENSIONS
        # A JSON number takes at most ~25 characters; 40 leaves room for indented, pretty-printed answers.
        cap = 64 * 1024 + len(texts) * (1024 + most * 40)
        problem = ""
        for attempt in range(self.max_retries + 1):
            wait = self.backoff * 2**attempt
            if attempt and stop.is_set():
                raise _Cancelled
            try:
                answer = session.post(url, content, headers, auth, cap, _ERROR_BYTES)  # type: ignore[arg-type]
            except httpx.TimeoutException:
                problem = f"{shown} did not answer within timeout={self.timeout} s"
            except httpx.TransportError as error:
                problem = f"could not reach {shown} ({_quoted(str(error), self._secrets())})"
            except _http.TooLarge as error:
                msg = (
                    f"{shown} sent an answer larger than {error.cap:,} bytes for {len(texts)} inputs "
                    f"(at most {most} numbers each), so it was not read further; check base_url= and dimensions="
                )
                raise EmbeddingServerError(msg) from None
            except _http.Unreadable as error:
                msg = f"{shown} answered with {error}; check base_url="
                raise EmbeddingServerError(msg) from None
            else:
                with self._count_lock:  # batches are sent from several threads at once
                    self.requests += 1
                if answer.status == 200:
                    return self._vectors(answer.body, len(texts), most, width, shown)
                if answer.status == 401:
                    msg = (
                        f"{shown} refused the API key (401 Unauthorized); pass api_key= or set OPENAI_API_KEY "
                        "to a valid key for this server"
                    )
                    raise PermissionError(msg)
                said = _quoted(answer.body.decode("utf-8", "replace"), self._secrets())
                problem = f"{shown} answered {answer.status}: {said}"
                if answer.status not in _RETRIED:
                    msg = f"{problem}; check model={self.model!r}, dimensions= and base_url="
                    raise EmbeddingServerError(msg)
                wait = _retry_after(answer.headers.get("Retry-After")) or wait
            if attempt < self.max_retries:
                stop.wait(min(wait, self.max_wait))  # wakes at once when the call is stopped
        msg = f"{problem} (gave up after {self.max_retries + 1} attempts); try again later or raise max_retries="
        raise EmbeddingServerError(msg)

    def _vectors(self, body: bytes, count: int, most: int, width: int | None, shown: str) -> np.ndarray:
        try:
            vectors = _answer_vectors(body, count, most)
        except _Wrong as wrong:
            msg = (
                f"{shown} answered {count} inputs wrongly: {wrong}; nothing from this answer is used. The server "
                "must answer OpenAI's /embeddings format: check base_url= and model="
            )
            raise EmbeddingServerError(msg) from None
        found = vectors.shape[1]
        if self.dimensions is not None and found != self.dimensions:
            msg = (
                f"asked {self.model!r} for {self.dimensions}-dimensional vectors and got {found}; "
                "the model ignores dimensions=: drop it, or pick a model that supports it"
            )
            raise ValueError(msg)
        if width is not None and found != width:
            low, high = sorted((found, width))
            msg = (
                f"the embedder openai({self.model!r}) returned vectors of {low} and {high} dimensions (batches of "
                f"{self.batch_size}, the first answer's width kept for every later call): the server behind "
                "base_url= mixes models; pin one model there, or pass dimensions="
            )
            raise EmbeddingServerError(msg)
        return vectors


def openai(
    model: str = "text-embedding-3-small",
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    batch_size: int = 300,
    dimensions: int | None = None,
    timeout: float | None = 60.0,
    max_retries: int = 5,
    max_wait: float = 60.0,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> OpenAIEmbedder:
    """An embedder for an OpenAI-compatible HTTP endpoint (OpenAI, Ollama, vLLM, LM Studio...), via httpx.

    `base_url` defaults to $OPENAI_BASE_URL or https://api.openai.com/v1, `api_key` to $OPENAI_API_KEY.
    Sends at most `batch_size` inputs per request; retries 429 and 5xx with exponential backoff, waiting
    as long as the server's Retry-After says when it says so (at most `max_wait` seconds). `timeout` is a
    deadline for each request as a whole, connection to last byte. An answer is read up to a size its batch
    can need, must hold exactly one finite vector per input (matched by `index`), and is otherwise refused
    with an EmbeddingServerError. A `user:password@` in `base_url` is sent as HTTP Basic auth and shown nowhere;
    a query (`?api-version=...&api-key=...`) is sent with every request, its values shown nowhere (`***`).
    `concurrency` batches are in flight at once (default 4; 1 sends one at a time), each with its own deadline,
    caps and retries; the vectors come back in input order whatever order the answers arrive in. Unless
    `dimensions=` is given, the embedder's first batch goes alone: its width bounds the size of every later answer
    (and is kept, so later calls send all their batches at once).
    """
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}; clanka sends 300"
        raise ValueError(msg)
    if timeout is not None and not timeout > 0:
        msg = f"timeout must be a number of seconds above 0 (or None for no deadline), got {timeout!r}"
        raise ValueError(msg)
    if not max_wait >= 0:
        msg = f"max_wait must be a number of seconds (0 or more), got {max_wait!r}"
        raise ValueError(msg)
    url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
    return OpenAIEmbedder(
        model=model, base_url=url, api_key=key, batch_size=batch_size, dimensions=dimensions, timeout=timeout,
        max_retries=max_retries, max_wait=max_wait, concurrency=concurrency,
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
        msg = "cn.embedders.model2vec needs the model2vec package: pip install 'clanka-nb[model2vec]'"
        raise ImportError(msg) from error
    from safetensors import SafetensorError  # model2vec's own dependency, there when it is

    try:
        model = StaticModel.from_pretrained(path, force_download=False)
    except (OSError, ValueError, KeyError, SafetensorError) as error:
        if (path / "config_sentence_transformers.json").is_file() or (path / "1_Pooling").is_dir():
            # A transformer's weights, not a static table: model2vec fails deep in safetensors ("no tensor embeddings").
            msg = (
                f"{str(folder)!r} is a sentence-transformers folder, not a model2vec one; pass it to "
                "cn.embedders.sentence_transformers(folder), or distil a static model from it with model2vec "
                "(model2vec.distill) and pass the folder StaticModel.save_pretrained writes"
            )
        else:
            msg = (
                f"could not load a model2vec model from {str(path)!r} ({type(error).__name__}: {error}); pass a "
                "folder that StaticModel.save_pretrained wrote (config.json, model.safetensors, tokenizer.json)"
            )
        raise ValueError(msg) from None
    return Model2VecEmbedder(path.resolve(), model)


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


BACKENDS = ("torch", "onnx", "openvino")
QUANTIZE = (None, "int8")
# The extra that brings each backend's libraries (pyproject.toml), named in the one-line error when one is missing.
_BACKEND_EXTRAS = {"torch": "sentence-transformers", "onnx": "onnx", "openvino": "openvino"}
_BACKEND_MODULES = {"torch": ("sentence_transformers", "torch"), "onnx": ("sentence_transformers", "onnxruntime",
                    "optimum.onnxruntime"), "openvino": ("sentence_transformers", "openvino", "optimum.intel")}


def available_cpus() -> int:
    """The CPUs this process may really use: its affinity, further bounded by a cgroup CPU quota (containers).

    torch and ONNX Runtime size their pools by the machine's physical cores; in a container limited to 2 CPUs
    on a 64-core host that is 32 threads fighting over 2, many times slower than 2 threads.
    """
    try:
        count = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        count = os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            count = min(count, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass  # no cgroup v2 CPU limit here: the affinity is the bound
    return max(1, count)


def _int8_config() -> str:
    """sentence-transformers' dynamic int8 configuration for this CPU: VNNI's int8 dot products where there."""
    import platform

    if platform.machine().lower() in ("arm64", "aarch64"):
        return "arm64"
    try:
        flags = next((line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")), "")
    except OSError:
        flags = ""
    words = set(flags.split())
    if "avx512_vnni" in words or "avx512vnni" in words:
        return "avx512_vnni"
    return "avx512" if "avx512f" in words else "avx2"


def _exported(source: Path, digest: str, backend: str, quantize: str | None, device: str | None) -> tuple[Path, str]:
    """The folder and file of `source` exported to `backend` (and quantized), made once and kept in the cache.

    Exports live in clanka-nb's cache folder (`$CLANKA_NB_CACHE_DIR/model-exports/<digest>-<backend>`), never in
    the model's own folder: a file added there would change the folder's digest, so the model id of every
    backend and every vector cached for it, and the folder may be read-only (a package, a shared mount). They are
    private to the user and checked before each load (`_exports.py`): one changed since it was made is made again.
    """
    from sentence_transformers import SentenceTransformer

    folder = exports_root() / f"{digest[:16]}-{backend}"
    sub, plain = ("onnx", "model.onnx") if backend == "onnx" else ("openvino", "openvino_model.xml")

    def export(into: Path) -> None:
        # export=True: optimum traces the local torch weights; nothing is downloaded (local_files_only).
        # Its advice to save the export is what this does: the logger is quieted for the export alone.
        quiet = logging.getLogger("sentence_transformers")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            model = SentenceTransformer(str(source), backend=backend, device=device, local_files_only=True,
                                        trust_remote_code=False, model_kwargs={"export": True})
        finally:
            quiet.setLevel(level)
        model.save(str(into))

    ensured(folder, f"{sub}/{plain}", export)
    if quantize is None:
        return folder, plain
    config = _int8_config()
    name = f"model_qint8_{config}.onnx"

    def quantized(into: Path) -> None:
        import tempfile

        from sentence_transformers.backend import export_dynamic_quantized_onnx_model

        model = SentenceTransformer(str(into), backend="onnx", device=device, local_files_only=True,
                                    trust_remote_code=False, model_kwargs={"file_name": plain})
        with tempfile.TemporaryDirectory(dir=into.parent, prefix=".quantize-") as temporary:
            export_dynamic_quantized_onnx_model(model, config, temporary)
            os.replace(Path(temporary) / sub / name, into / sub / name)

    ensured(folder, f"{sub}/{name}", quantized)
    return folder, name


_COUNT_SLICE = 2048  # texts tokenized at once by count_tokens


class SentenceTransformersEmbedder:
    """A sentence-transformers model loaded from a local folder (see `sentence_transformers()`).

    `max_input_tokens` is the model's input limit and `count_tokens(texts)` each text's length in the model's
    own tokens: together they say which chunks the model truncates (`truncated_share(texts)`).
    """

    def __init__(self, folder: Path, model: object, batch_size: int, backend: str = "torch",
                 quantize: str | None = None, device: str | None = None, threads: int | None = None) -> None:
        self.folder = folder
        self.model = model
        self.batch_size = batch_size
        self.backend, self.quantize, self.device, self.threads = backend, quantize, device, threads
        # The files alone, not the folder's name or place: a copy of the model shares its cached vectors.
        # Another runtime or a quantized model gives other vectors, so it has its own id (torch fp32 keeps the
        # plain one, and the vectors cached before backends existed).
        runtime = "" if backend == "torch" else f":{backend}" + (f"-{quantize}-{_int8_config()}" if quantize else "")
        self.model_id = f"sentence-transformers:{_folder_digest(folder)[:16]}{runtime}"

    @property
    def dimensions(self) -> int:
        """The vector length the model gives."""
        method = getattr(self.model, "get_embedding_dimension", None)
        if method is None:  # sentence-transformers 5's name
            method = self.model.get_sentence_embedding_dimension  # type: ignore[attr-defined]
        found = method()
        return int(found) if found is not None else self(["."]).shape[1]

    @property
    def max_input_tokens(self) -> int | None:
        """The most tokens the model reads of one input (sentence-transformers' `max_seq_length`, special tokens
        counted); the rest of a longer input is cut off before the model sees it. None when the model sets no limit.
        """
        value = getattr(self.model, "max_seq_length", None)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Each text's length in the model's own tokens, special tokens ([CLS], [SEP]) included, before truncation.

        The same count as `max_input_tokens`: a text with a count above it is truncated by the model, so
        `count > max_input_tokens` says which chunk inputs the model reads only the start of. Nothing is embedded.
        """
        tokenizer = getattr(self.model, "tokenizer", None)
        if tokenizer is None or not callable(tokenizer):
            msg = f"{self!r} has no tokenizer to count tokens with (its first module is not a Transformer)"
            raise TypeError(msg)
        counts: list[int] = []
        # In slices: a codebase's inputs at once would hold every token id of all of them in memory.
        for start in range(0, len(texts), _COUNT_SLICE):
            # verbose=False: the tokenizer would warn of every text longer than the model's limit, which is
            # what is being counted, not a mistake.
            encoded = tokenizer(list(texts[start : start + _COUNT_SLICE]), add_special_tokens=True, truncation=False,
                                padding=False, return_attention_mask=False, return_token_type_ids=False,
                                verbose=False)
            counts += [len(ids) for ids in encoded["input_ids"]]
        return counts

    def truncated_share(self, texts: list[str]) -> float | None:
        """The share of `texts` longer than `max_input_tokens` (so cut by the model); None without a limit or texts."""
        limit = self.max_input_tokens
        if limit is None or not texts:
            return None
        return sum(count > limit for count in self.count_tokens(texts)) / len(texts)

    def __call__(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # encode sorts the texts by length into batches (less padding) and returns the vectors in input order.
        vectors = self.model.encode(  # type: ignore[attr-defined]
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def __repr__(self) -> str:
        extra = "" if self.backend == "torch" else f", backend={self.backend!r}"
        extra += "" if self.quantize is None else f", quantize={self.quantize!r}"
        extra += "" if self.device is None else f", device={self.device!r}"
        return f"sentence_transformers({str(self.folder)!r}, batch_size={self.batch_size}{extra})"


def sentence_transformers(
    name_or_path: str | os.PathLike[str], *, batch_size: int = 32, device: str | None = None,
    backend: str = "torch", quantize: str | None = None, threads: int | None = None,
) -> SentenceTransformersEmbedder:
    """A sentence-transformers model from a local folder (as `SentenceTransformer.save` writes it); never downloads.

    Needs `pip install "clanka-nb[sentence-transformers]"` and a torch build of your choice. Fetch a model
    once (`SentenceTransformer(name).save(folder)` online, or the Hugging Face tools), then pass its folder.
    `batch_size` is how many texts go through the model at once (sorted by length, so a batch pads little);
    `device` is torch's ("cuda", "cuda:1", "mps"; default: its choice), for ONNX "cuda" picks ONNX Runtime's
    CUDA provider.
    `backend="onnx"` or `"openvino"` runs the model in ONNX Runtime or OpenVINO (sentence-transformers' own
    backends, through optimum; extras `onnx`, `openvino`): on a CPU 1.5-4x torch's speed at the same vectors
    (cosine >= 0.9999). `quantize="int8"` (ONNX only) quantizes its weights dynamically for this CPU's int8
    instructions (VNNI where there): faster again, but vectors move (median cosine 0.99, some 0.92): see
    docs/performance.md before tuning with it. The export is made once from the folder's own weights, offline,
    and kept in clanka-nb's cache folder (`model-exports/`), never written into the model's folder. The
    `model_id` names the backend and quantization, so the vector cache never mixes vectors of two runtimes.
    `threads` bounds ONNX Runtime's and OpenVINO's threads (default: the CPUs this process may use, affinity
    and container quota counted); torch's pool is lowered to that only when it is larger or `threads` is given.
    """
    if batch_size < 1:
        msg = f"batch_size must be at least 1, got {batch_size}"
        raise ValueError(msg)
    if backend not in BACKENDS:
        msg = f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}"
        raise ValueError(msg)
    if quantize not in QUANTIZE:
        msg = f"quantize must be None or 'int8' (dynamic int8 for ONNX Runtime), got {quantize!r}"
        raise ValueError(msg)
    if quantize is not None and backend != "onnx":
        msg = (f"quantize={quantize!r} needs backend='onnx' (dynamic int8 needs no calibration data; OpenVINO's "
               "int8 is static and would need a data set); pass backend='onnx', quantize='int8'")
        raise ValueError(msg)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        msg = f"threads must be a whole number of threads (1 or more) or None for the CPUs available, got {threads!r}"
        raise ValueError(msg)
    path = Path(name_or_path).expanduser()
    if not ((path / "modules.json").is_file() or (path / "config.json").is_file()):
        msg = (
            f"{str(name_or_path)!r} is not a local sentence-transformers folder (no modules.json or config.json); "
            "clanka-nb never downloads models: save one with SentenceTransformer(name).save(folder) or fetch it "
            "once, then pass that folder"
        )
        raise FileNotFoundError(msg)
    from ..extras import MissingExtraError, require

    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        msg = (
            "cn.embedders.sentence_transformers needs the sentence-transformers package: "
            'pip install "clanka-nb[sentence-transformers]" (or pip install sentence-transformers)'
        )
        raise ImportError(msg) from error
    try:
        require(f"cn.embedders.sentence_transformers(backend={backend!r})", _BACKEND_EXTRAS[backend],
                *_BACKEND_MODULES[backend][1:])
    except ModuleNotFoundError as error:  # optimum.onnxruntime's parent (optimum) is missing
        if isinstance(error, MissingExtraError):
            raise
        raise MissingExtraError(f"cn.embedders.sentence_transformers(backend={backend!r})", error.name or "optimum",
                                _BACKEND_EXTRAS[backend]) from None

    path = path.resolve()
    check_modules(path)  # before anything imports what the folder names: never a folder's custom code
    count = threads or available_cpus()
    if backend == "torch":
        import torch

        if threads is not None or torch.get_num_threads() > count:
            torch.set_num_threads(count)  # process-wide: torch has no per-model pool
    try:
        if backend == "torch":
            model = SentenceTransformer(str(path), device=device, local_files_only=True, trust_remote_code=False)
        else:
            folder, file_name = _exported(path, _folder_digest(path), backend, quantize, device)
            model = SentenceTransformer(str(folder), backend=backend, device=device, local_files_only=True,
                                        trust_remote_code=False,
                                        model_kwargs={"file_name": file_name, **_runtime_options(backend, count,
                                                                                                  device)})
    except (OSError, ValueError) as error:
        msg = f"could not load a sentence-transformers model from {str(path)!r} ({error}); check the folder's files"
        raise ValueError(msg) from error
    if len(model) == 0:
        msg = f"{str(path)!r} holds no modules (modules.json lists none); pass a saved sentence-transformers folder"
        raise ValueError(msg)
    return SentenceTransformersEmbedder(path, model, batch_size, backend, quantize, device, threads)


def _runtime_options(backend: str, threads: int, device: str | None) -> dict[str, object]:
    """model_kwargs for optimum: the thread count, and ONNX Runtime's provider for the device."""
    if backend == "openvino":
        return {"ov_config": {"INFERENCE_NUM_THREADS": str(threads)}}
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1  # one model runs one batch at a time: a second pool only competes
    gpu = device is not None and device.startswith("cuda")
    return {"session_options": options, "provider": "CUDAExecutionProvider" if gpu else "CPUExecutionProvider"}
