"""Topic profiles: what "relevant" means to the scorer.

A profile is a paragraph of text plus weighted phrases (see ``data/profiles/operator_adaptation.toml``, the
default: adapting LLM-training operators to a new GPU). ``shijie score --profile FILE`` loads another file
of the same shape; ``--topic TEXT`` makes a profile of a sentence, its words and adjacent word pairs
becoming the terms.

A profile may also tell the senses of its ambiguous terms apart (``[senses.TERM]`` with ``with`` and
``against`` word lists: "kernel" among GPU words, not among Linux or kernel-ridge words); the Vision's
relevance (``pipeline.vision.topic``) reads them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DataError
from .resources import data_dir, read_data_file
from .terms import raw_tokens

DEFAULT_PROFILE = "operator_adaptation.toml"

# words that carry no topic in a --topic sentence
_STOP = frozenset(
    (
        *("a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "how", "in", "into", "is", "it", "of"),
        *("on", "or", "the", "to", "what", "when", "which", "with"),
    )
)


@dataclass(frozen=True)
class Sense:
    """The context that marks the meaning a profile means by an ambiguous term, and the other meanings'."""

    with_words: tuple[str, ...]
    against: tuple[str, ...]


@dataclass(frozen=True)
class Profile:
    name: str
    text: str
    terms: dict[str, float]
    senses: dict[str, Sense] = field(default_factory=dict)
    general: frozenset[str] = frozenset()  # terms that confirm the topic but do not make it
    general_needs: float = 0.0  # the evidence of the other terms at which they count fully
    domains: dict[str, str] = field(default_factory=dict)  # term -> its domain ([terms.DOMAIN]); empty: one
    # term -> the beginnings of the words that count for it ([forms]): a one-word term whose stem is also an
    # everyday word's ("lowering" and "lower", "porting" and "port") counts only the words written so
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # [general] terms that make a page's subject where it says them densely ([general] subjects; topic.py:
    # SUBJECT_COUNT, SUBJECT_SHARE): a short page that names MPI in every other line is about MPI
    subjects: frozenset[str] = frozenset()

    def describe(self) -> str:
        return self.name


def default_profile() -> Profile:
    return load_profile(data_dir() / "profiles" / DEFAULT_PROFILE)


def load_profile(path: str | Path) -> Profile:
    path = Path(path)
    raw = read_data_file(path, "profile file")
    text = raw.get("text", "")
    if not isinstance(text, str):
        raise DataError(f"profile file {path}: 'text' must be a string")
    terms, domains = _terms(path, raw.get("terms", {}))
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in terms.values()):
        raise DataError(f"profile file {path}: [terms] must map phrases to numbers")
    if not text.strip() and not any(w > 0 for w in terms.values()):
        raise DataError(f"profile file {path} needs a 'text' or at least one positive term in [terms]")
    name = raw.get("name") or path.stem
    terms = {k.strip().lower(): float(w) for k, w in terms.items() if k.strip()}
    domains = {k.strip().lower(): d for k, d in domains.items() if k.strip()}
    general, needs, subjects = _general(path, raw.get("general", {}), terms)
    senses = _senses(path, raw.get("senses", {}), terms)
    forms = _forms(path, raw.get("forms", {}), terms)
    return Profile(str(name), text.strip(), terms, senses, general, needs, domains, forms, subjects)


def _forms(path: Path, raw: object, terms: dict[str, float]) -> dict[str, tuple[str, ...]]:
    """[forms]: term = ["beginning", ...], for one-word terms of the profile: the written words that count for it."""
    where = f"profile file {path}, [forms]"
    if not isinstance(raw, dict):
        raise DataError(f"{where} must map one-word terms to lists of word beginnings")
    forms = {}
    for term, beginnings in raw.items():
        term = term.strip().lower()
        if term not in terms:
            raise DataError(f"{where}: '{term}' is not one of the profile's [terms]")
        if len(raw_tokens(term)) != 1:
            raise DataError(f"{where}: '{term}' is not one word")
        if (
            not isinstance(beginnings, list)
            or not beginnings
            or not all(
                isinstance(b, str) and len(raw_tokens(b)) == 1 and raw_tokens(b)[0] == b.strip().lower()
                for b in beginnings
            )
        ):
            raise DataError(f"{where}: '{term}' must list the beginnings of its words, each one lower-case word")
        forms[term] = tuple(dict.fromkeys(b.strip().lower() for b in beginnings))
    return forms


