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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .taxonomy import Domain

SUBSTANTIVE_MENTIONS = 3
FOCUSED_SHARE = 0.2
DEPTH_DOCUMENTS = 3.0


def _substance(count: int) -> float:
    return min(1.0, count / SUBSTANTIVE_MENTIONS)


def document_coverage(concept_counts: Mapping[str, Mapping[str, int]], domains: Iterable[Domain]) -> dict[str, float]:
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


def mastery(kept: Iterable[tuple[Mapping[str, Mapping[str, int]], float]], domains: list[Domain]) -> dict[str, float]:
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


def overall(domain_mastery: Mapping[str, float]) -> float:
    return round(sum(domain_mastery.values()) / len(domain_mastery), 4) if domain_mastery else 0.0
