"""Domain coverage of one document, and domain mastery of the curated corpus.

Coverage (per document, 0..1 per domain): the weighted share of the domain's concept space the document
discusses, each concept counting fully once it is mentioned ``SUBSTANTIVE_MENTIONS`` times (a passing
mention counts a third), relative to ``FOCUSED_SHARE`` of the space: a document that substantively covers
a fifth of a domain's concepts is a document about that domain.

Mastery (of the kept corpus, 0..1 per domain): how much of each domain's concept space the curated corpus
covers *with depth*. A concept is mastered when ``DEPTH_DOCUMENTS`` kept documents each discuss it
substantively (mentions, scaled by the document's technical depth); one shallow mention is a small fraction
of it. Domain mastery is the weighted mean over its concepts, overall mastery the mean over domains. Adding
more copies of the same shallow page cannot raise mastery past what depth allows, and a thousand pages on
one concept master one concept, not the domain.

``mastery(db)`` is the one definition the CLI, curation and the skills all use: it reads the kept
documents' concept counts and depth (what scoring stored in ``scores.components``) through
``pipeline.store.kept_concepts`` and applies ``domain_mastery`` over the taxonomy.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .store import kept_concepts
from .taxonomy import Domain, load_taxonomy

if TYPE_CHECKING:
    from .store import Database

ConceptCounts = Mapping[str, Mapping[str, int]]  # {domain: {concept: mentions}}


@dataclass(frozen=True)
class Mastery:
    overall: float
    domains: dict[str, float]


SUBSTANTIVE_MENTIONS = 3
FOCUSED_SHARE = 0.2
DEPTH_DOCUMENTS = 3.0


def _substance(count: int) -> float:
    return min(1.0, count / SUBSTANTIVE_MENTIONS)


def document_coverage(concept_counts: ConceptCounts, domains: Iterable[Domain]) -> dict[str, float]:
    """``concept_counts``: {domain: {concept: mentions}} → {domain: 0..1}."""
    coverage = {}
    for domain in domains:
        counts = concept_counts.get(domain.id, {})
        total = _total_weight(domain)
        covered = sum(domain.weight(c) * _substance(n) for c, n in counts.items())
        coverage[domain.id] = round(min(1.0, covered / (FOCUSED_SHARE * total)), 4) if total else 0.0
    return coverage


_totals: dict[Domain, float] = {}


def _total_weight(domain: Domain) -> float:
    total = _totals.get(domain)
    if total is None:
        total = _totals[domain] = sum(domain.weight(c) for c in domain.concepts)
    return total


def mastery(db: Database, kept: Collection[int] | None = None) -> Mastery:
    """Overall and per-domain mastery of the kept corpus (0..1); zero before any curation. ``kept``: of
    the corpus these documents would make instead (what ``curate --dry-run`` reports)."""
    per_domain = domain_mastery(kept_concepts(db, kept), load_taxonomy())
    return Mastery(overall(per_domain), per_domain)


def domain_mastery(kept: Iterable[tuple[ConceptCounts, float]], domains: list[Domain]) -> dict[str, float]:
    """``kept``: (concept counts by domain, document depth 0..1) per kept document → {domain: 0..1}."""
    evidence: dict[str, dict[str, float]] = {d.id: {} for d in domains}
    for concept_counts, depth in kept:
        # a shallow document's mentions weigh half as much as a deep one's
        scale = 0.5 + 0.5 * max(0.0, min(1.0, depth))
        for domain_id, counts in concept_counts.items():
            bucket = evidence.get(domain_id)
            if bucket is None:
                continue
            for concept, n in counts.items():
                bucket[concept] = bucket.get(concept, 0.0) + _substance(n) * scale
    result = {}
    for domain in domains:
        total = sum(domain.weight(c) for c in domain.concepts)
        got = sum(
            domain.weight(c) * min(1.0, evidence[domain.id].get(c, 0.0) / DEPTH_DOCUMENTS) for c in domain.concepts
        )
        result[domain.id] = round(got / total, 4) if total else 0.0
    return result


def overall(per_domain: Mapping[str, float]) -> float:
    return round(sum(per_domain.values()) / len(per_domain), 4) if per_domain else 0.0
