"""Scoring: relevance, redundancy, value and domain coverage for every document, in one streaming pass.

The whole ranking on a page, after arxiv-sanity's compute.py: a TF-IDF model fitted over the corpus with
the settings below, a topic profile projected into the same space, and (when the user marked documents
good or bad) a logistic regression over the TF-IDF features. Texts stream from SQLite in batches straight
into ``fit_transform``; while each passes by, the same pass reads its concepts, profile terms, depth,
source kind and MinHash signature, so no text is held in memory twice.

    relevance  = profile score (weighted profile terms present, saturating × TF-IDF cosine to the profile)
                 blended 50/50 with the label model's probability when labels exist
    redundancy = containment in a higher-ranked near-duplicate (pipeline.redundancy, MinHash LSH)
    value      = 100 × (0.45 relevance + 0.25 depth + 0.15 uniqueness + 0.15 source prior)
                     × (0.5 + 0.5 × min(1, relevance / 0.5))     # deep but off-topic is not valuable
                     × substance                                  # a link list has little content of its own
    domains    = coverage of each taxonomy domain (pipeline.coverage)

Every part lands in ``scores.components`` with the reasons behind it, for ``shijie show``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import coverage, redundancy
from .choices import Level
from .errors import EmptyCorpusError
from .features import depth, loads_dict, loads_list, source_kind, substance
from .profile import Profile, default_profile
from .redundancy import redundancy_label
from .store import Scores, active_documents, document_labels, scoring_rows, write_scores
from .taxonomy import Domain, load_taxonomy
from .terms import PhraseCounter, tokens

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

    from .store import Database

# scikit-learn is imported where it is used: importing it costs ~2 s, which every CLI command would pay

# -- the settings, at a glance ---------------------------------------------------------------------------
TOKEN_PATTERN = (  # a CJK character alone, or a word of 2+ letters/digits starting with a letter
    r"(?u)[\u3400-\u4dbf\u4e00-\u9fff]|[^\W\d\u3400-\u4dbf\u4e00-\u9fff][^\W\u3400-\u4dbf\u4e00-\u9fff]+"
)
TFIDF = dict(
    lowercase=True,
    strip_accents="unicode",
    stop_words="english",
    token_pattern=TOKEN_PATTERN,
    ngram_range=(1, 2),  # words and word pairs ("shared memory", "tensor core")
    sublinear_tf=True,  # 1 + log(tf): the 40th "kernel" says little more than the 10th
    max_features=500_000,
    dtype=np.float32,
)
SMALL_CORPUS = 20  # below this many documents every term is kept (min_df=1, max_df=1.0)
MIN_DF = 2  # a term seen in one document only is a typo, an id or a name
MAX_DF = 0.9  # a term in 90% of the documents tells none of them apart
BATCH = 500  # documents read from SQLite per round trip

SATURATION_K, SATURATION_B, REFERENCE_WORDS = 1.2, 0.3, 1000  # BM25's k1 and b, for profile terms
EVIDENCE_FULL = 0.15  # profile-term evidence (share of the profile's weight, saturated) that counts as 63% on topic
COSINE_FULL = 0.15  # TF-IDF cosine to the profile that counts as 63% on topic
EVIDENCE_SHARE = 0.7  # the profile score is 70% term evidence, 30% cosine
LABEL_SHARE = 0.5  # with labels, the model's probability is half the relevance
HIGH, MEDIUM = 0.55, 0.3  # relevance_score thresholds of relevance_label (redundancy's: redundancy.py)
VALUE_WEIGHTS = {"relevance": 0.45, "depth": 0.25, "uniqueness": 0.15, "source": 0.15}
RELEVANCE_GATE = 0.5  # below this relevance the value is scaled down toward half
TOP_TERMS = 8


@dataclass
class _Doc:
    """What the streaming pass keeps of one document: figures, never the text."""

    id: int
    url: str
    title: str
    words: int
    profile_hits: dict[str, int]
    concepts: dict[str, dict[str, int]]
    depth: object
    source: object
    substance: object
    signature: object
    label: str | None = None
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredDocument(Scores):
    id: int
    url: str
    title: str
    duplicate_of_url: str | None

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "url": self.url,
            "title": self.title,
            "value": self.value,
            "relevance": self.relevance,
            "relevance_score": self.relevance_score,
            "redundancy": self.redundancy,
            "redundancy_score": self.redundancy_score,
            "duplicate_of": self.duplicate_of_url,
            "duplicate_of_id": self.duplicate_of,
            "domains": self.domains,
        }


def relevance_label(score: float) -> Level:
    return Level.high if score >= HIGH else Level.medium if score >= MEDIUM else Level.low


def make_vectorizer(n_docs: int) -> TfidfVectorizer:
    from sklearn.feature_extraction.text import TfidfVectorizer

    small = n_docs < SMALL_CORPUS
    return TfidfVectorizer(min_df=1 if small else MIN_DF, max_df=1.0 if small else MAX_DF, **TFIDF)


def _saturate(count: int, words: int) -> float:
    # BM25-style saturation, against a fixed reference length so the figure does not depend on the corpus
    k = SATURATION_K * (1 - SATURATION_B + SATURATION_B * words / REFERENCE_WORDS)
    return count / (count + k)


def score_corpus(
    db: Database,
    profile: Profile | None = None,
    domains: list[Domain] | None = None,
    timings: dict[str, float] | None = None,
) -> list[ScoredDocument]:
    """Scores every document that has its content (discarded ones too); writes ``scores``; returns them
    best first.

    ``timings``, when given, receives the seconds each stage took (for benchmarks/score_bench.py).
    """
    timings = {} if timings is None else timings
    clock = time.perf_counter()
    features_s = 0.0
    n_docs = active_documents(db)
    if n_docs == 0:
        raise EmptyCorpusError("no documents to score: crawl first (shijie crawl)")
    profile = profile or default_profile()
    domains = domains if domains is not None else load_taxonomy()

    # one counter over the profile's terms and every domain's concepts: one pass over each document
    profile_terms = {t for t, w in profile.terms.items() if w != 0}
    concept_counter = PhraseCounter([*profile_terms, *(c for d in domains for c in d.concepts)])
    domains_of: dict[str, list[str]] = {}
    for d in domains:
        for c in d.concepts:
            domains_of.setdefault(c, []).append(d.id)
    docs: list[_Doc] = []

    def texts() -> Iterator[str]:
        # one pass: hand each text to TF-IDF, keep only its figures
        nonlocal features_s
        for doc_id, url, title, kind, text, headings, code_blocks, metadata in scoring_rows(db, BATCH):
            started = time.perf_counter()
            heads, code, meta = loads_list(headings), loads_list(code_blocks), loads_dict(metadata)
            full = f"{title or ''}\n{text}"
            toks = tokens(full)
            found = concept_counter.count(toks)
            concepts: dict[str, dict[str, int]] = {}
            hits = distinct = 0
            for concept, n in found.items():
                for domain_id in domains_of.get(concept, ()):
                    concepts.setdefault(domain_id, {})[concept] = n
                if concept in domains_of:
                    hits, distinct = hits + n, distinct + 1
            own = substance(text)
            docs.append(
                _Doc(
                    id=doc_id,
                    url=url,
                    title=title or url,
                    words=len(toks),
                    profile_hits={t: n for t, n in found.items() if t in profile_terms},
                    concepts=concepts,
                    depth=depth(text, len(toks), heads, code, hits, distinct),
                    source=source_kind(title or "", heads, text, kind, meta, toks, own.list_share),
                    substance=own,
                    signature=redundancy.signature(toks),
                )
            )
            features_s += time.perf_counter() - started
            yield full

    vectorizer = make_vectorizer(n_docs)
    try:
        matrix = vectorizer.fit_transform(texts())
        vocabulary = vectorizer.get_feature_names_out()
    except ValueError as exc:
        if "empty vocabulary" in str(exc):  # not one word in any document: nothing to rank them by
            raise EmptyCorpusError(
                f"nothing to score: the {n_docs} document(s) hold no words, only numbers, symbols or stop words;"
                " crawl documents with text"
            ) from None
        # every term pruned by min_df / max_df: relevance rests on the profile's terms alone
        if len(docs) < n_docs:
            for _ in texts():
                pass
        matrix, vocabulary = None, np.array([], dtype=object)

    timings["features"] = features_s
    timings["tfidf"] = time.perf_counter() - clock - features_s
    clock = time.perf_counter()
    labels = document_labels(db)
    for doc in docs:
        doc.label = labels.get(doc.id)

    cosine, profile_vector = _profile_cosine(vectorizer, matrix, vocabulary, profile)
    if matrix is None:
        cosine = np.zeros(len(docs))  # one figure per document even when TF-IDF has none
    model_p, model_terms = _label_model(matrix, vocabulary, docs)
    positive_weight = sum(w for w in profile.terms.values() if w > 0) or 1.0

    pre_value: list[float] = []
    for i, doc in enumerate(docs):
        evidence = sum(profile.terms[t] * _saturate(n, doc.words) for t, n in doc.profile_hits.items())
        evidence = max(0.0, evidence / positive_weight)
        # 1 - exp(-x / full): 0.63 at "full", saturating smoothly so the ranking keeps its order at the top
        profile_score = EVIDENCE_SHARE * (1 - math.exp(-evidence / EVIDENCE_FULL)) + (1 - EVIDENCE_SHARE) * (
            1 - math.exp(-max(0.0, float(cosine[i])) / COSINE_FULL)
        )
        relevance = profile_score
        if model_p is not None:
            relevance = (1 - LABEL_SHARE) * profile_score + LABEL_SHARE * float(model_p[i])
        doc.extra["relevance"] = {
            "score": round(relevance, 4),
            "profile_score": round(profile_score, 4),
            "term_evidence": round(evidence, 4),
            "cosine": round(float(cosine[i]), 4),
            "label_model": None if model_p is None else round(float(model_p[i]), 4),
            "label": doc.label,
            "matched_terms": _matched_terms(doc, profile),
            "top_terms": _top_terms(matrix, i, profile_vector, vocabulary),
            "label_model_terms": _top_terms(matrix, i, model_terms, vocabulary) if model_terms is not None else [],
        }
        pre_value.append(_value(relevance, doc.depth.score, 1.0, doc.source.prior, doc.substance.score)[0])

    timings["relevance"] = time.perf_counter() - clock
    clock = time.perf_counter()
    ranked = sorted(range(len(docs)), key=lambda i: (-pre_value[i], docs[i].id))
    repeats = redundancy.measure([docs[i].id for i in ranked], {d.id: d.signature for d in docs if d.signature})
    timings["redundancy_lsh"] = time.perf_counter() - clock
    clock = time.perf_counter()
    url_of = {d.id: d.url for d in docs}

    scored = []
    now = time.time()
    for doc in docs:
        rep = repeats[doc.id]
        relevance = doc.extra["relevance"]["score"]
        value, parts = _value(relevance, doc.depth.score, 1.0 - rep.score, doc.source.prior, doc.substance.score)
        domain_cov = coverage.document_coverage(doc.concepts, domains)
        components = {
            "value": parts,
            "relevance": doc.extra["relevance"],
            "depth": {"score": doc.depth.score, "parts": doc.depth.parts, "reasons": doc.depth.reasons},
            "uniqueness": {
                "score": round(1.0 - rep.score, 4),
                "redundancy": rep.score,
                "jaccard": rep.jaccard,
                "duplicate_of": rep.duplicate_of,
                "duplicate_of_url": url_of.get(rep.duplicate_of),
                "method": f"MinHash LSH over {redundancy.SHINGLE_WORDS}-word shingles, "
                f"candidates at Jaccard >= {redundancy.CANDIDATE_JACCARD}, containment in a higher-ranked document",
            },
            "source": {"kind": doc.source.kind, "prior": doc.source.prior, "reasons": doc.source.reasons},
            "substance": {
                "score": doc.substance.score,
                "list_share": doc.substance.list_share,
                "reasons": doc.substance.reasons,
            },
            "concepts": doc.concepts,
            "words": doc.words,
        }
        scored.append(
            ScoredDocument(
                id=doc.id,
                url=doc.url,
                title=doc.title,
                value=value,
                relevance=relevance_label(relevance),
                relevance_score=round(relevance, 4),
                redundancy=redundancy_label(rep.score),
                redundancy_score=rep.score,
                duplicate_of=rep.duplicate_of,
                duplicate_of_url=url_of.get(rep.duplicate_of),
                domains=domain_cov,
                components=components,
            )
        )
    _write(db, scored, profile, now)
    timings["value_coverage_write"] = time.perf_counter() - clock
    return sorted(scored, key=lambda s: (-s.value, -s.relevance_score, s.id))


def _value(relevance: float, depth_score: float, uniqueness: float, prior: float, own: float) -> tuple[int, dict]:
    figures = {"relevance": relevance, "depth": depth_score, "uniqueness": uniqueness, "source": prior}
    base = sum(VALUE_WEIGHTS[k] * v for k, v in figures.items())
    # off-topic pages and link lists are scaled down whatever their other figures
    gate = (0.5 + 0.5 * min(1.0, relevance / RELEVANCE_GATE)) * own
    value = round(100 * base * gate)
    parts = {
        k: {"figure": round(v, 4), "weight": VALUE_WEIGHTS[k], "points": round(100 * VALUE_WEIGHTS[k] * v * gate, 1)}
        for k, v in figures.items()
    }
    parts["relevance_gate"] = round(gate / own, 4)
    parts["substance"] = round(own, 4)
    parts["total"] = value
    return value, parts


def _profile_cosine(vectorizer, matrix, vocabulary, profile: Profile):
    """Cosine of every document to the profile: its text's TF-IDF vector plus its weighted terms."""
    n = 0 if matrix is None else matrix.shape[0]
    if matrix is None or len(vocabulary) == 0:
        return np.zeros(n), None
    vector = np.zeros(len(vocabulary), dtype=np.float64)
    if profile.text:
        vector += vectorizer.transform([profile.text]).toarray()[0]
    index = vectorizer.vocabulary_
    analyzer = vectorizer.build_analyzer()
    term_vector = np.zeros_like(vector)
    for term, weight in profile.terms.items():
        features = [f for f in analyzer(term) if f in index]
        # a phrase longer than two words lives in the space as its word pairs
        longest = max((f.count(" ") for f in features), default=0)
        for f in features:
            if f.count(" ") == longest:
                term_vector[index[f]] += weight * vectorizer.idf_[index[f]]
    if np.linalg.norm(term_vector) > 0:
        vector = vector / (np.linalg.norm(vector) or 1.0) + term_vector / np.linalg.norm(term_vector)
    norm = np.linalg.norm(vector)
    if norm == 0:
        return np.zeros(n), None
    vector /= norm
    return np.asarray(matrix @ vector).ravel(), vector


