"""The persistent parse cache: same chunks as parsing, parses skipped, and safe when damaged or shared."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.engine import _cache, _chunker
from clanka_nb.engine._cache import ParseCache, ParseCacheWarning
from tests._shared import NEEDS_CONFORMANCE

CONFORMANCE = Path(__file__).resolve().parents[2].parent / "shared" / "conformance"
SOURCES = {
    "src/a.ts": "/** Adds. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
    "src/b.tsx": "export class Shelf {\n  size(): number {\n    return 1;\n  }\n}\nconst k = <div/>;\n",
    "src/c.js": "const x = 1;\nfunction f() {}\n",
    "src/d.py": "def f():\n    return 1\n",
    "README.md": "# notes\n",
}


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths parsed by tree-sitter in this process, in order (the cache's misses)."""
    seen: list[str] = []
    real = _chunker.find_declarations

    def counting(path, text, lines, languages):  # type: ignore[no-untyped-def]
        grammar, found = real(path, text, lines, languages)
        if grammar is not None:  # a file with no grammar is never parsed
            seen.append(path)
        return grammar, found

    monkeypatch.setattr(_chunker, "find_declarations", counting)
    return seen


@pytest.fixture(autouse=True)
def fresh_warning_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cache, "_warned", [])


def chunks(root: Path, cache: bool | ParseCache, languages: str = "clanka") -> list[engine.CodeChunk]:
    return engine.Codebase(root, cache=cache, languages=languages).chunks(chunk_size=7, chunk_overlap=2)


