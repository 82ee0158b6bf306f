"""The scorer on a real corpus nobody here wrote: Debian's numba and Python documentation.

    apt-get install numba-doc python3.11-doc
    python benchmarks/real_corpus.py [--max-pages 700] [--db real.db]

Serves /usr/share/doc/numba-doc/html and /usr/share/doc/python3.11/html on loopback (pipeline.corpus_server),
crawls both with the real crawler (pipeline.crawl), scores with the default topic profile (adapting
LLM-training operators to a new GPU) and prints the top 20 by relevance and by value, each page marked:

    cuda    a numba CUDA chapter (cuda/, cuda-reference/): where an engineer adapting GPU kernels should look
    numba   the rest of numba (JIT compiler, CPU parallelism, extending, developer notes)
    python  the Python documentation: the unrelated bulk

"belongs" counts the cuda pages. Nothing here is tuned to these documents; the profile and the settings
are the defaults.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.corpus_server import serve_folder
from pipeline.crawl import CrawlSettings, crawl
from pipeline.score import score_corpus
from pipeline.store import open_db

NUMBA = Path("/usr/share/doc/numba-doc/html")
PYTHON = Path("/usr/share/doc/python3.11/html")


def classify(url: str, numba_base: str) -> str:
    if not url.startswith(numba_base):
        return "python"
    path = urlsplit(url).path.lstrip("/")
    return "cuda" if path.startswith(("cuda/", "cuda-reference/")) else "numba"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-pages", type=int, default=700)
    parser.add_argument("--db", default=None, help="keep the database here (default: a temporary file)")
    parser.add_argument("--numba", type=Path, default=NUMBA)
    parser.add_argument("--python", type=Path, default=PYTHON)
    args = parser.parse_args()
    for folder in (args.numba, args.python):
        if not (folder / "index.html").is_file():
            sys.exit(f"{folder} is missing: apt-get install numba-doc python3.11-doc")
    with tempfile.TemporaryDirectory() as tmp:
        db = open_db(args.db or Path(tmp) / "real.db")
        with serve_folder(args.numba) as numba_base, serve_folder(args.python) as python_base:
            start = time.perf_counter()
            stats = crawl(
                db,
                [numba_base + "/index.html", python_base + "/index.html"],
                CrawlSettings(delay=0, max_pages=args.max_pages, max_depth=6, concurrency=8, per_host=4),
            )
            crawl_s = time.perf_counter() - start
        start = time.perf_counter()
        ranked = score_corpus(db)
        score_s = time.perf_counter() - start
        kinds = [classify(s.url, numba_base) for s in ranked]
        total = {k: kinds.count(k) for k in ("cuda", "numba", "python")}
        print(
            f"crawled {stats.stored} documents in {crawl_s:.0f} s ({total['cuda']} numba CUDA chapters, "
            f"{total['numba']} other numba pages, {total['python']} Python pages); scored in {score_s:.1f} s\n"
        )
        base_of = {"cuda": numba_base, "numba": numba_base, "python": python_base}
        by_relevance = sorted(ranked, key=lambda s: (-s.relevance_score, s.id))
        for title, order in (("relevance", by_relevance), ("value", ranked)):
            top = order[:20]
            marks = [classify(s.url, numba_base) for s in top]
            print(
                f"## top 20 by {title}: {marks.count('cuda')} of 20 are numba CUDA chapters "
                f"({marks.count('numba')} other numba, {marks.count('python')} Python)\n"
            )
            print("| # | value | relevance | redundancy | page | kind |")
            print("|---:|---:|---|---|---|---|")
            for n, (s, mark) in enumerate(zip(top, marks, strict=True), 1):
                path = s.url[len(base_of[mark]) :] or "/"
                print(
                    f"| {n} | {s.value} | {s.relevance} {s.relevance_score:.2f} | {s.redundancy} | "
                    f"{mark}:{path} | {s.components['source']['kind']} |"
                )
            print()
        cuda_ranks = [n for n, k in enumerate((classify(s.url, numba_base) for s in by_relevance), 1) if k == "cuda"]
        if cuda_ranks:
            print(
                f"CUDA chapters' relevance ranks: median {cuda_ranks[len(cuda_ranks) // 2]}, "
                f"last {cuda_ranks[-1]} of {len(ranked)}"
            )
        high = [k for s, k in zip(ranked, kinds, strict=True) if s.relevance == "high"]
        print(f"relevance 'high': {len(high)} pages, {high.count('cuda')} of them CUDA chapters")


if __name__ == "__main__":
    main()
