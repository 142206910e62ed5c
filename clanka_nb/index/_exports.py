"""Model exports (ONNX, OpenVINO) kept in clanka-nb's cache folder, held to the caches' standard.

An export is a folder that `SentenceTransformer` loads as a model, so whoever can change it chooses what runs:
its model file decides the vectors, and its `modules.json` names the classes sentence-transformers imports. The
cache folder may be shared (`CLANKA_NB_CACHE_DIR`), so an export is used only when

- `model-exports/` and the export's folder are this user's own, real folders (never a link), and private (0700:
  made so, and an own folder found open to others is closed again; another user's is refused, never used);
- the export's files match the keyed check written when it was made: a BLAKE2b digest over every file's path
  and bytes, keyed with the user's secret (the caches' key file, `engine/_cache_files.py`), so a file changed,
  added or planted after the export was made, by anyone without the key, is seen. A folder that fails it is made
  again (one warning says so);
- every module `modules.json` names is sentence-transformers' own (`_check_modules`): a folder's custom code is
  never imported, the model's own folder included.

docs/security.md, "Model exports", says the same for users.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..engine.internals import CACHE_DIR_ENV, default_directory, key_path, keyed_check, load_secret
from ..engine.warn import warn_at_user
from ..warning import ClankaWarning

EXPORTS = "model-exports"  # the folder, in clanka-nb's cache folder, that holds the exports
CHECK_FILE = ".clanka-nb-check"  # the export's keyed check, beside its files (hidden: not part of the model)
_OWN_MODULES = "sentence_transformers."


class ModelExportError(OSError):
    """An export folder that is not this user's private folder, or a model that names code of its own."""


class ModelExportWarning(ClankaWarning, UserWarning):
    """An export did not match its keyed check (changed since it was made) and was made again."""


def exports_root() -> Path:
    """`model-exports/` in the cache folder: made 0700, refused when it is a link or another user's."""
    root = default_directory() / EXPORTS
    root.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        root.mkdir(mode=0o700)
    _private(root)
    return root


def _private(folder: Path) -> None:
    fix = f"delete {folder} (it holds only model exports, made again from the model) or set {CACHE_DIR_ENV} " \
          "to a folder of your own"  # fmt: skip
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
        raise ModelExportError(f"{folder} is {what}, so no model export is loaded from it; {fix}")
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise ModelExportError(f"{folder} belongs to another user (uid {info.st_uid}), so no model export is "
                               f"loaded from it; {fix}")  # fmt: skip
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        os.chmod(folder, 0o700)  # this user's own folder, made private (an earlier release made it 0755)


def _files_digest(folder: Path) -> bytes:
    """SHA-256 over every file's relative path and bytes (the check file aside); a link inside is refused."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if relative == CHECK_FILE:
            continue
        if path.is_symlink():
            raise ModelExportError(f"{path} is a symbolic link inside a model export; delete {folder}")
        if path.is_file():
            digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
            with path.open("rb") as handle:
                digest.update(hashlib.file_digest(handle, "sha256").digest())
    return digest.digest()


def _keyed(folder: Path, name: str) -> bytes:
    # The export's name is in the key: one export's files and check copied under another's name do not pass.
    key = b"model-export\0" + name.encode("utf-8", "surrogateescape")
    return keyed_check(load_secret(key_path()), key, _files_digest(folder))


def sign(folder: Path, name: str) -> None:
    """Write the keyed check of the export to be called `name` (after every file of it is in place)."""
    check = folder / CHECK_FILE
    fd = os.open(check, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, _keyed(folder, name).hex().encode())
    finally:
        os.close(fd)


def verified(folder: Path) -> bool:
    """Whether `folder` is this user's private folder whose files match the keyed check written when it was made."""
    _private(folder)
    check = folder / CHECK_FILE
    try:
        info = os.lstat(check)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(info.st_mode) or (hasattr(os, "geteuid") and info.st_uid != os.geteuid()):
        return False
    written = check.read_bytes()[:200]
    return hmac.compare_digest(written, _keyed(folder, folder.name).hex().encode())


def ensured(folder: Path, needed: str, build: Callable[[Path], None]) -> Path:
    """`folder` holding `needed` (a relative file) and matching its keyed check: made by `build(into)` when
    missing, when it fails the check (after one warning) or when `needed` is not there yet (`build` then gets a
    scratch copy of the folder to add to). Each step writes under a temporary name and renames it into place, so
    an interrupted export is made again."""
    root = folder.parent
    present = os.path.lexists(folder)
    if present:
        if verified(folder):
            if (folder / needed).is_file():
                return folder
        else:
            warn_at_user(f"the model export {folder} does not match the keyed check written when it was made "
                         "(changed since, or made by an older release); it is made again", ModelExportWarning)
            shutil.rmtree(folder)
            present = False
    with tempfile.TemporaryDirectory(dir=root, prefix=".export-") as temporary:
        scratch = Path(temporary) / "model"
        if present:
            shutil.copytree(folder, scratch, symlinks=True)
        build(scratch)
        check_modules(scratch)
        sign(scratch, folder.name)
        if present:
            shutil.rmtree(folder)
        with contextlib.suppress(OSError):  # another process finished first: its export is the same
            os.replace(scratch, folder)
    if not verified(folder) or not (folder / needed).is_file():
        raise ModelExportError(f"the model export {folder} could not be made (check the cache folder's space "
                               "and permissions)")  # fmt: skip
    return folder


def check_modules(folder: Path) -> None:
    """Refuse a model whose `modules.json` names a module outside sentence-transformers: loading it would import
    code the folder chooses (custom modules), which clanka-nb never runs."""
    listing = folder / "modules.json"
    if not listing.is_file():
        return
    try:
        modules = json.loads(listing.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise ModelExportError(f"{listing} is not JSON ({error}); pass a folder SentenceTransformer.save wrote") \
            from None
    named = [entry.get("type") for entry in modules if isinstance(entry, dict)] if isinstance(modules, list) else None
    if named is None or len(named) != len(modules):
        raise ModelExportError(f"{listing} is not a list of modules; pass a folder SentenceTransformer.save wrote")
    foreign = [name for name in named if not (isinstance(name, str) and name.startswith(_OWN_MODULES))]
    if foreign:
        shown = ", ".join(repr(name)[:80] for name in foreign[:3])
        raise ModelExportError(f"{listing} names code of its own ({shown}), which clanka-nb never imports; use a "
                               "model made of sentence-transformers' own modules")  # fmt: skip
