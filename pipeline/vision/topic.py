"""Relevance to a topic profile, on stems and word pairs, with the senses of ambiguous terms told apart.

For a document with ``words`` tokens in which profile term t (weight w_t) occurs c_t times (on stems; a term the
profile lists in [forms]: the words written as one of its forms begin, ``TopicMatcher.as_written``):

    sat(c)     = c / (c + k),  k = 1.2 × (0.7 + 0.3 × words / 1000)       # BM25's saturation, fixed length
    sense_t    = (1 + with_t) / (1.5 + with_t + against_t)   for a term with [senses.t], else 1
                 (with_t, against_t: counts of the sense's context words in the document, each up to 3)
    e(T)       = Σ_{t in T} w_t × sat(c_t) × sense_t  /  min(Σ positive w, EVIDENCE_SCALE)
    evidence   = e(specific) + e(general) × min(1, e(specific) / needs)
                 (general: the profile's [general] terms, words every technical text uses, thread, barrier,
                 profiling, floating point: they confirm the topic but do not make it; a [general] subject, a
                 programming interface's name, that a page says at least SUBJECT_COUNT times and in one word of
                 1 / SUBJECT_SHARE or more counts as the page's own, specific: ``TopicMatcher.confirming``)
    by domain  a profile whose [terms] are grouped by domain ([terms.DOMAIN]) also weighs each domain's terms
                 alone, on the scale min(Σ positive w of the domain, DOMAIN_SCALE), and the evidence is the
                 largest of the whole profile's and each domain's: a page deep in one of the seven domains
                 (MPI collectives, a SIMD library, a topology API) need not also speak of the other six, which
                 one GPU-heavy scale asked of it (phase 4, docs/perf.md); negative terms outside the domains
                 (another field's words: rendering's swapchains and rasterization, phase 5) count against the
                 whole and against each domain alike, so no domain's evidence escapes them
    agreement  = Σ_t⁺ w_t sat(c_t) sense_t / Σ_t⁺ w_t sat(c_t)          # how much of it the senses keep (w_t > 0)
    cosine     = TF-IDF cosine of the document to the profile (its text and its terms), × agreement
    relevance  = EVIDENCE_SHARE × (1 − exp(−evidence / EVIDENCE_FULL)) + (1 − EVIDENCE_SHARE) × (1 − exp(−cosine / COSINE_FULL))

Dividing by ``min(Σw, EVIDENCE_SCALE)`` keeps a one-line ``--topic`` (Σw ≈ 10: the share of its weight a
page shows) and a broad profile (Σw ≈ 670: a page on shared-memory tiling need not also speak of PTX, TMA and
rmsnorm) on one scale: evidence 1 means the weight of about ten strong terms, each well present.

The labels "high" / "medium" / "low" cut the relevance at ``HIGH`` and ``MEDIUM``, calibrated on the labelled
set's train split so that "high" is what a kernel engineer would read (see ``tools/train_vision.py``, which
writes them into the model file, and docs/perf.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..choices import Level
from ..profile import Profile

SATURATION_K, SATURATION_B, REFERENCE_WORDS = 1.2, 0.3, 1000
SENSE_CAP = 3  # a context word's count counts up to this
EVIDENCE_SCALE = 25.0
DOMAIN_SCALE = 12.5  # one domain's evidence 1: about five of its strong terms, each well present
EVIDENCE_FULL = 0.6
COSINE_FULL = 0.12
EVIDENCE_SHARE = 0.7
TOP_TERMS = 8
SENSE_NEUTRAL = 1 / 3  # the share of an ambiguous term's occurrences read in another sense when no context says
# phase 11: the share of the learned topic probability a page keeps where the profile finds no evidence at all, and
# the evidence from which it keeps all of it (evidence_weight); phase 18 (rel19): 0.6 -> 0.7, the learned model
# trained on fifteen splits under-weighted the field's edge where the profile finds few words (docs/perf.md, phase
# 18: relevance)
LEARNED_FLOOR = 0.7
LEARNED_FULL_EVIDENCE = 1.5
# phase 27 (rel29): another field's evidence on a page with none of the field's specific terms, from which the page
# keeps none of the learned topic probability (foreign_weight; 0: the rule off)
FOREIGN_FULL = 0.2
# phase 25 (rel26): a [general] subject (the profile's ``subjects``: MPI) that a page names at least SUBJECT_COUNT
# times and in at least SUBJECT_SHARE of its words is what the page is about, not a platform it runs on
SUBJECT_COUNT = 5
SUBJECT_SHARE = 0.01
SUBJECT_WORDS = 60  # a stub shorter than this (a module's one-line page) repeats its title's name: it says no more


def saturate(count: int, words: int) -> float:
    k = SATURATION_K * (1 - SATURATION_B + SATURATION_B * words / REFERENCE_WORDS)
    return count / (count + k)


@dataclass(frozen=True)
class Evidence:
    score: float  # evidence, 0..∞ (1: about ten strong terms well present)
    agreement: float  # 0..1: the share of the raw evidence the senses keep
    matched: list[dict]  # the strongest terms: term, count, weight, sense
    senses: dict[str, float]  # sense factor of each ambiguous term present
    domain: str | None = None  # the domain whose evidence alone is the score, when one outweighs the whole
    other_sense: float = 0.0  # 0..1: the share of the matched terms' occurrences read in another sense
    # the score of the specific terms alone, whole or best domain: no [general] term but a subject the page names
    # densely (phase 25, ``TopicMatcher.confirming``)
    specific: float = 0.0
    # phase 27 (rel29): another field's words (the profile's negative terms) on a page that names no specific term
    # of the field at all, over the evidence scale; 0 where the page names one (``foreign_weight``)
    foreign: float = 0.0


class TopicMatcher:
    """A profile's terms and sense words, counted with the Vision's phrase pass."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.terms = {t: w for t, w in profile.terms.items() if w != 0}
        self.order = {t: i for i, t in enumerate(self.terms)}
        self.positive = sum(w for w in self.terms.values() if w > 0) or 1.0
        self.scale = min(self.positive, EVIDENCE_SCALE)
        self.senses = {t: s for t, s in profile.senses.items() if t in self.terms}
        self.general = profile.general
        self.needs = profile.general_needs
        self.subjects = profile.subjects & self.general
        self.domain_of = {t: profile.domains[t] for t in self.terms if t in profile.domains}
        positive: dict[str, float] = {}
        for t, d in self.domain_of.items():
            positive[d] = positive.get(d, 0.0) + max(0.0, self.terms[t])
        self.domain_scale = {d: min(p, DOMAIN_SCALE) for d, p in positive.items() if p > 0}
        self.forms = {t: f for t, f in profile.forms.items() if t in self.terms}

    def as_written(self, found: dict[str, int], written: Sequence[str]) -> dict[str, int]:
        """``found`` with each [forms] term counted on the words written as it is (phase 19, rel20).

        The phrase pass matches stems, and some of the field's words share theirs with an everyday word of another
        sense: "lowering" (a compiler lowering an IR) is "lower", "porting" (code to a new machine) is "port" (a
        network or a serial port), "transformer" (the model) is "transform" (a transformation). Such a term counts
        only the words that begin as one of its forms do ("lowering", "porting", "ported", "transformer")."""
        if not self.forms or not any(t in found for t in self.forms):
            return found
        found = dict(found)
        for term, beginnings in self.forms.items():
            if term in found:
                count = sum(1 for word in written if word.startswith(beginnings))
                if count:
                    found[term] = count
                else:
                    del found[term]
        return found

    def phrases(self) -> list[str]:
        """Everything the phrase pass must count for this profile."""
        words = list(self.terms)
        for sense in self.senses.values():
            words += [*sense.with_words, *sense.against]
        return words

    def confirming(self, found: dict[str, int], words: int) -> frozenset[str]:
        """The [general] terms that only confirm the topic on this page: all of them but a subject the page names
        densely (phase 25, rel26). "MPI" named in passing (fewer than SUBJECT_COUNT times, or in less than
        SUBJECT_SHARE of the words) says where the code runs; a page of SUBJECT_WORDS or more that names it in one
        word of a hundred or more (a test plugin for MPI programs, a binding's module page, an MPI call's man page, a
        program that passes messages) is about programming with it, though its other words (fixtures, ranks,
        communicators' methods) are not the profile's. The rule reads counts only: a short build or container page
        that names MPI five times in a hundred and thirty words (a solver's build notes, a container's multi-node
        setup) is read as about MPI too (evidence 0 -> 0.14-0.17)."""
        if words < SUBJECT_WORDS or not self.subjects:
            return self.general
        dense = {t for t in self.subjects if found.get(t, 0) >= SUBJECT_COUNT and found[t] >= SUBJECT_SHARE * words}
        return self.general - dense if dense else self.general

    def sense_factor(self, term: str, found: dict[str, int]) -> float:
        sense = self.senses.get(term)
        if sense is None:
            return 1.0
        support = sum(min(found.get(w, 0), SENSE_CAP) for w in sense.with_words if w != term)
        against = sum(min(found.get(w, 0), SENSE_CAP) for w in sense.against)
        return (1 + support) / (1.5 + support + against)

    def evidence(self, found: dict[str, int], words: int) -> Evidence:
        raw = specific = general = 0.0
        field_raw = field_specific = field_general = 0.0  # the field's own terms (weight > 0): what the senses judge
        occurrences = other_sense = 0.0
        matched = []
        senses = {}
        by_domain: dict[str, list[float]] = {}  # domain -> [specific, general]
        against = 0.0  # a grouped profile's negative terms of no domain: another field's words, against every domain
        own_field = other_field = 0.0  # the field's specific terms and another field's (negative) terms, as weighed
        confirms_only = self.confirming(found, words)
        # the profile's terms the text holds, in the profile's order (the sums below add in that order)
        for term in sorted(found.keys() & self.terms.keys(), key=self.order.__getitem__):
            count, weight = found[term], self.terms[term]
            if not count:
                continue
            part = weight * saturate(count, words)
            factor = self.sense_factor(term, found)
            if term in self.senses:
                senses[term] = round(factor, 3)
            raw += part
            occurrences += count
            other_sense += count * (1 - factor)
            if term in confirms_only:
                general += part * factor
            else:
                specific += part * factor
            if weight < 0:
                other_field -= part * factor
            elif term not in confirms_only:
                own_field += part * factor
            if weight > 0:
                field_raw += part
                if term in confirms_only:
                    field_general += part * factor
                else:
                    field_specific += part * factor
            domain = self.domain_of.get(term)
            if domain is not None:
                by_domain.setdefault(domain, [0.0, 0.0])[term in confirms_only] += part * factor
            elif weight < 0:
                against += part * factor
            matched.append((part * factor, term, count, weight, factor))
        # 0..1: a page whose specific evidence is net negative (another field's words) confirms nothing
        confirm = min(1.0, max(0.0, specific) / self.scale / self.needs) if self.needs > 0 else 1.0
        # a page whose matched words are mostly an ambiguous term in its other sense is about that other thing
        dominant = (1 - other_sense / occurrences) ** 2 if occurrences else 1.0
        kept = (specific + general * confirm) * dominant
        matched.sort(key=lambda m: (-abs(m[0] * (confirm if m[1] in confirms_only else 1.0)), m[1]))
        top = [
            {
                "term": t,
                "count": c,
                "weight": w,
                **({"sense": round(f, 3)} if t in self.senses else {}),
                **({"general": round(confirm, 3)} if t in confirms_only else {}),
            }
            for _, t, c, w, f in matched[:TOP_TERMS]
        ]
        # over the field's own terms only: with another field's (negative) terms in both sums the ratio leaves
        # 0..1 (a page of model recipes once read -50 and blew its cosine up to -6e13)
        field_kept = (field_specific + field_general * confirm) * dominant
        agreement = field_kept / field_raw if field_raw > 0 else 1.0
        score, strongest = kept / self.scale, None
        own_words = specific * dominant / self.scale
        for domain, (own, confirming) in by_domain.items():
            scale = self.domain_scale.get(domain)
            if not scale:
                continue
            own_confirm = min(1.0, max(0.0, own) / scale / self.needs) if self.needs > 0 else 1.0
            alone = (own + against + confirming * own_confirm) * dominant / scale
            own_words = max(own_words, (own + against) * dominant / scale)
            if alone > score:
                score, strongest = alone, domain
        other = other_sense / occurrences if occurrences else 0.0
        foreign = other_field / self.scale if own_field <= 0 else 0.0
        return Evidence(max(0.0, score), agreement, top, senses, strongest, other, max(0.0, own_words), foreign)


