"""Scoring benchmark: whole scoring vs a bare TfidfVectorizer.fit_transform on the same documents.

    python benchmarks/score_bench.py            # 10k and 100k documents
    python benchmarks/score_bench.py 2000       # any sizes

For each size it generates a corpus into a temporary SQLite file (not timed): documents with Zipf-
distributed words over a 60k-word vocabulary, lognormal lengths (median ~350 words), a third of them
on-topic (sprinkled with GPU/attention terms and taxonomy concepts), 5% planted near-duplicates (a copy
of an earlier document with 8% of its words replaced). Then, each in a fresh subprocess so peak memory
(ru_maxrss) is its own:

    bare        the texts loaded into a list, then TfidfVectorizer(**BARE_TFIDF).fit_transform (timed): word
                unigrams and bigrams, English stop words, sublinear tf (the settings scoring used before the
                Vision, arxiv-sanity's)
    whole       pipeline.score.score_corpus, the learned Vision: read from SQLite in batches (twice), stems,
                structure, TF-IDF, relevance, type, value, copies (boilerplate sketch, MinHash LSH of text and
                code), coverage, scores written back

and prints a table (sizes up to 20k: best of three alternating runs, the box is shared), the whole
scoring's time by stage, how the copies stage grew with the corpus, and recall of the planted duplicates.
"""

from __future__ import annotations

import hashlib
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BARE_TFIDF = dict(
    lowercase=True,
    strip_accents="unicode",
    stop_words="english",
    # a CJK character alone, or a word of 2+ letters/digits starting with a letter
    token_pattern=r"(?u)[\u3400-\u4dbf\u4e00-\u9fff]|[^\W\d\u3400-\u4dbf\u4e00-\u9fff][^\W\u3400-\u4dbf\u4e00-\u9fff]+",
    ngram_range=(1, 2),
    sublinear_tf=True,
    max_features=500_000,
    min_df=2,
    max_df=0.9,
    dtype=np.float32,
)

TOPIC_TERMS = [
    "shared memory",
    "tensor core",
    "warp",
    "fused attention",
    "flashattention",
    "backward pass",
    "triton",
    "cuda",
    "kernel",
    "tiling",
    "occupancy",
    "bank conflict",
    "online softmax",
    "log-sum-exp",
    "bf16",
    "memory bandwidth",
    "l2 cache",
    "num_warps",
    "autotune",
    "gemm",
    "atomic add",
    "mixed precision",
    "streaming multiprocessor",
    "roofline model",
    "arithmetic intensity",
    "ptx",
    "profiling",
    "nsight compute",
]


def _vocabulary(rng: np.random.Generator, size: int = 60_000) -> np.ndarray:
    syllables = np.array(
        [
            "ka",
            "to",
            "ri",
            "men",
            "sa",
            "lo",
            "ver",
            "an",
            "ti",
            "qu",
            "el",
            "or",
            "pra",
            "st",
            "ne",
            "di",
            "co",
            "mu",
            "ba",
            "zen",
            "fi",
            "ly",
            "ra",
            "ion",
            "ex",
            "ul",
        ]
    )
    words = set()
    while len(words) < size:
        n = rng.integers(1, 5)
        words.add("".join(rng.choice(syllables, n)))
    return np.array(sorted(words))


