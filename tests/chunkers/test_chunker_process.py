"""A peer is bounded by what it costs (issue 50, item 3): the depth of a file's syntax tree, not its brackets, bounds
its input; it runs in a process of its own, killed at its time limit wherever the sweep runs; and each chunker has a
time budget per sweep. A file it could not cut in time is counted and named, never lost.

Every wait here ends on an event (the process answered, or it is gone); no test asserts a duration.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import signal
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import chunkers
from tests._shared import as_in_a_terminal, run_cli
from tests.chunkers._files import need_peer

BUDGET = chunkers.Budget(1500, characters_per_non_whitespace=1.4)


def else_if_chain(links: int) -> str:
    """One function of `links` `else if` links: one bracket deep, its syntax tree about twice `links` deep."""
    body = "".join(f"  else if (x === {i}) {{ a({i}); }}\n" for i in range(1, links))
    return f"function f(x) {{\n  if (x === 0) {{ a(0); }}\n{body}}}\n"


def _quietly(chunker, texts):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = chunkers.chunk_with(chunker, texts)
    return result, caught


# A peer-like adapter whose work never returns on one file: it writes its process id to the path the file's text
# names, then waits with every signal a timer could send blocked, as code in Rust or C would hold the thread.
def _stuck_split(path: str, text: str) -> list[chunkers.Span]:
    if path.startswith("stuck"):
        Path(text).write_text(str(os.getpid()))
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})
        threading.Event().wait()
    if path.startswith("crash"):
        os.kill(os.getpid(), signal.SIGKILL)
    if path.startswith("wrong"):
        raise chunkers.ChunkerAnswerError(f"chunker 'stuck' gave lines 0..0 for {path!r}")
    if path.startswith("unplaced"):
        warnings.warn("a chunk of \x1b]0;x\x07 was not placed", chunkers.UnplacedChunkWarning, stacklevel=1)
    return [chunkers.Span(1, 1)]


def stuck_adapter(**limits: float) -> chunkers.Adapter:
    """The stuck adapter, run as a peer: in a process of its own, built again there by this function."""
    return chunkers.Adapter("stuck", _stuck_split, isolated=functools.partial(stuck_adapter, **limits), **limits)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks")
def test_a_peer_stuck_where_no_timer_reaches_is_killed_at_its_limit_and_the_next_file_goes_on(tmp_path) -> None:
    pid_file = tmp_path / "pid"
    texts = {"stuck.py": str(pid_file), "after.py": "x = 1\n"}
    result, _ = _quietly(stuck_adapter(file_seconds=0.5), texts)
    assert result.failed == {"stuck.py": "took longer than the time limit of 0.5 s per file (its process was stopped)"}
    assert result.timed_out == ("stuck.py",)
    assert result.spans == {"after.py": [chunkers.Span(1, 1)]}  # a fresh process took the next file
    assert _gone(int(pid_file.read_text()))  # killed and reaped: nothing of it is left running


def test_a_peer_s_process_that_dies_on_a_file_loses_that_file_alone() -> None:
    result, _ = _quietly(stuck_adapter(), {"crash.py": "", "after.py": "x = 1\n"})
    assert result.failed == {"crash.py": "its process ended on this file (killed by SIGKILL)"}
    assert result.timed_out == () and result.spans == {"after.py": [chunkers.Span(1, 1)]}


def test_a_wrong_answer_in_a_peer_s_process_is_the_adapter_s_defect_here_too() -> None:
    with pytest.raises(chunkers.ChunkerAnswerError, match=r"gave lines 0\.\.0 for 'wrong\.py'"):
        chunkers.chunk_with(stuck_adapter(), {"wrong.py": ""})


CTRL_C = """
import os, signal, sys, threading
from pathlib import Path
from clanka_nb import chunkers
from tests.chunkers.test_chunker_process import stuck_adapter
pid_file = Path(sys.argv[1])

def interrupt_once_stuck():
    while not pid_file.exists() or not pid_file.read_text():  # the peer has written its id: it is stuck
        threading.Event().wait(0.01)
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=interrupt_once_stuck, daemon=True).start()
try:
    chunkers.chunk_with(stuck_adapter(file_seconds=float("inf")), {"stuck.py": str(pid_file)})
