"""The seven domains shijie measures coverage and mastery over, loaded from ``data/taxonomy.toml``.

The file has one table per domain::

    [domains.gpu_architecture]
    title = "GPU architecture"
    title_zh = "GPU 架构"
    concepts = ["warp", "shared memory", ...]      # lowercase terms and phrases
    weights = { "shared memory" = 2.0 }            # optional; a concept's default weight is 1.0

``load_taxonomy()`` validates it and raises ``DataError`` with a one-line message when it does not parse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .errors import DataError
from .resources import data_dir, read_data_file


@dataclass(frozen=True)
class Domain:
    id: str
    title: str
    title_zh: str
    concepts: tuple[str, ...]
    weights: dict[str, float] = field(default_factory=dict, compare=False, hash=False)

    def weight(self, concept: str) -> float:
        return self.weights.get(concept, 1.0)


def taxonomy_path() -> Path:
    return data_dir() / "taxonomy.toml"


def load_taxonomy(path: str | Path | None = None) -> list[Domain]:
    """The domains of ``path`` (default: the shipped taxonomy), in file order."""
    path = Path(path) if path is not None else taxonomy_path()
    return list(_load(str(path), path.stat().st_mtime_ns if path.exists() else 0))


@lru_cache(maxsize=8)
def _load(path: str, _mtime: int) -> tuple[Domain, ...]:
    raw = read_data_file(path, "taxonomy file")
    tables = raw.get("domains")
    if not isinstance(tables, dict) or not tables:
        raise DataError(f"taxonomy file {path} has no [domains.<id>] tables")
    return tuple(_domain(path, domain_id, table) for domain_id, table in tables.items())


def _domain(path: str, domain_id: str, table: object) -> Domain:
    where = f"taxonomy file {path}, [domains.{domain_id}]"
    if not isinstance(table, dict):
        raise DataError(f"{where} is not a table")
    for key in ("title", "title_zh"):
        if not isinstance(table.get(key), str) or not table[key].strip():
            raise DataError(f"{where} needs a non-empty string '{key}'")
    concepts = table.get("concepts")
    if not isinstance(concepts, list) or not concepts or not all(isinstance(c, str) and c.strip() for c in concepts):
        raise DataError(f"{where} needs 'concepts', a non-empty list of strings")
    concepts = tuple(dict.fromkeys(c.strip().lower() for c in concepts))  # de-duplicated, order kept
    weights = table.get("weights", {})
    if not isinstance(weights, dict):
        raise DataError(f"{where}: 'weights' must be a table of concept = number")
    clean: dict[str, float] = {}
    for concept, weight in weights.items():
        concept = concept.strip().lower()
        if concept not in concepts:
            raise DataError(f"{where}: weight for '{concept}', which is not in its concepts")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight <= 0:
            raise DataError(f"{where}: weight of '{concept}' must be a positive number")
        clean[concept] = float(weight)
    unknown = set(table) - {"title", "title_zh", "concepts", "weights"}
    if unknown:
        raise DataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    return Domain(domain_id, table["title"].strip(), table["title_zh"].strip(), concepts, clean)
