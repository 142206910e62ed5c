"""A scripted /v1/embeddings server on 127.0.0.1 for the hostile-server tests: every loop is bounded and stops."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from clanka_nb.index import embedders

Answer = Callable[["Handler", dict[str, Any]], None]
STAND_IN = embedders.hashed_words(16)


class Handler(BaseHTTPRequestHandler):
    server: ScriptedHTTPServer

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        request = {"path": self.path, "headers": dict(self.headers), "body": json.loads(raw), "at": time.monotonic()}
        owner = self.server.owner
        owner.requests.append(request)
        answer = owner.answers.pop(0) if owner.answers else owner.default
        answer(self, request)

    def send(self, status: int, body: bytes, headers: dict[str, str] | None = None, *, length: bool = True) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:  # keep the test output clean
        pass


class ScriptedHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: Scripted


class Scripted:
    """`answers` are used one per request, in order; then `default` (a correct answer from the stand-in model)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.answers: list[Answer] = []
        self.default: Answer = correct
        self.stopped = threading.Event()
        self.sent = 0  # bytes written by the streaming answers before the client hung up
        self.httpd = ScriptedHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.owner = self
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stopped.set()  # streaming answers check it between writes
        self.httpd.shutdown()
        self.httpd.server_close()


def vectors_for(request: dict[str, Any]) -> list[list[float]]:
    return STAND_IN(request["body"]["input"]).tolist()


def correct(handler: Handler, request: dict[str, Any]) -> None:
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors_for(request))]
    handler.send(200, json.dumps({"object": "list", "data": data}).encode())


def data(build: Callable[[list[list[float]]], Any]) -> Answer:
    """A 200 answer whose `data` is `build(correct vectors)` (NaN and Infinity written as Python's json does)."""

    def answer(handler: Handler, request: dict[str, Any]) -> None:
        handler.send(200, json.dumps({"object": "list", "data": build(vectors_for(request))}).encode())

    return answer


def status(code: int, body: bytes = b'{"error": {"message": "slow down"}}',
           headers: dict[str, str] | None = None) -> Answer:
    def answer(handler: Handler, request: dict[str, Any]) -> None:
        handler.send(code, body, headers)

    return answer


def dribble(head_at_once: bool, pause: float = 1.5, limit: int = 12) -> Answer:
    """A correct answer sent one byte per `pause` seconds (after the headers at once, or from the status line)."""

    def answer(handler: Handler, request: dict[str, Any]) -> None:
        body = json.dumps({"data": [{"index": i, "embedding": v} for i, v in enumerate(vectors_for(request))]})
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n")
        raw = (head + body).encode()
        if head_at_once:
            handler.wfile.write(raw[: len(head)])
            handler.wfile.flush()
            raw = raw[len(head) :]
        owner = handler.server.owner
        for position in range(min(limit, len(raw))):  # bounded: at most `limit` bytes, then the server gives up
            if owner.stopped.wait(pause):
                return
            try:
                handler.wfile.write(raw[position : position + 1])
                handler.wfile.flush()
            except OSError:
                return  # the client hung up, as it should
        handler.close_connection = True

    return answer


def flood(code: int, prefix: bytes, total: int, fill: bytes = b" ") -> Answer:
    """`prefix` then `fill` up to `total` bytes, written in 1 MiB blocks until the client hangs up (no length)."""

    def answer(handler: Handler, request: dict[str, Any]) -> None:
        owner = handler.server.owner
        handler.send_response(code)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Connection", "close")
        handler.end_headers()
        block = fill * (1 << 20)
        try:
            handler.wfile.write(prefix)
            owner.sent += len(prefix)
            while owner.sent < total and not owner.stopped.is_set():  # bounded by `total`
                handler.wfile.write(block)
                owner.sent += len(block)
        except OSError:
            pass  # the client stopped reading and closed: what the test wants
        handler.close_connection = True

    return answer
