"""Worker processes, for real: Ctrl-C and `kill -9` of the parent end them, and an unread iterator stops them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from importlib.util import find_spec
from pathlib import Path

import pytest

from clanka_nb.engine import _workers
from tests._shared import as_in_a_terminal

# The frames layer (and so the command line) is an extra: the engine-alone venv of .ci/run has no pandas.
NEEDS_FRAMES = pytest.mark.skipif(find_spec("pandas") is None, reason="needs the frames extra (pandas)")

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process trees from /proc")

REPO = Path(__file__).resolve().parents[2]


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a live process; None when gone or a zombie (dead, not yet reaped)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return None if fields[0] in "ZX" else (fields[0], int(fields[1]))


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = _stat(int(entry.name))
            if info is not None and info[1] == pid:
                found.add(int(entry.name))
    return found


# Every wait below is for an event (the process exited, the workers are gone, two workers started), and each
# failure it catches is one that never comes: a script that loops for ever, workers orphaned on their pipe. So
# the limit is a hang guard only, far above anything a loaded machine needs (a run at load 18 on 2 cores took
# over 15 s to exit after Ctrl-C), never a measure of promptness.
HANG_GUARD = 180.0


def wait_gone(pids: set[int], seconds: float = HANG_GUARD) -> set[int]:
    """The pids still alive after up to `seconds`."""
    deadline = time.monotonic() + seconds
    alive = set(pids)
    while alive and time.monotonic() < deadline:
        alive = {pid for pid in alive if _stat(pid) is not None}
        time.sleep(0.05)
    return alive


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory) -> Path:
    """Enough files that two workers are busy for a while."""
    root = tmp_path_factory.mktemp("big")
    body = "".join(f"export function f{i}(a: number): number {{\n  return a + {i};\n}}\n" for i in range(60))
    for folder in range(20):
        (root / f"d{folder}").mkdir()
        for name in range(40):
            (root / f"d{folder}" / f"f{name}.ts").write_text(body, encoding="utf-8")
    return root


API_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from clanka_nb.engine import chunk_codebase
    root, mode = sys.argv[1], sys.argv[2]
    chunks = chunk_codebase(root, workers=2)
    next(chunks)
    print("started", flush=True)
    if mode == "hold":
        time.sleep(600)
    while True:  # a run that never ends on its own, so the signal finds workers at any point
        for _ in chunks:
            pass
        chunks = chunk_codebase(root, workers=2)
    """
)




def _start(args: list[str]) -> subprocess.Popen:
    # The parse cache off: files it already holds would be served in the parent, with no workers to end.
    env = {**os.environ, "PYTHONPATH": str(REPO), "CLANKA_NB_CACHE": "off"}
    # A session of its own: killpg then reaches the script and its workers, as Ctrl-C in a terminal does.
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True, text=True,
        preexec_fn=as_in_a_terminal,
    )  # fmt: skip
    return process


def _script(tmp_path: Path, root: Path, mode: str) -> subprocess.Popen:
    script = tmp_path / "run.py"
    script.write_text(API_SCRIPT, encoding="utf-8")
    process = _start([sys.executable, str(script), str(root), mode])
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "started", process.stderr.read() if process.stderr else ""
    return process


def _workers_of(process: subprocess.Popen) -> set[int]:
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        pids = children(process.pid)
        if len(pids) >= 2:
            return pids
        time.sleep(0.02)
    pytest.fail(f"expected two worker processes under {process.pid}, found {children(process.pid)}")


def _assert_exits(process: subprocess.Popen, seconds: float = HANG_GUARD) -> int:
    try:
        return process.wait(seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail(f"the process did not exit within {seconds} s of Ctrl-C; it wrote: {_tail(process)}")


def _tail(process: subprocess.Popen) -> str:
    """The end of what a finished process wrote to stderr, for failure messages (once read, it is gone)."""
    assert process.stderr is not None
    return process.stderr.read()[-1500:] or "(nothing)"


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.4, 0.8])
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_ends_an_api_run_and_its_workers(tmp_path, big_tree, delay, presses):
    process = _script(tmp_path, big_tree, "run")
    time.sleep(delay)
    workers = children(process.pid)
    for _ in range(presses):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.05)
    _assert_exits(process)
    stderr = _tail(process)
    assert "KeyboardInterrupt" in stderr, stderr
    assert wait_gone(workers) == set(), f"workers {workers} outlived the script; it wrote: {stderr}"


@NEEDS_FRAMES
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_ends_a_cli_run_and_its_workers(tmp_path, big_tree, presses):
    process = _start([
        sys.executable, "-m", "clanka_nb.cli", "chunk", str(big_tree), "--workers", "2", "-q",
        "--format", "jsonl", "-o", str(tmp_path / "out.jsonl"),
    ])
    workers = _workers_of(process)
    for _ in range(presses):
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.05)
    code = _assert_exits(process)
    # One press: the CLI's own message and exit code. A second press may land while the first is being
    # handled, and then ends the interpreter by the signal itself: still an exit, still no workers left.
    assert code == 130 if presses == 1 else code in (130, -signal.SIGINT)
    if code == 130:
        assert "interrupted" in process.stderr.read()
    assert wait_gone(workers) == set()


