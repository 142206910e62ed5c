"""An OpenAI-compatible server whose batches of one call differ in dimension: one error naming the embedder."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clanka_nb.index import embedders
from clanka_nb.index.embedders import EmbeddingServerError

pytest.importorskip("httpx")


class Handler(BaseHTTPRequestHandler):
    """Each request gets vectors one dimension wider than the last (3, 4, ...): a server mixing models."""

    served = 0

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        width = 3 + Handler.served
        Handler.served += 1
        data = [{"index": i, "embedding": [0.5] * width} for i in range(len(body["input"]))]
        raw = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


def test_batches_of_different_dimensions_are_one_error_naming_the_embedder() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        embed = embedders.openai("mixed-model", base_url=url, api_key="k", batch_size=2)
        with pytest.raises(EmbeddingServerError, match=r"openai\('mixed-model'\) returned vectors of 3 and 4 "
                                                        r"dimensions \(batches of 2.* pin one model"):  # fmt: skip
            embed(["a", "b", "c"])
        # The first answer's width is kept: a later call's answer of another width is the same error.
        with pytest.raises(EmbeddingServerError, match=r"vectors of 3 and 5 dimensions"):
            embed(["d"])
    finally:
        server.shutdown()
        server.server_close()
