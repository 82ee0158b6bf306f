"""What the scorer reads off one document besides TF-IDF: technical depth and the kind of source.

Both are computed from the document itself (text, headings, code blocks, crawl kind and metadata), never
from where we happened to store it. Each returns a 0..1 figure and the reasons behind it, for ``shijie show``.

Depth (the settings at a glance in ``DEPTH_WEIGHTS``/``DEPTH_SATURATION``): length, code, numbers and
equations, structure (headings), and concept density (taxonomy concepts per 100 words and how many
distinct ones). Each signal saturates: past a few thousand words more length says nothing.

Source kind: paper, vendor guide, course, reference, blog, listicle or article, from cue words and form,
with a prior each (a vendor's optimization guide is worth more than a "10 tips" listicle).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

DEPTH_WEIGHTS = {"length": 0.15, "code": 0.2, "numbers": 0.15, "structure": 0.1, "concepts": 0.4}
DEPTH_SATURATION = {
    "words": 2500,  # a full chapter
    "code_units": 6,  # code blocks + code lines / 15
    "number_share": 0.03,  # 3% of tokens are numbers, units or math
    "headings": 8,
    "concepts_per_100_words": 3.0,
    "distinct_concepts": 25,
}

SOURCE_PRIOR = {
    "vendor_guide": 1.0,
    "paper": 0.9,
    "course": 0.7,
    "reference": 0.65,
    "article": 0.55,
    "blog": 0.5,
    "listicle": 0.15,
}

_NUMBERISH = re.compile(
    r"\b\d+(?:\.\d+)?\s*(?:%|x\b|gb/s|tb/s|tflops|gflops|flops|kb|mb|gb|ms|us|µs|ns|cycles?|bytes?|bits?)?"
    r"|[=×÷≤≥≈∑∏√∂∇^]|\b(?:log|exp|max|min|sum)\("
)
_CODE_LINE = re.compile(r"^\s*(?:[\w.\[\]]+\s*=[^=]|def |return |for .+:|if .+:|#include|__global__|@triton|\}|\{)", re.M)


@dataclass(frozen=True)
class Depth:
    score: float
    parts: dict[str, float]
    reasons: list[str]


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
        code_lines = len(_CODE_LINE.findall(text))
    numberish = len(_NUMBERISH.findall(text))
    number_share = numberish / max(n_tokens, 1)
    per_100 = 100.0 * concept_hits / max(n_tokens, 1)
    parts = {
        "length": min(1.0, math.log1p(n_tokens / 100) / math.log1p(sat["words"] / 100)),
        "code": min(1.0, (len(code_blocks) + code_lines / 15) / sat["code_units"]),
        "numbers": min(1.0, number_share / sat["number_share"]),
        "structure": min(1.0, len(headings) / sat["headings"]),
        "concepts": 0.5 * min(1.0, per_100 / sat["concepts_per_100_words"])
        + 0.5 * min(1.0, distinct / sat["distinct_concepts"]),
    }
    score = sum(DEPTH_WEIGHTS[k] * v for k, v in parts.items())
    reasons = [
        f"{n_tokens} words",
        f"{len(code_blocks)} code blocks, {code_lines} code lines",
        f"{number_share:.1%} numbers/units/math",
        f"{len(headings)} headings",
        f"{distinct} distinct domain concepts, {per_100:.1f} concept mentions per 100 words",
    ]
    return Depth(round(score, 4), {k: round(v, 4) for k, v in parts.items()}, reasons)


# cue phrases per source kind, matched on lowercased title + headings + the opening of the text
_CUES = {
    "paper": [
        r"\babstract\b", r"\breferences\b", r"\bet al\.", r"\bin this paper\b", r"\bwe propose\b",
        r"\bour (?:method|approach|results)\b", r"\barxiv\b", r"\[\d+(?:,\s*\d+)*\]", r"\bproceedings\b",
        r"\brelated work\b", r"\bconclusions?\b",
    ],
    "vendor_guide": [
        r"\bprogramming guide\b", r"\bbest practices\b", r"\b(?:tuning|optimization|user|developer)'?s? guide\b",
        r"\breference manual\b", r"\bnvidia\b", r"\bamd\b", r"\bintel\b", r"\brocm\b", r"\bcuda toolkit\b",
        r"\bcompute capability\b", r"\barchitecture whitepaper\b", r"\bour (?:gpus|hardware|devices)\b",
        r"\bcopyright\b.*\bcorporation\b", r"^\s*\d+\.\d+(?:\.\d+)*\.?\s+\w", r"\bnote:",
    ],
    "course": [
        r"\blecture\b", r"\bcourse\b", r"\bhomework\b", r"\bassignment\b", r"\bsyllabus\b", r"\bslides?\b",
        r"\bexercises?\b", r"\bstudents?\b", r"\bweek \d+\b", r"\blab \d+\b", r"\bprofessor\b", r"\bquiz\b",
    ],
    "reference": [
        r"\bparameters\b", r"\breturns?\b", r"\braises\b", r"\bclass \w+", r"\bmodule\b", r"\bsyntax\b",
        r"\bdeprecated\b", r"\bapi reference\b", r"\bargument\b", r"\bsee also\b",
    ],
    "blog": [
        r"\bposted (?:on|by)\b", r"\bin this (?:post|article|blog)\b", r"\bblog\b", r"\bi (?:think|was|have|wanted)\b",
        r"\bmy\b", r"\bcomments?\b", r"\bsubscribe\b", r"\bthanks for reading\b", r"\blet's\b",
    ],
    "listicle": [
        r"^\s*(?:top\s+)?\d+\s+(?:tips|tricks|ways|things|reasons|secrets|hacks|mistakes|best)\b",
        r"\byou won't believe\b", r"\bultimate\b", r"\bmust[- ]know\b", r"\bamazing\b", r"\bsecrets?\b",
        r"!\s", r"\bhacks?\b", r"\bgame[- ]changer\b", r"\bclick\b",
    ],
}
_CUE_PATTERNS = {kind: [re.compile(p, re.M) for p in pats] for kind, pats in _CUES.items()}
_NEEDED = {"paper": 3, "vendor_guide": 3, "course": 2, "reference": 4, "blog": 2, "listicle": 2}


def source_kind(title: str, headings: list, text: str, kind: str, metadata: dict, n_tokens: int) -> Source:
    head = "\n".join([title or "", *map(str, headings[:60])]).lower()
    body = (text or "")[:12000].lower()
    sample = head + "\n" + body
    hits: dict[str, list[str]] = {}
    for source, patterns in _CUE_PATTERNS.items():
        found = []
        for pattern in patterns:
            match = pattern.search(sample)
            if match:
                found.append(match.group(0).strip()[:30])
        hits[source] = found
    # the form of a document is evidence too
    if kind == "arxiv" or metadata.get("arxiv_id") or metadata.get("arxiv"):
        hits["paper"] += ["arXiv record", "arXiv record", "arXiv record"]
    if kind == "pdf" and metadata.get("authors"):
        hits["paper"].append("PDF with authors")
    if re.match(r"^\s*(?:top\s+)?\d+\s+\w+", (title or "").lower()) and n_tokens < 1500:
        hits["listicle"].append("numbered title")
    if len(headings) >= 12:
        hits["vendor_guide"].append(f"{len(headings)} sections")
    ratios = {k: len(v) / _NEEDED[k] for k, v in hits.items()}
    best = max(ratios, key=lambda k: (ratios[k], SOURCE_PRIOR[k]))
    if ratios[best] < 1.0:
        return Source("article", SOURCE_PRIOR["article"], ["no strong cue of a guide, paper, course or blog"])
    # a short page hitting listicle cues is a listicle whatever vendor names it drops
    if ratios["listicle"] >= 1.0 and n_tokens < 1500:
        best = "listicle"
    return Source(best, SOURCE_PRIOR[best], [f"cues: {', '.join(dict.fromkeys(hits[best]))}"])
