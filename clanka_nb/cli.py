"""The `clanka-nb` command line: chunk, list files, sweep settings, or open the notebooks in JupyterLab.

Heavy modules (pandas, tree-sitter) load only once a command runs, so `clanka-nb --help` is instant.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import shlex
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._cli import _parser, _terminal
from ._cli._errors import CommandError
from .defaults import CHUNK_SETTING_NAMES, CHUNKER_BUDGET, SETTING_NAMES
from .extras import missing_extra

if TYPE_CHECKING:  # the command imports the library lazily: --help and bad options answer at once
    from .chunkers import Chunker
    from .retrieval import Probe

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run `clanka-nb` with `argv` (default: the process arguments) and return the exit code."""
    # Everything the command prints passes through one filter: names and text from a repository never
    # reach the terminal as control sequences.
    with _terminal.escaped_output():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = _parser.build().parse_args(argv)
    try:
        if args.command == "lab":
            from ._cli._lab import run_lab

            return run_lab(args.notebooks, args.jupyter_args, dry_run=args.dry_run)
        with warnings.catch_warnings():
            # A warning of the library is a note like the command's own (or nothing, with -q), never a
            # Python warning with its source line.
            warnings.showwarning = _note_warning(quiet=getattr(args, "quiet", False))
            # Each call's own (the library says each thing once a call); other categories keep Python's
            # defaults, so a ResourceWarning or a DeprecationWarning stays out of a user's terminal.
            warnings.simplefilter("always", UserWarning)
            from .engine import SettingClampedWarning

            # Said once, as a note, by _check_settings: the work itself must not say it again.
            warnings.simplefilter("ignore", SettingClampedWarning)
            if hasattr(args, "output"):
                _destination(args)
            return _COMMANDS[args.command](args)
    except CommandError as error:
        print(f"{_parser.PROG}: error: {error}", file=sys.stderr)
        return error.exit_code
    except ModuleNotFoundError as error:
        said = missing_extra(error, f"{_parser.PROG} {args.command}")
        if said is None:
            raise
        print(f"{_parser.PROG}: error: {said}", file=sys.stderr)
        return 1
    except PermissionError as error:
        print(f"{_parser.PROG}: error: permission denied for {error.filename!r}; "
              "pick a path this user may read (or write, for -o)", file=sys.stderr)
        return 1
    except BrokenProcessPool as error:  # a worker was killed: its message names the files it may have held
        print(f"{_parser.PROG}: error: {error}".replace("workers=1", "--workers 1"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{_parser.PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `clanka-nb chunk . | head` closes stdout early: not an error worth a traceback. Point stdout
        # at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _note_warning(*, quiet: bool) -> Callable[..., None]:
    """A `warnings.showwarning` that prints `clanka-nb: note: <message>` on one line, once per message (none with
    -q)."""
    said: set[str] = set()

    def show(message: Warning | str, _category: object = None, filename: object = "", *_args: object,
             **_kwargs: object) -> None:  # fmt: skip
        text = " ".join(str(message).split())  # one line: a foreign warning (distributed's) may span several
        if f"{os.sep}distributed{os.sep}" in str(filename):  # a cluster's own ("Port 8787 is already in use")
            text = f"dask: {text}"
        if not quiet and text not in said:
            said.add(text)
            print(f"{_parser.PROG}: note: {text}", file=sys.stderr)

    return show


def _destination(args: argparse.Namespace) -> None:
    """Settle the output format (from -o's extension unless --format says it) and check -o before any work:
    the one place for every command that writes a table."""
    from ._cli import _output

    args.format = _output.resolve_format(args.format, args.output)
    _output.check_destination(args.format, args.output)


def _pages(args: argparse.Namespace) -> dict[str, str]:
    """The pages and pictures asked for (--html, --svg, --png, --report) by format, their folders checked before any
    work: a missing folder exits 1 now, not after the sweep."""
    asked = {name: str(path) for name in ("html", "svg", "png", "report") if (path := getattr(args, name, None))}
    for path in asked.values():
        folder = Path(path).expanduser().parent
        if not folder.is_dir():
            raise CommandError(f"cannot write {path!r}: the folder {str(folder)!r} does not exist; create it first",
                               exit_code=1)  # fmt: skip
    return asked


def _chunk(args: argparse.Namespace) -> int:
    from . import engine, frames
    from ._cli import _output

    pages = _pages(args)
    try:
        frame = frames.chunk_codebase(_source(args), **_options(args))
    except engine.FileTooLargeError as error:
        raise CommandError(str(error), exit_code=1) from None
    _mode_note(args, frame)
    _output.write(frame, args.format, args.output, table=_output.chunk_table(frame),
                  essential=_output.CHUNK_TABLE_COLUMNS)  # fmt: skip
    if "html" in pages:
        from . import widgets

        widgets.browse(frame).save(pages["html"])
    return 0


def _mode_note(args: argparse.Namespace, frame: Any) -> None:
    """The frame's note that most files got line windows though extended mode parses them (none in extended mode)."""
    if frame.attrs.get("mode_note") and not args.quiet:
        print(f"{_parser.PROG}: note: {frame.attrs['mode_note']}", file=sys.stderr)


def _files(args: argparse.Namespace) -> int:
    from . import frames
    from ._cli import _output

    source = _source(args)  # one file is listed alone, as by cn.files
    frame = frames.files(source, **_options(args), include_skipped=args.include_skipped)
    _mode_note(args, frame)
    _output.write(frame, args.format, args.output, essential=_output.FILES_ESSENTIAL,
                  priority=_output.FILES_PRIORITY)  # fmt: skip
    return 0


# The sweep's options that are the probe's (`Probe`'s fields of the same names); each needs --probe.
PROBE_OPTIONS = ("k", "sample", "budget", "metric", "margin", "targets")


def _probe(args: argparse.Namespace) -> Probe:
    """The one `Probe` of the command's options: its checks are the library's, their errors exit 2."""
    from .retrieval import Probe

    given = {flag: getattr(args, flag) for flag in PROBE_OPTIONS if getattr(args, flag) is not None}
    if given.get("margin") == "none":
        given["margin"] = None
    if args.confirm_model is not None:
        given["confirm"] = _confirm_model(args.confirm_model)
    try:
        return Probe(**given)
    except ValueError as error:
        raise CommandError(str(error), exit_code=2) from None


def _confirm_model(folder: str) -> object:
    """`--confirm-model FOLDER`: the sentence-transformers model that confirms BM25's screen (`Probe(confirm=)`)."""
    from .extras import MissingExtraError
    from .index import embedders

    try:
        return embedders.sentence_transformers(folder)
    except MissingExtraError as error:
        raise CommandError(f"--confirm-model: {error}", exit_code=1) from None
    except (ValueError, OSError) as error:
        raise CommandError(f"--confirm-model: {error}", exit_code=2) from None


def _chunkers(args: argparse.Namespace, source: str) -> Mapping[str, Chunker] | None:
    """`--chunkers` as the sweep's chunkers=, each sized from `--chunker-budget` (its non-whitespace ratio measured
    on the folder swept, for astchunk); an unknown name exits 2, a peer whose extra is missing exits 1."""
    if args.chunkers is None:
        for given, flag in ((args.chunker_budget, "--chunker-budget"), (args.chunker_seconds, "--chunker-seconds"),
                            (args.chunker_total_seconds, "--chunker-total-seconds")):
            if given is not None:
                raise CommandError(f"{flag} applies to the chunkers of --chunkers; add --chunkers, or drop it",
                                   exit_code=2)  # fmt: skip
        return None
    from .chunkers import Budget, named_chunkers
    from .extras import MissingExtraError

    try:
        budget = Budget(args.chunker_budget or CHUNKER_BUDGET).measured_on(source)
        return named_chunkers(args.chunkers, budget, languages=getattr(args, "languages", None),
                              file_seconds=args.chunker_seconds, total_seconds=args.chunker_total_seconds)  # fmt: skip
    except ValueError as error:
        raise CommandError(f"--chunkers: {error}", exit_code=2) from None
    except MissingExtraError as error:
        raise CommandError(f"--chunkers: {error}", exit_code=1) from None


def _sweep(args: argparse.Namespace) -> int:
    from ._cli import _output
    from .sweeps import sweep

    given = [flag for flag in PROBE_OPTIONS if getattr(args, flag) is not None]
    given += ["confirm-model"] if args.confirm_model is not None else []
    if given and not args.probe:
        flags = ", ".join(f"--{flag}" for flag in given)
        msg = f"{flags} {'is an option' if len(given) == 1 else 'are options'} of the probe; add --probe, or drop it"
        raise CommandError(msg, exit_code=2)
    if args.probe and importlib.util.find_spec("bm25s") is None:
        msg = "--probe searches with BM25, which needs the bm25s library; pip install 'clanka-nb[probe]'"
        raise CommandError(msg, exit_code=1)
    probe = _probe(args) if args.probe else False
    pages = _pages(args)
    source = _source(args)  # one file is swept alone, as by cn.sweep
    chunkers = _chunkers(args, source)
    frame = sweep(source, **_options(args), probe=probe, chunkers=chunkers)
    if args.probe and not args.quiet and frame.attrs.get("probe_note"):
        print(f"{_parser.PROG}: note: {frame.attrs['probe_note']}", file=sys.stderr)  # which queries, how many
    if not args.quiet and frame.attrs.get("max_characters_note"):
        print(f"{_parser.PROG}: note: {frame.attrs['max_characters_note']}", file=sys.stderr)
    table = _output.sweep_table(frame)
    essential, priority = _output.sweep_priority(table)
    _output.write(frame, args.format, args.output, table=table, essential=essential, priority=priority)
    verdict = frame.attrs.get("verdict")
    if verdict is not None and verdict["queries"] and not args.quiet:  # no query: a note said so already
        answer = frame.attrs.get("clanka_answer")
        if answer is not None:  # first: the sentence a clanka user acts on, what applies it in clanka inside it
            print(f"{_parser.PROG}: note: clanka: {answer['message']}", file=sys.stderr)
        print(f"{_parser.PROG}: note: verdict: {verdict['message']}", file=sys.stderr)
    if "report" in pages:
        from . import widgets

        widgets.report(frame).save(pages["report"])
    return 0


def _explain(args: argparse.Namespace) -> int:
    from . import frames
    from ._cli import _output
    from .engine import Settings

    options = _options(args)
    settings = Settings(**{name: options.pop(name) for name in SETTING_NAMES})
    pages = _pages(args)
    if args.file is None and Path(args.path).expanduser().is_dir():
        msg = (
            f"{args.path!r} is a folder; name the file too, e.g. "
            f"{_parser.PROG} explain {shlex.quote(args.path)} src/app.ts, "
            "or pass the path of one file alone"
        )
        raise CommandError(msg, exit_code=1)
    try:
        frame = frames.explain(args.path, args.file, settings=settings)
    except (FileNotFoundError, KeyError, TypeError) as error:
        message = str(error.args[0]) if error.args else str(error)
        raise CommandError(message, exit_code=1) from None
    if frame.empty and not args.quiet:
        why = frame.attrs.get("reason") or f"its status is {frame.attrs.get('status')}"
        print(f"{_parser.PROG}: note: {frame.attrs.get('path')} has no chunks: {why}", file=sys.stderr)
    table = frame.assign(lines=frame["start_line"].astype(str) + "-" + frame["end_line"].astype(str))
    _output.write(frame, args.format, args.output, table=table[list(_output.EXPLAIN_ESSENTIAL)],
                  essential=_output.EXPLAIN_ESSENTIAL)  # fmt: skip
    _explain_pages(args, settings, pages)
    return 0


def _explain_pages(args: argparse.Namespace, settings: Any, pages: dict[str, str]) -> None:
    """--html: the file's steps as a page; --svg / --png: its first lines with their chunks, for a slide."""
    if not pages:
        return
    from . import widgets

    if "html" in pages:
        widgets.step_through(args.path, args.file, settings=settings).save(pages["html"])
    pictures = [pages[name] for name in ("svg", "png") if name in pages]
    if pictures:
        shown = widgets.preview(args.path, args.file, settings=settings)
        for path in pictures:
            shown.save(path)


def _churn(args: argparse.Namespace) -> int:
    from . import history
    from ._cli import _output

    function = history.churn_files if args.by_file else history.churn
    options = _options(args)
    del options["workers"]  # a history is walked in one process: each commit changes a few files
    try:
        frame = function(args.path, revs=args.revs, **options)
    except history.ChurnError as error:
        raise CommandError(str(error), exit_code=1) from None
    if frame.attrs.get("note") and not args.quiet:
        print(f"{_parser.PROG}: note: {frame.attrs['note']}", file=sys.stderr)
    table = frame if args.by_file else frame.drop(columns=["date", "subject", "seconds"])
    if "commit" in table.columns:
        table = table.assign(commit=table["commit"].str.slice(0, 10))
    _output.write(frame, args.format, args.output, table=table, essential=_output.CHURN_ESSENTIAL,
                  priority=_output.CHURN_PRIORITY)  # fmt: skip
    return 0


# Only the index's chunk settings and language mode: it lists files at clanka's own size limit, on the workers.
INDEX_SETTINGS = (*CHUNK_SETTING_NAMES, "languages")


def _index(args: argparse.Namespace) -> int:
    from ._cli import _index, _output

    _check_settings(args)
    embed = _embedder(args)
    run = _index.sync(args, embed, _progress(args), {name: getattr(args, name) for name in INDEX_SETTINGS})
    frame = run.frame()
    if not args.quiet:
        for repo in run.failed:
            print(f"{_parser.PROG}: note: {repo.root}: {repo.error}", file=sys.stderr)
    table = frame.drop(columns=["db", "worker", "lease_wait", "clanka_note"])  # the note: a ClankaRebuildWarning
    _output.write(frame, args.format, args.output, table=table, essential=_output.INDEX_ESSENTIAL,
                  priority=_output.INDEX_PRIORITY)  # fmt: skip
    return 1 if run.failed else 0  # the others finished and are in the table


def _embedder(args: argparse.Namespace) -> Any:
    """The embedder the options name: an OpenAI-compatible server (its key from the environment) or the stand-in."""
    from .index import embedders

    if args.stand_in:
        if args.embed_url or args.embed_model:
            msg = "--stand-in embeds offline; drop --embed-url and --embed-model, or drop --stand-in"
            raise CommandError(msg, exit_code=2)
        return embedders.hashed_words()
    if not args.embed_url or not args.embed_model:
        msg = ("index needs an embedder; pass --embed-url URL --embed-model NAME (an OpenAI-compatible server, key "
               "in $OPENAI_API_KEY), or --stand-in to try it offline")
        raise CommandError(msg, exit_code=2)
    try:
        return embedders.openai(args.embed_model, base_url=args.embed_url, api_key=os.environ.get("OPENAI_API_KEY"))
    except ValueError as error:
        raise CommandError(f"--embed-url: {error}", exit_code=2) from None


def _cache(args: argparse.Namespace) -> int:
    from .engine import ParseCache

    parse = ParseCache()
    vectors = _vector_cache()
    histories = _history_cache()
    if args.action == "clear":
        try:
            removed = parse.clear()
            cleared = None if vectors is None else vectors.clear()
            forgotten = None if histories is None else histories.clear()
        except OSError as error:  # ParseCacheError, VectorCacheError, HistoryCacheError: said with the fix
            raise CommandError(str(error), exit_code=1) from None
        print(f"removed {removed:,} entries from {parse.path}")
        if vectors is not None:
            print(f"removed {cleared:,} vectors from {vectors.path}")
        if histories is not None:
            print(f"removed {forgotten:,} histories from {histories.path}")
        return 0
    info = parse.info()
    print(f"path: {info.path}")
    print(f"entries: {info.entries:,}")
    print(f"size: {info.bytes / 2**20:.1f} MiB of {info.max_bytes / 2**20:.0f} MiB "
          f"(file on disk: {info.file_bytes / 2**20:.1f} MiB)")
    if vectors is not None:
        stored = vectors.info()
        print(f"vectors path: {stored.path}")
        print(f"vectors: {stored.entries:,}, "
              f"{stored.bytes / 2**20:.1f} MiB of {stored.max_bytes / 2**20:.0f} MiB")
    if histories is not None:
        print(f"histories path: {histories.path} ({histories.count():,} histories' queries)")
    print("set CLANKA_NB_CACHE_DIR to move them, CLANKA_NB_CACHE=off to work without them")
    return 0


def _history_cache() -> Any:
    """The history cache's file (None without pandas, which the probe's queries need anyway)."""
    try:
        from .retrieval.internals import HistoryCache, history_cache_path
    except ImportError:  # the probe's extra missing: no history was ever read through it
        return None
    return HistoryCache(history_cache_path())


def _vector_cache() -> Any:
    """The default vector cache's file (None without the index extra, which embeds nothing anyway)."""
    try:
        from .index import VectorCache, default_path
    except ImportError:  # numpy missing: nothing was ever embedded through it
        return None
    return VectorCache(default_path())


_COMMANDS = {
    "cache": _cache, "chunk": _chunk, "churn": _churn, "explain": _explain, "files": _files, "index": _index,
    "sweep": _sweep,
}


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments every frames function of the commands takes, from the parsed options."""
    return {**{name: getattr(args, name) for name in SETTING_NAMES}, "progress": _progress(args)}


def _progress(args: argparse.Namespace) -> bool | None:
    """A bar on stderr after a second of work, only when stderr is a terminal (never in pipes or logs)."""
    return None if not args.quiet and sys.stderr.isatty() else False


def _source(args: argparse.Namespace) -> str:
    """PATH, a folder or one file, as the frames' opener takes it; settings checked first."""
    from . import engine

    _check_settings(args)
    path = Path(args.path).expanduser()
    if not path.exists():
        msg = f"{args.path!r} does not exist; pass the path of a folder or file of source code"
        raise CommandError(msg, exit_code=1)
    if path.is_dir():
        return str(path)
    if path.is_symlink() and engine.is_meaningful_file(path.name):
        from .engine.source import open_source

        opened = open_source(str(path), engine.Settings(languages=args.languages, workers=1), progress=False)
        report = opened.codebase.report(path.name)
        if report.status is engine.FileStatus.NOT_INDEXED:
            # Refused, not merely empty: a link leading out of its folder is never read.
            print(f"{_parser.PROG}: note: {args.path!r} {report.reason}", file=sys.stderr)
    return str(path)


def _check_settings(args: argparse.Namespace) -> None:
    """Reject an unknown language mode; say when a setting is clamped, in the library's own words."""
    from . import engine

    if args.languages not in engine.LANGUAGE_MODES:
        modes = ", ".join(engine.LANGUAGE_MODES)
        msg = f"--languages {args.languages!r} is not a language mode; pass one of {modes}"
        raise CommandError(msg, exit_code=2)
    combos = itertools.product(*(value if isinstance(value, list) else [value]
                                 for value in (getattr(args, name) for name in CHUNK_SETTING_NAMES)))
    notes = []
    for combo in combos:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", engine.SettingClampedWarning)
            engine.ChunkSettings.build(*combo)
        notes += [str(w.message) for w in caught if str(w.message) not in notes]
    if not args.quiet:
        for note in notes:
            print(f"{_parser.PROG}: note: {note}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
