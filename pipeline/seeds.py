"""Seeds: what ``shijie crawl`` is asked to start from.

A seed is a URL, a local file or folder (read directly, never over HTTP), ``arxiv:QUERY`` (a search of the
arXiv API, see ``pipeline.crawler.arxiv``), or a seeds file (``*.toml``; the format is documented at the top
of ``data/seeds.toml``). A seeds file may name other seeds files (``path = "more.toml"``), never itself, not even
through others; its ``[crawl]`` table is checked here, name by name (``crawler.settings.setting_problem``), so a
wrong name, type or value is a one-line ``DataError`` that names the file and the setting.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import urls
from .crawler.settings import setting_problem
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
    listed = data.get("seed", [])
    if not isinstance(listed, list):
        raise DataError(f"seeds file {path}: seeds are [[seed]] tables, not {type(listed).__name__}")
    for i, item in enumerate(listed):
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
    for name, value in defaults.items():
        problem = setting_problem(name, value)
        if problem:
            raise DataError(f"seeds file {path}: [crawl] {name} {problem}")
    return seeds, defaults


def parse_seeds(raw: list[str], _reading: tuple[Path, ...] = ()) -> Seeds:
    """Seed strings → ``Seeds``. ``_reading``: the seeds files being read, outermost first (a file that comes
    back in its own chain includes itself)."""
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
            path = Path(item).resolve()
            if path in _reading:
                chain = " → ".join(p.name for p in (*_reading[_reading.index(path) :], path))
                raise DataError(f"seeds file {item} includes itself ({chain})")
            more, _ = load_seeds_file(path)
            nested = parse_seeds(more, (*_reading, path))
            seeds.urls += nested.urls
            seeds.paths += nested.paths
            seeds.arxiv += nested.arxiv
        elif Path(item.removeprefix("file://")).exists():
            seeds.paths.append(Path(item.removeprefix("file://")).resolve())
        else:
            raise UsageError(f"seed {item!r} is not a URL, an existing path or arxiv:QUERY")
    return seeds
