"""Scoring: the learned Vision over every stored document (discarded ones too), its figures written to ``scores``.

``score_corpus(db, profile)`` streams the documents out of the store (``store.scoring_rows``, twice: the copies
stage reads the texts again) into ``pipeline.vision.scorer.score_rows`` and writes what it returns
(``store.write_scores``). The whole method is in ``pipeline/vision/scorer.py``; in short:

    relevance   the topic profile's terms on Snowball stems, their senses told apart, and the TF-IDF cosine to
                the profile in the corpus's space; for the default profile blended 50/50 with the learned
                topic model (logistic regression over stem n-grams, trained on expert labels); with the
                user's good/bad marks, 50/50 with a model of the marks (arxiv-sanity)
    type        changelog, licence, install, link list, guide, tutorial, paper, … from text and structure
    value       a linear model over named features (type, explanation, code, math, measurements, headings,
                length, relevance, what the words suggest), trained on the expert tiers; ± the marks;
                scaled down below the "medium" relevance cut; a repeat keeps its content's value (its
                redundancy is its own figure, and curation drops repeats by it)
    redundancy  containment in the copy preferred to keep (rendered, newer, more complete), on text without
                boilerplate and on code blocks; never decided by rank
    domains     coverage of each taxonomy domain (pipeline.coverage)

Relevance labels cut the score where the labelled set puts "a kernel engineer would read this" (the model
file's calibrated cuts: one pair for the default profile, one for the profile score alone, which an other
``--topic`` / ``--profile`` gets). Every figure lands in ``scores.components`` with its reasons, for
``shijie show``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import EmptyCorpusError
from .profile import Profile, default_profile
from .store import ScoredDocument, active_documents, document_labels, scoring_rows, write_scores
from .vision.topic import relevance_label

if TYPE_CHECKING:
    from .store import Database
    from .taxonomy import Domain
    from .vision.value_model import VisionModel

__all__ = ["BATCH", "ScoredDocument", "relevance_label", "score_corpus"]

BATCH = 500  # documents read from SQLite per round trip


def score_corpus(
    db: Database,
    profile: Profile | None = None,
    domains: list[Domain] | None = None,
    timings: dict[str, float] | None = None,
    model: VisionModel | None = None,
) -> list[ScoredDocument]:
    """Scores every document that has its content (discarded ones too); writes ``scores``; returns them
    best first (a repeat by its content's value: its redundancy tells it apart).

    ``timings``, when given, receives the seconds each stage took (for benchmarks/score_bench.py).
    """
    import time

    from .vision.scorer import score_rows
    from .vision.value_model import load_model

    n_docs = active_documents(db)
    if n_docs == 0:
        raise EmptyCorpusError("no documents to score: crawl first (shijie crawl)")
    profile = profile or default_profile()
    rows: Callable = lambda: scoring_rows(db, BATCH)  # noqa: E731 (called twice: two passes)
    scored = score_rows(rows, n_docs, profile, domains, model or load_model(), document_labels(db), timings)
    clock = time.perf_counter()
    now = time.time()
    write_scores(db, ({"document_id": s.id, **s.columns(), "topic": profile.name, "scored_at": now} for s in scored))
    if timings is not None:
        timings["write"] = time.perf_counter() - clock
    return scored
