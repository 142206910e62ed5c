"""The language modes: which grammar and which declaration finder a file gets in "clanka" or "extended" mode."""

from __future__ import annotations

from collections.abc import Iterable

from ._declarations import GRAMMARS, Declaration, clanka_declarations, parser_for
from ._files import extension

LANGUAGE_MODES = ("clanka", "extended")


def check_languages(languages: object) -> str:
    """Validate the `languages` setting."""
    if languages not in LANGUAGE_MODES:
        msg = (
            f"languages must be 'clanka' (exactly the reference: TS/JS only) or 'extended' "
            f"(adds Python, Go, Rust, Java and more), got {languages!r}"
        )
        raise ValueError(msg)
    return languages


def grammar_for(path: str, languages: str) -> str | None:
    """The grammar a file of this name is parsed with in this mode (None: it is not parsed)."""
    if languages == "extended":
        from ._extended import spec_for  # loaded only when extended mode is asked for (its tables are large)

        spec = spec_for(path)
        return None if spec is None else spec.grammar
    return GRAMMARS.get(extension(path))


def load_grammars(paths: Iterable[str], languages: str) -> None:
    """Load the grammar of every file of `paths` in this process (GrammarUnavailableError if one cannot be).

    Worker processes load grammars too; checked here first, an install that cannot load one is a clear
    error in the caller's process instead of a worker dying on its first file.
    """
    if languages == "extended":
        for grammar in {grammar_for(path, languages) for path in paths} - {None}:
            parser_for(grammar)


def find_declarations(path: str, text: str, lines: list[str], languages: str) -> tuple[str | None, list[Declaration]]:
    """The grammar used for the file (None: not parsed) and its declaration ranges."""
    if languages == "extended":
        from ._extended import extended_declarations  # loaded only when extended mode is asked for

        return extended_declarations(path, text, lines)
    return clanka_declarations(path, text, lines)
