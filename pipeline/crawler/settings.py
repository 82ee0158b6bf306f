"""``CrawlSettings``: every knob of a crawl, as plain data.

Flat and JSON-serialisable (``to_json`` is ``asdict``), so a run stores its settings in ``crawl_runs`` and a
seeds file's ``[crawl]`` table sets any of them by name. What is not data — the host-name resolver and the
progress callback — is an argument of ``crawl()``, not a setting. Each policy reads the fields it names in its
own docstring.

``setting_problem(name, value)`` says what is wrong with a value given by name, in words that follow the name (a seeds file's ``[crawl]``
table, or a library caller): an unknown name, the wrong type (an integer setting takes a TOML integer, a number
setting an integer or a float, a switch true or false, a list of strings a list of strings), or a number below
its least value (``LEAST``). ``crawl()`` checks its settings the same way.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ..extract import Limits
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
    max_attempts: int = 4  # requests started for one URL, a crawl killed while reading it included
    backoff_base: float = 2.0
    backoff_cap: float = 300.0
    max_retry_after: float = 3600.0  # a longer Retry-After gives the entry up for this run
    max_crawl_delay: float = 60.0
    max_url_length: int = 512
    max_segment_repeats: int = 2
    max_links_per_page: int = 2000  # distinct links taken from one page, in page order
    max_frontier_per_host: int = 50_000  # frontier rows for one host (queued, done or skipped)
    max_frontier: int = 500_000  # frontier rows in all
    extract_workers: int = 2  # processes that extract documents, off the event loop
    extract_timeout: float = 60.0  # wall-clock seconds to read one document (a worker is killed at 1.5x + 1 s)
    extract_memory_mb: int = 384  # address space of one extraction worker
    max_text_chars: int = 2_000_000  # characters of text kept per document
    max_pdf_pages: int = 1000
    arxiv_api: str = field(default_factory=default_api)
    arxiv_delay: float = 3.0
    arxiv_page_size: int = 50
    arxiv_max_results: int = 200
    served_origin: str | None = None  # set when crawling the embedded corpus served on loopback
    rng_seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def limits(self) -> Limits:
        """The extraction budgets of one document."""
        return Limits(
            max_chars=self.max_text_chars,
            max_pdf_pages=self.max_pdf_pages,
            max_links=self.max_links_per_page,
            seconds=self.extract_timeout,
        )


# The least value of each number setting (others may be anything of their type).
LEAST: dict[str, float] = {
    "max_pages": 0,
    "max_depth": 0,
    "concurrency": 1,
    "per_host": 1,
    "delay": 0,
    "max_bytes": 1,
    "connect_timeout": 0.001,
    "read_timeout": 0.001,
    "response_budget": 0.001,
    "max_redirects": 0,
    "max_attempts": 1,
    "max_url_length": 16,
    "max_segment_repeats": 1,
    "max_links_per_page": 0,
    "max_frontier_per_host": 1,
    "max_frontier": 1,
    "extract_workers": 1,
    "extract_timeout": 0.001,
    "extract_memory_mb": 0,
    "max_text_chars": 1,
    "max_pdf_pages": 1,
}

_TYPES = {f.name: str(f.type) for f in fields(CrawlSettings)}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def setting_problem(name: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the setting ``name`` (``must be an integer, not 'ten'``), or None."""
    kind = _TYPES.get(name)
    if kind is None:
        return "is not a crawl setting"
    optional = kind.endswith("| None")
    if value is None:
        return None if optional else "must be set"
    base = kind.removesuffix(" | None")
    if base == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        return f"must be an integer, not {_shown(value)}"
    if base == "float" and (isinstance(value, bool) or not isinstance(value, int | float)):
        return f"must be a number, not {_shown(value)}"
    if base == "bool" and not isinstance(value, bool):
        return f"must be true or false, not {_shown(value)}"
    if base == "str" and not isinstance(value, str):
        return f"must be a string, not {_shown(value)}"
    if base == "list[str]" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return f"must be a list of strings, not {_shown(value)}"
    least = LEAST.get(name)
    if least is not None and value < least:
        return f"must be ≥ {least:g}, not {_shown(value)}"
    return None
