"""The one error type the command line reports as a single line with an exit code."""

from __future__ import annotations


class CommandError(Exception):
    """An expected failure: printed as `clanka-nb: error: <message>`, exit code 1 (paths) or 2 (usage)."""

    def __init__(self, message: str, *, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code
