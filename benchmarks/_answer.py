"""The loopback embedding servers' one way to answer: a JSON body with its length, as an OpenAI-compatible API does
(the benchmarks that start such a server import it, run as scripts from benchmarks/)."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler


def send_json(handler: BaseHTTPRequestHandler, payload: object) -> None:
    """Answer the handler's request with 200 and `payload` as JSON, its length given (the connection kept alive)."""
    answer = json.dumps(payload).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(answer)))
    handler.end_headers()
    handler.wfile.write(answer)
