"""Syntax colours for the preview: each line as HTML with inline spans naming JupyterLab's editor colours."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from html import escape
from typing import Any

from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.token import Token
from pygments.util import ClassNotFound

from ._style import accent

MAX_LINE_CHARS = 1000  # longer lines are cut for display (a minified line would be one huge row)


def _lexer(path: str, language: str | None) -> Lexer:
    return _lexer_for(os.path.basename(path), language)


@functools.lru_cache(maxsize=64)
def _lexer_for(path: str, language: str | None) -> Lexer:  # by the file's name: pygments scans every pattern
    # stripnl=False: the lexer must not drop leading/trailing blank lines, or line numbers shift.
    try:
        return get_lexer_for_filename(path, stripnl=False)
    except ClassNotFound:
        pass
    if language:
        try:
            return get_lexer_by_name(language, stripnl=False)
        except ClassNotFound:
            pass
    return TextLexer(stripnl=False)


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS]


# Token kinds -> JupyterLab's editor colour variables (so code looks as it does in a notebook cell, in
# every theme), with the light theme's value as the fallback outside JupyterLab. Checked first to last:
# the first kind a token is a subtype of wins; a token of none of them keeps the text colour.
_EDITOR_COLOURS: tuple[tuple[Any, str, str], ...] = (
    (Token.Comment, "comment", "#408080"),
    (Token.Keyword.Type, "variable-3", "#085"),
    (Token.Keyword, "keyword", "#008000"),
    (Token.Operator.Word, "keyword", "#008000"),
    (Token.Operator, "operator", "#7800c2"),
    (Token.Punctuation, "punctuation", "#05a"),
    (Token.Literal.String.Regex, "string-2", "#708"),
    (Token.Literal.String.Escape, "string-2", "#708"),
    (Token.Literal.String, "string", "#ba2121"),
    (Token.Literal.Number, "number", "#080"),
    (Token.Name.Builtin, "builtin", "#008000"),
    (Token.Name.Function, "def", "#00f"),
    (Token.Name.Class, "def", "#00f"),
    (Token.Name.Decorator, "meta", "#a2f"),
    (Token.Name.Tag, "tag", "#170"),
    (Token.Name.Attribute, "attribute", "#00c"),
    (Token.Name.Property, "property", "#05a"),
    (Token.Generic.Heading, "header", "#00f"),
    (Token.Generic.Subheading, "header", "#00f"),
    (Token.Error, "error", "#f00"),
)


# Declared once on the preview's root element; each highlighted span then only names its variable.
SYNTAX_VARIABLES = ";".join(
    f"--cn-{name}:{accent(f'var(--jp-mirror-editor-{name}-color,{fallback})')}"
    for name, fallback in dict((name, fallback) for _, name, fallback in _EDITOR_COLOURS).items()
)


@functools.cache
def _token_style(token: Any) -> str:  # a pygments token type
    """Inline CSS for one token type: the variable of its editor colour (see SYNTAX_VARIABLES)."""
    for kind, name, _ in _EDITOR_COLOURS:
        if token in kind:
            return f"color:var(--cn-{name});font-style:italic" if kind is Token.Comment else f"color:var(--cn-{name})"
    return ""


def highlight_lines(lines: Sequence[str], path: str, language: str | None = None) -> list[str]:
    """Each line as HTML with inline syntax colours.

    The text is lexed as a whole (a block comment or template string spanning lines stays one
    token), then each token is cut at newlines into per-line spans. The HTML is written here from
    Pygments' token stream, not by its HtmlFormatter, so escaping, markup and colours are this
    project's and do not change with the Pygments release.
    """
    if not lines:
        return []
    clipped = [_clip(line) for line in lines]
    # A slider move redraws the same file with other bands: its colours are lexed once, not per move.
    done = _highlighted("\n".join(clipped), len(clipped), path, language)
    if done is None:
        # A lexer that rewrote line breaks: fall back to plain escaped text rather than misnumber lines.
        return [escape(line, quote=False) for line in clipped]
    return list(done)


@functools.lru_cache(maxsize=8)
def _highlighted(text: str, count: int, path: str, language: str | None) -> tuple[str, ...] | None:
    """`highlight_lines` of `count` (clipped) lines joined with LF; None when the lexer's lines do not match."""
    rows: list[list[tuple[str, str]]] = [[]]
    for token, value in _lexer(path, language).get_tokens(text + "\n"):
        css = _token_style(token)
        for k, piece in enumerate(value.split("\n")):
            if k:
                rows.append([])
            if not piece:
                continue
            row = rows[-1]
            # Neighbours of one colour become one span, and so does white space (its colour is invisible).
            if row and (row[-1][0] == css or piece.isspace()):
                row[-1] = (row[-1][0], row[-1][1] + piece)
            else:
                row.append((css, piece))
    if len(rows) != count + 1 or rows[-1]:
        return None
    return tuple("".join(_span(css, piece) for css, piece in row) for row in rows[:-1])


def _span(css: str, text: str) -> str:
    text = escape(text, quote=False)
    return f'<span style="{css}">{text}</span>' if css else text
