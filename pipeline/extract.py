"""Bytes + content type → clean documents: HTML, PDF, plain text, markdown and (arXiv) Atom feeds.

``extract(body, content_type, url, limits)`` returns an ``Extraction``: the documents found (one for a page, one
per paper for an Atom feed), the links to follow, and for feeds the paging numbers. Nothing here touches the
network or the database, so scoring and tests reuse it on any bytes.

Content decides, not names: a body that starts ``%PDF-`` is read as a PDF whatever it is called, and bytes
declared as text (HTML, plain text, markdown) that are not text — a magic number of a binary format, NUL bytes,
or more than 5% control characters in the first 4 KB — are refused (``UnsupportedType``).

HTML is parsed with lxml's HTML parser (libxml2: tolerant of malformed markup, and several times faster than
BeautifulSoup's tree on the crawl's hot path). The main text leaves out navigation, page headers and footers,
asides, forms, scripts and styles, prefers ``<main>``/``<article>`` when a page has one, and keeps ``<pre>``
blocks verbatim as fenced code. Noise is skipped by one walk that judges each element as it meets it: linear in
the page, holding nothing per element (dropping each noise element from the tree instead re-joined the text
around it, quadratic in a page of many small scripts). The charset comes from the BOM, then the Content-Type header, then
a ``<meta>`` declaration, then UTF-8 if the bytes are valid UTF-8, else windows-1252 (the web's default); a
declared label is used only if it names a real text encoding (``TEXT_ENCODINGS``, the WHATWG Encoding
Standard's set): ``hex``, ``rot13``, ``base64``, ``zlib``, ``idna``, ``undefined``, ``utf-7``… are ignored.

Plain text that is reStructuredText (``.rst``, and Sphinx's ``_sources/*.txt`` copies) takes its title and
headings from the underlined lines; a Sphinx source copy says in ``metadata["source_copy_of"]`` which rendered
page it is the source of, so scoring can prefer that page.

Budgets (``Limits``): at most ``max_chars`` characters of text per document, ``max_pdf_pages`` pages of a PDF,
``max_links`` distinct links per page (in page order), and ``seconds`` of wall-clock time, looked at between
PDF pages, inside a page's text and every thousand HTML elements. A budget that bites keeps what was read and
says so in ``metadata["truncated"]``. Work that cannot look at the clock (libxml2 parsing, pypdf reading a
content stream) is bounded by the process it runs in: see ``pipeline.crawler.workers``.
"""

from __future__ import annotations

import codecs
import io
import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

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


class _Clock:
    def __init__(self, limits: Limits):
        self.seconds = limits.seconds
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


class _Stop(BaseException):
    """Ends a PDF page's text early. A BaseException: pypdf's own ``except Exception`` must not swallow it."""


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


# -- content types -------------------------------------------------------------------------------------

_TYPES = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "application/atom+xml": "atom",
}
_XML_TYPES = {"application/xml", "text/xml"}


def media_type(content_type: str | None) -> tuple[str, str | None]:
    """``'text/html; charset=GBK'`` → ``('text/html', 'gbk')``."""
    if not content_type:
        return "", None
    parts = [p.strip() for p in content_type.split(";")]
    charset = None
    for param in parts[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip("\"'").lower() or None
    return parts[0].lower(), charset


# Magic numbers of binary formats that can start with bytes a text file could also start with are left out
# (GIF8, ID3, MZ): those files hold NULs early, which the NUL rule catches.
_BINARY_MAGIC = (
    b"\x89PNG",
    b"\xff\xd8\xff",  # JPEG
    b"PK\x03\x04",  # zip, docx, jar, epub
    b"\x1f\x8b",  # gzip
    b"\x7fELF",
    b"\xfd7zXZ\x00",
    b"7z\xbc\xaf\x27\x1c",
    b"\xca\xfe\xba\xbe",  # Mach-O / Java class
    b"\xcf\xfa\xed\xfe",
    b"\x00asm",
)
# Control characters that do not occur in text (tab, newlines, form feed, vertical tab and ESC — ISO-2022-JP — do).
_CONTROLS = bytes([*range(0x01, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])


def looks_binary(body: bytes) -> bool:
    """True when the first 4 KB are not text: a binary magic number, a NUL (no UTF-16 BOM), >5% control bytes."""
    head = body[:4096]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    if head.startswith(_BINARY_MAGIC) or b"\0" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROLS))
    return controls * 20 > len(head)


