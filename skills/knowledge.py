"""Builds the parts of a knowledge pack from the curated corpus, through ``pipeline.query`` only.

* ``topics``: the curated documents clustered by their TF-IDF vectors (k-means, a fixed seed), each
  cluster labelled by its centroid's heaviest terms and mapped to the skill domain its documents cover
  most; then the best passages for each topic.
* ``path_steps``: each step of a skill's ordered path tied to the passages its query finds.

A pack is plain JSON (lists and dicts) so it can be stored, exported and compared between runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.store import Database

MAX_TOPICS = 8
LABEL_TERMS = 4
EXCERPT_CHARS = 600
# words of code listings and page furniture: frequent in the corpus, meaningless as a topic label
NOISE_WORDS = frozenset(
    """
    int float double void const return def self import include struct auto unsigned char bool true false none
    threadidx blockidx blockdim griddim syncthreads tl torch np printf std cuda_check
    page pages home next previous contents menu course lecture post posts comments share
""".split()
)


@dataclass(frozen=True)
class PathStep:
    """One step of an ordered path: what to do, and the query that finds the knowledge behind it."""

    id: str
    title: str
    title_zh: str
    query: str
    domain: str


def passage_record(passage) -> dict:
    text = " ".join(passage.text.split())
    if len(text) > EXCERPT_CHARS:
        text = text[:EXCERPT_CHARS].rsplit(" ", 1)[0] + " …"
    return {
        "document_id": passage.document_id,
        "url": passage.url,
        "title": passage.title,
        "excerpt": text,
        "score": round(float(passage.score), 4),
    }


def find_passages(db: Database, query: str, domain: str | None, limit: int) -> list[dict]:
    """The best passages for a query, within the domain first, then anywhere in the corpus."""
    from pipeline.query import passages

    found = list(passages(db, query, limit=limit * 3, domain=domain)) if domain else []
    if len(found) < limit * 3:
        seen = {(p.document_id, p.text) for p in found}
        found += [p for p in passages(db, query, limit=limit * 3) if (p.document_id, p.text) not in seen]
    # one passage per document first: sources that agree are worth more than one source quoted twice
    first, repeats, documents = [], [], set()
    for passage in found:
        (repeats if passage.document_id in documents else first).append(passage)
        documents.add(passage.document_id)
    return [passage_record(passage) for passage in (first + repeats)[:limit]]


def cluster_topics(documents, skill_domains: list[str], max_topics: int = MAX_TOPICS) -> list[dict]:
    """Groups documents into topics; each topic: label terms, domain, member documents (best first)."""
    from sklearn.cluster import KMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    documents = [doc for doc in documents if doc.text and doc.text.strip()]
    if not documents:
        return []
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    vectorizer = TfidfVectorizer(
        stop_words=sorted(ENGLISH_STOP_WORDS | NOISE_WORDS),
        sublinear_tf=True,
        ngram_range=(1, 2),
        min_df=1,
        max_df=0.9 if len(documents) > 3 else 1.0,
        token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z\-]{2,}\b",
    )  # words, not identifiers or numbers
    matrix = vectorizer.fit_transform(f"{doc.title}\n{doc.text}" for doc in documents)
    terms = vectorizer.get_feature_names_out()
    # about sqrt(n/2) topics: enough to separate themes, few enough that each has several documents
    k = max(1, min(max_topics, len(documents), round(math.sqrt(len(documents) / 2))))
    model = KMeans(n_clusters=k, n_init=10, random_state=0).fit(matrix)
    topics = []
    for cluster in range(k):
        members = [doc for doc, label in zip(documents, model.labels_) if label == cluster]
        if not members:
            continue
        centroid = model.cluster_centers_[cluster]
        label = _label(terms[index] for index in centroid.argsort()[::-1])
        coverage = {
            domain: sum(doc.domains.get(domain, 0.0) for doc in members) / len(members)
            for domain in (skill_domains or sorted({d for doc in members for d in doc.domains}))
        }
        domain = max(coverage, key=coverage.get) if coverage else None
        members.sort(key=lambda doc: (-doc.value, doc.id))
        topics.append(
            {
                "label": label,
                "domain": domain,
                "domain_coverage": {key: round(value, 4) for key, value in coverage.items()},
                "documents": [
                    {"id": doc.id, "url": doc.url, "title": doc.title, "value": doc.value} for doc in members
                ],
            }
        )
    # biggest, most valuable topics first; ids follow that order so they are stable between runs
    topics.sort(key=lambda topic: (-len(topic["documents"]), -topic["documents"][0]["value"], topic["label"]))
    for number, topic in enumerate(topics, start=1):
        topic["id"] = number
    return topics


def _label(ranked_terms) -> list[str]:
    """The heaviest terms, skipping one that repeats a term already taken ('room' after 'reading room')."""
    label: list[str] = []
    for term in ranked_terms:
        words = set(term.split())
        if any(words <= set(taken.split()) or set(taken.split()) <= words for taken in label):
            continue
        label.append(term)
        if len(label) == LABEL_TERMS:
            break
    return label


def topic_passages(db: Database, topic: dict, limit: int = 3) -> list[dict]:
    """The best passages for a topic, preferring its own documents."""
    members = {doc["id"] for doc in topic["documents"]}
    found = find_passages(db, " ".join(topic["label"]), topic["domain"], limit * 3)
    own = [p for p in found if p["document_id"] in members]
    others = [p for p in found if p["document_id"] not in members]
    return (own + others)[:limit]


def path_steps(db: Database, steps: list[PathStep], limit: int = 3, extra_terms: str = "") -> list[dict]:
    """Each step with the passages behind it; ``extra_terms`` narrows the queries to one operator."""
    result = []
    for number, step in enumerate(steps, start=1):
        query = f"{extra_terms} {step.query}".strip()
        found = find_passages(db, query, step.domain, limit)
        if extra_terms and not found:
            found = find_passages(db, step.query, step.domain, limit)
        result.append(
            {
                "step": number,
                "id": step.id,
                "title": step.title,
                "title_zh": step.title_zh,
                "domain": step.domain,
                "query": query,
                "passages": found,
            }
        )
    return result
