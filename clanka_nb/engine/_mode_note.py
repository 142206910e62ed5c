"""The one note a codebase chunked in clanka mode gets when most of its chunked files have a grammar extended mode
knows but got line windows (Go, Rust, Java...): it names `languages="extended"`, and says that clanka itself cuts
those files into windows (it parses TS/JS only), so the windows are what clanka indexes (issue 53 item 5)."""

from __future__ import annotations

from collections.abc import Mapping

from ._declarations import GRAMMARS
from ._extended import spec_for
from ._files import extension, language_of

WINDOW = "window"


def has_extended_grammar(path: str) -> bool:
    """Whether extended mode parses this file at its declarations and clanka mode does not (clanka parses TS/JS
    only: a TS file's windows have another cause, such as a file too long or binary)."""
    return spec_for(path) is not None and extension(path) not in GRAMMARS


def windows_clause(path: str) -> str:
    """What a line-window file of clanka mode that extended mode parses can do, in a clause."""
    return (f'; languages="extended" would cut this {language_of(path)} file at its declarations, while clanka '
            "itself cuts it into line windows (it parses TS/JS only)")


def windowed_grammar_note(chunkers: Mapping[str, str | None], mode: str) -> str | None:
    """The note, when in clanka mode most chunked files (`chunkers`: path -> "ast", "window" or None when it gave no
    chunk) got line windows though extended mode has their grammar; None otherwise."""
    if mode != "clanka":
        return None
    chunked = [path for path, chunker in chunkers.items() if chunker is not None]
    windowed = [path for path in chunked if chunkers[path] == WINDOW and has_extended_grammar(path)]
    if not chunked or 2 * len(windowed) <= len(chunked):
        return None
    counts: dict[str, int] = {}
    for path in windowed:
        counts[language_of(path)] = counts.get(language_of(path), 0) + 1
    named = ", ".join(f"{language} ({count:,})" for language, count in sorted(counts.items(), key=lambda i: -i[1]))
    return (f"{len(windowed):,} of the {len(chunked):,} chunked files got line windows though extended mode has their "
            f'grammar ({named}): languages="extended" cuts them at their declarations; clanka itself would cut them '
            "into line windows (it parses TS/JS only), so these windows are what clanka indexes")
