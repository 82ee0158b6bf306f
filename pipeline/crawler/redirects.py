"""Redirects, hop by hop: a 3xx is not followed inside its request, its target is queued like a link.

So every hop passes the same checks as a link (``Scope.judge``) and waits for its own host's slot and delay.
``Redirects.follow(entry, status, location)`` answers the target to queue (canonical, resolved against the
entry's URL), or None:

- a redirect without ``Location``, or one more hop than ``max_redirects`` in a chain (hops are counted from
  the chain's first URL; the count lives in memory, so a resumed run starts chains afresh), is given up as
  an error (``Ledger.give_up``);
- otherwise the entry is done, marked ``skip_reason = redirect`` with ``"301 → target"`` as its note, and
  the target inherits its depth and kind; the caller queues it (``check_scope`` only below a seed: a moved
  seed or arXiv page is judged for safety and traps alone);
- a seed that moved (a depth-0 page redirecting to an http(s) URL) brings its new host into scope
  (``Scope.admit``): ``docs.x.org`` → ``x.github.io/docs`` keeps the crawl on the docs.

Settings read: ``max_redirects``.
"""

from __future__ import annotations

from .. import urls
from ..store import Entry
from .ledger import ErrorReason, Ledger, SkipReason
from .scope import Scope


class Redirects:
    def __init__(self, max_redirects: int, scope: Scope, ledger: Ledger):
        self.max_redirects = max_redirects
        self.scope = scope
        self.ledger = ledger
        self.hops: dict[str, int] = {}  # redirect target → hops from the first URL of its chain

    def follow(self, entry: Entry, status: int, location: str | None) -> str | None:
        """Ends ``entry`` (it answered ``status`` with ``location``); returns the target to queue, if any."""
        hops = self.hops.get(entry.url, 0)
        if not location:
            self.ledger.give_up(entry, status, f"HTTP {status} without Location", ErrorReason.REDIRECTS)
            return None
        if hops >= self.max_redirects:
            self.ledger.give_up(entry, status, f"more than {self.max_redirects} redirects", ErrorReason.REDIRECTS)
            return None
        target = urls.canonical(location, entry.url)
        if target and entry.depth == 0 and entry.kind == "page" and not target.startswith("file:"):
            self.scope.admit(urls.host_of(target))
        if target:
            self.hops[target] = hops + 1
        shown = target if target is None or len(target) <= 300 else target[:300] + "…"
        self.ledger.done(entry, skip_reason=SkipReason.REDIRECT, error=f"{status} → {shown}")
        return target
