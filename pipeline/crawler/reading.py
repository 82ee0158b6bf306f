"""What a fetched body becomes: its extraction, the documents stored from it, and the links it gives.

``Reader.read(entry, body, content_type, status)`` extracts the body in an extraction worker (``workers``: off
the event loop, within the document's budgets, ``CrawlSettings.limits()``) and answers the ``Extraction``, or
None when the entry has been ended. Nothing that goes wrong while reading one document is the crawl's problem:

- a type we do not read is skipped (``type``); for a local file (``status`` None) that spends no page budget;
- a body that cannot be read — whatever the extractor raised: a parse error, a RecursionError or an assertion
  inside pypdf, a MemoryError — is given up as that entry's error (``unreadable``), not retried: the same bytes
  fail the same way;
- a worker that ran out of time or memory, or died, is killed and replaced, and the entry is an error
  (``extraction killed``).

``Reader.keep(entry, extraction, …)`` writes every document with text (``Frontier.store_document``: by URL
and content hash, so a second copy becomes an alias) and answers their ``Outcome``s; an extraction with no
text counts as ``empty`` (not for arXiv API pages: an empty result page is the end of a search). A document cut
by a budget is kept with its note (``metadata["truncated"]``), counted in ``stats.truncated``, and ``note``
gives the text the entry records.

``Reader.links(entry, extraction, outcomes)`` answers the links to follow: none when the page is exactly the
content of a stored one under a new URL (counted as ``links of duplicate``: its links are that page's links,
or, relative, the same links one level deeper — how a calendar or catch-all trap grows), none when the
extraction says not to follow (``Extraction.follow``); the links beyond ``max_links_per_page`` were dropped by
the extraction and are counted here (``bounds``).
"""

from __future__ import annotations

from ..extract import Extraction, Limits, Unreadable, UnsupportedType
from ..store import Entry, Frontier
from . import arxiv
from .bounds import Bounds
from .ledger import ErrorReason, Ledger, Outcome, SkipReason
from .workers import ExtractionKilled, Workers


class Reader:
    def __init__(self, frontier: Frontier, ledger: Ledger, workers: Workers, limits: Limits, bounds: Bounds):
        self.frontier = frontier
        self.ledger = ledger
        self.workers = workers
        self.limits = limits
        self.bounds = bounds

    async def read(self, entry: Entry, body: bytes, content_type: str | None, status: int | None) -> Extraction | None:
        """``status`` None: a local file (no request was spent)."""
        try:
            return await self.workers.extract(body, content_type, entry.url, self.limits)
        except UnsupportedType as exc:
            self.ledger.skip(entry, SkipReason.TYPE, str(exc), fetched=status is not None)
        except ExtractionKilled as exc:
            self.ledger.give_up(entry, status, str(exc), ErrorReason.EXTRACTION_KILLED)
        except Unreadable as exc:
            self.ledger.give_up(entry, status, str(exc), ErrorReason.UNREADABLE)
        return None

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
        if extraction.truncated:
            self.ledger.cut()
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

    @staticmethod
    def note(extraction: Extraction) -> str | None:
        """What the entry records about a document cut by a budget (None when nothing was cut)."""
        return "; ".join(f"cut: {note}" for note in extraction.truncated) or None

    def links(self, entry: Entry, extraction: Extraction, outcomes: list[Outcome]) -> list[str]:
        if outcomes == [Outcome.DUPLICATE]:
            self.ledger.count(SkipReason.LINKS_OF_DUPLICATE)
            return []
        if not extraction.follow:
            return []
        self.bounds.links_dropped(extraction.links_dropped)
        return list(extraction.links)
