"""The same corpus scored in two processes gives the same scores: nothing that reaches an outcome may rest on
Python's ``hash`` of a str, which is salted per process (``PYTHONHASHSEED``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.store import open_db
from tests.conftest import REPO
from tests.test_score import add

SENTENCES = [
    "Each thread block stages a tile of A and a tile of B in shared memory before the warps multiply them.",
    "Pad the shared memory tile by one column so that a warp reading a column meets no bank conflict.",
    "Tensor cores take fragments of 16 by 16 elements in half precision and accumulate in float32.",
    "Occupancy falls when a kernel holds more registers per thread than the multiprocessor can give.",
    "A reduction first sums within a warp with shuffles, then across warps through shared memory.",
    "The online softmax keeps a running maximum and a running sum, so one pass over the keys suffices.",
    "Double buffering overlaps the copy of the next tile with the multiply of the current one.",
    "Validate the kernel against a float64 reference and report the largest relative error per output.",
    "Coalesced loads read consecutive addresses from consecutive threads of a warp in one transaction.",
    "The backward pass recomputes the attention probabilities from the saved log-sum-exp of each row.",
    "Split the K dimension across blocks when M and N are small and add the partial sums at the end.",
    "Asynchronous copies move a tile from global to shared memory without passing through registers.",
]
CODE = """__global__ void scale_{n}(float *x, float a, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + {n}.0f;
}}
"""
PROBE = """
import json, sys
from pipeline.score import score_corpus
from pipeline.store import open_db
from pipeline.vision import analysis, copies, reading
words = "timer timers macro macros project projects need needed script scripting kernel kernels warp warps tile tiles"
text = "\\n".join(sys.argv[2:])
print(json.dumps({
    "scores": [{**s.as_json(), "components": s.components} for s in score_corpus(open_db(sys.argv[1]))],
    "lines": reading.line_hashes(text).tolist(),
    "shape": copies.shape(text).tolist(),
    "anchors": copies.anchors(text).tolist(),
    "key": int(copies.LineCounts._keyed(reading.line_hashes(text), "page")[0]),
    "surface": [analysis.surface(stem) for stem in analysis.tokens(words)],
}, sort_keys=True))
"""


def page(i: int, edit: int | None = None) -> str:
    """Eight of the sentences, starting at the ``i``-th, each its own line; ``edit`` changes one word in one."""
    lines = [SENTENCES[(i + k) % len(SENTENCES)] for k in range(8)]
    if edit is not None:
        lines[edit % 8] = lines[edit % 8].replace("the", "a", 1)
    return "\n".join(f"{n}. {line}" for n, line in enumerate(lines, 1)) * 3


def corpus(path: Path) -> None:
    """Fifty-two pages: twelve on one site, their near copies on another and a revision of some, a template's
    pages (one frame, a few words each their own), and small source files of one template."""
    db = open_db(path)
    frame = "Navigation: Home | Guides | Reference\nCopyright the authors. All rights reserved.\n"
    for i in range(12):
        add(db, f"http://a.test/guide/part{i}.html", f"Tiling part {i}", page(i), [f"Part {i}"])
        add(db, f"http://b.test/mirror/part{i}.html", f"Tiling part {i}", "Mirrored page.\n" + page(i, edit=i))
        if i % 3 == 0:
            add(db, f"http://a.test/guide/v2/part{i}.html", f"Tiling part {i}, revised", page(i) + "\nNew: TMA.")
        add(db, f"http://c.test/ref/op{i}.html", f"op{i}", frame + f"op{i} applies {SENTENCES[i].lower()}\n" + frame)
        add(db, f"http://d.test/src/scale_{i}.cu", f"scale_{i}.cu", CODE.format(n=i), kind="text")
    db.conn.close()


def score_in_process(db: Path, seed: str) -> dict:
    env = {
        **os.environ,
        "PYTHONHASHSEED": seed,
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    probe = [SENTENCES[0], SENTENCES[1], "gpt-4 OpenAI INTRO1 shared_mem sm_90"]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(db), *probe],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_two_processes_score_a_corpus_alike(tmp_path):
    corpus(tmp_path / "one.db")
    shutil.copy(tmp_path / "one.db", tmp_path / "two.db")
    first = score_in_process(tmp_path / "one.db", "1")
    second = score_in_process(tmp_path / "two.db", "2")
    scores = first["scores"]
    # the corpus reaches the copies stage: mirrors and revisions are found, so its sketches and buckets ran
    assert len(scores) >= 36 and sum(s["redundancy"] == "high" for s in scores) >= 6
    # what the sketches and the buckets key on, and the word a stem is shown as (an explanation's terms)
    for key in ("lines", "shape", "anchors", "key", "surface"):
        assert first[key] == second[key], key
    assert first["surface"][:2] == ["timer", "timer"]  # a stem shows its first written form
    assert len(first["scores"]) == len(second["scores"])
    for a, b in zip(first["scores"], second["scores"], strict=True):  # every outcome field, in the written order
        assert a == b
