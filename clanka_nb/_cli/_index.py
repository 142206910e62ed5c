"""Where `clanka-nb index` syncs: in this process (one root, or `--local`), or on a Dask cluster (`--cluster`,
`--dask ADDRESS`, or several roots); either way one `IndexRun`, so the table, notes and exit code are the same.

A cluster's own logging (the scheduler's and the workers') is kept to one-line notes on stderr: no multi-line
warning or traceback of distributed's reaches the terminal.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..printable import visible
from ._errors import CommandError

PROG = "clanka-nb"
# distributed's loggers (its old-style logging configuration names these and gives each its own handler).
DASK_LOGGERS = ("distributed", "distributed.client", "distributed.gc", "bokeh", "tornado", "tornado.application")
_NOTE_CHARACTERS = 300  # a note longer than this is cut: the rest is in the scheduler's own logs
# For the workers' processes, which configure their logging from the environment when they import distributed.
_WORKER_LOGGING = repr({
    "version": 1, "disable_existing_loggers": False,
    "formatters": {"note": {"()": "clanka_nb._cli._index.OneLine"}},
    "handlers": {"note": {"class": "logging.StreamHandler", "formatter": "note", "level": "WARNING"}},
    "loggers": {name: {"handlers": ["note"], "level": "WARNING", "propagate": False} for name in DASK_LOGGERS},
})


def uses_cluster(args: argparse.Namespace) -> bool:
    """Whether the command runs on Dask: a scheduler named, a cluster asked for, or several roots without --local."""
    return bool(args.dask or args.cluster or (len(args.roots) > 1 and not args.local))


def sync(args: argparse.Namespace, embed: Any, progress: bool | None, settings: dict[str, Any]) -> Any:
    """The command's `IndexRun`: in this process, or on the cluster `uses_cluster` picks.

    Args:
        args: The parsed options.
        embed: The embedder.
        progress: The progress bar's setting.
        settings: The chunk settings and language mode, by name.

    Returns:
        Each repository's outcome.

    Raises:
        CommandError: Two roots would write one index, or the scheduler cannot be reached.
    """
    from ..engine.settings import Settings
    from ..index.internals import databases, sync_repositories

    try:
        databases(args.roots, [os.path.abspath(os.path.expanduser(root)) for root in args.roots], None)
    except ValueError as error:
        raise CommandError(str(error), exit_code=2) from None
    if not uses_cluster(args):
        return sync_repositories(args.roots, embed=embed, settings=Settings(**settings), batch_size=args.batch_size,
                                 embed_rate=args.embed_rate, progress=progress)  # fmt: skip
    with one_line_notes():
        return _on_cluster(args, embed, progress, settings)


def _on_cluster(args: argparse.Namespace, embed: Any, progress: bool | None, settings: dict[str, Any]) -> Any:
    from distributed import Client

    from .. import dask

    try:
        client = Client(args.dask) if args.dask else dask.local_client()
    except OSError as error:  # the scheduler cannot be reached (a timeout is an OSError too)
        raise CommandError(f"cannot reach the Dask scheduler at {args.dask!r} ({error}); check the address "
                           "(tcp://host:8786) and that the scheduler is up", exit_code=1) from None
    try:
        return dask.sync_indexes(args.roots, embed=embed, client=client, embed_concurrency=args.embed_concurrency,
                                 embed_rate=args.embed_rate, batch_size=args.batch_size, progress=progress,
                                 **settings)  # fmt: skip
    finally:
        client.close()  # a local cluster, started for this command alone, stops with its client


class OneLine(logging.Formatter):
    """A log record as one note line: `clanka-nb: note: dask: <logger>: <message>`, whitespace (newlines) folded,
    cut at 300 characters, no traceback, every control character escaped."""

    def format(self, record: logging.LogRecord) -> str:
        text = " ".join(record.getMessage().split())
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__})"
        if len(text) > _NOTE_CHARACTERS:
            text = text[: _NOTE_CHARACTERS - 1] + "…"
        return visible(f"{PROG}: note: dask: {record.name}: {text}")


@contextmanager
def one_line_notes() -> Iterator[None]:
    """While a cluster runs: distributed's loggers in this process print one-line notes (warnings and errors,
    `OneLine`) instead of their own multi-line records, and the workers' processes, started meanwhile, log so too
    (unless the user configured Dask's logging: `DASK_LOGGING` is then left alone). Restored after."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    handler.setLevel(logging.WARNING)
    kept = []
    for name in DASK_LOGGERS:
        logger = logging.getLogger(name)
        kept.append((logger, list(logger.handlers), logger.propagate, logger.level))
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    ours = "DASK_LOGGING" not in os.environ and "DASK_DISTRIBUTED__LOGGING" not in os.environ
    if ours:
        os.environ["DASK_LOGGING"] = _WORKER_LOGGING
    try:
        yield
    finally:
        if ours:
            os.environ.pop("DASK_LOGGING", None)
        for logger, handlers, propagate, level in kept:
            logger.removeHandler(handler)
            for old in handlers:
                logger.addHandler(old)
            logger.propagate, logger.level = propagate, level
