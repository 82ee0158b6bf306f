"""Documents as records people and other tools read: the rows of ``shijie list``, and ``shijie export``'s CSV,
JSON Lines and BibTeX.

``records(db, where, hosts)`` is the one shape: a dict per document (``RECORD_FIELDS`` in that order), with
``link``, the address that outlives the run (``pipeline.links``), beside the stored ``url``. The writers
take records and return text:

- ``to_csv``: one row per record, ``domains`` and ``authors`` as JSON; a text cell starting with ``= + - @``
  gets a leading ``'`` so that a spreadsheet shows it instead of running it as a formula (a crawled title is
  data; OWASP's CSV injection rule).
- ``to_jsonl``: one JSON object per line.
- ``to_bibtex``: an arXiv paper is ``@article`` when it has a journal reference or DOI, ``@misc`` otherwise,
  with ``eprint`` / ``archivePrefix`` / ``primaryClass``; any other document is ``@misc`` with its URL. Every
  value is escaped for LaTeX, so a title cannot close its field or inject another.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .links import SCHEME, Links

if TYPE_CHECKING:
    from .store import Database, DocumentFilter, DocumentRow

RECORD_FIELDS = (
    "id",
    "title",
    "link",
    "url",
    "host",
    "status",
    "type",
    "kind",
    "value",
    "relevance",
    "relevance_score",
    "redundancy",
    "redundancy_score",
    "duplicate_of",
    "domains",
    "arxiv_id",
    "authors",
    "published",
    "fetched_at",
)
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/(?P<id>(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?")


def host_of(link: str | None) -> str:
    """What ``--host`` matches: the URL's host (and port), ``shijie-corpus`` for the embedded corpus, ``file``
    for local files."""
    if not link:
        return ""
    if link.startswith(SCHEME):
        return SCHEME.rstrip(":")
    parts = urlsplit(link)
    return parts.netloc or parts.scheme


def arxiv_id(row: DocumentRow) -> str | None:
    found = row.metadata.get("arxiv_id")
    if isinstance(found, str) and found:
        return found
    for url in (row.url, row.final_url):
        match = _ARXIV_URL.search(url or "")
        if match:
            return match.group("id")
    return None


def record(row: DocumentRow, links: Links) -> dict[str, Any]:
    link = links.stable(row.url)
    authors = row.metadata.get("authors")
    return {
        "id": row.id,
        "title": row.title,
        "link": link,
        "url": row.url,
        "host": host_of(link),
        "status": row.status,
        "type": row.type,
        "kind": row.kind,
        "value": row.value,
        "relevance": row.relevance,
        "relevance_score": row.relevance_score,
        "redundancy": row.redundancy,
        "redundancy_score": row.redundancy_score,
        "duplicate_of": row.duplicate_of,
        "domains": row.domains,
        "arxiv_id": arxiv_id(row),
        "authors": [str(a) for a in authors] if isinstance(authors, list) else [],
        "published": row.metadata.get("published") or None,
        "fetched_at": row.fetched_at,
        "_metadata": row.metadata,  # for the BibTeX writer; records() callers drop it
    }


def host_matches(host: str, wanted: Iterable[str], url: str) -> bool:
    """``host`` is one of ``wanted``, or a subdomain of one (``nvidia.com`` admits ``docs.nvidia.com``); the
    stored URL's host counts too (``127.0.0.1:40951`` for the embedded corpus)."""
    stored = urlsplit(url).netloc
    for name in wanted:
        name = name.lower().strip().lstrip(".")
        if name and any(h == name or h.endswith("." + name) for h in (host.lower(), stored.lower())):
            return True
    return False


def records(
    db: Database, where: DocumentFilter, hosts: Iterable[str] = (), limit: int | None = None
) -> tuple[list[dict[str, Any]], int]:
    """(the first ``limit`` records ``where`` and ``hosts`` admit, how many they admit in all)."""
    from .store import list_documents, served_origins

    links = Links(tuple(served_origins(db)))
    wanted = [h for h in hosts if h.strip()]
    found: list[dict[str, Any]] = []
    total = 0
    for row in list_documents(db, where):
        item = record(row, links)
        if wanted and not host_matches(item["host"], wanted, row.url):
            continue
        total += 1
        if limit is None or len(found) < limit:
            found.append(item)
    return found, total


