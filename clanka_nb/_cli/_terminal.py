"""What the command line prints: every character a terminal could act on is shown as an escape, never sent raw."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from ..printable import BIDI, UNSAFE, escape, visible

# `visible` (the leaf `printable`, which every warning passes through too) escapes what a terminal could act on;
# on stderr a progress bar redraws its line with a carriage return, and it writes nothing else of the kind.
_UNSAFE_STDERR = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI}]")

__all__ = ["UNSAFE", "escaped_output", "json_safe", "visible"]


def json_safe(text: str) -> str:
    """Encoded JSON with the controls JSON leaves raw (DEL, C1, bidi) as `\\uNNNN` escapes: same data, inert."""
    return UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


class _Escaping:
    """A text stream that escapes what it is given before passing it on (everything else is the stream's own)."""

    def __init__(self, stream: TextIO, pattern: re.Pattern[str]) -> None:
        self._stream = stream
        self._pattern = pattern

    def write(self, text: str) -> int:
        self._stream.write(self._pattern.sub(escape, text))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:  # flush, fileno, isatty, encoding, buffer...
        return getattr(self._stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """While active, everything printed to stdout and stderr (tables, notes, errors, warnings) is escaped.

    The one place the command line's text passes through; files written with -o keep the data exactly, but
    CSV, which has no escapes (see _output.csv_safe).
    """
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = _Escaping(stdout, UNSAFE)
    sys.stderr = _Escaping(stderr, _UNSAFE_STDERR)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr
