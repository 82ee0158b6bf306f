"""robots.txt: how it is fetched for a host and what it allows.

- Parsed by protego (Scrapy's parser: wildcards, Allow/Disallow precedence by longest match, Crawl-delay,
  Request-rate), for the agent ``shijie`` (a group for ``*`` applies when none names us).
- Answers (RFC 9309 §2.3.1): 2xx, the rules; 4xx, no rules; 5xx or 429, crawl nothing there for now
  (``disallow_all``, with a ``note`` saying why, written as the skipped entries' error); a robots.txt protego
  cannot read, too large or in an encoding we do not decode is no rules, as in Scrapy.
- No answer at all (the host does not resolve, refuses the connection, times out, drops it) is not a robots.txt
  rule but a host that cannot be reached: ``unreachable`` holds the reason (``FetchError.reason``) and the
  message, and the host's entries are errors that say so. A name that resolves to a private address when the
  connection is made is ``unsafe`` (DNS rebinding: see ``Scope.addresses``).
- ``fetch_robots`` asks ``{origin}/robots.txt`` once per host, before any page of it, within 512 KiB and
  30 s; it follows at most ``max_redirects`` redirects itself, each target checked like a link's host
  (``Scope.leads_private``): a redirect to a ``file:`` URL, an unusable URL or a private host, or too many
  redirects, is no rules (the pages stay subject to every other check).
- Only ``kind = "page"`` entries are checked against it (not arXiv API pages, not local files).
"""

from __future__ import annotations

from dataclasses import dataclass

from protego import Protego

from .. import urls
from ..fetch import REDIRECTS, ClientPool, FetchError
from .scope import Scope

AGENT = "shijie"
MAX_BYTES = 512 * 1024
BUDGET_S = 30.0


@dataclass
class Robots:
    """The parsed robots.txt of one host (None rules: everything allowed)."""

    rules: Protego | None = None
    disallow_all: bool = False
    note: str = ""
    unreachable: tuple[str, str] | None = None  # (reason, message): no answer came
    unsafe: str | None = None  # the connection was refused by the address check

    @classmethod
    def from_response(cls, status: int | None, body: bytes) -> Robots:
        if status is None or status >= 500 or status == 429:  # 429: the server is overloaded, not "no rules"
            return cls(disallow_all=True, note=f"robots.txt unavailable ({status or 'no answer'})")
        if status >= 400 or status < 200:
            return cls(note=f"robots.txt answered {status}: no rules")
        try:
            return cls(rules=Protego.parse(body.decode("utf-8", errors="replace")))
        except Exception as exc:  # a robots.txt protego cannot read is no rules, like Scrapy
            return cls(note=f"robots.txt unreadable ({exc.__class__.__name__}): no rules")

    def allows(self, url: str) -> bool:
        if self.disallow_all:
            return False
        return self.rules is None or self.rules.can_fetch(url, AGENT)

    def crawl_delay(self) -> float:
        if self.rules is None:
            return 0.0
        delay = self.rules.crawl_delay(AGENT) or 0.0
        rate = self.rules.request_rate(AGENT)
        if rate and rate.requests:
            delay = max(delay, rate.seconds / rate.requests)
        return float(delay)


async def fetch_robots(
    http: ClientPool, origin: str, scope: Scope, *, max_redirects: int, response_budget: float
) -> Robots:
    """The robots.txt of ``origin`` (``scheme://host[:port]``), following redirects as the module says."""
    url = f"{origin}/robots.txt"
    for _ in range(max_redirects + 1):
        try:
            response = await http.fetch(url, max_bytes=MAX_BYTES, budget_s=min(BUDGET_S, response_budget))
        except FetchError as exc:
            if exc.reason == "unsafe":
                return Robots(unsafe=str(exc))
            if exc.reason in ("too large", "bad encoding"):
                return Robots(note=f"robots.txt unreadable ({exc}): no rules")
            return Robots(unreachable=(exc.reason, str(exc)))
        if response.status in REDIRECTS and response.headers.get("location"):
            target = urls.canonical(response.headers["location"], url)
            if target is None or target.startswith("file:") or await scope.leads_private(urls.host_of(target)):
                return Robots()
            url = target
            continue
        return Robots.from_response(response.status, response.body)
    return Robots()