def _label_model(matrix, vocabulary, docs: list[_Doc]):
    """arxiv-sanity's idea: a linear model over TF-IDF from the user's good/bad marks, when there are any.

    Good against bad when both exist; good against everything unmarked (or everything unmarked against
    bad) when only one kind exists.
    """
    if matrix is None or len(vocabulary) == 0:
        return None, None
    good = [i for i, d in enumerate(docs) if d.label == "good"]
    bad = [i for i, d in enumerate(docs) if d.label == "bad"]
    if not good and not bad:
        return None, None
    unmarked = [i for i, d in enumerate(docs) if d.label is None]
    positives, negatives = good or unmarked, bad or unmarked
    if not positives or not negatives:
        return None, None
    rows = positives + negatives
    y = np.array([1] * len(positives) + [0] * len(negatives))
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=10.0, class_weight="balanced", solver="liblinear", random_state=0)
    model.fit(matrix[rows], y)
    return model.predict_proba(matrix)[:, 1], model.coef_[0]


def _top_terms(matrix, i: int, weights, vocabulary) -> list[dict]:
    if matrix is None or weights is None:
        return []
    row = matrix.getrow(i)
    if row.nnz == 0:
        return []
    contributions = row.data * weights[row.indices]
    order = np.argsort(-contributions, kind="stable")[:TOP_TERMS]
    return [
        {"term": str(vocabulary[row.indices[j]]), "weight": round(float(contributions[j]), 4)}
        for j in order
        if contributions[j] > 0
    ]


def _matched_terms(doc: _Doc, profile: Profile) -> list[dict]:
    found = [(t, c, profile.terms.get(t, 0.0)) for t, c in doc.profile_hits.items()]
    found.sort(key=lambda x: (-abs(x[2]) * _saturate(x[1], doc.words), x[0]))
    return [{"term": t, "count": c, "weight": w} for t, c, w in found[:TOP_TERMS]]


def _write(db: Database, scored: list[ScoredDocument], profile: Profile, now: float) -> None:
    write_scores(db, ({"document_id": s.id, **s.columns(), "topic": profile.name, "scored_at": now} for s in scored))
