"""Words as the Vision counts them: Snowball stems, word pairs, CJK characters; one tokenization per text.

``tokens(text)`` lowercases, splits into runs of ``[a-z0-9_]`` and single CJK characters (as
``pipeline.terms`` does) and maps every word to its Snowball (Porter2) English stem, so "pipelining",
"pipelined" and "pipeline" are one word, and so are "coalesced"/"coalescing", "tiles"/"tiling",
"registers"/"register". A phrase is stemmed the same way (``phrase_key``), so profile terms, taxonomy
concepts, sense cues and the text always agree.

The stemmer is PyStemmer: the Snowball project's own C implementation (~1 µs a word), maintained with the
algorithms; a hand-written suffix stripper misses exactly the cases the issue names. Each distinct word is
stemmed once: a bounded cache maps surface word → stem, filled with a set difference so only new words cost
Python, and it remembers the first surface form of each stem to show stems as words ("memori" → "memory"): the
first written, the same in every process.

``tfidf_features(toks)`` is what the TF-IDF matrix and the value model's word pairs are made of: stems that
are neither English stop words nor numbers nor single Latin letters, plus each pair of adjacent such stems
("share memori", "bank conflict"). It is handed to scikit-learn's ``TfidfVectorizer`` as ready-made
features (``analyzer=prepared``), so a text is tokenized once for every use.

``corpus_tfidf(features, min_df, max_df)`` is ``TfidfVectorizer(analyzer=prepared, sublinear_tf=True, min_df=...,
max_df=..., dtype=float32).fit_transform(features)``, the same vectorizer and the same matrix bit for bit, counted
faster: scikit-learn counts a callable analyzer's features one at a time in a Python loop and prunes the vocabulary
term by term (a corpus's million stem pairs, most seen once); here ``Counter`` counts a page and the pruning and the
alphabetical order are array operations, the rest (the idf, the weights) scikit-learn's own ``TfidfTransformer``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import Stemmer

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

_TOKEN = re.compile(r"[a-z0-9_]+|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CACHE_LIMIT = 2_000_000  # distinct words kept; a bound on memory for endless vocabularies (ids, hashes)

_stemmer = Stemmer.Stemmer("english")
_stem_of: dict[str, str] = {}
_surface: dict[str, str] = {}


def _learn(words: Iterable[str]) -> None:
    new = list(words)
    if not new:
        return
    if len(_stem_of) + len(new) > _CACHE_LIMIT:
        _stem_of.clear()
        if len(_surface) > _CACHE_LIMIT:
            _surface.clear()
    stems = _stemmer.stemWords(new)
    _stem_of.update(zip(new, stems, strict=False))
    for word, stem in zip(new, stems, strict=False):
        _surface.setdefault(stem, word)


def tokens(text: str) -> list[str]:
    """The stemmed tokens of ``text``, in order."""
    return stems(written(text))


def written(text: str) -> list[str]:
    """The words of ``text`` as written (lower case, unstemmed), in order: ``tokens`` before stemming."""
    return _TOKEN.findall(text.lower())


def stems(raw: Sequence[str]) -> list[str]:
    """The stems of words as ``written`` gives them (``tokens(text) == stems(written(text))``)."""
    new = set(raw).difference(_stem_of)
    if new:  # learnt in the order written, not a set's (salted per process): a stem shows its first surface form
        _learn(w for w in dict.fromkeys(raw) if w in new)
    return list(map(_stem_of.__getitem__, raw))


def stem(word: str) -> str:
    return tokens(word)[0] if word.strip() else ""


def phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(tokens(phrase))


def surface(feature: str) -> str:
    """A stem or stem pair as a reader would write it ("share memori" → "shared memory")."""
    return " ".join(_surface.get(part, part) for part in feature.split(" "))


@cache
def skipped() -> frozenset[str]:
    """Stems that are no content: scikit-learn's English stop words, stemmed, and single Latin letters."""
    # imported here: scikit-learn costs ~2 s to import, which a command that only reads scores must not pay
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(tokens(" ".join(sorted(ENGLISH_STOP_WORDS)))) | frozenset("abcdefghijklmnopqrstuvwxyz_")


def tfidf_features(toks: Sequence[str]) -> list[str]:
    """Content stems and adjacent content-stem pairs: the TF-IDF vocabulary of a text."""
    skip = skipped()
    words = [t for t in toks if t not in skip and not t[0].isdigit()]
    return words + [f"{a} {b}" for a, b in itertools.pairwise(words)]


def prepared(features: list[str]) -> list[str]:
    """The analyzer handed to TfidfVectorizer: the features are already made (``tfidf_features``)."""
    return features


def corpus_tfidf(documents: Iterable[list[str]], min_df: int, max_df: float) -> tuple[TfidfVectorizer, object]:
    """The corpus's TF-IDF vectorizer, fitted, and its matrix of ``documents`` (each one's ``tfidf_features``): what
    ``TfidfVectorizer(analyzer=prepared, sublinear_tf=True, min_df=min_df, max_df=max_df, dtype=np.float32)
    .fit_transform(documents)`` returns, entry for entry and in the same order, and the same ValueErrors (no word at
    all; none left after pruning). A feature's first sighting numbers it, as scikit-learn's does, so each row's
    entries are stored in the order scikit-learn stores them (the rows' norms add them up in that order)."""
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer

    seen: defaultdict[str, int] = defaultdict()
    seen.default_factory = seen.__len__  # a new feature takes the next number
    indices: list[int] = []
    counts: list[int] = []
    indptr = [0]
    for features in documents:
        counted = Counter(features)
        indices.extend(map(seen.__getitem__, counted))
        counts.extend(counted.values())
        indptr.append(len(indices))
    if not seen:
        raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
    index_type = np.int64 if indptr[-1] > np.iinfo(np.int32).max else np.int32
    counts_matrix = sparse.csr_matrix(
        (
            np.asarray(counts, dtype=np.intc),
            np.asarray(indices, dtype=index_type),
            np.asarray(indptr, dtype=index_type),
        ),
        shape=(len(indptr) - 1, len(seen)),
        dtype=np.float32,
    )
    counts_matrix.sort_indices()
    n_docs = counts_matrix.shape[0]
    most = max_df if isinstance(max_df, int) else max_df * n_docs
    if most < min_df:
        raise ValueError("max_df corresponds to < documents than min_df")
    df = np.bincount(counts_matrix.indices, minlength=len(seen))
    kept = (df <= most) & (df >= min_df)
    if not kept.any():
        raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
    counts_matrix = counts_matrix[:, np.flatnonzero(kept)]
    terms = list(itertools.compress(seen, kept))  # in the order first seen
    alphabetical = sorted(range(len(terms)), key=terms.__getitem__)
    rank = np.empty(len(terms), dtype=counts_matrix.indices.dtype)
    rank[alphabetical] = np.arange(len(terms), dtype=rank.dtype)
    counts_matrix.indices = rank.take(counts_matrix.indices, mode="clip")
    weights = TfidfTransformer(sublinear_tf=True).fit(counts_matrix)
    matrix = weights.transform(counts_matrix, copy=False)
    vectorizer = TfidfVectorizer(
        analyzer=prepared, sublinear_tf=True, vocabulary=dict(zip(terms, rank.tolist(), strict=True)), dtype=np.float32
    )
    vectorizer.idf_ = weights.idf_  # sets its vocabulary too: fitted, as ``fit_transform`` leaves it
    return vectorizer, matrix
