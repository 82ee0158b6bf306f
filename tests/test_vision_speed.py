"""The scorer's fast paths find what their plain forms find (speed24): each fast form against the plain one, on
texts made to hold what each form turns on (digits next to units and dots, month names in every case, the letters
IGNORECASE reads as ASCII ones, badges, math, words between marks, lines), and on random mixtures of them."""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest

from pipeline.vision import copies, signals
from pipeline.vision.reading import line_keys

# the plain forms, as signals.py wrote them before speed24
PLAIN = {
    "_NUMBER": re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])"),
    "_MEASURE": re.compile(
        r"\d(?:[\d.,]*)\s?(?:x\b|×|%|[kmgtp]i?b/s|[kmgt]?flop/?s|[kmgt]?ops\b|tops\b|ms\b|us\b|µs|μs|ns\b|"
        r"cycles?\b|[kmg]hz\b|[kmgt]i?b\b|bytes?\b|b/clk|gb\b|tb\b|watts?\b|w\b|fps\b|tokens?/s)",
        re.IGNORECASE,
    ),
    "_YEAR_DATE": re.compile(r"\b((?:19|20)\d\d)[-/.](0?[1-9]|1[0-2])(?:[-/.](\d\d?))?\b"),
    "_MONTH_DATE": re.compile(
        r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b", re.I
    ),
    "_MATH": re.compile(
        r"\$[^$\n]{1,200}\$|\\(?:frac|sum|prod|sqrt|cdot|times|mathbf|mathrm|left|right|le|ge|exp)\b|"
        r"[∑∏√∂∇≤≥≈×÷·αβγδεθλμσΣ]"
    ),
    "_BADGE": re.compile(r"\[!\[|shields\.io|badge", re.IGNORECASE),
}

PIECES = [
    "12", "3.5", "0,5", "1,024", "7.", ".9", "2019", "2020-03-14", "1999/12", "2021.7.4", "20190", "x12", "a1",
    "ms", "MS", "GB/s", "Gib", "tflops", "x", "×", "%", "µs", "μs", "ns", "cycles", "MHz", "bytes", "b/clk", "W",
    "fps", "tokens/s", "ops", "TOPS", "jan", "January", "FEB", "Sept", "sep", "ſep", "ſeptember", "MAY", "dec.",
    "Oct", "nov", "mar", "Marſ", "aug", "juL", "İx", "ıx", "Kb", "K", "badge", "BADGE", "Badges", "ſhields.io",
    "shİelds.io", "shields.io", "[![", "[!", "$x$", "$", "\\frac", "\\left(", "\\le", "\\lex", "∑", "Σ", "α",
    "·", "_", "__x", "foo", "bar.baz", "a-b", "(", ")", "!", "?", "\t", "   ", " ", "\n", "\n\n", "，", "中文", "٣",
    "١٢", "—", "-", "/", ".", ",", "jan\u212a", "Dec\u0130", "oct\u0131", "\u212a", "\u212ab",
]  # fmt: skip


def _texts(n: int, seed: int = 24) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        parts = [rng.choice(PIECES) for _ in range(rng.randint(1, 30))]
        out.append("".join(p + rng.choice(["", " ", " ", "  ", "\n", ".", ", "]) for p in parts))
    return out


WRITTEN = [
    "Updated Jan 5, 2019 and sep 2020; copyright 1999-2024. Released 2021-03-14, then 2022/7.",
    "The kernel runs at 1.5 ms, 12x faster: 900 GB/s, 3,000 cycles, 80% of peak, 1.2.3 is a version, v2.0ms.",
    "[![build](https://img.shields.io/badge/ci-passing)] and a BADGE; ſhields.io too.",
    "Math $a+b$ and \\frac{1}{2} \\left( x \\right) with ∑ and α·β ≤ γ; costs $5 and $6 later.",
    "ſeptember 2019, İJan 2020, DEC. 31, 2021, Marſ 1999, mayday 2020, 20190 and 2019x.",
]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_each_fast_pattern_finds_what_its_plain_form_finds(name):
    fast, plain = getattr(signals, name), PLAIN[name]
    for text in WRITTEN + _texts(3000):
        assert fast.findall(text) == plain.findall(text), (name, text)


def test_the_fast_patterns_see_what_they_were_written_for():
    # the comparison above must not pass on patterns that find nothing
    found = {name: sum(len(getattr(signals, name).findall(t)) for t in WRITTEN) for name in PLAIN}
    assert all(n > 0 for n in found.values()), found
    assert signals._MONTH_DATE.findall("sep 2019 and ſep 2019 and Ocz 2019") == [("sep", "2019"), ("ſep", "2019")]


