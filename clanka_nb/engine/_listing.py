"""Which files of a folder get indexed: ripgrep's listing rules, in pure Python."""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Iterable
from pathlib import Path

import pathspec

from ..defaults import MAX_FILE_SIZE
from ..warning import ClankaWarning
from ._collation import collation_key
from ._files import IGNORED_SEGMENTS, is_meaningful_file
from .settings import checked_keywords, parse_size, setting_docs
from .warn import warn_at_user

# pathspec captures the `/` that means "this path is a directory" in a group of this name. A pattern
# whose regex has no such group ends in a plain `/` that needs more path after it (`dir/**`).
_DIR_MARK = "ps_d"
_RULE_FILES = (".rgignore", ".ignore", ".gitignore")
# An ignore file is read up to this size, and a line longer than any path is skipped: a hostile folder or
# history otherwise holds a .gitignore of 2 GiB (2 MB as a git object), read whole and compiled for minutes.
MAX_IGNORE_FILE = 1 << 20
_MAX_PATTERN = 4096  # PATH_MAX: no real path is longer, and compiling such a line costs seconds


class IgnoreFileTooLargeWarning(ClankaWarning, UserWarning):
    """An ignore file over 1 MiB, or with a line longer than 4,096 characters: only the rest of it applies."""

# How pathspec writes a glob `*` (any run of characters within one path segment).
_STAR = "[^/]*"
# One fixed-width piece of a segment that cannot match `/`: an escaped symbol, `?`, a bracket set or a
# plain character.
_FIXED = re.compile(r"(?:\\[^\w/]|\[\^/\]|\[(?!\^)[^\]\\/]*\]|[^\\\[\]().*+?{}|^$/])+")
_SET = re.compile(r"\[(?!\^/\])[^\]]*\]")
# How pathspec writes a `/**/` inside a glob (any number of whole folders), and the whole folders
# (no star, none ending in `/`) that may stand between two of them.
_FOLDERS = "(?:/.+)?"
_SEGMENTS = re.compile(r"(?:/" + _FIXED.pattern + r")+")


def _linear(pattern: str) -> str:
    """pathspec's regex for a glob, rewritten so that matching cannot backtrack catastrophically.

    Consecutive stars become one (`**********` was ten nested `[^/]*`: minutes on a 40-character
    name), and `*piece*` commits to the first place `piece` fits (`(?>[^/]*?piece)`): a glob's star
    followed by a fixed-width piece and then another star can always take the leftmost fit, so the
    set of matched paths is unchanged while `*a*a*a*...` no longer tries every split. A piece that
    might match `/` or is not fixed-width is left alone. Each star then costs one pass over the name.
    """
    while _STAR + _STAR in pattern:
        pattern = pattern.replace(_STAR + _STAR, _STAR)
    parts = pattern.split(_STAR)
    out = [parts[0]]
    for index, part in enumerate(parts[1:], 1):
        followed_by_star = index < len(parts) - 1
        if followed_by_star and _FIXED.fullmatch(part) and not any(
            re.fullmatch(found, "/") for found in _SET.findall(part)
        ):
            out.append(f"(?>[^/]*?{part})")
        else:
            out.append(_STAR + part)
    return _linear_folders("".join(out))


def _linear_folders(pattern: str) -> str:
    """`a/**/x/**/b` the same way: `/**/x` followed by another `/**` takes the first folder `x` fits."""
    parts = pattern.split(_FOLDERS)
    out = [parts[0]]
    for index, part in enumerate(parts[1:], 1):
        followed = index < len(parts) - 1
        if followed and _SEGMENTS.fullmatch(part) and not any(re.fullmatch(found, "/") for found in _SET.findall(part)):
            out.append(f"(?>(?:/.+?)??{part}(?=/))")
        else:
            out.append(_FOLDERS + part)
    return "".join(out)


