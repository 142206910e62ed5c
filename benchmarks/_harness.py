"""What the benchmarks that start a loopback embedding server share (run as scripts from benchmarks/, they import
it): the server's one way to answer, and a child run in another checkout, for figures side by side in one run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any


def send_json(handler: BaseHTTPRequestHandler, payload: object) -> None:
    """Answer the handler's request with 200 and `payload` as JSON, its length given (the connection kept alive)."""
    answer = json.dumps(payload).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(answer)))
    handler.end_headers()
    handler.wfile.write(answer)


def child_result(tree: Path, script: str, *args: str) -> Any:
    """Run `script` with `args` in a new Python that imports `tree`'s clanka_nb (its parse cache off), and return
    the JSON its last line of output prints."""
    env = {**os.environ, "PYTHONPATH": str(tree), "CLANKA_NB_CACHE": "off"}
    out = subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=tree, check=True, capture_output=True,
                         text=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])
