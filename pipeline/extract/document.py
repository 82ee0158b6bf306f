"""What an extraction is made of, shared by every reader: the document and extraction types, the two errors,
the budgets (``Limits``) and the clock they are looked at with, and the text helpers that apply them.

``UnsupportedType`` is content shijie does not read (a crawl records it as skipped); ``Unreadable`` is content
of a type it reads that does not parse (recorded as an error). A budget that bites keeps what was read and
says so in ``metadata["truncated"]`` (``cap``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

KINDS = ("html", "pdf", "text", "markdown", "arxiv")


class UnsupportedType(Exception):
    """The content is of a type shijie does not read (recorded with skip_reason 'type')."""


class Unreadable(Exception):
    """The content claims a type shijie reads but cannot be parsed (recorded as an error)."""


@dataclass(frozen=True)
class Limits:
    """Budgets for one document; the defaults are ``CrawlSettings``' and bound a library call too."""

    max_chars: int = 2_000_000  # characters of text per document
    max_pdf_pages: int = 1_000
    max_links: int | None = None  # distinct links kept per page (None: all)
    seconds: float | None = None  # wall-clock seconds from the start of ``extract``


class Clock:
    """The wall-clock budget of one ``extract`` call: ``expired()`` once ``Limits.seconds`` have passed."""

    def __init__(self, limits: Limits):
        self.seconds = limits.seconds
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


@dataclass
class Document:
    kind: str
    title: str
    text: str
    headings: list[str] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    url: str | None = None  # identity when it differs from the fetched URL (an arXiv paper's abs page)


@dataclass
class Extraction:
    documents: list[Document]
    links: list[str] = field(default_factory=list)  # as written; resolve with urls.canonical(link, base=url)
    follow: bool = True  # False when the page says <meta name="robots" content="nofollow">
    paging: dict[str, int] | None = None  # Atom/OpenSearch: total_results, start_index, items_per_page
    links_dropped: int = 0  # distinct links beyond ``Limits.max_links``

    @property
    def truncated(self) -> list[str]:
        """What each document cut by a budget says about it (``metadata["truncated"]``)."""
        return [doc.metadata["truncated"] for doc in self.documents if doc.metadata.get("truncated")]


SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")


def tidy(raw: str) -> str:
    """Strip each prose line, keep fenced code as it is, and leave at most one blank line in a row."""
    lines: list[str] = []
    in_code = False
    for line in raw.split("\n"):
        if line == "```":
            in_code = not in_code
            lines.append(line)
        elif in_code:
            lines.append(line.rstrip())
        else:
            line = line.strip()
            if line or (lines and lines[-1] != ""):
                lines.append(line)
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


def one_line(text: str | None) -> str:
    """Runs of white space (the no-break space too) → one space, stripped."""
    return SPACES.sub(" ", text or "").strip()


def cap(text: str, limits: Limits, note: str | None) -> tuple[str, str | None]:
    """``text`` within ``max_chars``, and the note saying it was cut (the one given, or the character cap's)."""
    if len(text) > limits.max_chars:
        return text[: limits.max_chars], note or f"text cut at {limits.max_chars} characters"
    return text, note
