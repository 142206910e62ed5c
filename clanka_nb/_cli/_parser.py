"""The argument parser of `clanka-nb`: every command, option and help text."""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import NoReturn

from ..defaults import (
    CHUNK_SETTING_NAMES,
    CHUNK_SIZE,
    CHUNKER_BUDGET,
    CHUNKER_SECONDS,
    CHUNKER_TOTAL_SECONDS,
    DEFAULT_BUDGET,
    INDEX_MAX_CHARACTERS,
    SETTINGS,
    VERDICT_MARGIN,
)
from . import _values

PROG = "clanka-nb"

# The rules every command shares: once, on the top-level help.
EPILOG = """\
exit codes:
  0  success
  1  a path that does not exist or cannot be used (missing folder, missing notebooks, JupyterLab not installed)
  1  also: an output file that cannot be written (checked before any work), a missing optional library
  2  bad usage or bad settings (unknown option, --chunk-size abc, --max-chars nan, parquet without -o,
     --format csv -o out.parquet)
Out-of-range settings are used as clanka clamps them (--chunk-size 0 as 1, --max-chars -5 as 1), with a
note on stderr in the same words as the library's SettingClampedWarning.
Errors are one line on stderr: "clanka-nb: error: <problem>; <fix>" (a misspelt option: "did you mean
--chunk-size?"); notes start "clanka-nb: note:".
Names and text from the code are printed with control characters escaped (\\x1b), never raw.
-o FILE picks the format from its extension (.parquet, .csv, .jsonl, .json, .txt) for every command.
Progress bars go to stderr (only when it is a terminal), so stdout can be piped.

examples:
  clanka-nb chunk src/ --chunk-size 40 --max-chars 2000
  clanka-nb files . --include-skipped
  clanka-nb sweep . --chunk-size 10,20,30,40 --max-chars none,2000,10000 --probe
  clanka-nb lab
Each command's --help shows its own examples.
"""

# Each command's own examples, at the end of its --help.
EXAMPLES = {
    "chunk": [
        "clanka-nb chunk src/ --chunk-size 40 --max-chars 2000",
        "clanka-nb chunk src/app.ts -o chunks.jsonl          (the format follows the extension)",
        "clanka-nb chunk src/ -o chunks.parquet",
    ],
    "files": ["clanka-nb files . --include-skipped", "clanka-nb files . -o files.csv"],
    "sweep": [
        "clanka-nb sweep . --chunk-size 10,20,30 --chunk-overlap 0,5 --max-chars none,2000",
        "clanka-nb sweep . --chunk-size 10,20,30,40 --max-chars none,2000,10000 --probe -o sweep.csv",
        "clanka-nb sweep . --probe --budget 1000,2000 --metric budget_found@1000",
        "clanka-nb sweep . --chunk-size 10,20,30,40 --probe --report report.html   (a page a team reads)",
        "clanka-nb sweep . --chunk-size 30 --probe --chunkers line-windows,astchunk --chunker-budget 1500",
    ],
    "explain": [
        "clanka-nb explain . src/app.ts",
        "clanka-nb explain src/app.ts --chunk-size 20 -o why.csv",
        "clanka-nb explain . src/app.ts --html steps.html --svg app.svg   (a page and a slide)",
    ],
    "churn": ["clanka-nb churn . --revs HEAD~20..HEAD", "clanka-nb churn . --by-file -o churn.parquet"],
    "index": [
        "clanka-nb index repos/* --embed-url http://localhost:11434/v1 --embed-model nomic-embed-text",
        "clanka-nb index repos/* --dask tcp://scheduler:8786 --embed-url https://api.openai.com/v1 "
        "--embed-model text-embedding-3-small --embed-concurrency 8 --embed-rate 50 -o run.csv",
        "clanka-nb index . --stand-in          (one repository, in this process; offline: hashed words, not a model)",
        "clanka-nb index repos/* --local --stand-in   (several, in this process: no Dask cluster)",
    ],
    "cache": ["clanka-nb cache info", "clanka-nb cache clear"],
    "lab": ["clanka-nb lab", "clanka-nb lab --dry-run -- --no-browser --port 8899"],
}


