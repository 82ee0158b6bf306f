"""How much one page or one host can make the crawl hold: links per page, the frontier per host and in all.

Without bounds, five pages of 340,000 links each queued 1.7 million rows (374 MB of database) and a site of
100 KB URLs filled the frontier, its ``seen`` set and the canonicalization cache with them. So:

- ``max_links_per_page``: a page gives at most that many distinct links, in page order (the extraction drops
  the rest: ``Extraction.links_dropped``); counted as ``links_per_page``;
- ``max_frontier_per_host`` and ``max_frontier``: a link is not stored when its host already has that many
  frontier rows, or the frontier that many in all (every status: a refused link's row counts as well); counted
  as ``frontier_per_host`` or ``frontier``. Seeds, their redirects and arXiv pages (``check_scope=False``) are
  never refused by these bounds: the user named them;
- a URL longer than ``max_url_length`` (a trap) is stored only by its hash (``store.hashed_url``), and a link
  longer than ``RAW_FACTOR`` x ``max_url_length`` as written is refused before it is even canonicalized.

Each bound that bit is counted in ``CrawlStats.caps`` (``--json`` and the summary say so).

Settings read: ``max_links_per_page``, ``max_frontier_per_host``, ``max_frontier``, ``max_url_length``.
"""

from __future__ import annotations

from ..store import Frontier
from .ledger import Cap, Ledger
from .settings import CrawlSettings

RAW_FACTOR = 8  # canonicalization can shorten a link (%41 → A, a/../b), but not by more than this in practice


class Bounds:
    def __init__(self, settings: CrawlSettings, frontier: Frontier, ledger: Ledger):
        self.settings = settings
        self.frontier = frontier
        self.ledger = ledger

    def too_long_to_read(self, raw: str) -> bool:
        """A link so long as written that it is refused before canonicalization."""
        return len(raw) > RAW_FACTOR * self.settings.max_url_length

    def too_long_to_keep(self, url: str) -> bool:
        """A canonical URL over ``max_url_length``: a trap, stored by its hash."""
        return len(url) > self.settings.max_url_length

    def full(self, host: str) -> Cap | None:
        """The bound that refuses one more frontier row for ``host``, if any."""
        if self.frontier.size >= self.settings.max_frontier:
            return Cap.FRONTIER
        if self.frontier.host_size(host) >= self.settings.max_frontier_per_host:
            return Cap.FRONTIER_PER_HOST
        return None

    def links_dropped(self, n: int) -> None:
        self.ledger.capped(Cap.LINKS_PER_PAGE, n)
