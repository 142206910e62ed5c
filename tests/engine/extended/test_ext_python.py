"""Extended mode on Python: functions, classes, methods, decorators, docstrings, assignments."""

from __future__ import annotations

from itertools import pairwise

from clanka_nb.engine import chunk_file_content

from ._support import chunks, line, rows, source

INVENTORY = source('''
    """Stock keeping for a small shop."""

    from __future__ import annotations

    import dataclasses
    from decimal import Decimal

    # Shared by every price calculation.
    TAX_RATE = Decimal("0.2")
    DEFAULT_UNIT: str = "piece"
    round_price = lambda value: value.quantize(Decimal("0.01"))


    # --- models -------------------------------------------------------

    @dataclasses.dataclass(frozen=True)
    class Item:
        """One thing on a shelf."""

        sku: str
        price: Decimal

        def gross(self) -> Decimal:
            """Price with tax."""
            return round_price(self.price * (1 + TAX_RATE))

        @property
        def label(self) -> str:
            return f"{self.sku} ({DEFAULT_UNIT})"

        class Meta:
            ordering = ("sku",)

            def describe(self) -> str:
                return "sorted by sku"


    class Shelf:
        # Items keyed by sku.
        def __init__(self) -> None:
            self.items: dict[str, Item] = {}

        @staticmethod
        @functools.cache
        def capacity() -> int:
            return 40

        async def refill(self, supplier) -> None:
            def pick(item):
                return item.sku
            for item in await supplier.fetch():
                self.items[pick(item)] = item


    def total(items: list[Item]) -> Decimal:
        """Sum of gross prices."""
        return sum((item.gross() for item in items), Decimal(0))


    if __name__ == "__main__":
        print(total([]))
''')


def test_top_level_definitions_and_methods():
    src = INVENTORY
    assert rows("shop/inventory.py", src) == {
        ("TAX_RATE", "variable", None, line(src, "# Shared by"), line(src, "TAX_RATE =")),
        ("DEFAULT_UNIT", "variable", None, line(src, "DEFAULT_UNIT:"), line(src, "DEFAULT_UNIT:")),
        ("round_price", "function", None, line(src, "round_price ="), line(src, "round_price =")),
        ("Item", "class", None, line(src, "@dataclasses"), line(src, 'return "sorted by sku"')),
        ("gross", "method", "class Item", line(src, "def gross"), line(src, "return round_price")),
        ("label", "method", "class Item", line(src, "@property"), line(src, "return f")),
        ("Meta", "class", "class Item", line(src, "class Meta"), line(src, 'return "sorted by sku"')),
        ("describe", "method", "class Meta", line(src, "def describe"), line(src, 'return "sorted by sku"')),
        ("Shelf", "class", None, line(src, "class Shelf"), line(src, "self.items[pick(item)]")),
        ("__init__", "method", "class Shelf", line(src, "# Items keyed"), line(src, "self.items: dict")),
        ("capacity", "method", "class Shelf", line(src, "@staticmethod"), line(src, "return 40")),
        ("refill", "method", "class Shelf", line(src, "async def refill"), line(src, "self.items[pick(item)]")),
        ("total", "function", None, line(src, "def total"), line(src, "return sum(")),
    }


def test_docstrings_stay_inside_their_function_or_class():
    by_name = {c.name: c for c in chunks("inventory.py", INVENTORY)}
    assert '"""One thing on a shelf."""' in by_name["Item"].content
    assert by_name["total"].content.splitlines()[1].strip() == '"""Sum of gross prices."""'
    # The module docstring and imports belong to no declaration.
    assert not any("Stock keeping" in c.content for c in by_name.values())


def test_comment_after_a_blank_line_is_not_attached():
    src = INVENTORY
    item = next(c for c in chunks("inventory.py", src) if c.name == "Item")
    assert item.start_line == line(src, "@dataclasses")
    assert "# --- models" not in item.content


def test_decorators_are_part_of_the_range():
    by_name = {c.name: c for c in chunks("inventory.py", INVENTORY)}
    assert by_name["capacity"].content.splitlines()[:2] == ["    @staticmethod", "    @functools.cache"]


def test_nested_functions_are_not_declarations():
    names = {c.name for c in chunks("inventory.py", INVENTORY)}
    assert "pick" not in names


def test_same_file_in_clanka_mode_is_line_windows():
    clanka = chunk_file_content("inventory.py", INVENTORY, chunk_size=500)
    assert [(c.name, c.type, c.parent) for c in clanka] == [(None, None, None)]


def test_syntax_error_keeps_what_parses():
    src = source("""
        def before(x):
            return x + 1


        class Broken(:
            def still_here(self):
                return 2


        def after():
            return [1, 2
    """)
    names = {(c.name, c.type) for c in chunks("broken.py", src)}
    assert ("before", "function") in names
    assert ("still_here", "method") in names


def test_unrecoverable_tail_still_comes_out_as_unnamed_lines():
    src = source("""
        def fine():
            return 1

        values = [1, 2,

        def lost():
            return 3
    """)
    out = chunks("tail.py", src)
    assert (out[0].name, out[0].type) == ("fine", "function")
    # What tree-sitter could not read is kept, unnamed, instead of vanishing from every chunk.
    rest = [c for c in out if c.name is None]
    assert rest
    assert "def lost():" in "\n".join(c.content for c in rest)


def test_oversized_class_keeps_its_head_and_method_chunks():
    body = "\n".join(f"        total += {i}" for i in range(40))
    src = f"class Ledger:\n    def add(self):\n        total = 0\n{body}\n        return total\n"
    out = chunks("ledger.py", src, chunk_size=10)
    ledger = [c for c in out if c.name == "Ledger"]
    adds = [c for c in out if c.name == "add"]
    # The class keeps only its first segment (its methods have their own chunks) ...
    assert [(c.start_line, c.end_line) for c in ledger] == [(1, 10)]
    # ... while the method is cut into windows of 10 lines that cover all of it.
    assert [(c.start_line, c.end_line) for c in adds] == [(2, 11), (12, 21), (22, 31), (32, 41), (42, 44)]
    assert {c.parent for c in adds} == {"class Ledger"}


def test_oversized_function_respects_max_characters_and_overlap():
    src = "def long():\n" + "".join(f"    step_{i} = {i}\n" for i in range(12))
    out = chunks("long.py", src, chunk_size=5, chunk_overlap=2, chunk_max_characters=40)
    assert all(c.name == "long" and c.type == "function" for c in out)
    assert all(len(c.content) <= 40 or c.start_line == c.end_line for c in out)
    starts = [c.start_line for c in out]
    assert starts[0] == 1 and out[-1].end_line == 13
    assert all(b > a for a, b in pairwise(starts))