# Ctrl-C lands while one of the pool's connections is freed, from inside its finaliser, where Python prints a
# KeyboardInterrupt and drops it: run K presses on the K-th connection freed, for every connection a run frees.
TEARDOWN_SCRIPT = textwrap.dedent(
    """
    import os, signal
    from multiprocessing.connection import Connection
    from clanka_nb.engine import _workers
    freed = press_at = 0
    original = Connection.__del__
    def pressed_while_freed(self):
        global freed
        freed += 1
        if freed == press_at:
            os.kill(os.getpid(), signal.SIGINT)
        original(self)
    Connection.__del__ = pressed_while_freed
    outcomes = []
    for press_at in range(1, 9):
        freed = 0
        try:
            list(_workers.ordered_map(abs, list(range(-40, 0)), workers=2, batch=4))
        except KeyboardInterrupt:
            outcomes.append("interrupted")
        else:
            outcomes.append("ran on" if freed >= press_at else "not pressed")
    print(" ".join(outcomes), flush=True)
    """
)


def test_ctrl_c_while_workers_start_or_end_is_not_lost(tmp_path):
    script = tmp_path / "teardown.py"
    script.write_text(TEARDOWN_SCRIPT, encoding="utf-8")
    process = _start([sys.executable, str(script)])
    _assert_exits(process)
    assert process.stdout is not None
    outcomes = process.stdout.read().split()
    # Two workers: each has a pipe end freed as it starts and one as it ends, so four presses are made.
    assert "ran on" not in outcomes, _tail(process)
    assert outcomes.count("interrupted") >= 4, (outcomes, _tail(process))


def test_kill_9_of_the_parent_ends_its_workers(tmp_path, big_tree):
    process = _script(tmp_path, big_tree, "hold")
    workers = _workers_of(process)
    process.kill()  # SIGKILL to the parent alone: what a notebook kernel restart does
    process.wait()
    assert wait_gone(workers) == set()


def test_kill_9_of_a_busy_parent_ends_its_workers(tmp_path, big_tree):
    process = _script(tmp_path, big_tree, "run")
    workers = _workers_of(process)
    process.kill()
    process.wait()
    assert wait_gone(workers) == set()


def _record(job: tuple[str, int]) -> int:
    with open(job[0], "a", encoding="utf-8") as log:
        log.write(f"{job[1]}\n")
    return job[1]


def test_an_unread_iterator_stops_the_workers_after_a_bounded_window(tmp_path):
    log = tmp_path / "done.txt"
    log.touch()
    jobs = [(str(log), i) for i in range(2000)]
    results = _workers.ordered_map(_record, jobs, workers=2, batch=4)
    assert next(results) == 0
    time.sleep(1.0)  # long enough for unbounded workers to get through hundreds of jobs
    done = len(log.read_text().split())
    # The first batch plus the window sent ahead of it, and nothing more.
    assert done <= (1 + 2 * _workers.BATCHES_IN_FLIGHT) * 4
    assert list(results) == list(range(1, 2000))  # and reading on gives every result, in order
    assert len(log.read_text().split()) == 2000


def test_closing_an_unread_iterator_ends_the_workers(tmp_path):
    log = tmp_path / "done.txt"
    others = children(os.getpid())  # e.g. a JupyterLab server another test of this session started
    results = _workers.ordered_map(_record, [(str(log), i) for i in range(100)], workers=2, batch=1)
    next(results)
    workers = children(os.getpid()) - others
    assert len(workers) >= 2
    results.close()
    assert wait_gone(workers) == set()


def _die(job: int) -> int:
    if job == 7:
        os._exit(3)
    return job


def test_a_worker_that_dies_is_an_error_naming_its_jobs():
    with pytest.raises(_workers.WorkerError, match="exit code 3"):
        list(_workers.ordered_map(_die, list(range(20)), workers=2, batch=1))


def _batch_of(job: tuple[str, int]) -> tuple[int, int]:
    """The job and the pid of the worker process that ran it."""
    return job[1], os.getpid()


def test_weighted_batches_give_a_heavy_job_a_batch_of_its_own_and_keep_the_order():
    weights = [1.0] * 300
    weights[40] = weights[41] = 200.0  # two big files side by side, as three.js's Emscripten builds are
    batches = _workers._batches(list(range(300)), 16, weights, workers=2)
    assert [job for part in batches for job in part] == list(range(300))
    assert [40] in batches and [41] in batches
    assert max(map(len, batches)) <= 16
    results = _workers.ordered_map(_batch_of, [("", i) for i in range(300)], workers=2, batch=16, weights=weights)
    assert [job for job, _ in results] == list(range(300))
