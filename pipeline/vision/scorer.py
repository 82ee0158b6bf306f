"""The learned Vision, whole: relevance, document type, value and redundancy for every document of a corpus.

``score_rows(rows, n_docs, ...)`` is the scoring itself on plain data: ``rows()`` yields the stored documents
(id, url, title, kind, text, headings, code_blocks, metadata) and is called twice (the copies stage reads the
texts again, see ``copies``). It returns ``ScoredDocument``s (``pipeline.score``'s type) whose components
hold the reasons for ``shijie show``; ``pipeline.score.score_corpus`` runs it over a database and writes them.

    pass 1   each text is read once (reading.Reader): stems, phrase counts (profile terms, sense words,
             taxonomy concepts, cue phrases), structure, lines into the boilerplate sketch; its stem features
             go straight into the corpus's TF-IDF (analysis.corpus_tfidf: TfidfVectorizer.fit_transform's
             matrix, counted faster), and its vector over the model vocabulary gives
             the learned topic probability and words value right away; nothing keeps the text
    corpus   cosine of every document to the profile vector in the corpus's TF-IDF space;
             relevance  = profile score (topic.relevance), blended RELEVANCE_BLEND with the learned topic
                          probability (× topic.learned_share: less where the senses read another field,
                          where the profile's terms find little of the topic, and where they are only another
                          field's, topic.foreign_weight)
                          when the profile is the one the model was trained with
                          (an other --topic/--profile: the profile score alone), drawn half of the way down
                          towards the floor of its source's other pages or lifted 0.15 of the way up to it
                          (neighbours.py: the level nine in ten of them reach; a project's record, a changelog's
                          or a licence's file, keeps a quarter of it outside its source), then 50/50 with the user's
                          good/bad marks model when there are marks (arxiv-sanity: logistic regression over the
                          corpus TF-IDF)
             type       doc_type over the structure figures and, since phase 27, the words' vector the topic
                        model reads, under any profile (the page's own stems: a type is no topic); an arXiv
                        record or a paper-shaped PDF: paper
             value      the learned linear model over named features (read against the other pages of the
                        page's source, neighbours.relative, but for the words' figures; a Sphinx source copy's
                        type as its content's, value_model.content_types); + MARK_POINTS × (2p − 1) with marks;
                        × (relevance / medium)^RELEVANCE_GATE_POWER below the "medium" cut (an off-topic page is
                        worth little to this reader however well written: the gate the old scorer had, at the
                        calibrated cut; to the power 1.25 since phase 20 (1.5 in phase 19, squared before), so a
                        page halfway to the cut keeps 42% of its value, not a quarter);
                        × (1 − ADMIN_GATE × the probability of an administrative type). Since phase 9 the
                        relevance reaches the value through this gate only, not as an input of the model too
                        (training.VALUE_EXTRA): low relevance is counted once
    pass 2   texts again, boilerplate dropped, MinHash of text and code; LSH; the copy to keep by
             preference, never by rank (copies.measure): redundancy and ``duplicate_of``, a figure of the
             panel of its own. The value stays the content's worth (phase 5): a repeat is worth what its
             content is (the labels give a repeat its content's tier), and curation discards repeats by their
             redundancy, never by value (pipeline.curate), so a copy penalty in the value counted the repeat
             twice; until phase 4 the value lost up to 15 points × redundancy, which on test2 valued six
             man pages, repeats of their HTML twins, near 0 (Spearman there 0.545 without it, 0.464 with).
             Since phase 17 a translation the copies stage finds is worth at least its original's value
             (``translated_from``: its own reading is of words the model does not hold), and since phase 21 a
             page that is only an include directive at least its included file's (``included_from``)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from .. import coverage
from ..errors import EmptyCorpusError
from ..profile import Profile
from ..redundancy import redundancy_label
from ..store.scores import ScoredDocument
from ..taxonomy import Domain, load_taxonomy
from . import analysis, copies, neighbours, topic
from .reading import Reader, Reading, _loads
from .value_model import ADMIN_TYPES, VisionModel, content_types, load_model

MIN_DF, MAX_DF, SMALL_CORPUS = 2, 0.9, 20
RELEVANCE_BLEND = 0.5  # share of the learned topic probability in the default profile's relevance
LABEL_SHARE = 0.5  # with the user's marks, their model is half the relevance (as before)
MARK_POINTS = 15.0  # the marks model moves value by up to this many points either way
# value × (1 − ADMIN_GATE × P(administrative type)): a page typed changelog, licence, table of contents, … keeps
# at most half its modelled value. Every administrative page is tier C by the labels, but the type is a
# probability: a full gate (1.0) cost dev's tier A/B pages more (78% → 74% above the curation cut) than it
# took from the administrative ones; 0.5 took all traps below the median on train (0.99 → 1.0) for 0.003 of
# dev's Spearman
ADMIN_GATE = 0.5
# value × min(1, relevance / medium) ** RELEVANCE_GATE_POWER: below the medium cut a page keeps a share of its value
# that falls with its relevance. Squared since phase 1 (chosen on dev then: Spearman 0.735 -> 0.737); 1.5
# since phase 19: a technical page just under the cut (a field's edge, a reference page whose terms the profile
# lacks) is still the page its value says it is, and the relevance, which the value model no longer reads (phase 9),
# is counted once, not twice. Each of the sixteen training splits left out in turn, value Spearman among technical
# pages as scored, worst / mean 0.472 / 0.6449 -> 0.474 / 0.6461 (Debian 0.293 / 0.5282 -> 0.304 / 0.5327), traps
# below the median unchanged on every split (docs/perf.md, "phase 19: value"); 1.25 and 1.75 and 3 measured there.
# 1.25 since phase 20: one step further on the same reading (a page near the cut keeps more of what its value says),
# and the step that held both times it was measured. Each of the seventeen training splits left out in turn (value
# model refitted on cached word models), worst / mean 0.4855 / 0.6466 -> 0.4891 / 0.6473, pooled 0.6532 -> 0.6535
# (Debian 0.293 / 0.5323 -> 0.300 / 0.5364), traps below the median unchanged on every split; over sixteen (phase 19,
# with B 0.6) 0.475 / 0.6466 -> 0.476 / 0.6472. The plain ratio (1) measured 0.4905 / 0.6476 over seventeen but
# lowered Debian's and GitHub's worst over sixteen (docs/perf.md, "phase 20: value")
RELEVANCE_GATE_POWER = 1.25
# phase 25 (trap26): a change log's topic terms are names, not explanation. A page whose headings are release versions
# and dates and whose body is lists of changes names every kernel, API and backend that changed, so the topic's terms
# fill it (a GPU library's 2,000-line change log: term_evidence 1.63, 21 of its 55 modelled points) without a line
# that explains one. Its term evidence above the model's mean counts by 1 − names_share(P(change log)): all of it
# where the type model reads the page as a change log no more likely than not (P ≤ CHANGELOG_NAMES_FROM), none of it
# where it is sure. The rest of its value (its words, its form) and both gates stand. Twenty-two training splits,
# the shipped model: traps below the median worst / mean 0.979 / 0.9967 -> 0.983 / 0.9976 (test20 0.979 -> 1.0),
# value Spearman among technical pages unchanged on every split (docs/perf.md, "phase 25: traps below the median")
CHANGELOG_NAMES_FROM = 0.5
TOP_TERMS = 8

Row = tuple


@dataclass
class _Doc:
    reading: Reading
    structure: np.ndarray  # Structure.features() values in STRUCTURE order, float32
    topic_p: float | None
    topic_terms: list
    words_value: float
    words_terms: list
    doc_type: str
    type_probs: np.ndarray  # over model.doctype["classes"], float32


def relevance_gate(relevance, medium):
    """The share of its value a page keeps for its relevance: min(1, relevance / medium) ** RELEVANCE_GATE_POWER
    (all of it at or above the medium cut; 1 where there is no cut). Floats or arrays (tools/train_vision.py)."""
    if np.ndim(relevance) == 0 and np.ndim(medium) == 0:  # the scorer's loop: plain floats
        return min(1.0, max(0.0, float(relevance)) / float(medium)) ** RELEVANCE_GATE_POWER if medium > 0 else 1.0
    return np.minimum(1.0, np.maximum(0.0, relevance) / medium) ** RELEVANCE_GATE_POWER


def names_share(changelog_p: float) -> float:
    """The share of a page's term evidence above the mean that counts as names in a change log, not explanation:
    0 up to ``CHANGELOG_NAMES_FROM`` of P(change log), rising evenly to 1 where the page is surely one."""
    return min(1.0, max(0.0, (float(changelog_p) - CHANGELOG_NAMES_FROM) / (1.0 - CHANGELOG_NAMES_FROM)))


def names_discounted(term_evidence: float, mean: float, changelog_p: float) -> float:
    """The term evidence figure the value model reads: above the model's ``mean``, less the share a change log's
    names take (``names_share``); at or below the mean as it is."""
    if term_evidence <= mean:
        return term_evidence
    return mean + (term_evidence - mean) * (1.0 - names_share(changelog_p))


def profile_vector(vectorizer, profile: Profile) -> np.ndarray | None:
    """The profile in the corpus's TF-IDF space: its text's vector plus its terms' (weight × idf), each unit."""
    index = vectorizer.vocabulary_
    size = len(index)
    if size == 0:
        return None
    vector = np.zeros(size)
    if profile.text:
        vector += vectorizer.transform([analysis.tfidf_features(analysis.tokens(profile.text))]).toarray()[0]
    terms = np.zeros(size)
    for term, weight in profile.terms.items():
        features = [f for f in analysis.tfidf_features(analysis.tokens(term)) if f in index]
        longest = max((f.count(" ") for f in features), default=0)
        for f in features:
            if f.count(" ") == longest:  # a phrase longer than two words lives in the space as its pairs
                terms[index[f]] += weight * vectorizer.idf_[index[f]]
    parts = [v / np.linalg.norm(v) for v in (vector, terms) if np.linalg.norm(v) > 0]
    if not parts:
        return None
    total = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    return total / np.linalg.norm(total)


