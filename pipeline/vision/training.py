"""Fitting the Vision's learned parts on the labelled set (used by tools/train_vision.py and the tests).

Samples are the labelled documents read exactly as the scorer reads a stored document
(``reading.Reader`` over the text the extractor made). The fit, on the documents it is given (since phase 6
the train, dev, test, test2, test3 and test4 splits together; since phase 7 test5 too, since phase 8 test6, since
phase 9 test7, since phase 10 test8, since phase 12 test9, since phase 14 test10, since phase 16
test11, since phase 17 test12, since phase 18 test13, since phase 19 test14, since phase 20 test15, since phase 21
test16, since phase 22 test17, since phase 23 test18, since phase 24 test19, since phase 25 test20,
since phase 26 test21, since phase 27 test22, since phase 28 test23, since phase 29 test24, since phase 30 test25,
since phase 31 test26, since phase 32 test27, since phase 33 test28,
since phase 34 test29,
since phase 35 test30,
since phase 36 test31; never test32, the held-out split):

1. vocabulary: stems and stem pairs in at least ``MIN_DF`` documents of at least ``MIN_FAMILIES`` families
   (a word only one project uses is that project's quirk, not the field's), the ``MAX_TERMS`` spread over
   most families; IDF over the documents fitted on.
2. word models over the documents' vocabulary vectors: the topic model (logistic, on topic = technical or
   administrative vs off) and the words-value model (ridge, target tier A 1, B 0.67, technical C 0.33,
   else 0); the document-type model (multinomial logistic over the standardized structure figures and, since
   phase 27, the same vocabulary vector × ``TYPE_TERMS``: what a page's sentences say, beside its form;
   ``type_inputs``).
3. the value model (ridge over named features; since phase 11 its own targets, ``VALUE_TARGET``: A 1, B 0.6,
   technical C 0.2, else 0). Its inputs for a document fitted on come from models fitted
   without that document's family (out-of-fold by family, ``FOLDS``), as they will be for an unseen corpus.
   Each family weighs 1/sqrt(size), so a large project does not set the model alone. Since phase 5 a second,
   within-family objective adds to the ridge's coefficients (``within_family``): a logistic ranking over
   pairs of technical pages of one family with different tiers (RankSVM's pairs, each family's pairs weighing
   one family), scaled so that it moves the technical pages by ``PAIR_POINTS`` points per standard deviation.
   The ridge on absolute tiers learns mostly what tells families apart (an MPI reference against a CUDA
   guide); the pairs learn what tells an A page from a C page of one source (term evidence, length, the
   explanation cues), which is what a new source needs. Same features, still one linear sum, so ``shijie
   show`` lists contributions as before. Leave-families-out over the five splits, Spearman as scored 0.655 →
   0.665 (Debian 0.520 → 0.536, GitHub 0.625 → 0.633), traps below the median unchanged (0.991). At 10 points
   0.670 (21 families better by more than 0.02, 12 worse), but the embedded corpus's "10 tips" listicle then
   reaches the curation cut (its list lines and Q&A form count within families); 5 is kept. C of the pairs'
   logistic 0.03 to 1.0 changes nothing (±0.001).
   Since phase 6 one input is the value's alone (``signals.VALUE_ONLY``, the type model does not read it):
   ``kernel_code``, the distinct kernel names a page's code holds × its code share. Leave-families-out over the
   six splits, Spearman as scored 0.666 → 0.669 (Debian 0.512 → 0.518, GitHub 0.635 → 0.638), traps unchanged
   (0.992); comment density, a source-file flag and length, glue names and links per sentence moved nothing
   (docs/perf.md, "The Vision, phase 6: value"). Since phase 18 a second, ``test_share``: the share of a page's
   lines holding a test's check (assertions, gtest macros, pytest). Each training split left out in turn (fifteen
   folds), Spearman as scored worst / mean 0.469 / 0.6513 -> 0.475 / 0.6524 (Debian 0.317 / 0.5265 -> 0.321 /
   0.5295, GitHub 0.447 / 0.6481 -> 0.447 / 0.6488), traps unchanged (docs/perf.md, "phase 18: value"). Since
   phase 22 a third, ``code_prose_turns``: how often the text turns between code and prose lines (log), code
   explained as it goes. Nineteen folds, 0.4744 / 0.6523 -> 0.4790 / 0.6526 (Debian 0.291 / 0.5369 -> 0.298 /
   0.5387), traps unchanged (docs/perf.md, "phase 22: value").
   Since phase 7 the value's inputs are read against the page's source (``source_relative``: each figure moved
   by its source's offset from the corpus, ``neighbours.relative``), all but what the words say of the subject
   (``value_model.ABSOLUTE``), and a Sphinx source copy's type as its content's (``value_model.content_types``).
   The value is compared across sources: read alone, a source whose pages all share a form (a generator's markup,
   long tables, every page typed alike) was valued high or low as a whole. Each training split left out in turn,
   Spearman as scored mean 0.634 -> 0.645, worst split (test5) 0.411 -> 0.452 (docs/perf.md, phase 7: value).
4. relevance labels, on the out-of-fold relevance of every document fitted on (since phase 6 moved towards the
   other pages of its source, ``lifted``, as the scorer moves it; since phase 7 the learned topic probability
   counts × ``topic.learned_weight``, since phase 11 × ``topic.learned_share``, as in the scorer): ``medium``
   at the lowest relevance that at most ``OFF_MEDIUM`` of the off-topic documents reach, ``high`` at the
   lowest that at most ``OFF_HIGH`` of off-topic and ``ADMIN_HIGH`` of the administrative ones reach (high:
   what a kernel engineer would read; administrative pages about the same tools stay below it). The same rule
   gives a
   second pair for the profile score alone, which a ``--topic`` or ``--profile`` of the user's gets (the
   learned topic model knows the default topic only). ``OFF_MEDIUM`` is 5% since phase 4 (4% before): on the
   leave-families-out figures over the four splits, 4% left technical pages at "medium" or above at 0.783 and
   off-topic ones at 3.6%; 5% gives 0.797 and 3.6% (cuts set by an inner out-of-fold pass sit above those the
   held-out families need, so the issue's "≤ 5% off-topic" holds out of fold with the rule at 5%).

The regularisation strengths were chosen on dev in phase 1 (tools/train_vision.py ``--tune`` chooses again).
``level_shares`` gives the high/medium shares at given cuts, for the leave-families-out figures.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..profile import Profile
from ..taxonomy import load_taxonomy
from . import neighbours, signals, topic
from .evaluate import TIER_RANK, TRAP_TYPES, auc, spearman
from .labelled import TYPES, Label, LoadedDocument
from .reading import Reader, Reading
from .value_model import ABSOLUTE, ADMIN_TYPES, content_types, profile_fingerprint

MIN_DF = 3
MIN_FAMILIES = 2
MAX_TERMS = 12000
FOLDS = 5
OFF_MEDIUM = 0.05
OFF_HIGH = 0.01
ADMIN_HIGH = 0.15
TARGET = {"A": 1.0, "B": 0.67, "C": 0.33}


def target(label: Label) -> float:
    return TARGET[label.tier] if label.relevance == "technical" else 0.0


@dataclass
class Sample:
    label: Label
    reading: Reading
    features: list[str]  # TF-IDF features (stems and stem pairs)
    structure: dict[str, float]
    counts: Counter  # the features counted once, for every fit


def read_samples(loaded: list[LoadedDocument], profile: Profile) -> list[Sample]:
    reader = Reader(topic.TopicMatcher(profile), load_taxonomy())
    samples = []
    for n, item in enumerate(loaded):
        doc = item.document
        row = (n, item.url, doc.title, doc.kind, doc.text, doc.headings, doc.code_blocks, doc.metadata)
        reading, features = reader.read(row)
        samples.append(Sample(item.label, reading, features, reading.structure.features(), Counter(features)))
    return samples


def vocabulary(samples: list[Sample]) -> list[str]:
    df: Counter = Counter()
    by_family: dict[str, set] = defaultdict(set)
    for s in samples:
        df.update(s.counts.keys())
        by_family[s.label.family].update(s.counts.keys())
    families: Counter = Counter()
    for keys in by_family.values():
        families.update(keys)
    eligible = [f for f in df if df[f] >= MIN_DF and families[f] >= MIN_FAMILIES]
    eligible.sort(key=lambda f: (-families[f], -df[f], f))
    return sorted(eligible[:MAX_TERMS])


def term_matrix(samples: list[Sample], vocab: list[str], idf: np.ndarray | None = None):
    """(1 + log tf) × idf over ``vocab``, L2-normalized per document (value_model.VisionModel.words)."""
    from scipy import sparse

    index = {t: i for i, t in enumerate(vocab)}
    rows, cols, vals = [], [], []
    for n, s in enumerate(samples):
        for f in s.counts.keys() & index.keys():
            rows.append(n)
            cols.append(index[f])
            vals.append(1 + math.log(s.counts[f]))
    matrix = sparse.csr_matrix((vals, (rows, cols)), shape=(len(samples), len(vocab)), dtype=np.float64)
    if idf is None:
        df = np.bincount(matrix.indices, minlength=len(vocab))
        idf = np.log((1 + len(samples)) / (1 + df)) + 1
    matrix = matrix @ sparse.diags(idf)
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    norms[norms == 0] = 1
    return sparse.diags(1 / norms) @ matrix, idf


def profile_scores(samples: list[Sample], profile: Profile) -> np.ndarray:
    """Each sample's profile relevance inside the corpus the samples form (as the scorer computes it)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    from . import analysis
    from .scorer import MAX_DF, profile_vector
    from .scorer import MIN_DF as CORPUS_MIN_DF

    vectorizer = TfidfVectorizer(
        analyzer=analysis.prepared, sublinear_tf=True, min_df=CORPUS_MIN_DF, max_df=MAX_DF, dtype=np.float32
    )
    matrix = vectorizer.fit_transform([s.features for s in samples])
    vector = profile_vector(vectorizer, profile)
    cosine = np.asarray(matrix @ vector).ravel() if vector is not None else np.zeros(len(samples))
    return np.array([topic.relevance(s.reading.evidence, float(c))[0] for s, c in zip(samples, cosine, strict=False)])