def sniff_kind(content_type: str | None, url: str, body: bytes) -> str:
    """Which reader fits: html | pdf | text | markdown | atom; raises UnsupportedType otherwise."""
    mtype, _ = media_type(content_type)
    if body.startswith(b"%PDF-"):
        return "pdf"
    head = body[:1024].lstrip().lower()
    if mtype in _TYPES:
        kind = _TYPES[mtype]
        if kind in ("html", "text", "markdown") and looks_binary(body):
            raise UnsupportedType(f"binary content served as {mtype}")
        if kind == "text" and url.lower().endswith((".md", ".markdown")):
            return "markdown"
        return kind
    if mtype in _XML_TYPES or (not mtype or mtype == "application/octet-stream"):
        if b"<feed" in head and b"http://www.w3.org/2005/atom" in body[:4096].lower():
            return "atom"
        if mtype in _XML_TYPES:
            raise UnsupportedType(f"XML that is not an Atom feed ({mtype})")
        if looks_binary(body):
            raise UnsupportedType(f"content type {mtype or 'unknown'}: binary content is not read")
        if head.startswith((b"<!doctype html", b"<html")):
            return "html"
        lower = url.lower()
        if lower.endswith((".md", ".markdown")):
            return "markdown"
        if lower.endswith(".txt"):
            return "text"
    raise UnsupportedType(f"content type {mtype or 'unknown'} is not read")


# -- charset ---------------------------------------------------------------------------------------------

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.I)
# What browsers actually use for these labels (WHATWG Encoding Standard), and labels Python spells otherwise.
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-sjis": "shift_jis",
    "windows-874": "cp874",
    "windows-31j": "cp932",
    "x-mac-roman": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic",
}
# The text encodings a page may declare, by Python codec name: the WHATWG Encoding Standard's, less the
# "replacement" ones. Python's codec registry also holds bytes-to-bytes codecs (hex, base64, zlib, bz2, rot13,
# uu, quopri: LookupError when decoding to text) and codecs that fail on any input (idna, punycode, undefined:
# UnicodeError), and utf-7 (browsers refuse it: it hides markup): a label naming one of those is ignored.
TEXT_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in [
        *("utf-8", "utf-16-le", "utf-16-be", "utf-16", "cp866", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic"),
        *(f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
        *("cp874", "tis-620", *(f"cp{n}" for n in range(1250, 1259))),
        *("gb18030", "big5", "big5hkscs", "euc_jp", "iso2022_jp", "shift_jis", "cp932", "euc_kr", "cp949"),
    ]
)


def _known(label: str | None) -> str | None:
    """The Python codec for a declared ``label`` when it is a real text encoding, else None."""
    if not label:
        return None
    label = label.strip().lower()
    label = _ALIASES.get(label, label)
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):
        return None
    return name if name in TEXT_ENCODINGS else None