def _terms(path: Path, raw: object) -> tuple[dict, dict[str, str]]:
    """[terms] flat (phrase = weight), or grouped by domain ([terms.DOMAIN] tables of phrase = weight): the
    phrases and, when grouped, each one's domain (pipeline.vision.topic weighs a page's evidence per domain)."""
    if not isinstance(raw, dict):
        raise DataError(f"profile file {path}: [terms] must map phrases to numbers")
    terms: dict = {}
    domains: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(value, dict):
            terms[key] = value
            continue
        for phrase, weight in value.items():
            if phrase in terms:
                raise DataError(f"profile file {path}: '{phrase}' is in [terms] twice (in [terms.{key}] too)")
            terms[phrase] = weight
            domains[phrase] = key
    return terms, domains


def _general(path: Path, raw: object, terms: dict[str, float]) -> tuple[frozenset[str], float, frozenset[str]]:
    where = f"profile file {path}, [general]"
    if not isinstance(raw, dict) or set(raw) - {"terms", "needs", "subjects"}:
        raise DataError(
            f"{where} takes 'terms' (a list of the profile's terms), 'needs' (a number) and 'subjects' (a list of "
            "its [general] terms)"
        )
    listed = raw.get("terms", [])
    if not isinstance(listed, list) or not all(isinstance(t, str) for t in listed):
        raise DataError(f"{where}: 'terms' must be a list of the profile's terms")
    general = frozenset(t.strip().lower() for t in listed)
    unknown = sorted(general - set(terms))
    if unknown:
        raise DataError(f"{where}: {', '.join(unknown[:5])} not among the profile's [terms]")
    needs = raw.get("needs", 0.0)
    if isinstance(needs, bool) or not isinstance(needs, (int, float)) or needs < 0:
        raise DataError(f"{where}: 'needs' must be a number >= 0")
    subjects = raw.get("subjects", [])
    if not isinstance(subjects, list) or not all(isinstance(t, str) for t in subjects):
        raise DataError(f"{where}: 'subjects' must be a list of its [general] terms")
    dense = frozenset(t.strip().lower() for t in subjects)
    if dense - general:  # a term of [terms] that is not a [general] one, or no term at all ('' included)
        names = ", ".join(repr(t) for t in sorted(dense - general)[:5])
        raise DataError(f"{where}: subjects {names} not among its [general] terms (its 'terms' list)")
    weightless = sorted(t for t in dense if terms[t] <= 0)  # a subject counts its weight as the page's own evidence
    if weightless:
        names = ", ".join(repr(t) for t in weightless[:5])
        raise DataError(f"{where}: subjects {names} need a weight above 0 in [terms]")
    return general, float(needs), dense


def _senses(path: Path, raw: object, terms: dict[str, float]) -> dict[str, Sense]:
    if not isinstance(raw, dict):
        raise DataError(f"profile file {path}: [senses] must be a table of [senses.TERM] tables")
    senses = {}
    for term, table in raw.items():
        where = f"profile file {path}, [senses.{term}]"
        term = term.strip().lower()
        if term not in terms:
            raise DataError(f"{where}: '{term}' is not one of the profile's [terms]")
        if not isinstance(table, dict) or set(table) - {"with", "against"}:
            raise DataError(f"{where} takes 'with' and 'against', lists of words")
        lists = []
        for key in ("with", "against"):
            words = table.get(key, [])
            if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
                raise DataError(f"{where}: '{key}' must be a list of words or phrases")
            lists.append(tuple(dict.fromkeys(w.strip().lower() for w in words)))
        senses[term] = Sense(*lists)
    return senses


def profile_from_topic(topic: str) -> Profile:
    """A profile from a sentence: its content words (weight 1) and adjacent word pairs (weight 2)."""
    words = [w for w in raw_tokens(topic) if w not in _STOP]
    if not words:
        raise DataError("needs at least one word that says what the topic is", field="topic")
    terms: dict[str, float] = {w: 1.0 for w in words if len(w) > 1}
    for first, second in itertools.pairwise(words):
        terms[f"{first} {second}"] = 2.0
    return Profile(f"topic: {topic.strip()}", topic.strip(), terms)
