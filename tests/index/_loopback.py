"""A loopback /embeddings server (HTTP/1.1, keep-alive) for the fault tests and benchmarks/bench_faults.py: it holds
each answer, can send each one twice, and counts the requests in flight. Every wait is bounded."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from clanka_nb.index import embedders

MODEL = embedders.hashed_words(16)


class _Threaded(ThreadingHTTPServer):
    daemon_threads = True  # a handler still holding its answer never keeps the test process alive


def serve(handler: type[BaseHTTPRequestHandler]) -> tuple[ThreadingHTTPServer, str]:
    """`handler` served on a free loopback port from a daemon thread; the server and its /v1 base URL."""
    httpd = _Threaded(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/v1"


class Server:
    """An HTTP/1.1 (keep-alive) /embeddings server: `hold` seconds per answer (bounded), `extra` sends each answer
    twice in one write (the second with another request's vectors), counting the requests in flight and the
    answers written (a test of a stopped call reads `answered`: the event its client must not have waited for)."""

    def __init__(self, *, hold: float = 0.0, extra: bool = False, model: embedders.HashedWords = MODEL) -> None:
        self.hold, self.extra, self.model = hold, extra, model
        self.lock = threading.Lock()
        self.in_flight = self.most = self.requests = self.answered = 0
        self.connections = self.hung_up = 0  # TCP connections accepted, and of those the ones the client ended
        self.release = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                with owner.lock:
                    owner.connections += 1

            def finish(self) -> None:  # the handler's loop ends when the client closes the connection
                with owner.lock:
                    owner.hung_up += 1
                super().finish()

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with owner.lock:
                    owner.in_flight += 1
                    owner.requests += 1
                    owner.most = max(owner.most, owner.in_flight)
                try:
                    owner.release.wait(min(owner.hold, 60.0))
                    texts = body["input"]
                    answer = self._answer(texts)
                    if owner.extra:  # a second answer nobody asked for: the vectors of other texts
                        answer += self._answer([f"stale {text}" for text in texts])
                    self.wfile.write(answer)
                    self.wfile.flush()
                    with owner.lock:
                        owner.answered += 1
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client hung up (a stopped call)
                finally:
                    with owner.lock:
                        owner.in_flight -= 1

            def _answer(self, texts: list[str]) -> bytes:
                data = [{"index": i, "embedding": v.tolist()} for i, v in enumerate(owner.model(texts))]
                raw = json.dumps({"data": data}).encode()
                head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n"
                return head.encode() + raw

            def log_message(self, *args: object) -> None:
                pass

        self.httpd, self.url = serve(Handler)

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
