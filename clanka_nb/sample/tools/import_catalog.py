#!/usr/bin/env python3
"""Import a supplier's price list (CSV) into the Shelfwise catalogue (JSON).

Suppliers send a CSV every month. This script checks each row, converts prices
to cents, fixes ISBN-10s, and writes the `books` array that the shop loads at
start-up. Run it by hand:

    python tools/import_catalog.py pricelist.csv catalogue.json --supplier mercator
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

VAT_RATE = 0.06
FORMATS = {"HB": "hardcover", "PB": "paperback", "AUD": "audiobook", "EB": "ebook"}


def timed(label):
    """Decorator: print how long the wrapped function took, to stderr."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                print(f"{label}: {elapsed:.2f}s", file=sys.stderr)

        return inner

    return wrap


@functools.lru_cache(maxsize=4096)
def to_isbn13(raw: str) -> str | None:
    """The ISBN-13 for an ISBN-10 or ISBN-13 as suppliers write them, or None when invalid."""
    digits = raw.replace("-", "").replace(" ", "").upper()
    if len(digits) == 10 and digits[:9].isdigit():
        body = "978" + digits[:9]  # the old check digit is dropped, not verified
    elif len(digits) == 13 and digits.isdigit():
        body = digits[:12]
    else:
        return None
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body))
    check = str((10 - total % 10) % 10)
    if len(digits) == 13 and digits[12] != check:
        return None
    return body + check


def parse_cents(text: str) -> int:
    """'12,99' or '12.99' or '€12.99' -> 1299. Raises ValueError on anything else."""
    cleaned = text.strip().lstrip("€").replace(",", ".")
    euros, _, cents = cleaned.partition(".")
    if not euros.isdigit() or (cents and not cents.isdigit()) or len(cents) > 2:
        raise ValueError(f"not a price: {text!r}")
    return int(euros) * 100 + int(cents.ljust(2, "0"))


@dataclass
class CatalogueEntry:
    """One book as the shop's catalogue stores it (see Book in src/models.ts)."""

    isbn: str
    title: str
    authors: list[str]
    format: str
    genre: str
    priceCents: int  # noqa: N815 - the JSON field names follow the TypeScript model
    costCents: int  # noqa: N815
    supplierId: str  # noqa: N815


@dataclass
class ImportReport:
    """What happened to each row of the price list."""

    imported: int = 0
    skipped: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no row had to be skipped."""
        return not self.skipped


class CatalogueImporter:
    """Turns the rows of one supplier's price list into catalogue entries.

    The supplier's CSV has the columns isbn, title, authors (separated by "/"),
    format (HB, PB, AUD, EB), genre, rrp (shelf price) and trade (our cost).
    """

    def __init__(self, supplier_id: str, *, margin_floor: float = 0.25):
        self.supplier_id = supplier_id
        self.margin_floor = margin_floor
        self.report = ImportReport()

    @classmethod
    def for_file(cls, path: Path) -> CatalogueImporter:
        """An importer whose supplier id is taken from the file name, e.g. 'mercator-2024-05.csv'."""
        return cls(path.stem.split("-")[0])

    @staticmethod
    def margin(price_cents: int, cost_cents: int) -> float:
        """Gross margin on the net (VAT-free) shelf price."""
        net = price_cents / (1 + VAT_RATE)
        return (net - cost_cents) / net if net else 0.0

    def entry(self, row: dict[str, str]) -> CatalogueEntry:
        """Check one CSV row and convert it; raises ValueError with the reason when it is unusable."""
        isbn = to_isbn13(row["isbn"])
        if isbn is None:
            raise ValueError(f"bad ISBN {row['isbn']!r}")
        if row["format"] not in FORMATS:
            raise ValueError(f"unknown format {row['format']!r}")
        price, cost = parse_cents(row["rrp"]), parse_cents(row["trade"])
        if self.margin(price, cost) < self.margin_floor:
            raise ValueError(f"margin below {self.margin_floor:.0%}")
        authors = [name.strip() for name in row["authors"].split("/") if name.strip()]
        return CatalogueEntry(
            isbn, row["title"].strip(), authors, FORMATS[row["format"]], row["genre"].strip().lower(),
            price, cost, self.supplier_id,
        )

    @timed("import")
    def run(self, rows) -> list[CatalogueEntry]:
        """Convert every usable row; unusable ones are listed in `self.report.skipped`."""
        entries: dict[str, CatalogueEntry] = {}
        for number, row in enumerate(rows, start=2):
            try:
                entry = self.entry(row)
            except (KeyError, ValueError) as problem:
                self.report.skipped.append(f"line {number}: {problem}")
                continue
            entries[entry.isbn] = entry  # a later row for the same ISBN wins
        self.report.imported = len(entries)
        return sorted(entries.values(), key=lambda e: (e.genre, e.title))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pricelist", type=Path)
    parser.add_argument("catalogue", type=Path)
    parser.add_argument("--supplier", help="supplier id (default: from the file name)")
    args = parser.parse_args(argv)

    importer = CatalogueImporter(args.supplier) if args.supplier else CatalogueImporter.for_file(args.pricelist)
    with args.pricelist.open(newline="", encoding="utf-8-sig") as handle:
        entries = importer.run(csv.DictReader(handle, delimiter=";"))
    args.catalogue.write_text(json.dumps({"books": [asdict(e) for e in entries]}, indent=2) + "\n")

    for problem in importer.report.skipped:
        print(problem, file=sys.stderr)
    print(f"{importer.report.imported} books written to {args.catalogue}")
    return 0 if importer.report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
