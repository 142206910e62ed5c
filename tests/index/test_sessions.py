"""Issue 55: the OpenAI-compatible embedder keeps its HTTP sessions between calls (one SSL context per process, none
loaded for http://), closes them on close() and at once on Ctrl-C, and sizes its batches so that every request slot
of `concurrency` has work. Real HTTP on 127.0.0.1; every wait is bounded by an event (the limits are hang guards)."""

from __future__ import annotations

import signal
import ssl
import threading
import time

import httpx
import numpy as np
import pytest

from clanka_nb.index import SemanticIndex, VectorCache, _http, embedders
from clanka_nb.index._openai import SMALLEST_SPLIT, fill_slots
from tests._shared import ctrl_c_raises
from tests.index._loopback import MODEL, Server

TEXTS = [f"function number{i} returns price {i}" for i in range(200)]


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


def _until(condition: object, limit: float = 30.0) -> bool:
    end = time.monotonic() + limit
    while not condition() and time.monotonic() < end:  # type: ignore[operator]
        time.sleep(0.01)
    return bool(condition())  # type: ignore[operator]


def test_a_session_and_its_connection_survive_between_calls(server):
    embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=1)
    for start in range(0, 30, 3):
        assert np.allclose(embed(TEXTS[start : start + 3]), MODEL(TEXTS[start : start + 3]), atol=1e-6)
    assert server.requests == 10
    assert embed._sessions is not None and embed._sessions.made == 1  # one session for ten calls
    assert server.connections == 1  # and one TCP connection: nothing was closed between calls
    embed.close()


def test_concurrent_calls_keep_one_session_per_request_in_flight(server):
    embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=4, dimensions=16)
    for _ in range(5):
        embed(TEXTS[:128])  # 4 requests of 32 each time
    assert server.requests == 20
    assert embed._sessions is not None and 1 <= embed._sessions.made <= 4
    embed.close()


def test_close_closes_the_kept_sessions_and_a_later_call_opens_new_ones(server):
    embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=2, dimensions=16)
    embed(TEXTS[:64])
    keeper = embed._sessions
    assert keeper is not None and len(keeper) >= 1
    kept = list(keeper._idle)
    embed.close()
    assert len(keeper) == 0 and all(session._client.is_closed for session in kept)
    assert _until(lambda: server.hung_up == server.connections)  # the server saw every connection end
    embed(TEXTS[:3])
    assert len(keeper) == 1 and server.connections == len(kept) + 1


def test_ctrl_c_closes_every_session_at_once(monkeypatch):
    closed: list[_http.Session] = []
    real_close = _http.Session.close

    def counting_close(session: _http.Session) -> None:
        closed.append(session)
        real_close(session)

    monkeypatch.setattr(_http.Session, "close", counting_close)
    server = Server(hold=30.0)
    try:
        embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=4, dimensions=16)
        main = threading.main_thread().ident
        assert main is not None
        finished = threading.Event()

        def interrupt_when_busy() -> None:
            while server.in_flight < 4:
                if finished.wait(0.01):
                    return
            signal.pthread_kill(main, signal.SIGINT)

        server.release.set()
        embed(TEXTS[:1])  # answered at once: one session kept
        server.release.clear()
        keeper = embed._sessions
        assert keeper is not None and len(keeper) == 1
        threading.Thread(target=interrupt_when_busy, daemon=True).start()
        try:
            with ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
                embed(TEXTS[:64])
        finally:
            finished.set()
        assert server.answered == 1  # the call ended before any of its 4 held requests was answered
        assert len(keeper) == 0  # nothing kept after Ctrl-C: the kept one and the four in flight, all closed
        assert keeper.made == 4 and len(set(closed)) == 4
    finally:
        server.close()


def test_one_ssl_context_per_process_and_none_loaded_for_plain_http(monkeypatch):
    made: list[object] = []
    real = httpx.create_ssl_context

    def counting(*args: object, **kwargs: object) -> ssl.SSLContext:
        verify = kwargs.get("verify", args[0] if args else True)
        if not isinstance(verify, ssl.SSLContext):
            made.append(verify)  # a context built (a CA bundle loaded), not one handed over
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx, "create_ssl_context", counting)
    monkeypatch.setattr(_http, "_contexts", {})
    plain = [_http.Session(httpx.URL("http://127.0.0.1:9/v1/embeddings"), 5.0) for _ in range(3)]
    assert made == []  # no bundle loaded for http://
    assert _http.ssl_context(False).cert_store_stats()["x509"] == 0  # and the plain one trusts nobody
    assert _http.ssl_context(False).verify_mode == ssl.CERT_REQUIRED
    secure = [_http.Session(httpx.URL("https://example.invalid/v1/embeddings"), 5.0) for _ in range(3)]
    assert len(made) == 1  # one verifying context for three sessions
    assert _http.ssl_context(True) is _http.ssl_context(True)
    for session in plain + secure:
        session.close()


@pytest.mark.parametrize(("count", "most", "slots", "sizes"), [
    (959, 300, 8, [120] * 7 + [119]),  # the tree: 8 requests in one round, not 4 of up to 300
    (959, 300, 4, [240] * 3 + [239]),
    (3000, 300, 8, [188] * 8 + [187] * 8),  # two rounds: 16 requests, none idle in either
    (20, 2, 1, [2] * 10),
    (SMALLEST_SPLIT, 300, 8, [SMALLEST_SPLIT]),  # not split below SMALLEST_SPLIT inputs
    (2 * SMALLEST_SPLIT, 300, 8, [SMALLEST_SPLIT] * 2),
    (10, 4, 4, [4, 3, 3]),  # the API's limit still holds
    (0, 300, 8, []),
])
def test_batches_fill_every_slot_within_the_apis_limit(count, most, slots, sizes):
    texts = [str(number) for number in range(count)]
    batches = fill_slots(texts, most, slots)
    assert [len(batch) for batch in batches] == sizes
    assert [text for batch in batches for text in batch] == texts  # in order, each once
    assert all(len(batch) <= most for batch in batches)


def test_a_sync_at_concurrency_8_keeps_8_requests_in_flight(tmp_path):
    # The server answers each request only once 8 have been in flight at once (bounded): a sync whose inputs go in
    # fewer requests than 8, or not together, fails on `most` (the answers then come after the hang guard).
    source = tmp_path / "repo"
    source.mkdir()
    for number in range(40):
        body = "\n\n".join(f"def f{number}_{i}(x):\n    return x * {i}\n" for i in range(40))
        (source / f"m{number}.py").write_text(body)
    server = Server()
    try:
        original = server.release

        class UntilEight:
            def wait(self, limit: float) -> bool:
                return _until(lambda: server.most >= 8, 30.0)

            def set(self) -> None:
                original.set()

        server.release = UntilEight()  # type: ignore[assignment]
        embed = embedders.openai("m", base_url=server.url, api_key="k", concurrency=8, dimensions=16)
        with SemanticIndex(source, embed=embed, cache=VectorCache(), progress=False) as index:
            report = index.sync()
        assert report.embedded >= 8 * SMALLEST_SPLIT
        assert server.most == 8 and server.requests == 8
    finally:
        server.close()
