"""What keeping clanka's index fresh costs: embedding inputs embedded, reused and deleted per commit and setting.

clanka re-indexes and embeds only inputs whose SHA-256 it has not stored; after a sync the store holds
exactly the current inputs. An input carries the path, the chunk's name/type/parent and every line
with its number, so a line inserted near the top of a file changes every later chunk's input. This
walks a history commit by commit, re-chunks only the files each commit changed (each parsed once,
then cut at every setting), and counts what a sync after that commit would embed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import engine
from ..engine import ParseCache, PreparedText
from ..engine.embedding import embedding_text, input_hash
from ..engine.internals import chunks_of, load_file, resolve_cache
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Grid, Settings
from ..engine.token_counts import TokenCounter
from ..engine.token_counts import token_counter as resolve_counter
from ._git import BlobReader, Commit, changes, check_tracked, first_parent_commits, repository, tree_files
from ._mirror import Mirror, mirror_folder

# Why an input is embedded again: its file is new, its text is new, or only its line numbers moved.
REASONS = ("new_file", "edited", "line_shift")



@dataclass
class _Setting:
    """The store clanka would hold at one setting: each file's inputs, and how many files hold each."""

    settings: engine.ChunkSettings
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # path -> input hash -> shape
    counts: Counter[str] = field(default_factory=Counter)

    def cut(self, text: PreparedText | None) -> dict[str, tuple[str, str]]:
        """A file's inputs: hash -> (shape, text). The shape leaves out line numbers: equal shapes, moved lines."""
        out: dict[str, tuple[str, str]] = {}
        if text is None:
            return out
        for chunk in chunks_of(text, self.settings):
            source = embedding_text(chunk.path, chunk.start_line, chunk.name, chunk.type, chunk.parent, chunk.content)
            shape = input_hash(f"{chunk.name}\0{chunk.type}\0{chunk.parent}\0{chunk.content}")
            out[input_hash(source)] = (shape, source)
        return out


@dataclass
class _Tally:
    embedded: int = 0
    deleted: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    tokens: int = 0




@dataclass(frozen=True)
class _Step:
    """One commit's result: its rows (one per setting, each naming the commit) and per-file rows."""

    rows: list[dict[str, Any]]
    file_rows: list[dict[str, Any]]
    submodules: frozenset[str]  # the submodules seen so far (never counted: their files are another repository's)
    unwritable: tuple[str, ...]  # paths no file here can have (a name too long...): left out, as in a checkout


def _walk(
    repo: str | Any,
    revs: str,
    grid: Grid,
    opening: Settings,
    token_counter: object,
    cache: bool | ParseCache,
    progress: ProgressBar,
) -> Iterator[_Step]:
    combinations = grid.combinations()
    languages, max_file_size = opening.mode, opening.max_file_size
    counter = None if token_counter is None else resolve_counter(token_counter)
    parse_cache = resolve_cache(cache)
    root, prefix = repository(repo)
    baseline, commits = first_parent_commits(root, revs)
    check_tracked(root, prefix, baseline, commits)
    states = [_Setting(settings) for settings in combinations]
    with mirror_folder() as folder, BlobReader(root) as blobs:
        mirror = Mirror(folder, blobs, max_file_size, prefix)
        mirror.apply(tree_files(root, baseline))
        listed = mirror.every_listed()
        for path in sorted(listed):
            text = _prepare(mirror, path, languages, parse_cache)
            for state in states:
                _replace(state, path, state.cut(text), _Tally(), None, None)
        previous = baseline
        with bar(progress, len(commits), "commits", unit="commit") as shown:
            for commit in commits:
                started = time.perf_counter()
                changed = changes(root, previous, commit.hash)
                rules_changed = mirror.apply(changed)
                changed = mirror.relative(changed)  # a subfolder's churn counts its own files only
                now, paths = _listed_now(mirror, {c.path for c in changed}, listed, rules_changed=rules_changed)
                texts = {p: _prepare(mirror, p, languages, parse_cache) for p in sorted(paths) if p in now}
                rows, file_rows = [], []
                for state in states:
                    tally, per_file = _setting_at(state, commit, sorted(paths), (listed, now), texts, counter)
                    rows.append(_commit_row(commit, len(changed), state, tally, counter is not None))
                    file_rows.extend(per_file)
                listed, previous = now, commit.hash
                seconds = time.perf_counter() - started
                for row in rows:
                    row["seconds"] = seconds
                if shown is not None:
                    shown.update(1)
                yield _Step(rows, file_rows, frozenset(mirror.submodules), tuple(sorted(mirror.unwritable)))