# The type model reads the page's words beside its form since phase 27: the vocabulary vector the topic model reads
# (same vocabulary and IDF, L2-normalized), each term's column × TYPE_TERMS, beside the standardized structure
# figures, in one multinomial logistic (C ``c_type``, balanced class weights). The form tells a change log or a
# licence (0.91 and 0.97 recall out of fold without the words); what a guide, a tutorial, an API reference or a
# short prose page is, its sentences tell. Each training split left out in turn (its types from a model fitted on
# the others): type23, twenty-three folds, accuracy pooled / mean / worst 0.614 / 0.614 / 0.474 -> 0.685 / 0.682 /
# 0.489, guide, tutorial, API reference recall 0.49, 0.41, 0.60 -> 0.61, 0.52, 0.68; the built code, eight of the
# twenty-four folds, 0.586 / 0.588 / 0.483 -> 0.669 / 0.665 / 0.495 (test22 0.517 -> 0.628), GitHub's worst fold
# (test4) 0.444 -> 0.423 (docs/perf.md, "phase 27: the words as the type model's inputs"). The scale: a unit-length
# vector beside standardized figures of variance 1 each, so that C 0.03 lets the words weigh (type23 measured x5).
# 0 reads the structure alone, as before phase 27
TYPE_TERMS = 5.0


