"""The OpenAI-compatible HTTP embedder (OpenAI, Ollama, vLLM, LM Studio...): `openai()` and `OpenAIEmbedder`.

Its batches go `concurrency` at a time, sized to keep every one of them busy (`fill_slots`), each on its own
`_http.Session` (one deadline per request, bodies read up to a cap; kept by the embedder between calls, so one
connection and the process's one SSL context serve many calls), with retries, a stop shared by the batches of one
call (the first failure or Ctrl-C ends them all), the answer checked against OpenAI's format, and every credential
kept out of reprs, model ids and errors. httpx is imported only when a call is made (through `_http.py`).
"""

from __future__ import annotations

import base64
import datetime
import email.utils
import json
import math
import os
import re
import reprlib
import threading
import time
import urllib.parse
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..engine.settings import checked_keywords

if TYPE_CHECKING:  # httpx is imported when a call is made, not with the package
    import httpx

    from . import _http

_RETRIED = {408, 409, 425, 429, 500, 502, 503, 504}


class EmbeddingServerError(RuntimeError):
    """The embedding endpoint failed in a way retrying does not fix (or kept failing after the retries)."""


# Batches in flight at once: clanka's SemanticSearch also runs its requests concurrently. Four keeps a local
# server (Ollama, a laptop's LM Studio, which run one or two batches at a time) from queueing requests past
# their deadline, and hides most of a hosted API's latency; raise it for a server that scales.
DEFAULT_CONCURRENCY = 4
# fill_slots splits a call's inputs over the requests in flight, down to this many inputs per request, no fewer.
SMALLEST_SPLIT = 16
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


def fill_slots(texts: list[str], most: int, slots: int) -> list[list[str]]:
    """`texts` in order, in batches of at most `most` inputs that keep all `slots` requests busy in each round.

    As few rounds as `most` allows (ceil(n / (most * slots))), and `slots` batches of near-equal size in each
    (sizes differ by one at most), so no slot idles while another sends a full batch: 959 inputs at most=300 and
    slots=8 go as 8 batches of 119-120 in one round, not 4 of 300 and 59 with four slots idle. A batch is not
    split below `SMALLEST_SPLIT` inputs: each request pays its own latency and counts against the API's request
    rate, so 20 inputs go as one request, 40 as two.
    """
    if not texts:
        return []
    rounds = math.ceil(len(texts) / (most * slots))
    count = max(math.ceil(len(texts) / most), min(rounds * slots, math.ceil(len(texts) / SMALLEST_SPLIT)))
    size, extra = divmod(len(texts), count)
    out, start = [], 0
    for number in range(count):
        end = start + size + (number < extra)
        out.append(texts[start:end])
        start = end
    return out


def _settled(future: Future[np.ndarray]) -> BaseException | None:
    """The future's exception (None: its vectors) once it ends, waited for a tick at a time.

    A Ctrl-C that the kernel hands to one of the sending threads (on a loaded machine it may) only sets CPython's
    flag: the main thread, blocked on a lock without a timeout, would not see it until the batch ended. Waking every
    tick, it raises KeyboardInterrupt within one.
    """
    while True:
        try:
            return future.exception(timeout=_TICK)
        except TimeoutError:
            continue


