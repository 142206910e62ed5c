"""Every setting in one place: names, defaults and checks (chunk settings clamped as the reference clamps them,
with a named warning; worker counts, file sizes, language modes, path lists), each error naming its fix; and the
grids of chunk settings a sweep, Dask's sweep and churn try."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import itertools
import math
import numbers
import operator
import os
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypedDict, TypeVar, Unpack, overload

from ..defaults import (
    CHUNK_OVERLAP,
    CHUNK_SETTING_NAMES,
    CHUNK_SIZE,
    DEFAULT_LANGUAGES,
    MAX_FILE_SIZE,
    NO_LIMIT,
    SETTING_NAMES,
    SETTINGS,
    SWEEP_CHUNK_SIZES,
    is_default,
)
from ..keywords import checked_init as checked_init  # re-exported: the floors above import it from here
from ..keywords import checked_keywords as checked_keywords
from ..keywords import refuse
from ..warning import ClankaWarning
from ._languages import check_languages
from ._setting_docs import generated_lines, with_setting_lines
from ._setting_docs import setting_docs as setting_docs  # re-exported: for a function that writes its settings out
from .warn import warn_at_user

# Beyond 2**53 a JavaScript number is no longer a whole count, and no text is that long: no limit.
_NO_LIMIT_FROM = 2**53
# Worker processes beyond this many per core only add start-up cost and memory on the same cores.
WORKERS_PER_CORE = 4


class SettingClampedWarning(ClankaWarning, UserWarning):
    """A chunk setting was out of range, so it is used as the reference clamps it (the words the CLI prints)."""


def _integer(name: str, value: object) -> int:
    if isinstance(value, float) and math.isnan(value):
        msg = f"{name} is NaN; pass a whole number of lines such as {name}=30"
        raise ValueError(msg)
    return whole_number(name, value, f"a number of lines; pass e.g. {name}=30")


def whole_number(name: str, value: object, what: str) -> int:
    """`value` as an int when it is integral (int, numpy integer...; never a bool or a float)."""
    if isinstance(value, bool):
        msg = f"{name} must be an int ({what}), got bool {value!r}"
        raise TypeError(msg)
    if isinstance(value, SupportsIndex):  # has __index__: int, numpy integers (never float, str or Decimal)
        with contextlib.suppress(TypeError):  # an __index__ that refuses gets the same message
            return operator.index(value)
    msg = f"{name} must be an int ({what}), got {type(value).__name__} {value!r}"
    raise TypeError(msg)


def _max_characters(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = (
            f"chunk_max_characters must be a number or None, got {type(value).__name__} {value!r}; "
            "pass e.g. chunk_max_characters=2000, or None for no limit"
        )
        raise TypeError(msg)
    if isinstance(value, numbers.Integral):
        number = int(value)  # never through float: 10**400 would overflow
        return None if number >= _NO_LIMIT_FROM else max(1, number)
    real = float(value)
    if math.isnan(real):
        msg = "chunk_max_characters is NaN; pass a number of characters, or None (or math.inf) for no limit"
        raise ValueError(msg)
    if math.isinf(real):
        return None if real > 0 else 1
    return None if real >= _NO_LIMIT_FROM else max(1, math.floor(real))


def _clamp_note(size: int, overlap: int, limit: object, settings: ChunkSettings) -> str | None:
    parts = []
    if settings.clamped:
        parts.append(
            f"chunk_size={size} chunk_overlap={overlap} is used as chunk_size={settings.effective_size} "
            f"chunk_overlap={settings.effective_overlap} (clanka clamps the size to at least 1 and the overlap to "
            "0..size-1)"
        )
    if isinstance(limit, numbers.Real) and limit < 1:
        parts.append(
            f"chunk_max_characters={limit} is used as 1 (clanka clamps the limit to at least 1; "
            "pass None for no limit)"
        )
    return "; ".join(parts) or None


def _warn(message: str) -> None:
    # At the user's line, however deep inside clanka_nb the settings were built.
    warn_at_user(message, SettingClampedWarning)


@dataclass(frozen=True, slots=True)
class ChunkSettings:
    """The chunk settings as asked for (`requested_*`) and as the reference uses them after clamping
    (`effective_*`: what the engine cuts with). Two names, so no reader mistakes one for the other.

    Attributes:
        effective_size: The chunk size the engine cuts with (at least 1).
        effective_overlap: The overlap the engine cuts with (0 .. effective_size - 1).
        effective_max_characters: The character limit the engine cuts with; None for no limit.
        requested_size: The chunk size as asked for.
        requested_overlap: The overlap as asked for.
        requested_max_characters: The character limit as given (a float, inf, None...).
    """

    effective_size: int
    effective_overlap: int
    effective_max_characters: int | None  # None: no limit
    requested_size: int
    requested_overlap: int
    requested_max_characters: object  # as given (a float, inf, None...): only the clamp note shows it

    @classmethod
    def build(
        cls,
        chunk_size: object = CHUNK_SIZE,
        chunk_overlap: object = CHUNK_OVERLAP,
        chunk_max_characters: object = NO_LIMIT,
        *,
        warn: bool = True,
    ) -> ChunkSettings:
        """Check and clamp the settings; a `SettingClampedWarning` says when one is clamped (unless `warn=False`)."""
        size = _integer("chunk_size", chunk_size)
        overlap = _integer("chunk_overlap", chunk_overlap)
        limit = _max_characters(chunk_max_characters)
        clamped_size = max(1, size)
        clamped_overlap = max(0, min(clamped_size - 1, overlap))
        settings = cls(clamped_size, clamped_overlap, limit, size, overlap, chunk_max_characters)
        if warn:
            note = settings.clamp_note
            if note is not None:
                _warn(note)
        return settings

    @property
    def clamped(self) -> bool:
        """True when the reference would not use the size or overlap as requested."""
        return self.effective_size != self.requested_size or self.effective_overlap != self.requested_overlap

    @property
    def clamp_note(self) -> str | None:
        """What the reference's clamping changed, in the words the CLI prints as a note; None when nothing."""
        return _clamp_note(self.requested_size, self.requested_overlap, self.requested_max_characters, self)

    def columns(self) -> dict[str, Any]:
        """The setting columns of a table row (a sweep's, churn's, a probe's): each chunk setting under its own
        name, as requested (the limit as used: whole, None for none)."""
        return dict(zip(CHUNK_SETTING_NAMES, (self.requested_size, self.requested_overlap,
                                              self.effective_max_characters), strict=True))  # fmt: skip

    def requested(self) -> dict[str, Any]:
        """The chunk settings as keyword arguments, as requested (no limit as None)."""
        limit = None if self.effective_max_characters is None else self.requested_max_characters
        return dict(zip(CHUNK_SETTING_NAMES, (self.requested_size, self.requested_overlap, limit), strict=True))

    def effective_columns(self) -> dict[str, Any]:
        """`columns` and what clamping made of them (a sweep's row, where clamping shows)."""
        return {**self.columns(), "effective_size": self.effective_size,
                "effective_overlap": self.effective_overlap, "clamped": self.clamped}  # fmt: skip

    @classmethod
    def of_attrs(cls, attrs: Mapping[str, Any]) -> ChunkSettings | None:
        """The settings a chunk frame's attrs record (those `attrs` writes, as used), None when they record none;
        never warned: they were clamped when the frame was made."""
        if CHUNK_SETTING_NAMES[0] not in attrs:
            return None
        return cls.build(*(attrs.get(s.name, s.default) for s in SETTINGS if s.chunk), warn=False)

    def attrs(self) -> dict[str, Any]:
        """A chunk frame's attrs for these settings: each chunk setting under its own name as used, the
        requested ones beside (`engine.source.read_frame` reads them back)."""
        used = (self.effective_size, self.effective_overlap, self.effective_max_characters)
        return {**dict(zip(CHUNK_SETTING_NAMES, used, strict=True)),
                **{FRAME_REQUESTED[name]: value for name, value in self.columns().items() if name in FRAME_REQUESTED},
                "clamped": self.clamped}  # fmt: skip


