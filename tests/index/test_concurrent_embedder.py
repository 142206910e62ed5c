"""The OpenAI-compatible embedder's concurrent batches (real HTTP on 127.0.0.1): order kept, bounded, failures named.

Every server here answers within a bounded time and every loop is bounded: a hang fails by its deadline.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler

import numpy as np
import pytest

from clanka_nb.index import embedders
from clanka_nb.index.embedders import EmbeddingServerError
from tests.index._loopback import serve

pytest.importorskip("httpx")

MODEL = embedders.hashed_words(16)


class SlowServer:
    """Answers each batch after `delay(inputs)` seconds and counts the requests in flight at once."""

    def __init__(self, delay: object = 0.05, fail_on: str | None = None) -> None:
        self.delay = delay
        self.fail_on = fail_on
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most = 0
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.in_flight += 1
                    server.requests += 1
                    server.most = max(server.most, server.in_flight)
                self.counted = True
                try:
                    texts = body["input"]
                    pause = server.delay(texts) if callable(server.delay) else server.delay
                    time.sleep(min(float(pause), 2.0))  # bounded, whatever the test asks
                    if server.fail_on is not None and server.fail_on in texts:
                        return self._send(400, {"error": {"message": "bad input"}})
                    data = [{"index": i, "embedding": v.tolist()} for i, v in enumerate(MODEL(texts))]
                    return self._send(200, {"data": data})
                finally:
                    self._answered()

            def _answered(self) -> None:
                # Out of flight before the answer is written: once its bytes leave, the client may send its next
                # request, which another thread counts, before this one would have reached a later decrement.
                if self.counted:
                    self.counted = False
                    with server.lock:
                        server.in_flight -= 1

            def _send(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self._answered()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd, self.url = serve(Handler)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def slow_server(request):
    running = SlowServer(**getattr(request, "param", {}))
    yield running
    running.close()


TEXTS = [f"function number{i} returns price {i}" for i in range(40)]


def test_later_batches_answered_first_still_come_back_in_input_order():
    # The earlier a batch, the slower its answer: answers arrive in reverse, the vectors must not.
    order = {text: i for i, text in enumerate(TEXTS)}
    server = SlowServer(delay=lambda texts: 0.3 - 0.006 * order[texts[0]])
    try:
        embed = embedders.openai("m", base_url=server.url, api_key="k", batch_size=4, concurrency=8,
                                 dimensions=16)
        vectors = embed(TEXTS)
    finally:
        server.close()
    assert np.allclose(vectors, MODEL(TEXTS), atol=1e-6)
    assert server.most > 1  # they did overlap


@pytest.mark.parametrize("concurrency", [1, 3])
def test_never_more_requests_in_flight_than_concurrency(slow_server, concurrency):
    if concurrency > 1:  # answers wait until two are in flight at once (after the first input, which goes alone)
        slow_server.delay = lambda texts: _until_in_flight(slow_server, 1 if slow_server.requests == 1 else 2)
    embed = embedders.openai("m", base_url=slow_server.url, api_key="k", batch_size=2, concurrency=concurrency)
    vectors = embed(TEXTS[:20])
    assert np.allclose(vectors, MODEL(TEXTS[:20]), atol=1e-6)
    assert slow_server.requests == 11  # the first input alone, then 19 in batches of at most 2
    assert slow_server.most <= concurrency
    if concurrency > 1:
        assert slow_server.most > 1


def _until_in_flight(server: SlowServer, count: int) -> float:
    # Each answer waits (bounded) until `count` requests have been in flight at once: whether they are all sent
    # together no longer races with how fast four threads make their sessions on a busy machine. The peak, not the
    # count now: the first answers to go on lower it before a slower poller would see it. The limit is a hang guard
    # (a client that never sends `count` together is answered then, and its test fails on the peak).
    end = time.monotonic() + 30.0
    while server.most < count and time.monotonic() < end:
        time.sleep(0.005)
    return 0.0


def test_the_first_request_goes_alone_without_dimensions(slow_server):
    # Its answer fixes the width, so every later answer's size cap is what it was one batch at a time.
    slow_server.delay = lambda texts: _until_in_flight(slow_server, 1 if slow_server.requests == 1 else 3)
    embed = embedders.openai("m", base_url=slow_server.url, api_key="k", batch_size=2, concurrency=4)
    starts: list[int] = []
    real = embed._concurrently

    def spy(url, auth, batches, width):
        starts.append(slow_server.requests)
        return real(url, auth, batches, width)

    embed._concurrently = spy  # type: ignore[method-assign]
    embed(TEXTS[:8])
    assert starts == [0, 1]  # one batch alone, the rest only once it was answered
    # The width is kept: a later call (a sweep calls many times) sends all its batches at once.
    slow_server.most = 0
    slow_server.delay = lambda texts: _until_in_flight(slow_server, 4)
    embed(TEXTS[8:16])
    assert starts == [0, 1, 5]  # one input alone, 7 in 4 batches; nothing alone before the second call's
    assert slow_server.most == 4


def test_a_failing_batch_is_named_and_the_rest_not_sent_after_it():
    server = SlowServer(delay=0.05, fail_on=TEXTS[5])
    try:
        embed = embedders.openai("m", base_url=server.url, api_key="k", batch_size=1, concurrency=2,
                                 dimensions=16)
        with pytest.raises(EmbeddingServerError, match="answered 400"):
            embed(TEXTS)
    finally:
        server.close()
    assert server.requests < len(TEXTS)  # batches not yet sent were cancelled


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "4"])
def test_a_bad_concurrency_is_named(bad):
    with pytest.raises(ValueError, match="concurrency must be a whole number"):
        embedders.openai("m", base_url="http://127.0.0.1:9/v1", concurrency=bad)


def test_concurrency_is_in_the_repr_but_not_the_model_id():
    one = embedders.openai("m", base_url="http://127.0.0.1:9/v1", concurrency=1)
    eight = embedders.openai("m", base_url="http://127.0.0.1:9/v1", concurrency=8)
    assert "concurrency=8" in repr(eight)
    assert one.model_id == eight.model_id  # the same vectors, however fast they came
