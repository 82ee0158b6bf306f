"""The reader's verbs on a large database: the search index's build and sync, search, list and export.

    cd <repo> && PYTHONPATH=. python3 benchmarks/search_bench.py --documents 20000 --db /tmp/search-bench.db

A synthetic database (written here, no real text): ``--documents`` documents of 500 words drawn from a
20,000-word vocabulary plus six domain words, two thirds kept, each with a score row. Times, in order: the
first index of every document, a sync with nothing changed, a rebuild as curation does it (documents synced,
kept passages rewritten), searches (a word in every document, a camel-case phrase, a phrase and a word, a
prefix with an exclusion, repeated words, twenty distinct words), ``list`` of every row, a CSV export.
docs/perf.md ("Search, list and export") holds the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from pathlib import Path

from pipeline import query
from pipeline.export import records, to_csv
from pipeline.store import DocumentFilter, list_documents, open_db, rebuild_index, sync_documents

DOMAIN_WORDS = ["attention", "FlashAttention", "shared", "memory", "warp", "kernel"]


def build(path: Path, documents: int, seed: int = 0) -> None:
    for old in path.parent.glob(path.name + "*"):
        old.unlink()
    db = open_db(path)
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(20000)] + DOMAIN_WORDS * 200
    rows = []
    for i in range(documents):
        words = rng.choices(vocabulary, k=500)
        text = " ".join(words)
        status = "kept" if i % 3 else "discarded"
        digest = hashlib.sha256(text.encode()).hexdigest()
        rows.append((f"https://h{i % 50}.example/{i}", f"Doc {i} {words[0]}", text, digest, time.time(), status))
    db.conn.executemany(
        "INSERT INTO documents (url, title, kind, text, headings, code_blocks, metadata, content_hash, fetched_at,"
        " status) VALUES (?, ?, 'html', ?, '[]', '[]', '{}', ?, ?, ?)",
        rows,
    )
    db.conn.executemany(
        "INSERT INTO scores VALUES (?, ?, 'medium', 0.5, 'low', 0.1, NULL, '{\"gpu_architecture\": 0.3}',"
        ' \'{"source": {"kind": "article"}}\', \'bench\', 0)',
        [(i + 1, rng.randint(0, 100)) for i in range(documents)],
    )
    db.conn.commit()


def timed(label: str, work) -> object:
    started = time.perf_counter()
    value = work()
    print(f"{label:<48} {time.perf_counter() - started:8.3f} s")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=20000)
    parser.add_argument("--db", type=Path, default=Path("/tmp/search-bench.db"))
    args = parser.parse_args()
    timed(f"build {args.documents} documents", lambda: build(args.db, args.documents))
    db = open_db(args.db)
    timed("index every document (first sync)", lambda: sync_documents(db))
    timed("sync, nothing changed", lambda: sync_documents(db))

    def curation() -> None:
        with db.atomic():
            rebuild_index(db)

    timed("curation's rebuild (sync + kept passages)", curation)
    for words in ("attention", "flash attention", '"shared memory" warp', "mem* -kernel", "warp " * 150):
        hits = timed(f"search {words[:30]!r}", lambda words=words: query.search(db, words, 10, None))
        print(f"{'':<8}{len(hits)} hits, best {hits[0].score if hits else '-'}")  # type: ignore[attr-defined]
    twenty = " ".join(f"w{i}" for i in range(20))
    timed("search twenty distinct words", lambda: query.search(db, twenty, 10, None))
    timed("list every row", lambda: list(list_documents(db, DocumentFilter())))
    timed("export every row as CSV", lambda: to_csv(records(db, DocumentFilter())[0]))


if __name__ == "__main__":
    main()
