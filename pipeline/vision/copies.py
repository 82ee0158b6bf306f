"""Redundancy without boilerplate, and which copy of a group to keep: the newest, most complete, rendered one.

Two passes over the texts, both streaming:

1. While the scorer reads each document (``reading.Reader``), the hashes of its distinct lines go into a
   count-min sketch (``LineCounts``: 3 rows of 2^22 counters, 48 MB whatever the corpus size) that estimates
   in how many documents each line occurs.
2. ``Signer.sign`` reads each text again and drops its boilerplate before hashing: lines that occur in at
   least ``BOILERPLATE_DOCS`` documents (navigation, templates, shared footers) and lines of licence text
   (``_LICENCE_LINE``: copyright notices, "licensed under", SPDX tags) — unless what is left is under
   ``KEEP_ALL_BELOW`` of the document's words, in which case the page *is* a template or a copy of many and
   keeps its full text. What is left becomes 4-word shingles and a MinHash (``pipeline.redundancy``). Code
   blocks, filtered the same way (a licence header in a code fence is no shared code), get a second MinHash
   of their own: a translation of a tutorial shares its code, not its words. Two refinements:
   a document that is mostly licence text (``LICENCE_DOMINATED`` of its words in paragraphs with licence
   wording) is compared by its holder lines only (lines with a year, Debian's ``Files:`` lines; fewer than
   ``HOLDER_MIN_TOKENS`` words of them and it is compared with nothing): two MIT
   licences of two projects are not copies of each other, the same project's licence in two places is;
   a source copy (reStructuredText) loses its role markup (``:func:`x``` → ``x``) and directive lines, so
   its shingles meet the rendered page's.

``measure(infos)`` indexes both MinHashes in LSH (datasketch; expected O(1) candidates per query, so the cost
grows with the corpus, not its square) and, for every candidate pair, estimates the containment of one in the
other. A document's redundancy is its containment in a candidate that is *preferred* over it as the copy to
keep (``prefer``); ``duplicate_of`` names that candidate. The preference never looks at a score or rank:

    1. a rendered page over its source copy (a Sphinx ``_sources/*.rst.txt`` / ``.md.txt`` URL, a title made of
       markup, reStructuredText markup in a text file);
    2. the newer version: the first path segment or title word where the two differ, read as numbers
       (``llvm-14-doc`` < ``llvm-19-doc``, ``v2.1`` < ``v3.5``);
    3. the newer date it shows (metadata, or the latest date written in it), when a month or more apart;
    4. the more complete one (more distinct shingles, by more than 5%);
    5. HTML over markdown or plain text; then the lower id, so the choice is always the same.

A code-block copy counts when its code holds at least ``CODE_MIN_TOKENS`` tokens and ``CODE_MIN_SHARE`` of
the document, and ``CODE_CONTAINMENT`` of it lies in the other's code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from datasketch import MinHashLSH

from .. import redundancy
from . import analysis

BOILERPLATE_DOCS = 8  # a line in this many documents is a template (version groups stay below it)
KEEP_ALL_BELOW = 0.2  # a document left with less than this share of its words keeps them all
CODE_MIN_TOKENS = 60
CODE_MIN_SHARE = 0.2
CODE_CONTAINMENT = 0.9  # instruction listings of two GPU generations share 86% of their code and are no copies
HIGH_REDUNDANCY = redundancy.HIGH_REDUNDANCY
SKETCH_ROWS, SKETCH_BITS = 3, 22
_MULTIPLIERS = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)
_LICENCE_LINE = re.compile(
    r"copyright|\(c\)|©|licen[cs]ed? under|all rights reserved|spdx-license|permission is hereby granted|"
    r"warrant(?:y|ies)|licensor|redistribution",
    re.IGNORECASE,
)
LICENCE_DOMINATED = 0.6
HOLDER_MIN_TOKENS = 20
_HOLDER_LINE = re.compile(r"\b(?:19|20)\d\d\b|^\s*files:", re.IGNORECASE)
_ROLE = re.compile(r":[\w:+-]+:`([^`<]*?)(?:\s*<[^>]*>)?`")
_DIRECTIVE_OR_RULE = re.compile(r"^\s*(?:\.\. [\w:-]+::.*|[=\-~^*#+`'\"]{4,})\s*$", re.MULTILINE)
_PARAGRAPHS = re.compile(r"\n\s*\n")
_LICENCE_WORDS = (
    "copyright",
    "(c)",
    "©",
    "licen",
    "rights reserved",
    "spdx",
    "permission is hereby",
    "warrant",
    "redistribution",
)


def _has_licence(text: str) -> bool:
    """Cheap test before the line-by-line regex: plain substring search runs in C at memory speed."""
    low = text.lower()
    return any(word in low for word in _LICENCE_WORDS)


_SOURCE_URL = re.compile(r"/_sources/|\.(?:rst|md)\.txt$", re.IGNORECASE)
_RST_MARKUP = re.compile(r"^\s*\.\. [\w:-]+::|^\s*[=\-~^*]{4,}\s*$|:(?:ref|doc|class|func|code):`", re.MULTILINE)
_NUMBERS = re.compile(r"\d+")


class LineCounts:
    """A count-min sketch of in how many documents each line occurs (fixed memory, over-estimates only)."""

    def __init__(self) -> None:
        self.table = np.zeros((SKETCH_ROWS, 1 << SKETCH_BITS), dtype=np.uint32)

    def _slots(self, hashes: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return (hashes[None, :] * _MULTIPLIERS[:SKETCH_ROWS, None]) >> np.uint64(64 - SKETCH_BITS)

    def add(self, hashes: np.ndarray) -> None:
        if hashes.size:
            slots = self._slots(hashes)
            for row in range(SKETCH_ROWS):
                np.add.at(self.table[row], slots[row], 1)

    def count(self, hashes: np.ndarray) -> np.ndarray:
        if not hashes.size:
            return np.zeros(0, dtype=np.uint32)
        slots = self._slots(hashes)
        return np.min([self.table[row][slots[row]] for row in range(SKETCH_ROWS)], axis=0)


@dataclass(frozen=True)
class CopyInfo:
    """What the copies stage knows of one document."""

    id: int
    url: str
    title: str
    kind: str
    newest_date: float
    source_copy: bool
    text: redundancy.Signature | None
    code: redundancy.Signature | None
    code_share: float
    boilerplate_share: float  # share of the words dropped as boilerplate


def is_source_copy(url: str, title: str, kind: str, text: str) -> bool:
    if _SOURCE_URL.search(url):
        return True
    if title.strip() and not any(ch.isalnum() for ch in title):
        return True
    return kind in ("text", "markdown") and len(_RST_MARKUP.findall(text[:20000])) >= 5


class Signer:
    def __init__(self, counts: LineCounts, documents: int):
        self.counts = counts
        self.threshold = BOILERPLATE_DOCS if documents >= 2 * BOILERPLATE_DOCS else documents + 1

    def _content(self, text: str, licence: bool | None = None) -> tuple[str, bool]:
        """The text without its boilerplate lines (frequent in the corpus, or licence wording); whether any went."""
        lines = text.split("\n")
        keys = [line.strip().lower() for line in lines]
        hashes = np.fromiter((hash(k) for k in keys), dtype=np.int64, count=len(keys)).view(np.uint64)
        drop = (self.counts.count(hashes) >= self.threshold) & np.fromiter(
            (len(k) >= 8 for k in keys), dtype=bool, count=len(keys)
        )
        if _has_licence(text) if licence is None else licence:  # line by line only where licence wording is
            drop |= np.fromiter((_LICENCE_LINE.search(k) is not None for k in keys), dtype=bool, count=len(keys))
        if not drop.any():
            return text, False
        return "\n".join(line for line, gone in zip(lines, drop, strict=False) if not gone), True

    def sign(
        self, doc_id: int, url: str, title: str, kind: str, text: str, code_blocks: list, newest: float
    ) -> CopyInfo:
        source_copy = is_source_copy(url, title, kind, text)
        if source_copy:
            text = _DIRECTIVE_OR_RULE.sub("", _ROLE.sub(r"\1", text))
        licence = _has_licence(text)
        if licence and _licence_share(text) >= LICENCE_DOMINATED:
            all_toks = analysis.tokens(text)
            toks = analysis.tokens("\n".join(line for line in text.split("\n") if _HOLDER_LINE.search(line)))
            if len(toks) < HOLDER_MIN_TOKENS:  # a holder line or two tell no copy apart
                toks = []
        else:
            content, changed = self._content(text, licence)
            toks = analysis.tokens(content)
            all_toks = analysis.tokens(text) if changed else toks
            if all_toks and len(toks) < KEEP_ALL_BELOW * len(all_toks):
                toks = all_toks
        dropped = 1 - len(toks) / len(all_toks) if all_toks else 0.0
        code_toks = analysis.tokens(self._content("\n".join(map(str, code_blocks)))[0]) if code_blocks else []
        code_share = len(code_toks) / max(len(all_toks), 1)
        code = None
        if len(code_toks) >= CODE_MIN_TOKENS and code_share >= CODE_MIN_SHARE:
            code = redundancy.signature(code_toks)
        return CopyInfo(
            doc_id,
            url,
            title,
            kind,
            newest,
            source_copy,
            redundancy.signature(toks),
            code,
            round(code_share, 4),
            round(dropped, 4),
        )


def _licence_share(text: str) -> float:
    """Share of the words in paragraphs that carry licence wording."""
    total = licence = 0
    for paragraph in _PARAGRAPHS.split(text):
        words = len(paragraph.split())
        total += words
        if _LICENCE_LINE.search(paragraph):
            licence += words
    return licence / total if total else 0.0


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in _NUMBERS.findall(text)[:4])


def _version_order(a: str, b: str) -> int:
    """+1 when ``a`` reads as a newer version than ``b`` at the first place they differ, -1 older, 0 unknown."""
    parts_a, parts_b = re.split(r"[/\s]+", a), re.split(r"[/\s]+", b)
    for x, y in zip(parts_a, parts_b, strict=False):
        if x == y:
            continue
        nx, ny = _numbers(x), _numbers(y)
        if nx and ny and nx != ny and len(x) < 40 and len(y) < 40:  # not a commit hash or a long name
            letters_x, letters_y = re.sub(r"\d+", "#", x), re.sub(r"\d+", "#", y)
            if letters_x == letters_y:  # the same name with another number: a version
                return 1 if nx > ny else -1
        return 0
    return 0


def prefer(a: CopyInfo, b: CopyInfo) -> bool:
    """True when ``a`` is the better copy to keep of the two (see the module docstring)."""
    if a.source_copy != b.source_copy:
        return b.source_copy
    order = _version_order(a.url, b.url) or _version_order(a.title, b.title)
    if order:
        return order > 0
    if a.newest_date and b.newest_date and abs(a.newest_date - b.newest_date) >= 1 / 12:
        return a.newest_date > b.newest_date
    size_a = a.text.size if a.text else 0
    size_b = b.text.size if b.text else 0
    if min(size_a, size_b) and abs(size_a - size_b) > 0.05 * max(size_a, size_b):
        return size_a > size_b
    if (a.kind == "html") != (b.kind == "html"):
        return a.kind == "html"
    return a.id < b.id


@dataclass(frozen=True)
class Copy:
    score: float  # containment in the copy preferred over it (0: none)
    duplicate_of: int | None
    jaccard: float
    signal: str  # "text" | "code" | ""


def measure(infos: list[CopyInfo]) -> dict[int, Copy]:
    """Each document's containment in a preferred near-copy (``Copy``), over LSH candidates only."""
    by_id = {info.id: info for info in infos}
    settings = dict(
        threshold=redundancy.CANDIDATE_JACCARD, num_perm=redundancy.NUM_PERM, weights=redundancy.LSH_WEIGHTS
    )
    text_lsh, code_lsh = MinHashLSH(**settings), MinHashLSH(**settings)
    for info in infos:
        if info.text is not None:
            text_lsh.insert(info.id, info.text.minhash, check_duplication=False)
        if info.code is not None:
            code_lsh.insert(info.id, info.code.minhash, check_duplication=False)
    result: dict[int, Copy] = {}
    for info in infos:
        best = Copy(0.0, None, 0.0, "")
        for signal, lsh, own in (("text", text_lsh, info.text), ("code", code_lsh, info.code)):
            if own is None:
                continue
            for other_id in sorted(lsh.query(own.minhash)):
                if other_id == info.id:
                    continue
                other = by_id[other_id]
                theirs = other.text if signal == "text" else other.code
                jaccard = own.minhash.jaccard(theirs.minhash)
                score = redundancy.containment(jaccard, own.size, theirs.size)
                if (signal == "code" and score < CODE_CONTAINMENT) or score <= best.score:
                    continue
                if prefer(other, info):  # only a better copy to keep makes this one redundant
                    best = Copy(round(score, 4), other_id, round(jaccard, 4), signal)
        result[info.id] = best
    return result
