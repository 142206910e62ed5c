"""The default of every setting, in one place that loads nothing (the CLI's `--help` shows them too)."""

import math


# A default is a marker: the plain value (an int is an int, arithmetic works) of a type that says "not passed",
# so a source with settings of its own (a chunk frame) fills in exactly those the caller left out.
class DefaultInt(int):
    """An int default, shown as the int."""

    __slots__ = ()

    def __repr__(self) -> str:
        return int.__repr__(self)

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return type(self), (int(self),)


class DefaultFloat(float):
    """A float default, shown as the float (`inf`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return float.__repr__(self)

    def __reduce__(self) -> tuple[type, tuple[float]]:
        return type(self), (float(self),)


class DefaultStr(str):
    """A str default, shown as the str."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__repr__(self)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return type(self), (str(self),)


class DefaultTuple(tuple):  # a tuple's subclass with __slots__ = () as the others
    """A grid's default (values to try), shown as the tuple."""

    __slots__ = ()

    def __repr__(self) -> str:
        return tuple.__repr__(self)

    def __reduce__(self) -> tuple[type, tuple[tuple[object, ...]]]:
        return type(self), (tuple(self),)


def is_default(value: object) -> bool:
    """Whether `value` is a default the caller did not pass (a marker), rather than a value given."""
    return isinstance(value, DefaultInt | DefaultFloat | DefaultStr | DefaultTuple)


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
