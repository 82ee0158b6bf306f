"""Where a link may lead: the allow-list, depth, traps, private addresses and discarded URLs, judged in one place.

``Scope.judge(url, depth)`` answers a ``SkipReason`` or None (the URL may be queued), in this order:

- ``unsafe``: a ``file:`` URL (never from a link), or a host private by its spelling alone (an IP literal in
  loopback/private/link-local/reserved space, ``localhost``) unless it is a seed's host — a page cannot steer
  the crawler into the local network. Names are resolved later, once per host, off the event loop
  (``leads_private``, called by ``pipeline.crawler.hosts`` before any request to the host);
- ``offsite``: the host is not on the allow-list: the seeds' hosts (plus the arXiv API's when there is an
  ``arxiv:`` seed), a seed's new host after it redirected, and ``allow_hosts`` (``.example.org`` admits
  ``example.org`` and its subdomains; a host without a port admits every port);
- ``depth``: more than ``max_depth`` links from a seed;
- ``trap``: longer than ``max_url_length``, or a path segment repeated more than ``max_segment_repeats`` times;
- ``discarded``: the user curated it out (``discarded`` table): never fetched again.

Seeds, redirect targets of seeds and arXiv API pages are judged with ``check_scope=False`` (no allow-list, no
depth): only safety, traps and discards apply to them. Both private-address checks go through
``urls.is_private_host``, by spelling (``resolve=False``) or after resolving with the crawl's ``resolver``.

``Scope.addresses(host, port)`` is the check at every new connection (``pipeline.fetch`` connects only to what it
answers): the name is resolved again with the crawl's ``resolver`` and every address checked, so a name that
resolved to a public address when its host was met and to 127.0.0.1 now (DNS rebinding) is refused
(``UnsafeAddress``) — unless it is a seed's host, which the user asked for.

Settings read: ``allow_hosts``, ``max_depth``, ``max_url_length``, ``max_segment_repeats``.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Collection

from .. import urls
from ..fetch import UnsafeAddress
from .ledger import SkipReason
from .settings import CrawlSettings


class Scope:
    def __init__(
        self,
        settings: CrawlSettings,
        seed_hosts: set[str],
        discarded: Collection[str],
        resolver: urls.Resolver | None = None,
    ):
        self.settings = settings
        self.seed_hosts = frozenset(seed_hosts)
        self.discarded = discarded  # the frontier's set, read live
        self.resolver = resolver
        self.allowed_exact = set(seed_hosts)
        self.allowed_suffixes: list[str] = []
        for host in settings.allow_hosts:
            host = host.strip().lower()
            (self.allowed_suffixes.append(host) if host.startswith(".") else self.allowed_exact.add(host))

    def allowed(self, host: str) -> bool:
        if host in self.allowed_exact or urls.hostname_of(host) in self.allowed_exact:
            return True
        name = urls.hostname_of(host)
        return any(name.endswith(suffix) or name == suffix[1:] for suffix in self.allowed_suffixes)

    def admit(self, host: str) -> None:
        """A seed moved (it redirected): its new host joins the allow-list."""
        self.allowed_exact.add(host)

    def judge(self, url: str, depth: int, *, check_scope: bool = True) -> SkipReason | None:
        """Why the canonical ``url``, ``depth`` links from a seed, must not be queued; None when it may."""
        if url.startswith("file:"):
            return SkipReason.UNSAFE
        host = urls.host_of(url)
        if host not in self.seed_hosts and urls.is_private_host(host, resolve=False):
            return SkipReason.UNSAFE
        if check_scope and not self.allowed(host):
            return SkipReason.OFFSITE
        if check_scope and depth > self.settings.max_depth:
            return SkipReason.DEPTH
        if urls.trap_reason(url, self.settings.max_url_length, self.settings.max_segment_repeats):
            return SkipReason.TRAP
        if self.is_discarded(url):
            return SkipReason.DISCARDED
        return None

    def is_discarded(self, url: str) -> bool:
        """Curated out by the user (asked again when an entry is claimed: it may have been discarded since)."""
        return url in self.discarded

    async def addresses(self, host: str, port: int) -> list[str]:
        """The addresses a connection to ``host`` (a name or IP, no brackets) on ``port`` may use: all of the name's
        addresses, each checked; raises ``UnsafeAddress`` when one is private and the host is not a seed's."""
        netloc = f"[{host}]" if ":" in host else host
        trusted = netloc in self.seed_hosts or f"{netloc}:{port}" in self.seed_hosts
        try:
            ipaddress.ip_address(host)
            found = [host]
        except ValueError:
            found = await asyncio.to_thread(self.resolver or urls.system_resolver, host)
        if not trusted:
            for address in found:
                if urls.is_private_address(address):
                    raise UnsafeAddress(f"{host} resolves to a private address ({address}) when connecting")
            if urls.is_private_host(host, resolve=False):  # localhost and *.localhost, whatever they resolve to
                raise UnsafeAddress(f"{host} is a private name")
        return found

    async def leads_private(self, host: str) -> bool:
        """True when ``host`` is not a seed's host and is, or resolves to, a private address (DNS off the loop)."""
        if host in self.seed_hosts:
            return False
        return await asyncio.to_thread(urls.is_private_host, host, self.resolver)
