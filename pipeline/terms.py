"""Words and phrases as the scorer counts them: one tokenizer for concepts, profile terms and shingles.

Text is lowercased and split into runs of ``[a-z0-9_]`` (so ``cp.async`` → ``cp async``, ``split-k`` →
``split k``, ``__syncthreads`` stays whole) and single CJK characters (Chinese has no spaces; a phrase of
characters then matches as a sequence). A trailing plural ``s`` is dropped (``tensor cores`` counts as
``tensor core``) the same way on both sides, so phrases and text always agree.

``PhraseCounter`` counts many phrases in one left-to-right pass over the tokens (an index by first token),
linear in the text length whatever the number of phrases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

_TOKEN = re.compile(r"[a-z0-9_]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

_normal_form: dict[str, str] = {}


def _normalize(token: str) -> str:
    if len(token) > 3 and token[-1] == "s" and token[-2] not in "su'i":
        return token[:-1]
    return token


def raw_tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def tokens(text: str) -> list[str]:
    """The normalized tokens of ``text``."""
    cache = _normal_form
    if len(cache) > 2_000_000:  # a bound on memory for endless vocabularies (random ids, hashes)
        cache.clear()
    raw = raw_tokens(text)
    for token in set(raw).difference(cache):  # set arithmetic and map() run in C: only new words cost Python
        cache[token] = _normalize(token)
    return list(map(cache.__getitem__, raw))


def phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(tokens(phrase))


class PhraseCounter:
    """Counts occurrences of a fixed set of phrases (overlaps count for each phrase).

    ``key`` turns a phrase into tokens the way the text's tokens were made (default: ``phrase_key``; the
    Vision passes its stemming one, ``pipeline.vision.analysis.phrase_key``).
    """

    def __init__(self, phrases: Iterable[str], key: Callable[[str], tuple[str, ...]] | None = None):
        self.phrases: list[str] = []
        self._by_first: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for phrase in dict.fromkeys(phrases):
            key_of = (key or phrase_key)(phrase)
            if not key_of:
                continue
            self._by_first.setdefault(key_of[0], []).append((key_of, len(self.phrases)))
            self.phrases.append(phrase)

    def count(self, toks: Sequence[str]) -> dict[str, int]:
        """``{phrase: count}`` for the phrases that occur in ``toks`` (from ``tokens()``)."""
        counts: dict[int, int] = {}
        by_first = self._by_first
        n = len(toks)
        for i, token in enumerate(toks):
            candidates = by_first.get(token)
            if candidates is None:
                continue
            for key, index in candidates:
                if len(key) == 1 or (i + len(key) <= n and tuple(toks[i : i + len(key)]) == key):
                    counts[index] = counts.get(index, 0) + 1
        return {self.phrases[index]: c for index, c in counts.items()}
