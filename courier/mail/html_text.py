"""An HTML mail as the lines a player sees, with the quoted mail marked by "> " as in a plain-text
reply: a ``<blockquote>``, and the containers mail programs put around a quote (Gmail's
``gmail_quote``, Yahoo's ``yahoo_quoted``, Thunderbird's ``moz-cite-prefix``; after Outlook's
``divRplyFwdMsg`` everything is the quote). The classes and ids are data: config/quotes.toml."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from courier.mail.quote_rules import QuoteRules, shipped_rules

__all__ = ["html_to_text"]

_BLOCK_TAGS = frozenset(
    {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "footer", "form", "h1", "h2"}
    | {"h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table", "tr", "ul"}
)
_SKIPPED_TAGS = frozenset({"head", "script", "style", "title", "template"})
# Elements without an end tag: never on the open-element stack.
_VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


class _TextExtractor(HTMLParser):
    """Block tags become line breaks and quotes become "> " lines, so cut_reply sees the same shapes
    as in a plain-text reply. Unlike html2text it adds no Markdown (`1\\.`, `**x**`), which would
    change the player's order lines."""

    def __init__(self, rules: QuoteRules) -> None:
        super().__init__(convert_charrefs=True)
        self.rules = rules
        self.lines: list[str] = [""]
        self.open: list[tuple[str, bool]] = []  # open elements: (tag, whether it holds a quote)
        self.rest_is_quote = False
        self.skipping = 0

    @property
    def quote_depth(self) -> int:
        return sum(quoting for _, quoting in self.open) + self.rest_is_quote

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif tag in _BLOCK_TAGS:
            self._break()
        if tag in ("td", "th"):
            self.lines[-1] += " "
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        element_id = found.get("id") or ""
        if element_id in self.rules.html_starts_quote_ids:
            self.rest_is_quote = True
        if tag not in _VOID_TAGS:
            quoting = (
                tag == "blockquote"
                or bool(classes & self.rules.html_quote_classes)
                or element_id in self.rules.html_quote_ids
            )
            self.open.append((tag, quoting))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping = max(0, self.skipping - 1)
        # Close up to the matching open element (HTML mail often leaves inner ones unclosed).
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                break
        if tag in _BLOCK_TAGS:
            self._break()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        text = re.sub(r"[ \t\r\n]+", " ", data.replace("\xa0", " "))
        if not self.lines[-1] and not text.strip():
            return
        if not self.lines[-1]:
            text = "> " * self.quote_depth + text.lstrip()
        self.lines[-1] += text

    def _break(self) -> None:
        self.lines[-1] = self.lines[-1].rstrip()
        if self.lines[-1]:
            self.lines.append("")


def html_to_text(html: str, rules: QuoteRules | None = None) -> str:
    parser = _TextExtractor(rules or shipped_rules())
    parser.feed(html)
    parser.close()
    return "\n".join(parser.lines).strip()