def _listed_now(mirror: Mirror, paths: set[str], listed: set[str], *, rules_changed: bool) -> tuple[set[str], set[str]]:
    """The files listed after a commit that changed `paths`, and the paths to look at: those it changed, and those
    a change of an ignore rule (`rules_changed`) listed or left out."""
    if rules_changed:
        now = mirror.every_listed()
        return now, paths | (now ^ listed)
    now = set(listed)
    for path in paths:
        (now.add if mirror.listed(path) else now.discard)(path)
    return now, paths


def _setting_at(
    state: _Setting, commit: Commit, paths: list[str], listed: tuple[set[str], set[str]],
    texts: dict[str, PreparedText | None], counter: TokenCounter | None,
) -> tuple[_Tally, list[dict[str, Any]]]:
    """One setting's tally at a commit (its index brought up to date with `paths`, listed before and after as
    `listed`), and a row for each file that re-embeds or deletes."""
    before, now = listed
    tally = _Tally()
    per_file = []
    for path in paths:
        if path not in now and path not in state.files:
            continue
        file_tally = _Tally()
        new = state.cut(texts.get(path)) if path in now else {}
        _replace(state, path, new, file_tally, path not in before, counter)
        tally.embedded += file_tally.embedded
        tally.deleted += file_tally.deleted
        tally.reasons.update(file_tally.reasons)
        tally.tokens += file_tally.tokens
        if file_tally.embedded or file_tally.deleted:
            change = "added" if path not in before else "deleted" if path not in now else "modified"
            per_file.append(_file_row(commit, state.settings, path, change, file_tally))
    return tally, per_file


def _prepare(mirror: Mirror, path: str, languages: str, cache: ParseCache | None) -> PreparedText | None:
    text, _ = load_file(mirror.root, path, languages, cache)
    return text


def _replace(
    state: _Setting,
    path: str,
    new: dict[str, tuple[str, str]],
    tally: _Tally,
    new_file: bool | None,
    token_counter: TokenCounter | None,
) -> None:
    """Swap one file's inputs in the store, counting what a sync embeds and deletes, and why."""
    old = state.files.pop(path, {})
    old_shapes = set(old.values())
    for digest in old:
        state.counts[digest] -= 1
        if not state.counts[digest]:
            del state.counts[digest]
            if digest not in new:
                tally.deleted += 1
    for digest, (shape, source) in new.items():
        if digest not in state.counts and digest not in old:
            tally.embedded += 1
            if new_file is not None:
                reason = "new_file" if new_file else "line_shift" if shape in old_shapes else "edited"
                tally.reasons[reason] += 1
            if token_counter is not None:
                tally.tokens += token_counter(source)
        state.counts[digest] += 1
    state.files[path] = {digest: shape for digest, (shape, _) in new.items()}


def _commit_row(commit: Commit, files_changed: int, state: _Setting, tally: _Tally, tokens: bool) -> dict[str, Any]:
    inputs = len(state.counts)
    row = {
        "commit": commit.hash, "date": commit.date, "subject": commit.subject, "files_changed": files_changed,
        **state.settings.columns(),
        "inputs": inputs, "embedded": tally.embedded, "reused": inputs - tally.embedded, "deleted": tally.deleted,
        **{reason: tally.reasons[reason] for reason in REASONS},
    }  # fmt: skip
    if tokens:
        row["tokens_embedded"] = tally.tokens
    return row


def _file_row(commit: Commit, settings: engine.ChunkSettings, path: str, change: str, tally: _Tally) -> dict[str, Any]:
    return {
        "commit": commit.hash, **settings.columns(), "path": path, "change": change,
        "embedded": tally.embedded, "deleted": tally.deleted, **{reason: tally.reasons[reason] for reason in REASONS},
    }  # fmt: skip
