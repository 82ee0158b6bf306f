"""Seeds: what ``shijie crawl`` is asked to start from.

A seed is a URL, a local file or folder (read directly, never over HTTP), ``arxiv:QUERY`` (a search of the
arXiv API, see ``pipeline.crawler.arxiv``), or a seeds file (``*.toml``; the format is documented at the top
of ``data/seeds.toml``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import urls
from .errors import DataError, UsageError


@dataclass
class Seeds:
    urls: list[str] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    arxiv: list[str] = field(default_factory=list)


def load_seeds_file(path: Path) -> tuple[list[str], dict[str, Any]]:
    """A seeds file → (seed strings, [crawl] setting defaults). Format: see data/seeds.toml."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"seeds file {path}: {exc}") from None
    seeds: list[str] = []
    for i, item in enumerate(data.get("seed", [])):
        if not isinstance(item, dict):
            raise DataError(f"seeds file {path}: [[seed]] #{i + 1} is not a table")
        if "url" in item:
            seeds.append(str(item["url"]))
        elif "arxiv" in item:
            seeds.append(f"arxiv:{item['arxiv']}")
        elif "path" in item:
            seeds.append(str((path.parent / item["path"]).resolve()))
        else:
            raise DataError(f"seeds file {path}: [[seed]] #{i + 1} needs url, arxiv or path")
    defaults = data.get("crawl", {})
    if not isinstance(defaults, dict):
        raise DataError(f"seeds file {path}: [crawl] must be a table")
    return seeds, defaults


def parse_seeds(raw: list[str]) -> Seeds:
    seeds = Seeds()
    for item in raw:
        item = item.strip()
        if item.startswith("arxiv:"):
            query = item[len("arxiv:") :].strip()
            if not query:
                raise UsageError("arxiv: seed needs a query, e.g. arxiv:'flash attention'")
            seeds.arxiv.append(query)
        elif item.startswith(("http://", "https://")):
            url = urls.canonical(item)
            if url is None:
                raise UsageError(f"seed {item!r} is not a usable URL")
            seeds.urls.append(url)
        elif item.endswith(".toml") and Path(item).is_file():
            more, _ = load_seeds_file(Path(item))
            nested = parse_seeds(more)
            seeds.urls += nested.urls
            seeds.paths += nested.paths
            seeds.arxiv += nested.arxiv
        elif Path(item.removeprefix("file://")).exists():
            seeds.paths.append(Path(item.removeprefix("file://")).resolve())
        else:
            raise UsageError(f"seed {item!r} is not a URL, an existing path or arxiv:QUERY")
    return seeds
