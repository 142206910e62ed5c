"""Histories for lessons and tests without a clone: a small one made from the sample codebase by scripted edits,
and clanka's own (427 commits), cloned from the bundle that ships in the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..bundled import clanka_history_bundle, sample_codebase
from ..engine.settings import checked_keywords
from ._git import ChurnError, git_command

_CSV = """
/** The report as CSV lines. */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => row.join(",")).join("\\n");
}
"""
_GIFT_CARDS = """/** A prepaid card. */
export interface GiftCard {
  code: string;
  balance: number;
}

/** Spend from a card; never below zero. */
export function spend(card: GiftCard, amount: number): GiftCard {
  return { ...card, balance: Math.max(0, card.balance - amount) };
}
"""
_ROUNDING = "/** Round half away from zero, to whole cents. */"
# (commit message, edits): each edit is (path, action, text). Actions: "prepend" a line, "append"
# lines, "replace" the first occurrence of text[0] by text[1], "write" a whole new file, "delete".
_EDITS: list[tuple[str, list[tuple[str, str, object]]]] = [
    ("pricing: a licence header on top", [("src/pricing.ts", "prepend", "// SPDX-License-Identifier: MIT\n")]),
    ("pricing: digital VAT goes down", [("src/pricing.ts", "replace", ("DIGITAL = 0.21", "DIGITAL = 0.09"))]),
    ("reports: a CSV export", [("src/reports.ts", "append", _CSV)]),
    ("models: a note on Cents", [("src/models.ts", "prepend", "// Money is always kept in whole cents.\n")]),
    ("a gift-card module", [("src/giftcards.ts", "write", _GIFT_CARDS)]),
    ("docs: architecture notes", [("docs/architecture.md", "append", "\n## Gift cards\n\nIn src/giftcards.ts.\n")]),
    ("inventory: a blank first line", [("src/inventory.ts", "prepend", "\n")]),
    ("legacy receipts removed", [("src/legacy/receipt.mjs", "delete", None)]),
    ("gift cards: expiry", [("src/giftcards.ts", "replace", ("number;\n}", "number;\n  expires?: string;\n}"))]),
    ("pricing: rounding comment", [("src/pricing.ts", "replace", (_ROUNDING, _ROUNDING[:-3] + "(as tills do). */"))]),
]


@checked_keywords
def demo_repository(folder: str | os.PathLike[str]) -> Path:
    """A git repository in `folder` (created; must not exist) holding the sample codebase, then ten small
    commits: a header line on top of a file, value edits, a new function, a new file, a deleted file.
    Churn over `HEAD~10..HEAD` shows every kind of re-embedding.

    Args:
        folder: Where the repository goes (created; must not exist).

    Returns:
        The repository's folder.

    Raises:
        ChurnError: `folder` exists, or git is missing or fails.

    Examples:
        >>> cn.churn(history.demo_repository("/tmp/demo"), revs="HEAD~10..HEAD")
    """
    target = Path(folder).expanduser()
    if target.exists():
        msg = f"{str(target)!r} exists; pass a folder that does not exist yet, e.g. a new one in a temporary folder"
        raise ChurnError(msg)
    if shutil.which("git") is None:
        msg = "the git command is not installed; install git (e.g. apt-get install git) to build a history"
        raise ChurnError(msg)
    shutil.copytree(sample_codebase(), target, ignore=shutil.ignore_patterns("__pycache__"))
    identity = {"GIT_AUTHOR_NAME": "clanka-nb", "GIT_AUTHOR_EMAIL": "demo@example.invalid",
                "GIT_COMMITTER_NAME": "clanka-nb", "GIT_COMMITTER_EMAIL": "demo@example.invalid"}  # fmt: skip

    def git(*args: str) -> None:
        # Confined like every git command here; the demo's commits are never signed (gpg.program is off).
        argv, env = git_command(target, *args, config=("commit.gpgSign=false",))
        subprocess.run(argv, check=True, capture_output=True, env={**env, **identity}, stdin=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "the sample codebase", "--date", "2026-01-01T09:00:00")
    for day, (message, edits) in enumerate(_EDITS, 2):
        for path, action, text in edits:
            _edit(target / path, action, text)
        git("add", "-A")
        git("commit", "-q", "-m", message, "--date", f"2026-01-{day:02d}T09:00:00")
    return target


def _edit(path: Path, action: str, text: object) -> None:
    if action == "delete":
        path.unlink()
    elif action == "write":
        path.write_text(str(text), encoding="utf-8")
    elif action == "prepend":
        path.write_text(str(text) + path.read_text(encoding="utf-8"), encoding="utf-8")
    elif action == "append":
        path.write_text(path.read_text(encoding="utf-8") + str(text), encoding="utf-8")
    else:
        assert isinstance(text, tuple), f"a scripted replacement is an (old, new) pair, got {text!r}"
        old, new = text
        content = path.read_text(encoding="utf-8")
        assert old in content, f"the scripted edit of {path.name} no longer applies: {old!r} is gone"
        path.write_text(content.replace(old, new, 1), encoding="utf-8")


# The temporary folders of the clones made without a folder: each removed when this process exits (the finalizer of
# `TemporaryDirectory`), so a notebook or a test run that asks for the history again and again leaves none behind.
_temporary: list[tempfile.TemporaryDirectory[str]] = []


@checked_keywords
def clanka_history(folder: str | os.PathLike[str] | None = None) -> Path:
    """A clone of clanka's own repository (427 commits of TypeScript, MIT) in `folder` (created; must not exist;
    default: a new temporary folder, removed when this Python process exits), from the git bundle that ships in the
    package: real commit messages for the probe's history queries and real edits for churn, wherever clanka-nb is
    installed.

    Args:
        folder: Where the clone goes (created; must not exist); None: a new temporary folder, removed when this
            Python process exits.

    Returns:
        The clone's folder.

    Raises:
        ChurnError: `folder` exists, or git is missing or fails.

    Examples:
        >>> from clanka_nb import history
        >>> cn.churn(history.clanka_history(), revs="HEAD~20..HEAD")
    """
    if folder is None:
        _temporary.append(tempfile.TemporaryDirectory(prefix="clanka-history-"))
        target = Path(_temporary[-1].name) / "clanka"
    else:
        target = Path(folder).expanduser()
        if target.exists():
            msg = f"{str(target)!r} exists; pass a folder that does not exist yet, or none for a temporary one"
            raise ChurnError(msg)
    if shutil.which("git") is None:
        msg = "the git command is not installed; install git (e.g. apt-get install git) to clone the history"
        raise ChurnError(msg)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Confined like every git command here (no hooks, no programs), with one transport let through for this
    # one command: `file`, which reads the bundle, our own file in the package (no repository names it).
    argv, env = git_command(target.parent, "clone", "-q", "--", str(clanka_history_bundle()), target.name)
    env["GIT_ALLOW_PROTOCOL"] = "file"
    done = subprocess.run(argv, capture_output=True, env=env, stdin=subprocess.DEVNULL, check=False, timeout=120)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        msg = f"cloning clanka's history into {str(target)!r} failed: {said[0]}; pass another folder"
        raise ChurnError(msg)
    return target
