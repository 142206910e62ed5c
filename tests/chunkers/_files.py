"""Small files of three kinds for the adapters, and the skip (or, where CI requires the extra, the failure)
without a peer."""

from __future__ import annotations

import importlib.util
import os

import pytest

TS = """import { readFile } from "node:fs/promises";

/** Reads a stock file and counts its rows (Ünïcode ✓, 🚀: offsets are characters, not bytes). */
export async function countRows(path: string): Promise<number> {
  const text = await readFile(path, "utf8");
  return text.split("\\n").filter((line) => line.trim() !== "").length;
}

export class Inventory {
  private items = new Map<string, number>();

  add(name: string, count = 1): void {
    this.items.set(name, (this.items.get(name) ?? 0) + count);
  }

  total(): number {
    let sum = 0;
    for (const count of this.items.values()) {
      sum += count;
    }
    return sum;
  }
}

export type Row = { name: string; count: number };
"""

PY = '''"""Stock levels, read from a CSV file (café, naïve, 🚀: offsets are characters, not bytes)."""

import csv
from dataclasses import dataclass


@dataclass
class Item:
    name: str
    count: int

    def restock(self, amount: int) -> None:
        """Add `amount` units."""
        self.count += amount


def read_items(path: str) -> list[Item]:
    with open(path, newline="") as handle:
        return [Item(row["name"], int(row["count"])) for row in csv.DictReader(handle)]


def total(items: list[Item]) -> int:
    return sum(item.count for item in items)
'''

MD = """# Stock check

A small tool that counts what is left on the shelves.

## Usage

Run `stockcheck items.csv` and read the total.

    stockcheck items.csv --low 5

## Files

- `items.csv`: one row per item, with its name and count.
- `report.md`: written after each run.

## Licence

MIT.
"""

FILES = {"src/inventory.ts": TS, "stock/items.py": PY, "README.md": MD}

# The adapters' peers and the module each needs (all from the `chunkers` extra).
PEER_MODULES = {
    "astchunk": "astchunk",
    "chonkie": "chonkie",
    "langchain": "langchain_text_splitters",
    "llama_index": "llama_index",
    "semantic_text_splitter": "semantic_text_splitter",
}


def need_peer(name: str) -> None:
    """Skip the running test in one line when the peer is not installed (fail where CI requires the extra)."""
    if importlib.util.find_spec(PEER_MODULES[name]) is None:
        message = f"{name} is not installed: pip install -e '.[chunkers]'"
        # As tests/conftest.py's tools: `.ci/run` names `chunkers` there, so CI cannot pass by skipping these.
        if "chunkers" in os.environ.get("CLANKA_NB_REQUIRE_TOOLS", "").split(","):
            pytest.fail(f"{message}, and CLANKA_NB_REQUIRE_TOOLS says this run must have it")
        pytest.skip(message)
