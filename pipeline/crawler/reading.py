"""What a fetched body becomes: its extraction, the documents stored from it, and the links it gives.

``Reader.read(entry, body, content_type, status)`` extracts (``pipeline.extract``; PDFs in a thread, so a
long parse does not stall other hosts) and answers the ``Extraction``, or None when the entry has been ended:
a type we do not read is skipped (``type``), a body that cannot be read is given up as an error (``status``
None for a local file: no request was spent). ``read_file`` is the same for a local file, on the caller's
thread.

``Reader.keep(entry, extraction, …)`` writes every document with text (``Frontier.store_document``: by URL
and content hash, so a second copy becomes an alias) and answers their ``Outcome``s; an extraction with no
text counts as ``empty`` (not for arXiv API pages: an empty result page is the end of a search).

``Reader.links(entry, extraction, outcomes)`` answers the links to follow: none when the page is exactly the
content of a stored one under a new URL (counted as ``links of duplicate``: its links are that page's links,
or, relative, the same links one level deeper — how a calendar or catch-all trap grows), none when the
extraction says not to follow (``Extraction.follow``).
"""

from __future__ import annotations

import asyncio

from ..extract import Extraction, Unreadable, UnsupportedType, extract
from ..store import Entry, Frontier
from . import arxiv
from .ledger import Ledger, Outcome, SkipReason


class Reader:
    def __init__(self, frontier: Frontier, ledger: Ledger):
        self.frontier = frontier
        self.ledger = ledger

    async def read(self, entry: Entry, body: bytes, content_type: str | None, status: int) -> Extraction | None:
        try:
            if body[:5] == b"%PDF-" or "pdf" in (content_type or ""):
                return await asyncio.to_thread(extract, body, content_type, entry.url)
            return extract(body, content_type, entry.url)
        except (UnsupportedType, Unreadable) as exc:
            self._unread(entry, exc, status)
            return None

    def read_file(self, entry: Entry, body: bytes, content_type: str) -> Extraction | None:
        try:
            return extract(body, content_type, entry.url)
        except (UnsupportedType, Unreadable) as exc:
            self._unread(entry, exc, None)
            return None

    def _unread(self, entry: Entry, exc: Exception, status: int | None) -> None:
        if isinstance(exc, UnsupportedType):
            self.ledger.skip(entry, SkipReason.TYPE, str(exc), fetched=True)
        else:
            self.ledger.give_up(entry, status, str(exc))

    def keep(
        self,
        entry: Entry,
        extraction: Extraction,
        *,
        final_url: str | None,
        content_type: str | None,
        size: int,
        etag: str | None,
        last_modified: str | None,
    ) -> list[Outcome]:
        outcomes: list[Outcome] = []
        if not extraction.documents or all(not d.text.strip() for d in extraction.documents):
            if entry.kind != arxiv.KIND:
                self.ledger.count(SkipReason.EMPTY)
            return outcomes
        for doc in extraction.documents:
            if not doc.text.strip():
                continue
            outcome = Outcome(
                self.frontier.store_document(
                    entry.url,
                    doc,
                    final_url=final_url,
                    content_type=content_type,
                    byte_size=size,
                    etag=etag if doc.url is None else None,  # validators of the page, not of a feed's entries
                    last_modified=last_modified if doc.url is None else None,
                    depth=entry.depth,
                )
            )
            outcomes.append(outcome)
            self.ledger.stored(outcome)
        return outcomes

    def links(self, entry: Entry, extraction: Extraction, outcomes: list[Outcome]) -> list[str]:
        if outcomes == [Outcome.DUPLICATE]:
            self.ledger.count(SkipReason.LINKS_OF_DUPLICATE)
            return []
        return list(extraction.links) if extraction.follow else []
