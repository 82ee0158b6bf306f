"""What the scorer reads off one document besides TF-IDF: technical depth and the kind of source.

Both are computed from the document itself (text, headings, code blocks, crawl kind and metadata), never
from where we happened to store it. Each returns a 0..1 figure and the reasons behind it, for ``shijie show``.

Depth (the settings at a glance in ``DEPTH_WEIGHTS``/``DEPTH_SATURATION``): length, code, numbers and
equations, structure (headings), and concepts (how many taxonomy concept mentions and how many distinct
concepts). Each signal saturates: past a few thousand words more length says nothing.

Source kind: paper, vendor guide, course, reference, blog, listicle, navigation or article, from cue
words and form, with a prior each (a vendor's optimization guide is worth more than a "10 tips" listicle).

Substance: the share of a page in short label lines (menus, link lists, tables of contents); an index page
has little content of its own however on-topic its link texts are.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from .terms import PhraseCounter, tokens

DEPTH_WEIGHTS = {"length": 0.15, "code": 0.2, "numbers": 0.15, "structure": 0.1, "concepts": 0.4}
DEPTH_SATURATION = {
    "words": 2500,  # a full chapter
    "code_units": 6,  # code blocks + code lines / 15
    "number_share": 0.03,  # 3% of tokens are numbers or math symbols
    "headings": 8,
    "concept_mentions": 40,
    "distinct_concepts": 25,
}

SOURCE_PRIOR = {
    "navigation": 0.1,
    "vendor_guide": 1.0,
    "paper": 0.9,
    "course": 0.7,
    "reference": 0.65,
    "article": 0.55,
    "blog": 0.5,
    "listicle": 0.15,
}

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_MATH = "=×÷≤≥≈∑∏√∂∇^"
_CODE_END = (";", "{", "}", "):", ")")
_CODE_START = ("def ", "return ", "#include", "__global__", "@triton", "import ", "for (", "if (")


def _code_lines(text: str) -> int:
    """Lines that read like code, for extractors that leave code inline."""
    count = 0
    for line in text.splitlines():
        line = line.strip()
        if line.endswith(_CODE_END) or line.startswith(_CODE_START):
            count += 1
    return count


@dataclass(frozen=True)
class Depth:
    score: float
    parts: dict[str, float]
    reasons: list[str]


@dataclass(frozen=True)
class Substance:
    score: float  # 1 for running text; down to LIST_FLOOR for pages that are mostly link or label lines
    list_share: float
    reasons: list[str]


LIST_TOLERANCE = 0.1  # headings and captions: a tenth of an article's words sit in short label lines
LIST_SLOPE = 2.0
LIST_FLOOR = 0.2
NAVIGATION_SHARE = 0.35  # at least this share in label lines: an index, table of contents or link list
_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE_OR_CODE = re.compile(r"[.!?。；;=(){}]")


def substance(text: str) -> Substance:
    """How much of a page is its own running text rather than short label lines (links, menus, lists).

    A paragraph of fewer than 12 words with no sentence end, code or formula is a label line: what an
    index, a table of contents or a navigation bar is made of.
    """
    total = listish = 0
    for paragraph in _PARAGRAPH.split(text or ""):
        words = len(paragraph.split())
        total += words
        if 0 < words < 12 and not _SENTENCE_OR_CODE.search(paragraph):
            listish += words
    share = listish / total if total else 1.0
    score = max(LIST_FLOOR, min(1.0, 1.0 - LIST_SLOPE * (share - LIST_TOLERANCE)))
    return Substance(round(score, 4), round(share, 4), [f"{share:.0%} of the words in short label lines"])


@dataclass(frozen=True)
class Source:
    kind: str
    prior: float
    reasons: list[str]


def loads_list(value: str | None) -> list:
    if not value:
        return []
    try:
        parsed = json.loads(value)
    except (json.JSONDecodeError, TypeError):
        return []
    return parsed if isinstance(parsed, list) else []


def loads_dict(value: str | None) -> dict:
    if not value:
        return {}
    try:
        parsed = json.loads(value)
    except (json.JSONDecodeError, TypeError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def depth(text: str, n_tokens: int, headings: list, code_blocks: list, concept_hits: int, distinct: int) -> Depth:
    sat = DEPTH_SATURATION
    code_lines = sum(str(block).count("\n") + 1 for block in code_blocks)
    if not code_blocks:  # extractors that leave code inline: count code-looking lines instead
        code_lines = _code_lines(text)
    numberish = len(_NUMBER.findall(text)) + sum(text.count(symbol) for symbol in _MATH)
    number_share = numberish / max(n_tokens, 1)
    parts = {
        "length": min(1.0, math.log1p(n_tokens / 100) / math.log1p(sat["words"] / 100)),
        "code": min(1.0, (len(code_blocks) + code_lines / 15) / sat["code_units"]),
        "numbers": min(1.0, number_share / sat["number_share"]),
        "structure": min(1.0, len(headings) / sat["headings"]),
        # absolute amounts, not densities: a short link list dense with terms is not deep
        "concepts": 0.5 * min(1.0, concept_hits / sat["concept_mentions"])
        + 0.5 * min(1.0, distinct / sat["distinct_concepts"]),
    }
    score = sum(DEPTH_WEIGHTS[k] * v for k, v in parts.items())
    reasons = [
        f"{n_tokens} words",
        f"{len(code_blocks)} code blocks, {code_lines} code lines",
        f"{number_share:.1%} numbers and math symbols",
        f"{len(headings)} headings",
        f"{distinct} distinct domain concepts, {concept_hits} concept mentions",
    ]
    return Depth(round(score, 4), {k: round(v, 4) for k, v in parts.items()}, reasons)


# Cue words and phrases per source kind, counted on the title, the headings and the first
# ``CUE_WINDOW`` words (the part of a page that says what it is), with the phrase counter of terms.py.
CUE_WINDOW = 2500
_CUES = {
    "paper": [
        "abstract",
        "references",
        "et al",
        "in this paper",
        "we propose",
        "our method",
        "our approach",
        "our results",
        "arxiv",
        "proceedings",
        "related work",
        "conclusion",
        "evaluation",
        "preprint",
    ],
    "vendor_guide": [
        "programming guide",
        "best practices",
        "tuning guide",
        "optimization guide",
        "user guide",
        "developer guide",
        "reference manual",
        "nvidia",
        "amd",
        "intel",
        "rocm",
        "cuda toolkit",
        "compute capability",
        "whitepaper",
        "our gpus",
        "corporation",
        "note",
    ],
    "course": [
        "lecture",
        "course",
        "homework",
        "assignment",
        "syllabus",
        "slide",
        "exercise",
        "student",
        "professor",
        "quiz",
        "lab",
        "semester",
        "midterm",
    ],
    "reference": [
        "parameters",
        "returns",
        "raises",
        "class",
        "module",
        "syntax",
        "deprecated",
        "api reference",
        "argument",
        "see also",
        "attribute",
        "method",
    ],
    "blog": [
        "posted on",
        "posted by",
        "in this post",
        "in this article",
        "blog",
        "i think",
        "i was",
        "i have",
        "i wanted",
        "my",
        "comments",
        "subscribe",
        "thanks for reading",
        "let s",
    ],
    "listicle": [
        "you won t believe",
        "ultimate",
        "must know",
        "amazing",
        "secret",
        "hack",
        "game changer",
        "click",
        "top 10",
        "tips and tricks",
        "insane",
        "mind blowing",
    ],
}
_NEEDED = {"paper": 3, "vendor_guide": 3, "course": 2, "reference": 4, "blog": 2, "listicle": 2}
_CUE_COUNTER = PhraseCounter(c for cues in _CUES.values() for c in cues)
_CUE_KIND = {c: kind for kind, cues in _CUES.items() for c in cues}
_CITATION = re.compile(r"\[\d+(?:,\s*\d+)*\]")
_NUMBERED_HEADING = re.compile(r"^\s*\d+(?:\.\d+)+\.?\s+\w", re.M)
_LISTICLE_TITLE = re.compile(r"^\s*(?:top\s+)?\d+\s+(?:tips|tricks|ways|things|reasons|secrets|hacks|mistakes|best)\b")


def source_kind(
    title: str, headings: list, text: str, kind: str, metadata: dict, toks: list[str], list_share: float = 0.0
) -> Source:
    if list_share >= NAVIGATION_SHARE:
        return Source(
            "navigation", SOURCE_PRIOR["navigation"], [f"{list_share:.0%} of the words in link or label lines"]
        )
    head = "\n".join([title or "", *map(str, headings[:60])])
    hits: dict[str, list[str]] = {k: [] for k in _CUES}
    for cue in _CUE_COUNTER.count(tokens(head) + toks[:CUE_WINDOW]):
        hits[_CUE_KIND[cue]].append(cue)
    opening = (text or "")[:20000]
    # the form of a document is evidence too
    if _CITATION.search(opening):
        hits["paper"].append("numbered citations")
    if kind == "arxiv" or metadata.get("arxiv_id") or metadata.get("arxiv"):
        hits["paper"] += ["arXiv record"] * 3
    if kind == "pdf" and metadata.get("authors"):
        hits["paper"].append("PDF with authors")
    if _NUMBERED_HEADING.search(head):
        hits["vendor_guide"].append("numbered sections")
    if len(headings) >= 12:
        hits["vendor_guide"].append(f"{len(headings)} sections")
    if _LISTICLE_TITLE.match((title or "").lower()):
        hits["listicle"] += ["numbered title"] * 2
    if opening[:5000].count("!") >= 3:
        hits["listicle"].append("exclamation marks")
    ratios = {k: len(v) / _NEEDED[k] for k, v in hits.items()}
    best = max(ratios, key=lambda k: (ratios[k], SOURCE_PRIOR[k]))
    if ratios[best] < 1.0:
        return Source("article", SOURCE_PRIOR["article"], ["no strong cue of a guide, paper, course or blog"])
    # a short page hitting listicle cues is a listicle whatever vendor names it drops
    if ratios["listicle"] >= 1.0 and len(toks) < 1500:
        best = "listicle"
    return Source(best, SOURCE_PRIOR[best], [f"cues: {', '.join(dict.fromkeys(hits[best]))}"])
