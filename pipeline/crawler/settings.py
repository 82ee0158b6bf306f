"""``CrawlSettings``: every knob of a crawl, as plain data.

Flat and JSON-serialisable (``to_json`` is ``asdict``), so a run stores its settings in ``crawl_runs`` and a
seeds file's ``[crawl]`` table sets any of them by name. What is not data — the host-name resolver and the
progress callback — is an argument of ``crawl()``, not a setting. Each policy reads the fields it names in its
own docstring.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .arxiv import default_api


@dataclass
class CrawlSettings:
    max_pages: int = 1000  # requests that finish in this run (a resumed run keeps counting)
    max_depth: int = 4
    concurrency: int = 8
    per_host: int = 2  # concurrent requests to one host
    delay: float = 1.0  # seconds between request starts on one host (robots Crawl-delay may raise it)
    allow_hosts: list[str] = field(default_factory=list)
    recrawl: bool = False  # fetch finished pages again (conditional requests)
    max_bytes: int = 10 * 1024 * 1024
    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    response_budget: float = 60.0  # wall-clock seconds for a whole response (slow-drip servers)
    max_redirects: int = 5
    max_attempts: int = 4
    backoff_base: float = 2.0
    backoff_cap: float = 300.0
    max_retry_after: float = 3600.0  # a longer Retry-After gives the entry up for this run
    max_crawl_delay: float = 60.0
    max_url_length: int = 512
    max_segment_repeats: int = 2
    arxiv_api: str = field(default_factory=default_api)
    arxiv_delay: float = 3.0
    arxiv_page_size: int = 50
    arxiv_max_results: int = 200
    served_origin: str | None = None  # set when crawling the embedded corpus served on loopback
    rng_seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
