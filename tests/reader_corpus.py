"""A small corpus written here for the reader's verbs (search, list, export, show, the terminal's safety):
FlashAttention summaries, a shared-memory guide, arXiv records, a Chinese note, an off-topic page, and pages
whose titles are hostile (rich markup, a hyperlink tag, escape sequences, a Markdown link, a spreadsheet
formula). Stored through the store's own writer (``store_document``) into a real SQLite file; scored and
curated by the real CLI in the tests that need it."""

from __future__ import annotations

from pathlib import Path

from pipeline.extract import Document
from pipeline.store import open_db, store_document

BODY = """The kernel keeps a tile of K and V in shared memory, and each warp of 32 threads reads it without bank
conflicts because the tile is padded by one column. Tensor cores multiply the tiles in bf16 and accumulate in
fp32; occupancy depends on registers per thread and shared memory per block. The backward pass recomputes the
probabilities from the saved log-sum-exp, accumulates dQ with atomic adds, and is validated against a float64
reference with mixed precision tolerances on a new GPU.
"""

HOSTILE_MARKUP = "Kernels [/b] and [bold red]styles[/] :warning: tuning"
HOSTILE_LINK = "[link=http://evil.example/]click me[/link] warp tuning"
HOSTILE_ESCAPES = "Clear\x1b[2J\x1b]0;pwned\x07 screen\x9b31m title\u202e reversed"
HOSTILE_MARKDOWN = "Occupancy notes](https://evil.example/) [Trusted"
HOSTILE_FORMULA = '=HYPERLINK("http://evil.example/","occupancy")'


SENTENCES = [s.strip() + "." for s in BODY.replace("\n", " ").split(". ") if s.strip()]


def _page(title: str, lead: str, n: int, kind: str = "html") -> Document:
    # one of the body's sentences each, and words of its own: no page is another's near-duplicate
    body = SENTENCES[n % len(SENTENCES)] if n < len(SENTENCES) else ""
    own = " ".join(f"{word}{n}" for word in ["tile", "warp", "block", "lane", "stage", "pipe", "bank", "sweep"] * 3)
    return Document(kind, title, f"{title}\n\n{lead}\n\n{body}\n\n{own}", headings=[title])