except KeyboardInterrupt:
    try:  # before this process ends (which would end its daemonic children too): is the peer's already gone?
        os.kill(int(pid_file.read_text()), 0)
    except ProcessLookupError:
        print("interrupted, its process gone", flush=True)
    else:
        print("interrupted, its process still there", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks")
def test_ctrl_c_while_a_peer_is_stuck_ends_its_process(tmp_path) -> None:
    pid_file = tmp_path / "pid"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", CTRL_C, str(pid_file)], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300, check=False, preexec_fn=as_in_a_terminal)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "interrupted, its process gone", done.stderr[-2000:]


def test_a_peer_s_warnings_reach_the_caller_with_no_raw_terminal_escape() -> None:
    result, caught = _quietly(stuck_adapter(), {"unplaced.py": ""})
    assert result.spans == {"unplaced.py": [chunkers.Span(1, 1)]}
    relayed = [str(w.message) for w in caught if issubclass(w.category, chunkers.UnplacedChunkWarning)]
    assert relayed == ["a chunk of \\x1b]0;x\\x07 was not placed"]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks")
def test_the_budget_per_sweep_bounds_the_run_and_names_every_file_left(tmp_path) -> None:
    pid_file = tmp_path / "pid"
    texts = {"stuck.py": str(pid_file), "a.py": "x = 1\n", "b.py": "y = 2\n"}
    result, caught = _quietly(stuck_adapter(file_seconds=math.inf, total_seconds=0.5), texts)
    spent = "its time budget of 0.5 s per sweep was spent (total_seconds)"
    assert result.failed == dict.fromkeys(texts, spent) and not result.spans
    assert result.timed_out == tuple(texts)
    assert _gone(int(pid_file.read_text()))
    message = next(str(w.message) for w in caught if issubclass(w.category, chunkers.ChunkerFallbackWarning))
    assert "failed on 3 of 3 files" in message and spent in message


def test_a_chunker_in_this_process_keeps_to_its_budget_too() -> None:
    def slow(path: str, text: str) -> list[tuple[int, int]]:
        threading.Event().wait(0.2)
        return [(1, 1)]

    texts = {f"f{number}.py": "x = 1\n" for number in range(5)}
    result, _ = _quietly(chunkers.as_chunker(slow, "slow", total_seconds=0.3), texts)
    assert "f4.py" in result.failed  # four calls of at least 0.2 s each cannot fit 0.3 s
    assert set(result.failed) == set(result.timed_out) and set(result.failed) | set(result.spans) == set(texts)
    assert all("per sweep was spent" in reason for reason in result.failed.values())


def test_a_sweep_row_counts_the_files_its_chunker_could_not_cut_in_time(tmp_path) -> None:
    (tmp_path / "stuck.py").write_text(str(tmp_path / "pid"), encoding="utf-8")
    (tmp_path / "z.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    with pytest.warns(chunkers.ChunkerFallbackWarning, match="per sweep was spent"):
        table = cn.sweep(tmp_path, chunk_size=[30], progress=False,
                         chunkers={"stuck": stuck_adapter(total_seconds=0.5), "windows": chunkers.line_windows(30)})
    rows = table.set_index("chunker_label")
    assert rows.loc["stuck", "timed_out_files"] == 2 and rows.loc["stuck", "fallback_files"] == 2
    assert rows.loc["windows", "timed_out_files"] == 0 and rows.loc["clanka", "timed_out_files"] == 0


def test_an_else_if_chain_one_bracket_deep_is_refused_by_its_syntax_tree_depth() -> None:
    need_peer("semantic_text_splitter")
    texts = {"deep.js": else_if_chain(300), "shallow.js": else_if_chain(60)}  # about 600 and 120 levels
    result, _ = _quietly(chunkers.semantic_text_splitter(BUDGET), texts)
    assert result.failed == {"deep.js": "a syntax tree more than 256 levels deep"}
    assert set(result.spans) == {"shallow.js"}


def test_semantic_text_splitter_past_its_limit_in_rust_is_killed_there() -> None:
    need_peer("semantic_text_splitter")
    # Within a raised depth bound, 1,000 links cost it tens of seconds in Rust code no timer interrupts.
    unbounded = dataclasses.replace(chunkers.semantic_text_splitter(BUDGET),
                                    limits=chunkers.InputLimits(depth=1_000_000), file_seconds=1)  # fmt: skip
    result, _ = _quietly(unbounded, {"chain.js": else_if_chain(1_000), "plain.js": "const a = 1;\n"})
    assert result.failed == {"chain.js": "took longer than the time limit of 1 s per file (its process was stopped)"}
    assert result.timed_out == ("chain.js",) and set(result.spans) == {"plain.js"}


def test_the_budget_is_checked_and_given_on_the_command_line(capsys) -> None:
    for bad in (0, -1, float("nan"), "10", True):
        with pytest.raises(ValueError, match="total_seconds must be a positive number of seconds per sweep"):
            chunkers.as_chunker(lambda path, text: None, total_seconds=bad)
    adapters = chunkers.named_chunkers(["line-windows"], BUDGET, total_seconds=7)
    assert [adapter.total_seconds for adapter in adapters.values()] == [7.0]
    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunker-total-seconds", "5")
    assert status == 2 and "--chunker-total-seconds applies to the chunkers of --chunkers" in err
    status, _, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunkers", "line-windows",
                             "--chunker-total-seconds", "soon")  # fmt: skip
    assert status == 2 and "is not a number of seconds" in err and err.count("\n") <= 2


def test_the_command_line_s_table_shows_the_files_a_spent_budget_left_uncut(capsys) -> None:
    status, out, err = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--chunkers",
                               "line-windows", "--chunker-total-seconds", "1e-9", "--format", "json")  # fmt: skip
    assert status == 0, err
    rows = {row["chunker_label"]: row for row in json.loads(out)}
    files = len(cn.list_files(cn.sample_codebase()))
    windows = next(row for label, row in rows.items() if label.startswith("line windows"))
    assert windows["timed_out_files"] == windows["fallback_files"] == files
    assert rows["clanka"]["timed_out_files"] == 0
    status, out, _ = run_cli(capsys, "sweep", str(cn.sample_codebase()), "--chunk-size", "30", "--chunkers",
                             "line-windows", "--chunker-total-seconds", "1e-9")  # fmt: skip
    assert status == 0 and "timed_out_files" in out.splitlines()[0]