PAPER_HEADINGS = 3  # distinct paper cues (abstract, references, conclusion, …) a PDF needs to read as a paper


def paper_type(reading: Reading) -> str | None:
    """ "paper" for what the extractor read as a paper: an arXiv record (its Atom entry: title, authors,
    abstract), or a PDF whose headings are a paper's. The labelled set holds no papers to learn the type
    from (papers sit on arXiv, not in documentation packages or repositories), so this one is a rule."""
    s = reading.structure
    if reading.kind == "arxiv":
        return "paper"
    if reading.kind == "pdf" and s.head_cues.get("paper", 0) + s.distinct_cues.get("paper", 0) >= PAPER_HEADINGS:
        return "paper"
    return None


def _marks_model(matrix, docs: list[_Doc], marks: dict[int, str]):
    """arxiv-sanity's model of the user's good/bad marks over the corpus TF-IDF (pipeline.score's rule)."""
    if matrix is None or not marks:
        return None, None
    good = [i for i, d in enumerate(docs) if marks.get(d.reading.id) == "good"]
    bad = [i for i, d in enumerate(docs) if marks.get(d.reading.id) == "bad"]
    unmarked = [i for i, d in enumerate(docs) if d.reading.id not in marks]
    positives, negatives = good or unmarked, bad or unmarked
    if not (good or bad) or not positives or not negatives:
        return None, None
    from sklearn.linear_model import LogisticRegression

    y = np.array([1] * len(positives) + [0] * len(negatives))
    model = LogisticRegression(C=10.0, class_weight="balanced", solver="liblinear", random_state=0)
    model.fit(matrix[positives + negatives], y)
    return model.predict_proba(matrix)[:, 1], model.coef_[0]