def test_the_gates_of_read_give_the_plain_counts():
    """signals.read skips the digit scans on a text without a digit, math without "$", a backslash or a sign, CJK on
    an ASCII text: the figures are those of the plain patterns over the whole text."""
    for text in WRITTEN + _texts(400, seed=7) + ["no digits here, nor math", "١٢ ٣ kb 中文 ×"]:
        s = signals.read("t", text, [], [], len(text.split()), {}, {})
        numeric, named = PLAIN["_YEAR_DATE"].findall(text), PLAIN["_MONTH_DATE"].findall(text)
        assert s.numbers == len(PLAIN["_NUMBER"].findall(text))
        assert s.measurements == len(PLAIN["_MEASURE"].findall(text))
        assert s.dates == len(numeric) + len(named)
        months = [int(y) + (int(m) - 1) / 12 for y, m, _ in numeric]
        months += [int(y) + (signals._MONTHS[m[:3].casefold()] - 1) / 12 for m, y in named]
        assert s.newest_date == max(months, default=0.0)
        assert s.math == len(PLAIN["_MATH"].findall(text))
        assert s.cjk == len(re.findall(r"[\u4e00-\u9fff]", text))


def test_a_month_written_with_a_long_s_is_read_as_its_month():
    """IGNORECASE finds "ſep 2019" (a long s, as old print and some OCR write it) as a month date: the month is
    September, and reading the text does not fail on it."""
    s = signals.read("t", "Released ſeptember 2019; revised SEP 2018.", [], [], 6, {}, {})
    assert s.dates == 2 and s.newest_date == pytest.approx(2019 + 8 / 12)


def _plain_line_keys(text: str) -> list[str]:
    return [line.strip() for line in re.sub(r"[^\w\n]+", " ", text.lower()).split("\n")]


def test_line_keys_as_the_plain_substitution():
    texts = WRITTEN + _texts(2000, seed=3) + ["  A  b\t\tC__d \x0b\x1c e\r\n- f (g) h  \n\n", "ſ İ K ÉTÉ  été\u2028x"]
    for text in texts:
        assert line_keys(text) == _plain_line_keys(text), text
    assert line_keys("- The reduction ( MPI_Op ) do.\n") == ["the reduction mpi_op do", ""]


def test_line_counts_as_one_row_at_a_time():
    """LineCounts adds all rows at once, sorting long lists: the counters are those np.add.at gives row by row,
    counters that two hashes share included (a narrow table makes them common)."""
    rng = np.random.default_rng(5)
    for size in (1, 5, 95, 96, 400, 3000):
        hashes = np.unique(rng.integers(0, 2**63, size=size, dtype=np.int64)).view(np.uint64)
        for bits in (6, 12):
            table = np.zeros((copies.SKETCH_ROWS, 1 << bits), dtype=np.uint16)
            table[:] = rng.integers(0, 3, size=table.shape)
            expected = table.copy()
            with np.errstate(over="ignore"):
                slots = (hashes[None, :] * copies._MULTIPLIERS[: copies.SKETCH_ROWS, None]) >> np.uint64(64 - bits)
            for row in range(copies.SKETCH_ROWS):
                np.add.at(expected[row], slots[row], 1)
            counts = copies.LineCounts.__new__(copies.LineCounts)
            counts._add(table, hashes, bits)
            assert np.array_equal(table, expected), (size, bits)
            plain = np.min([expected[row][slots[row]] for row in range(copies.SKETCH_ROWS)], axis=0)
            assert np.array_equal(counts._count(table, hashes, bits), plain)


def test_signatures_as_datasketch_makes_them():
    """redundancy.signature_of computes the MinHash on the array: the hash values are datasketch's own."""
    from datasketch import LeanMinHash, MinHash

    from pipeline import redundancy

    rng = np.random.default_rng(9)
    for size in (1, 2, 7, 300, 5000):
        hashes = np.unique(rng.integers(0, 2**32, size=size, dtype=np.int64)).astype(np.uint64)
        template = redundancy._template
        plain = MinHash(
            num_perm=redundancy.NUM_PERM,
            seed=redundancy._SEED,
            hashfunc=redundancy._identity,
            permutations=template.permutations,
            scheme=template.scheme,
        )
        plain.update_batch(hashes.tolist())
        signature = redundancy.signature_of(hashes)
        assert signature is not None and signature.size == hashes.size
        assert signature.minhash.scheme == template.scheme and signature.minhash.seed == plain.seed
        assert np.array_equal(signature.minhash.hashvalues, LeanMinHash(plain).hashvalues)
        assert signature.minhash.hashvalues.dtype == LeanMinHash(plain).hashvalues.dtype


