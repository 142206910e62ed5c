"""Parse command-line values (sizes, character limits, comma lists) with messages that say the fix."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

NO_LIMIT = ("none", "inf", "unlimited")


def lines(text: str) -> int:
    """A whole number of lines, e.g. `30` (the engine clamps it the way clanka does)."""
    try:
        return int(text.strip())
    except ValueError:
        msg = f"{text!r} is not a whole number of lines; pass e.g. 30"
        raise argparse.ArgumentTypeError(msg) from None


def max_chars(text: str) -> int | None:
    """A positive whole number of characters, or `none` for no limit."""
    value = text.strip().lower()
    if value in NO_LIMIT:
        return None
    try:
        number = float(value)
    except ValueError:
        msg = f"{text!r} is not a number of characters; pass e.g. 2000, or none for no limit"
        raise argparse.ArgumentTypeError(msg) from None
    if math.isnan(number) or number < 1 or number != math.floor(number):
        msg = f"{text!r} is not a positive whole number of characters; pass e.g. 2000, or none for no limit"
        raise argparse.ArgumentTypeError(msg)
    return int(number)


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
    """A size like ripgrep's --max-filesize: bytes, or a number with K, M or G."""
    value = text.strip().upper()
    number = value[:-1] if value[-1:] in ("K", "M", "G") else value
    if not number.isdigit():
        msg = f"{text!r} is not a size; pass bytes or a number with K, M or G, e.g. 500K or 1M"
        raise argparse.ArgumentTypeError(msg)
    return value


def workers(text: str) -> int:
    """A number of processes, at least 1."""
    try:
        number = int(text.strip())
    except ValueError:
        number = 0
    if number < 1:
        msg = f"{text!r} is not a number of processes; pass 1 or more, e.g. 4"
        raise argparse.ArgumentTypeError(msg)
    return number