def resolve_root(root: str | os.PathLike[str]) -> Path:
    """The root as an absolute path; a clear error when it is missing or not a folder."""
    path = Path(root).expanduser()
    if not path.exists():
        msg = f"root folder {str(path)!r} does not exist; pass the path of a folder holding source code"
        raise FileNotFoundError(msg)
    if not path.is_dir():
        msg = f"root {str(path)!r} is a file, not a folder; pass its folder, or use chunk_file(root, path)"
        raise NotADirectoryError(msg)
    # Lexical, as Node's path.resolve: a symlinked root stays as written, so absolute paths spelled
    # through it are still inside it.
    return Path(os.path.abspath(path))


def _read_lines(path: str) -> list[str]:
    """The lines of an ignore file as ripgrep reads them; [] when it is missing or unreadable."""
    if not os.path.isfile(path):
        return []  # a FIFO, socket or device is never opened: opening a FIFO blocks
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_IGNORE_FILE + 1)
    except OSError:
        return []
    cut = len(data) > MAX_IGNORE_FILE
    if cut:
        data = data[: data.rfind(b"\n", 0, MAX_IGNORE_FILE) + 1]  # whole lines only
    lines = []
    long_lines = 0
    for raw in data.split(b"\n"):
        if len(raw) > _MAX_PATTERN:
            long_lines += 1
            continue
        try:
            lines.append(raw.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError:
            break  # ripgrep stops reading an ignore file at its first line that is not UTF-8
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    if cut or long_lines:
        what = [f"only its first {MAX_IGNORE_FILE:,} bytes are read"] if cut else []
        what += [f"{long_lines:,} lines longer than {_MAX_PATTERN:,} characters are skipped"] if long_lines else []
        msg = (f"the ignore file {path!r} is not one a project writes: {' and '.join(what)} (the rest cannot "
               "be matched in reasonable time); shorten it, or delete it if it is not yours")
        warn_at_user(msg, IgnoreFileTooLargeWarning)
    return lines


def _compile(lines: list[str]) -> list[pathspec.RegexPattern]:
    """pathspec's patterns for these lines; a line pathspec rejects is skipped, as ripgrep skips it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # `[[:alpha:]]` makes `re` warn about nested sets
        try:
            return _regexes(pathspec.GitIgnoreSpec.from_lines(lines).patterns)
        except (ValueError, re.error):
            patterns: list[pathspec.RegexPattern] = []
            for line in lines:
                try:
                    patterns.extend(_regexes(pathspec.GitIgnoreSpec.from_lines([line]).patterns))
                except (ValueError, re.error):
                    continue
            return patterns


def _regexes(patterns: Iterable[pathspec.Pattern]) -> list[pathspec.RegexPattern]:
    # A GitIgnoreSpec's patterns are all regex patterns (git wildmatch); its type says only Pattern.
    return [pattern for pattern in patterns if isinstance(pattern, pathspec.RegexPattern)]


def _quiet_compile(pattern: str, flags: int) -> re.Pattern[str]:
    """re.compile without the FutureWarning `[[:alpha:]]`-style sets raise (they mean the same to us)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(pattern, flags)


class _IgnoreFile:
    """The patterns of one ignore file, matched against paths relative to the folder holding it."""

    __slots__ = ("patterns", "prefix", "source", "strip", "texts")

    def __init__(self, lines: list[str], strip: int, prefix: str, source: str = "") -> None:
        # A listed path `rel` (relative to the root) is `prefix + rel[strip:]` relative to this folder.
        self.strip, self.prefix = strip, prefix
        self.source = source  # the ignore file's path, to say which file and line left a file out
        self.patterns: list[tuple[bool, re.Pattern[str], bool]] = []
        self.texts: list[str] = []  # each pattern's line as written, parallel to `patterns`
        for pattern in reversed(_compile(lines)):  # the last matching line decides, so try it first
            if pattern.include is None or pattern.regex is None:
                continue
            self.texts.append(str(pattern.pattern))
            regex = _quiet_compile(_linear(pattern.regex.pattern), pattern.regex.flags)
            if _DIR_MARK in regex.groupindex:
                # ripgrep matches a path by itself, never through its parent folders (an ignored folder
                # is pruned instead), so the match must reach the end: a dir as `a/b/`, a file as `a/b`.
                regex = _quiet_compile(f"(?:{regex.pattern})\\Z", regex.flags)
                self.patterns.append((pattern.include, regex, True))
            else:
                # `dir/**` means "strictly inside dir": matching `a/b` (no trailing slash) says b is in a.
                self.patterns.append((pattern.include, regex, False))

    def verdict(self, rel: str, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a `!` line; None: no line matches."""
        path = self.prefix + rel[self.strip :]
        marked = path + "/" if is_dir else path
        for ignored, regex, wants_mark in self.patterns:
            if regex.search(marked if wants_mark else path):
                return ignored
        return None

    def deciding(self, rel: str, is_dir: bool) -> tuple[bool, str] | None:
        """As `verdict`, with the line that decides: (ignored, pattern as written), or None."""
        path = self.prefix + rel[self.strip :]
        marked = path + "/" if is_dir else path
        for (ignored, regex, wants_mark), text in zip(self.patterns, self.texts, strict=True):
            if regex.search(marked if wants_mark else path):
                return ignored, text
        return None


class _Rules:
    """The ignore files in force in one folder, nearest first, by kind; git ones only inside a repository."""

    __slots__ = ("chain", "exclude", "gitignore", "ignore", "in_git", "rgignore")

    def __init__(
        self,
        rgignore: tuple[_IgnoreFile, ...] = (),
        ignore: tuple[_IgnoreFile, ...] = (),
        gitignore: tuple[_IgnoreFile, ...] = (),
        exclude: tuple[_IgnoreFile, ...] = (),
        in_git: bool = False,
    ) -> None:
        self.rgignore = rgignore
        self.ignore = ignore
        self.gitignore = gitignore
        self.exclude = exclude
        self.in_git = in_git
        # ripgrep's precedence: any .rgignore, then any .ignore, then .gitignore, then info/exclude; within
        # a kind the nearest folder's file that has a matching line decides.
        self.chain = rgignore + ignore + gitignore + exclude

    def inside(self, folder: str, files: set[str], dot_git: str | None, strip: int, prefix: str) -> _Rules:
        """The rules of `folder`, a child of this one holding the ignore `files` and a `.git` of kind `dot_git`."""

        def load(path: str | None) -> tuple[_IgnoreFile, ...]:
            rules = _IgnoreFile(_read_lines(path), strip, prefix, path) if path else None
            return (rules,) if rules and rules.patterns else ()

        def own(name: str) -> str | None:
            return os.path.join(folder, name) if name in files else None

        in_git = self.in_git or dot_git is not None
        gitignore: tuple[_IgnoreFile, ...] = ()
        exclude: tuple[_IgnoreFile, ...] = ()
        if in_git:
            gitignore, exclude = load(own(".gitignore")), load(_exclude_path(folder, dot_git))
            if dot_git is None:  # a repository root does not inherit the git rules of folders above it
                gitignore, exclude = gitignore + self.gitignore, exclude + self.exclude
        return _Rules(
            load(own(".rgignore")) + self.rgignore, load(own(".ignore")) + self.ignore, gitignore, exclude, in_git
        )

    def ignores(self, rel: str, is_dir: bool) -> bool:
        """Whether ripgrep leaves out `rel` (relative to the root), a folder when `is_dir`."""
        for rules in self.chain:
            verdict = rules.verdict(rel, is_dir)
            if verdict is not None:
                return verdict
        return False

    def ignored_by(self, rel: str, is_dir: bool) -> tuple[str, str] | None:
        """(ignore file, pattern) when ripgrep leaves out `rel` because of a line of an ignore file."""
        for rules in self.chain:
            decided = rules.deciding(rel, is_dir)
            if decided is not None:
                return (rules.source, decided[1]) if decided[0] else None
        return None


def _first_line(path: str) -> str | None:
    lines = _read_lines(path)
    return lines[0] if lines else None


def _exclude_path(folder: str, dot_git: str | None) -> str | None:
    """Where ripgrep looks for the repository's info/exclude, given the kind of `folder/.git`."""
    if dot_git is None:
        return None
    if dot_git != "file":
        return os.path.join(folder, ".git", "info", "exclude")
    # A worktree's `.git` file names its git dir, whose `commondir` names the shared one. ripgrep reads
    # no exclude file when `commondir` is missing (submodules), so neither do we.
    gitdir = _first_line(os.path.join(folder, ".git")) or ""
    if not gitdir.startswith("gitdir: "):
        return None
    gitdir = os.path.join(folder, gitdir.removeprefix("gitdir: "))
    common = _first_line(os.path.join(gitdir, "commondir"))
    if common is None:
        return None
    common = os.path.join(gitdir, common) if common.startswith(".") else common
    return os.path.join(common, "info", "exclude")


def _dot_git_kind(path: str) -> str | None:
    """'file' for a worktree's `.git` file, 'dir' for any other existing `.git`, None when absent."""
    return "file" if os.path.isfile(path) else "dir" if os.path.exists(path) else None


def _rules_above(root: Path) -> _Rules:
    """Ignore files of the folders above the root, which ripgrep reads too (git ones up to the repository)."""
    rules = _Rules()
    for folder in reversed(root.parents):
        text = str(folder)
        prefix = root.relative_to(folder).as_posix() + "/"
        rules = rules.inside(text, set(_RULE_FILES), _dot_git_kind(os.path.join(text, ".git")), 0, prefix)
    return rules


def _rules_here(folder: str, entries: list[os.DirEntry[str]], above: _Rules, strip: int) -> _Rules:
    """The rules in force in `folder`, given the entries a scan of it found."""
    names = {entry.name for entry in entries}
    dot_git = _dot_git_kind(os.path.join(folder, ".git")) if ".git" in names else None
    return above.inside(folder, names.intersection(_RULE_FILES), dot_git, strip, "")


@checked_keywords
@setting_docs
def list_files(root: str | os.PathLike[str], *, max_file_size: str | int = MAX_FILE_SIZE) -> list[str]:
    """The meaningful files `rg --files --hidden --max-filesize 1M --glob '!.git'` lists in `root`.

    Paths are relative to the root, with forward slashes (a `\\` in a file name becomes one too, as in the
    reference), in JavaScript `localeCompare` order. `list_file_names` gives the same files by the
    names they have on disk, to read them by. Hidden
    files count; the `.git` folder, symbolic links, FIFOs, sockets, devices and files over
    `max_file_size` bytes do not. `.rgignore` and `.ignore` files apply everywhere (those of the folders
    above the root too, as in ripgrep); `.gitignore` files and `.git/info/exclude` only inside a git
    work tree. Unlike ripgrep, the user's global git excludes (`core.excludesFile`) are never read, so
    the listing depends on the tree alone. Unreadable folders and files vanishing mid-walk are skipped.

    Args:
        root: The folder.

    Returns:
        The listed paths, relative to the root, with forward slashes, in the reference's order.

    Raises:
        FileNotFoundError: `root` is no folder.

    Examples:
        >>> cn.list_files("my-repo", max_file_size="500K")[:5]
    """
    return [name.replace("\\", "/") for name in list_file_names(root, max_file_size=max_file_size)]


@checked_keywords
@setting_docs
def list_file_names(root: str | os.PathLike[str], *, max_file_size: str | int = MAX_FILE_SIZE) -> list[str]:
    """`list_files`, each file by its own name on disk (relative, a `\\` in a name kept), in the same order.

    Two files can have one listed path (`back\\slash.ts` and `back/slash.ts`); reading each by its
    own name, as the reference does, keeps both contents.

    Args:
        root: The folder.

    Returns:
        The listed files by their names on disk, relative to the root, in the listing's order.

    Raises:
        FileNotFoundError: `root` is no folder.
    """
    base = resolve_root(root)
    limit = parse_size(max_file_size)
    found = []
    stack = [(str(base), "", _rules_above(base))]  # an explicit stack: deep trees must not recurse
    while stack:
        folder, rel_folder, above = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError:
            continue  # unreadable or gone: ripgrep warns and walks on
        rules = _rules_here(folder, entries, above, len(rel_folder))
        for entry in entries:
            name = entry.name
            if name == ".git":  # --glob '!.git', at any depth
                continue
            rel = rel_folder + name
            try:
                # The follow_symlinks=False tests come from the scan itself; only the size needs a stat.
                if entry.is_dir(follow_symlinks=False):
                    # Nothing under node_modules, dist, ... is meaningful, so don't walk those at all.
                    if name.lower() not in IGNORED_SEGMENTS and not rules.ignores(rel, True):
                        stack.append((entry.path, rel + "/", rules))
                elif (
                    entry.is_file(follow_symlinks=False)
                    and is_meaningful_file(rel)
                    and not rules.ignores(rel, False)
                    and entry.stat(follow_symlinks=False).st_size <= limit
                ):
                    found.append(rel)
            except OSError:
                continue  # vanished since the scan
    # Ordered by the reported path (a `\` in a name becomes `/`, as in the reference); of two names
    # with one path, the one spelled with `/` first.
    return sorted(found, key=lambda rel: (collation_key(rel.replace("\\", "/")), "\\" in rel))


class ListingCache:
    """`list_files`'s verdict for single paths of one tree, for callers that change a few files at a time.

    The ignore rules of each folder are read once and kept, so deciding a path costs its depth, not the
    size of the tree. Call `forget()` after an ignore file or a `.git` changes.
    """

    def __init__(self, root: str | os.PathLike[str], *, max_file_size: str | int = MAX_FILE_SIZE) -> None:
        self.root = resolve_root(root)
        self.limit = parse_size(max_file_size)
        self._rules: dict[str, _Rules | None] = {}  # folder rel ("" or "a/b/") -> its rules; None: not walked

    def forget(self) -> None:
        self._rules.clear()

    def _folder_rules(self, rel_folder: str) -> _Rules | None:
        """The rules in force in a folder, or None when ripgrep never walks into it."""
        if rel_folder in self._rules:
            return self._rules[rel_folder]
        if not rel_folder:
            above: _Rules | None = _rules_above(self.root)
        else:
            parent, _, name = rel_folder[:-1].rpartition("/")
            parent_rel = parent + "/" if parent else ""
            above = self._folder_rules(parent_rel)
            pruned = name == ".git" or name.lower() in IGNORED_SEGMENTS
            if above is not None and (pruned or above.ignores(rel_folder[:-1], True)):
                above = None
        rules = None
        if above is not None:
            folder = os.path.join(self.root, rel_folder)
            try:
                with os.scandir(folder) as scan:
                    entries = list(scan)
            except OSError:
                entries = None
            rules = None if entries is None else _rules_here(folder, entries, above, len(rel_folder))
        self._rules[rel_folder] = rules
        return rules

    def is_listed(self, rel: str) -> bool:
        """Whether `list_files(root)` would list `rel` (a path relative to the root, with `/`)."""
        folder, _, name = rel.rpartition("/")
        rules = self._folder_rules(folder + "/" if folder else "")
        if rules is None or name == ".git" or not is_meaningful_file(rel) or rules.ignores(rel, False):
            return False
        try:
            info = os.lstat(os.path.join(self.root, rel))
        except OSError:
            return False
        return stat.S_ISREG(info.st_mode) and info.st_size <= self.limit