def translated_from(copy: copies.Copy, value_of: dict[int, tuple[float, dict]]) -> int | None:
    """The original whose value a translation takes when higher than its own (``copies``' translation signal,
    flagged a repeat), or None.

    A translation is one text in another language (the labels give it its original's tier, LABELS.md: a copy's
    tier is its content's). Its own reading is of words the model mostly does not hold (a German or Chinese
    handbook reads as little evidence and few known words), so its modelled value says how much English it
    holds, not what it teaches; the copies stage has found the original it repeats, whose value says that. The
    foreign reading errs low, so the original's value is a floor, not a replacement: a translation that writes
    its terms, names and code out as fully as the original (a Chinese page of an English project's docs) keeps
    a higher reading of its own. Only the translation signal: a rendered twin, a mirror or an older state is
    read in the same language as the page it repeats, and its own words say its worth (an older state may hold
    less, and is labelled so). Fourteen folds of ``--lofo-only --by-split`` (docs/perf.md, phase 17 value):
    worst / mean split 0.490 / 0.6635 -> 0.495 / 0.6650, Debian 0.348 / 0.5467 -> 0.348 / 0.5552 (test12's
    Debian 0.449 -> 0.568: a profile viewer's German and French handbooks), no split of any origin lower; the
    original's value in place of the own (not a floor) costs test10 (0.599 -> 0.597)."""
    return _repeated(copy, "translation", value_of)


