"""Bytes + content type → clean documents: HTML, PDF, plain text, markdown and (arXiv) Atom feeds.

``extract(body, content_type, url)`` returns an ``Extraction``: the documents found (one for a page, one per
paper for an Atom feed), the links to follow, and for feeds the paging numbers. Nothing here touches the
network or the database, so scoring and tests reuse it on any bytes.

HTML is parsed with lxml's HTML parser (libxml2: tolerant of malformed markup, and several times faster than
BeautifulSoup's tree on the crawl's hot path). The main text leaves out navigation, page headers and footers,
asides, forms, scripts and styles, prefers ``<main>``/``<article>`` when a page has one, and keeps ``<pre>``
blocks verbatim as fenced code. The charset comes from the BOM, then the Content-Type header, then a
``<meta>`` declaration, then UTF-8 if the bytes are valid UTF-8, else windows-1252 (the web's default).
"""

from __future__ import annotations

import codecs
import io
import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree
from lxml import html as lxml_html

KINDS = ("html", "pdf", "text", "markdown", "arxiv")


class UnsupportedType(Exception):
    """The content is of a type shijie does not read (recorded with skip_reason 'type')."""


class Unreadable(Exception):
    """The content claims a type shijie reads but cannot be parsed (recorded as an error)."""


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


def sniff_kind(content_type: str | None, url: str, body: bytes) -> str:
    """Which reader fits: html | pdf | text | markdown | atom; raises UnsupportedType otherwise."""
    mtype, _ = media_type(content_type)
    head = body[:1024].lstrip().lower()
    if mtype in _TYPES:
        kind = _TYPES[mtype]
        if kind == "text" and url.lower().endswith((".md", ".markdown")):
            return "markdown"
        return kind
    if mtype in _XML_TYPES or (not mtype or mtype == "application/octet-stream"):
        if body.startswith(b"%PDF-"):
            return "pdf"
        if b"<feed" in head and b"http://www.w3.org/2005/atom" in body[:4096].lower():
            return "atom"
        if mtype in _XML_TYPES:
            raise UnsupportedType(f"XML that is not an Atom feed ({mtype})")
        if head.startswith((b"<!doctype html", b"<html")):
            return "html"
        lower = url.lower()
        if lower.endswith((".md", ".markdown")) and b"\0" not in body[:4096]:
            return "markdown"
        if lower.endswith(".txt") and b"\0" not in body[:4096]:
            return "text"
    raise UnsupportedType(f"content type {mtype or 'unknown'} is not read")


# -- charset ---------------------------------------------------------------------------------------------

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.I)
# What browsers actually use for these labels (WHATWG Encoding Standard).
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-sjis": "shift_jis",
}


def _known(label: str | None) -> str | None:
    if not label:
        return None
    label = _ALIASES.get(label.lower(), label.lower())
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def decode(body: bytes, header_charset: str | None = None, sniff_meta: bool = True) -> tuple[str, str]:
    """Bytes → (text, encoding used), by BOM > header > <meta> > valid UTF-8 > windows-1252."""
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return body[len(bom) :].decode(encoding, errors="replace"), encoding
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

_NOISE = etree.XPath(
    "//script|//style|//noscript|//template|//svg|//nav|//aside|//form|//iframe|//object|//embed"
    "|//header[not(ancestor::article or ancestor::main)]|//footer[not(ancestor::article or ancestor::main)]"
    "|//*[@role='navigation' or @role='banner' or @role='contentinfo' or @aria-hidden='true']"
)
_BLOCK_TAGS = frozenset(
    "address article aside blockquote body br caption dd details dialog div dl dt fieldset figcaption figure h1 h2"
    " h3 h4 h5 h6 hr li main ol p section summary table tbody tfoot thead tr ul".split()
)
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def _walk(element, out: list[str]) -> None:
    for child in element:
        tag = child.tag
        if isinstance(tag, str):
            if tag == "pre":
                code = child.text_content().strip("\n")
                if code.strip():
                    out.append(f"\n```\n{code}\n```\n")
            else:
                block = tag in _BLOCK_TAGS
                out.append("\n" if block else (" " if tag in ("td", "th") else ""))
                if child.text:
                    out.append(_SPACES.sub(" ", child.text))
                _walk(child, out)
                if block:
                    out.append("\n")
        if child.tail:
            out.append(_SPACES.sub(" ", child.tail))


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