# The attrs key of a chunk frame's requested value, where it differs from the value used.
FRAME_REQUESTED = {"chunk_size": "requested_chunk_size", "chunk_overlap": "requested_chunk_overlap"}


def max_workers() -> int:
    """The most worker processes accepted: `WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: object) -> int:
    """Validate `workers` (a count of processes; None means automatic: one per core, used when
    `MIN_FILES_FOR_PROCESSES` files are left to parse, below that in this process)."""
    if workers is None:
        return os.cpu_count() or 1
    try:
        count = whole_number("workers", workers, "a number of processes, or None for one per core")
    except TypeError:
        msg = f"workers must be an int (number of processes) or None for one per core, got {workers!r}"
        raise TypeError(msg) from None
    if count < 1:
        msg = f"workers must be at least 1, got {count}; pass workers=1 to chunk in this process"
        raise ValueError(msg)
    if count > max_workers():
        msg = (
            f"workers={count} is more than {WORKERS_PER_CORE} per core ({max_workers()} on this machine with "
            f"{os.cpu_count() or 1} cores); pass workers=None for one per core"
        )
        raise ValueError(msg)
    return count


_SIZE_FACTORS = {"K": 1024, "M": 1024**2, "G": 1024**3}


def parse_size(value: object) -> int:
    """'1M' -> 1,048,576 (K, M, G are powers of 1024, as ripgrep's --max-filesize); ASCII digits only."""
    if isinstance(value, str):
        text = value.strip().upper()
        factor = _SIZE_FACTORS.get(text[-1:], 1)
        number = text[:-1] if factor != 1 else text
        # isdigit alone accepts '²' and '١٢': ripgrep reads ASCII digits only.
        if number.isascii() and number.isdigit():
            return int(number) * factor
        msg = f"max_file_size {value!r} is not a size; pass bytes as an int or a string like '500K', '1M', '2G'"
        raise ValueError(msg)
    size = whole_number("max_file_size", value, "bytes; or a string like '1M'")
    if size < 0:
        msg = f"max_file_size {size} is negative; pass 0 or more bytes, or a string like '500K', '1M', '2G'"
        raise ValueError(msg)
    return size


def path_list(name: str, paths: object) -> list[str | os.PathLike[str]]:
    """The paths as a list; one str or path-like is a list of one (never iterated character by character)."""
    if isinstance(paths, str | os.PathLike):
        return [paths]
    if isinstance(paths, bytes) or not isinstance(paths, Iterable):
        msg = f"{name} must be a path or an iterable of paths (str or pathlib.Path), got {type(paths).__name__}"
        raise TypeError(msg)
    return list(paths)


@checked_init
@setting_docs
@dataclass(frozen=True)
class Settings:
    """Every setting, each with its one default (the table `clanka_nb.defaults.SETTINGS` documents each);
    checked and clamped once, when built.

    The values are kept as given (`chunk` holds the chunk settings as the reference uses them); a default is
    a marker of `clanka_nb.defaults` (`is_default`), so a source with settings of its own (a chunk frame)
    fills in those not passed (`filled_from`). Every public function that takes settings also takes one
    `settings=` object; the keywords passed beside it win (`over`).
    """

    chunk_size: int = CHUNK_SIZE
    chunk_overlap: int = CHUNK_OVERLAP
    chunk_max_characters: float | None = NO_LIMIT
    languages: str | None = None
    max_file_size: str | int = MAX_FILE_SIZE
    workers: int | None = None
    # The clamped chunk settings, computed once when built (never passed: `init=False`).
    chunk: ChunkSettings = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Checked when built, wherever it is built: a bad value never travels further than the line that made it.
        object.__setattr__(self, "chunk", ChunkSettings.build(
            self.chunk_size, self.chunk_overlap, self.chunk_max_characters, warn=False))  # fmt: skip
        if self.languages is not None:
            check_languages(self.languages)
        parse_size(self.max_file_size)
        if self.workers is not None:
            check_workers(self.workers)

    def warned(self) -> Settings:
        """These settings, after a `SettingClampedWarning` at the user's line when a chunk setting is clamped
        (what a public function says once, on its first line)."""
        note = self.clamp_note
        if note is not None:
            _warn(note)
        return self

    def over(self, settings: Settings | None, *, warn: bool = True) -> Settings:
        """These settings (a public function's keywords) in front of `settings` (its `settings=` object): each
        setting passed as a keyword wins, the others come from `settings` (None: these alone); then `warned`
        (unless `warn=False`). The one line every public function starts with."""
        chosen = self if settings is None else settings if not self.passed else self.filled_from(settings)
        return chosen.warned() if warn else chosen

    @property
    def passed(self) -> frozenset[str]:
        """The names of the settings the caller passed (the others are defaults)."""
        return frozenset(name for name in SETTING_NAMES if not _unset(name, getattr(self, name)))

    def filled_from(self, other: Settings) -> Settings:
        """These settings with `other`'s in place of every one not passed (a chunk frame's, a Codebase's mode)."""
        taken = {name: getattr(other, name) for name in SETTING_NAMES if _unset(name, getattr(self, name))}
        # Checked when built: a frame's attrs may have been edited, so its values are checked like any.
        return dataclasses.replace(self, **taken) if taken else self

    @property
    def effective_size(self) -> int:
        """`chunk_size` as the reference uses it: at least 1."""
        return self.chunk.effective_size

    @property
    def effective_overlap(self) -> int:
        """`chunk_overlap` as the reference uses it: 0 .. effective_size - 1."""
        return self.chunk.effective_overlap

    @property
    def clamp_note(self) -> str | None:
        """What the reference's clamping changes, in the words the CLI prints (and a `SettingClampedWarning` says);
        None when nothing."""
        return self.chunk.clamp_note

    @property
    def mode(self) -> str:
        """The language mode for a source with none of its own: `languages`, else "clanka"."""
        return self.languages or DEFAULT_LANGUAGES

    def chunking(self) -> dict[str, Any]:
        """The chunk settings as keyword arguments (as requested, before clamping; no limit as None)."""
        return self.chunk.requested()


def _unset(name: str, value: object) -> bool:
    # None is "not passed" for the settings whose None means the source's own / automatic.
    return is_default(value) or (value is None and name in _NONE_IS_UNSET)


_NONE_IS_UNSET = frozenset(setting.name for setting in SETTINGS if setting.default is None)
TEXT_SETTING_NAMES = (*CHUNK_SETTING_NAMES, "languages")
# The settings whose None is "no limit" (a value), not "not passed" or "unknown".
NONE_IS_NO_LIMIT = frozenset(setting.name for setting in SETTINGS if setting.default is NO_LIMIT)


@dataclass(frozen=True)
class Grid:
    """The chunk settings a sweep, Dask's sweep and churn try: each one value or a list of values (a single
    value is a list of one); every combination, in `itertools.product` order, is one setting."""

    chunk_size: int | Iterable[int] = SWEEP_CHUNK_SIZES
    chunk_overlap: int | Iterable[int] = CHUNK_OVERLAP
    chunk_max_characters: float | Iterable[float | None] | None = NO_LIMIT

    def filled_from(self, values: Mapping[str, object]) -> Grid:
        """This grid with `values` (a chunk frame's settings) in place of every chunk setting not passed."""
        taken = {name: values[name] for name in CHUNK_SETTING_NAMES
                 if name in values and is_default(getattr(self, name))}  # fmt: skip
        return dataclasses.replace(self, **taken)  # type: ignore[arg-type]  # `taken` holds only this dataclass's field names

    def combinations(self) -> list[ChunkSettings]:
        """Every combination, each checked (bad values fail before any parsing)."""
        values = (setting_values(name, getattr(self, name)) for name in CHUNK_SETTING_NAMES)
        return [ChunkSettings.build(*combo) for combo in itertools.product(*values)]


def setting_values(name: str, value: object) -> list[Any]:
    """A setting as a list of values to try (a single value is a list of one); the sweep's, Dask's and churn's."""
    values = list(value) if isinstance(value, Iterable) and not isinstance(value, str) else [value]
    if not values:
        msg = f"{name} is empty; give at least one value to try, e.g. {name}=[30]"
        raise ValueError(msg)
    return values


# The setting keywords of the public functions, for type checkers (`**given: Unpack[TextKeywords]`, PEP 692) and for
# `setting_keywords`, which reads the group from that annotation and lists each of its settings as a keyword of the
# signature shift-tab shows. Written once, beside `Settings`; `tests/test_settings_once.py` holds their names and types
# to the table. Four groups, one per kind of work (docs/architecture.md, "Adding a setting"): the chunk settings alone
# (a parsed codebase re-chunked), a text's (and its language mode), a source's (every setting: a folder listed and
# read in processes) and a grid's (values to try). A function that takes a text's settings and one more opening setting
# (`engine.chunk_files`' workers, Dask's listing size) writes that one out, as a grid's function writes out its
# opening settings: the decorator holds it to the table too. A new chunk setting is one line in `ChunkKeywords` (every
# group but the grid's inherits it) and one in `GridKeywords`.
class ChunkKeywords(TypedDict, total=False):
    """The chunk settings as keywords: a parsed codebase re-chunked (the tuner's)."""

    chunk_size: int
    chunk_overlap: int
    chunk_max_characters: float | None


class TextKeywords(ChunkKeywords, total=False):
    """The settings of a text or of files named one by one: the chunk settings and the language mode."""

    languages: str | None


class SourceKeywords(TextKeywords, total=False):
    """Every setting: a folder listed (the file size limit) and read in parallel (the worker processes)."""

    max_file_size: str | int
    workers: int | None


class GridKeywords(TypedDict, total=False):
    """The chunk settings of a grid (`Grid`: each one value or a list of values to try): a sweep's, churn's."""

    chunk_size: int | Iterable[int]
    chunk_overlap: int | Iterable[int]
    chunk_max_characters: float | Iterable[float | None] | None


# The groups a `**given` annotation may name, by name (an annotation is a string under `from __future__ import
# annotations`: read here, never evaluated, so a module may import its group for type checkers alone).
KEYWORD_GROUPS: dict[str, type] = {group.__name__: group for group in (ChunkKeywords, TextKeywords, SourceKeywords,
                                                                       GridKeywords)}  # fmt: skip
_Function = TypeVar("_Function", bound=Callable[..., Any])
# Each keyword's (default, annotation) as a signature shows it: the table's; a grid's, its field of `Grid`.
_SHOWN = {setting.name: (setting.default, setting.annotation) for setting in SETTINGS}
_GRID_SHOWN = {field.name: (field.default, field.type) for field in dataclasses.fields(Grid)}
_UNPACKED = re.compile(r"(?:typing\.)?Unpack\[(\w+)\]")


@overload
def setting_keywords(function: _Function, /) -> _Function: ...
@overload
def setting_keywords(**own_defaults: object) -> Callable[[_Function], _Function]: ...
def setting_keywords(function: Callable[..., Any] | None = None, /, **own_defaults: object) -> Any:
    """Give a public function declared `(..., *, settings: Settings | None = None, **given: Unpack[TextKeywords])` the
    signature shift-tab and the docs show: one keyword-only parameter per setting of the group its `**given` names (a
    TypedDict above, named there alone), with the table's default and type (for `GridKeywords`, `Grid`'s), before
    `settings=` or the first setting written out. Used bare (`@setting_keywords`), or called with the function's own
    defaults where they differ from the table's (`@setting_keywords(chunk_max_characters=INDEX_MAX_CHARACTERS)`,
    markers too, so a `settings=` object, a chunk frame, still fills them in); the function reads `given` as passed,
    with those. A keyword it does not take is a TypeError naming the closest one, as Python's own. A setting written
    out beside the group must show the table's default and type; any disagreement is a TypeError when the module is
    imported, naming the function and the fix."""
    if isinstance(function, type):  # the old spelling, `@setting_keywords(TextKeywords)`: a second place to name it
        msg = (f"setting_keywords takes no group (got {function.__name__}): the function's **given: Unpack[...] names "
               "it; write @setting_keywords, or @setting_keywords(name=own_default)")  # fmt: skip
        raise TypeError(msg)
    if function is not None:
        return _decorated(function, own_defaults)
    return lambda declared: _decorated(declared, own_defaults)


def group_of(function: Callable[..., Any]) -> type:
    """The keyword group (a TypedDict above) that `function`'s `**given: Unpack[...]` names; a TypeError naming the
    fix when it declares no `**given`, or names no group."""
    declared = inspect.signature(function)
    given = next((p for p in declared.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    groups = ", ".join(KEYWORD_GROUPS)
    if given is None:
        msg = f"{function.__qualname__} takes no **given; declare **given: Unpack[<group>], one of {groups}"
        raise TypeError(msg)
    annotation = given.annotation
    if isinstance(annotation, str):
        match = _UNPACKED.fullmatch(annotation.replace(" ", ""))
        name = match.group(1) if match else None
    else:  # evaluated (a module without `from __future__ import annotations`): Unpack[group] itself
        arguments = typing.get_args(annotation) if typing.get_origin(annotation) is Unpack else ()
        name = getattr(arguments[0], "__name__", None) if arguments else None
    group = KEYWORD_GROUPS.get(name or "")
    if group is None or (not isinstance(annotation, str) and typing.get_args(annotation)[0] is not group):
        shown = (" with no group" if annotation is inspect.Parameter.empty
                 else f": {annotation if isinstance(annotation, str) else repr(annotation)}")  # fmt: skip
        msg = (f"{function.__qualname__} declares **{given.name}{shown}; declare **{given.name}: Unpack[<group>], "
               f"one of {groups}")  # fmt: skip
        raise TypeError(msg)
    return group


def _decorated(function: _Function, own_defaults: Mapping[str, object]) -> _Function:
    group = group_of(function)
    names = [name for name in SETTING_NAMES if name in group.__annotations__]
    unknown = sorted(set(group.__annotations__) - set(names) | set(own_defaults) - set(names))
    if unknown:
        msg = (f"{function.__qualname__}: {unknown} are not settings of {group.__name__} (its **given); add them to "
               "clanka_nb.defaults.SETTINGS, or drop the default")  # fmt: skip
        raise TypeError(msg)
    declared = inspect.signature(function)
    kept = [p for p in declared.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    _check_written_out(function.__qualname__, group, kept)
    table = _GRID_SHOWN if group is GridKeywords else _SHOWN
    shown = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=own_defaults.get(
        name, table[name][0]), annotation=table[name][1]) for name in names]  # fmt: skip
    # Where the settings were written before: ahead of `settings=`, or of the first setting written out (a grid's
    # opening settings, `workers` of files named one by one), so they come in the table's order.
    at = next((i for i, p in enumerate(kept) if p.name == "settings" or p.name in _SHOWN), len(kept))
    signature = declared.replace(parameters=[*kept[:at], *shown, *kept[at:]])
    accepted = frozenset(p.name for p in signature.parameters.values()
                         if p.kind is not inspect.Parameter.POSITIONAL_ONLY)  # fmt: skip

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not accepted.issuperset(kwargs):
            refuse(function.__qualname__, next(name for name in kwargs if name not in accepted), accepted)
        for name, default in own_defaults.items():
            kwargs.setdefault(name, default)
        return function(*args, **kwargs)

    wrapper.__signature__ = signature  # type: ignore[attr-defined]  # a function takes attributes; Callable types none: inspect reads it
    # Each setting's `Args:` line from the table, so `help()` and the docs' parameter table show the one line.
    grid = frozenset(names) if group is GridKeywords else frozenset()
    shown_types = {**{name: annotation for name, (_, annotation) in _SHOWN.items()},
                   **{name: table[name][1] for name in names}}  # fmt: skip
    wrapper.__doc__ = with_setting_lines(function.__qualname__, function.__doc__, signature,
                                         generated_lines(signature, shown_types, grid_names=grid))  # fmt: skip
    wrapper.setting_group = group  # type: ignore[attr-defined]  # read by tests/test_settings_once.py
    return wrapper  # type: ignore[return-value]  # the wrapper has F's signature, set above


def _check_written_out(call: str, group: type, kept: list[inspect.Parameter]) -> None:
    """A setting written out beside the group shows the table's default and type, keyword-only, after the group's in
    the table's order; none is written out twice."""
    for parameter in kept:
        setting = _SHOWN.get(parameter.name)
        if setting is None:
            continue
        default, annotation = setting
        if parameter.name in group.__annotations__:
            msg = f"{call} writes out {parameter.name}, a keyword of {group.__name__} (its **given); drop one"
            raise TypeError(msg)
        agrees = parameter.default == default and type(parameter.default) is type(default)
        if not agrees or parameter.annotation != annotation or parameter.kind is not inspect.Parameter.KEYWORD_ONLY:
            msg = (f"{call} writes out {parameter} but the table's is {parameter.name}: {annotation} = {default!r} "
                   "(keyword-only); write it so (its default the marker of clanka_nb.defaults), or take it in the "
                   "group of **given")  # fmt: skip
            raise TypeError(msg)
    written = [p.name for p in kept if p.name in _SHOWN]
    order = [*(name for name in SETTING_NAMES if name in group.__annotations__), *written]
    if order != sorted(order, key=SETTING_NAMES.index):
        msg = (f"{call} writes out {written}; write them in the table's order "
               f"{[name for name in SETTING_NAMES if name in written]}, all after those of {group.__name__}")
        raise TypeError(msg)