def _repeated(copy: copies.Copy, signal: str, value_of: dict[int, tuple[float, dict]]) -> int | None:
    """The scored page a copy of this signal repeats (at ``copies.HIGH_REDUNDANCY`` or more), or None."""
    if copy.signal != signal or copy.score < copies.HIGH_REDUNDANCY or copy.duplicate_of is None:
        return None
    return copy.duplicate_of if copy.duplicate_of in value_of else None


def included_from(copy: copies.Copy, value_of: dict[int, tuple[float, dict]]) -> int | None:
    """The file whose value a page that is only an include directive takes when higher than its own (``copies``'
    included signal: a title over ``.. include:: ../guide.md`` and little text of its own), or None.

    LABELS.md rates such a page on what its rendered page shows, the included file's text, as its copy; its own
    text is one directive line, read as next to nothing. Like a translation's (``translated_from``), the file's
    value is a floor: the page keeps its own reading where that is higher. Eighteen folds (value18's harness of
    ``--lofo-only --by-split``, which scores no copies stage: the include rule applied to its out-of-fold values;
    docs/perf.md, phase 21 value): worst / mean split 0.486 (test5) / 0.6510 -> 0.486 / 0.6525, pooled 0.6587 ->
    0.6602, traps below the median 0.9858 unchanged on every split (an included changelog or licence is held down
    by its own type gate);
    test16 0.716 -> 0.749 (three include-only pages of tier B), test11 0.710 -> 0.705 and test13 0.495 -> 0.494
    (include-only pages of examples readmes, tier C, lifted to their files' value)."""
    return _repeated(copy, "included", value_of)


# the copies whose repeated page's value is a floor of their own, and the value part that names that page
VALUE_FLOORS = (("translation_of", translated_from), ("included_from", included_from))


def copy_infos(lines: copies.LineCounts, rows: Iterable[Row], newest: dict[int, float]) -> list[copies.CopyInfo]:
    """Pass 2's signatures: each stored row (as ``scoring_rows`` yields them) signed against the corpus's line
    counts, with its newest date from pass 1 and the page it says it is a source copy of."""
    signer = copies.Signer(lines, len(newest))
    infos = []
    for doc_id, url, title, kind, text, _headings, code_blocks, metadata in rows:
        copy_of = _loads(metadata, dict).get("source_copy_of") if metadata and "source_copy_of" in metadata else None
        infos.append(
            signer.sign(
                doc_id,
                url,
                title or "",
                kind,
                text or "",
                _loads(code_blocks, list),
                newest.get(doc_id, 0.0),
                copy_of if isinstance(copy_of, str) else None,
            )
        )
    return infos


