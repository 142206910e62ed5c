"""Parsing a text with a grammar on its own: whether it is code (commented-out code vs prose), and its tree."""

from __future__ import annotations

from tree_sitter import Node

from ._declarations import _REFERENCE_LANGUAGES, GrammarUnavailableError, parser_for, reference_parser
from ._parsing import c_locale
from .settings import checked_keywords


@checked_keywords
def syntax_tree(text: str, grammar: str) -> Node | None:
    """The root node of `text` parsed with the grammar (e.g. "typescript", "python"); None when this install
    cannot load that grammar. Positions are UTF-8 bytes; rows are the text's lines (0-based).

    Args:
        text: The text.
        grammar: The tree-sitter grammar's name ("typescript", "python"...).

    Returns:
        The root node; None when this install cannot load the grammar.
    """
    try:
        parser = reference_parser(grammar) if grammar in _REFERENCE_LANGUAGES else parser_for(grammar)
    except (GrammarUnavailableError, LookupError, ValueError):
        return None  # not a grammar here
    with c_locale():  # the scanners' character classes as in every parse of the engine (see `_parsing`)
        # One call, not `_parsing.parse`'s pieces: callers read `node.text`, which a tree read in pieces
        # lacks with py-tree-sitter 0.24.
        return parser.parse(text.encode("utf-8", "surrogatepass")).root_node


@checked_keywords
def parses_as_code(text: str, grammar: str) -> bool:
    """True when `text` parses with the grammar (e.g. "typescript", "python") with no error or missing node,
    and holds something besides comments. A grammar this install cannot load gives False.

    This alone does not make a text code: prose such as a single word or "cache or recompute" (a Python
    boolean expression) parses too, so callers weigh it with what the text looks like.

    Args:
        text: The text.
        grammar: The tree-sitter grammar's name ("typescript", "python"...).

    Returns:
        Whether it parses with no error and holds more than comments.
    """
    root = syntax_tree(text, grammar)
    return root is not None and not root.has_error and any(child.type != "comment" for child in root.named_children)