DOCUMENTS: dict[str, tuple[str, Document]] = {
    "fa2": (
        "https://notes.example.org/papers/flashattention-2-summary.html",
        _page(
            "Paper summary: FlashAttention-2 — reading group notes",
            "FlashAttention-2 reorders the loops of the attention forward pass so that each thread block owns a "
            "block of queries; FlashAttention-2 parallelises over the sequence and halves non-matmul FLOPs.",
            1,
        ),
    ),
    "fa3": (
        "https://notes.example.org/papers/flashattention-3-summary.html",
        _page(
            "Paper summary: FlashAttention-3 — asynchrony and low precision",
            "FlashAttention-3 overlaps the softmax of one block with the matmuls of the next using warp "
            "specialization and TMA on Hopper; FlashAttention-3 reaches 740 TFLOPS in fp16.",
            2,
        ),
    ),
    "guide": (
        "https://gpu.example.com/guides/shared-memory/",
        _page(
            "Shared memory bank conflicts, explained",
            "Allocate the tile with numba.cuda.shared.array and pad it by one column: the bank conflicts of the "
            "transpose vanish. Memory coalescing matters as much as the shared memory layout.",
            3,
        ),
    ),
    "streams": (
        "https://gpu.example.com/guides/streams.html",
        Document(
            "html",
            "CUDA streams and events",
            "CUDA streams and events\n\nCUDA streams order kernel launches; events time them. A CUDA graph "
            "captures a sequence of launches and replays it with one call, which hides launch latency for "
            "small kernels. Use cudaStreamSynchronize sparingly; prefer events between streams. Warps, tensor "
            "cores, occupancy and the backward pass of attention kernels all benefit from fewer launches.",
            headings=["CUDA streams and events"],
        ),
    ),
    "arxiv": (
        "https://arxiv.org/abs/2401.01234",
        Document(
            "arxiv",
            "TileFlow: Portable Tile Planning for Fused Attention on Emerging Accelerators",
            "TileFlow: Portable Tile Planning for Fused Attention on Emerging Accelerators\n\nWe plan tiles for "
            "the fused attention backward from a hardware profile alone: shared memory per block, registers per "
            "thread, warp size and tensor core shapes. " + BODY,
            metadata={
                "arxiv_id": "2401.01234",
                "version": 2,
                "authors": ["Ines Albrecht", "Tomasz Wierzbicki"],
                "published": "2024-01-03T18:59:59Z",
                "categories": ["cs.DC", "cs.LG"],
            },
            url="https://arxiv.org/abs/2401.01234",
        ),
    ),
    "journal": (
        "https://arxiv.org/abs/2403.04567",
        Document(
            "arxiv",
            "Deterministic Backward Passes for Fused Attention Without Atomics & {Braces}",
            "Deterministic Backward Passes for Fused Attention Without Atomics\n\nThe query gradient is "
            "accumulated without atomic additions by a second pass over the keys; bitwise reproducible training "
            "runs cost 12% more time on H100. Warps, shared memory and tensor cores are scheduled as in the "
            "forward pass, and the log-sum-exp is reused.",
            metadata={
                "arxiv_id": "2403.04567",
                "version": 1,
                "authors": ["Rafael Quintero", "Hana Kobayashi"],
                "published": "2024-03-07T09:12:44Z",
                "categories": ["cs.LG"],
                "journal_ref": "Proc. MLSys 2024",
                "doi": "10.1000/example.2024.7",
            },
            url="https://arxiv.org/abs/2403.04567",
        ),
    ),
    "zh": (
        "https://zh.example.cn/notes/shared-memory.html",
        Document(
            "html",
            "GPU 共享内存优化笔记",
            "GPU 共享内存优化笔记\n\n共享内存是 GPU 上的片上存储器。分块 tiling 可以减少全局内存访问，"
            "warp 内的 bank conflict 会降低吞吐。" * 6,
            headings=["GPU 共享内存优化笔记"],
        ),
    ),
    "python": (
        "https://py.example.net/tutorial/",
        Document(
            "html",
            "The Python tutorial: lists and dictionaries",
            "The Python tutorial. Lists, dictionaries, modules and classes are explained with examples of string "
            "formatting and file input and output. Python is easy to learn.",
        ),
    ),
    "markup": (
        "https://bad.example.net/markup.html",
        _page(HOSTILE_MARKUP, "Warp tuning with markup in the title.", 4),
    ),
    "link": ("https://bad.example.net/link.html", _page(HOSTILE_LINK, "Warp tuning behind a hyperlink tag.", 5)),
    "escapes": (
        "https://bad.example.net/escapes.html",
        Document(
            "html",
            HOSTILE_ESCAPES,
            "Escapes in the text: \x1b[31mred\x1b[0m and \x1b]0;window title\x07 occupancy notes.\n\n"
            + " ".join(f"{word}8" for word in ["tile", "warp", "block", "lane", "stage", "pipe", "bank", "sweep"] * 3),
        ),
    ),
    "markdown": (
        "https://bad.example.net/markdown.html",
        _page(HOSTILE_MARKDOWN, "Occupancy notes with a Markdown link in the title.", 6),
    ),
    "formula": (
        "https://bad.example.net/formula.html",
        _page(HOSTILE_FORMULA, "Occupancy as a spreadsheet formula.", 7),
    ),
}


def build(db_path: Path) -> dict[str, int]:
    """Writes the corpus into ``db_path``; returns name -> document id."""
    db = open_db(db_path)
    ids = {}
    for name, (url, doc) in DOCUMENTS.items():
        store_document(
            db, url, doc, final_url=None, content_type="text/html", byte_size=len(doc.text), etag=None,
            last_modified=None, depth=0,
        )  # fmt: skip
        ids[name] = db.conn.execute("SELECT id FROM documents WHERE url = ?", (doc.url or url,)).fetchone()[0]
    db.conn.commit()
    db.conn.close()
    return ids
