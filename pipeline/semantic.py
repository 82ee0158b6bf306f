"""Semantic redundancy: how much of a document's weighted vocabulary documents ranked above it already hold.

pipeline.redundancy catches textual near-copies (shared 4-word shingles). A page rewritten with its
sentences in another order and words changed, or stitched together from two pages, shares few shingles but
the same weighted words. This module measures that on the L2-normalised TF-IDF rows the scorer already has
(single words only, rows normalised again: a rewording breaks word pairs first). Each document's
``SIGNATURE_TERMS`` top-weighted words are its *top terms*; their squared weights, as shares, its mass.

    explained(A) = share of A's top-term mass that is among the top terms of its best (greedy, up to
                   ``NEIGHBOURS`` = 2, each adding at least ``MIN_GAIN``) higher-ranked neighbours

Two neighbours, not more: "retells two pages" is what a restatement is; with three, a section's index page
(whose top words are its children's titles) is "explained" by its children 0.8-0.9 on the embedded corpus.

Only the neighbours' *top* terms count, so a long page that mentions every word of the field does not
"explain" everything; a page that retells two others in part (a subset of each) is still explained ~1,
which a projection onto the neighbours' span would not do (a subset is not in the direction of the whole).

Candidates, sub-quadratic: the top-term set of each document is summarized by a MinHash and indexed by
datasketch's MinHashLSH (banding as in the textual stage, 128 permutations, at Jaccard
``CANDIDATE_JACCARD``: a restatement shares ~0.3 of its top words with each page it retells); only
candidate pairs are compared. A random-hyperplane (SimHash) LSH was considered and rejected: a pair at
cosine 0.6 agrees on a hyperplane bit with probability 0.70 and an unrelated pair with ~0.5, so bands long
enough to keep buckets small at 100k documents (16+ bits) find a 0.6 pair with probability 0.003 per band.

Threshold: ``semantic = clamp((explained - FLOOR) / (1 - FLOOR))`` with ``FLOOR = 0.6``, so that
``explained = 0.8`` maps onto the textual stage's "high" line (0.5) and 0.6 or less counts nothing.
``redundancy_score = max(textual, semantic)`` (pipeline.score). On the embedded corpus distinct pages on
one topic are explained at most 0.59 (a Chinese note: single CJK characters are shared words), the
experts' top ten at most 0.53 (the FlashAttention-2 lecture, the paper summary and the Triton backward
blog: 0-0.15, mostly not even candidates of each other), a navigation page over its children 0.75, the
planted near-copies 0.90-0.92; a hand-written restatement of two pages (tests/test_score.py) 1.0. The
margin (0.75 against 0.8) is thin; a false "high" costs a page its uniqueness points (15% of value), never
its place: curation groups textual copies only (pipeline.curate).

What this does NOT catch: a paraphrase in genuinely different words. The embedded corpus's generic intro
lecture (retelling lectures 3 and 5 in simpler words) shares too few top words with them to be even a
candidate (with a lower candidate threshold: explained 0.21, no more than distinct pages); every
bag-of-words measure tried (cosine, projection onto the best 1-3 neighbours, coverage of the top terms,
taxonomy-concept coverage, sentence-level cosine) ranks it among distinct pages (see
docs/perf.md). That needs a representation of meaning, not of words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from datasketch import LeanMinHash, MinHash, MinHashLSH

SIGNATURE_TERMS = 64  # top-weighted single-word terms per document that form its candidate-finding set
NUM_PERM = 128
CANDIDATE_JACCARD = 0.2
LSH_WEIGHTS = (0.2, 0.8)  # favour recall: a false candidate only costs one sparse dot product
NEIGHBOURS = 2
FLOOR = 0.6
MIN_GAIN = 0.1  # a neighbour counts only when it covers a tenth of the document's top-term mass
_SEED = 2

_template = MinHash(num_perm=NUM_PERM, seed=_SEED)


@dataclass(frozen=True)
class Restatement:
    score: float  # 0..1 on the textual stage's scale (0.5 = high)
    explained: float  # projection norm onto the neighbours' span
    neighbours: tuple[int, ...]  # document ids, the most similar first
    gains: tuple[float, ...]  # the share of top-term mass each neighbour added


NONE = Restatement(0.0, 0.0, (), ())


def _identity(value: int) -> int:
    return value


def _signature(term_ids: np.ndarray) -> LeanMinHash:
    minhash = MinHash(num_perm=NUM_PERM, seed=_SEED, hashfunc=_identity, permutations=_template.permutations,
                      scheme=_template.scheme)
    # feature indices are distinct small integers; spread them over 32 bits before the permutations
    minhash.update_batch(((term_ids.astype(np.uint64) * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)).tolist())
    return LeanMinHash(minhash)


def score_of(explained: float) -> float:
    return max(0.0, min(1.0, (explained - FLOOR) / (1.0 - FLOOR)))


def measure(matrix, ranked_rows: Sequence[int], ids: Sequence[int], words=None) -> dict[int, Restatement]:
    """Semantic redundancy of each document against those ranked above it.

    ``matrix``: L2-normalised TF-IDF rows (scipy CSR); ``ranked_rows``: row indices, best first;
    ``ids``: document id of each row; ``words``: boolean mask of the single-word features (the top-term
    sets are made of words: a rewording breaks word pairs, and a pair seen in one page only has the
    highest IDF, so pairs would crowd a page's top terms with exactly what a restatement changes).
    Returns {document id: Restatement}.
    """
    result = {ids[r]: NONE for r in ranked_rows}
    if matrix is None or matrix.shape[1] == 0:
        return result
    matrix = matrix.tocsr()
    if words is not None:  # single words only, each row normalised again
        from sklearn.preprocessing import normalize

        matrix = normalize(matrix[:, np.flatnonzero(words)], copy=False)
    lsh = MinHashLSH(threshold=CANDIDATE_JACCARD, num_perm=NUM_PERM, weights=LSH_WEIGHTS)
    signatures: dict[int, LeanMinHash] = {}
    top_terms: dict[int, np.ndarray] = {}  # sorted feature ids of each row's top terms
    top_mass: dict[int, np.ndarray] = {}  # their squared weights, as a share of the top terms' total
    for r in ranked_rows:
        start, end = matrix.indptr[r], matrix.indptr[r + 1]
        if end == start:
            continue
        data, indices = matrix.data[start:end], matrix.indices[start:end]
        if len(data) > SIGNATURE_TERMS:
            keep = np.argpartition(-data, SIGNATURE_TERMS)[:SIGNATURE_TERMS]
            data, indices = data[keep], indices[keep]
        order = np.argsort(indices)
        top_terms[r] = indices[order].astype(np.int32)
        mass = data[order].astype(np.float64) ** 2
        top_mass[r] = (mass / mass.sum()).astype(np.float32)
        signatures[r] = _signature(indices)
        lsh.insert(r, signatures[r], check_duplication=False)
    rank = {r: position for position, r in enumerate(ranked_rows)}
    for r in ranked_rows:
        if r not in signatures:
            continue
        higher = [o for o in lsh.query(signatures[r]) if rank[o] < rank[r]]
        if not higher:
            continue
        mine = top_terms[r]
        shared = {o: np.isin(mine, top_terms[o], assume_unique=True) for o in higher}
        covered = np.zeros(len(mine), dtype=bool)
        chosen: list[int] = []
        gains: list[float] = []
        for _ in range(NEIGHBOURS):  # greedy: the neighbour that covers most of what is still uncovered
            gain, best = max(((float(top_mass[r][shared[o] & ~covered].sum()), o) for o in higher if o not in chosen),
                             key=lambda x: (x[0], -rank[x[1]]), default=(0.0, None))
            if best is None or gain < MIN_GAIN:
                break
            chosen.append(best)
            gains.append(gain)
            covered |= shared[best]
        if not chosen:
            continue
        explained = float(top_mass[r][covered].sum())
        result[ids[r]] = Restatement(round(score_of(explained), 4), round(explained, 4),
                                     tuple(ids[o] for o in chosen), tuple(round(g, 4) for g in gains))
    return result