def generate(db_path: Path, n_docs: int, seed: int = 7) -> list[tuple[int, int]]:
    """Writes ``n_docs`` documents; returns the planted (original, copy) id pairs."""
    from pipeline.store import open_db

    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    ranks = np.arange(1, len(vocab) + 1)
    zipf = 1.0 / ranks**1.07
    zipf /= zipf.sum()
    db = open_db(db_path)
    texts: list[str] = []
    planted: list[tuple[int, int]] = []
    rows = []
    for doc_id in range(1, n_docs + 1):
        if doc_id > 100 and rng.random() < 0.05:
            original = int(rng.integers(1, doc_id))
            words = texts[original - 1].split(" ")
            edits = rng.random(len(words)) < 0.08
            for i in np.flatnonzero(edits):
                words[i] = vocab[rng.choice(len(vocab), p=zipf)]
            text = " ".join(words)
            planted.append((original, doc_id))
        else:
            length = int(min(6000, max(40, rng.lognormal(5.85, 0.6))))
            words = list(vocab[rng.choice(len(vocab), size=length, p=zipf)])
            if rng.random() < 0.33:  # on-topic: about 4% of the words are domain terms
                for i in rng.choice(length, size=max(1, length // 25), replace=False):
                    words[i] = TOPIC_TERMS[rng.integers(len(TOPIC_TERMS))]
            for i in range(60, length, 60):  # paragraphs
                words[i] = words[i] + ".\n\n" + words[i]
            text = " ".join(words)
        texts.append(text)
        rows.append(
            (
                doc_id,
                f"http://bench/{doc_id}",
                f"document {doc_id}",
                "html",
                text,
                "[]",
                "[]",
                "{}",
                hashlib.sha256(text.encode()).hexdigest(),
                time.time(),
            )
        )
        if len(rows) == 5000:
            _insert(db, rows)
            rows = []
    _insert(db, rows)
    return planted


def _insert(db, rows) -> None:
    with db.conn:
        db.conn.executemany(
            "INSERT INTO documents (id, url, title, kind, text, headings, code_blocks, metadata, content_hash,"
            " fetched_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            rows,
        )


# -- the three measured steps, each run in its own process ------------------------------------------------


def step_bare(db_path: str) -> dict:
    from sklearn.feature_extraction.text import TfidfVectorizer

    from pipeline.store import open_db

    db = open_db(db_path)
    texts = [f"{t}\n{x}" for t, x in db.conn.execute("SELECT title, text FROM documents ORDER BY id")]
    start = time.perf_counter()
    matrix = TfidfVectorizer(**BARE_TFIDF).fit_transform(texts)
    return {"seconds": time.perf_counter() - start, "nnz": int(matrix.nnz)}


def step_whole(db_path: str) -> dict:
    from pipeline.score import score_corpus
    from pipeline.store import open_db

    db = open_db(db_path)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    scored = score_corpus(db, timings=timings)
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "timings": timings,
        "high": sum(s.relevance == "high" for s in scored),
        "pairs": {s.id: s.duplicate_of for s in scored if s.redundancy == "high"},
    }


def _run_step(step: str, db_path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--step", step, str(db_path)], capture_output=True, text=True, check=True, cwd=REPO
    )
    return json.loads(out.stdout)


def bench(n_docs: int) -> dict:
    # the box is shared: small sizes run bare and whole alternately three times and keep the fastest
    repeats = 3 if n_docs <= 20_000 else 1
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "bench.db"
        planted = generate(db_path, n_docs)
        bares, wholes = [], []
        for _ in range(repeats):
            bares.append(_run_step("bare", db_path))
            wholes.append(_run_step("whole", db_path))
    bare = min(bares, key=lambda r: r["seconds"])
    whole = min(wholes, key=lambda r: r["seconds"])
    found = {(int(c), o) for c, o in whole["pairs"].items()}
    # the copy must be flagged against its original, or the original against the copy when it ranks higher
    recall = sum((c, o) in found or (o, c) in found for o, c in planted) / max(1, len(planted))
    return {
        "n": n_docs,
        "bare": bare,
        "whole": whole,
        "planted": len(planted),
        "recall": recall,
        "repeats": repeats,
    }


def main(sizes: list[int]) -> None:
    results = [bench(n) for n in sizes]
    print(
        "| documents | bare fit_transform | bare peak RSS | whole scoring | whole peak RSS | ratio | planted dup recall | runs |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['n']:,} | {r['bare']['seconds']:.1f} s | {r['bare']['rss_mb']:.0f} MB | {r['whole']['seconds']:.1f} s |"
            f" {r['whole']['rss_mb']:.0f} MB | {r['whole']['seconds'] / r['bare']['seconds']:.2f}x |"
            f" {r['recall']:.1%} of {r['planted']} | best of {r['repeats']} |"
        )
    print("\nwhole scoring by stage (seconds):\n")
    stages = list(results[0]["whole"]["timings"])
    print("| documents | " + " | ".join(stages) + " |")
    print("|---:|" + "---:|" * len(stages))
    for r in results:
        t = r["whole"]["timings"]
        print(f"| {r['n']:,} | " + " | ".join(f"{t[k]:.1f}" for k in stages) + " |")
    if len(results) >= 2:
        a, b = results[0], results[-1]
        size = b["n"] / a["n"]
        for name, key in (("copies stage", "copies"), ("whole scoring", None)):
            before = a["whole"]["timings"][key] if key else a["whole"]["seconds"]
            after = b["whole"]["timings"][key] if key else b["whole"]["seconds"]
            growth = after / max(before, 1e-9)
            print(
                f"\n{name} grew {growth:.1f}x for {size:.0f}x the documents "
                f"(quadratic would be {size * size:.0f}x; growth exponent {np.log(growth) / np.log(size):.2f})"
            )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--step":
        steps = {"bare": step_bare, "whole": step_whole}
        result = steps[sys.argv[2]](sys.argv[3])
        result["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
    else:
        main([int(a) for a in sys.argv[1:]] or [10_000, 100_000])