def test_signatures_refuse_what_datasketch_refuses():
    """Values that do not fit 32 bits unsigned (a negative one, a wider one) take datasketch's path and its
    ValueError, as before the array path: a cast to uint32 must not wrap them into a signature."""
    from pipeline import redundancy

    for hashes in (np.array([-1, 5], dtype=np.int64), np.array([-3, 4], dtype=np.int8), np.array([1, 2**40])):
        with pytest.raises(ValueError):
            redundancy.signature_of(hashes)


def test_group_counts_as_each_group_walked():
    """cues.group_counts adds each found phrase to its groups: the totals, distinct counts and group order of
    walking every group's phrases."""
    from pipeline.vision.cues import CUES, cue_phrases, group_counts

    phrases = cue_phrases()
    rng = random.Random(4)
    for _ in range(300):
        found = {p: rng.randint(1, 9) for p in rng.sample(phrases, rng.randint(0, 40))}
        found.update({"not a cue": 3} if rng.random() < 0.5 else {})
        total = {g: sum(found[p] for p in ps if p in found) for g, ps in CUES.items()}
        distinct = {g: sum(1 for p in ps if p in found) for g, ps in CUES.items()}
        got = group_counts(found)
        assert list(got[0].items()) == list(total.items()) and list(got[1].items()) == list(distinct.items())


def _stock_tfidf(documents, min_df, max_df):
    from sklearn.feature_extraction.text import TfidfVectorizer

    from pipeline.vision import analysis

    vectorizer = TfidfVectorizer(
        analyzer=analysis.prepared, sublinear_tf=True, min_df=min_df, max_df=max_df, dtype=np.float32
    )
    return vectorizer, vectorizer.fit_transform(documents)


def _feature_lists(n: int, seed: int = 38) -> list[list[str]]:
    """Pages of stems and stem pairs over a small vocabulary: some in every page, most in a few, a page with none."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(300)] + ["shared", "memori", "warp", "tile"]
    pages = []
    for _ in range(n):
        stems = [words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)] for _ in range(rng.randint(0, 60))]
        pages.append(stems + [f"{a} {b}" for a, b in itertools.pairwise(stems)])
    return pages


@pytest.mark.parametrize(("n", "min_df", "max_df"), [(200, 2, 0.9), (12, 1, 1.0), (60, 3, 0.5), (40, 2, 7)])
def test_corpus_tfidf_as_scikit_learns_vectorizer(n, min_df, max_df):
    from pipeline.vision import analysis

    pages = _feature_lists(n)
    stock, expected = _stock_tfidf(pages, min_df, max_df)
    fitted, matrix = analysis.corpus_tfidf(iter(pages), min_df, max_df)
    assert type(matrix) is type(expected) and matrix.dtype == expected.dtype and matrix.shape == expected.shape
    # entry for entry, in scikit-learn's order within each row (a row's norm adds its entries in that order)
    for got, want in (
        (matrix.indptr, expected.indptr),
        (matrix.indices, expected.indices),
        (matrix.data, expected.data),
    ):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert list(fitted.vocabulary_.items()) == list(stock.vocabulary_.items())
    assert fitted.idf_.dtype == stock.idf_.dtype and np.array_equal(fitted.idf_, stock.idf_)
    assert list(fitted.get_feature_names_out()) == list(stock.get_feature_names_out())
    probe = [pages[0], ["shared", "memori", "shared memori", "unseen"], []]
    assert np.array_equal(fitted.transform(probe).toarray(), stock.transform(probe).toarray())


@pytest.mark.parametrize(
    ("pages", "min_df", "max_df", "message"),
    [
        ([[], []], 1, 1.0, "empty vocabulary"),
        ([["a"], ["b"], ["c"]], 2, 1.0, "no terms remain"),
        ([["a"], ["b"]], 2, 0.9, "max_df corresponds"),
    ],
)
def test_corpus_tfidf_refuses_what_scikit_learn_refuses(pages, min_df, max_df, message):
    from pipeline.vision import analysis

    with pytest.raises(ValueError, match=message):
        _stock_tfidf(pages, min_df, max_df)
    with pytest.raises(ValueError, match=message):
        analysis.corpus_tfidf(pages, min_df, max_df)