@dataclass
class WordModels:
    vocab: list[str]
    idf: np.ndarray
    topic: Any  # LogisticRegression
    value: Any  # Ridge
    doctype: Any  # LogisticRegression over type_inputs: the structure figures' columns first, then the terms'
    scaler: Any  # StandardScaler of the structure figures
    structure_names: list[str]
    type_terms: float  # the scale of the term columns in the type model's inputs (0: structure alone)


def type_inputs(models: WordModels, samples: list[Sample], matrix):
    """The type model's inputs: the standardized structure figures (but ``signals.VALUE_ONLY``), then the
    vocabulary vector × ``type_terms`` (``value_model.VisionModel.doc_type`` reads the same)."""
    from scipy import sparse

    figures = np.array([[s.structure[n] for n in models.structure_names] for s in samples])
    standardized = models.scaler.transform(figures)
    if not models.type_terms:
        return standardized
    return sparse.hstack([sparse.csr_matrix(standardized), matrix * models.type_terms], format="csr")


def fit_word_models(
    samples: list[Sample], c_topic: float, alpha_words: float, c_type: float, type_terms: float = TYPE_TERMS
) -> WordModels:
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.preprocessing import StandardScaler

    vocab = vocabulary(samples)
    matrix, idf = term_matrix(samples, vocab)
    names = [n for n in samples[0].structure if n not in signals.VALUE_ONLY]  # the type model's own figures
    figures = np.array([[s.structure[n] for n in names] for s in samples])
    scaler = StandardScaler().fit(figures)
    scaler.scale_[scaler.scale_ == 0] = 1.0
    doctype = LogisticRegression(C=c_type, max_iter=5000, class_weight="balanced")
    on_topic = [s.label.relevance != "off" for s in samples]
    topic_model = LogisticRegression(C=c_topic, class_weight="balanced", max_iter=5000)
    topic_model.fit(matrix, on_topic)
    value = Ridge(alpha=alpha_words).fit(matrix, [target(s.label) for s in samples])
    models = WordModels(vocab, idf, topic_model, value, doctype, scaler, names, float(type_terms))
    doctype.fit(type_inputs(models, samples, matrix), [s.label.type for s in samples])
    return models


