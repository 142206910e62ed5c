"""The OpenAI-compatible embedder against a real HTTP server on 127.0.0.1 (stdlib http.server in a thread)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from clanka_nb.index import SemanticIndex, VectorCache, embedders
from clanka_nb.index.embedders import EmbeddingServerError

pytest.importorskip("httpx")

KEY = "sk-test-key"


class Server:
    """An /v1/embeddings endpoint that answers with the hashed-words stand-in, scripted to fail on demand."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.failures: list[tuple[int, dict[str, str]]] = []  # answered (status, headers) first, in order
        self.dimensions = 16
        self.model = embedders.hashed_words(16)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                        "body": body, "at": time.monotonic()})
                if self.headers.get("Authorization") != f"Bearer {KEY}":
                    return self._send(401, {"error": {"message": "Incorrect API key provided"}})
                if server.failures:
                    status, headers = server.failures.pop(0)
                    return self._send(status, {"error": {"message": "slow down"}}, headers)
                vectors = server.model(body["input"])[:, : server.dimensions]
                data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
                data.reverse()  # the API may answer out of order; `index` says where each goes
                return self._send(200, {"object": "list", "data": data, "model": body["model"]})

            def _send(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:  # keep the test output clean
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    running = Server()
    yield running
    running.close()


def test_batches_order_and_bearer_key(server):
    embed = embedders.openai("stand-in-model", base_url=server.url, api_key=KEY, batch_size=4)
    texts = [f"text number {i} about prices" for i in range(10)]
    vectors = embed(texts)
    sizes = [len(r["body"]["input"]) for r in server.requests]
    # The first input goes alone (it fixes the width); the others are in flight together, in any order, split
    # evenly over them (fill_slots: 9 inputs in 3 requests of 3, not 4, 4 and 1).
    assert sizes[0] == 1 and sorted(sizes[1:]) == [3, 3, 3]
    assert all(r["auth"] == f"Bearer {KEY}" and r["path"] == "/v1/embeddings" for r in server.requests)
    assert all(r["body"]["model"] == "stand-in-model" for r in server.requests)
    assert np.allclose(vectors, server.model(texts), atol=1e-6)


def test_the_first_call_sends_one_input_alone_then_fills_every_slot(server):
    # Issue 55: the lone first request only learns the width, so it carries one input, and the rest of the call goes
    # as `concurrency` near-equal batches at once: two short round trips, not two full batches one after another.
    embed = embedders.openai("m", base_url=server.url, api_key=KEY, concurrency=8)
    texts = [f"text number {i} about prices" for i in range(200)]
    vectors = embed(texts)
    sizes = [len(r["body"]["input"]) for r in server.requests]
    assert sizes[0] == 1 and sorted(sizes[1:]) == [24] + [25] * 7
    assert np.allclose(vectors, server.model(texts), atol=1e-6)
    second = embed(texts[:128])  # the width is kept: a later call sends every batch at once, none alone
    sizes = [len(r["body"]["input"]) for r in server.requests[9:]]
    assert sizes == [16] * 8
    assert np.allclose(second, server.model(texts[:128]), atol=1e-6)


def test_a_first_call_that_is_one_request_anyway_is_not_split_for_the_width(server):
    embed = embedders.openai("m", base_url=server.url, api_key=KEY, concurrency=8)
    texts = [f"text number {i}" for i in range(16)]  # fill_slots sends up to 16 inputs as one request
    assert np.allclose(embed(texts), server.model(texts), atol=1e-6)
    assert [len(r["body"]["input"]) for r in server.requests] == [16]
    one_at_a_time = embedders.openai("m", base_url=server.url, api_key=KEY, concurrency=1)  # as on a Dask worker
    texts = [f"text number {i}" for i in range(40)]  # one request of 40 at concurrency 1: its answer gives the width
    assert np.allclose(one_at_a_time(texts), server.model(texts), atol=1e-6)
    assert [len(r["body"]["input"]) for r in server.requests[1:]] == [40]


def test_retries_after_429_honouring_retry_after(server):
    server.failures = [(429, {"Retry-After": "1"}), (503, {})]
    embed = embedders.openai("m", base_url=server.url, api_key=KEY)
    embed.backoff = 0.05
    vectors = embed(["one", "two"])
    assert vectors.shape == (2, 16) and len(server.requests) == 3
    first, second, _ = (r["at"] for r in server.requests)
    assert second - first >= 0.95  # waited as long as Retry-After asked


def test_gives_up_with_a_clear_error_when_the_server_keeps_failing(server):
    server.failures = [(500, {})] * 10
    embed = embedders.openai("m", base_url=server.url, api_key=KEY, max_retries=2)
    embed.backoff = 0.01
    with pytest.raises(EmbeddingServerError, match="gave up after 3 attempts"):
        embed(["x"])
    assert len(server.requests) == 3


def test_a_bad_key_is_named(server):
    embed = embedders.openai("m", base_url=server.url, api_key="wrong")
    with pytest.raises(PermissionError, match="OPENAI_API_KEY"):
        embed(["x"])
    assert len(server.requests) == 1  # 401 is not retried


def test_a_wrong_dimension_is_named(server):
    embed = embedders.openai("m", base_url=server.url, api_key=KEY, dimensions=8)
    assert server.requests == []
    with pytest.raises(ValueError, match="asked 'm' for 8-dimensional vectors and got 16"):
        embed(["x"])
    assert server.requests[0]["body"]["dimensions"] == 8


def test_an_unreachable_server_is_named():
    embed = embedders.openai("m", base_url="http://127.0.0.1:9/v1", api_key=KEY, max_retries=1)
    embed.backoff = 0.01
    with pytest.raises(EmbeddingServerError, match="could not reach"):
        embed(["x"])


def test_an_index_through_the_server(server, sample):
    embed = embedders.openai("m", base_url=server.url, api_key=KEY, batch_size=50)
    report = SemanticIndex(sample, embed=embed, cache=VectorCache()).sync()
    sizes = [len(r["body"]["input"]) for r in server.requests]
    assert sum(sizes) == report.embedded and max(sizes) <= 50


def test_vectors_from_the_server_are_kept_on_disk_and_never_asked_for_again(server, sample, tmp_path):
    path = tmp_path / "vectors.sqlite3"
    embed = embedders.openai("m", base_url=server.url, api_key=KEY)
    first = SemanticIndex(sample, embed=embed, cache=VectorCache(path), progress=False).sync()
    asked = len(server.requests)
    again = embedders.openai("m", base_url=server.url, api_key=KEY)  # a new embedder, the same model id
    second = SemanticIndex(sample, embed=again, cache=VectorCache(path), progress=False).sync()
    assert first.embedded > 0 and asked > 0
    assert (second.embedded, second.cached, len(server.requests)) == (0, first.embedded, asked)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("vectors.sqlite3*"))
    assert KEY.encode() not in stored  # the key is no part of the model id the vectors are kept under