_TICK = 0.1  # seconds between the caller's looks for a Ctrl-C while its batches are in flight


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

    Args:
        model: The model's name at the endpoint.
        base_url: The endpoint's base URL.
        api_key: The key; None: none sent.
        batch_size: Inputs per request at most.
        dimensions: The vectors' width to ask for; None: the model's.
        timeout: Seconds each request may take, connection to last byte; None: no deadline.
        max_retries: Retries of a 429 or 5xx answer.
        backoff: The first retry's wait in seconds, doubled at each retry.
        max_wait: The longest wait before a retry, in seconds.
        requests: Requests sent so far (a counter).
        concurrency: Batches in flight at once.
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
    # The HTTP sessions kept between calls (made on the first call): one SSL context and one connection reused.
    _sessions: _http.Sessions | None = field(default=None, init=False, repr=False, compare=False)

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
        if not texts:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        rows: list[np.ndarray] = []
        width = self.dimensions or self._width  # else the first answer's: every later batch must match it
        if width is None:
            # The embedder's first request goes alone: its answer fixes the width, and so the size cap of every
            # later answer (read at most `concurrency` at a time), as it did when batches went one by one. The width
            # is kept, so only the first call of an embedder waits for one request before the others. It carries
            # one input (the others wait for its answer, which a server that spends its time per input gives
            # soonest), or the whole call where fill_slots would send that as one request anyway.
            alone = len(fill_slots(texts, self.batch_size, self.concurrency)) == 1
            first = texts if alone else texts[:1]
            rows += self._concurrently(url, auth, [first], None)
            width, texts = rows[0].shape[1], texts[len(first) :]
            self._width = width
        rows += self._concurrently(url, auth, fill_slots(texts, self.batch_size, self.concurrency), width)
        return np.concatenate(rows)

    def close(self) -> None:
        """Close the HTTP sessions this embedder keeps between its calls (and their connections) now.

        A later call opens new ones. They are also closed when the embedder is garbage-collected or the process
        ends, and at once on an interrupt (Ctrl-C) during a call.
        """
        if self._sessions is not None:
            self._sessions.close()

    def _keeper(self) -> _http.Sessions:
        """The sessions kept between calls, made on the first call (so httpx is imported only then)."""
        from . import _http

        with self._count_lock:
            if self._sessions is None:
                self._sessions = _http.Sessions()
                weakref.finalize(self, self._sessions.close)  # holds the keeper, not the embedder
            return self._sessions

    def _concurrently(self, url: httpx.URL, auth: tuple[str, str] | None, batches: list[list[str]],
                      width: int | None) -> list[np.ndarray]:
        """The vectors of `batches`, in their order, at most `concurrency` requests in flight at once.

        Each request takes a session of its own from the embedder's keeper (a session's deadline belongs to the one
        request it is sending) and gives it back when it ends, so the next call reuses it and its connection. The
        first failure (in batch order) is raised once the batches in flight end (each within its deadline); batches
        not yet sent are cancelled.
        """
        if not batches:
            return []
        keeper = self._keeper()
        sending: list[_http.Session] = []
        guard = threading.Lock()
        # Set on the first failure, and on an interrupt (Ctrl-C) in the caller's thread: batches not yet sent are
        # not sent, and those in their retries give up at once (their waits wake on it).
        stop = threading.Event()

        def send(batch: list[str]) -> np.ndarray:
            if stop.is_set():
                raise _Cancelled
            session = keeper.take(url, self.timeout)
            with guard:
                sending.append(session)
            try:
                if stop.is_set():  # stopped while this session was taken: the abort below did not see it
                    raise _Cancelled
                return self._batch(session, url, auth, batch, width, stop)
            except BaseException:
                stop.set()
                raise
            finally:
                with guard:  # out of reach of the aborts below before another call may take it
                    sending.remove(session)
                keeper.give(session)  # kept, or closed when it was aborted

        # One request is sent from this thread: no pool to start.
        pool = None if len(batches) == 1 else ThreadPoolExecutor(
            max_workers=min(self.concurrency, len(batches)), thread_name_prefix="clanka-nb-embed")
        try:
            if pool is None:
                return [send(batches[0])]
            futures: list[Future[np.ndarray]] = [pool.submit(send, batch) for batch in batches]
            for future in futures:  # the first real failure, not a batch that gave up because of it
                error = _settled(future)
                if error is not None and not isinstance(error, _Cancelled):
                    raise error
            return [future.result() for future in futures]
        except BaseException as error:
            # A failure or an interrupt: nothing more is sent, and the requests in flight are cut off now rather
            # than run to their deadlines and retries (every answer not yet read is thrown away; nothing was
            # written: the caller stores a call's vectors only once it returns).
            stop.set()
            with guard:
                for session in sending:
                    session.abort()
            if not isinstance(error, Exception):  # Ctrl-C: the kept sessions are closed as well, at once
                keeper.close()
            raise
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

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

    def _batch(self, session: _http.Session, url: httpx.URL, auth: tuple[str, str] | None, texts: list[str],
               width: int | None, stop: threading.Event) -> np.ndarray:
        import httpx

        from . import _http

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
                answer = session.post(url, content, headers, auth, cap, _ERROR_BYTES)
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


@checked_keywords
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
    Sends at most `batch_size` inputs per request (the API's own limit: OpenAI takes 2,048), in batches of
    near-equal size that keep all `concurrency` requests busy: a call of 959 inputs at `concurrency=8` sends 8
    requests of 119-120 inputs, not 4 of up to 300 with half the slots idle: `ceil(n / (batch_size *
    concurrency))` rounds of requests, none split below 16 inputs (each request pays its own latency and counts
    against the API's request rate). Retries 429 and 5xx with exponential backoff, waiting
    as long as the server's Retry-After says when it says so (at most `max_wait` seconds). `timeout` is a
    deadline for each request as a whole, connection to last byte. An answer is read up to a size its batch
    can need, must hold exactly one finite vector per input (matched by `index`), and is otherwise refused
    with an EmbeddingServerError. A `user:password@` in `base_url` is sent as HTTP Basic auth and shown nowhere;
    a query (`?api-version=...&api-key=...`) is sent with every request, its values shown nowhere (`***`).
    `concurrency` batches are in flight at once (default 4; 1 sends one at a time), each with its own deadline,
    caps and retries; the vectors come back in input order whatever order the answers arrive in. Unless
    `dimensions=` is given, the embedder's first request goes alone, with one input (or the whole call, if it is
    one request anyway): its width bounds the size of every later answer (and is kept, so later calls send all
    their batches at once). The HTTP sessions (their connections) are kept between calls, one per request in
    flight; `close()` closes them, as an interrupt (Ctrl-C) does at once.

    Args:
        model: The model's name at the endpoint.
        base_url: The endpoint; None: $OPENAI_BASE_URL, else https://api.openai.com/v1.
        api_key: The key; None: $OPENAI_API_KEY.
        batch_size: Inputs per request at most.
        dimensions: The vectors' width to ask for; None: the model's.
        timeout: Seconds each request may take, connection to last byte; None: no deadline.
        max_retries: Retries of a 429 or 5xx answer.
        max_wait: The longest wait before a retry, in seconds.
        concurrency: Batches in flight at once (1 sends one at a time).

    Returns:
        The embedder.

    Examples:
        >>> embed = cn.embedders.openai("nomic-embed-text", base_url="http://127.0.0.1:11434/v1")
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
