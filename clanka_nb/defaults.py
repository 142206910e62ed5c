"""The default of every setting, in one place that loads nothing (the CLI's `--help` shows them too)."""

import math


# A default is a marker: the plain value (an int is an int, arithmetic works) of a type that says "not passed",
# so a source with settings of its own (a chunk frame) fills in exactly those the caller left out.
class _Default:
    """Shown and pickled as the plain value of its other base (int, float, str, tuple)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return type(self).__bases__[-1].__repr__(self)

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


class DefaultTuple(_Default, tuple):
    """A grid's default (values to try), shown as the tuple."""

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