def score_rows(
    rows: Callable[[], Iterable[Row]],
    n_docs: int,
    profile: Profile,
    domains: list[Domain] | None = None,
    model: VisionModel | None = None,
    marks: dict[int, str] | None = None,
    timings: dict[str, float] | None = None,
):
    """Scores the documents ``rows()`` yields; returns ``pipeline.score.ScoredDocument``s, best first."""
    timings = {} if timings is None else timings
    if n_docs == 0:
        raise EmptyCorpusError("no documents to score: crawl first (shijie crawl)")
    model = model or load_model()
    domains = domains if domains is not None else load_taxonomy()
    marks = marks or {}
    matcher = topic.TopicMatcher(profile)
    reader = Reader(matcher, domains)
    lines = copies.LineCounts()
    use_words = model.matches_profile(profile)
    cuts = model.cuts(use_words)
    structure_names: list[str] = []
    classes = model.doctype["classes"]
    admin_columns = np.array([c in ADMIN_TYPES for c in classes])
    changelog_column = classes.index("changelog") if "changelog" in classes else None
    value_means = dict(zip(model.value["features"], model.value["mean"], strict=True))
    docs: list[_Doc] = []
    clock = time.perf_counter()
    features_s = 0.0

    def features() -> Iterator[list[str]]:
        nonlocal features_s
        for row in rows():
            started = time.perf_counter()
            reading, feats = reader.read(row)
            lines.add(reading.line_hashes, reading.url, copies.foreign_text(reading.url, reading.kind, row[4] or ""))
            reading.line_hashes = np.empty(0, dtype=np.uint64)
            figures = reading.structure.features()
            if not structure_names:
                structure_names.extend(figures)
            words = model.words(feats)
            topic_p = model.topic_probability(words) if use_words else None
            words_value = model.words_value(words)
            doc_type, probs = model.doc_type(figures, words)
            doc_type = paper_type(reading) or doc_type
            docs.append(
                _Doc(
                    reading,
                    np.fromiter(figures.values(), dtype=np.float32, count=len(figures)),
                    topic_p.score if topic_p else None,
                    topic_p.contributions if topic_p else [],
                    words_value.score,
                    words_value.contributions,
                    doc_type,
                    np.fromiter((probs[c] for c in classes), dtype=np.float32, count=len(classes)),
                )
            )
            features_s += time.perf_counter() - started
            yield feats

    small = n_docs < SMALL_CORPUS
    vectorizer = matrix = None
    try:
        vectorizer, matrix = analysis.corpus_tfidf(features(), 1 if small else MIN_DF, 1.0 if small else MAX_DF)
    except ValueError as exc:
        if "empty vocabulary" in str(exc):  # not one word in any document: nothing to rank them by
            raise EmptyCorpusError(
                f"nothing to score: the {n_docs} document(s) hold no words, only numbers, symbols or stop words;"
                " crawl documents with text"
            ) from None
        # every term pruned by min_df / max_df: relevance rests on the profile's terms alone
    timings["features"] = features_s
    timings["tfidf"] = time.perf_counter() - clock - features_s
    clock = time.perf_counter()

    vector = profile_vector(vectorizer, profile) if vectorizer is not None else None
    cosine = np.asarray(matrix @ vector).ravel() if vector is not None else np.zeros(len(docs))
    marks_p, marks_coef = _marks_model(matrix, docs, marks)
    # the terms by column, for the marks model's explanation only
    vocabulary = vectorizer.get_feature_names_out() if marks_coef is not None and vectorizer is not None else None

    relevance_of: dict[int, dict] = {}
    value_of: dict[int, tuple[float, dict]] = {}
    read = [topic.relevance(doc.reading.evidence, float(cosine[i])) for i, doc in enumerate(docs)]
    weights = [topic.learned_share(doc.reading.evidence) for doc in docs]
    own = np.array(
        [
            p if doc.topic_p is None else (1 - RELEVANCE_BLEND) * p + RELEVANCE_BLEND * doc.topic_p * weight
            for (p, _), doc, weight in zip(read, docs, weights, strict=True)
        ]
    )
    # each page lifted towards the relevance of its source's other pages (neighbours.py)
    inputs = neighbours.lift_inputs([doc.reading for doc in docs])
    lifted, beside = neighbours.lift(own, *inputs)
    scores: list[float] = []
    all_figures: list[dict[str, float]] = []
    admin_of: list[float] = []
    for i, doc in enumerate(docs):
        r = doc.reading
        profile_score, parts = read[i]
        score = float(lifted[i])
        if marks_p is not None:
            score = (1 - LABEL_SHARE) * score + LABEL_SHARE * float(marks_p[i])
        relevance_of[r.id] = {
            "score": round(score, 4),
            "profile_score": round(profile_score, 4),
            **parts,
            "learned_topic": None if doc.topic_p is None else round(doc.topic_p, 4),
            "learned_weight": round(topic.learned_weight(r.evidence), 4),  # the senses' share (explain.py)
            "learned_evidence_weight": round(topic.evidence_weight(r.evidence), 4),
            "learned_foreign_weight": round(topic.foreign_weight(r.evidence), 4),  # another field's words only
            "own_score": round(float(own[i]), 4),
            "source_neighbours": None if np.isnan(beside[i]) else round(float(beside[i]), 4),
            "source_lift": round(float(lifted[i] - own[i]), 4),
            # a changelog's or a licence's file: RECORD_SHARE of it, outside its source
            "record": bool(inputs.records[i]),
            "record_share": neighbours.RECORD_SHARE if inputs.records[i] else None,
            "learned_for": model.profile["name"],  # the one profile the learned topic model knows
            "learned_terms": doc.topic_terms,
            "matched_terms": r.evidence.matched,
            "evidence_domain": r.evidence.domain,
            "senses": r.evidence.senses,
            "label": marks.get(r.id),
            "label_model": None if marks_p is None else round(float(marks_p[i]), 4),
            "label_model_terms": _top_terms(matrix, i, marks_coef, vocabulary) if marks_coef is not None else [],
        }
        figures = dict(zip(structure_names, doc.structure.tolist(), strict=False))
        # a source copy read as its content (the flag as training reads it, training.content_types_of)
        content = content_types(doc.type_probs, classes, figures.get("source_copy", 0.0) > 0)
        figures.update({f"type:{c}": float(p) for c, p in zip(classes, content, strict=False)})
        concept_total = sum(sum(c.values()) for c in r.concepts.values())
        distinct = sum(len(c) for c in r.concepts.values())
        page_words_value = (
            doc.words_value if use_words else model.value["mean"][model.value["features"].index("words_value")]
        )
        figures.update(
            words_value=page_words_value,
            source_words_value=page_words_value,  # the same figure, read against the source below (training's too)
            term_evidence=(
                names_discounted(r.evidence.score, value_means["term_evidence"], content[changelog_column])
                if changelog_column is not None and "term_evidence" in value_means and doc.doc_type != "paper"
                else r.evidence.score
            ),
            distinct_concepts=float(np.log1p(distinct)),
            concept_mentions=float(np.log1p(concept_total)),
        )
        all_figures.append(figures)
        scores.append(score)
        admin_of.append(float(content[admin_columns].sum()) if doc.doc_type != "paper" else 0.0)
    # the value's figures read against each page's source's other pages (neighbours.relative), as trained
    relative = [n for n in model.value.get("relative", ()) if n in model.value["features"]]
    if relative and all_figures:
        means = dict(zip(model.value["features"], model.value["mean"], strict=True))
        table = np.array([[f.get(n, means[n]) for n in relative] for f in all_figures])
        moved = neighbours.relative(table, [neighbours.source_of(doc.reading.url) for doc in docs])
        for figures, row in zip(all_figures, moved, strict=True):
            figures.update(zip(relative, row.tolist(), strict=True))
    for i, doc in enumerate(docs):
        r = doc.reading
        score = scores[i]
        value, explained = model.value_of(all_figures[i])
        mark_points = 0.0
        if marks_p is not None:
            mark_points = MARK_POINTS * (2 * float(marks_p[i]) - 1)
        gate = relevance_gate(score, cuts[0])
        type_gate = 1.0 - ADMIN_GATE * admin_of[i]
        value_of[r.id] = (
            (value + mark_points) * gate * type_gate,
            {
                **explained,
                "model": value,
                "marks": round(mark_points, 1),
                "relevance_gate": round(gate, 3),
                "admin_gate": round(type_gate, 3),
            },
        )
    timings["relevance_value"] = time.perf_counter() - clock
    clock = time.perf_counter()

    infos = copy_infos(lines, rows(), {d.reading.id: d.reading.newest_date for d in docs})
    found = copies.measure(infos)
    info_of = {info.id: info for info in infos}
    timings["copies"] = time.perf_counter() - clock
    clock = time.perf_counter()

    url_of = {d.reading.id: d.reading.url for d in docs}
    scored = []
    for doc in docs:
        r = doc.reading
        copy = found.get(r.id, copies.NO_COPY)
        adjusted, value_parts = value_of[r.id]
        for part, floor_of in VALUE_FLOORS:
            # a translation is worth at least its original's value, read from the words the model holds (its own
            # are another language's); a page that is only an include directive at least the included file's;
            # ``value_parts`` keep its own reading
            floor = floor_of(copy, value_of)
            if floor is not None:
                value_parts = {**value_parts, "own": round(adjusted, 1), part: floor}
                adjusted = max(adjusted, value_of[floor][0])
                break
        final = round(max(0.0, min(100.0, adjusted)))
        info = info_of.get(r.id)
        rel = relevance_of[r.id]
        components = {
            "value": {**value_parts, "total": final},
            "relevance": rel,
            "type": {
                "type": doc.doc_type,
                "probabilities": {
                    c: round(float(p), 3) for c, p in zip(classes, doc.type_probs, strict=False) if p >= 0.1
                },
                "admin": doc.doc_type in ADMIN_TYPES,
            },
            "words": {"value": round(doc.words_value, 4), "terms": doc.words_terms, "used": use_words},
            "form": _form(dict(zip(structure_names, doc.structure.tolist(), strict=False)), r),
            "uniqueness": {
                "score": round(1 - copy.score, 4),
                "redundancy": copy.score,
                "jaccard": copy.jaccard,
                "signal": copy.signal,
                "duplicate_of": copy.duplicate_of,
                "duplicate_of_url": (url_of.get(copy.duplicate_of) if copy.duplicate_of is not None else None),
                "because": copy.because,
                "boilerplate_share": info.boilerplate_share if info else 0.0,
            },
            # what mastery weighs coverage by (pipeline.curate.kept_concepts): the value, as depth
            "depth": {"score": round(final / 100, 4), "reasons": [f"value {final}"]},
            "concepts": r.concepts,
            "words_count": r.words,
        }
        scored.append(
            ScoredDocument(
                id=r.id,
                url=r.url,
                title=r.title,
                value=final,
                relevance=topic.relevance_label(rel["score"], cuts),
                relevance_score=rel["score"],
                redundancy=redundancy_label(copy.score),
                redundancy_score=copy.score,
                duplicate_of=copy.duplicate_of,
                duplicate_of_url=(url_of.get(copy.duplicate_of) if copy.duplicate_of is not None else None),
                domains=coverage.document_coverage(r.concepts, domains),
                components=components,
            )
        )
    timings["assemble"] = time.perf_counter() - clock
    return sorted(scored, key=lambda s: (-s.value, -s.relevance_score, s.id))


def _form(figures: dict[str, float], reading: Reading) -> dict:
    s = reading.structure
    return {
        "words": reading.words,
        "prose_share": round(figures.get("prose_share", 0.0), 3),
        "code_share": round(figures.get("code_share", 0.0), 3),
        "code_blocks": s.code_blocks,
        "headings": s.headings,
        "measurements": s.measurements,
        "math": s.math,
        "explanation_cues": s.cues.get("explain", 0),
        "label_share": round(figures.get("label_share", 0.0), 3),
    }


def _top_terms(matrix, i: int, weights, vocabulary) -> list[dict]:
    row = matrix.getrow(i)
    if row.nnz == 0:
        return []
    contributions = row.data * weights[row.indices]
    order = np.argsort(-contributions, kind="stable")[:TOP_TERMS]
    return [
        {"term": analysis.surface(str(vocabulary[row.indices[j]])), "weight": round(float(contributions[j]), 4)}
        for j in order
        if contributions[j] > 0
    ]
