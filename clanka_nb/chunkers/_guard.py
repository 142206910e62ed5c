"""One file through a foreign chunker, guarded: its errors, its recursion and its time stay with that file.

A chunker here is someone else's code (a peer library or a user's callable) run on someone else's files. One
file of 10,000 nested brackets makes some peers raise RecursionError and makes others run for minutes; a
user's callable may raise anything. None of that may stop a bake-off: the file is cut into clanka's line
windows instead (the sweep's fallback) and the reason is kept, so one warning can name it.

Three guards, in the order they act:

1. **Input bounds, before the call** (`InputLimits`, peers only): a file nested deeper than `depth` brackets, or
   with a line longer than `line_characters`, is not given to the peer at all. semantic-text-splitter's time grows
   x7-13 per doubling of the nesting depth (0.3 s at 1,000 levels, minutes at 10,000) inside Rust code that no
   timer interrupts, and astchunk takes 7.7 s and 453 MB on one 980 KB line, so a time limit alone would cost
   minutes per file. At the bounds every peer takes milliseconds (benchmarks/bench_hostile.py); real code
   rarely nests past 30 brackets or writes a 20,000-character line outside minified files.
2. **A time limit per file** (`file_seconds`): a call that runs longer falls back. In the main thread a timer
   (SIGALRM) interrupts Python code at the limit; elsewhere (a Dask worker's thread) the call runs to its end and
   falls back afterwards, so the result never depends on the thread: only the waiting does.
3. **Errors**: whatever the chunker's own code raises (RecursionError included) falls back, with the exception's
   type and first line as the reason. A `ChunkerAnswerError` (the chunker answered with something that is not
   spans) is not caught: that is a defect of the adapter on every file, and is reported as one.
"""

from __future__ import annotations

import math
import re
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from ..defaults import CHUNKER_SECONDS
from ..engine.settings import checked_init

FILE_SECONDS = CHUNKER_SECONDS  # the default time limit of one chunker on one file
DEPTH = 256  # brackets nested deeper than this: not given to a peer
LINE_CHARACTERS = 20_000  # a line longer than this: not given to a peer

_BRACKETS = re.compile(r"[()\[\]{}]")


class ChunkerAnswerError(TypeError, ValueError):
    """A chunker answered a file with something that is not its chunks (the adapter's defect, not the file's)."""


@checked_init
@dataclass(frozen=True)
class InputLimits:
    """What a peer is given at most: brackets nested `depth` deep, lines of `line_characters` characters.

    Args:
        depth: The deepest bracket nesting a peer is given.
        line_characters: The longest line a peer is given, in characters.
    """

    depth: int = DEPTH
    line_characters: int = LINE_CHARACTERS

    def over(self, text: str) -> str | None:
        """Why `text` is past these bounds (None: within them)."""
        depth = deepest = 0
        for match in _BRACKETS.finditer(text):
            # Brackets in strings and comments count too: the bound is on the text a parser recurses over, and a
            # closing bracket without its opening one never drives the count below zero.
            depth = depth + 1 if match.group() in "([{" else max(depth - 1, 0)
            if depth > deepest:
                deepest = depth
                if deepest > self.depth:
                    return f"brackets nested more than {self.depth} deep"
        longest = max(map(len, text.split("\n")), default=0)
        if longest > self.line_characters:
            return f"a line of {longest:,} characters (more than {self.line_characters:,})"
        return None


def check_file_seconds(value: object) -> float:
    """`file_seconds` as a positive number of seconds (math.inf: no limit)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (value > 0):
        msg = f"file_seconds must be a positive number of seconds per file (math.inf for no limit), got {value!r:.80}"
        raise ValueError(msg)
    return float(value)


class _TimeUp(BaseException):
    # A BaseException, so that a chunker's own `except Exception` cannot swallow the interruption.
    pass


@dataclass(frozen=True)
class Guarded:
    """One guarded call's answer: the chunker's result, or None with the reason it fell back."""

    result: Any
    reason: str | None
    seconds: float


def guarded_call(call: Callable[[], Any], seconds: float, limits: InputLimits | None, text: str) -> Guarded:
    """`call()` (one chunker on one file) under the three guards of this module."""
    if limits is not None:
        reason = limits.over(text)
        if reason is not None:
            return Guarded(None, reason, 0.0)
    started = time.perf_counter()
    try:
        with _alarm(seconds):
            result = call()
    except ChunkerAnswerError:
        raise
    except _TimeUp:
        return Guarded(None, _late(seconds), time.perf_counter() - started)
    except RecursionError:
        return Guarded(None, "RecursionError: nested too deeply for it", time.perf_counter() - started)
    # The chunker is foreign code: any error it raises is about this file, and stays with this file.
    except Exception as error:  # noqa: BLE001
        return Guarded(None, _described(error), time.perf_counter() - started)
    spent = time.perf_counter() - started
    if spent > seconds:  # not interrupted (another thread, or code a timer cannot reach), but too slow all the same
        return Guarded(None, _late(seconds), spent)
    return Guarded(result, None, spent)


def _late(seconds: float) -> str:
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