def _command_epilog(name: str) -> str:
    lines = "".join(f"  {example}\n" for example in EXAMPLES[name])
    return f"examples:\n{lines}\nExit codes, notes and output formats: {PROG} --help\n"


FORMATS = ("table", "jsonl", "json", "csv", "parquet")


# argparse's own words for an abbreviation that fits more than one option (Python 3.11 to 3.13).
_AMBIGUOUS = re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)")


class Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line with a fix, not a usage dump; a misspelt or ambiguous option
    names the closest of the command's own (`did you mean --chunk-size?`)."""

    # The subcommands' parsers by name (the top-level parser's; set by `build`), whose options a misspelling of
    # an option after the command is matched against.
    commands: Mapping[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> NoReturn:
        ambiguous = _AMBIGUOUS.fullmatch(message)
        if ambiguous:
            option = ambiguous.group("option").split("=", 1)[0]
            matches = [match.strip() for match in ambiguous.group("matches").split(",")]
            close = difflib.get_close_matches(option, matches, n=1, cutoff=0)
            message = f"{message}; did you mean {close[0]}? (write the option whole)"
        if "; " not in message:
            message = f"{message}; see '{self.prog} --help'"
        self.exit(2, f"{PROG}: error: {message}\n")

    def parse_args(  # type: ignore[override]  # one signature, not typeshed's overloads: the command's own use
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse's, but what is left over is refused by the command it follows: a misspelt option names the
        closest of that command's (`--chunk-sise` -> `did you mean --chunk-size?`)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = self.commands.get(getattr(parsed, "command", None) or "")
            # Left over after the command or before it: matched against both parsers' options.
            (command or self).error(_unrecognized(extras, command or self, self))
        return parsed


def _unrecognized(extras: list[str], parser: argparse.ArgumentParser, top: argparse.ArgumentParser) -> str:
    """The error for arguments no option took: the closest option to each misspelt one, else where to look."""
    # argparse lists a parser's options nowhere public; `_actions` is what its own help and errors read.
    options = list(dict.fromkeys(option for each in (parser, top) for action in each._actions
                                 for option in action.option_strings))  # fmt: skip
    guesses = {}
    for extra in extras:
        if extra.startswith("-") and len(extra) > 1:
            wrong = extra.split("=", 1)[0]
            close = difflib.get_close_matches(wrong, options, n=1)
            if close:
                guesses[wrong] = close[0]
    said = f"unrecognized arguments: {' '.join(extras)}"
    if not guesses:
        return f"{said}; see '{parser.prog} --help'"
    if len(guesses) == 1:
        return f"{said}; did you mean {next(iter(guesses.values()))}? (every option: {parser.prog} --help)"
    named = ", ".join(f"{right} for {wrong}" for wrong, right in guesses.items())
    return f"{said}; did you mean {named}? (every option: {parser.prog} --help)"


def build() -> Parser:
    """The full parser (building it imports nothing heavy, so `--help` is instant)."""
    parser = Parser(
        prog=PROG,
        description="See how clanka's CodeChunker cuts source code into chunks for embedding.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    parser.commands = commands.choices
    # One builder per command, in the order `--help` lists them.
    for add in (_chunk, _files, _sweep, _explain, _churn, _index, _cache, _lab):
        add(commands)
    return parser


def _chunk(commands: argparse._SubParsersAction[Parser]) -> None:
    chunk = _command(commands, "chunk", "the chunks of a folder or of one file, one row per chunk")
    _path(chunk)
    _settings(chunk, many=False)
    _common(
        chunk, table_note="table: path, line_range (first-last line), type, name and parent (no content); "
        "jsonl/json/csv/parquet have every column: start_line, end_line, lines (a count), content...",
    )
    _exports(chunk, html="also write the chunks and the busiest file as a self-contained page (as cn.browse saves it)")


def _files(commands: argparse._SubParsersAction[Parser]) -> None:
    files = _command(commands, "files", "every file the chunker lists under a folder, with its status and why")
    _path(files, folder_only=True)
    _settings(files, many=False)
    _common(files, table_note="one row per listed file: status, reason, chunks and coverage at these settings")
    files.add_argument(
        "--include-skipped", action="store_true",
        help="also a row for every file the listing leaves out, with status skipped and why (ignore file and "
        "pattern, excluded folder, extension, size, link)",
    )


def _sweep(commands: argparse._SubParsersAction[Parser]) -> None:
    sweep = _command(commands, "sweep", "chunk once per combination of settings and measure each")
    _path(sweep, folder_only=True)
    _settings(sweep, many=True)
    _common(
        sweep, table_note="one row per combination of settings; the table shows the main measures, "
        "csv/jsonl/parquet every column (chunk statistics, coverage, duplication, seconds)",
    )
    _probe_options(sweep)
    _chunker_options(sweep)


def _probe_options(sweep: argparse.ArgumentParser) -> None:
    """`sweep --probe` and the options that tune it."""
    sweep.add_argument(
        "--probe", action="store_true",
        help="also score each setting by how well BM25 search finds the code a query is about: queries, "
        "recall@K, mrr, tokens@K, and within each token budget budget_found@B and budget_covered@B",
    )
    sweep.add_argument(
        "--k", type=_values.comma_list(_values.cutoff), default=None, metavar="K",
        help="with --probe: the cut-offs of recall@K, comma-separated (default: 1,5,10)",
    )
    sweep.add_argument(
        "--sample", type=_values.share, default=None, metavar="SHARE",
        help="with --probe: index every query's target and this share of the other chunks (e.g. 0.25); recall "
        "and mrr estimate the whole codebase's, with wider intervals",
    )
    sweep.add_argument(
        "--budget", type=_values.comma_list(_values.tokens), default=None, metavar="B",
        help="with --probe: tokens of retrieved chunks a query may spend, comma-separated; each is the "
        f"columns budget_found@B and budget_covered@B (default: {DEFAULT_BUDGET})",
    )
    sweep.add_argument(
        "--margin", type=_values.margin, default=None, metavar="DIFF",
        help="with --probe: the smallest difference of the verdict's metric that matters; settings shown within it "
        f"of the best are equivalent and the cheapest is picked; none: no equivalence test (default: "
        f"{VERDICT_MARGIN:g})",
    )
    sweep.add_argument(
        "--metric", default=None, metavar="NAME",
        help="with --probe: what the verdict ranks the settings by: mrr, recall@K, budget_found@B or "
        "budget_covered@B (default: budget_covered at the smallest budget)",
    )
    sweep.add_argument(
        "--confirm-model", default=None, metavar="FOLDER",
        help="with --probe: BM25 screens the grid and this sentence-transformers model (a local folder, never "
        "downloaded) re-scores what BM25 leaves open, its confidence set, clanka's setting and every overlap "
        "setting; the verdict is the model's (column searcher)",
    )
    sweep.add_argument(
        "--targets", choices=("code", "all"), default=None,
        help="with --probe: the commit-message queries' targets: code (the default) or all (tests, docs, "
        "changelogs too)",
    )


def _chunker_options(sweep: argparse.ArgumentParser) -> None:
    """`sweep --chunkers` (the peer chunkers' bake-off) and the options that tune it."""
    sweep.add_argument(
        "--chunkers", type=_values.comma_list(str), default=None, metavar="NAMES",
        help="also one row per whole chunker, comma-separated: clanka, line-windows, astchunk, chonkie, langchain, "
        "llama-index, semantic-text-splitter (the peers need pip install 'clanka-nb[chunkers]'); scored with "
        "--probe as the settings are, on the same files and queries",
    )
    sweep.add_argument(
        "--chunker-budget", type=_values.characters, default=None, metavar="CHARS",
        help="with --chunkers: the size every chunker is cut to, in characters per chunk (astchunk's "
        f"non-whitespace characters converted at the folder's own ratio; default: {CHUNKER_BUDGET})",
    )
    sweep.add_argument(
        "--report", type=_values.named(".html"), default=None, metavar="FILE.html",
        help="also write the sweep's report, a self-contained page (the decision, the trade-off with intervals, "
        "the settings, the queries, the commit, the commands to reproduce it), as cn.report saves it",
    )

    sweep.add_argument(
        "--chunker-seconds", type=_values.seconds, default=None, metavar="SECONDS",
        help="with --chunkers: the time limit of one chunker on one file; a file it runs past the limit on (or "
        f"raises on) is cut into clanka's line windows and counted in fallback_files (default: {CHUNKER_SECONDS:g})",
    )
    sweep.add_argument(
        "--chunker-total-seconds", type=_values.seconds, default=None, metavar="SECONDS",
        help="with --chunkers: the time budget of one chunker over all the files swept; the files left once it is "
        "spent are cut into clanka's line windows and counted in fallback_files and timed_out_files (default: "
        f"{CHUNKER_TOTAL_SECONDS:g})",
    )


def _explain(commands: argparse._SubParsersAction[Parser]) -> None:
    explain = _command(commands, "explain", "why each chunk of one file starts and ends where it does")
    explain.add_argument("path", metavar="PATH", help="folder of source code (or one file alone, then no FILE)")
    explain.add_argument("file", metavar="FILE", nargs="?", help="the file inside PATH to explain")
    _settings(explain, many=False)
    _common(explain, table_note="one row per chunk: lines, type, name, rule and why")
    _exports(explain, html="also write the file's chunks one step at a time, each with its why, as a "
             "self-contained page (as cn.step_through saves it)", pictures=True)


def _churn(commands: argparse._SubParsersAction[Parser]) -> None:
    churn = _command(commands, "churn", "what keeping clanka's index fresh costs: inputs embedded per commit")
    churn.add_argument("path", metavar="PATH", help="a git clone, or a folder in one (then only its files count)")
    churn.add_argument(
        "--revs", default="HEAD~50..HEAD", metavar="A..B",
        help="the commits to walk along first parents; A is the baseline (default: HEAD~50..HEAD)",
    )
    # clanka's own settings, not a sweep's range: one size, and the semantic index's character limit.
    _settings(churn, many=True, defaults={"chunk_size": [CHUNK_SIZE], "chunk_max_characters": [INDEX_MAX_CHARACTERS]})
    churn.add_argument(
        "--by-file", action="store_true",
        help="one row per commit, setting and file that re-embeds (where the churn comes from)",
    )
    _common(churn, table_note="one row per commit and setting: inputs, embedded, reused, deleted and why")


def _cache(commands: argparse._SubParsersAction[Parser]) -> None:
    cache = _command(
        commands, "cache", "show or empty the caches kept across sessions: parses (declaration ranges) and vectors"
    )
    cache.add_argument(
        "action", choices=("info", "clear"),
        help="info: where the caches are and how big; clear: delete every entry (files are parsed, inputs "
        "embedded again)",
    )


def _lab(commands: argparse._SubParsersAction[Parser]) -> None:
    lab = _command(commands, "lab", "open JupyterLab on the notebooks of this project")
    lab.add_argument(
        "--notebooks", metavar="DIR", default=None,
        help="folder of notebooks to open (default: the notebooks/ folder beside the installed package, "
        "else ./notebooks)",
    )
    lab.add_argument("--dry-run", action="store_true", help="print the command that would run, and exit")
    lab.add_argument(
        "jupyter_args", nargs=argparse.REMAINDER, metavar="-- JUPYTER_ARGS",
        help="anything after -- goes to jupyter lab unchanged, e.g. -- --no-browser --port 8899",
    )


def _index(commands: argparse._SubParsersAction[Parser]) -> None:
    index = _command(commands, "index", "build or re-sync clanka's semantic index of repositories (one in this "
                     "process, several on a Dask cluster)")
    index.add_argument("roots", metavar="ROOT", nargs="+",
                       help="repository folders; each index goes to ROOT/.clanka/search.sqlite (where clanka reads it)")
    where = index.add_mutually_exclusive_group()
    where.add_argument("--local", action="store_true",
                       help="sync every ROOT in this process, one after another, with no Dask cluster (the default "
                       "for one ROOT)")
    where.add_argument("--cluster", action="store_true",
                       help="start a local Dask cluster (one process per core) even for one ROOT (the default for "
                       "several ROOTs)")
    where.add_argument("--dask", metavar="ADDRESS", default=None,
                       help="the scheduler to run on, e.g. tcp://scheduler:8786; every worker must see the ROOTs at "
                       "the same paths")
    index.add_argument("--embed-url", metavar="URL", default=None,
                       help="an OpenAI-compatible embeddings server, e.g. http://localhost:11434/v1; its key is read "
                       "from $OPENAI_API_KEY (never from the command line)")
    index.add_argument("--embed-model", metavar="NAME", default=None, help="the model the server embeds with")
    index.add_argument("--stand-in", action="store_true",
                       help="embed with the offline hashed-words stand-in (not a language model): to try it out")
    index.add_argument("--embed-concurrency", metavar="N", type=_values.calls, default=4,
                       help="embedder calls in flight on the whole cluster at once (default: 4; in this process "
                       "one call is in flight at a time)")
    index.add_argument("--embed-rate", metavar="PER_SECOND", type=_values.rate, default=None,
                       help="embedder calls started per second, at most, on the whole cluster or in this process "
                       "(default: no limit)")
    index.add_argument("--batch-size", metavar="N", type=_values.calls, default=300,
                       help="inputs per embedder call (default: 300, as clanka sends)")
    _settings(index, many=False, defaults={"chunk_max_characters": INDEX_MAX_CHARACTERS},
              only=(*CHUNK_SETTING_NAMES, "languages"))
    _common(index, table_note="one row per repository: status, chunks, embedded, cached, reused, deleted, error")


def _version() -> str:
    try:
        return metadata.version("clanka-nb")
    except metadata.PackageNotFoundError:  # running from a source tree that was never installed
        return "(not installed)"


def _command(commands: argparse._SubParsersAction[Parser], name: str, summary: str) -> Parser:
    return commands.add_parser(
        name, help=summary, description=summary[0].upper() + summary[1:] + ".",
        epilog=_command_epilog(name), formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _path(parser: argparse.ArgumentParser, *, folder_only: bool = False) -> None:
    if folder_only:
        parser.add_argument("path", metavar="PATH", help="folder of source code (its files are listed like ripgrep)")
    else:
        parser.add_argument(
            "path", metavar="PATH",
            help="folder of source code (its files are listed like ripgrep), or one file to chunk alone",
        )


def _settings(parser: argparse.ArgumentParser, *, many: bool, defaults: Mapping[str, object] | None = None,
              only: tuple[str, ...] | None = None) -> None:
    """Every setting's option (or those named in `only`), made from the one table (`defaults.SETTINGS`); with
    `many`, each chunk setting takes comma-separated values, one sweep point each; `defaults` replace the table's
    (by setting name)."""
    plural = "comma-separated values, one sweep point each, e.g. " if many else ""
    for setting in SETTINGS:
        if only is not None and setting.name not in only:
            continue
        parse = str if setting.parse is None else getattr(_values, setting.parse)
        listed = many and setting.chunk
        default = (defaults or {}).get(setting.name, setting.cli_values(many=listed))
        values = default if listed and isinstance(default, list) else [default]
        shown = ",".join("none" if value is None else str(value) for value in values)
        parser.add_argument(
            setting.flag, dest=setting.name, type=_values.comma_list(parse) if listed else parse, default=default,
            metavar=setting.metavar,
            help=setting.help.format(plural=plural if setting.chunk else "", example=setting.examples[listed],
                                     default=shown),
        )


def _exports(parser: argparse.ArgumentParser, *, html: str, pictures: bool = False) -> None:
    """--html FILE (and with `pictures`, --svg FILE and --png FILE: the file's first lines with their chunks)."""
    parser.add_argument("--html", type=_values.named(".html"), default=None, metavar="FILE.html", help=html)
    if pictures:
        for suffix in ("svg", "png"):
            parser.add_argument(
                f"--{suffix}", type=_values.named(f".{suffix}"), default=None, metavar=f"FILE.{suffix}",
                help=f"also write the file's first lines with their chunks as a picture for a slide ({suffix.upper()}, "
                "light; as cn.preview(...).save saves it)",
            )


def _common(parser: argparse.ArgumentParser, *, table_note: str) -> None:
    parser.add_argument(
        "--format", choices=FORMATS, default=None,
        help="output format (default: from the -o extension: .parquet, .csv, .jsonl, .json; else table). "
        f"{table_note}",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE",
        help="write to FILE instead of stdout; its extension picks the format (parquet needs a file)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no notes on stderr")
