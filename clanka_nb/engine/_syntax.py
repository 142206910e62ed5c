"""Whether a text parses as code of a grammar without errors: how commented-out code is told from prose."""

from __future__ import annotations

from ._declarations import _REFERENCE_LANGUAGES, GrammarUnavailableError, parser_for, reference_parser


def parses_as_code(text: str, grammar: str) -> bool:
    """True when `text` parses with the grammar (e.g. "typescript", "python") with no error or missing node,
    and holds something besides comments. A grammar this install cannot load gives False.

    This alone does not make a text code: prose such as a single word or "cache or recompute" (a Python
    boolean expression) parses too, so callers weigh it with what the text looks like.
    """
    try:
        parser = reference_parser(grammar) if grammar in _REFERENCE_LANGUAGES else parser_for(grammar)
    except (GrammarUnavailableError, LookupError, ValueError):
        return False  # not a grammar here: nothing can be said to parse
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    return not root.has_error and any(child.type != "comment" for child in root.named_children)
