"""The `clanka-nb` command line: chunk, list files, sweep settings, or open the notebooks in JupyterLab.

Heavy modules (pandas, tree-sitter) load only once a command runs, so `clanka-nb --help` is instant.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._cli import _parser
from ._cli._errors import CommandError

if TYPE_CHECKING:
    from . import engine

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run `clanka-nb` with `argv` (default: the process arguments) and return the exit code."""
    args = _parser.build().parse_args(argv)
    try:
        if args.command == "lab":
            from ._cli._lab import run_lab

            return run_lab(args.notebooks, args.jupyter_args, dry_run=args.dry_run)
        return _COMMANDS[args.command](args)
    except CommandError as error:
        print(f"{_parser.PROG}: error: {error}", file=sys.stderr)
        return error.exit_code
    except PermissionError as error:
        print(f"{_parser.PROG}: error: permission denied for {error.filename!r}; "
              "pick a path this user may read (or write, for -o)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{_parser.PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `clanka-nb chunk . | head` closes stdout early: not an error worth a traceback. Point stdout
        # at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _chunk(args: argparse.Namespace) -> int:
    from . import frames
    from ._cli import _output

    _output.check_destination(args.format, args.output)
    source = _source(args, folder_only=False)
    options = _options(args)
    if _is_codebase(source):
        options["languages"] = None  # the one-file Codebase was already read with args.languages
    frame = frames.chunk_codebase(source, **options)
    _output.write(frame, args.format, args.output, table=_output.chunk_table(frame))
    return 0


def _files(args: argparse.Namespace) -> int:
    from . import frames
    from ._cli import _output

    _output.check_destination(args.format, args.output)
    source = _source(args, folder_only=True)
    frame = frames.files(source, **_options(args))
    _output.write(frame, args.format, args.output)
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from . import frames
    from ._cli import _output

    _output.check_destination(args.format, args.output)
    source = _source(args, folder_only=True)
    frame = frames.sweep(source, **_options(args))
    _output.write(frame, args.format, args.output, table=_output.sweep_table(frame))
    return 0


_COMMANDS = {"chunk": _chunk, "files": _files, "sweep": _sweep}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments every frames function of the commands takes, from the parsed options."""
    return {
        "chunk_size": args.chunk_size,
        "chunk_overlap": args.chunk_overlap,
        "chunk_max_characters": args.max_chars,
        "max_file_size": args.max_file_size,
        "workers": args.workers,
        "progress": _progress(args),
        "languages": args.languages,
    }


def _progress(args: argparse.Namespace) -> bool | None:
    """A bar on stderr after a second of work, only when stderr is a terminal (never in pipes or logs)."""
    return None if not args.quiet and sys.stderr.isatty() else False


def _is_codebase(source: Any) -> bool:
    from . import engine

    return isinstance(source, engine.Codebase)


def _source(args: argparse.Namespace, *, folder_only: bool) -> str | engine.Codebase:
    """The folder to chunk, or a one-file Codebase when PATH is a file; settings checked first."""
    from . import engine

    _check_settings(args)
    path = Path(args.path).expanduser()
    if not path.exists():
        what = "folder" if folder_only else "folder or file"
        msg = f"{args.path!r} does not exist; pass the path of a {what} of source code"
        raise CommandError(msg, exit_code=1)
    if path.is_dir():
        return str(path)
    if folder_only:
        msg = f"{args.path!r} is a file; {args.command} needs a folder: pass its folder {str(path.parent)!r}"
        raise CommandError(msg, exit_code=1)
    if not engine.is_meaningful_file(path.name) and not args.quiet:
        print(
            f"{_parser.PROG}: note: clanka never indexes a file named {path.name!r} (by its extension), "
            "so it has no chunks",
            file=sys.stderr,
        )
    codebase = engine.Codebase(path.parent, paths=[path.name], languages=args.languages, workers=1)
    report = codebase.report(path.name)
    if report.status is engine.FileStatus.NOT_INDEXED and engine.is_meaningful_file(path.name):
        # Refused, not merely empty: a link leading out of its folder is never read.
        print(f"{_parser.PROG}: note: {args.path!r} {report.reason}", file=sys.stderr)
    return codebase


def _check_settings(args: argparse.Namespace) -> None:
    """Reject an unknown language mode; say when a size or overlap is clamped as clanka clamps it."""
    from . import engine

    if args.languages not in engine.LANGUAGE_MODES:
        modes = ", ".join(engine.LANGUAGE_MODES)
        msg = f"--languages {args.languages!r} is not a language mode; pass one of {modes}"
        raise CommandError(msg, exit_code=2)
    sizes = args.chunk_size if isinstance(args.chunk_size, list) else [args.chunk_size]
    overlaps = args.chunk_overlap if isinstance(args.chunk_overlap, list) else [args.chunk_overlap]
    if args.quiet:
        return
    for size in sizes:
        for overlap in overlaps:
            settings = engine.ChunkSettings.build(size, overlap)
            if settings.clamped:
                print(
                    f"{_parser.PROG}: note: --chunk-size {size} --chunk-overlap {overlap} is used as "
                    f"{settings.chunk_size} and {settings.chunk_overlap} (clanka clamps the size to at least 1 "
                    "and the overlap to 0..size-1)",
                    file=sys.stderr,
                )


if __name__ == "__main__":
    sys.exit(main())