def decode(body: bytes, header_charset: str | None = None, sniff_meta: bool = True) -> tuple[str, str]:
    """Bytes → (text, encoding used), by BOM > header > <meta> > valid UTF-8 > windows-1252."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return body[len(bom) :].decode(name, errors="replace"), name
    encoding = _known(header_charset)
    if encoding is None and sniff_meta:
        match = _META_CHARSET.search(body[:4096])
        encoding = _known(match.group(1).decode("ascii", "ignore")) if match else None
    if encoding is not None:
        return body.decode(encoding, errors="replace"), encoding
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace"), "cp1252"


# -- HTML ------------------------------------------------------------------------------------------------

_NOISE_TAGS = frozenset(
    ["script", "style", "noscript", "template", "svg", "nav", "aside", "form", "iframe", "object", "embed"]
)
_NOISE_ROLES = frozenset({"navigation", "banner", "contentinfo"})
_CONTENT_TAGS = frozenset({"article", "main"})  # a <header>/<footer> inside one is content, not page chrome
_BLOCK_TAGS = frozenset(
    [
        *("address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details", "dialog", "div"),
        *("dl", "dt", "fieldset", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "main"),
        *("ol", "p", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul"),
    ]
)
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_CLOCK_EVERY = 1024  # elements walked between two looks at the clock
_JOIN_EVERY = 4096  # pieces of text gathered before they are joined into one (a list of a million bits is big)


def _is_noise(element: Any, in_content: bool) -> bool:
    tag = element.tag
    return (
        tag in _NOISE_TAGS
        or (tag in ("header", "footer") and not in_content)
        or element.get("role") in _NOISE_ROLES
        or element.get("aria-hidden") == "true"
    )


def _main_element(root: Any) -> Any:
    """The element that holds the page's text: the first ``<main>``, else the first ``role="main"``, else the only
    ``<article>``, else ``<body>`` — outside noise (a ``<main>`` inside a ``<nav>`` is not the page's). One pass
    in document order that keeps only a stack of child iterators: nothing per element is held."""
    main = role_main = article = None
    articles = 0  # more than one: no single article is the page's text
    stack = [(iter((root,)), False)]
    while stack:
        children, in_content = stack[-1]
        element = next(children, None)
        if element is None:
            stack.pop()
            continue
        tag = element.tag
        if not isinstance(tag, str) or (element is not root and _is_noise(element, in_content)):
            continue
        if tag == "main":
            return element  # the first <main> in document order wins outright
        if role_main is None and element.get("role") == "main":
            role_main = element
        if tag == "article":
            articles += 1
            article = article if article is not None else element
        stack.append((iter(element), in_content or tag in _CONTENT_TAGS))
    if main is None:
        main = role_main
    if main is None and articles == 1:
        main = article
    if main is None:
        body = root.find("body")
        main = body if body is not None else root
    return main


class _Text:
    """The text of an element, walked without recursion (any depth), leaving out noise, within the budgets.

    Memory is the text itself: noise is judged as the walk meets it (its ancestors' article/main is a flag on
    the walk's stack), and the pieces of text are joined every ``_JOIN_EVERY`` pieces."""

    def __init__(self, limits: Limits, clock: _Clock):
        self.out: list[str] = []
        self.size = 0
        self.headings: list[str] = []
        self.code_blocks: list[str] = []
        self.limits = limits
        self.clock = clock
        self.cut: str | None = None
        self.open_headings = 0

    def put(self, text: str) -> None:
        self.out.append(text)
        self.size += len(text)
        if len(self.out) >= _JOIN_EVERY and not self.open_headings:
            self.out = ["".join(self.out)]

    def walk(self, top: Any) -> None:
        if top.text:
            self.put(_SPACES.sub(" ", top.text))
        in_content = any(a.tag in _CONTENT_TAGS for a in top.iterancestors()) or top.tag in _CONTENT_TAGS
        # each frame: the element's children still to walk, whether they are inside an article or main, and
        # what closes the element (block?, its tail, where its heading text starts)
        frames: list[tuple[Any, bool, tuple[bool, str | None, int | None] | None]] = [(iter(top), in_content, None)]
        steps = 0
        while frames:
            steps += 1
            if self.size > self.limits.max_chars:
                self.cut = f"text cut at {self.limits.max_chars} characters"
                return
            if steps % _CLOCK_EVERY == 0 and self.clock.expired():
                self.cut = f"stopped after {self.clock.seconds:g} s"
                return
            children, inside, closing = frames[-1]
            child = next(children, None)
            if child is None:
                frames.pop()
                if closing is not None:
                    block, tail, heading_from = closing
                    if heading_from is not None:
                        self.open_headings -= 1
                        heading = _clean("".join(self.out[heading_from:]))
                        if heading:
                            self.headings.append(heading)
                    if block:
                        self.put("\n")
                    if tail:
                        self.put(_SPACES.sub(" ", tail))
                continue
            tag = child.tag
            if not isinstance(tag, str) or _is_noise(child, inside):
                if child.tail:
                    self.put(_SPACES.sub(" ", child.tail))
                continue
            if tag == "pre":
                code = child.text_content().strip("\n")
                if code.strip():
                    self.code_blocks.append(code)
                    self.put(f"\n```\n{code}\n```\n")
                if child.tail:
                    self.put(_SPACES.sub(" ", child.tail))
                continue
            block = tag in _BLOCK_TAGS
            self.put("\n" if block else (" " if tag in ("td", "th") else ""))
            heading_from = None
            if tag in _HEADINGS:
                heading_from = len(self.out)
                self.open_headings += 1
            if child.text:
                self.put(_SPACES.sub(" ", child.text))
            frames.append((iter(child), inside or tag in _CONTENT_TAGS, (block, child.tail, heading_from)))


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


def _clean(text: str | None) -> str:
    return _SPACES.sub(" ", text or "").strip()


def _cut(text: str, limits: Limits, note: str | None) -> tuple[str, str | None]:
    """``text`` within ``max_chars``, and the note saying it was cut (the one given, or the character cap's)."""
    if len(text) > limits.max_chars:
        return text[: limits.max_chars], note or f"text cut at {limits.max_chars} characters"
    return text, note


def extract_html(
    body: bytes, url: str, header_charset: str | None = None, limits: Limits | None = None, clock: _Clock | None = None
) -> Extraction:
    limits = limits or Limits()
    clock = clock or _Clock(limits)
    text, encoding = decode(body, header_charset)
    text = _XML_DECL.sub("", text, count=1)  # lxml refuses str input that carries an encoding declaration
    if not text.strip():
        return Extraction(documents=[])
    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise Unreadable(f"HTML that does not parse ({exc})") from None
    del text  # the tree holds the page now

    follow, index = True, True
    for meta in root.iterfind(".//meta[@name]"):
        if meta.get("name", "").lower() in ("robots", "shijie"):
            directives = meta.get("content", "").lower()
            follow = follow and "nofollow" not in directives and "none" not in directives
            index = index and "noindex" not in directives and "none" not in directives

    base = url
    base_el = root.find(".//base[@href]")
    if base_el is not None:
        base = base_el.get("href") or url
    links: list[str] = []
    if follow:
        for anchor in root.iterfind(".//a[@href]"):
            if "nofollow" in (anchor.get("rel") or "").lower():
                continue
            href = anchor.get("href", "").strip()
            if href and not href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
                links.append(href)

    title_el = root.find(".//title")
    title = _clean(title_el.text_content()) if title_el is not None else ""
    documents = []
    if index:
        reader = _Text(limits, clock)
        reader.walk(_main_element(root))
        if not title and reader.headings:
            title = reader.headings[0]
        clean, cut = _cut(tidy("".join(reader.out)), limits, reader.cut)
        metadata: dict[str, Any] = {"encoding": encoding}
        if cut:
            metadata["truncated"] = cut
        documents.append(Document("html", title[:500], clean, reader.headings, reader.code_blocks, metadata))
    if base != url:
        links = [_join(base, href) for href in links]
    return Extraction(documents=documents, links=links, follow=follow)


def _join(base: str, href: str) -> str:
    try:
        return urljoin(base, href)
    except ValueError:
        return href


# -- PDF, text, markdown ---------------------------------------------------------------------------------


def _unreadable_pdf(exc: BaseException) -> Unreadable:
    if isinstance(exc, RecursionError):
        return Unreadable("PDF nested too deeply to read (RecursionError)")
    return Unreadable(f"PDF that does not parse ({exc.__class__.__name__}: {exc})".replace(": )", ")"))


class _PageText:
    """pypdf's ``visitor_text`` for one page: keeps the text as it comes and stops the page at a budget."""

    def __init__(self, room: int, clock: _Clock):
        self.room = room
        self.clock = clock
        self.parts: list[str] = []
        self.size = 0

    def visit(self, text: str, *_: Any) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size > self.room or self.clock.expired():
            raise _Stop


def extract_pdf(body: bytes, limits: Limits | None = None, clock: _Clock | None = None) -> Extraction:
    """The text of a PDF, page by page, within the page, character and time budgets.

    pypdf's failures are the document's (any exception: a malformed file trips RecursionError, AssertionError,
    IndexError… inside it); a page that fails after others were read ends the text there and says so."""
    from pypdf import PdfReader

    limits = limits or Limits()
    clock = clock or _Clock(limits)
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
    text, note = _cut(tidy("\n\n".join(pages)), limits, note)
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    metadata: dict[str, Any] = {"pages": total, "pages_read": len(pages)}
    if author:
        metadata["author"] = author
    if note:
        metadata["truncated"] = note
    return Extraction(documents=[Document("pdf", (meta_title or first_line)[:500], text, metadata=metadata)])


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
    clean, cut = _cut(clean, limits, None)
    if cut:
        metadata["truncated"] = cut
    first_line = next((line.strip() for line in clean.split("\n") if line.strip() and not _ADORNMENT.match(line)), "")
    title = headings[0] if headings else first_line.lstrip("# ")
    return Extraction(documents=[Document(kind, title[:500], clean, headings, code_blocks, metadata)])


# -- Atom (arXiv) ----------------------------------------------------------------------------------------

_NS = {
    "a": "http://www.w3.org/2005/Atom",
    "os": "http://a9.com/-/spec/opensearch/1.1/",
    "arxiv": "http://arxiv.org/schemas/atom",
}
_ARXIV_ID = re.compile(r"arxiv\.org/abs/(?P<id>[^\s?#]+?)(?:v(?P<version>\d+))?$")


def extract_atom(body: bytes) -> Extraction:
    # No entities, no network: a feed is data, never instructions (XXE, billion laughs).
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=False)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise Unreadable(f"Atom feed that does not parse ({exc})") from None
    if root.tag != f"{{{_NS['a']}}}feed":
        raise UnsupportedType("XML that is not an Atom feed")

    def text_of(el, path: str) -> str:
        found = el.find(path, _NS)
        return _clean(found.text) if found is not None and found.text else ""

    documents, links = [], []
    for entry in root.iterfind("a:entry", _NS):
        entry_id = text_of(entry, "a:id")
        if "/api/errors" in entry_id:
            raise Unreadable(f"arXiv API error: {text_of(entry, 'a:summary') or text_of(entry, 'a:title')}")
        match = _ARXIV_ID.search(entry_id)
        alternate = next(
            (
                link.get("href")
                for link in entry.iterfind("a:link", _NS)
                if link.get("rel", "alternate") == "alternate" and link.get("href")
            ),
            None,
        )
        if match is None:
            if alternate:  # an ordinary feed: its entries are pages to crawl
                links.append(alternate)
            continue
        arxiv_id, version = match.group("id"), int(match.group("version") or 1)
        title, summary = text_of(entry, "a:title"), text_of(entry, "a:summary")
        pdf_url = next(
            (
                link.get("href")
                for link in entry.iterfind("a:link", _NS)
                if link.get("title") == "pdf" or link.get("type") == "application/pdf"
            ),
            None,
        )
        metadata = {
            "arxiv_id": arxiv_id,
            "version": version,
            "authors": [_clean(n.text) for n in entry.iterfind("a:author/a:name", _NS) if n.text],
            "published": text_of(entry, "a:published"),
            "updated": text_of(entry, "a:updated"),
            "pdf_url": pdf_url,
            "categories": [c.get("term") for c in entry.iterfind("a:category", _NS) if c.get("term")],
        }
        for extra in ("comment", "journal_ref", "doi"):
            value = text_of(entry, f"arxiv:{extra}")
            if value:
                metadata[extra] = value
        documents.append(
            Document(
                "arxiv",
                title,
                f"{title}\n\n{summary}".strip(),
                metadata=metadata,
                url=f"https://arxiv.org/abs/{arxiv_id}",
            )
        )
    paging = None
    total = text_of(root, "os:totalResults")
    if total.isdigit():
        paging = {
            "total_results": int(total),
            "start_index": int(text_of(root, "os:startIndex") or 0),
            "items_per_page": int(text_of(root, "os:itemsPerPage") or len(documents)),
        }
    return Extraction(documents=documents, links=links, paging=paging)


# -- entry point -----------------------------------------------------------------------------------------


def extract(body: bytes, content_type: str | None, url: str, limits: Limits | None = None) -> Extraction:
    """Read ``body`` as its content says (its declared type where the bytes agree), within ``limits``."""
    limits = limits or Limits()
    clock = _Clock(limits)
    kind = sniff_kind(content_type, url, body)
    _, charset = media_type(content_type)
    if kind == "html":
        extraction = extract_html(body, url, charset, limits, clock)
    elif kind == "pdf":
        extraction = extract_pdf(body, limits, clock)
    elif kind == "atom":
        extraction = extract_atom(body)
        for doc in extraction.documents:
            doc.text, cut = _cut(doc.text, limits, None)
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


def kind_for_path(name: str) -> str | None:
    """The content type to assume for a local file, from its extension (None: not read)."""
    lower = name.lower()
    for suffixes, ctype in (
        ((".html", ".htm", ".xhtml"), "text/html"),
        ((".pdf",), "application/pdf"),
        ((".md", ".markdown"), "text/markdown"),
        ((".txt", ".text", ".rst"), "text/plain"),
        ((".atom", ".xml"), "application/atom+xml"),
    ):
        if lower.endswith(suffixes):
            return ctype
    return None
