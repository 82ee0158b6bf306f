"""HTML → one document (its main text, headings and code blocks) and the links to follow.

``extract_html(body, url, header_charset, limits, clock)``. The page is parsed with lxml's HTML parser
(libxml2: tolerant of malformed markup, and several times faster than BeautifulSoup's tree on the crawl's hot
path). The main text leaves out navigation, page headers and footers, asides, forms, scripts and styles,
prefers ``<main>``/``<article>`` when a page has one, and keeps ``<pre>`` blocks verbatim as fenced code.
Noise is skipped by one walk that judges each element as it meets it: linear in the page, holding nothing per
element (dropping each noise element from the tree instead re-joined the text around it, quadratic in a page of
many small scripts). The walk looks at the clock every thousand elements and stops at ``max_chars``.

``<meta name="robots">`` (or ``name="shijie"``) is obeyed: ``nofollow`` keeps the links out (``follow`` is
False), ``noindex`` keeps the text out; a link with ``rel="nofollow"`` is not followed, and links are resolved
against ``<base href>`` when the page has one.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

from lxml import etree
from lxml import html as lxml_html

from .charset import decode
from .document import SPACES, Clock, Document, Extraction, Limits, Unreadable, cap, one_line, tidy

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

    def __init__(self, limits: Limits, clock: Clock):
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
            self.put(SPACES.sub(" ", top.text))
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
                        heading = one_line("".join(self.out[heading_from:]))
                        if heading:
                            self.headings.append(heading)
                    if block:
                        self.put("\n")
                    if tail:
                        self.put(SPACES.sub(" ", tail))
                continue
            tag = child.tag
            if not isinstance(tag, str) or _is_noise(child, inside):
                if child.tail:
                    self.put(SPACES.sub(" ", child.tail))
                continue
            if tag == "pre":
                code = child.text_content().strip("\n")
                if code.strip():
                    self.code_blocks.append(code)
                    self.put(f"\n```\n{code}\n```\n")
                if child.tail:
                    self.put(SPACES.sub(" ", child.tail))
                continue
            block = tag in _BLOCK_TAGS
            self.put("\n" if block else (" " if tag in ("td", "th") else ""))
            heading_from = None
            if tag in _HEADINGS:
                heading_from = len(self.out)
                self.open_headings += 1
            if child.text:
                self.put(SPACES.sub(" ", child.text))
            frames.append((iter(child), inside or tag in _CONTENT_TAGS, (block, child.tail, heading_from)))


def extract_html(
    body: bytes, url: str, header_charset: str | None = None, limits: Limits | None = None, clock: Clock | None = None
) -> Extraction:
    limits = limits or Limits()
    clock = clock or Clock(limits)
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
    title = one_line(title_el.text_content()) if title_el is not None else ""
    documents = []
    if index:
        reader = _Text(limits, clock)
        reader.walk(_main_element(root))
        if not title and reader.headings:
            title = reader.headings[0]
        clean, cut = cap(tidy("".join(reader.out)), limits, reader.cut)
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