def test_a_second_open_parses_nothing_and_gives_the_same_chunks(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    plain = chunks(root, cache=False)
    assert sorted(parses) == ["src/a.ts", "src/b.tsx", "src/c.js"]  # d.py has no grammar in clanka mode
    parses.clear()
    assert chunks(root, cache) == plain
    assert sorted(parses) == ["src/a.ts", "src/b.tsx", "src/c.js"]
    parses.clear()
    assert chunks(root, cache) == plain
    assert parses == []
    assert cache.info().entries == 3


def test_extended_mode_has_entries_of_its_own(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    chunks(root, cache)
    parses.clear()
    extended = chunks(root, cache, languages="extended")
    assert "src/d.py" in parses and "src/a.ts" in parses  # not served from clanka mode's entries
    assert extended == chunks(root, cache=False, languages="extended")


def test_an_edited_file_alone_is_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    chunks(root, cache)
    (root / "src/a.ts").write_text("// moved\n" + SOURCES["src/a.ts"], encoding="utf-8")
    parses.clear()
    assert chunks(root, cache) == chunks(root, cache=False)
    assert parses[0] == "src/a.ts" and parses.count("src/a.ts") == 2 and len(parses) == 4


def test_the_same_text_under_another_name_with_the_same_extension_is_a_hit(tmp_path: Path, parses: list[str]) -> None:
    cache = ParseCache(tmp_path / "cache")
    chunks(write_tree(tmp_path / "one", {"x/a.ts": SOURCES["src/a.ts"]}), cache)
    parses.clear()
    found = chunks(write_tree(tmp_path / "two", {"y/renamed.ts": SOURCES["src/a.ts"]}), cache)
    assert parses == [] and [c.path for c in found] == ["y/renamed.ts"]


def test_another_engine_version_does_not_read_old_entries(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    chunks(root, cache)
    monkeypatch.setattr(_cache, "fingerprint", lambda: "another release")
    parses.clear()
    chunks(root, cache)
    assert len(parses) == 3


def test_fingerprint_follows_the_engine_source() -> None:
    digest = _cache.fingerprint()
    assert len(digest) == 64 and digest == _cache.fingerprint()


def test_a_damaged_entry_is_parsed_again_with_one_warning(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    plain = chunks(root, cache)
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE entries SET value = substr(value, 1, 20) || X'00ff' || substr(value, 23)")
    parses.clear()
    with pytest.warns(ParseCacheWarning, match="damaged entry") as caught:
        again = chunks(root, cache)
    assert again == plain
    assert len(caught) == 1 and len(parses) == 3
    parses.clear()
    assert chunks(root, cache) == plain and parses == []  # rewritten whole


def test_an_entry_with_a_valid_checksum_but_a_wrong_shape_is_refused() -> None:
    secret, key = b"s" * 32, b"k" * 32
    assert _cache.decode_entry(secret, key, b"short") is None
    data = json.dumps(["typescript", [["1", 2, None, None, None]]]).encode()
    forged = _cache._check(secret, key, data) + data
    assert _cache.decode_entry(secret, key, forged) is None
    good = _cache.encode_entry(secret, key, "typescript", [engine.Declaration(1, 2, "f", "function", None)])
    assert _cache.decode_entry(secret, key, good) == ("typescript", [engine.Declaration(1, 2, "f", "function", None)])
    assert _cache.decode_entry(secret, b"another key", good) is None  # moved under another file's key
    assert _cache.decode_entry(b"t" * 32, key, good) is None  # another user's secret


def _plain_entry(grammar: str, rows: list[list[object]]) -> bytes:
    """An entry as anyone who can write the cache folder can make one: JSON behind an unkeyed hash."""
    import hashlib

    data = json.dumps([grammar, rows]).encode()
    return hashlib.blake2b(data, digest_size=16).digest() + data


def test_a_forged_entry_is_refused_with_one_warning_and_the_file_parsed_again(
    tmp_path: Path, parses: list[str]
) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    plain = chunks(root, cache=False)
    chunks(root, cache)
    # 20,001 one-line functions for each file, checksummed as the cache once did (no key).
    lie = _plain_entry("typescript", [[1, 1, f"f{i}", "function", None, 1] for i in range(20_001)])
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE entries SET value = ?", (lie,))
    parses.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = chunks(root, cache)
    assert again == plain
    assert sorted(parses) == ["src/a.ts", "src/b.tsx", "src/c.js"]
    assert [w.category for w in caught] == [ParseCacheWarning]
    assert "without this user's key" in str(caught[0].message)
    parses.clear()
    assert chunks(root, cache) == plain and parses == []  # the true parses were stored again


def test_an_entry_moved_under_another_files_key_is_refused(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    plain = chunks(root, cache)
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE entries SET value = (SELECT value FROM entries ORDER BY length(value) DESC LIMIT 1)")
    parses.clear()
    with pytest.warns(ParseCacheWarning, match="damaged entry"):
        assert chunks(root, cache) == plain
    assert len(parses) == 2  # every entry but the one whose own value was copied


def test_the_key_is_made_once_for_the_user_alone_outside_the_cache_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(_cache.CONFIG_DIR_ENV, str(tmp_path / "config"))
    root = write_tree(tmp_path / "repo", SOURCES)
    cache = ParseCache(tmp_path / "cache")
    chunks(root, cache)
    key_file = tmp_path / "config" / _cache.KEY_FILE_NAME
    assert key_file.stat().st_mode & 0o777 == 0o600 and len(key_file.read_bytes()) == 32
    assert not any(p.name == _cache.KEY_FILE_NAME for p in (tmp_path / "cache").iterdir())
    secret = key_file.read_bytes()
    chunks(root, ParseCache(tmp_path / "cache"))
    assert key_file.read_bytes() == secret


def test_a_key_file_others_can_read_is_refused_and_files_are_parsed(
    tmp_path: Path, parses: list[str], monkeypatch
) -> None:
    monkeypatch.setenv(_cache.CONFIG_DIR_ENV, str(tmp_path / "config"))
    (tmp_path / "config").mkdir()
    key_file = tmp_path / "config" / _cache.KEY_FILE_NAME
    key_file.write_bytes(b"k" * 32)
    key_file.chmod(0o644)
    root = write_tree(tmp_path / "repo", SOURCES)
    with pytest.warns(ParseCacheWarning, match="chmod 600"):
        assert chunks(root, ParseCache(tmp_path / "cache")) == chunks(root, cache=False)
    assert len(parses) == 6


def test_a_corrupt_cache_file_falls_back_to_parsing(tmp_path: Path, parses: list[str]) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / _cache.FILE_NAME).write_bytes(b"this is not a database" * 100)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = chunks(root, ParseCache(folder))
    assert result == chunks(root, cache=False)
    assert [w.category for w in caught] == [ParseCacheWarning]
    assert "CLANKA_NB_CACHE_DIR" in str(caught[0].message)


def test_a_cache_folder_that_cannot_be_made_falls_back_to_parsing(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", SOURCES)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.warns(ParseCacheWarning):
        result = chunks(root, ParseCache(blocker / "cache"))
    assert result == chunks(root, cache=False)


def test_cache_false_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_cache.CACHE_DIR_ENV, str(tmp_path / "default"))
    root = write_tree(tmp_path / "repo", SOURCES)
    list(engine.chunk_codebase(root, cache=False))
    assert not (tmp_path / "default").exists()
    list(engine.chunk_codebase(root))
    assert (tmp_path / "default" / _cache.FILE_NAME).exists()


def test_bad_cache_arguments_say_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="cache=False"):
        engine.Codebase(tmp_path, cache="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_bytes"):
        ParseCache(tmp_path, max_bytes=-1)


def test_least_recently_used_entries_go_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cache, "_TOUCH_SECONDS", 0.0)  # every read refreshes (not only stale ones)
    cache = ParseCache(tmp_path / "cache", max_bytes=4_000)
    decls = [engine.Declaration(i, i, f"name{i}", "function", None) for i in range(1, 6)]
    keys = [bytes([i]) * 32 for i in range(40)]
    for i, key in enumerate(keys):
        cache.put(key, "typescript", decls)
        if i >= 1:
            assert cache.get(keys[0]) is not None, f"the entry read after every write was evicted at {i}"
    info = cache.info()
    assert info.bytes <= 4_000 and 0 < info.entries < 40
    assert cache.get(keys[-1]) is not None and cache.get(keys[1]) is None


WRITER = """
import sys, warnings
warnings.simplefilter("error")
from clanka_nb import engine
from clanka_nb.engine import ParseCache
root, folder = sys.argv[1], sys.argv[2]
for _ in range(3):
    engine.Codebase(root, cache=ParseCache(folder)).chunks()
print("ok")
"""


def test_two_processes_writing_at_once(tmp_path: Path, parses: list[str]) -> None:
    files = {f"m{i}/f{j}.ts": f"export const v{i}_{j} = {i * j};\n" for i in range(8) for j in range(25)}
    root = write_tree(tmp_path / "repo", files)
    folder = tmp_path / "cache"
    command = [sys.executable, "-c", WRITER, str(root), str(folder)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0 and out.strip() == "ok", err
    assert chunks(root, ParseCache(folder)) == chunks(root, cache=False)
    assert len(parses) == len(files)  # only the cache=False run parsed: the shared cache was complete


def test_worker_processes_use_the_cache(tmp_path: Path) -> None:
    files = {f"f{j}.ts": f"export const v{j} = {j};\n" for j in range(40)}
    root = write_tree(tmp_path / "repo", files)
    cache = ParseCache(tmp_path / "cache")
    expected = list(engine.chunk_codebase(root, cache=False))
    assert list(engine.chunk_codebase(root, workers=2, cache=cache)) == expected
    assert cache.info().entries == 40


def _conformance_files() -> dict[str, str]:
    files: dict[str, str] = {}
    sources = [CONFORMANCE / "cases.jsonl", CONFORMANCE / "real_files.jsonl.gz", CONFORMANCE / "round2_cases.jsonl.gz"]
    for source in sources:
        opener = gzip.open if source.suffix == ".gz" else open
        with opener(source, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                case = json.loads(line)
                name = case["path"].replace("\\", "/").rsplit("/", 1)[-1]
                files[f"{source.name.split('.')[0]}/{number:05d}/{name}"] = case["content"]
    return files


@pytest.mark.skipif(not CONFORMANCE.exists(), reason=NEEDS_CONFORMANCE)
def test_conformance_files_give_the_same_chunks_cold_warm_and_uncached(tmp_path: Path) -> None:
    files = _conformance_files()
    root = tmp_path / "cases"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
    paths = sorted(files)
    cache = ParseCache(tmp_path / "cache")
    for chunk_size, overlap, limit in [(30, 0, None), (7, 3, 200)]:
        def run(use: bool | ParseCache) -> list[engine.CodeChunk]:
            base = engine.Codebase(root, paths=paths, cache=use)
            return base.chunks(chunk_size, overlap, limit)  # noqa: B023

        plain = run(False)
        assert run(cache) == plain
        assert run(cache) == plain
    assert cache.info().entries > 100


def test_the_environment_can_turn_the_default_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_cache.CACHE_DIR_ENV, str(tmp_path / "default"))
    monkeypatch.setenv(_cache.CACHE_SWITCH_ENV, "off")
    root = write_tree(tmp_path / "repo", SOURCES)
    list(engine.chunk_codebase(root))
    assert not (tmp_path / "default").exists()
    explicit = ParseCache(tmp_path / "explicit")
    list(engine.chunk_codebase(root, cache=explicit))  # an explicit cache is still used
    assert explicit.info().entries == 3


def test_a_reopen_the_cache_serves_starts_no_worker_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clanka_nb.engine import _codebase

    files = {f"f{j}.ts": f"export const v{j} = {j};\n" for j in range(40)}
    root = write_tree(tmp_path / "repo", files)
    cache = ParseCache(tmp_path / "cache")
    pools: list[int] = []
    real = _codebase.ordered_map

    def counted(func, jobs, *args, **kwargs):  # type: ignore[no-untyped-def]
        pools.append(len(jobs))
        return real(func, jobs, *args, **kwargs)

    monkeypatch.setattr(_codebase, "ordered_map", counted)
    expected = list(engine.chunk_codebase(root, workers=2, cache=cache))
    assert pools == [40]  # every file was left to parse: workers did it
    assert list(engine.chunk_codebase(root, workers=2, cache=cache)) == expected
    assert engine.Codebase(root, workers=2, cache=cache).chunks() == expected
    (root / "f7.ts").write_text("export const edited = 7;\n", encoding="utf-8")
    edited = list(engine.chunk_codebase(root, workers=2, cache=cache))
    assert edited == list(engine.chunk_codebase(root, cache=False, workers=1))
    assert pools == [40]  # served by the cache (one edited file parsed here): no worker started