def extract_html(body: bytes, url: str, header_charset: str | None = None) -> Extraction:
    text, encoding = decode(body, header_charset)
    text = _XML_DECL.sub("", text, count=1)  # lxml refuses str input that carries an encoding declaration
    if not text.strip():
        return Extraction(documents=[])
    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise Unreadable(f"HTML that does not parse ({exc})") from None

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
                links.append(href if base == url else _join(base, href))

    title_el = root.find(".//title")
    title = _clean(title_el.text_content()) if title_el is not None else ""
    for noise in _NOISE(root):
        noise.drop_tree()
    main = _main_element(root)
    headings = [h for h in (_clean(el.text_content()) for el in main.iter(*_HEADINGS)) if h]
    code_blocks = [c for c in (el.text_content().strip("\n") for el in main.iter("pre")) if c.strip()]
    if not title and headings:
        title = headings[0]
    out: list[str] = []
    try:
        if main.text:
            out.append(_SPACES.sub(" ", main.text))
        _walk(main, out)
    except RecursionError:
        out = [_SPACES.sub(" ", main.text_content())]
    documents = []
    if index:
        documents.append(
            Document("html", title[:500], tidy("".join(out)), headings, code_blocks, {"encoding": encoding})
        )
    if base != url:
        links = [_join(base, href) for href in links]
    return Extraction(documents=documents, links=links, follow=follow)


def _join(base: str, href: str) -> str:
    from urllib.parse import urljoin

    try:
        return urljoin(base, href)
    except ValueError:
        return href


def _main_element(root):
    for path in (".//main", ".//*[@role='main']"):
        found = root.find(path)
        if found is not None:
            return found
    articles = root.findall(".//article")
    if len(articles) == 1:
        return articles[0]
    body = root.find("body")
    return body if body is not None else root


# -- PDF, text, markdown ---------------------------------------------------------------------------------


def extract_pdf(body: bytes) -> Extraction:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(body))
        pages = [page.extract_text() or "" for page in reader.pages]
        info = reader.metadata or {}
        meta_title = str(info.get("/Title") or "").strip()
        author = str(info.get("/Author") or "").strip()
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise Unreadable(f"PDF that does not parse ({exc.__class__.__name__}: {exc})") from None
    text = tidy("\n\n".join(pages))
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    metadata: dict[str, Any] = {"pages": len(pages)}
    if author:
        metadata["author"] = author
    return Extraction(documents=[Document("pdf", (meta_title or first_line)[:500], text, metadata=metadata)])


_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_MD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def extract_text(body: bytes, kind: str, header_charset: str | None = None) -> Extraction:
    if b"\0" in body[:4096] and not body.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UnsupportedType("binary content served as text")
    text, encoding = decode(body, header_charset, sniff_meta=False)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    headings, code_blocks, code, in_code = [], [], [], False
    for line in text.split("\n"):
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
    clean = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    clean = re.sub(r"\n{3,}", "\n\n", clean)
    first_line = next((line.strip() for line in clean.split("\n") if line.strip()), "")
    title = headings[0] if headings else first_line.lstrip("# ")
    return Extraction(documents=[Document(kind, title[:500], clean, headings, code_blocks, {"encoding": encoding})])


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
                l.get("href")
                for l in entry.iterfind("a:link", _NS)
                if l.get("rel", "alternate") == "alternate" and l.get("href")
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
                l.get("href")
                for l in entry.iterfind("a:link", _NS)
                if l.get("title") == "pdf" or l.get("type") == "application/pdf"
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


def extract(body: bytes, content_type: str | None, url: str) -> Extraction:
    """Read ``body`` as its content type says (sniffing when it says nothing useful)."""
    kind = sniff_kind(content_type, url, body)
    _, charset = media_type(content_type)
    if kind == "html":
        return extract_html(body, url, charset)
    if kind == "pdf":
        return extract_pdf(body)
    if kind == "atom":
        return extract_atom(body)
    return extract_text(body, kind, charset)


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
