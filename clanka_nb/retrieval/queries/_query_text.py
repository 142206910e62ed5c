"""A doc comment's text as a search query: markers and tags out, the first paragraph's first two sentences."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ...engine import parses_as_code, syntax_tree

MIN_WORDS = 3
MAX_SENTENCES = 2
MAX_WORDS = 40
MAX_PARSED = 8_192  # characters of a comment the commented-out-code test parses

# Why a doc comment gives no query: the `reason` of `dropped_queries`, in the order they are tested.
DROP_REASONS = {
    "license": "a license header",
    "directive": "only a lint or tool directive (eslint-disable, biome-ignore, @ts-expect-error, noqa, pragma, ...)",
    "code": "commented-out code: it parses as code in the file's language",
    "banner": "a banner: a row of punctuation, a run of one punctuation mark, or mostly not letters",
    "markers": "comment markers are left in its text (a comment inside a comment, e.g. `// /** ... */`)",
    "short": f"under {MIN_WORDS} words (a link counts as none)",
    "duplicate": "the same text documents several declarations, so it cannot say which one it is about",
}

_BLOCK_OPEN = re.compile(r"^\s*/\*+!?")
_BLOCK_CLOSE = re.compile(r"\*+/.*$")
_BLOCK_STAR = re.compile(r"^\s*\*+(?!/)")
_LINE_MARKER = re.compile(r"^\s*(?://+!?|#+|--+)")
_DOCSTRING_OPEN = re.compile(r"""^\s*[rRuUbBfF]{0,2}("{3}|'{3}|"|')""")
_DOCSTRING_CLOSE = re.compile(r"""("{3}|'{3}|"|')\s*$""")
# Lines that start a docstring's sections: the query is the prose above them.
_SECTION = re.compile(
    r"^(?:@|:(?:param|type|return|rtype|raises)\b|(?:Args|Arguments|Parameters|Returns|Yields|Raises|Examples?"
    r"|Notes?|Attributes|See Also)\s*:?\s*$|-{3,}$|={3,}$)",
    re.IGNORECASE,
)
# A line that tells a tool what to do (linters, type checkers, formatters, coverage, bundlers), not a reader.
_DIRECTIVE = re.compile(
    r"""^(?:eslint(?:-disable|-enable|-env)?\b|jshint\b|jslint\b|(?:globals?|exported)(?:\s+[\w$]+(?::\s*\w+)?,?)+\s*$
    |biome-ignore
    |deno-(?:lint|fmt)-ignore|@ts-(?:expect-error|ignore|nocheck|check)\b|prettier-ignore|(?:istanbul|c8|v8)\s+ignore
    |tslint:|@flow\b|@jsx(?:Runtime|ImportSource|Frag)?\b|@refresh\b|webpack[A-Z]\w*\s*:|@vite-ignore|<reference\s
    |noqa\b|type:\s*ignore|pragma\b|pylint:|fmt:\s*(?:off|on|skip)|isort:|mypy:|pyright:|ruff:|nolint\b|NOSONAR
    |rubocop:|clang-format\s+(?:off|on)|@formatter:|noinspection\b|language=|\#(?:end)?region\b|endregion\b|@generated\b
    |cspell:|spell-checker:|markdownlint|stylelint-|go:\w+|\+build\s|nosec\b|codespell:)""",
    re.IGNORECASE | re.VERBOSE,
)
_PUNCTUATION_ROW = re.compile(r"^[^\w\s]{3,}$")  # a comment line of only punctuation, e.g. `// --------`
_PUNCTUATION_RUN = re.compile(r"([^\w\s.])\1{2,}")  # `////`, `===`, `***` inside the text
_MARKERS = re.compile(r"/\*|\*/|<!--|(?:^|\s)//")  # not `-->`: prose draws arrows with it
_CODE_CHARACTER = re.compile(r"[(){}\[\];=<>]")
_CODE_KEYWORD = re.compile(
    r"^(?:const|let|var|function|class|import|export|return|type|interface|enum|def|async|await|from|if|for|while"
    r"|yield|fn|pub|func|package|struct|impl|public|private|static|#include)\b"
)
_INLINE_TAG = re.compile(r"\{@\w+\s*([^}]*)\}")  # {@link Vector3 the vector} -> Vector3 the vector
# Only HTML's own elements: `<headers>` or `<T>` in prose is a placeholder or a type, and part of the sentence.
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|b|big|blockquote|br|caption|cite|code|dd|del|div|dl|dt|em|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p"
    r"|pre|q|s|samp|small|span|strong|sub|sup|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|var)\b[^>]*>",
    re.IGNORECASE,
)
_CLASS_GRAMMARS = frozenset({"typescript", "tsx", "javascript"})
# A scheme is at most 32 characters: unbounded, `[a-z0-9+.-]*` rescans a word such as `a.a.a...` from each dot.
_URL = re.compile(r"\b[a-z][a-z0-9+.-]{0,31}://\S+", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
# A sentence ends at . ! or ? followed by a space and a word that does not start in lower case,
# unless the dot closes an initial ("A. Author") or a common abbreviation.
_SENTENCE_END = re.compile(r"(?<!\b\w)(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s+(?![a-z]))")
# Code that need not parse (a fragment, a regex literal the grammar reads otherwise): a text ending like a
# statement or a block, or starting as a declaration or an import does. Without a grammar to parse with,
# also an arrow or any leading keyword (with one, prose such as "return the ID of this chunk" is kept).
_CODE_ENDING = re.compile(
    r"[;{}]\s*$|\(\);|^\s*(?:(?:const|let|var)\s+[\w${\[][^=]*=|import\s+[\w$*{\"']|export\s+(?:default|const|let|var"
    r"|function|class|type|interface|enum)\b)"
)
_CODE_LIKE = re.compile(r"[;{}]\s*$|=>|\(\);|^\s*(?:const|let|var|import|return)\s")


class Judged(NamedTuple):
    """What a doc comment gives: its query text, and why it is dropped (None when it is kept)."""

    text: str
    reason: str | None


def comment_lines(lines: Sequence[str], kind: str) -> list[str]:
    """The comment's lines with their markers (`/**`, `*`, `*/`, `//`, `#`, quotes) removed."""
    out = []
    for i, line in enumerate(lines):
        if kind == "block":
            line = _BLOCK_STAR.sub("", _BLOCK_CLOSE.sub("", _BLOCK_OPEN.sub("", line)))
        elif kind == "line":
            line = _LINE_MARKER.sub("", line)
        else:  # a docstring: quotes open its first line and close its last
            line = _DOCSTRING_OPEN.sub("", line) if i == 0 else line
            line = _DOCSTRING_CLOSE.sub("", line) if i == len(lines) - 1 else line
        out.append(line.strip())
    return out


def _paragraph_lines(lines: Sequence[str]) -> list[str]:
    """The lines up to the first blank line, tag (`@param`) or section heading."""
    kept: list[str] = []
    for line in lines:
        if _SECTION.match(line) or (not line and kept):
            break
        if line:
            kept.append(line)
    return kept


def _closed_sub(pattern: re.Pattern[str], closing: str, replacement: str, text: str) -> str:
    """`pattern.sub(replacement, text)` for a pattern that ends at `closing` and cannot span it: only the text
    up to the last `closing` is searched (past it no match can end, and each opening there would be scanned to
    the end of the text: `{@a {@a {@a ...` costs the square of its length)."""
    end = text.rfind(closing) + 1
    return pattern.sub(replacement, text[:end]) + text[end:]


def first_paragraph(lines: Sequence[str]) -> str:
    """Text up to the first blank line, tag (`@param`) or section heading, whitespace collapsed."""
    text = _closed_sub(_INLINE_TAG, "}", r"\1", " ".join(_paragraph_lines(lines)))
    text = _closed_sub(_HTML_TAG, ">", "", text).replace("`", "")
    return _SPACE.sub(" ", text).strip()


def first_sentences(text: str, count: int = MAX_SENTENCES, max_words: int = MAX_WORDS) -> str:
    """The first `count` sentences of `text`, at most `max_words` words."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    if len(ends) >= count:
        text = text[: ends[count - 1]]
    words = text.split()
    return " ".join(words[:max_words])


def _parsed_part(text: str) -> str:
    """The part of a comment the code test parses: all of it, or its first MAX_PARSED characters cut at a line
    break (tree-sitter's error recovery on a long run of unclosed brackets, `{@a {@a ...`, grows faster than
    the text; commented-out code is code line by line, so its first lines say it)."""
    if len(text) <= MAX_PARSED:
        return text
    cut = text.rfind("\n", 0, MAX_PARSED)
    return text[: cut if cut > 0 else MAX_PARSED]


def reads_as_code(lines: Sequence[str], grammar: str | None) -> bool:
    """True when the comment's text (all of it, or its first paragraph) parses as code of the file's grammar
    and looks like code: it has a bracket, `;`, `=` or `<>`, or starts with a keyword. Prose that happens to
    parse ("cache or recompute" is a Python expression, one word is an identifier) is kept."""
    if grammar is None:
        return False
    # JavaScript built from TypeScript keeps the TypeScript of its commented-out code: read it as such too.
    grammars = (grammar, "typescript") if grammar == "javascript" else (grammar,)
    for candidate in ("\n".join(lines).strip(), "\n".join(_paragraph_lines(lines))):
        candidate = _parsed_part(candidate)
        looks = _CODE_CHARACTER.search(candidate) or _CODE_KEYWORD.match(candidate)
        if not (candidate and looks):
            continue
        for name in grammars:
            # A method commented out inside a class parses only in a class body.
            if parses_as_code(candidate, name) or (
                name in _CLASS_GRAMMARS and _parses_as_class_member(candidate, name)
            ):
                return True
    return False


def _parses_as_class_member(text: str, grammar: str) -> bool:
    """True when `text` parses with no error as members of a class body, at least one not a comment."""
    root = syntax_tree(f"class _ {{\n{text}\n}}", grammar)
    if root is None or root.has_error or len(root.named_children) != 1:
        return False
    body = root.named_children[0].child_by_field_name("body")
    return body is not None and any(member.type != "comment" for member in body.named_children)


def judge(lines: Sequence[str], kind: str, grammar: str | None = None) -> Judged:
    """The query a doc comment gives, or why it gives none (a key of `DROP_REASONS`).

    `lines` are the comment's source lines, markers in; `grammar` is the file's tree-sitter grammar (the
    commented-out code test parses with it; None skips that test).
    """
    content = comment_lines(lines, kind)
    prose = [line for line in content if not _DIRECTIVE.match(line)]
    text = first_sentences(first_paragraph(prose))
    shown = text or _SPACE.sub(" ", " ".join(content)).strip()[:200]
    if len(prose) < len(content) and not any(prose):
        return Judged(shown, "directive")
    if _CODE_ENDING.search(text) or (grammar is None and _CODE_LIKE.search(text)) or reads_as_code(prose, grammar):
        return Judged(shown, "code")
    first = next((line for line in prose if line), "")
    letters = sum(character.isalpha() for character in text)
    if (
        _PUNCTUATION_ROW.match(first)
        or _PUNCTUATION_RUN.search(text)
        or (text and letters * 2 < len(text.replace(" ", "")))
    ):
        return Judged(shown, "banner")
    if _MARKERS.search(text):
        return Judged(shown, "markers")
    if len(re.findall(r"\w+", _URL.sub(" ", text))) < MIN_WORDS:  # a link names no code: its words do not count
        return Judged(shown, "short")
    return Judged(text, None)


def query_text(lines: Sequence[str], kind: str, grammar: str | None = None) -> str | None:
    """The query a doc comment gives, or None when it gives none (see `judge` for why)."""
    judged = judge(lines, kind, grammar)
    return judged.text if judged.reason is None else None
