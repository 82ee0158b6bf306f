"""Bytes + content type → clean documents: HTML, PDF, plain text, markdown and (arXiv) Atom feeds.

``extract(body, content_type, url, limits)`` returns an ``Extraction``: the documents found (one for a page, one
per paper for an Atom feed), the links to follow (distinct, in page order), and for feeds the paging numbers.
Nothing here touches the network or the database, so scoring and tests reuse it on any bytes.

Content decides, not names (``sniff``): a body that starts ``%PDF-`` is read as a PDF whatever it is called,
and bytes declared as text that are not text are refused (``UnsupportedType``). Each kind has its reader:

    document   Document, Extraction, Limits, the two errors, the clock and the text helpers every reader shares
    sniff      content type → which reader (``sniff_kind``); a local file's name → its type (``kind_for_path``)
    charset    bytes → text: BOM > header > <meta> > valid UTF-8 > windows-1252 (``decode``)
    html       the main text of a page without its chrome, its headings, code blocks and links (lxml)
    pdf        the text of a PDF page by page (pypdf, loaded with the first PDF)
    text       plain text, markdown and reStructuredText; Sphinx source copies name their rendered page
    atom       arXiv Atom feeds: one document per paper, and the paging numbers

Budgets (``Limits``): at most ``max_chars`` characters of text per document, ``max_pdf_pages`` pages of a PDF,
``max_links`` distinct links per page (in page order), and ``seconds`` of wall-clock time, looked at between
PDF pages, inside a page's text and every thousand HTML elements. A budget that bites keeps what was read and
says so in ``metadata["truncated"]``. Work that cannot look at the clock (libxml2 parsing, pypdf reading a
content stream) is bounded by the process it runs in: see ``pipeline.crawler.workers``.
"""

from __future__ import annotations

from .atom import extract_atom
from .charset import TEXT_ENCODINGS, decode
from .document import KINDS, Clock, Document, Extraction, Limits, Unreadable, UnsupportedType, cap, tidy
from .html import extract_html
from .pdf import extract_pdf
from .sniff import kind_for_path, looks_binary, media_type, sniff_kind
from .text import extract_text, source_copy_of

__all__ = [
    "KINDS",
    "TEXT_ENCODINGS",
    "Document",
    "Extraction",
    "Limits",
    "Unreadable",
    "UnsupportedType",
    "decode",
    "extract",
    "extract_atom",
    "extract_html",
    "extract_pdf",
    "extract_text",
    "kind_for_path",
    "looks_binary",
    "media_type",
    "sniff_kind",
    "source_copy_of",
    "tidy",
]


def extract(body: bytes, content_type: str | None, url: str, limits: Limits | None = None) -> Extraction:
    """Read ``body`` as its content says (its declared type where the bytes agree), within ``limits``."""
    limits = limits or Limits()
    clock = Clock(limits)
    kind = sniff_kind(content_type, url, body)
    _, charset = media_type(content_type)
    if kind == "html":
        extraction = extract_html(body, url, charset, limits, clock)
    elif kind == "pdf":
        extraction = extract_pdf(body, limits, clock)
    elif kind == "atom":
        extraction = extract_atom(body)
        for doc in extraction.documents:
            doc.text, cut = cap(doc.text, limits, None)
            if cut:
                doc.metadata["truncated"] = cut
    else:
        extraction = extract_text(body, kind, charset, limits, url)
    links = list(dict.fromkeys(extraction.links))  # pages repeat their navigation: one of each, in page order
    if limits.max_links is not None and len(links) > limits.max_links:
        extraction.links_dropped = len(links) - limits.max_links
        links = links[: limits.max_links]
    extraction.links = links
    return extraction
