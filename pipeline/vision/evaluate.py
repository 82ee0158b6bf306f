"""The issue's metrics on a split of the labelled set, scored through the real pipeline.

``score_labelled(loaded, scorer, folder)`` stores the labelled documents in a fresh SQLite database the way
the crawler stores a page (``Frontier.store_document``: one row per distinct clean text, a byte-identical
copy becomes a URL alias of the first) and runs ``scorer(db)`` on it; ``metrics(labels, ids, outcomes)``
compares what the scorer said with the labels:

    relevance_auc        ROC AUC of relevance_score, technical (positive) against off-topic
    admin_auc            the same, technical against administrative (reported, no target)
    spearman             Spearman's rho of value against tier (A=3, B=2, C=1) among technical documents
    traps_below_median   share of changelog / licence / install / link_list pages whose value is below the
                         median value of the technical documents (target: all of them)
    copy_recall          share of labelled copies (``dup_of``) flagged redundancy "high" and pointing into
                         their copy group (a byte-identical copy merged by the crawl counts as found)
    false_flags          share of documents without ``dup_of`` (kept copies and singles) flagged "high"
    newer_kept           share of copy pairs whose copy to keep is not itself flagged "high"
    technical_high_medium, off_high_medium, admin_high_medium   share labelled high or medium relevance

A copy group is a connected set of ``dup_of`` links. Every figure comes with the count it stands on.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .labelled import Label, LoadedDocument

TIER_RANK = {"A": 3, "B": 2, "C": 1}
TRAP_TYPES = ("changelog", "licence", "install", "link_list")
TARGETS = {
    "relevance_auc": (">=", 0.95),
    "spearman": (">=", 0.6),
    "traps_below_median": (">=", 1.0),
    "copy_recall": (">=", 0.95),
    "false_flags": ("<=", 0.02),
    "newer_kept": (">=", 1.0),
    "technical_high_medium": (">=", 0.8),
    "off_high_medium": ("<=", 0.05),
}


@dataclass(frozen=True)
class Outcome:
    """What a scorer said of one stored document."""

    id: int
    value: float
    relevance: str  # high | medium | low
    relevance_score: float
    redundancy: str  # high | low
    redundancy_score: float
    duplicate_of: int | None
    doc_type: str | None = None

    @classmethod
    def of(cls, scored) -> Outcome:
        """From a ``pipeline.score.ScoredDocument`` (or anything with its attributes)."""
        components = getattr(scored, "components", {}) or {}
        doc_type = (components.get("type") or {}).get("type") if isinstance(components, dict) else None
        return cls(
            scored.id,
            scored.value,
            scored.relevance,
            scored.relevance_score,
            scored.redundancy,
            scored.redundancy_score,
            scored.duplicate_of,
            doc_type,
        )


def store_labelled(db, loaded: Iterable[LoadedDocument]) -> dict[str, int]:
    """Writes the documents as the crawler does; returns label key → document id (aliases resolved)."""
    from ..store import find_document, store_document

    loaded = list(loaded)
    with db.atomic():
        for item in loaded:
            store_document(
                db,
                item.url,
                item.document,
                final_url=None,
                content_type=item.content_type,
                byte_size=item.byte_size,
                etag=None,
                last_modified=None,
                depth=0,
            )
    ids = {}
    for item in loaded:
        found = find_document(db, item.url)
        if found is not None:
            ids[item.label.key] = found.id
    return ids


def score_labelled(
    loaded: list[LoadedDocument], scorer: Callable, folder: str | Path
) -> tuple[dict[str, int], dict[int, Outcome]]:
    """A fresh database in ``folder`` holding ``loaded``, scored by ``scorer(db)``."""
    from ..store import open_db

    db = open_db(Path(folder) / "labelled.db")
    ids = store_labelled(db, loaded)
    outcomes = {o.id: o for o in map(Outcome.of, scorer(db))}
    db.conn.close()
    return ids, outcomes


def auc(positive: list[float], negative: list[float]) -> float | None:
    """ROC AUC: the chance a positive outranks a negative (ties count half)."""
    if not positive or not negative:
        return None
    ordered = sorted([(s, 1) for s in positive] + [(s, 0) for s in negative])
    rank_sum, i = 0.0, 0
    while i < len(ordered):  # average ranks over ties
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        mean_rank = (i + 1 + j) / 2
        rank_sum += mean_rank * sum(1 for k in range(i, j) if ordered[k][1] == 1)
        i = j
    n_pos, n_neg = len(positive), len(negative)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def spearman(x: list[float], y: list[float]) -> float | None:
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic)


def copy_groups(labels: list[Label]) -> dict[str, int]:
    """label key → group number, for every label in a copy group (connected by dup_of)."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for label in labels:
        if label.dup_of:
            parent[find(label.key)] = find(label.dup_of)
    roots = sorted({find(k) for k in parent})
    number = {root: n for n, root in enumerate(roots)}
    return {key: number[find(key)] for key in parent}


