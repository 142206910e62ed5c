"""Every setting's definition, in one place that loads nothing: its name, default, documentation line,
CLI option and whether it is a column of every table row (`SETTINGS`). `engine.settings` holds the checks
and the clamping and builds `Settings` from this table; the CLI's `--help` reads it without loading the
engine (importing `clanka_nb.engine` costs ~100 ms of tree-sitter and the chunker, this module ~1 ms)."""

import math
from typing import NamedTuple


# A default is a marker: the plain value (an int is an int, arithmetic works) of a type that says "not passed",
# so a source with settings of its own (a chunk frame) fills in exactly those the caller left out.
class _Default:
    """Shown and pickled as the plain value of its other base (int, float, str, tuple)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(type(self).__bases__[-1](self))

    def __reduce__(self) -> tuple[type, tuple[object]]:
        kind = type(self)
        return kind, (kind.__bases__[-1](self),)


class DefaultInt(_Default, int):
    """An int default, shown as the int."""

    __slots__ = ()


class DefaultFloat(_Default, float):
    """A float default, shown as the float (`inf`)."""

    __slots__ = ()


class DefaultStr(_Default, str):
    """A str default, shown as the str."""

    __slots__ = ()


class DefaultTuple(_Default, tuple[int, ...]):
    """A grid's default (values to try: chunk sizes), shown as the tuple."""

    __slots__ = ()


def is_default(value: object) -> bool:
    """Whether `value` is a default the caller did not pass (a marker), rather than a value given."""
    return isinstance(value, _Default)


CHUNK_SIZE = DefaultInt(30)
CHUNK_OVERLAP = DefaultInt(0)
# No limit on a chunk's characters (None means the same); shown as `inf`.
NO_LIMIT = DefaultFloat(math.inf)
MAX_FILE_SIZE = DefaultStr("1M")  # ripgrep's --max-filesize, as clanka lists files
# What `languages=None` means where the source has no mode of its own (a folder, a file, a text).
DEFAULT_LANGUAGES = "clanka"
# clanka's semantic index chunks with a limit of its own (SemanticSearch's chunkMaxCharacters), not the chunker's none.
INDEX_MAX_CHARACTERS = DefaultInt(10_000)
# The grid a sweep tries when no chunk size is given.
SWEEP_CHUNK_SIZES = DefaultTuple((10, 20, 30, 40, 60))
# Tokens of retrieved chunks the probe lets a query spend: about what clanka's agent search pays for its
# `limit: 5` chunks at the default chunk size (docs/tuning-verdict.md, "Scoring at equal cost", measures it).
DEFAULT_BUDGET = 2000
# Characters per chunk every peer chunker is sized to when no budget is given (benchmarks/bench_peers.py's size; the
# command line's --chunker-budget): about what clanka's 30-line chunks hold on the sample at its declarations.
CHUNKER_BUDGET = 1500
# The verdict's equivalence margin: two points of a 0-1 metric (docs/tuning-verdict.md, "How to set the margin").
VERDICT_MARGIN = 0.02
CHUNKER_SECONDS = 10.0  # a chunker's time limit on one file (clanka_nb/chunkers/_guard.py)
# A chunker's time budget over all the files of one sweep (or `chunk_with`): past it, the files left are cut into
# clanka's line windows and counted in `timed_out_files` (the command line's --chunker-total-seconds).
CHUNKER_TOTAL_SECONDS = 600.0


AS_DEFAULT = DefaultStr("as default")  # a Setting's `cli_default` when the CLI's is its `default`


class Setting(NamedTuple):
    """One setting's definition: everything about it except its check and clamp (in `engine.settings`)."""

    name: str  # the keyword of every public function, the field of `Settings`, the CLI option's dest
    default: object  # a marker above (or None, where None means "the source's own" or "automatic")
    annotation: str  # the type every signature gives it
    doc: str  # the documentation line (of `Settings` and of every function taking it)
    flag: str  # the CLI option
    metavar: str
    # The CLI help; {plural}, {example} and {default} are filled for a command of one value or of many.
    help: str
    # The CLI type: a parser's name in `_cli/_values`, None for text as given.
    parse: str | None
    # A chunk setting: a sweep's axis, a column of every table row and a key of a chunk frame's attrs.
    chunk: bool = False
    examples: tuple[str, str] = ("", "")  # the CLI help's example for one value, then for many
    # The CLI's default where it is not `default`: the value of typing nothing (`none` is None, the mode's name).
    cli_default: object = AS_DEFAULT
    grid: tuple[object, ...] | None = None  # what a sweep tries when given nothing; None: `default` alone
    floor: int | None = None  # the smallest value it takes (it is clamped there): nothing below it to sweep

    def cli_values(self, *, many: bool) -> object:
        """The CLI option's default: one value, or (`many`) the list a sweep tries."""
        one = self.default if self.cli_default is AS_DEFAULT else self.cli_default
        return one if not many else list(self.grid) if self.grid is not None else [one]


SETTINGS = (
    Setting("chunk_size", CHUNK_SIZE, "int", "most lines in one chunk (clamped to at least 1)",
            "--chunk-size", "LINES", "most lines in one chunk; {plural}{example} (default: {default})",
            "lines", chunk=True, examples=("e.g. 40", "10,20,30"), grid=SWEEP_CHUNK_SIZES, floor=1),
    Setting("chunk_overlap", CHUNK_OVERLAP, "int",
            "lines shared by consecutive pieces of a split declaration or window (clamped to 0..size-1)",
            "--chunk-overlap", "LINES", "lines shared by consecutive pieces of a split declaration or window; "
            "{plural}{example} (default: {default}; clamped to chunk size - 1)", "lines", chunk=True,
            examples=("e.g. 5", "0,5"), floor=0),
    Setting("chunk_max_characters", NO_LIMIT, "float | None",
            "most characters in one chunk; None or inf is no limit (clamped to at least 1)",
            "--max-chars", "CHARS", "most characters in one chunk, or none for no limit; {plural}{example} "
            "(default: {default})", "max_chars", chunk=True, examples=("e.g. 2000", "none,2000"),
            cli_default=None, floor=1),
    Setting("languages", None, "str | None",
            'language mode: "clanka" (exactly the reference) or "extended"; None is the source\'s own mode '
            '(a `Codebase`\'s, a chunk frame\'s), else "clanka"', "--languages", "MODE",
            "clanka (default: exactly the reference) or extended (declaration chunks for more languages)", None,
            cli_default=DEFAULT_LANGUAGES),
    Setting("max_file_size", MAX_FILE_SIZE, "str | int",
            'files larger than this are never listed (bytes, or "500K", "1M", "2G")', "--max-file-size", "SIZE",
            "skip files larger than this, like ripgrep's --max-filesize (default: {default})", "file_size"),
    Setting("workers", None, "int | None",
            "processes that read and parse; None is one per core, and none while few files are left to parse "
            "(results are the same whatever the workers)", "--workers", "N",
            "processes that read and parse files, at most 4 per core (default: one per core for many files, "
            "none for a few)", "workers"),
)
SETTING_NAMES = tuple(setting.name for setting in SETTINGS)
CHUNK_SETTING_NAMES = tuple(setting.name for setting in SETTINGS if setting.chunk)