def public(item: dict[str, Any]) -> dict[str, Any]:
    """A record without the writers' private keys."""
    return {key: value for key, value in item.items() if not key.startswith("_")}


# -- CSV and JSON Lines --------------------------------------------------------------------------------

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return "" if value is None else value


def to_csv(items: Iterable[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(RECORD_FIELDS)
    for item in items:
        writer.writerow([_cell(item.get(name)) for name in RECORD_FIELDS])
    return buffer.getvalue()


def to_jsonl(items: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(public(item), ensure_ascii=False) + "\n" for item in items)


# -- BibTeX --------------------------------------------------------------------------------------------

_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\~{}",
}
_LATEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _LATEX))
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def latex(text: object) -> str:
    """Text as a BibTeX field value: control characters and line breaks a space, LaTeX specials escaped."""
    plain = _CONTROL.sub(" ", "" if text is None else str(text)).strip()
    return _LATEX_SPECIAL.sub(lambda m: _LATEX[m.group()], plain)


def _url_field(url: str) -> str:
    # braces and backslashes would end or escape the field: percent-encode them, as a URL allows
    return _CONTROL.sub("", url).replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D").replace(" ", "%20")


def _key(item: dict[str, Any], used: set[str]) -> str:
    authors = item.get("authors") or []
    surname = re.sub(r"[^a-z]", "", str(authors[0]).split()[-1].lower()) if authors and str(authors[0]).split() else ""
    year = str(item.get("published") or "")[:4]
    word = next(
        (w for w in re.findall(r"[a-z0-9]+", str(item.get("title") or "").lower()) if len(w) > 3),
        "",
    )
    base = (surname + year + word) or f"doc{item['id']}"
    key, n = base, 1
    while key in used:
        n += 1
        key = f"{base}{chr(ord('a') + n - 2) if n <= 27 else n}"
    used.add(key)
    return key


def bibtex_entry(item: dict[str, Any], key: str) -> str:
    metadata = item.get("_metadata") or {}
    eprint = item.get("arxiv_id")
    fields: list[tuple[str, str]] = [("title", "{" + latex(item.get("title") or item.get("link")) + "}")]
    if item.get("authors"):
        fields.append(("author", " and ".join(latex(a) for a in item["authors"])))
    year = str(item.get("published") or "")[:4]
    if year.isdigit():
        fields.append(("year", year))
    kind = "misc"
    if eprint:
        fields += [("eprint", latex(eprint)), ("archivePrefix", "arXiv")]
        categories = metadata.get("categories") or []
        if categories:
            fields.append(("primaryClass", latex(categories[0])))
        if metadata.get("journal_ref"):
            kind = "article"
            fields.append(("journal", latex(metadata["journal_ref"])))
        if metadata.get("doi"):
            kind = "article"
            fields.append(("doi", latex(metadata["doi"])))
        fields.append(("url", _url_field(f"https://arxiv.org/abs/{eprint}")))
    else:
        link = item.get("link") or item.get("url") or ""
        fields.append(("url", _url_field(link)))
        fetched = item.get("fetched_at")
        if isinstance(fetched, (int, float)):
            fields.append(("urldate", time.strftime("%Y-%m-%d", time.gmtime(fetched))))
    notes = [f"shijie value {item['value']}" if item.get("value") is not None else "", str(item.get("type") or "")]
    fields.append(("note", latex("; ".join(n for n in notes if n))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def to_bibtex(items: Iterable[dict[str, Any]]) -> str:
    used: set[str] = set()
    return "\n".join(bibtex_entry(item, _key(item, used)) for item in items)


WRITERS = {"csv": to_csv, "jsonl": to_jsonl, "bibtex": to_bibtex}