def relevance_label(score: float, cuts: tuple[float, float]) -> Level:
    """high / medium / low for a relevance score, at the (medium, high) cuts (``VisionModel.cuts``)."""
    medium, high = cuts
    return Level.high if score >= high else Level.medium if score >= medium else Level.low


def learned_weight(evidence: Evidence) -> float:
    """How much of the learned topic probability a page keeps, by the senses of its ambiguous terms.

    The learned topic model reads words without their senses: an OS kernel's book, a Jupyter kernel's protocol
    or the Triton Inference Server's deployment guide say "kernel", "GPU", "Triton", "shared memory" as the
    field does, and a family of them it never saw reads on topic (0.64-0.88), though the profile's senses put
    most of their field words in the other sense. A term with no sense words either way counts a third of its
    occurrences as the other sense (``sense_factor`` 1/1.5), so a page at ``SENSE_NEUTRAL`` or below keeps the
    whole probability; beyond it the page's own context words point elsewhere, and the learned probability
    falls linearly to nothing at twice that share::

        weight = 1 − clip((other_sense − SENSE_NEUTRAL) / SENSE_NEUTRAL, 0, 1)
    """
    return 1.0 - min(1.0, max(0.0, (evidence.other_sense - SENSE_NEUTRAL) / SENSE_NEUTRAL))


