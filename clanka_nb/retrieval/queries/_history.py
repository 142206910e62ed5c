"""Probe queries written by people: commit messages, each targeting the declaration its commit changed."""

from __future__ import annotations

import ast
import difflib
import os
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from ... import engine
from ...defaults import MAX_FILE_SIZE
from ...engine.progress import ProgressBar, bar
from ...engine.settings import Settings, checked_keywords, parse_size, setting_docs
from ...engine.source import open_source
from ...frames import columns as _columns
from ...history.internals import BlobReader, ChurnError, git, git_records, repository, resolves, run_git, within_history
from ._comments import doc_comment
from ._history_cache import HistoryRead, cached_read
from ._queries import QUERIES, declared_texts
from ._query_text import MAX_WORDS, MIN_WORDS, first_sentences
from ._targets import TARGET_KINDS, query_groups, target_kind

DEFAULT_REVS = "HEAD~500..HEAD"
# A commit that changes more files than this describes a sweep over the code ("rename X", "update deps"),
# not a place search could find: measured on clanka's history in docs/queries.md.
MAX_FILES = 8
# A commit message is read no further than this many characters, and its subject no further than
# MAX_SUBJECT, before any regular expression sees it: git accepts a 1 MB subject, a query holds 40 words.
MAX_MESSAGE = 8_192
MAX_SUBJECT = 1_024

HISTORY: _columns.Schema = {**QUERIES, "commit": _columns.STRING, "committed": _columns.INT,
                            "target_kind": _columns.STRING,
                            "group": _columns.INT}
# Which target kinds `targets=` keeps: code only by default (a commit's tests, docs and changelog entries
# answer no search for the code it changed), or every kind, told apart by the `target_kind` column.
TARGETS = {"code": ("code",), "all": TARGET_KINDS}

# Why a commit gives no query: the keys of `attrs["dropped"]`, in the order they are tested.
HISTORY_REASONS = {
    "merge": "a merge commit (its changes are its parents' commits)",
    "bot": "written by a bot (an author name or e-mail with [bot], dependabot, renovate, ...)",
    "version": "a release, version or dependency bump: its subject says so (\"Version 0.24.0\", \"0.24.0 release "
    "notes\", \"Bump x from 1 to 2\"), or it changes only manifests, lock files and changelogs",
    "revert": "a revert (\"Revert ...\", \"revert(core): ...\"): its words describe the change it undoes",
    "too_many_files": f"it changes more than max_files files besides manifests, lock files and changelogs "
    f"(default {MAX_FILES})",
    "intent_free": "its subject carries no search intent: a typo, spelling or grammar fix, or only "
    "maintenance words (\"fix lint\", \"Tiny refactor\", \"Clean up docs\", \"WIP\", \"Fix #123\")",
    "short": f"its message is under {MIN_WORDS} words once ticket ids and pull-request numbers are removed",
    "formatting": "it changes only whitespace and line breaks",
    "no_target": "none of the lines it added still exists, unchanged, in a file of the probed codebase",
    "not_code": "the lines it added that still exist are all in tests, docs or changelogs (targets=\"code\", "
    "the default; targets=\"all\" keeps them)",
    "duplicate": "several commits have the same message, so it cannot say which change it is about",
}

_BOT = re.compile(r"\[bot\]|^(?:dependabot|renovate|greenkeeper|snyk-bot|semantic-release-bot|github-actions"
                  r"|allcontributors|pre-commit-ci|mergify|imgbot|depfu)\b", re.IGNORECASE)  # fmt: skip