def apply_word_models(models: WordModels, samples: list[Sample]) -> dict[str, np.ndarray]:
    matrix, _ = term_matrix(samples, models.vocab, models.idf)
    raw = models.doctype.predict_proba(type_inputs(models, samples, matrix))
    types = np.zeros((len(samples), len(TYPES)))
    for j, name in enumerate(models.doctype.classes_):
        types[:, TYPES.index(name)] = raw[:, j]
    return {
        "topic": models.topic.predict_proba(matrix)[:, 1],
        "words_value": models.value.predict(matrix),
        "types": types,
    }


def out_of_fold(samples: list[Sample], settings: dict) -> dict[str, np.ndarray]:
    """Word-model outputs for every sample from models fitted without its family."""
    from sklearn.model_selection import GroupKFold

    groups = [s.label.family for s in samples]
    result: dict[str, np.ndarray] = {}
    folds = min(FOLDS, len(set(groups)))
    for fit_idx, held_idx in GroupKFold(n_splits=folds).split(samples, groups=groups):
        models = fit_word_models([samples[i] for i in fit_idx], **settings)
        out = apply_word_models(models, [samples[i] for i in held_idx])
        for key, values in out.items():
            if key not in result:
                result[key] = np.zeros((len(samples), *values.shape[1:]))
            result[key][held_idx] = values
    return result


# the relevance is no value input since phase 9: it enters the value once, through the scorer's relevance gate
# (value x min(1, relevance / medium)^1.25, scorer.relevance_gate; 1.5 in phase 19, squared before), as the issue
# asks ("low relevance must not be counted twice"); as an input too, a technical manual of a neighbouring field (CPU
# profiling, FFT planning) lost value twice. Each training split left out in turn, with value alpha 300: Spearman as
# scored mean 0.641 -> 0.647, worst split (test5) 0.440 -> 0.449
# ``source_words_value`` since phase 13: the words value a second time, read against the page's source (it is not in
# ``value_model.ABSOLUTE``), beside the absolute one: what a page's words say of its subject across sources, and
# which pages of one source say more than their neighbours; the ridge weighs the two (with value alpha 500 for the
# two collinear columns). Each training split left out in turn (eleven folds), Spearman as scored worst / mean 0.455 /
# 0.6578 -> 0.464 / 0.6589 (Debian 0.291 / 0.5314 -> 0.311 / 0.5333, GitHub 0.445 / 0.6515 -> 0.449 / 0.6541), pooled
# 0.6598 -> 0.6591, traps below the median 0.9907 -> 0.9923 (docs/perf.md, "phase 13: value")
VALUE_EXTRA = ("words_value", "term_evidence", "distinct_concepts", "concept_mentions", "source_words_value")
# structure figures the type model reads but the value model does not: exclamation marks are a listicle's or an
# announcement's mark, yet in the labelled set they are too rare (a handful of documents) for their value
# coefficient to mean anything but those documents. ``source_copy`` (the URL of a Sphinx source copy) since phase 7:
# the same column as ``file_source`` (the file name's cue) counted twice, and a copy is valued as its content
VALUE_LEFT_OUT = frozenset({"exclaims", "source_copy"})