def evidence_weight(evidence: Evidence) -> float:
    """How much of the learned topic probability a page keeps, by how much of the topic the profile's terms find.

    The learned model reads which words a page uses, not what the page is about: a GPU project's copyright or
    licence file, a binding library's page on arrays (pybind11's NumPy page, Eigen's quaternion class) or a
    benchmark README reads on topic (0.64-0.81) with next to no profile evidence (0-0.15), and at the blend of one
    half the learned probability alone carried such pages over the medium cut. So it counts in full only where
    the profile's terms find the topic well (evidence ``LEARNED_FULL_EVIDENCE``: one technical page in twelve of
    the labelled set), down to ``LEARNED_FLOOR`` of it where they find nothing::

        weight = LEARNED_FLOOR + (1 − LEARNED_FLOOR) × min(1, evidence / LEARNED_FULL_EVIDENCE)

    (the median technical page, evidence 0.46, keeps 0.72 at a floor of 0.6; the median off-topic page, evidence
    0, keeps the floor). The cuts are calibrated on the relevance so weighed, so they fall with it (medium 0.34 →
    0.24 out of fold).

    Phase 11 (rel12), each training split left out in turn (docs/perf.md): off-topic pages at high/medium, worst
    split 12.3% → 10.4%, pooled 4.80% → 4.59%; technical pages, worst split 0.673 → 0.718, pooled 0.852 → 0.845;
    ROC AUC worst split unchanged (0.9388), mean 0.9712 → 0.9694. Phase 18 (rel19), fifteen folds, the floor 0.6 →
    0.7 (with that phase's terms): test13 technical 0.617 → 0.638, off-topic worst 16.2% unchanged, pooled 4.81% →
    4.69%.
    """
    return LEARNED_FLOOR + (1.0 - LEARNED_FLOOR) * min(1.0, max(0.0, evidence.score) / LEARNED_FULL_EVIDENCE)


