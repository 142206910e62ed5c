"""Parse command-line values (sizes, character limits, comma lists) with messages that say the fix."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

NO_LIMIT = ("none", "inf", "unlimited")


def _ascii_int(text: str) -> int:
    """int(text) for ASCII digits only: Python's int() also reads '١٢' (Arabic-Indic digits) as 12."""
    if not text.strip().isascii():
        raise ValueError(text)
    return int(text.strip())


def lines(text: str) -> int:
    """A whole number of lines, e.g. `30` (the engine clamps it the way clanka does)."""
    try:
        return _ascii_int(text)
    except ValueError:
        msg = f"{text!r} is not a whole number of lines; pass e.g. 30"
        raise argparse.ArgumentTypeError(msg) from None


def max_chars(text: str) -> float | None:
    """A number of characters, or `none` for no limit; used as the library uses it (below 1 is clamped to 1)."""
    value = text.strip().lower()
    if value in NO_LIMIT:
        return None
    try:
        if not value.isascii():
            raise ValueError(value)
        number = float(value)
    except ValueError:
        msg = f"{text!r} is not a number of characters; pass e.g. 2000, or none for no limit"
        raise argparse.ArgumentTypeError(msg) from None
    if math.isnan(number):
        msg = f"{text!r} is not a number of characters; pass e.g. 2000, or none for no limit"
        raise argparse.ArgumentTypeError(msg)
    # Whole numbers stay ints (as they would be typed in Python); 1e400 is inf: no limit, as in the library.
    return int(number) if number.is_integer() else number


def comma_list(parse: Callable[[str], T]) -> Callable[[str], list[T]]:
    """A parser for `a,b,c` that applies `parse` to each item."""

    def parse_list(text: str) -> list[T]:
        items = [item for item in text.split(",") if item.strip()]
        if not items:
            msg = f"{text!r} holds no values; pass a comma-separated list such as 10,20,30"
            raise argparse.ArgumentTypeError(msg)
        return [parse(item) for item in items]

    parse_list.__name__ = f"list of {parse.__name__}"
    return parse_list


def file_size(text: str) -> str:
    """A size like ripgrep's --max-filesize: bytes, or a number with K, M or G (ASCII digits only)."""
    from ..engine.settings import parse_size  # the library's one rule, imported only once a size is given

    try:
        parse_size(text)
    except ValueError:
        msg = f"{text!r} is not a size; pass bytes or a number with K, M or G, e.g. 500K or 1M"
        raise argparse.ArgumentTypeError(msg) from None
    return text.strip().upper()


def workers(text: str) -> int:
    """A number of processes, at least 1 and at most the library's limit (4 per core)."""
    from ..engine.settings import check_workers, max_workers

    try:
        number = _ascii_int(text)
    except ValueError:
        number = 0
    if number < 1:
        msg = f"{text!r} is not a number of processes; pass 1 or more, e.g. 4"
        raise argparse.ArgumentTypeError(msg)
    try:
        return check_workers(number)
    except ValueError:
        most = max_workers()
        msg = f"{text!r} is more processes than 4 per core ({most} on this machine); pass {most} or fewer"
        raise argparse.ArgumentTypeError(msg) from None


def _at_least_one(text: str, what: str, example: str) -> int:
    """A whole number of 1 or more, else one line naming `what` it should be and an `example` option."""
    try:
        number = _ascii_int(text)
    except ValueError:
        number = 0
    if number < 1:
        msg = f"{text!r} is not {what}; pass {example}"
        raise argparse.ArgumentTypeError(msg)
    return number


def cutoff(text: str) -> int:
    """A cut-off of recall@K: a whole number, at least 1."""
    return _at_least_one(text, "a cut-off", "whole numbers of 1 or more, e.g. --k 1,5,10")


def tokens(text: str) -> int:
    """A token budget of the probe: a whole number, at least 1."""
    return _at_least_one(text, "a number of tokens", "whole numbers of 1 or more, e.g. --budget 1000,2000")


def characters(text: str) -> int:
    """A chunker budget in characters per chunk: a whole number, at least 1."""
    return _at_least_one(text, "a number of characters", "a whole number of 1 or more, e.g. --chunker-budget 1500")


def share(text: str) -> float:
    """The share of distractor chunks a sampled probe indexes: a number in (0, 1]."""
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not 0 < number <= 1:
        msg = f"{text!r} is not a share; pass a number above 0 and at most 1, e.g. --sample 0.25"
        raise argparse.ArgumentTypeError(msg)
    return number


def seconds(text: str) -> float:
    """A time limit in seconds: a number above 0, or `none` for no limit."""
    value = text.strip().lower()
    if value in NO_LIMIT:
        return math.inf
    try:
        if not value.isascii():
            raise ValueError(value)
        number = float(value)
    except ValueError:
        number = -1.0
    if not number > 0:  # NaN too
        msg = f"{text!r} is not a number of seconds; pass a number above 0, e.g. --chunker-seconds 10, or none"
        raise argparse.ArgumentTypeError(msg)
    return number


def margin(text: str) -> float | str:
    """The verdict's equivalence margin: a number between 0 and 1, or `none` (no equivalence test)."""
    value = text.strip().lower()
    if value in NO_LIMIT or value == "off":
        return "none"
    try:
        number = float(value) if value.isascii() else -1.0
    except ValueError:
        number = -1.0
    if not 0 < number < 1:
        msg = f"{text!r} is not a margin; pass the smallest difference of the metric that matters, e.g. --margin 0.02"
        raise argparse.ArgumentTypeError(msg + ", or none")
    return number


def calls(text: str) -> int:
    """Embedder calls in flight (or per batch: inputs) on the whole cluster: a whole number, at least 1."""
    return _at_least_one(text, "a whole number of 1 or more", "e.g. --embed-concurrency 8 or --batch-size 300")


def rate(text: str) -> float:
    """Embedder calls per second: a finite number above 0."""
    try:
        number = float(text) if text.strip().isascii() else -1.0
    except ValueError:
        number = -1.0
    if not 0 < number < math.inf:  # NaN too
        msg = f"{text!r} is not a rate; pass a number of calls per second above 0, e.g. --embed-rate 50"
        raise argparse.ArgumentTypeError(msg)
    return number


def named(suffix: str) -> Callable[[str], str]:
    """A file to write whose name ends in `suffix` (".html", ".svg", ".png"): the format is the suffix's."""

    def parse(text: str) -> str:
        if not text.lower().endswith(suffix) or text.startswith("-"):
            msg = f"{text!r} must be a file name ending in {suffix}, e.g. view{suffix}"
            raise argparse.ArgumentTypeError(msg)
        return text

    return parse
