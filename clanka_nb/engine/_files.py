"""Which files the reference indexes at all, and which content it calls minified."""

from __future__ import annotations

from ._text import js_length, normalize_newlines

SOURCE_EXTENSIONS = frozenset(
    "c cc cpp cs css cts cxx go gql graphql h hpp html ini java js jsx kt kts less lua mjs mts php py rb rs "
    "sass scala scss sh sql svelte swift ts tsx vue xml zsh".split()
)
DOC_EXTENSIONS = frozenset(["adoc", "asciidoc", "md", "mdx", "rst", "txt"])
MEANINGFUL_EXTENSIONS = SOURCE_EXTENSIONS | DOC_EXTENSIONS
IGNORED_SEGMENTS = frozenset(
    [".git", ".next", ".nuxt", ".svelte-kit", ".turbo", "build", "coverage", "dist", "node_modules", "target"]
)

# Display names per extension, for tables and filters (not used by the chunking rules).
_LANGUAGES = {
    "ts": "typescript", "mts": "typescript", "cts": "typescript", "tsx": "tsx",
    "js": "javascript", "jsx": "javascript", "mjs": "javascript", "cjs": "javascript",
    "py": "python", "go": "go", "rs": "rust", "java": "java", "cs": "csharp", "kt": "kotlin",
    "kts": "kotlin", "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp",
    "rb": "ruby", "php": "php", "swift": "swift", "scala": "scala", "lua": "lua", "sh": "bash",
    "zsh": "bash", "css": "css", "scss": "scss", "sass": "sass", "less": "less", "html": "html",
    "xml": "xml", "vue": "vue", "svelte": "svelte", "sql": "sql", "graphql": "graphql",
    "gql": "graphql", "ini": "ini", "md": "markdown", "mdx": "markdown", "rst": "rst",
    "adoc": "asciidoc", "asciidoc": "asciidoc", "txt": "text",
}


def extension(path: str) -> str:
    """Lower-cased text after the last `.` of the file name ('' when there is none)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[1].lower() if "." in name else ""


def language_of(path: str) -> str:
    """A display name for the file's language ('other' when unknown).

    Args:
        path: The file's path or name.

    Returns:
        The language's name, or "other".

    Examples:
        >>> engine.language_of("src/app.ts")
        'typescript'
    """
    return _LANGUAGES.get(extension(path), "other")


def is_meaningful_file(path: str) -> bool:
    """True when the reference would index this path (by name alone).

    Args:
        path: The file's path or name.

    Returns:
        Whether the reference indexes it.

    Examples:
        >>> engine.is_meaningful_file("src/app.ts"), engine.is_meaningful_file("logo.png")
        (True, False)
    """
    lowered = path.replace("\\", "/").lower()
    segments = lowered.split("/")
    name = segments[-1]
    if not name or "." not in name:
        return False
    if not IGNORED_SEGMENTS.isdisjoint(segments):  # a set operation in C: this runs for every file, twice
        return False
    if name.endswith((".min.css", ".min.js")):
        return False
    return name.rsplit(".", 1)[1] in MEANINGFUL_EXTENSIONS


def is_probably_minified(content: str) -> bool:
    """The reference's guess that content is a bundle: long and on very few, very long lines.

    Args:
        content: A file's text.

    Returns:
        Whether the reference takes it for minified (and gives it no chunks).
    """
    text = normalize_newlines(content)
    return looks_minified(text, text.split("\n"))


def looks_minified(text: str, lines: list[str]) -> bool:
    """`is_probably_minified` of normalised text already split into its lines."""
    # JS length is never below len(), so it only needs computing for short texts.
    if len(text) < 2000 and js_length(text) < 2000:
        return False
    if len(lines) <= 2:
        return True
    if len(lines) > 20:
        return False
    long_lines = sum(1 for line in lines if js_length(line) >= 300)
    return long_lines / len(lines) >= 0.8
