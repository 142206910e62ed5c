"""The language modes: which grammar and which declaration finder a file gets in "clanka" or "extended" mode."""

from __future__ import annotations

from ._declarations import GRAMMARS, Declaration, clanka_declarations
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
    return languages  # type: ignore[return-value]


def grammar_for(path: str, languages: str) -> str | None:
    """The grammar a file of this name is parsed with in this mode (None: it is not parsed)."""
    if languages == "extended":
        from ._extended import spec_for  # loaded only when extended mode is asked for (its tables are large)

        spec = spec_for(path)
        return None if spec is None else spec.grammar
    return GRAMMARS.get(extension(path))


def find_declarations(path: str, text: str, lines: list[str], languages: str) -> tuple[str | None, list[Declaration]]:
    """The grammar used for the file (None: not parsed) and its declaration ranges."""
    if languages == "extended":
        from ._extended import extended_declarations  # loaded only when extended mode is asked for

        return extended_declarations(path, text, lines)
    return clanka_declarations(path, text, lines)
