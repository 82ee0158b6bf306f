"""PDF → one document: its text page by page, within the page, character and time budgets.

``extract_pdf(body, limits, clock)``, with pypdf (pure Python; imported with the first PDF, so a crawl of
HTML never loads it). A budget is looked at between pages and, through pypdf's ``visitor_text``, inside a
page's text: a page cut short keeps what it gave and ``metadata["truncated"]`` says how much was read. Work
that cannot look at the clock (pypdf reading one content stream) is bounded by the process it runs in: see
``pipeline.crawler.workers``. The title is the PDF's ``/Title``, else its first line of text.
"""

from __future__ import annotations

import io
import logging
from typing import Any

from .document import Clock, Document, Extraction, Limits, Unreadable, cap, tidy


class _Stop(BaseException):
    """Ends a PDF page's text early. A BaseException: pypdf's own ``except Exception`` must not swallow it."""


def _unreadable_pdf(exc: BaseException) -> Unreadable:
    if isinstance(exc, RecursionError):
        return Unreadable("PDF nested too deeply to read (RecursionError)")
    return Unreadable(f"PDF that does not parse ({exc.__class__.__name__}: {exc})".replace(": )", ")"))


class _PageText:
    """pypdf's ``visitor_text`` for one page: keeps the text as it comes and stops the page at a budget."""

    def __init__(self, room: int, clock: Clock):
        self.room = room
        self.clock = clock
        self.parts: list[str] = []
        self.size = 0

    def visit(self, text: str, *_: Any) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size > self.room or self.clock.expired():
            raise _Stop


def extract_pdf(body: bytes, limits: Limits | None = None, clock: Clock | None = None) -> Extraction:
    """The text of a PDF, page by page, within the page, character and time budgets.

    pypdf's failures are the document's (any exception: a malformed file trips RecursionError, AssertionError,
    IndexError… inside it); a page that fails after others were read ends the text there and says so."""
    from pypdf import PdfReader

    # pypdf logs what it repairs or skips (a wrong xref offset, a font it cannot parse fully without fontTools) as
    # warnings, which Python's last-resort handler prints to stderr: a crawl of real PDFs scrolled pages of them
    # past the user. The text is read all the same, and what matters is said in the extraction's note or error.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    limits = limits or Limits()
    clock = clock or Clock(limits)
    try:
        reader = PdfReader(io.BytesIO(body))
        total = len(reader.pages)
        info: dict[str, Any] = dict(reader.metadata or {})
        meta_title = str(info.get("/Title") or "").strip()
        author = str(info.get("/Author") or "").strip()
    except Exception as exc:  # whatever pypdf raises on a malformed file is this document's error
        raise _unreadable_pdf(exc) from None
    pages: list[str] = []
    size = 0
    note: str | None = None
    for number in range(total):
        if number >= limits.max_pdf_pages:
            note = f"read {number} of {total} pages (max_pdf_pages {limits.max_pdf_pages})"
            break
        if clock.expired():
            note = f"stopped after {clock.seconds:g} s: read {number} of {total} pages"
            break
        page = _PageText(limits.max_chars - size, clock)
        try:
            text = reader.pages[number].extract_text(visitor_text=page.visit) or ""
        except _Stop:
            pages.append("".join(page.parts))
            read = f"read {number} of {total} pages and part of the next"
            if page.size > page.room:
                note = f"text cut at {limits.max_chars} characters ({read})"
            else:
                note = f"stopped after {clock.seconds:g} s: {read}"
            break
        except Exception as exc:  # see the docstring
            if not pages:
                raise _unreadable_pdf(exc) from None
            note = f"page {number + 1} of {total} could not be read ({exc.__class__.__name__}): read {number}"
            break
        pages.append(text)
        size += len(text) + 2
    text, note = cap(tidy("\n\n".join(pages)), limits, note)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    metadata: dict[str, Any] = {"pages": total, "pages_read": len(pages)}
    if author:
        metadata["author"] = author
    if note:
        metadata["truncated"] = note
    return Extraction(documents=[Document("pdf", (meta_title or first_line)[:500], text, metadata=metadata)])
