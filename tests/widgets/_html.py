"""Read rendered HTML back in tests: the elements carrying a data attribute, with their text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "col", "wbr", "source", "area", "base"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list[Element] = field(default_factory=list)

    def find_all(self, attr: str, value: str | None = None) -> list[Element]:
        """Descendants (self included) having `attr` (equal to `value` when given), in document order."""
        found = [self] if attr in self.attrs and (value is None or self.attrs[attr] == value) else []
        for child in self.children:
            found += child.find_all(attr, value)
        return found


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in _VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return
        msg = f"unbalanced </{tag}>"
        raise AssertionError(msg)

    def handle_data(self, data: str) -> None:
        for element in self.stack:
            element.text += data


def parse(html: str) -> Element:
    """The element tree of `html`; fails on a closing tag that closes nothing."""
    tree = _Tree()
    tree.feed(html)
    tree.close()
    assert len(tree.stack) == 1, f"unclosed elements: {[e.tag for e in tree.stack[1:]]}"
    return tree.root