_VERSION = re.compile(
    # `v?\d+\.\d\S*` reads what `v?\d+(?:\.\d+)+\S*` did without backtracking over the digits twice.
    r"^(?:v?\d+\.\d\S*\s*$|version packages\b|release\b|releases?\s+v?\d|bump (?:the )?version|"
    r"chore\(release\)|chore: release|publish\b|prepare (?:for )?(?:the )?release|bump \S+ from \S+ to "
    # httpx titles its releases "Version 0.24.0" and its notes "0.24.0 release notes".
    r"|version\s+v?\d+\.\d\S*\s*$|v?\d+\.\d\S*\s+release(?:\s+notes)?\b|release notes\b)",
    re.IGNORECASE,
)
_REVERT = re.compile(r"^revert(?:ed|s)?\b", re.IGNORECASE)  # Revert "...", revert(core): ..., Reverted #1564
# A typo names the mistake, not the code: "Fix typo in wsgi.py", "docs: fix typos and links".
_TYPO = re.compile(r"\b(?:typos?|misspell\w*|spelling|grammar|grammatical)\b", re.IGNORECASE)
# Words that say a commit is maintenance without saying of what: a message of only these (and ticket numbers)
# asks for nothing. Measured on httpx's and zod's histories (docs/queries.md).
_FILLER = frozenset("""fix fixes fixed lint linting format formatting reformat cleanup clean up tidy refactor
refactoring minor tiny small some few more misc nit nits tweak tweaks wip stuff changes update updates links link
docs doc comments comment and the a an of in""".split())
# Files whose changes are versions and dependencies, not code a message describes.
_MANIFEST = re.compile(
    r"(?:^|/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb?"
    r"|deno\.lock|Cargo\.(?:toml|lock)|go\.(?:mod|sum)|poetry\.lock|uv\.lock|Pipfile(?:\.lock)?|pyproject\.toml"
    r"|requirements[^/]*\.txt|Gemfile(?:\.lock)?|composer\.(?:json|lock)|flake\.lock|CHANGELOG[^/]*|CHANGES[^/]*"
    r"|HISTORY[^/]*|\.changeset/[^/]+)$",
    re.IGNORECASE,
)
_TRAILER = re.compile(r"^[A-Za-z][\w-]*(?: [\w-]+)?: \S")  # Co-authored-by: ..., Signed-off-by: ...
_PULL_REQUEST = re.compile(r"\s*\((?:#\d+(?:,\s*)?)+\)|\s*\[(?:skip ci|ci skip|no ci)\]", re.IGNORECASE)
_TICKET = re.compile(r"^(?:[A-Z][A-Z0-9]+-\d+|#\d+)[:,]?\s+")  # TIM-713: ..., #42 ...
_CONVENTIONAL = re.compile(r"^(?:feat|fix|chore|docs|refactor|test|tests|perf|style|build|ci|revert)"
                           r"(?:\(([^)]*)\))?!?:\s*", re.IGNORECASE)  # fmt: skip
_MAX_PATH = 1 << 16  # bytes of a path name kept (git allows longer; no file system does)
_PATHS_PER_CALL = 256  # paths named on one git command line
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_SPACE = re.compile(r"\s+")
_Hunks = list[tuple[int, int, int]]  # (old start, old count, new count)


@dataclass
class _Commit:
    hash: str
    parents: list[str]
    author: str
    message: str
    files: list[str] = field(default_factory=list)
    time: int | None = None  # the committer's time (seconds since 1970), for the verdict's check on newer commits


@dataclass
class _FilePatch:
    """One file a commit changed: the lines it added (number in the commit's version -> text) and removed."""

    added: dict[int, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)


