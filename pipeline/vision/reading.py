"""One pass over a document: every figure the Vision needs from it, and its TF-IDF features; never its text.

``Reader(matcher, domains).read(row)`` tokenizes the title and text once (``analysis.tokens``), counts in
one phrase pass the profile's terms and sense words, the taxonomy's concepts and the cue phrases of
``signals`` (the profile's terms also in the words an identifier joins with underscores, ``identifier_words``),
reads the structure (``signals.read``), notes what the copies stage needs later (the hashes of
the text's lines, for the boilerplate count; the newest date and version the document shows) and returns a
``Reading`` plus the document's TF-IDF features (stems and stem pairs), which the caller hands on to the
vectorizer and then drops. A ``Reading`` holds figures only (~1 KB), so 100k of them fit in memory.

A row is what the scorer reads from the database: (id, url, title, kind, text, headings, code_blocks,
metadata), with headings, code blocks and metadata as JSON strings or already parsed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np

from .. import redundancy
from ..taxonomy import Domain
from ..terms import PhraseCounter
from . import analysis, signals
from .topic import Evidence, TopicMatcher

_YEAR_DATE = re.compile(r"\b((?:19|20)\d\d)[-/.](0?[1-9]|1[0-2])(?:[-/.](\d\d?))?\b")
LINE_MIN_CHARS = 8  # shorter lines ("Returns", "}") are never boilerplate worth counting
# phase 27 (rel29): the profile's terms are also counted in the words an identifier joins with underscores
IDENTIFIER_WORDS = True
_GAP = ""  # between two identifiers' words: no phrase runs from one identifier into the next
# phase 29 (rel31): the files a page's include directives name (Sphinx's include and literalinclude, m2r's mdinclude,
# MyST's fenced {include} and {literalinclude}), as written: the rendered page shows their text
_INCLUDE = re.compile(
    r"^[ \t]*(?:\.\. (?:literal|md)?include::|[`:]{3,}[ \t]*\{(?:literal)?include\})[ \t]+(\S+)[ \t]*$", re.MULTILINE
)


def included_names(text: str) -> tuple[str, ...]:
    """The files a page's include directives name (``.. include::``, ``.. literalinclude::``, ``.. mdinclude::``,
    MyST's ``{include}`` and ``{literalinclude}``), each once, in order: a tutorial page that is a sentence and a
    ``literalinclude`` of the program it teaches renders as that program, which its own text does not hold."""
    if "include" not in text:  # every directive _INCLUDE reads names itself so
        return ()
    return tuple(dict.fromkeys(_INCLUDE.findall(text)))


def identifier_words(written: list[str], whole: frozenset[str] = frozenset()) -> list[str]:
    """The words inside the identifiers a text writes with underscores, each identifier's words followed by a gap.

    A header's or a program's macros, fields and functions name what it is about in words the tokenizer keeps
    whole (``NVXX_QMD_SHARED_MEMORY_SIZE``, ``set_shader_local_memory_window``): read apart, they are the words a
    kernel engineer reads in them (shared memory size; shader local memory window). Numbers and single letters
    between the underscores are left out, and so is an identifier in ``whole`` (one the profile names as it is
    written, ``__syncthreads``, ``num_warps``: the phrase pass counts it already)."""
    words: list[str] = []
    for word in written:
        if "_" not in word or word in whole:
            continue
        parts = [part for part in word.split("_") if len(part) > 1 and not part.isdigit()]
        if parts:
            words += parts
            words.append(_GAP)
    return words


@dataclass
class Reading:
    id: int
    url: str
    title: str
    kind: str
    words: int
    evidence: Evidence
    concepts: dict[str, dict[str, int]]
    structure: signals.Structure
    newest_date: float  # the latest date the text or metadata shows, as year + month/12 (0: none)
    line_hashes: np.ndarray  # distinct hashes of the text's lines (for the boilerplate count), uint64
    includes: tuple[str, ...] = ()  # the files its include directives name (``included_names``)
    extra: dict = field(default_factory=dict)


def _loads(value, kind):
    if isinstance(value, kind):
        return value
    if not value:
        return kind()
    try:
        parsed = json.loads(value)
    except (json.JSONDecodeError, TypeError):
        return kind()
    return parsed if isinstance(parsed, kind) else kind()


def newest_date(written: float, metadata: dict) -> float:
    """The latest date a document shows (its metadata, or ``written``: the latest date in its text)."""
    best = written
    for key in ("updated", "published", "last_modified", "date"):
        value = str(metadata.get(key) or "")
        for year, month, _ in _YEAR_DATE.findall(value):
            best = max(best, int(year) + (int(month) - 1) / 12)
    return best


# a run of characters that are neither word characters nor a line break, but for a single space (which stays what it
# is): ``[^\w\n]+`` as a substitution, without one replacement per space between two words
_NOT_WORD = re.compile(r"[^\w\n](?:(?<! )[^\w\n]*|[^\w\n]+)")
# an ASCII text: A-Z to lower case, every other character but a word character or a line break to a space
_ASCII_KEY = str.maketrans(
    {chr(c): chr(c).lower() if chr(c).isalnum() or c in (ord("_"), ord("\n")) else " " for c in range(128)}
)


def line_keys(text: str) -> list[str]:
    """Each line as the boilerplate count knows it: its words, lower case, one space apart, without punctuation
    or marks (a man page's "- The reduction functions ( MPI_Op ) do" and its HTML twin's "The reduction
    functions (MPI_Op) do" are one line, and so are a Markdown list item and the HTML one). One pass over the
    whole text, not one per line: an ASCII text by a translation table (its words are ``[a-z0-9_]``, so the
    rest becomes spaces, which ``split`` and ``join`` make single), any other by a regular expression."""
    if text.isascii():
        return [" ".join(line.split()) for line in text.translate(_ASCII_KEY).split("\n")]
    return [line.strip() for line in _NOT_WORD.sub(" ", text.lower()).split("\n")]


def line_hashes(text: str) -> np.ndarray:
    """The distinct hashes of the text's lines of ``LINE_MIN_CHARS`` or more (``line_keys``), sorted, uint64."""
    lines = set(line_keys(text))
    return np.unique(redundancy.stable_hashes(line for line in lines if len(line) >= LINE_MIN_CHARS).view(np.uint64))


class Reader:
    def __init__(self, matcher: TopicMatcher, domains: list[Domain]):
        self.matcher = matcher
        self.domains_of: dict[str, list[str]] = {}
        for d in domains:
            for c in d.concepts:
                self.domains_of.setdefault(c, []).append(d.id)
        phrases = [*matcher.phrases(), *self.domains_of, *signals.cue_phrases()]
        self.counter = PhraseCounter(phrases, key=analysis.phrase_key)
        self.head_counter = PhraseCounter(signals.cue_phrases(), key=analysis.phrase_key)
        # the profile's terms only: a sense's context words are read in the text's words (an identifier's "left" or
        # "turn" is no turtle's); and not a [general] subject (MPI): a library's prefix on every call it names
        # (``MPI_Init``, ``MPI_COMM_WORLD``) makes no page about the library (``TopicMatcher.confirming``)
        self.term_counter = PhraseCounter(
            [t for t in matcher.terms if t not in matcher.subjects], key=analysis.phrase_key
        )
        # the terms written with underscores (``__syncthreads``, ``num_warps``): counted whole, never again in parts
        self.whole_terms = frozenset(
            key[0] for key in map(analysis.phrase_key, matcher.terms) if len(key) == 1 and "_" in key[0]
        )

    def read(self, row) -> tuple[Reading, list[str]]:
        doc_id, url, title, kind, text, headings, code_blocks, metadata = row
        headings = _loads(headings, list)
        code_blocks = _loads(code_blocks, list)
        metadata = _loads(metadata, dict)
        title = title or ""
        text = text or ""
        written = analysis.written(f"{title}\n{text}")
        toks = analysis.stems(written)
        found = self.counter.count(toks)
        head_found = self.head_counter.count(analysis.tokens("\n".join([title, *map(str, headings[:80])])))
        concepts: dict[str, dict[str, int]] = {}
        for concept, n in found.items():
            for domain_id in self.domains_of.get(concept, ()):
                concepts.setdefault(domain_id, {})[concept] = n
        structure = signals.read(title, text, headings, code_blocks, len(toks), found, head_found, url)
        reading = Reading(
            id=doc_id,
            url=url,
            title=title or url,
            kind=kind,
            words=len(toks),
            evidence=self.matcher.evidence(self._profile_found(found, written), len(toks)),
            concepts=concepts,
            structure=structure,
            newest_date=newest_date(structure.newest_date, metadata),
            line_hashes=line_hashes(text),
            includes=included_names(text),
        )
        return reading, analysis.tfidf_features(toks)

    def _profile_found(self, found: dict[str, int], written: list[str]) -> dict[str, int]:
        """The profile's terms and sense words the text holds, the terms also inside its identifiers' words."""
        inside: list[str] = []
        if IDENTIFIER_WORDS:
            joined = [w for w in written if "_" in w]
            whole = frozenset(w for w, s in zip(joined, analysis.stems(joined), strict=True) if s in self.whole_terms)
            inside = identifier_words(joined, whole)
        if inside:
            extra = self.term_counter.count(analysis.stems(inside))
            if extra:
                found = dict(found)
                for term, count in extra.items():
                    found[term] = found.get(term, 0) + count
        return self.matcher.as_written(found, [*(w for w in written if "_" not in w), *inside] if inside else written)
