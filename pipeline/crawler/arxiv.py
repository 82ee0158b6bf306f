"""The arXiv API as a crawl source: query URLs, paging, and the API host's own pace.

An ``arxiv:QUERY`` seed becomes the first page of an API search (``query_url(api, QUERY, 0, page_size)``);
``next_page`` gives the URL of the page after a fetched one, or None when the search is exhausted, the fetched
page held no entry, or ``max_results`` is reached. The API's base URL is ``$SHIJIE_ARXIV_API`` when set (a
fake API on loopback in the tests), else the real one.

The API host is a seed's host when there is an ``arxiv:`` seed, and is paced as arXiv's terms of use ask:
one request at a time, at least ``arxiv_delay`` (3 s) apart; robots.txt is not asked there (the API is meant
for programs). Its pages are ``kind = "arxiv-api"`` entries, outside depth and the allow-list.
"""

from __future__ import annotations

import os
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from .. import urls
from ..extract import Extraction

ARXIV_API = "https://export.arxiv.org/api/query"
KIND = "arxiv-api"
SLOTS = 1  # arXiv asks for one connection at a time


def default_api() -> str:
    return os.environ.get("SHIJIE_ARXIV_API") or ARXIV_API


def api_host(api: str) -> str:
    return urls.host_of(urls.canonical(api) or api)


def query_url(api: str, query: str, start: int, size: int) -> str:
    url = urls.canonical(
        f"{api}?{urlencode({'search_query': query, 'start': start, 'max_results': size}, quote_via=quote)}"
    )
    if url is None:
        raise ValueError(f"arXiv API URL {api!r} is not usable")
    return url


def next_page(url: str, extraction: Extraction, max_results: int) -> str | None:
    """The next page of the search fetched at ``url`` (its answer: ``extraction``), or None."""
    query = parse_qs(urlsplit(url).query)
    paging = extraction.paging
    try:
        start = int(query["start"][0])
        size = int(query["max_results"][0])
        search = query["search_query"][0]
    except (KeyError, ValueError, IndexError):
        return None
    if not paging or not extraction.documents:
        return None
    following = start + size
    if following < min(paging["total_results"], max_results):
        return query_url(url.split("?", 1)[0], search, following, size)
    return None