def learned_share(evidence: Evidence) -> float:
    """The share of the learned topic probability that counts in a page's relevance: by its senses
    (``learned_weight``), by the profile's evidence (``evidence_weight``) and by whose field its words are
    (``foreign_weight``); the scorer and training alike."""
    return learned_weight(evidence) * evidence_weight(evidence) * foreign_weight(evidence)


def foreign_weight(evidence: Evidence) -> float:
    """How much of the learned topic probability a page keeps by whose field its own words are (phase 27, rel29).

    A page whose profile words are all another field's (the profile's negative terms: rendering's swapchains, a video
    codec's profiles, a training recipe's epochs) and none of the field's own specific terms reads as that field's
    page, whatever the learned model makes of its words; it keeps less of the learned probability, none of it from
    ``FOREIGN_FULL`` of such evidence (``Evidence.foreign``)::

        weight = 1 − clip(foreign / FOREIGN_FULL, 0, 1)
    """
    if FOREIGN_FULL <= 0:
        return 1.0
    return 1.0 - min(1.0, max(0.0, evidence.foreign) / FOREIGN_FULL)


def relevance(evidence: Evidence, cosine: float) -> tuple[float, dict]:
    """The relevance score and its parts."""
    cos = max(0.0, cosine) * evidence.agreement
    from_terms = 1 - math.exp(-evidence.score / EVIDENCE_FULL)
    from_cosine = 1 - math.exp(-cos / COSINE_FULL)
    score = EVIDENCE_SHARE * from_terms + (1 - EVIDENCE_SHARE) * from_cosine
    return score, {
        "term_evidence": round(evidence.score, 4),
        "sense_agreement": round(evidence.agreement, 4),
        "cosine": round(cos, 4),
        "from_terms": round(from_terms, 4),
        "from_cosine": round(from_cosine, 4),
    }
