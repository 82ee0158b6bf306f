"""Markdown notes on GPU kernels written by the tests themselves (random words from a small list), and a
database made of them: real documents to crawl, score and curate without shipping anyone's text.

    folder = notes(tmp_path / "notes", 30)
    db = curated_database(tmp_path / "shijie.db", folder)
"""

from __future__ import annotations

import random
from pathlib import Path

WORDS = [
    "shared",
    "memory",
    "bank",
    "conflict",
    "warp",
    "tile",
    "kernel",
    "tensor",
    "core",
    "occupancy",
    "register",
    "latency",
    "bandwidth",
    "gemm",
    "softmax",
    "attention",
    "backward",
    "pipeline",
    "async",
    "copy",
    "tiling",
    "reduction",
]


def notes(folder: Path, n: int, seed: int = 1) -> Path:
    """``n`` distinct Markdown notes on GPU kernels (text written here, word by random word)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        paragraphs = [" ".join(rng.choice(WORDS) for _ in range(80)) + f" {i}-{j}." for j in range(6)]
        code = f"```cuda\n__global__ void tile{i}(float* x) {{ x[threadIdx.x] *= {i}; }}\n```"
        text = f"# Note {i}: warp tiling\n\n## Why\n\n" + "\n\n".join(paragraphs) + f"\n\n## Code\n\n{code}\n"
        (folder / f"note{i:03}.md").write_text(text)
    return folder


def curated_database(path: Path, folder: Path) -> Path:
    """A database whose documents are crawled from ``folder``, scored and curated (through the library)."""
    from pipeline.crawl import CrawlSettings, crawl
    from pipeline.curate import curate
    from pipeline.score import score_corpus
    from pipeline.store import open_db

    db = open_db(path)
    crawl(db, [str(folder)], CrawlSettings(delay=0))
    score_corpus(db)
    curate(db, min_value=0)
    db.conn.close()
    return path