def value_features(samples: list[Sample], words: dict[str, np.ndarray], profile_score: np.ndarray, blend: float):
    """The value model's named features (the scorer builds the same ones, scorer.score_rows)."""
    structure = [n for n in samples[0].structure if n not in VALUE_LEFT_OUT]
    names = structure + [f"type:{t}" for t in TYPES] + list(VALUE_EXTRA)
    # the learned topic probability as the scorer takes it: discounted where the senses read another field and where
    # the profile finds little of the topic (topic.learned_share)
    learned = words["topic"] * np.array([topic.learned_share(s.reading.evidence) for s in samples])
    relevance = lifted((1 - blend) * profile_score + blend * learned, samples)
    types = content_types_of(samples, words["types"])
    rows = []
    for i, s in enumerate(samples):
        concepts = s.reading.concepts
        rows.append(
            [
                *(s.structure[n] for n in structure),
                *types[i],
                words["words_value"][i],
                s.reading.evidence.score,
                math.log1p(sum(len(c) for c in concepts.values())),
                math.log1p(sum(sum(c.values()) for c in concepts.values())),
                words["words_value"][i],  # source_words_value: read against the source (source_relative)
            ]
        )
    return names, source_relative(names, np.array(rows), samples), relevance


def content_types_of(samples: list[Sample], types: np.ndarray) -> np.ndarray:
    """The type probabilities (columns: ``TYPES``) the value and its administrative gate read: a source copy's
    as its content's (value_model.content_types)."""
    return np.array(
        [content_types(types[i], TYPES, s.structure.get("source_copy", 0.0) > 0) for i, s in enumerate(samples)]
    ).reshape(types.shape)


def relative_columns(names: list[str]) -> list[int]:
    """The value features read against the page's source: all but ``value_model.ABSOLUTE``."""
    return [j for j, name in enumerate(names) if name not in ABSOLUTE]


def source_relative(names: list[str], x: np.ndarray, samples: list[Sample]) -> np.ndarray:
    """The value features, each page's against its source's other pages (``neighbours.relative``): the samples
    form the corpus, as in ``lifted``; the scorer does the same over the corpus it scores."""
    if not len(x):
        return x
    columns = relative_columns(names)
    x = x.copy()
    x[:, columns] = neighbours.relative(x[:, columns], [neighbours.source_of(s.reading.url) for s in samples])
    return x


def lifted(relevance: np.ndarray, samples: list[Sample]) -> np.ndarray:
    """``relevance`` lifted towards each sample's source's other samples, as the scorer does (neighbours.py):
    the samples form the corpus, so their sources are their URLs' as a crawl of them all would store them."""
    return neighbours.lift(relevance, *neighbours.lift_inputs([s.reading for s in samples]))[0]


def family_weights(samples: list[Sample]) -> np.ndarray:
    sizes = Counter(s.label.family for s in samples)
    return np.array([1 / math.sqrt(sizes[s.label.family]) for s in samples])


@dataclass
class ValueFit:
    names: list[str]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return 100 * (self.intercept + standardized(x, self.mean, self.scale) @ self.coef)


VALUE_CLIP = 3.0  # standardized value features are clipped here (value_model.VisionModel.value_of does the same)


