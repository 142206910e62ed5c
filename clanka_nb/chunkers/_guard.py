"""One file through a foreign chunker, guarded: its errors, its recursion and its time stay with that file.

A chunker here is someone else's code (a peer library or a user's callable) run on someone else's files. One
file of 10,000 nested brackets makes some peers raise RecursionError and makes others run for minutes; a
user's callable may raise anything. None of that may stop a bake-off: the file is cut into clanka's line
windows instead (the sweep's fallback) and the reason is kept, so one warning can name it.

Four guards, in the order they act:

1. **Input bounds, before the call** (`InputLimits`, peers only): a file whose syntax tree (the file parsed with its
   language's grammar, as the peers parse it) is more than `depth` levels deep, or with a line longer than
   `line_characters`, is not given to the peer at all. The tree's depth, not the brackets': 1,000 `else if` links
   are one bracket deep and 2,000 levels of tree, and semantic-text-splitter's time grows about x8 per doubling of
   it (56 s at 1,000 links); astchunk takes 7.7 s and 453 MB on one 980 KB line. Real code stays far below the
   bound (the deepest of 7,300 files of the standard library, pandas and numpy: 42, but for one generated header).
   The check costs a parse, linear in the file (seconds for 1 MB of brackets), so it runs where the peer runs,
   inside its time limit.
2. **A time limit per file** (`file_seconds`): a call that runs longer falls back. A peer runs in a process of its
   own (`_process.py`), killed at the limit wherever the sweep runs, so no code of its own, Rust or C included,
   holds the sweep. Another chunker runs in this process: in the main thread a timer (SIGALRM) interrupts Python
   code at the limit; elsewhere (a Dask worker's thread) the call runs to its end and falls back afterwards, so the
   result never depends on the thread: only the waiting does.
3. **A time budget per sweep** (`total_seconds`): one chunker's calls over all the files of one run; each file's
   limit is cut to what is left of it, and once it is spent the remaining files are not given to the chunker.
   Every file it could not cut in time is in `ChunkedWith.failed` and `timed_out` (the sweep row's
   `timed_out_files`).
4. **Errors**: whatever the chunker's own code raises (RecursionError included) falls back, with the exception's
   type and first line as the reason. A `ChunkerAnswerError` (the chunker answered with something that is not
   spans) is not caught: that is a defect of the adapter on every file, and is reported as one.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from tree_sitter import Node

from ..defaults import CHUNKER_SECONDS, CHUNKER_TOTAL_SECONDS
from ..engine import language_of, syntax_tree
from ..engine.settings import checked_init

FILE_SECONDS = CHUNKER_SECONDS  # the default time limit of one chunker on one file
TOTAL_SECONDS = CHUNKER_TOTAL_SECONDS  # the default time budget of one chunker over one sweep's files
DEPTH = 256  # a syntax tree deeper than this: not given to a peer
LINE_CHARACTERS = 20_000  # a line longer than this: not given to a peer


class ChunkerAnswerError(TypeError, ValueError):
    """A chunker answered a file with something that is not its chunks (the adapter's defect, not the file's)."""


@checked_init
@dataclass(frozen=True)
class InputLimits:
    """What a peer is given at most: a syntax tree `depth` levels deep, lines of `line_characters` characters.

    Args:
        depth: The deepest syntax tree a peer is given, in levels below the root (the file parsed with its
            language's grammar; a file of no grammar here has no tree, and no depth bound).
        line_characters: The longest line a peer is given, in characters.
    """

    depth: int = DEPTH
    line_characters: int = LINE_CHARACTERS

    def over(self, path: str, text: str) -> str | None:
        """Why the file `path` holding `text` is past these bounds (None: within them)."""
        longest = max(map(len, text.split("\n")), default=0)
        if longest > self.line_characters:
            return f"a line of {longest:,} characters (more than {self.line_characters:,})"
        root = syntax_tree(text, language_of(path))
        if root is not None and tree_depth(root, self.depth) > self.depth:
            return f"a syntax tree more than {self.depth} levels deep"
        return None


def tree_depth(root: Node, bound: float = math.inf) -> int:
    """How many levels below `root` its deepest node lies, walked without recursion; the walk stops as soon as it
    passes `bound` (the depth returned is then `bound + 1`)."""
    cursor = root.walk()
    depth = deepest = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > bound:
                    return deepest
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return deepest
            depth -= 1


_PER = {"file_seconds": "per file", "total_seconds": "per sweep"}


def check_seconds(name: str, value: object) -> float:
    """A time limit of a chunker, `file_seconds` or `total_seconds`, as a positive number of seconds (math.inf: no
    limit); anything else is a ValueError naming the setting and the fix."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (value > 0):
        msg = (f"{name} must be a positive number of seconds {_PER[name]} (math.inf for no limit), "
               f"got {value!r:.80}")  # fmt: skip
        raise ValueError(msg)
    return float(value)


class _TimeUp(BaseException):
    # A BaseException, so that a chunker's own `except Exception` cannot swallow the interruption.
    pass


@dataclass(frozen=True)
class Guarded:
    """One guarded call's answer: the chunker's result, or None with the reason it fell back (`timed_out`: the
    reason is its time limit or its budget)."""

    result: Any
    reason: str | None
    seconds: float
    timed_out: bool = False


def guarded_call(call: Callable[[], Any], seconds: float, limits: InputLimits | None, path: str,
                 text: str) -> Guarded:  # fmt: skip
    """`call()` (one chunker on the file `path` holding `text`) under the guards of this module, in this process."""
    if limits is not None:
        reason = limits.over(path, text)
        if reason is not None:
            return Guarded(None, reason, 0.0)
    started = time.perf_counter()
    try:
        with _alarm(seconds):
            result = call()
    except ChunkerAnswerError:
        raise
    except _TimeUp:
        return Guarded(None, late(seconds), time.perf_counter() - started, timed_out=True)
    except RecursionError:
        return Guarded(None, "RecursionError: nested too deeply for it", time.perf_counter() - started)
    # The chunker is foreign code: any error it raises is about this file, and stays with this file.
    except Exception as error:  # noqa: BLE001
        return Guarded(None, _described(error), time.perf_counter() - started)
    spent = time.perf_counter() - started
    if spent > seconds:  # not interrupted (another thread, or code a timer cannot reach), but too slow all the same
        return Guarded(None, late(seconds), spent, timed_out=True)
    return Guarded(result, None, spent)


def late(seconds: float) -> str:
    """The reason of a file a chunker ran past its time limit on."""
    return f"took longer than the time limit of {seconds:g} s per file"


def _described(error: BaseException) -> str:
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    # A reason goes into a warning: printable characters only, and never a whole page of it.
    first = "".join(ch if ch.isprintable() else "?" for ch in first)[:160]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


class _alarm:
    """Interrupt the block after `seconds` with `_TimeUp`, where a timer can: in the main thread, on a platform
    with SIGALRM, with no other timer of the program's running. Elsewhere it does nothing."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.armed = False
        self.previous: Any = None

    def __enter__(self) -> None:
        if (
            math.isinf(self.seconds)
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0  # the program's own timer: leave it alone
        ):
            return
        self.previous = signal.signal(signal.SIGALRM, _time_up)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        self.armed = True

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


def _time_up(signum: int, frame: FrameType | None) -> None:
    raise _TimeUp
