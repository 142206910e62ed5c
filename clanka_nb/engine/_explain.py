"""Which rule made each chunk of a file, and why it starts and ends where it does, in words.

The rules are not implemented again here: chunking records how it cut each declaration (`Cut`, only
when asked), and this turns those records and the window segments into sentences with the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._chunker import CodeChunk, Cut, PreparedText, chosen_segments, in_reference_order
from ._declarations import GRAMMARS, REFERENCE_PARSER_LIMIT, parent_label
from ._files import extension
from ._mode_note import has_extended_grammar, windows_clause
from .settings import ChunkSettings, checked_keywords

# The rules `explain` names (docs/explaining-chunks.md says what each means).
RULES = ("declaration", "class-head", "declaration-piece", "character-split", "window")


@dataclass(frozen=True, slots=True)
class ExplainedChunk:
    """A chunk, the rule that made it (one of RULES) and why it starts and ends where it does.

    Attributes:
        chunk: The chunk.
        rule: The rule that made it, one of `RULES`.
        why: A sentence with the numbers: why it starts and ends where it does.
    """

    chunk: CodeChunk
    rule: str
    why: str


@checked_keywords
def explain_file(
    text: PreparedText, settings: ChunkSettings, *, lines: tuple[int, int] | None = None
) -> list[ExplainedChunk]:
    """One entry per chunk of `chunks_of(text, settings)`, in the same order.

    `lines=(first, last)` keeps only the chunks that overlap those lines (a preview's page): the cutting
    runs over the whole file as ever, but no sentence or content is made for a chunk outside them.

    Args:
        text: A prepared file (`prepared_texts`, `Codebase.texts`).
        settings: The chunk settings (`ChunkSettings.build(...)`).
        lines: Only the chunks that overlap these lines (first, last); None: every chunk.

    Returns:
        One entry per chunk: the chunk, its rule and why.
    """
    first, last = (1, text.line_count) if lines is None else lines
    cuts: list[Cut] = []
    chosen = chosen_segments(text, settings, record=cuts)  # the engine's own choice of chunker
    if chosen.chunker is None:
        return []
    path, content = text.path, text.lines
    if chosen.chunker == "ast":
        methods = _methods_by_class(text)
        missed = _in_no_chunk(text, cuts)
        out = []
        for cut in in_reference_order([cut for cut in cuts if cut.end >= first and cut.start <= last]):
            d = cut.declaration
            chunk = CodeChunk(path, cut.start, cut.end, d.name, d.type, d.parent, _join(content, cut.start, cut.end))
            rule, why = _declaration_rule(cut, settings, methods)
            out.append(ExplainedChunk(chunk, rule, why + missed.get(id(cut), "")))
        return out
    reason = _why_windows(text)
    out = []
    segments = chosen.windows
    for number, (s, e) in enumerate(segments, 1):
        if e < first or s > last:
            continue
        chunk = CodeChunk(path, s, e, None, None, None, _join(content, s, e))
        cap = min(text.line_count, s + settings.effective_size - 1)
        where = f"{_lines(s, e)}: line window {number} of {len(segments)}"
        if e < cap:
            why = f"{where}, ended at line {e} to stay within {_chars(settings)}; {reason}"
            out.append(ExplainedChunk(chunk, "character-split", why))
        else:
            why = f"{where}, {_cutting(settings)}; {reason}"
            out.append(ExplainedChunk(chunk, "window", why))
    return out


def _lines(start: int, end: int) -> str:
    return f"line {start}" if start == end else f"lines {start}-{end}"


def _join(lines: list[str], start: int, end: int) -> str:
    return "\n".join(lines[start - 1 : end])


def _what(cut: Cut) -> str:
    d = cut.declaration
    kind = d.type or "declaration"
    named = f"{kind} `{d.name}`" if d.name else f"an unnamed {kind}"
    return f"{named} in {d.parent}" if d.parent else named


def _comment(cut: Cut) -> str:
    """", with its leading comment (lines a-b)" when this chunk starts with the declaration's comments."""
    body = cut.declaration.body_start
    if body is None or cut.start != cut.range_start or body <= cut.start:
        return ""
    return f", with its leading comment ({_lines(cut.start, body - 1)})"


def _moved(cut: Cut) -> str:
    """Extended mode's head rule (`_chunker.head_start`): the first piece starts below the range's start."""
    body = cut.declaration.body_start
    if cut.piece != 1 or body is None or cut.start <= cut.range_start:
        return ""
    return (
        f", starting at line {cut.start} so that it holds the declaration's own first line ({body}): its leading "
        f"comment ({_lines(cut.range_start, body - 1)}) is longer than the chunk allows"
    )


def _declaration_rule(cut: Cut, settings: ChunkSettings, methods: dict[str | None, int]) -> tuple[str, str]:
    where, what, comment = _lines(cut.start, cut.end), _what(cut), _comment(cut) or _moved(cut)
    whole = _lines(cut.range_start, cut.range_end)
    if cut.pieces == 1:
        if cut.start > cut.range_start:
            return "declaration", f"{where}: {what} ({whole}){comment}; from there it fits in {_limits(settings)}"
        return "declaration", f"{where}: {what} whole{comment}; it fits in {_limits(settings)}"
    if cut.head_only:
        count = methods.get(parent_label("class", cut.declaration.name), 0)
        own = "its method is a chunk of its own" if count == 1 else f"its {count} methods are chunks of their own"
        name = cut.declaration.name
        return "class-head", f"{where}: class `{name}` ({whole}) cut to its head{comment}, its first piece; {own}"
    piece = f"piece {cut.piece} of {cut.pieces} of {what} ({whole})"
    if cut.end < min(cut.range_end, cut.start + settings.effective_size - 1):
        ended = f"ended at line {cut.end} to stay within {_chars(settings)}"
        return "character-split", f"{where}: {piece}{comment}, {ended}"
    return "declaration-piece", f"{where}: {piece}{comment}, {_cutting(settings)}"


def _in_no_chunk(text: PreparedText, cuts: list[Cut]) -> dict[int, str]:
    """For the first chunk cut from each declaration range (by `id` of its Cut): a clause naming the meaningful
    lines of that range that fall in no chunk of the file (a class cut to its head leaves its fields out; extended
    mode's head rule, the start of a comment longer than half a chunk), or nothing where every line is in one."""
    covered = bytearray(text.line_count + 2)
    for cut in cuts:
        covered[cut.start : cut.end + 1] = b"\1" * (cut.end - cut.start + 1)
    clauses: dict[int, str] = {}
    seen: set[tuple[int, int, int]] = set()
    for cut in cuts:
        key = (cut.range_start, cut.range_end, id(cut.declaration))
        if key in seen:
            continue
        seen.add(key)
        runs = _runs([
            line for line in range(cut.range_start, cut.range_end + 1)
            if not covered[line] and text.is_meaningful(line)
        ])  # fmt: skip
        if runs:
            shown = ", ".join(_lines(a, b).removeprefix("lines ").removeprefix("line ") for a, b in runs[:3])
            more = f" and {len(runs) - 3} more runs" if len(runs) > 3 else ""
            count = sum(b - a + 1 for a, b in runs)
            clauses[id(cut)] = (
                f"; {count} line{'s' * (count != 1)} of its range with text fall in no chunk ({shown}{more})"
            )
    return clauses


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    """Sorted line numbers as (first, last) runs of consecutive lines."""
    out: list[tuple[int, int]] = []
    for line in lines:
        if out and out[-1][1] == line - 1:
            out[-1] = (out[-1][0], line)
        else:
            out.append((line, line))
    return out


def _methods_by_class(text: PreparedText) -> dict[str | None, int]:
    counts: dict[str | None, int] = {}
    for d in text.declarations:
        if d.type == "method":
            counts[d.parent] = counts.get(d.parent, 0) + 1
    return counts


def _cutting(settings: ChunkSettings) -> str:
    overlap = settings.effective_overlap
    return f"cut every {settings.effective_size} lines with {overlap} line{'s' * (overlap != 1)} of overlap"


def _chars(settings: ChunkSettings) -> str:
    return f"{settings.effective_max_characters:,} characters (chunk_max_characters)"


def _limits(settings: ChunkSettings) -> str:
    lines = f"{settings.effective_size} lines"
    return lines if settings.effective_max_characters is None else f"{lines} and {_chars(settings)}"


def _why_windows(text: PreparedText) -> str:
    if text.grammar is None:
        ext = extension(text.path)
        said = f"files ending .{ext} are not parsed, so they get line windows" if ext else "the file is not parsed"
        # Parsed in extended mode, so not parsed here: clanka mode (the mode is never hidden, issue 53 item 5).
        return said + windows_clause(text.path) if has_extended_grammar(text.path) else said
    if not text.declarations:
        if text.grammar in GRAMMARS.values() and text.length_prefix[-1] >= REFERENCE_PARSER_LIMIT:
            # length_prefix counts one LF per line: the text is that long, or one unit shorter.
            return (
                f"the file is about {text.length_prefix[-1]:,} UTF-16 units long, and the reference's parser "
                f"refuses {REFERENCE_PARSER_LIMIT:,} UTF-16 units or more (clanka then cuts line windows; so does "
                "clanka mode)"
            )
        return "the parser found no declaration, so the file gets line windows"
    return "no declaration gives a chunk with a meaningful line, so the file gets line windows"
