"""HTTP for embedding servers: one deadline per request (connect to last byte) and bodies read up to a cap."""

from __future__ import annotations

import contextlib
import math
import socket
import ssl
import threading
import time
import urllib.request
import zlib
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

_PIECE = 64 * 1024  # written and read at most this much at a time, so the deadline is checked often


class TooLarge(Exception):
    """The answer's body went past the cap; carries how much had been read."""

    def __init__(self, size: int, cap: int) -> None:
        super().__init__(f"{size:,} bytes read, over the cap of {cap:,}")
        self.size, self.cap = size, cap


class Unreadable(Exception):
    """The answer came in a content encoding that was not asked for."""


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's socket backend with every connect, read and write cut to the time left before `at`.

    httpx's `timeout` bounds each socket operation, so a server sending one byte per second keeps a request
    alive forever. Here each operation gets min(its own timeout, time left), checked before every piece:
    no thread and no signal, and the headers are bounded as well as the body.
    """

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner
        self.at = math.inf
        self.limit: float | None = None
        self.aborted = False
        self._open: set[_DeadlineStream] = set()
        self._lock = threading.Lock()

    def left(self, timeout: float | None, error: type[Exception]) -> float | None:
        if self.aborted:
            raise error("the request was stopped")
        remaining = self.at - time.monotonic()
        if remaining <= 0:
            raise error(f"the request took longer than timeout={self.limit:g} s")
        if math.isinf(remaining):  # no deadline: the operation's own timeout (None waits; a socket takes no inf)
            return timeout
        return remaining if timeout is None else min(timeout, remaining)

    def opened(self, stream: _DeadlineStream) -> _DeadlineStream:
        with self._lock:
            self._open.add(stream)
        return stream

    def closed(self, stream: _DeadlineStream) -> None:
        with self._lock:
            self._open.discard(stream)

    def abort(self) -> None:
        """Stop every request of this backend now, from any thread: each open socket is shut down, which wakes a
        read or write blocked on it (closing alone does not), and every later operation fails at once."""
        self.aborted = True
        with self._lock:
            streams = list(self._open)
        for stream in streams:
            stream.shut_down()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(host, port, timeout=self.left(timeout, httpcore.ConnectTimeout),
                                         local_address=local_address, socket_options=socket_options)
        return self.opened(_DeadlineStream(stream, self))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Any = None) -> httpcore.NetworkStream:
        stream = self._inner.connect_unix_socket(path, timeout=self.left(timeout, httpcore.ConnectTimeout),
                                                 socket_options=socket_options)
        return self.opened(_DeadlineStream(stream, self))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, clock: DeadlineBackend) -> None:
        self._inner = inner
        self._clock = clock

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(min(max_bytes, _PIECE), self._clock.left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        view = memoryview(buffer)
        for start in range(0, len(view), _PIECE):
            self._inner.write(bytes(view[start : start + _PIECE]), self._clock.left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._clock.closed(self)
        self._inner.close()

    def shut_down(self) -> None:
        sock = self._inner.get_extra_info("socket")
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):  # already closed or never connected: nothing to wake
                sock.shutdown(socket.SHUT_RDWR)

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        stream = self._inner.start_tls(ssl_context, server_hostname, self._clock.left(timeout, httpcore.ConnectTimeout))
        self._clock.closed(self)
        return self._clock.opened(_DeadlineStream(stream, self._clock))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


_contexts: dict[bool, ssl.SSLContext] = {}  # per process: True the verifying one, False the one for http://
_contexts_lock = threading.Lock()


def ssl_context(verifying: bool) -> ssl.SSLContext:
    """This process's SSL context: made once, shared by every session (an SSLContext is safe across threads).

    The verifying one is what httpx makes by default (its CA bundle, SSL_CERT_FILE / SSL_CERT_DIR honoured): loading
    the bundle costs ~25 ms of CPU, which a context per session paid on every embedder call. The other, for
    http:// servers, loads nothing and verifies everything: no TLS handshake can pass with it, so a plain-HTTP
    session never pays for a bundle it does not use, and could never talk TLS to anyone unverified.
    """
    with _contexts_lock:
        found = _contexts.get(verifying)
        if found is None:
            found = _contexts[verifying] = httpx.create_ssl_context() if verifying \
                else ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        return found


def _proxy_for(url: httpx.URL) -> str | None:
    """The proxy the environment names for this URL (HTTP(S)_PROXY, ALL_PROXY, NO_PROXY), as httpx would use."""
    proxies = urllib.request.getproxies()
    if not proxies or urllib.request.proxy_bypass(url.host):
        return None
    return proxies.get(url.scheme) or proxies.get("all")


def _key(url: httpx.URL, timeout: float | None, proxy: str | None) -> tuple[str, float | None, str | None]:
    return str(url), timeout, proxy


@dataclass
class Answer:
    status: int
    headers: httpx.Headers
    body: bytes


class Session:
    """An httpx client for one server whose requests each finish within `timeout` seconds, or fail."""

    def __init__(self, url: httpx.URL, timeout: float | None) -> None:
        named = _proxy_for(url)
        # An https:// proxy is reached over TLS whatever the target's scheme: it gets the verifying context too
        # (httpcore would make one of its own for every connection otherwise).
        proxy = None if named is None else httpx.Proxy(
            named, ssl_context=ssl_context(True) if named.lower().startswith("https:") else None)
        transport = httpx.HTTPTransport(verify=ssl_context(url.scheme == "https"), proxy=proxy, retries=0)
        # httpcore takes any NetworkBackend; httpx builds its pool without exposing that parameter, so the
        # pool's backend is wrapped in place (checked, so an httpx that moves it fails loudly here).
        pool = getattr(transport, "_pool", None)
        inner = getattr(pool, "_network_backend", None)
        if not isinstance(inner, httpcore.NetworkBackend):
            msg = f"httpx {httpx.__version__} keeps its connection pool elsewhere; clanka-nb needs httpx>=0.27,<1"
            raise RuntimeError(msg)
        self._backend = DeadlineBackend(inner)
        pool._network_backend = self._backend  # type: ignore[union-attr]  # httpx's pool, checked above to hold a network backend
        self._pool = pool
        # trust_env=False: the proxy is chosen above, on this transport; nothing else from the environment applies.
        self._client = httpx.Client(transport=transport, timeout=timeout, trust_env=False, follow_redirects=False)
        self.timeout = timeout
        self.key = _key(url, timeout, named)  # what a kept session serves: another URL, deadline or proxy: another

    def post(self, url: httpx.URL, content: bytes, headers: dict[str, str], auth: tuple[str, str] | None,
             cap: int, error_cap: int) -> Answer:
        """POST and read the answer: a 200's body up to `cap` (else TooLarge), any other's first `error_cap` bytes."""
        self._backend.limit = self.timeout
        self._backend.at = math.inf if self.timeout is None else time.monotonic() + self.timeout
        try:
            with self._client.stream("POST", url, content=content, headers=headers, auth=auth) as response:
                if response.status_code == 200:
                    answer = Answer(200, response.headers, _read(response, cap, truncate=False))
                else:
                    answer = Answer(response.status_code, response.headers, _read(response, error_cap, truncate=True))
            self._drop_unasked()
            return answer
        finally:
            self._backend.at = math.inf

    def _drop_unasked(self) -> None:
        """Close a kept-alive connection that holds bytes nobody asked for yet.

        HTTP/1.1 answers in order with nothing naming its request: bytes already there when no request is out (a
        second answer to the last request, sent by a broken server or proxy) would be read as the next request's
        answer, another batch's vectors taken for this one's. httpcore drops an idle connection whose socket is
        readable; what it read into its parser's buffer with the last answer it keeps, so that is looked at here.
        A connection whose parser cannot be seen is dropped too: a new connection costs less than wrong vectors.
        """
        for connection in list(getattr(self._pool, "connections", ())):
            inner = getattr(connection, "_connection", None)
            state = getattr(inner, "_h11_state", None)
            if state is None and type(inner).__name__ == "HTTP2Connection":
                continue  # HTTP/2 names each answer's stream: nothing to mix up (not enabled here, kept if it is)
            trailing = getattr(state, "trailing_data", None)
            if not (isinstance(trailing, tuple) and trailing and trailing[0] == b"" and not trailing[1]):
                connection.close()

    def abort(self) -> None:
        """Cut off this session's request in flight (from any thread): its socket is shut down, it fails at once."""
        self._backend.abort()

    @property
    def aborted(self) -> bool:
        """Whether `abort()` was called: every later request fails at once, so the session is not kept."""
        return self._backend.aborted

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Sessions:
    """The sessions an embedder keeps between its calls: one per request in flight at most, each used by one thread
    at a time (taken for a request, given back after it), so a later call reuses their connections.

    A session that was aborted is closed, never given out again. `close()` closes every idle session at once.
    """

    def __init__(self) -> None:
        self._idle: list[Session] = []
        self._lock = threading.Lock()
        self.made = 0  # sessions made so far (a test counts them)

    def take(self, url: httpx.URL, timeout: float | None) -> Session:
        """An idle session for `url` and `timeout`, else a new one (idle ones for another place are closed)."""
        key = _key(url, timeout, _proxy_for(url))  # the environment's proxy as it is now (it may have changed)
        stale: list[Session] = []
        found = None
        with self._lock:
            while self._idle and found is None:
                session = self._idle.pop()
                if session.key == key and not session.aborted:
                    found = session
                else:
                    stale.append(session)
        for session in stale:
            session.close()
        if found is None:
            found = Session(url, timeout)
            with self._lock:
                self.made += 1
        return found

    def give(self, session: Session) -> None:
        """`session` back after its request ended: kept for the next, or closed when it was aborted."""
        if not session.aborted:
            with self._lock:
                self._idle.append(session)
            return
        session.close()

    def close(self) -> None:
        """Close every idle session now (one still sending is closed by its call, which aborts it)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for session in idle:
            session.close()

    def __len__(self) -> int:
        with self._lock:
            return len(self._idle)


def _read(response: httpx.Response, cap: int, *, truncate: bool) -> bytes:
    """The body, decompressed (gzip only, as asked), never holding more than `cap` bytes of it."""
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    if encoding in ("", "identity"):
        inflater = None
    elif encoding in ("gzip", "x-gzip"):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    else:
        raise Unreadable(f"Content-Encoding {encoding!r}, which was not asked for")
    declared = response.headers.get("Content-Length", "")
    if not truncate and inflater is None and declared.isdigit() and int(declared) > cap:
        raise TooLarge(int(declared), cap)
    body = bytearray()
    try:
        for raw in response.iter_raw(_PIECE):
            # max_length keeps a small compressed piece from inflating past the cap in one call.
            piece = raw if inflater is None else inflater.decompress(raw, cap - len(body) + 1)
            body += piece
            over = len(body) > cap or (inflater is not None and bool(inflater.unconsumed_tail))
            if over:
                if truncate:
                    return bytes(body[:cap])
                raise TooLarge(len(body), cap)
    except zlib.error as error:
        raise Unreadable(f"gzip that does not inflate ({error})") from None
    return bytes(body)
