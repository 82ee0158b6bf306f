"""Plain text and markdown → one document, with headings and fenced code where the markup gives them.

``extract_text(body, kind, header_charset, limits, url)``: ``kind`` is ``text`` or ``markdown``. Markdown
gives ATX headings (``# …``) and fenced code blocks. Plain text that is reStructuredText (``.rst``, and
Sphinx's ``_sources/*.txt`` copies) takes its title and headings from the underlined lines; a Sphinx source
copy says in ``metadata["source_copy_of"]`` which rendered page it is the source of (``source_copy_of``), so
scoring can prefer that page. A man page's troff source (``troff``: ``.TH`` first) is rendered to its text, title,
headings and synopsis, with ``metadata["markup"] = "troff"``. The charset is decoded as for HTML less the ``<meta>`` sniffing; binary bytes
are refused (``UnsupportedType``).
"""

from __future__ import annotations

import itertools
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .charset import decode
from .document import Document, Extraction, Limits, UnsupportedType, cap
from .sniff import looks_binary
from .troff import is_man_page, render

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_MD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
# A reST section adornment: one punctuation character repeated, three times or more.
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_REST_SUFFIXES = (".rst", ".rest", ".rst.txt")
_SPHINX_SOURCES = "/_sources/"


def _rest_headings(lines: list[str]) -> list[str]:
    """Section titles of reStructuredText: a line underlined (and maybe overlined) by an adornment at least as
    long as the title."""
    headings = []
    for title_line, under in itertools.pairwise(lines):
        title = title_line.strip()
        if title and not _ADORNMENT.match(title_line) and _ADORNMENT.match(under) and len(under.rstrip()) >= len(title):
            headings.append(title)
    return headings


def source_copy_of(url: str) -> str | None:
    """The rendered page of a Sphinx source copy: ``…/_sources/a/b.rst.txt`` (or the older ``…/_sources/a/b.txt``)
    → ``…/a/b.html``; None for any other URL."""
    parts = urlsplit(url)
    at = parts.path.find(_SPHINX_SOURCES)
    if at < 0 or not parts.path.endswith(".txt"):
        return None
    name = parts.path[at + len(_SPHINX_SOURCES) : -len(".txt")]
    for suffix in (".rst", ".rest", ".md", ".ipynb", ".txt"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return urlunsplit((parts.scheme, parts.netloc, parts.path[: at + 1] + name + ".html", "", ""))


def extract_text(
    body: bytes, kind: str, header_charset: str | None = None, limits: Limits | None = None, url: str = ""
) -> Extraction:
    limits = limits or Limits()
    if looks_binary(body):
        raise UnsupportedType("binary content served as text")
    text, encoding = decode(body, header_charset, sniff_meta=False)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "text" and is_man_page(text):
        return _man_page(text, encoding, limits)
    lines = text.split("\n")
    headings: list[str] = []
    code_blocks: list[str] = []
    code: list[str] = []
    in_code = False
    for line in lines:
        if kind == "markdown" and _MD_FENCE.match(line):
            if in_code:
                code_blocks.append("\n".join(code))
                code = []
            in_code = not in_code
            continue
        if in_code:
            code.append(line)
        elif kind == "markdown":
            match = _MD_HEADING.match(line)
            if match:
                headings.append(match.group(1))
    metadata: dict[str, Any] = {"encoding": encoding}
    path = urlsplit(url).path.lower()
    rendered = source_copy_of(url)
    if kind == "text" and (rendered or path.endswith(_REST_SUFFIXES)):
        headings = _rest_headings(lines)
    if rendered:
        metadata["source_copy_of"] = rendered
    clean = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    clean = re.sub(r"\n{3,}", "\n\n", clean)
    clean, cut = cap(clean, limits, None)
    if cut:
        metadata["truncated"] = cut
    first_line = next((line.strip() for line in clean.split("\n") if line.strip() and not _ADORNMENT.match(line)), "")
    title = headings[0] if headings else first_line.lstrip("# ")
    return Extraction(documents=[Document(kind, title[:500], clean, headings, code_blocks, metadata)])


def _man_page(source: str, encoding: str, limits: Limits) -> Extraction:
    title, clean, headings, code_blocks = render(source)
    metadata: dict[str, Any] = {"encoding": encoding, "markup": "troff"}
    clean, cut = cap(clean, limits, None)
    if cut:
        metadata["truncated"] = cut
    title = title or next((line.strip() for line in clean.split("\n") if line.strip()), "")
    return Extraction(documents=[Document("text", title[:500], clean, headings, code_blocks, metadata)])
