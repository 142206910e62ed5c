"""Embedding faults of issue 42 (real HTTP on 127.0.0.1, every loop bounded): Ctrl-C with requests in flight ends
the call at once, `timeout=None` has no deadline, a stale second answer on a kept-alive connection is never taken
for the next batch's, and an index build keeps the embedder's concurrency busy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from clanka_nb.index import SemanticIndex, VectorCache, embedders
from tests._shared import as_in_a_terminal, ctrl_c_raises
from tests.index._loopback import MODEL, Server

pytest.importorskip("httpx")

TEXTS = [f"function number{i} returns price {i}" for i in range(48)]


@pytest.fixture
def make_server():
    made: list[Server] = []

    def make(**options: object) -> Server:
        made.append(Server(**options))  # type: ignore[arg-type]
        return made[-1]

    yield make
    for server in made:
        server.close()


def test_ctrl_c_with_eight_requests_in_flight_ends_the_process_at_once(make_server, tmp_path):
    # The server holds every request for 60 s; at the defaults (timeout 60 s, 5 retries) the old code waited for
    # each request's whole schedule. SIGINT once 8 are in flight: the process must be gone before the server
    # answered any of them (an event, not a time: on a loaded machine the exit itself may take seconds).
    server = make_server(hold=60.0)
    script = textwrap.dedent(f"""
        from clanka_nb.index import embedders
        embed = embedders.openai("m", base_url={server.url!r}, api_key="k", batch_size=1, concurrency=8, dimensions=16)
        embed([f"text {{i}}" for i in range(16)])
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=Path(__file__).resolve().parents[2], preexec_fn=as_in_a_terminal)  # fmt: skip
    try:
        while server.in_flight < 8 and process.poll() is None:
            time.sleep(0.02)
        assert server.in_flight == 8, process.stderr.read().decode() if process.poll() is not None else ""
        os.kill(process.pid, signal.SIGINT)
        process.wait(timeout=300)  # a hang guard only: the assertion below is what the test checks
        answered = server.answered
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert answered == 0, "the process waited for the server's answers after Ctrl-C"
    assert b"KeyboardInterrupt" in process.stderr.read()
    assert server.requests == 8  # nothing more was sent after the interrupt


def test_an_interrupt_in_the_callers_thread_stops_the_batches_and_their_retries(make_server):
    server = make_server(hold=30.0)
    embed = embedders.openai("m", base_url=server.url, api_key="k", batch_size=1, concurrency=4, dimensions=16)
    main = threading.main_thread().ident
    assert main is not None

    finished = threading.Event()  # the call returned or raised: no Ctrl-C may reach a later test

    def interrupt_when_busy() -> None:
        while server.in_flight < 4:
            if finished.wait(0.01):
                return
        signal.pthread_kill(main, signal.SIGINT)  # a real Ctrl-C: it wakes the caller's wait

    timer = threading.Thread(target=interrupt_when_busy, daemon=True)
    timer.start()
    try:
        with ctrl_c_raises(), pytest.raises(KeyboardInterrupt):
            embed(TEXTS[:12])
    finally:
        finished.set()
    # The server holds each request for 30 s: the call ended before it answered any (an event, not a time).
    assert server.answered == 0
    assert server.requests == 4


@pytest.mark.parametrize("timeout", [None, float("inf")])
def test_no_deadline_is_no_deadline(make_server, timeout):
    server = make_server(hold=0.0)
    embed = embedders.openai("m", base_url=server.url, api_key="k", timeout=timeout, dimensions=16)
    assert embed.timeout is None
    assert np.allclose(embed(TEXTS[:3]), MODEL(TEXTS[:3]), atol=1e-6)


@pytest.mark.parametrize("concurrency", [1, 8])
def test_a_stale_second_answer_is_never_taken_for_the_next_batch(make_server, concurrency):
    server = make_server(extra=True)
    texts = TEXTS * 50  # 2,400 inputs, as the run
    embed = embedders.openai("m", base_url=server.url, api_key="k", batch_size=8, concurrency=concurrency,
                             dimensions=16)  # fmt: skip
    vectors = embed(texts)
    wrong = int((~np.isclose(vectors, MODEL(texts), atol=1e-6).all(axis=1)).sum())
    assert wrong == 0


def test_an_index_build_keeps_the_embedders_concurrency_busy(make_server, tmp_path):
    folder = tmp_path / "code"
    folder.mkdir()
    for i in range(40):
        (folder / f"m{i}.ts").write_text(f"export function f{i}(a: number): number {{\n  return a + {i};\n}}\n")
    # Every answer is held until 4 requests are in flight at once (an event, not a time: with a short hold the
    # fourth thread could start after the first answer on a loaded machine); a client that never sends 4 together
    # is answered when the 60 s hold runs out, and fails below.
    server = make_server(hold=60.0)
    finished = threading.Event()

    def release_when_four() -> None:
        while server.in_flight < 4 and not finished.wait(0.01):
            pass
        server.release.set()

    threading.Thread(target=release_when_four, daemon=True).start()
    embed = embedders.openai("m", base_url=server.url, api_key="k", batch_size=4, concurrency=4, dimensions=16)
    index = SemanticIndex(folder, embed=embed, cache=VectorCache(), batch_size=4, progress=False)
    try:
        index.sync()
    finally:
        finished.set()
    assert server.requests >= 10 and server.most == 4  # 4 batches of 4 per hand-over, in flight together