def metrics(labels: list[Label], ids: dict[str, int], outcomes: dict[int, Outcome]) -> dict:
    """The issue's figures for the labelled documents that were scored; see the module docstring."""
    present = [label for label in labels if label.key in ids and ids[label.key] in outcomes]
    out_of = {label.key: outcomes[ids[label.key]] for label in present}
    by_relevance: dict[str, list[Label]] = {r: [] for r in ("technical", "admin", "off")}
    for label in present:
        by_relevance[label.relevance].append(label)
    rel = {r: [out_of[label.key].relevance_score for label in group] for r, group in by_relevance.items()}
    technical = by_relevance["technical"]
    technical_values = [out_of[label.key].value for label in technical]
    median = statistics.median(technical_values) if technical_values else None
    traps = [label for label in present if label.type in TRAP_TYPES]
    traps_below = [label for label in traps if median is not None and out_of[label.key].value < median]

    groups = copy_groups(labels)
    members: dict[int, set[int]] = {}
    for key, group in groups.items():
        if key in ids:
            members.setdefault(group, set()).add(ids[key])
    pairs = [(label, label.dup_of) for label in present if label.dup_of and label.dup_of in ids]
    found = merged = kept_right = distinct_pairs = 0
    missed: list[str] = []
    for label, keep in pairs:
        copy_id, keep_id = ids[label.key], ids[keep]
        if copy_id == keep_id:
            merged += 1
            continue
        distinct_pairs += 1
        o = out_of[label.key]
        if o.redundancy == "high" and o.duplicate_of in members.get(groups[label.key], set()) - {copy_id}:
            found += 1
        else:
            missed.append(label.key)
        keep_outcome = outcomes.get(keep_id)
        if keep_outcome is not None and keep_outcome.redundancy != "high":
            kept_right += 1
    should_stay = [label for label in present if not label.dup_of]
    flagged = [label for label in should_stay if out_of[label.key].redundancy == "high"]

    def share(items: list[Label], levels: tuple[str, ...]) -> float | None:
        return sum(out_of[label.key].relevance in levels for label in items) / len(items) if items else None

    return {
        "documents": len(present),
        "counts": {r: len(g) for r, g in by_relevance.items()},
        "relevance_auc": auc(rel["technical"], rel["off"]),
        "admin_auc": auc(rel["technical"], rel["admin"]),
        "spearman": spearman(technical_values, [TIER_RANK[label.tier] for label in technical]),
        "traps_below_median": len(traps_below) / len(traps) if traps else None,
        "traps": len(traps),
        "traps_above": sorted(label.key for label in traps if label not in traps_below),
        "median_technical_value": median,
        "copy_pairs": len(pairs),
        "copies_merged_by_crawl": merged,
        "copy_recall": (found + merged) / len(pairs) if pairs else None,
        "copies_missed": missed,
        "false_flags": len(flagged) / len(should_stay) if should_stay else None,
        "falsely_flagged": sorted(label.key for label in flagged),
        "newer_kept": kept_right / distinct_pairs if distinct_pairs else None,
        "technical_high_medium": share(technical, ("high", "medium")),
        "admin_high_medium": share(by_relevance["admin"], ("high", "medium")),
        "off_high_medium": share(by_relevance["off"], ("high", "medium")),
        "technical_high": share(technical, ("high",)),
    }


def meets(name: str, value: float | None) -> bool | None:
    if name not in TARGETS or value is None:
        return None
    op, target = TARGETS[name]
    return value >= target - 1e-9 if op == ">=" else value <= target + 1e-9
