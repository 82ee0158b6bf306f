"""The learned parts of the Vision, applied: word models, the document type, the value, each explained.

The weights live in ``data/vision/model.json`` (derived figures only: a vocabulary of stems and stem pairs,
their IDF and coefficients, feature means and scales, coefficients; no text), written by
``tools/train_vision.py`` from the train split of the labelled set and tuned on dev.

    words(features)      the document's vector over the model's vocabulary: (1 + log tf) × idf, L2-normalized
                         over the vocabulary, computed from the document alone (no corpus statistics), so a
                         figure means the same in a corpus of 10 documents or of 100k
    topic_probability    logistic regression over that vector: P(on topic | words), the default profile's
                         learned complement (arxiv-sanity's SVM over TF-IDF, with our labels as the marks)
    words_value          ridge regression over that vector: the value its words suggest (tier A 1, B 0.67,
                         technical C 0.33, administrative or off-topic 0)
    doc_type             multinomial logistic regression over the standardized structure figures
                         (signals.Structure) and, since phase 27, the words' vector above (``term_coef``: a
                         row of class coefficients per vocabulary term): a page's form tells a change log or a
                         licence, its sentences a guide from a tutorial or an API reference
    value                ridge regression over named features (structure, type probabilities, words value,
                         term evidence, concepts; the relevance, since phase 9, only through the scorer's
                         gate): value = 100 × (intercept + Σ coef_j (x_j − μ_j) / σ_j),
                         kept within 0..100 (``kept_within``: a soft knee above 80, so the best documents keep
                         their order instead of all reading 100). Each term of the sum is a contribution in points, relative to the
                         average training document: what ``shijie show`` lists (in words: shijie.text,
                         ``feature.*``). Standardized features are clipped to ±clip (the model file's).

Every model is linear, so every figure splits into per-feature (and per-word) contributions.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import DataError
from ..resources import data_dir, read_data_file
from . import analysis
from .labelled import TYPES

TOP = 8
ADMIN_TYPES = frozenset(
    ("changelog", "licence", "install", "contributing", "link_list", "toc", "marketing", "generated", "agent_notes")
)


def decide_type(probs: np.ndarray, classes: list[str] | tuple[str, ...]) -> str:
    """The type a page is shown with, from the type model's probabilities: first administrative or content, by
    which of the two groups is the more probable together, then the most probable type of that group. A plain
    argmax over the classes calls a page administrative on a plurality of a few per cent: nine administrative
    types split the rest of the mass among content types, so a short guide read as 19% agent notes, 15% guide,
    14% Q&A and 12% other would be shown as agent notes though it is 58% content. The value reads the
    probabilities themselves (the administrative gate), never this decision."""
    probs = np.asarray(probs, dtype=float)
    admin = np.array([c in ADMIN_TYPES for c in classes])
    group = admin if probs[admin].sum() > probs[~admin].sum() else ~admin
    return classes[int(np.flatnonzero(group)[np.argmax(probs[group])])]


# value features read as they stand, never against the page's source (``neighbours.relative``): what the
# page's words say of its subject. A CUDA guide's source and an MPI reference's differ in subject, and the value
# must tell them apart; the form figures, the type and the relevance (whose absolute part the relevance gate
# carries) are read against the source's other pages (training.value_features, scorer.score_rows). Since phase 13
# the words value is a second column too, ``source_words_value``, read against the source (not listed here)
ABSOLUTE = frozenset(("words_value", "term_evidence", "distinct_concepts", "concept_mentions"))
SOURCE_COPY_TYPE = "generated"


def content_types(probs: np.ndarray, classes: list[str] | tuple[str, ...], source_copy: bool) -> np.ndarray:
    """The type probabilities the value and the administrative gate read. A source copy (a Sphinx ``_sources``
    file: the URL says so) is a machine-made copy of a page, typed ``generated`` as it should be, but its
    content is the page's: the value reads it as that page, the other types renormalized without
    ``generated`` (the labels give a copy its content's tier; redundancy, not value, removes it)."""
    probs = np.asarray(probs, dtype=float)
    if not source_copy or SOURCE_COPY_TYPE not in classes:
        return probs
    out = probs.copy()
    j = list(classes).index(SOURCE_COPY_TYPE)
    rest = float(out.sum() - out[j])
    if rest <= 1e-9:
        return probs
    out[j] = 0.0
    return out / rest


@dataclass(frozen=True)
class Words:
    """A document's vector over the model vocabulary: indices and values (sparse)."""

    indices: tuple[int, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class Explained:
    score: float
    contributions: list[dict]  # {"feature"/"term", "words", "value", "points"}, largest first


def _linear(coef: list[float], words: Words) -> tuple[float, list[tuple[float, int]]]:
    parts = [(coef[i] * v, i) for i, v in zip(words.indices, words.values, strict=False)]
    return sum(p for p, _ in parts), parts


class VisionModel:
    def __init__(self, raw: dict, source: str = "model"):
        try:
            self.raw = raw
            terms = raw["terms"]
            self.vocabulary: list[str] = terms["vocabulary"]
            self.index = {t: i for i, t in enumerate(self.vocabulary)}
            self.idf: list[float] = terms["idf"]
            self.topic_coef: list[float] = terms["topic"]["coef"]
            self.topic_intercept: float = terms["topic"]["intercept"]
            self.value_coef: list[float] = terms["value"]["coef"]
            self.value_intercept: float = terms["value"]["intercept"]
            self.doctype = raw["doctype"]
            self.value = raw["value"]
            self.relevance = raw["relevance"]
            self.profile = raw["profile"]
        except (KeyError, TypeError) as exc:
            raise DataError(f"{source} is not a Vision model file (missing {exc})") from None
        if not (len(self.idf) == len(self.topic_coef) == len(self.value_coef) == len(self.vocabulary)):
            raise DataError(f"{source}: vocabulary, idf and coefficients differ in length")
        if "terms" in self.doctype.get("reads", ["structure"]):
            rows, classes = self.doctype.get("term_coef"), len(self.doctype.get("classes") or ())
            fits = isinstance(rows, list) and len(rows) == len(self.vocabulary)
            if not fits or not all(isinstance(r, list) and len(r) == classes for r in rows):
                raise DataError(
                    f"{source}: the type model reads the terms, but its term_coef is not one row of {classes} class"
                    f" coefficients for each of the {len(self.vocabulary)} vocabulary terms"
                )

    # -- words -----------------------------------------------------------------------------------------
    def words(self, features: list[str]) -> Words:
        index = self.index
        counts = Counter(f for f in features if f in index)
        if not counts:
            return Words((), ())
        pairs = [(index[f], (1 + math.log(c)) * self.idf[index[f]]) for f, c in counts.items()]
        norm = math.sqrt(sum(v * v for _, v in pairs)) or 1.0
        pairs.sort()
        return Words(tuple(i for i, _ in pairs), tuple(v / norm for _, v in pairs))

    def topic_probability(self, words: Words) -> Explained:
        total, parts = _linear(self.topic_coef, words)
        z = self.topic_intercept + total
        return Explained(1 / (1 + math.exp(-z)), self._top_terms(parts))

    def words_value(self, words: Words) -> Explained:
        total, parts = _linear(self.value_coef, words)
        return Explained(self.value_intercept + total, self._top_terms(parts))

    def _top_terms(self, parts: list[tuple[float, int]]) -> list[dict]:
        parts = sorted(parts, key=lambda p: -abs(p[0]))[:TOP]
        return [{"term": analysis.surface(self.vocabulary[i]), "weight": round(p, 4)} for p, i in parts if p]

    # -- document type ---------------------------------------------------------------------------------
    def doc_type(self, structure: dict[str, float], words: Words) -> tuple[str, dict[str, float]]:
        """The type a page is shown with and the probability of each class, from its structure figures and its
        words (``words``: the vector the topic model reads; a model file whose type model reads no terms, as
        before phase 27, reads the structure alone)."""
        d = self._doctype_arrays()
        x = (np.fromiter((structure.get(n, 0.0) for n in d["features"]), dtype=float) - d["mean"]) / d["scale"]
        if d["clip"]:  # as in training: a figure far outside the labelled documents' range counts as a rare one
            x = np.clip(x, -d["clip"], d["clip"])
        logits = d["coef"] @ x + d["intercept"]
        terms = d["term_coef"]
        if terms is not None and words.indices:  # one sparse product: the page's terms' rows, weighed by its vector
            logits += np.asarray(words.values) @ terms[np.asarray(words.indices)]
        exp = np.exp(logits - logits.max())
        p = exp / exp.sum()
        return decide_type(p, d["classes"]), dict(zip(d["classes"], p.tolist(), strict=False))

    def _doctype_arrays(self) -> dict:
        if not hasattr(self, "_doctype_np"):
            d = self.doctype
            self._doctype_np = {
                "features": d["features"],
                "classes": d["classes"],
                "clip": d.get("clip"),
                "term_coef": np.asarray(d["term_coef"], dtype=float) if "terms" in d.get("reads", ()) else None,
                **{k: np.asarray(d[k], dtype=float) for k in ("mean", "scale", "coef", "intercept")},
            }
        return self._doctype_np

    # -- value -----------------------------------------------------------------------------------------
    def value_of(self, features: dict[str, float]) -> tuple[int, dict]:
        """The value (0..100) and how it is made: ``base`` (the average labelled document), the ``TOP``
        largest ``contributions`` (feature, its value, points), the ``rest`` of the points, the ``raw`` sum."""
        v = self.value
        clip = v.get("clip")
        points = []
        for name, m, s, c in zip(v["features"], v["mean"], v["scale"], v["coef"], strict=True):
            x = features.get(name, m)
            z = (x - m) / s
            if clip:  # a figure far outside what the labelled documents showed moves the value no further
                z = max(-clip, min(clip, z))
            points.append((100 * c * z, name, x))
        base = 100 * v["intercept"]
        raw = base + sum(p for p, _, _ in points)
        points.sort(key=lambda p: -abs(p[0]))
        contributions = [{"feature": name, "value": round(x, 4), "points": round(p, 1)} for p, name, x in points[:TOP]]
        return round(kept_within(raw)), {
            "base": round(base, 1),
            "contributions": contributions,
            "rest": round(sum(p for p, _, _ in points[TOP:]), 1),
            "raw": round(raw, 2),
        }

    def cuts(self, learned: bool) -> tuple[float, float]:
        """(medium, high) relevance cuts: the default profile's (profile score blended with the learned topic
        model), or, ``learned`` False, the ones calibrated for the profile score alone (another topic)."""
        cuts = self.relevance
        if learned:
            return cuts["medium"], cuts["high"]
        return cuts.get("profile_medium", cuts["medium"]), cuts.get("profile_high", cuts["high"])

    def matches_profile(self, profile) -> bool:
        """Whether ``profile`` is the one the word models were trained with (else they stay out)."""
        return profile.name == self.profile["name"] and profile_fingerprint(profile) == self.profile["fingerprint"]


KNEE = 80.0  # above this, value approaches 100 without reaching it: the best documents keep their order


def kept_within(raw: float) -> float:
    """The model's sum on the 0–100 scale: 0 below, as it is up to ``KNEE``, then 100 − (100 − KNEE) ×
    exp(−(raw − KNEE) / (100 − KNEE)), so two excellent documents (raw 103 and 120) stay apart (94, 97)
    instead of both reading 100."""
    if raw <= KNEE:
        return max(0.0, raw)
    return 100.0 - (100.0 - KNEE) * math.exp(-(raw - KNEE) / (100.0 - KNEE))


def profile_fingerprint(profile) -> str:
    import hashlib

    body = json.dumps([profile.name, sorted(profile.terms.items())], ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def model_path() -> Path:
    return data_dir() / "vision" / "model.json"


def load_model(path: str | Path | None = None) -> VisionModel:
    path = Path(path) if path is not None else model_path()
    return _load(str(path), path.stat().st_mtime_ns if path.exists() else 0)


@lru_cache(maxsize=4)
def _load(path: str, _mtime: int) -> VisionModel:
    raw = read_data_file(path, "Vision model", fix="python tools/train_vision.py")
    return VisionModel(raw, f"Vision model {path}")


TYPE_NAMES = TYPES
