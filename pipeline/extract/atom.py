"""Atom feeds → one document per arXiv paper, the links of any other feed's entries, and the paging numbers.

``extract_atom(body)``: an entry whose id is an arXiv abstract page becomes a document of kind ``arxiv``
(title and abstract; id, version, authors, dates, PDF link and categories in its metadata), identified by its
``https://arxiv.org/abs/<id>`` page; an entry of an ordinary feed is a page to crawl (its alternate link). The
OpenSearch figures (``total_results``, ``start_index``, ``items_per_page``) let the crawler page through an
arXiv query (``pipeline.crawler.arxiv``). An arXiv API error entry is ``Unreadable``. The feed is parsed as
data, never instructions: no entities, no network (XXE, billion laughs).
"""

from __future__ import annotations

import re

from lxml import etree

from .document import Document, Extraction, Unreadable, UnsupportedType, one_line

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
        return one_line(found.text) if found is not None and found.text else ""

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
            "authors": [one_line(n.text) for n in entry.iterfind("a:author/a:name", _NS) if n.text],
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
