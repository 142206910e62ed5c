"""Every tree-sitter parse of the engine: in the C library's "C" locale, and open to Ctrl-C when long."""

from __future__ import annotations

import ctypes
import locale
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.metadata import version
from typing import Literal

from tree_sitter import Parser, Point, Tree

# The grammars' external scanners classify characters with the C library's `iswspace`/`iswalpha`,
# which follow the thread's LC_CTYPE. Python sets LC_CTYPE from the environment at start-up (under
# C.UTF-8, U+3000 and U+2000-U+200A are spaces), while Node, the reference's runtime, stays in the
# "C" locale, where they are not: the same text then parses into other declarations. So each parse
# runs with a thread-local "C" locale (`uselocale`), put back afterwards; the process's own locale
# (`setlocale`) is never touched, so nothing else in the user's process sees a change.


class _CLocale:
    """POSIX `newlocale`/`uselocale` through ctypes; `handle` is None where the C library lacks them."""

    def __init__(self) -> None:
        self.handle: int | None = None
        self._uselocale: Callable[[int | None], int | None] | None = None
        if sys.platform.startswith("linux"):
            mask = 1 << locale.LC_CTYPE  # glibc and musl: LC_<category>_MASK is 1 << LC_<category>
        elif sys.platform == "darwin" or "bsd" in sys.platform:
            mask = 1 << (locale.LC_CTYPE - 1)  # the BSDs number categories from LC_ALL = 0
        else:
            return  # Windows' C runtime has no uselocale; parsing there follows the process's locale
        try:
            libc = ctypes.CDLL(None)
            newlocale, uselocale = libc.newlocale, libc.uselocale
        except (OSError, AttributeError):
            return
        newlocale.restype, newlocale.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p]
        uselocale.restype, uselocale.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
        # Categories outside the mask come from "C" too (base NULL): the whole thread locale is "C".
        self.handle = newlocale(mask, b"C", None) or None
        self._uselocale = uselocale

    def use(self, handle: int | None) -> int | None:
        """Make `handle` this thread's locale; give the one it replaces (for putting it back)."""
        assert self._uselocale is not None
        return self._uselocale(handle)


@cache
def _c_locale() -> _CLocale:
    return _CLocale()


def locale_guarded() -> bool:
    """Whether parses run in a thread-local "C" locale here (False only where the C library cannot)."""
    return _c_locale().handle is not None


@contextmanager
def c_locale() -> Iterator[None]:
    """This thread in the "C" locale inside the block, its own locale back afterwards (also on errors)."""
    guard = _c_locale()
    if guard.handle is None:
        yield
        return
    previous = guard.use(guard.handle)
    try:
        yield
    finally:
        guard.use(previous)


# Ctrl-C: tree-sitter parses in C without returning to Python, so a KeyboardInterrupt waits for the
# whole parse (6.6 s for one huge file). A text this large (in the bytes handed to tree-sitter, about
# 50 ms of parsing) is fed through a read callback instead, in pieces: Python runs between pieces,
# where a pending Ctrl-C raises. Smaller texts keep the direct call, which costs nothing extra.
INTERRUPTIBLE_FROM = 256 * 1024
_PIECE = 64 * 1024
# py-tree-sitter 0.25+ can also call a progress callback every hundred parse steps (0.24, which the
# `exact` extra installs, has none): Python runs there too, so error recovery that reads no input stays
# interruptible. It is given only from 1 MiB on: called about 10,000 times per MiB, it made the parse of
# the texts between 256 KiB and 1 MiB (three.js's Draco and Ammo builds) a few percent slower, and below
# 1 MiB a whole parse takes about 0.15 s here.
PROGRESS_FROM = 1024 * 1024
_HAS_PROGRESS = tuple(int(part) for part in version("tree-sitter").split(".")[:2]) >= (0, 25)


Encoding = Literal["utf8", "utf16", "utf16le", "utf16be"]
"""The encodings py-tree-sitter reads a source in."""


def parse(parser: Parser, source: bytes, encoding: Encoding = "utf8") -> Tree:
    """`parser.parse(source, encoding=encoding)` in the "C" locale, interruptible by Ctrl-C when long.

    Nodes of the tree may have no `text` (a tree read through a callback keeps no source in
    py-tree-sitter 0.24): slice `source` by their byte offsets instead.
    """
    with c_locale():
        if len(source) < INTERRUPTIBLE_FROM:
            return parser.parse(source, encoding=encoding)
        return _parse_in_pieces(parser, source, encoding)


def _parse_in_pieces(parser: Parser, source: bytes, encoding: Encoding) -> Tree:
    def read(offset: int, _point: Point) -> bytes:
        return source[offset : offset + _PIECE]

    try:
        if _HAS_PROGRESS and len(source) >= PROGRESS_FROM:
            return parser.parse(read, encoding=encoding, progress_callback=_go_on)
        return parser.parse(read, encoding=encoding)
    except SystemError as error:
        parser.reset()  # a parse stopped half-way would otherwise be resumed by this parser's next one
        # A KeyboardInterrupt raised inside the read callback comes out of py-tree-sitter wrapped in
        # SystemErrors (it calls the callback again with the exception set): give the user back theirs.
        if _caused_by_interrupt(error):
            raise KeyboardInterrupt from None
        raise
    except BaseException:
        parser.reset()
        raise


def _go_on(_offset: int, _has_error: bool) -> bool:
    return False  # never cancel: a pending Ctrl-C raises as this Python function is entered


def _caused_by_interrupt(error: BaseException) -> bool:
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
