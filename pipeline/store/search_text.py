"""The text side of full-text search: what goes into the FTS5 tables and how a user's query reads.

Nothing here speaks SQL; ``fts`` indexes and ranks with it, and a change to ``fts_text`` must bump
``fts.INDEX_FORMAT`` so that every document is indexed again. Documents are indexed whole and, once kept, as
paragraph-sized passages (``split_passages``: a paragraph shorter than ``PASSAGE_MIN_CHARS`` joins the next,
and text longer than ``PASSAGE_MAX_CHARS`` is cut at a sentence end).

What is indexed (``fts_text``): SQLite's unicode61 tokenizer splits on spaces and punctuation, and
- Chinese has no spaces between words, so every CJK character stands alone, and a query matches a run of
  CJK characters as a phrase of single characters;
- ``FlashAttention`` is one token, so a camel-case word is indexed with its parts in front of it, between
  two control characters the tokenizer skips (``\\x02Flash Attention\\x03FlashAttention``): "flash attention"
  then finds it, as does "flashattention".
``display_text`` undoes both in what is shown; a match inside the parts marks the word itself.

Queries (``parse_search``): words are all required; ``"a phrase"``, ``prefix*``, ``-excluded`` (a word or
a phrase) and ``a OR b``; a word with punctuation inside (``numba.cuda.shared.array``, ``log-sum-exp``) is a
phrase of its parts; a camel-case word is the phrase of its parts. Queries longer than ``MAX_QUERY_CHARS``
characters or ``MAX_QUERY_TERMS`` distinct terms are refused: each term costs one pass over the index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UsageError
from ..terms import CJK

PASSAGE_MIN_CHARS = 300  # shorter paragraphs join the next one: a heading alone answers nothing
PASSAGE_MAX_CHARS = 1500  # longer ones are cut at a sentence end
MAX_QUERY_CHARS = 1000
MAX_QUERY_TERMS = 24

OPEN, CLOSE = "\x0e", "\x0f"  # a match in a snippet (display_text keeps them; the query API shows them)
_PARTS, _WORD = "\x02", "\x03"  # around a camel-case word's parts, in front of the word
_INDEX_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f]")  # our markers never come from a page
_CAMEL = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]*[a-z][A-Z][A-Za-z]*(?![A-Za-z])")
_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_LETTERS = re.compile(r"[A-Za-z]*")
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_SPACED = re.compile(f" ?({OPEN}?)([{_CJK_CLASS}])({CLOSE}?) ?")
_WORDS = re.compile(rf"[{_CJK_CLASS}]+|[^\W_]+(?:_[^\W_]+)*")


def camel_parts(word: str) -> list[str]:
    """``FlashAttention`` → [Flash, Attention]; a word that is not camel case → [word]."""
    return _CAMEL_PART.findall(word) if _CAMEL.fullmatch(word) else [word]


def fts_text(text: str) -> str:
    """Text as it is indexed: control characters blank, camel-case parts in front, CJK characters alone."""
    text = _INDEX_CONTROLS.sub(" ", text)
    text = _CAMEL.sub(lambda m: f"{_PARTS}{' '.join(camel_parts(m.group()))}{_WORD}{m.group()}", text)
    return CJK.sub(lambda m: f" {m.group(0)} ", text)


def display_text(indexed: str) -> str:
    """Undo ``fts_text`` in a snippet or passage; the OPEN/CLOSE match markers stay, balanced."""
    # fts_text put one space on each side of every CJK character: take exactly those away (a match marker may
    # sit between the space and the character), so the spaces the text had stay
    text = _CJK_SPACED.sub(r"\1\2\3", _drop_parts(indexed))
    return text.strip()


def _drop_parts(text: str) -> str:
    """Removes the camel-case parts (whole, or cut by a snippet's edges); a match inside them moves onto
    the word they stand in front of."""
    out: list[str] = []
    at = 0
    while at < len(text):
        start, end = text.find(_PARTS, at), text.find(_WORD, at)
        if end != -1 and (start == -1 or end < start):  # the text starts inside parts (a snippet's cut)
            parts = text[at:end]
            if parts.startswith("…"):
                out.append("…")
        elif start == -1:
            out.append(text[at:])
            break
        else:
            out.append(text[at:start])
            end = text.find(_WORD, start + 1)
            if end == -1:  # the text ends inside parts: drop them (a match they opened is closed below)
                out.append("…" if text.endswith("…") else "")
                break
            parts = text[start + 1 : end]
        written = "".join(out)
        inside = written.rfind(OPEN) > written.rfind(CLOSE)
        letters = _LETTERS.match(text, end + 1)
        word = letters.group() if letters and text[end + 1 : end + 2] != OPEN else ""
        if word and (OPEN in parts or CLOSE in parts):
            open_after = parts.rfind(OPEN) > parts.rfind(CLOSE)
            out.append(("" if inside else OPEN) + word + ("" if open_after else CLOSE))
        else:
            out.append(word)
        at = end + 1 + len(word)
    text = "".join(out)
    return text + CLOSE if text.rfind(OPEN) > text.rfind(CLOSE) else text


# -- queries -------------------------------------------------------------------------------------------


def _phrase(words: list[str], prefix: bool = False) -> str:
    tokens: list[str] = []
    for word in words:
        tokens.extend(word if CJK.match(word) else camel_parts(word) if len(words) == 1 else [word])
    return '"' + " ".join(tokens) + '"' + (" *" if prefix else "")


@dataclass(frozen=True)
class SearchQuery:
    """A parsed query: groups of alternatives that are all required, and phrases that exclude a document.
    Each phrase is an FTS5 string (``"flash attention"``, ``"mem" *``)."""

    groups: tuple[tuple[str, ...], ...]
    excluded: tuple[str, ...] = ()

    @property
    def phrases(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for group in self.groups for p in group))

    def expression(self, operator: str = "AND") -> str:
        groups = [group[0] if len(group) == 1 else "(" + " OR ".join(group) + ")" for group in self.groups]
        found = f" {operator} ".join(groups)
        if self.excluded:
            return f"({found}) NOT ({' OR '.join(self.excluded)})"
        return found


def parse_search(text: str) -> SearchQuery:
    """Reads a user's query (see the module docstring); a ``UsageError`` about ``query`` when it is empty,
    too long, or only exclusions."""
    if len(text) > MAX_QUERY_CHARS:
        raise UsageError(f"is {len(text)} characters long; at most {MAX_QUERY_CHARS}", field="query")
    groups: list[list[str]] = []
    excluded: list[str] = []
    join_next = False
    for match in re.finditer(r'(-?)(?:"([^"]*)"?|(\S+))', text):
        negative, quoted, bare = match.group(1) == "-", match.group(2), match.group(3)
        if bare == "OR" and not negative:
            join_next = bool(groups)
            continue
        prefix = bare is not None and bare.endswith("*")
        words = _WORDS.findall(quoted if quoted is not None else bare)
        if not words:
            continue
        phrase = _phrase(words, prefix)
        if negative:
            excluded.append(phrase)
        elif join_next:
            groups[-1].append(phrase)
        else:
            groups.append([phrase])
        join_next = False
    unique = list(dict.fromkeys(tuple(dict.fromkeys(group)) for group in groups))
    excluded = list(dict.fromkeys(excluded))
    if not unique:
        raise UsageError(
            "needs at least one word to find" + (" (-word only excludes)" if excluded else ""), field="query"
        )
    terms = len({p for group in unique for p in group}) + len(excluded)
    if terms > MAX_QUERY_TERMS:
        raise UsageError(f"has {terms} distinct terms; at most {MAX_QUERY_TERMS}", field="query")
    return SearchQuery(tuple(unique), tuple(excluded))


def fts_query(query: str, operator: str = "AND") -> str:
    """A safe FTS5 query of plain words: each word quoted, each run of CJK characters a phrase of single
    characters (what the skills' ``passages`` asks with)."""
    parts = []
    for run in _WORDS.findall(query):
        parts.append('"' + (" ".join(run) if CJK.match(run) else run) + '"')
    return f" {operator} ".join(parts)


# -- passages ------------------------------------------------------------------------------------------


def split_passages(text: str) -> list[str]:
    passages: list[str] = []
    buffer = ""
    for paragraph in re.split(r"\n\s*\n", text or ""):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        buffer = f"{buffer}\n\n{paragraph}" if buffer else paragraph
        if len(buffer) >= PASSAGE_MIN_CHARS:
            passages.extend(_cut(buffer))
            buffer = ""
    if buffer:
        if passages and len(passages[-1]) + len(buffer) <= PASSAGE_MAX_CHARS:
            passages[-1] = f"{passages[-1]}\n\n{buffer}"
        else:
            passages.append(buffer)
    return passages


def _cut(text: str) -> list[str]:
    pieces = []
    while len(text) > PASSAGE_MAX_CHARS:
        window = text[:PASSAGE_MAX_CHARS]
        end = max(window.rfind(". "), window.rfind("。"), window.rfind("\n"))
        end = end + 1 if end > PASSAGE_MIN_CHARS else PASSAGE_MAX_CHARS
        pieces.append(text[:end].strip())
        text = text[end:].strip()
    if text:
        pieces.append(text)
    return pieces