def standardized(x: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """(x - mean) / scale, clipped to ±VALUE_CLIP: a figure far outside what the labelled documents show (a
    listicle's exclamation marks, a table of ten thousand numbers) moves the value no further than a rare one."""
    return np.clip((x - mean) / scale, -VALUE_CLIP, VALUE_CLIP)


# the value model's own targets since phase 11 (the words-value model keeps ``TARGET``): A 1, B 0.55, technical C 0.2,
# off-topic and administrative 0 (A 1, B 0.67, C 0.33 before), the fit then read on ``TARGET``'s scale (fit_value).
# The tiers are ordinal and the figure is a rank correlation among technical pages: the wider B-C step spends
# the ridge's slope on what tells a useful page from a shallow one, the narrow C-0 step on what the relevance and
# type gates judge anyway. Each training split left out in turn (ten folds), Spearman as scored worst / mean 0.436 /
# 0.654 -> 0.442 / 0.657 (Debian 0.283 / 0.536 -> 0.283 / 0.543, GitHub 0.420 / 0.650 -> 0.423 / 0.650), traps below
# the median 0.993 -> 0.992; pages at or above the curation cut (40), out of fold: A 0.926 -> 0.921, B 0.632 ->
# 0.600, technical C 0.173 -> 0.143, off-topic and administrative 0.018 -> 0.017 (docs/perf.md, "phase 11: value").
# B 0.6 since phase 19 (0.55 before): the A-B and B-C steps alike (0.45 and 0.35 before), C still nearer the
# non-technical pages than B: over sixteen splits a B page is as far from A as from C. Each training split left out
# in turn (sixteen folds, the value model refitted on cached word models), Spearman as scored worst / mean 0.472 /
# 0.6449 -> 0.473 / 0.6455 alone, 0.474 / 0.6461 -> 0.475 / 0.6466 with the relevance gate at the power 1.5
# (scorer.RELEVANCE_GATE_POWER); traps unchanged; B 0.5, 0.65 and C 0.15, 0.25 measured (docs/perf.md, "phase 19: value")
VALUE_TARGET = {"A": 1.0, "B": 0.6, "C": 0.2}


def value_target(label: Label) -> float:
    return VALUE_TARGET[label.tier] if label.relevance == "technical" else 0.0


def fit_value(names: list[str], x: np.ndarray, samples: list[Sample], alpha: float) -> ValueFit:
    from sklearn.linear_model import Ridge

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = standardized(x, mean, scale)
    weights = family_weights(samples)
    model = Ridge(alpha=alpha).fit(z, [value_target(s.label) for s in samples], sample_weight=weights)
    coef, intercept = model.coef_ + within_family(z, samples), float(model.intercept_)
    # read on the tier scale the curation cut and the levels read (``TARGET``): the fit's sum moved and stretched,
    # by a weighted least-squares line of the tier targets on it, so the order is the new targets' and the level the
    # old scale's (read alone on the new targets, out of fold, half the B pages fell below the cut: 0.632 -> 0.505)
    fitted = z @ coef + intercept
    slope, offset = np.polyfit(fitted, [target(s.label) for s in samples], 1, w=np.sqrt(weights))
    return ValueFit(names, mean, scale, slope * coef, float(slope * intercept + offset))


PAIR_POINTS = 5.0  # the within-family ranking moves technical pages by this many points per standard deviation
PAIR_C = 0.1


def within_family(z: np.ndarray, samples: list[Sample]) -> np.ndarray:
    """Coefficients (on the value's 0..1 scale) that rank the technical pages of one family by tier: a logistic
    regression without intercept over the differences z_i − z_j of every pair of one family's technical pages
    with tier i above tier j (and the reversed pair as the other class), each family's pairs weighing one
    family; scaled so that z @ coef has a standard deviation of PAIR_POINTS / 100 over the technical pages."""
    from sklearn.linear_model import LogisticRegression

    by_family: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(samples):
        if s.label.relevance == "technical":
            by_family[s.label.family].append(i)
    rows, classes, weights = [], [], []
    for family in sorted(by_family):
        members = by_family[family]
        pairs = [(i, j) for i in members for j in members if target(samples[i].label) > target(samples[j].label)]
        for i, j in pairs:
            rows += [z[i] - z[j], z[j] - z[i]]
            classes += [1, 0]
            weights += [1 / len(pairs)] * 2
    if not rows:
        return np.zeros(z.shape[1])
    families = sum(1 for members in by_family.values() if len({samples[i].label.tier for i in members}) > 1)
    ranker = LogisticRegression(C=PAIR_C, fit_intercept=False, max_iter=2000)
    ranker.fit(np.array(rows), classes, sample_weight=np.array(weights) * families)
    coef = ranker.coef_[0]
    technical = [i for members in by_family.values() for i in members]
    spread = float(np.std(z[technical] @ coef)) or 1.0
    return PAIR_POINTS / 100 * coef / spread


def quality(samples: list[Sample], value: np.ndarray, relevance: np.ndarray) -> dict:
    """The issue's value and relevance figures on samples (in memory; copies are measured by the scorer)."""
    technical = [i for i, s in enumerate(samples) if s.label.relevance == "technical"]
    off = [i for i, s in enumerate(samples) if s.label.relevance == "off"]
    admin = [i for i, s in enumerate(samples) if s.label.relevance == "admin"]
    median = float(np.median(value[technical])) if technical else 0.0
    traps = [i for i, s in enumerate(samples) if s.label.type in TRAP_TYPES]
    return {
        "documents": len(samples),
        "relevance_auc": auc(relevance[technical].tolist(), relevance[off].tolist()),
        "admin_auc": auc(relevance[technical].tolist(), relevance[admin].tolist()),
        "spearman": spearman(value[technical].tolist(), [TIER_RANK[samples[i].label.tier] for i in technical]),
        "traps_below_median": float(np.mean(value[traps] < median)) if traps else None,
        "non_technical_below_median": float(np.mean(value[off + admin] < median)) if off + admin else None,
    }


def level_shares(samples: list[Sample], relevance: np.ndarray, medium: np.ndarray | float) -> dict:
    """Shares of technical and off-topic samples at or above the ``medium`` cut (one cut, or one per sample)."""
    reached = relevance >= medium
    out = {}
    for name, level in (("technical_high_medium", "technical"), ("off_high_medium", "off")):
        idx = [i for i, s in enumerate(samples) if s.label.relevance == level]
        out[name] = float(np.mean(reached[idx])) if idx else None
    return out


def calibrate(samples: list[Sample], relevance: np.ndarray) -> dict[str, float]:
    off = np.sort(relevance[[i for i, s in enumerate(samples) if s.label.relevance == "off"]])
    admin = np.sort(relevance[[i for i, s in enumerate(samples) if s.label.relevance == "admin"]])

    def at_most(values: np.ndarray, share: float) -> float:
        """The lowest cut that at most ``share`` of ``values`` reach."""
        if not len(values):
            return 0.0
        allowed = math.floor(share * len(values))
        return float(values[len(values) - 1 - allowed]) + 1e-4 if allowed < len(values) else 0.0

    medium = at_most(off, OFF_MEDIUM)
    high = max(medium, at_most(off, OFF_HIGH), at_most(admin, ADMIN_HIGH))
    return {"medium": round(medium, 4), "high": round(high, 4)}


def sha256_of(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def admin_types() -> list[str]:
    return sorted(ADMIN_TYPES)


def model_document(
    profile: Profile, models: WordModels, value: ValueFit, blend: float, thresholds: dict, provenance: dict
) -> dict:
    """The model file's content: derived figures only (coefficients, a stem vocabulary, means and scales)."""

    def r(values) -> list[float]:
        return [float(f"{v:.6g}") for v in np.asarray(values, dtype=float).ravel()]

    doctype = models.doctype
    figures = len(models.structure_names)
    coef = np.asarray(doctype.coef_)
    # what the type model reads: the structure figures (standardized by mean and scale, then ``coef``) and, since
    # phase 27, the page's vector over ``terms.vocabulary`` (``term_coef``: per term, one figure per class, the
    # TYPE_TERMS scale folded in, so the scorer's product is the vector's values times the rows of its terms)
    words = (
        {"term_coef": [[float(f"{v:.4g}") for v in row] for row in coef[:, figures:].T * models.type_terms]}
        if models.type_terms
        else {}
    )
    return {
        "format": 1,
        "about": "Learned parts of shijie's Vision (pipeline/vision/value_model.py); written by tools/train_vision.py",
        "provenance": provenance,
        "profile": {"name": profile.name, "fingerprint": profile_fingerprint(profile)},
        "relevance": {"blend": blend, **thresholds},
        "terms": {
            "vocabulary": models.vocab,
            "idf": r(models.idf),
            "topic": {"coef": r(models.topic.coef_[0]), "intercept": float(models.topic.intercept_[0])},
            "value": {"coef": r(models.value.coef_), "intercept": float(models.value.intercept_)},
        },
        "doctype": {
            "reads": ["structure", "terms"] if models.type_terms else ["structure"],
            "features": models.structure_names,
            "mean": r(models.scaler.mean_),
            "scale": r(models.scaler.scale_),
            "classes": [str(c) for c in doctype.classes_],
            "coef": [r(row[:figures]) for row in coef],
            "intercept": r(doctype.intercept_),
            **words,
        },
        "value": {
            "features": value.names,
            "mean": r(value.mean),
            "scale": r(value.scale),
            "coef": r(value.coef),
            "intercept": float(value.intercept),
            "clip": VALUE_CLIP,
            # read against the page's source's other pages before standardizing (neighbours.relative)
            "relative": [value.names[j] for j in relative_columns(value.names)],
        },
    }