def message_query(message: str) -> str:
    """A commit message as a query: the subject without ticket ids, pull-request numbers and a conventional
    `type(scope):` prefix (the scope is kept), and the first paragraph of the body when it is prose (not a
    list of squashed commits, not trailers); at most two sentences and 40 words."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", message[:MAX_MESSAGE].strip()) if p.strip()]
    if not paragraphs:
        return ""
    subject = _SPACE.sub(" ", paragraphs[0].splitlines()[0][:MAX_SUBJECT]).strip()
    subject = _PULL_REQUEST.sub("", subject).strip()
    subject = _TICKET.sub("", subject)
    subject = _CONVENTIONAL.sub(lambda m: f"{m.group(1)}: " if m.group(1) else "", subject).strip()
    body = paragraphs[1] if len(paragraphs) > 1 else ""
    body_lines = body.splitlines()
    if body_lines and not any(_TRAILER.match(line) for line in body_lines) \
            and not body_lines[0].lstrip().startswith(("*", "-", "+", "#", ">")):  # fmt: skip
        subject = f"{subject.rstrip('.')}. {_SPACE.sub(' ', body)}" if subject else _SPACE.sub(" ", body)
    return first_sentences(subject, count=2, max_words=MAX_WORDS)


def _unquote(path: str) -> str:
    """A path as git quotes unusual names ("a\\tb\\303\\251.ts"), back to its text."""
    if not path.startswith('"'):
        return path
    raw: bytes = ast.literal_eval("b" + path)  # git's C quoting is a bytes literal's escapes
    return raw.decode("utf-8", "surrogateescape")


def _check_revs(revs: object) -> str:
    if not isinstance(revs, str) or not revs.strip():
        msg = f"revs must be a revision range such as {DEFAULT_REVS!r}, got {revs!r}"
        raise ChurnError(msg)
    revs = revs.strip()
    if "\0" in revs or "\n" in revs:  # git's argv cannot hold a NUL, and a line break is never a revision
        msg = f"revs {revs!r} holds a NUL or a line break; pass one revision range, e.g. {DEFAULT_REVS!r}"
        raise ChurnError(msg)
    if any(part.startswith("-") for part in revs.split("..")):
        msg = f"revs {revs!r} starts with '-': pass revisions, e.g. {DEFAULT_REVS!r}, not git options"
        raise ChurnError(msg)
    return revs


def _range(repo: Path, revs: str) -> list[str]:
    """`revs` as arguments of `git log`: `A..B` as is, or just `B` when A is `B~N` beyond the first commit
    (HEAD~500 in a history of 427 commits means all of them); one revision `R` is `R~1..R`."""
    if ".." not in revs:
        return [f"{revs}~1..{revs}"] if resolves(repo, f"{revs}~1") else [revs]
    return [within_history(repo, revs)]


def _commits(repo: Path, range_args: list[str], revs: str, prefix: str) -> list[_Commit]:
    # Records start with a marker no commit message can know in advance, so a message cannot forge one.
    nonce = secrets.token_hex(16)
    marker = f"\x1e{nonce}\x00"
    pathspec = [prefix] if prefix else []  # literal: the runner sets GIT_LITERAL_PATHSPECS
    layout = f"--format=%x1e{nonce}%x00%H%x00%ct%x00%P%x00%an <%ae>%x00%B%x00"
    listed = run_git(repo, "log", "--no-renames", "--name-only", "-z", layout, "--end-of-options", *range_args,
                     "--", *pathspec, check=False)  # fmt: skip
    if listed.returncode != 0:
        problem = (listed.stderr.strip().splitlines() or ["unknown revision"])[0]
        msg = f"cannot read the revisions {revs!r} in {str(repo)!r}: {problem}; pass a range of it"
        msg += f", e.g. {DEFAULT_REVS!r}"
        raise ChurnError(msg)
    out = listed.stdout
    commits = []
    for record in out.split(marker)[1:]:
        hash_, committed, parents, author, rest = record.split("\x00", 4)
        message, found, names = rest.rpartition("\x00\x00\n")
        if not found:  # a commit that changes no file here
            message, names = rest.rstrip("\x00"), ""
        commit = _Commit(hash_, parents.split(), author, message, time=int(committed) if committed.isdigit() else None)
        commit.files = [name for name in names.split("\x00") if name]
        commits.append(commit)
    return commits


def _patches(lines: Iterable[str]) -> Iterator[tuple[str | None, _FilePatch]]:
    """(path in the new version, patch) for each file of a `-U0` patch (None for a deleted file)."""
    path: str | None = None
    patch: _FilePatch | None = None
    new_line = 0
    for line in lines:
        if line.startswith("diff --git "):
            if patch is not None:
                yield path, patch
            path, patch = None, _FilePatch()
        elif patch is None:
            continue
        elif line.startswith("+++ "):
            path = None if line[4:] == "/dev/null" else _unquote(line[4:])[2:]  # "b/<path>"
        elif line.startswith("--- "):
            continue
        elif (hunk := _HUNK.match(line)) is not None:
            new_line = int(hunk.group(3))
        elif line.startswith("+"):
            patch.added[new_line] = line[1:]
            new_line += 1
        elif line.startswith("-"):
            patch.removed.append(line[1:])
    if patch is not None:
        yield path, patch


def _allowed(tree: _Tree, commit: _Commit, sizes: BlobReader) -> list[str]:
    """The paths of the probed tree the commit changed (not deleted) whose version before and after it are
    both files within max_file_size: only these patches are asked for. From `--raw`, which names the blobs
    without reading them; their sizes come from their headers."""
    pathspec = [tree.prefix] if tree.prefix else []  # literal: the runner sets GIT_LITERAL_PATHSPECS
    allowed = []
    with git_records(tree.repo, "diff-tree", "-r", "-z", "--root", "--no-commit-id", "--no-renames", "--end-of-options",
                     commit.hash, "--", *pathspec, separator=b"\0", cap=_MAX_PATH) as records:  # fmt: skip
        for meta in records:
            path = next(records, "")
            fields = meta[1:].split(" ") if meta.startswith(":") else []
            if len(fields) != 5 or fields[4] == "D" or tree.codebase_path(path) is None:
                continue
            _, new_mode, old_blob, new_blob, _ = fields
            if not new_mode.startswith("10") or any(blob.strip("0") and sizes.size(blob, path) > tree.limit
                                                    for blob in (old_blob, new_blob)):  # fmt: skip
                continue  # a link or submodule, or a version over max_file_size: never read
            allowed.append(path)
    return allowed


def _patch(tree: _Tree, commit: _Commit, sizes: BlobReader) -> dict[str, _FilePatch]:
    """What the commit changed against its first parent (or everything, for a first commit), by path: the
    files `_allowed` keeps, streamed line by line (each line cut at max_file_size)."""
    paths = _allowed(tree, commit, sizes)
    patches: dict[str, _FilePatch] = {}
    for first in range(0, len(paths), _PATHS_PER_CALL):
        with git_records(tree.repo, "diff-tree", "-p", "-U0", "-r", "--root", "--no-commit-id", "--no-renames",
                         "--no-ext-diff", "--no-textconv", "--no-color", "--end-of-options", commit.hash, "--",
                         *paths[first : first + _PATHS_PER_CALL], cap=tree.limit + 1) as lines:  # fmt: skip
            patches.update((path, patch) for path, patch in _patches(lines) if path is not None)
    return patches


def _formatting_only(patches: dict[str, _FilePatch]) -> bool:
    def squeezed(lines: Iterable[str]) -> str:
        return _SPACE.sub("", "".join(lines))

    return bool(patches) and all(
        squeezed(p.removed) == squeezed(p.added[n] for n in sorted(p.added)) for p in patches.values()
    )


def _moved(repo: Path, commit: str, head: str, paths: list[str], limit: int) -> dict[str, _Hunks | None]:
    """For each path, the hunks (old start, old count, new count) between the commit's version and `head`'s;
    None when the file is gone at `head`. A path missing from the result is unchanged."""
    hunks: dict[str, _Hunks | None] = {}
    for first in range(0, len(paths), _PATHS_PER_CALL):
        with git_records(repo, "diff", "-U0", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color",
                         "--end-of-options", commit, head, "--", *paths[first : first + _PATHS_PER_CALL],
                         cap=limit + 1) as lines:  # fmt: skip
            _hunks(lines, hunks)
    return hunks


def _hunks(lines: Iterable[str], hunks: dict[str, _Hunks | None]) -> None:
    old_path: str | None = None
    for line in lines:
        if line.startswith("--- "):
            old_path = None if line[4:] == "/dev/null" else _unquote(line[4:])[2:]
        elif line.startswith("+++ ") and old_path is not None:
            hunks[old_path] = None if line[4:] == "/dev/null" else []
        elif (hunk := _HUNK.match(line)) is not None and old_path is not None \
                and (found := hunks.get(old_path)) is not None:  # fmt: skip
            start, count, new = int(hunk.group(1)), int(hunk.group(2) or 1), int(hunk.group(4) or 1)
            found.append((start, count, new))


def _forward(line: int, hunks: list[tuple[int, int, int]]) -> int | None:
    """Where line `line` of the old version is in the new one (None: a hunk changed it)."""
    shift = 0
    for start, count, new in hunks:
        if count == 0:  # lines inserted after `start`
            if line > start:
                shift += new
        elif line >= start + count:
            shift += new - count
        elif line >= start:
            return None
    return line + shift


class _Tree:
    """The probed codebase's files as git paths, and each file's lines as `head` holds them (to map to disk)."""

    def __init__(self, repo: Path, prefix: str, head: str, codebase: engine.Codebase, limit: int) -> None:
        self.repo, self.prefix, self.head, self.limit = repo, prefix, head, limit
        self.texts = {path: text for path, text in declared_texts(codebase).items() if text.lines}
        self._to_disk: dict[str, dict[int, int] | None] = {}
        self._head_sizes: dict[str, int] = {}  # git path -> bytes of its blob at `head`, for the probed files
        pathspec = [prefix] if prefix else []  # no `--`: ls-tree reads it as a path (after --end-of-options)
        with git_records(repo, "ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", head, *pathspec,
                         separator=b"\0", cap=_MAX_PATH) as records:  # fmt: skip
            for record in records:
                meta, _, git_path = record.partition("\t")
                size = meta.split()[-1] if meta.split() else "-"
                if size.isdigit() and self.codebase_path(git_path) is not None:
                    self._head_sizes[git_path] = int(size)

    def fits_at_head(self, git_path: str) -> bool:
        """True when `head` holds the file within max_file_size (its lines can be followed there)."""
        return self._head_sizes.get(git_path, self.limit + 1) <= self.limit

    def codebase_path(self, git_path: str) -> str | None:
        if not git_path.startswith(self.prefix):
            return None
        path = git_path[len(self.prefix):]
        return path if path in self.texts else None

    def disk_line(self, path: str, head_line: int) -> int | None:
        """The line of the file as read that is `head`'s line `head_line` (identity when they hold the same)."""
        if path not in self._to_disk:
            self._to_disk[path] = self._mapping(path)
        mapping = self._to_disk[path]
        return head_line if mapping is None else mapping.get(head_line)

    def _mapping(self, path: str) -> dict[int, int] | None:
        disk = self.texts[path].lines
        head = git(self.repo, "cat-file", "-p", "--end-of-options", f"{self.head}:{self.prefix}{path}",
                   check=False).split("\n")  # fmt: skip
        if head and head[-1] == "":
            head.pop()
        if head == disk:
            return None
        # Edited since `head` (or not committed): lines are matched by content, in order, never guessed.
        matcher = difflib.SequenceMatcher(None, head, disk, autojunk=False)
        return {a + i + 1: b + i + 1 for a, b, size in matcher.get_matching_blocks() for i in range(size)}


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    """Consecutive line numbers as (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for number in sorted(lines):
        if runs and number == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


class _Target(NamedTuple):
    path: str
    start_line: int
    end_line: int
    name: str | None
    type: str | None
    kind: str  # one of TARGET_KINDS


def _holders(text: engine.PreparedText, held_lines: list[int]) -> Counter[tuple[int, int, str | None, str | None]]:
    """How many of the lines each holds, by holder: the smallest declaration of the file holding the line
    (its lines without the leading comments, as a doc comment's target), or the whole file when none does."""
    ranges = []
    for start, end, declaration, _ in text.plan():  # the engine's own clamped ranges, as scan() reads them
        found = doc_comment(text.lines, start, end, text.grammar)
        code = start if found is None else found.target_start
        if code <= end:
            ranges.append((start, end, code, declaration.name, declaration.type))
    whole = (1, len(text.lines), None, None)
    held: Counter[tuple[int, int, str | None, str | None]] = Counter()
    for line in held_lines:
        holding = [item for item in ranges if item[0] <= line <= item[1]]
        if holding:
            start, end, code, name, kind = min(holding, key=lambda item: (item[1] - item[0], item[0]))
            held[code, end, name, kind] += 1
        else:
            held[whole] += 1
    return held


def _target(tree: _Tree, commit: _Commit, patches: dict[str, _FilePatch],
            kinds: tuple[str, ...]) -> tuple[_Target | None, str | None]:  # fmt: skip
    """The target of a commit's query, or why it has none ("no_target", "not_code").

    The lines the commit added that still exist, unchanged, in the probed codebase are its evidence; each
    meaningful one votes for the smallest declaration holding it (the file, when none does). The target is
    the declaration (or file) with the most votes, among the kinds asked for, code first: so a query's
    target is the same lines whatever the chunk setting, and the same with targets="all" as with "code"
    whenever the commit touched code."""
    named = {git_path: tree.codebase_path(git_path) for git_path, patch in patches.items() if patch.added}
    wanted = {git_path: path for git_path, path in named.items() if path is not None}
    if not wanted:
        return None, "no_target"
    wanted = {git_path: path for git_path, path in wanted.items() if tree.fits_at_head(git_path)}
    if not wanted:
        return None, "no_target"
    moved = _moved(tree.repo, commit.hash, tree.head, list(wanted), tree.limit)
    candidates: list[tuple[tuple[int, int, int, str], _Target]] = []
    for git_path, path in sorted(wanted.items()):
        hunks = moved.get(git_path, [])
        if hunks is None:
            continue
        lines = tree.texts[path].lines
        found: list[int] = []
        for old, text in patches[git_path].added.items():
            head_line = _forward(old, hunks)
            line = None if head_line is None else tree.disk_line(path, head_line)
            if line is not None and line <= len(lines) and lines[line - 1].rstrip("\r") == text.rstrip("\r") \
                    and engine.is_meaningful_line(lines[line - 1]):  # fmt: skip
                found.append(line)
        kind = target_kind(path)
        for (first, last, name, type_), votes in _holders(tree.texts[path], found).items():
            # Code before tests, docs and changelogs; then the most votes; then the smaller target; then the path.
            order = (TARGET_KINDS.index(kind), -votes, last - first, path)
            candidates.append((order, _Target(path, first, last, name, type_, kind)))
    if not candidates:
        return None, "no_target"
    allowed = [item for item in candidates if item[1].kind in kinds]
    if not allowed:
        return None, "not_code"
    return min(allowed, key=lambda item: item[0])[1], None


def _subject(message: str) -> str:
    """A message's first line, at most MAX_SUBJECT characters (read before any regular expression)."""
    head = message[:MAX_MESSAGE].strip()
    return head.splitlines()[0][:MAX_SUBJECT] if head else ""


def _intent_free(subject: str, query: str) -> bool:
    words = re.findall(r"[a-z]+", query.lower())  # digits out: "Fix #5560" is the word "fix"
    return bool(_TYPO.search(subject)) or all(word in _FILLER for word in words)


def _reason(commit: _Commit, query: str, max_files: int | None) -> str | None:
    """Why a commit gives no query, from what `git log` says of it (None: read its patch)."""
    if len(commit.parents) > 1:
        return "merge"
    if _BOT.search(commit.author):
        return "bot"
    # Pull-request numbers out first: httpx titles a release "Version 0.28.1 (#3445)".
    subject = _PULL_REQUEST.sub("", _subject(commit.message)).strip()
    if _VERSION.match(subject) or (commit.files and all(_MANIFEST.search(name) for name in commit.files)):
        return "version"
    if _REVERT.match(subject):
        return "revert"
    if max_files is not None and sum(not _MANIFEST.search(name) for name in commit.files) > max_files:
        return "too_many_files"
    if _intent_free(subject, query):
        return "intent_free"
    if len(re.findall(r"\w+", query)) < MIN_WORDS:
        return "short"
    return None


def history_query_rows(
    codebase: engine.Codebase, revs: str = DEFAULT_REVS, *, max_files: int | None = MAX_FILES,
    progress: ProgressBar = None, max_file_size: str | int = MAX_FILE_SIZE, targets: str = "code",
) -> tuple[pd.DataFrame, Counter[str]]:
    """The history queries of the git repository holding `codebase`'s root, and the commits dropped by reason."""
    revs = _check_revs(revs)
    if targets not in TARGETS:
        msg = f"targets must be 'code' (the code a commit changed) or 'all' (tests, docs, changelogs too), got " \
              f"{targets!r}"
        raise ValueError(msg)
    if max_files is not None and (isinstance(max_files, bool) or not isinstance(max_files, int) or max_files < 1):
        msg = f"max_files must be a positive int or None (no limit), got {max_files!r}"
        raise ValueError(msg)
    repo, prefix = repository(codebase.root)
    if not resolves(repo, "HEAD"):
        named = git(repo, "rev-parse", "--verify", "--quiet", "HEAD", check=False).strip()
        msg = (
            f"HEAD ({named[:12]}) of {str(repo)!r} is a commit git cannot read: the repository is damaged; check it "
            "with `git fsck`" if named else
            f"{str(repo)!r} has no commit yet (a fresh `git init`), so it has no history to read; commit first"
        )  # fmt: skip
        raise ChurnError(msg)
    head = git(repo, "rev-parse", "--verify", "--end-of-options", "HEAD^{commit}").strip()
    limit = parse_size(max_file_size)
    range_args = _range(repo, revs)

    def reading() -> HistoryRead:  # the same commit, range, options and files: read once, then kept (_history_cache)
        tree = _Tree(repo, prefix, head, codebase, limit)
        return _read_history(tree, _commits(repo, range_args, revs, prefix), max_files, targets, progress)

    read = cached_read(repo, prefix, head, revs, range_args, codebase, max_files=max_files, limit=limit,
                       targets=targets, read=reading)  # fmt: skip
    attrs = {"root": str(codebase.root), "languages": codebase.languages, "source": "history", "revs": revs,
             "commits": read.commits, "targets": targets,
             "dropped": {r: read.dropped[r] for r in HISTORY_REASONS if read.dropped[r]}}  # fmt: skip
    columns = {name: [row[name] for row in read.rows] for name in HISTORY if name != "group"}
    columns["group"] = query_groups(pd.DataFrame(columns)).tolist() if read.rows else []
    frame = _columns.build(columns, HISTORY, attrs)
    return frame, Counter(read.dropped)


def _read_history(tree: _Tree, commits: list[_Commit], max_files: int | None, targets: str,
                  progress: ProgressBar) -> HistoryRead:  # fmt: skip
    """Each commit's query and target, or why it has none: the git work of reading a history."""
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    with bar(progress, len(commits), "reading commits", unit="commit") as handle, BlobReader(tree.repo) as sizes:
        for commit in commits:
            if handle is not None:
                handle.update(1)
            query = message_query(commit.message)
            found, reason = None, _reason(commit, query, max_files)
            if reason is None:
                patches = _patch(tree, commit, sizes)
                formatting = _formatting_only(patches)
                found, reason = (None, "formatting") if formatting else _target(tree, commit, patches, TARGETS[targets])
            if reason is not None:
                dropped[reason] += 1
                continue
            assert found is not None
            rows.append({"query": query, "path": found.path, "start_line": found.start_line,
                         "end_line": found.end_line, "name": found.name, "type": found.type, "comment_start": None,
                         "comment_end": None, "commit": commit.hash, "committed": commit.time,
                         "target_kind": found.kind})  # fmt: skip
    seen = Counter(row["query"] for row in rows)
    dropped["duplicate"] += sum(count for count in seen.values() if count > 1)
    return HistoryRead([row for row in rows if seen[row["query"]] == 1], dropped, len(commits))


@checked_keywords
@setting_docs
def history_queries(
    repo: str | os.PathLike[str] | engine.Codebase,
    *,
    revs: str = DEFAULT_REVS,
    max_files: int | None = MAX_FILES,
    progress: ProgressBar = None,
    targets: str = "code",
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> pd.DataFrame:
    """Probe queries written by people: each commit's message, targeting the declaration it changed.

    `repo` is a folder in a git clone (or a Codebase of one); the probed tree is its files as read now.
    For each commit of `revs` (default the last 500; a range reaching before the first commit starts at
    it), the query is the message (its subject without ticket ids and pull-request numbers, plus the
    body's first paragraph when it is prose; two sentences, 40 words at most). Its target is the code the
    commit changed, as declarations of the files read now: each line the commit added is followed from
    the commit to HEAD by git's diff and must hold the same text in the file as read (uncommitted edits
    are matched by content, in order); each such meaningful line votes for the smallest declaration
    holding it (the engine's declarations, extended mode's for a language the codebase's mode does not
    parse; without its leading comments, like a doc comment's target), or for the whole file when no
    declaration holds it; the target is the most voted, code before tests, docs and changelogs. It does
    not depend on any chunk setting. A commit none of whose lines survive gives no query: its target is
    dropped, never guessed.

    `targets="code"` (the default) keeps only targets in code; `targets="all"` also those in tests, docs
    and changelogs (a commit that changed code still targets its code). The `target_kind` column says
    which: code, test, docs or changelog (see `docs/queries.md` for the path rules).

    Left out, and counted by reason in `attrs["dropped"]`: merges, bot commits, releases, version and
    dependency bumps ("Version 0.24.0", "0.24.0 release notes"), reverts, commits changing more than
    `max_files` files (None: no limit), subjects with no search intent (typo fixes, only maintenance
    words such as "fix lint", "Tiny refactor"), messages under 3 words, whitespace-only changes, commits
    with no surviving line, commits whose surviving lines are not in a kind `targets` keeps, and
    messages shared by several commits.

    Columns: those of `probe_queries` (comment_start and comment_end are NA: there is no comment to
    mask), `commit`, `target_kind` and `group` (queries sharing a target are one cluster of the verdict's
    test and intervals). `attrs["source"]` is "history". Pass it as `probe(..., Probe(queries=...))` or
    `sweep(..., probe=Probe(queries=...))`, alone or concatenated with `probe_queries(...)`.

    Args:
        repo: A folder in a git clone, or a Codebase of one.
        revs: The commits read, as git names a range.
        max_files: Commits changing more files are left out; None: no limit.
        progress: None shows a bar only for work over a second, False never, True always.
        targets: "code" keeps targets in code only; "all" also tests, docs and changelogs.

    Returns:
        One row per query: those of `probe_queries`, `commit`, `target_kind` and `group`.

    Raises:
        ChurnError: `repo` is in no git clone.

    Examples:
        >>> queries = cn.history_queries("my-repo", revs="HEAD~200..HEAD")
        >>> cn.sweep("my-repo", chunk_size=[20, 40], probe=cn.Probe(queries=queries))
    """
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    codebase = repo if isinstance(repo, engine.Codebase) else open_source(repo, settings, progress=progress).codebase
    return history_query_rows(codebase, revs, max_files=max_files, progress=progress,
                              max_file_size=settings.max_file_size, targets=targets)[0]
