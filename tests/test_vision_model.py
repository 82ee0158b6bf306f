"""The Vision's parts on texts we wrote: stems, senses, document types, copies, explained values, the scorer."""

from __future__ import annotations

import dataclasses
import math
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from pipeline import redundancy
from pipeline.errors import DataError
from pipeline.extract import extract
from pipeline.profile import default_profile, load_profile
from pipeline.score import score_corpus
from pipeline.store import Frontier, mark_document, open_db
from pipeline.taxonomy import load_taxonomy
from pipeline.vision import analysis, copies, preference, topic
from pipeline.vision.reading import Reader
from pipeline.vision.value_model import load_model
from tests.conftest import REPO

PROFILE = default_profile()

TILING = """# Tiling a GEMM through shared memory

Each thread block loads a tile of A and a tile of B from global memory into shared memory, so that every
element fetched from HBM is reused BLOCK_K times. Because the loads are coalesced, a warp reads 128 contiguous
bytes per request; this means the kernel reaches 80% of peak memory bandwidth. Note that a padded row avoids
bank conflicts: without the padding, the 32 threads of a warp hit the same bank and the access is serialized.

```cuda
__global__ void sgemm(const float* A, const float* B, float* C, int N) {
    __shared__ float As[32][33];
    __shared__ float Bs[32][33];
    int row = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < N; k += 32) {
        As[threadIdx.y][threadIdx.x] = A[row * N + k + threadIdx.x];
        __syncthreads();
    }
}
```

We measured 14.2 TFLOPS on an A100 (8.1 ms for N = 8192), 2.3x faster than the naive kernel, so the occupancy
of 50% was not the bottleneck; the register pressure was.
"""

CHANGELOG = """# Changelog

## [2.4.0] - 2025-03-02
### Added
- New release of the loader.
### Fixed
- Fixed a crash on empty input (closes #812).

## [2.3.1] - 2024-12-11
### Fixed
- Regression fix for the config parser.
### Removed
- Deprecated flag --old.

## [2.3.0] - 2024-10-01
### Added
- Support for Python 3.13.
"""

TURTLE = """# Turtle graphics

The turtle moves forward() and backward() on the screen. Call left(90) to turn the heading by 90 degrees, then
forward(100) to draw a line with the pen. A circle is drawn by circle(50). Use goto(x, y) to move the pen.
The screen is cleared with clear(); pen up with penup() so that forward() moves without drawing.
"""


def test_stems_join_the_forms_the_issue_names():
    assert analysis.stem("pipelining") == analysis.stem("pipeline") == analysis.stem("pipelined")
    assert analysis.stem("coalescing") == analysis.stem("coalesced")
    assert analysis.stem("tiles") == analysis.stem("tile")
    features = analysis.tfidf_features(analysis.tokens("The shared memory tiles"))
    assert "share memori" in features and "the" not in features
    assert analysis.surface("share memori") == "shared memory"


def _evidence(text: str):
    reader = Reader(topic.TopicMatcher(PROFILE), load_taxonomy())
    reading, _ = reader.read((1, "https://example.org/x.md", "", "markdown", text, [], [], {}))
    return reading.evidence


def test_word_senses_and_general_terms():
    gpu = _evidence("The kernel is launched on the GPU with a grid of thread blocks; each warp of the kernel reads.")
    linux = _evidence("The Linux kernel module is loaded at boot by initramfs; the kernel package and grub config.")
    assert gpu.senses["kernel"] > 0.8 > 0.3 > linux.senses["kernel"]
    assert gpu.score > 3 * linux.score
    turtle = _evidence(TURTLE)
    assert turtle.senses["forward"] < 0.3 and turtle.score < 0.05
    # thread, barrier and profiling are every technical text's words: alone, they make no GPU page
    general = _evidence("The thread waits at a barrier; profiling with the profiler shows the atomic counter.")
    assert general.score < 0.5 * _evidence(TILING).score * 0.2


MPI_PAGE = (
    "MPI_Allreduce combines values from all processes of the communicator and distributes the result back. "
    "It is a collective operation: every process of the communicator must call it. Message passing "
    "libraries implement allreduce as a reduce scatter followed by an allgather for long messages. "
    "Thread safety: the MPI library is thread safe when initialized with MPI_THREAD_MULTIPLE."
)


def test_a_page_deep_in_one_domain_needs_no_other_domain(tmp_path):
    # the default profile groups its terms by domain: an MPI reference page speaks of parallel computing only
    assert PROFILE.domains["allreduce"] == "parallel_computing" and PROFILE.domains["warp"] == "gpu_architecture"
    grouped = _evidence(MPI_PAGE)
    assert grouped.domain == "parallel_computing"
    flat = topic.TopicMatcher(dataclasses.replace(PROFILE, domains={}))
    reading, _ = Reader(flat, load_taxonomy()).read(
        (1, "https://example.org/x.md", "", "markdown", MPI_PAGE, [], [], {})
    )
    assert grouped.score > 1.5 * reading.evidence.score and reading.evidence.domain is None
    # the OS kernel and turtle pages stay out: no domain's terms are there in our sense
    assert _evidence(TURTLE).score < 0.05
    # [terms.DOMAIN] tables load as one phrase list; a phrase in two of them is a one-line error
    path = tmp_path / "p.toml"
    path.write_text("text = 'x'\n[terms.a]\nwarp = 2\n[terms.b]\nmpi = 1\n", encoding="utf-8")
    loaded = load_profile(path)
    assert loaded.terms == {"warp": 2.0, "mpi": 1.0} and loaded.domains == {"warp": "a", "mpi": "b"}
    path.write_text("text = 'x'\n[terms]\nwarp = 1\n[terms.a]\nwarp = 2\n", encoding="utf-8")
    with pytest.raises(DataError, match="twice"):
        load_profile(path)


def test_the_shipped_model_reads_types_from_text_and_structure():
    model = load_model()
    reader = Reader(topic.TopicMatcher(PROFILE), load_taxonomy())
    # an ordinary URL: the type comes from the text as the extractor gives it, not from a file name
    for text, expected in ((CHANGELOG, "changelog"), (TILING, ("guide", "tutorial", "blog"))):
        doc = extract(text.encode(), "text/markdown", "https://example.org/page.md").documents[0]
        row = (1, "https://example.org/page", doc.title, doc.kind, doc.text, doc.headings, doc.code_blocks, {})
        reading, features = reader.read(row)
        doc_type, probabilities = model.doc_type(reading.structure.features(), model.words(features))
        assert doc_type in (expected if isinstance(expected, tuple) else (expected,)), (doc_type, probabilities)


# phase 27 (type24): five pages of our own, one of each kind a kernel engineer tells apart by what its sentences say
# as much as by its form
# (the phase 26 model, reading the structure alone, took the prose guide for marketing: guide 0.13)
OUR_GUIDE = """# Understanding occupancy

This guide explains what occupancy is, why it matters for a GPU kernel and when it does not. Occupancy is the ratio
of the warps resident on a streaming multiprocessor to the most warps it can hold. Each SM has a fixed number of
registers and a fixed amount of shared memory, and every block a kernel launches takes its share of both, so the
resources one thread uses decide how many warps fit.

## Why occupancy hides latency

A warp that waits for a load from global memory cannot issue. The scheduler then picks another warp that is ready,
so with enough resident warps the memory latency is hidden behind the work of the others. This is why a kernel bound
by memory latency often speeds up when each thread uses fewer registers.

## When more occupancy does not help

Higher occupancy is not a goal in itself. A kernel that keeps its data in registers and issues independent
instructions (instruction-level parallelism) can reach the memory bandwidth with a quarter of the warps. Conversely,
forcing the register count down with launch bounds makes the compiler spill to local memory, which costs more than
the latency it hides. Measure before you tune: the profiler reports the achieved occupancy beside the theoretical
one, and the gap between them tells you whether the launch or the workload limits it.
"""

OUR_TUTORIAL = """# Tutorial: your first reduction kernel

In this tutorial you will write a kernel that sums an array on the GPU, step by step, and check it against the CPU.
You need a CUDA toolkit and a GPU; each step builds on the previous one.

## Step 1: allocate and copy the input

First, create an array of a million floats on the host, allocate the same amount on the device and copy it over:

```cuda
float *d_in;
cudaMalloc(&d_in, n * sizeof(float));
cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
```

## Step 2: write the kernel

Next, let each block load its part of the array into shared memory and add pairs of values until one is left:

```cuda
__global__ void reduce(const float *in, float *out, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}
```

## Step 3: launch it and check the result

Now launch one block of 256 threads per 256 elements, copy the sum back and compare it with a loop on the CPU. Try
changing the block size to 512 and see what happens to the time. In the next tutorial we will replace the shared
memory loop with warp shuffles.
"""

OUR_API_REFERENCE = """# tilemath.gemm

## gemm(a, b, out=None, *, alpha=1.0, beta=0.0, transpose_a=False, transpose_b=False, stream=None)

Computes out = alpha * op(a) @ op(b) + beta * out on the device.

**Parameters**

- `a` (*Tensor*): the left matrix, shape (m, k), or (k, m) when `transpose_a` is true.
- `b` (*Tensor*): the right matrix, shape (k, n), or (n, k) when `transpose_b` is true.
- `out` (*Tensor, optional*): the result, shape (m, n); allocated when None.
- `alpha` (*float*): scale of the product. Default: 1.0.
- `beta` (*float*): scale of `out` before the product is added. Default: 0.0.
- `stream` (*Stream, optional*): the stream to launch on; the current stream when None.

**Returns**: *Tensor*, the result `out`.

**Raises**: `ValueError` if the inner dimensions differ; `TypeError` if `a` and `b` have different dtypes.

## gemm_batched(a, b, out=None, *, alpha=1.0, beta=0.0, stream=None)

Computes one gemm per batch entry. `a` has shape (batch, m, k) and `b` shape (batch, k, n).

**Returns**: *Tensor* of shape (batch, m, n).

## gemm_workspace_size(m, n, k, dtype)

Returns the bytes of scratch memory the tuned kernel needs for these sizes (*int*).
"""

OUR_INSTALL = """# Installing tilemath

## Requirements

- Linux on x86-64 or aarch64
- CUDA 12.2 or newer, and a driver that supports it
- Python 3.10 to 3.13
- CMake 3.24 or newer and a C++17 compiler, to build from source

## Install the wheel

```
pip install tilemath
```

## Build from source

```
git clone https://example.org/tilemath.git
cd tilemath
cmake -B build -DCMAKE_BUILD_TYPE=Release -DTILEMATH_ARCH=90
cmake --build build -j
pip install ./python
```

## Check the installation

```
python -c "import tilemath; print(tilemath.__version__)"
```

If the import fails with a missing libcudart, add the toolkit's lib64 folder to LD_LIBRARY_PATH.
"""

OUR_CHANGELOG = """# Release notes

## tilemath 0.9.2 (2026-10-03)

- Fixed a wrong result of gemm with beta != 0 on non-contiguous outputs.
- Fixed the wheel for aarch64, which was missing the sm_90 kernels.

## tilemath 0.9.1 (2026-08-19)

- gemm_batched now accepts a stream argument.
- Fixed a crash when m or n is zero.

## tilemath 0.9.0 (2026-07-01)

- Added gemm_workspace_size.
- Removed the deprecated gemm_legacy entry point.
- Dropped support for CUDA 11.
"""

OUR_PAGES = (
    (OUR_GUIDE, "guide"),
    (OUR_TUTORIAL, "tutorial"),
    (OUR_API_REFERENCE, "api_reference"),
    (OUR_INSTALL, "install"),
    (OUR_CHANGELOG, "changelog"),
)


def _read_page(text: str):
    doc = extract(text.encode(), "text/markdown", "https://example.org/page.md").documents[0]
    row = (1, "https://example.org/page", doc.title, doc.kind, doc.text, doc.headings, doc.code_blocks, {})
    return Reader(topic.TopicMatcher(PROFILE), load_taxonomy()).read(row)


@pytest.mark.parametrize("text,expected", OUR_PAGES, ids=[t for _, t in OUR_PAGES])
def test_the_type_model_reads_a_pages_words_beside_its_form(text, expected):
    model = load_model()
    reading, features = _read_page(text)
    doc_type, probabilities = model.doc_type(reading.structure.features(), model.words(features))
    assert doc_type == expected, sorted(probabilities.items(), key=lambda kv: -kv[1])[:4]


def test_the_shipped_type_model_reads_the_words_and_they_tell_a_tutorial_and_an_install_page():
    model = load_model()
    assert "terms" in model.doctype["reads"] and len(model.doctype["term_coef"]) == len(model.vocabulary)
    assert model.raw["provenance"]["settings"]["type_terms"] > 0  # the provenance says what the type model read
    terms, classes = np.asarray(model.doctype["term_coef"]), model.doctype["classes"]
    for text, expected in ((OUR_TUTORIAL, "tutorial"), (OUR_INSTALL, "install")):
        _, features = _read_page(text)
        words = model.words(features)
        said = np.asarray(words.values) @ terms[np.asarray(words.indices)]  # the words' part of each class's logit
        assert classes[int(np.argmax(said))] == expected, sorted(
            zip(said.round(3), classes, strict=True), reverse=True
        )[:3]


def test_the_type_model_is_fitted_on_the_words_and_the_scorer_reads_them_as_training_does():
    """Pages of one form, told apart only by their words: the fit with the terms types them, the form alone
    cannot; the model file's type model gives the scorer the probabilities training gives."""
    from pipeline.vision import training
    from pipeline.vision.labelled import TYPES, Label
    from pipeline.vision.value_model import VisionModel

    def sample(text: str, kind: str, family: str, form: dict, relevance: str = "admin") -> training.Sample:
        reading, features = _read_page(text)
        label = Label(f"gh:our/{family}", family, "github", "", "0" * 40, "p.md", "", relevance, "C", kind, "", "")
        return training.Sample(label, reading, features, dict(form), Counter(features))

    form = _read_page(OUR_GUIDE)[0].structure.features()  # every page gets this one form
    pages = {"install": OUR_INSTALL, "changelog": OUR_CHANGELOG, "api_reference": OUR_API_REFERENCE}
    fitted = [
        sample(text + f"\n\nNote {n} of {family}.", kind, family, form, ("admin", "off")[n])
        for kind, text in pages.items()
        for family in ("one", "two", "three")
        for n in range(2)
    ]
    new = [sample(text.replace("tilemath", "fastconv"), kind, "four", form) for kind, text in pages.items()]
    settings = {"c_topic": 1.0, "alpha_words": 3.0, "c_type": 1.0}
    words = training.fit_word_models(fitted, **settings)
    alone = training.fit_word_models(fitted, **settings, type_terms=0.0)
    by_words, by_form = training.apply_word_models(words, new)["types"], training.apply_word_models(alone, new)["types"]
    assert [TYPES[j] for j in by_words.argmax(axis=1)] == list(pages)
    assert np.allclose(by_form, by_form[0])  # one form: the structure alone reads every page alike
    value = training.ValueFit(["words_value"], np.zeros(1), np.ones(1), np.zeros(1), 0.0)
    raw = training.model_document(PROFILE, words, value, 0.5, {"medium": 0.3, "high": 0.5}, {})
    model = VisionModel(raw)
    assert model.doctype["reads"] == ["structure", "terms"]
    for s, row in zip(new, by_words, strict=True):
        _, probabilities = model.doc_type(s.structure, model.words(s.features))
        assert np.allclose([probabilities.get(t, 0.0) for t in TYPES], row, atol=1e-3)
    no_terms = {**raw, "doctype": {k: v for k, v in raw["doctype"].items() if k != "term_coef"}}
    with pytest.raises(DataError, match="reads the terms"):
        VisionModel(no_terms)


def test_every_value_is_the_sum_of_its_listed_contributions():
    model = load_model()
    figures = {name: mean for name, mean in zip(model.value["features"], model.value["mean"], strict=False)}
    _value, explained = model.value_of(figures)  # the average training document
    assert (
        abs(explained["raw"] - 100 * model.value["intercept"]) < 0.01
        and abs(explained["raw"] - explained["base"]) < 0.1
    )
    figures["code_share"] = figures["code_share"] + 0.3
    _, moved = model.value_of(figures)
    listed = {c["feature"]: c["points"] for c in moved["contributions"]}
    assert abs(moved["raw"] - explained["raw"] - listed["code_share"]) < 0.1
    assert abs(moved["base"] + sum(listed.values()) + moved["rest"] - moved["raw"]) < 0.2


def _info(doc_id, url, text, title="", kind="html", newest=0.0, counts=None, code=(), copy_of=None):
    counts = counts or copies.LineCounts()
    return copies.Signer(counts, 100).sign(doc_id, url, title, kind, text, list(code), newest, copy_of)


PAGE = "\n\n".join(
    f"Paragraph {i}: the warp scheduler issues one instruction per cycle from a ready warp, and shared memory "
    f"banks serve 32 threads at once unless two of them address the same bank {i}."
    for i in range(30)
)


def test_the_copy_to_keep_is_the_newer_rendered_complete_one_never_the_higher_ranked():
    old = _info(1, "file:///usr/share/doc/llvm-14-doc/html/NVPTXUsage.html", PAGE)
    new = _info(2, "file:///usr/share/doc/llvm-19-doc/html/NVPTXUsage.html", PAGE + "\n\nA new section on TMA.")
    source = _info(3, "file:///usr/share/doc/llvm-19-doc/html/_sources/NVPTXUsage.rst.txt", PAGE, kind="text")
    found = copies.measure([old, new, source])
    assert found[2].duplicate_of is None  # the newest rendered page is the representative
    assert found[1].duplicate_of == 2 and found[1].score > 0.9
    # the source copy repeats a better copy (either page; curation follows the chain to the representative)
    assert found[3].duplicate_of in (1, 2) and found[3].score > 0.9
    reverse = copies.measure([new, old, source])  # the order they come in changes nothing
    assert {k: v.duplicate_of for k, v in reverse.items()} == {k: v.duplicate_of for k, v in found.items()}
    dated_old = _info(4, "https://example.org/a", PAGE + "\nUpdated 2023-04-01", newest=2023.25)
    dated_new = _info(5, "https://example.org/b", PAGE + "\nUpdated 2025-02-01", newest=2025.08)
    assert copies.measure([dated_old, dated_new])[4].duplicate_of == 5


def _paragraphs(n: int, topic: str) -> str:
    return "\n\n".join(
        f"{topic} {i}: the block of {i * 16} threads stages tile {i} of the operand through shared memory while "
        f"warp {i % 8} waits on barrier {i}, and the register file holds accumulator {i} across the loop."
        for i in range(n)
    )


def test_a_short_old_version_inside_a_long_new_one_is_a_copy_a_quoted_file_is_not():
    old_text = _paragraphs(6, "Staging")
    new_text = old_text + "\n\n" + _paragraphs(40, "Pipelining")
    old = _info(1, "https://raw.example.org/triton/da40a1e/README.md", old_text, kind="markdown")
    new = _info(2, "https://raw.example.org/triton/3f2c9b1/README.md", new_text, kind="markdown")
    assert old.text and new.text and old.text.minhash.jaccard(new.text.minhash) < 0.3  # LSH alone misses it
    found = copies.measure([old, new])
    assert found[1].duplicate_of == 2 and found[1].signal == "contained" and found[1].score > 0.9
    assert found[2].duplicate_of is None
    # the same containment between a page and an example file it quotes whole is no copy
    example = _info(3, "https://docs.example.org/examples/demo.py", old_text, kind="text")
    page = _info(4, "https://docs.example.org/html/index.html", new_text)
    assert copies.measure([example, page])[3].duplicate_of is None


def test_a_post_merged_into_a_longer_tutorial_is_its_excerpt_a_page_in_an_overview_is_not():
    # one commit of a repository: a blog post written first, then taken whole into a longer tutorial of another
    # name in another folder. Neither is newer by its path or dates: the longer one is the complete text
    repo = "https://raw.githubusercontent.com/org/notes/abc1234"
    post = _words("swz", 200)
    tutorial = _words("intro", 400) + "\n\n" + post + "\n\n" + _words("tail", 400)
    urls = {1: f"{repo}/swizzle/code/doc/post2.md", 2: f"{repo}/swizzle/tutorial.md"}
    infos = [_info(1, urls[1], post, kind="markdown"), _info(2, urls[2], tutorial, kind="markdown")]
    assert infos[0].text and infos[1].text and infos[0].text.minhash.jaccard(infos[1].text.minhash) < 0.3
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].signal == "contained" and found[1].because["rule"] == "complete"
    assert found[2].duplicate_of is None
    # the same texts where the longer one is a project's overview (a README gathers its pages' text, each still
    # read in its place), a generator's HTML (a reference lists one declaration in several indexes), a source
    # file a page quotes, or a page of the same folder (one template): no copies
    for part, whole, kind in (
        (f"{repo}/docs/getting-started.md", f"{repo}/README.md", "markdown"),
        (f"{repo}/html/group/group__props.html", f"{repo}/html/file/buffer_8h.html", "html"),
        (f"{repo}/examples/swizzle.py", f"{repo}/swizzle/tutorial.md", "markdown"),
        (f"{repo}/swizzle/post2.md", f"{repo}/swizzle/tutorial.md", "markdown"),
    ):
        pair = [_info(1, part, post, kind=kind), _info(2, whole, tutorial, kind=kind)]
        assert copies.measure(pair)[1].duplicate_of is None, part
    # less than EXCERPT_CONTAINMENT of it inside: a post that shares a part with the tutorial stays a page
    half = _words("swz", 100) + "\n\n" + _words("own", 100)
    assert copies.measure([_info(1, urls[1], half, kind="markdown"), infos[1]])[1].duplicate_of is None


def _lettered(n: int) -> str:
    """A number written in letters (``105`` → ``baf``): a tag no number in a name changes into another's."""
    return "".join(chr(ord("a") + int(d)) for d in str(n))


def _words(tag: str, n: int) -> str:
    """``n`` words no other tag writes, in paragraphs of 20: texts that share only what they are given."""
    return "\n\n".join(" ".join(f"{tag}{k}w{j}" for j in range(20)) for k in range(n // 20))


_HEAD, _PAST = "abc1234def", "0123456fed"
_REPO = "https://raw.githubusercontent.com/org/proj"


def _forms():
    """One text in two places, in the forms a fresh corpus brings (our own words): (name, {id: (url, text,
    kind, newest date)}, the copy, the pages it may be found a copy of)."""
    text, other = _words("gemm", 400), _words("soft", 400)
    rewritten = "\n\n".join(text.split("\n\n")[:14]) + "\n\n" + _words("new", 120)  # 70% kept, the rest new
    head = {100 + k: (f"{_REPO}/{_HEAD}/misc/page{k}.md", _words(f"misc{k}", 200), "markdown", 0.0) for k in range(3)}
    return [
        (
            "moved at a past commit and rewritten",
            {1: (f"{_REPO}/{_PAST}/docs/gemm.md", text, "markdown", 0.0)}
            | {2: (f"{_REPO}/{_HEAD}/guide/matmul.md", rewritten, "markdown", 0.0)}
            | head,
            1,
            {2},
        ),
        (
            "a Debian package's page renamed and rewritten in its next version",
            {
                1: ("file:///usr/share/doc/foo-1-doc/html/gemm.html", text, "html", 0.0),
                2: ("file:///usr/share/doc/foo-2-doc/html/matmul.html", rewritten, "html", 0.0),
            },
            1,
            {2},
        ),
        (
            "a site's release page renamed in its latest channel",
            {
                1: ("https://docs.example.org/v1.2/guide/gemm.html", text, "html", 0.0),
                2: ("https://docs.example.org/latest/guide/matmul.html", rewritten, "html", 0.0),
            },
            1,
            {2},
        ),
        (
            "a page split in two",
            {1: (f"{_REPO}/{_PAST}/docs/guide.md", text + "\n\n" + other, "markdown", 0.0)}
            | {2: (f"{_REPO}/{_HEAD}/docs/gemm.md", text, "markdown", 0.0)}
            | {3: (f"{_REPO}/{_HEAD}/docs/softmax.md", other, "markdown", 0.0)}
            | head,
            1,
            {2, 3},
        ),
        (
            "two pages merged into one",
            {1: (f"{_REPO}/{_PAST}/docs/gemm.md", text, "markdown", 0.0)}
            | {2: (f"{_REPO}/{_PAST}/docs/softmax.md", other, "markdown", 0.0)}
            | {3: (f"{_REPO}/{_HEAD}/docs/guide.md", text + "\n\n" + other, "markdown", 0.0)}
            | head,
            1,
            {3},
        ),
        (
            "an older vendored copy in another repository",
            {
                1: (
                    f"https://raw.githubusercontent.com/other/app/{_HEAD}/third_party/proj/gemm.md",
                    text,
                    "markdown",
                    2023.0,
                ),
                2: (f"{_REPO}/{_HEAD}/docs/gemm.md", rewritten, "markdown", 2025.0),
            },
            1,
            {2},
        ),
    ]


@pytest.mark.parametrize("form", _forms(), ids=lambda form: form[0])
def test_one_text_in_two_places_is_a_copy_in_every_form_a_fresh_corpus_brings(form):
    _, docs, copy, kept = form
    counts = copies.LineCounts()
    for url, text, _, _ in docs.values():
        counts.add(copies_line_hashes(text), url)
    found = copies.measure(
        [_info(n, url, text, kind=kind, newest=newest, counts=counts) for n, (url, text, kind, newest) in docs.items()]
    )
    assert found[copy].duplicate_of in kept and found[copy].score >= copies.HIGH_REDUNDANCY
    assert all(found[k].duplicate_of is None for k in kept)


def test_one_file_at_two_revisions_is_a_copy_from_its_own_cut_two_files_sharing_as_much_are_not():
    old_text = f"{_words('kept', 240)}\n\n{_words('gone', 240)}"  # reworked: half the old text stayed ...
    new_text = f"{_words('kept', 240)}\n\n{_words('new', 300)}"  # ... and the rest is new
    pairs = {
        "revision": ("https://raw.githubusercontent.com/org/kernels/{}/docs/guide.md", ("da40a1e", "3f2c9b1")),
        "package version": ("file:///usr/share/doc/gpulib-{}-doc/gpulib-{}/html/guide.html", ("14", "19")),
        "site version": ("https://docs.example.org/en/{}/guide.html", ("v1.2", "latest")),
    }
    for name, (pattern, (a, b)) in pairs.items():
        old = _info(1, pattern.format(a, a), old_text, kind="markdown")
        new = _info(2, pattern.format(b, b), new_text, kind="markdown")
        assert old.text and new.text and old.text.minhash.jaccard(new.text.minhash) < 0.3, name  # LSH misses it
        found = copies.measure([old, new])
        assert found[1].duplicate_of == 2 and found[1].signal == "revision", name
        assert found[1].score == copies.HIGH_REDUNDANCY and found[2].duplicate_of is None, name  # 0.44: at the cut
        # the release notes of two versions: one path, two documents (next to nothing shared)
        notes = pattern.replace("guide", "ReleaseNotes")
        notes_old = _info(3, notes.format(a, a), _words("fixed", 300), kind="markdown")
        notes_new = _info(4, notes.format(b, b), _words("changed", 300), kind="markdown")
        assert copies.measure([notes_old, notes_new])[3].duplicate_of is None, name
    # one package's two folders that repeat its numbers are two pages, not two versions
    package = "file:///usr/share/doc/python3-gpulib4-doc/html"
    three = _info(5, f"{package}/x3/guide.html", old_text)
    four = _info(6, f"{package}/x4/guide.html", new_text)
    assert copies.version_key(three.url) == copies.version_key(four.url) and not copies.revised([three, four])
    # as much shared by two files of one folder, or by two pages numbered in a series, is no copy
    for first, second in (("guide.md", "tuning.md"), ("2/notes.md", "3/notes.md")):
        folder = "https://raw.githubusercontent.com/org/kernels/3f2c9b1/docs"
        one = _info(5, f"{folder}/{first}", old_text, kind="markdown")
        two = _info(6, f"{folder}/{second}", new_text, kind="markdown")
        assert copies.measure([one, two])[5].duplicate_of is None, first


def test_one_repository_file_at_two_commits_is_one_document_however_rewritten():
    """A repository's file at a past commit and at the current one is one file's history (``one_document``):
    the older state is a copy of the newer even when nothing of it stayed. Two releases of a package's or a
    site's manual are not (both are in force; the text decides), nor are a release record's two states, nor a
    past page whose path now holds only a "moved" stub."""
    rewritten_old, rewritten_new = _words("before", 300), _words("after", 320)
    repo = "https://raw.githubusercontent.com/org/kernels/{}/{}"
    old = _info(1, repo.format("da40a1e", "README.md"), rewritten_old, kind="markdown")
    new = _info(2, repo.format("main", "README.md"), rewritten_new, kind="markdown")
    found = copies.measure([old, new])
    assert found[1].duplicate_of == 2 and found[1].signal == "history" and found[1].score == copies.HIGH_REDUNDANCY
    assert found[2].duplicate_of is None
    for name, urls in (
        (
            "release notes",
            (repo.format("da40a1e", "docs/RELEASE-NOTES.md"), repo.format("main", "docs/RELEASE-NOTES.md")),
        ),
        ("changelog", (repo.format("da40a1e", "CHANGELOG.md"), repo.format("main", "CHANGELOG.md"))),
        (
            "package version",
            (
                "file:///usr/share/doc/gpulib-14-doc/gpulib-14/guide.html",
                "file:///usr/share/doc/gpulib-19-doc/gpulib-19/guide.html",
            ),
        ),
        (
            "site version",
            ("https://docs.example.org/en/v1.2/guide.html", "https://docs.example.org/en/latest/guide.html"),
        ),
        (
            "two repositories",
            (repo.format("da40a1e", "README.md"), repo.replace("kernels", "samples").format("main", "README.md")),
        ),
    ):
        one = _info(3, urls[0], rewritten_old, kind="markdown")
        two = _info(4, urls[1], rewritten_new, kind="markdown")
        assert copies.measure([one, two])[3].duplicate_of is None, name
    # a page that moved: a stub says so at its old path, and its text lives on under a new path at head
    guide = _paragraphs(30, "Tiling")
    current = {
        n: _info(n, repo.format("main", f"docs/other{n}.md"), _words(f"o{n}", 200), kind="markdown")
        for n in (10, 11, 12)
    }
    past = _info(5, repo.format("da40a1e", "debug/nccl.md"), guide, kind="markdown")
    stub = _info(6, repo.format("main", "debug/nccl.md"), "This page moved to the network chapter.", kind="markdown")
    moved_to = _info(
        7,
        repo.format("main", "network/debug/README.md"),
        "\n\n".join(guide.split("\n\n")[:14]) + _words("net", 400),
        kind="markdown",
    )
    found = copies.measure([past, stub, moved_to, *current.values()])
    assert found[5].duplicate_of == 7 and found[5].signal == "moved" and found[5].score >= copies.HIGH_REDUNDANCY
    assert found[6].duplicate_of is None and found[7].duplicate_of is None
    # without the new page the past one stays apart: a stub is no current state of its text
    assert copies.measure([past, stub, *current.values()])[5].duplicate_of is None
    # and a past page whose own path still holds it is that page's older state, not a moved one
    kept = _info(8, repo.format("main", "debug/nccl.md"), guide + "\n\n" + _words("more", 60), kind="markdown")
    found = copies.measure([past, kept, moved_to, *current.values()])
    assert found[5].duplicate_of == 8
    # a short page that grew (a title and its directives, a line or two more) is still that page: under the stub
    # size, but no note that replaced a longer text
    short_old = _info(20, repo.format("da40a1e", "docs/ops/sort.rst"), _words("then", 20), kind="text")
    grown = f"{_words('now', 20)} {' '.join(f'grew{j}' for j in range(6))}"
    short_new = _info(21, repo.format("main", "docs/ops/sort.rst"), grown, kind="text")
    assert short_old.text and short_new.text
    assert short_old.text.size < short_new.text.size < copies.STUB_SHINGLES
    found = copies.measure([short_old, short_new])
    assert found[20].duplicate_of == 21 and found[20].signal == "history" and found[21].duplicate_of is None


def test_a_committed_sphinx_source_copy_is_its_source_files_older_state():
    """A repository that commits its built site keeps Sphinx's copy of each source (``_sources/x.md.txt``) beside
    the source itself (``…/source/x.md``): one text, the copy as of the last build (``built_sources``), a copy
    from ``REVISION_CONTAINMENT`` on. Two sources of that name (``index.rst`` in two trees) name none."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1/python"
    kept = _words("kept", 240)
    source = _info(1, f"{repo}/docs_src/source/install.md", f"{kept}\n\n{_words('new', 300)}", kind="markdown")
    built = _info(2, f"{repo}/docs/_sources/install.md.txt", f"{kept}\n\n{_words('old', 240)}", kind="text")
    assert source.text and built.text and source.text.minhash.jaccard(built.text.minhash) < 0.3
    found = copies.measure([source, built])
    assert found[2].duplicate_of == 1 and found[2].score >= copies.HIGH_REDUNDANCY and found[1].duplicate_of is None
    old_sphinx = _info(2, f"{repo}/docs/_sources/install.txt", f"{kept}\n\n{_words('old', 240)}", kind="text")
    assert copies.measure([source, old_sphinx])[2].duplicate_of == 1  # a suffix the copy dropped
    twin = _info(3, f"{repo}/other/install.md", f"{kept}\n\n{_words('twin', 300)}", kind="markdown")
    assert 2 not in copies.built_sources([source, built, twin])
    unrelated = _info(4, f"{repo}/docs_src/source/tuning.md", f"{kept}\n\n{_words('new', 300)}", kind="markdown")
    assert copies.measure([unrelated, built])[2].duplicate_of is None


def test_a_page_mirrored_under_many_versions_of_a_site_keeps_its_lines_and_its_copies():
    """A line in ``BOILERPLATE_DOCS`` documents is boilerplate only when other pages hold it: one page under a
    dozen version folders (``/en/v1.0/`` … ``/en/v1.11/``) shares every line with its own forms, and stays a copy of
    the newest; a footer that 30 other pages print goes."""
    footer = "Built with a documentation generator from the sources of this project, all versions listed here."
    texts, urls = {}, {}
    for n in range(12):  # one page at 12 versions, a note more each time
        urls[n] = f"https://docs.example.org/en/v1.{n}/guide/tuning.html"
        texts[n] = PAGE + "".join(f"\n\nVersion {n} adds note {i} on tuning knob {n}." for i in range(n))
    for n in range(100, 130):  # the rest of the site (words no page name gives: pages whose words differ only in
        # the number their names differ in would be one text written per number, ``substituted``)
        urls[n], texts[n] = f"https://docs.example.org/en/v1.11/guide/p{n}.html", _words(f"other{_lettered(n)}", 400)
    texts = {n: f"{t}\n\n{footer}" for n, t in texts.items()}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    found = copies.measure([_info(n, urls[n], t, counts=counts) for n, t in texts.items()])
    assert found[11].duplicate_of is None  # the newest version is kept
    assert all(found[n].duplicate_of in range(12) and found[n].score > 0.85 for n in range(11)), found
    assert all(found[n].duplicate_of is None for n in range(100, 130))  # the footer made no copies


def test_the_pages_of_a_manual_lie_inside_its_printed_or_single_page_form_which_is_kept():
    chapters = [_words(topic, 200) for topic in ("occupancy", "coalescing", "tiling", "pipelining")]
    whole = "\n\n".join(chapters)
    for name, url, kind in (
        ("pdf", "https://docs.example.org/guide/guide.pdf", "pdf"),
        ("single page", "https://docs.example.org/guide/singlehtml/index.html", "html"),
    ):
        pages = [_info(n, f"https://docs.example.org/guide/html/ch{n}.html", t) for n, t in enumerate(chapters, 1)]
        one = _info(9, url, whole, kind=kind)
        found = copies.measure([*pages, one])
        assert found[9].duplicate_of is None, name  # the whole is kept: it holds every page
        assert all(found[n].duplicate_of == 9 and found[n].score >= copies.HIGH_REDUNDANCY for n in range(1, 5)), name
    # a long page of the same site that holds a chapter is no print form: the chapter stays a page
    page = _info(1, "https://docs.example.org/guide/html/ch1.html", chapters[0])
    longer = _info(2, "https://docs.example.org/guide/html/all_topics.html", whole)
    assert copies.measure([page, longer])[1].duplicate_of is None
    # nor is a PDF of another place (a paper that reprints a chapter)
    paper = _info(3, "https://papers.example.net/2024/gpu.pdf", whole, kind="pdf")
    assert copies.measure([page, paper])[1].duplicate_of is None


def test_the_crawler_named_source_copy_and_the_translation_repeat_the_page_to_keep():
    rendered = _info(1, "https://docs.example.org/en/latest/kernels.html", PAGE)
    source = _info(
        2,
        "https://docs.example.org/en/latest/_sources/kernels.rst.txt",
        ".. _kernels:\n\n" + PAGE,
        kind="text",
        copy_of="https://docs.example.org/en/latest/kernels.html",
    )
    found = copies.measure([rendered, source])
    assert found[2].duplicate_of == 1 and found[2].because == {"rule": "rendered"}
    code = ["for (int i = 0; i < n; ++i) { acc += a[i * lda + k] * b[k * ldb + j]; }\n" * 12]
    original = _info(3, "https://example.org/notes/tiling.md", "How the loop tiles the operands.\n", code=code)
    translated = _info(4, "https://example.org/notes/zh/tiling.md", "循环如何分块。\n", code=code)
    found = copies.measure([translated, original])
    assert found[4].duplicate_of == 3 and found[4].because["rule"] == "original" and found[3].duplicate_of is None


def test_a_ring_of_preferences_keeps_one_copy():
    # three copies whose pairwise rules disagree (a version suffix, then only the ids): one is kept
    guide = _info(1, "https://t.example/guide", PAGE, title="GPU tuning guide")
    mirror = _info(2, "https://mirror.example/guide", "Mirror notice.\n" + PAGE, title="GPU tuning guide (mirror)")
    newer = _info(3, "https://t.example/guide-v2", PAGE + "\nA new section on TMA.", title="GPU tuning guide v2")
    found = copies.measure([guide, mirror, newer])
    assert [d for d, c in found.items() if c.duplicate_of is None] == [3]  # the version wins its ring
    assert found[1].because and found[1].because["rule"] in copies.RULE_WEIGHT


INDEX_OWN = "\n\n".join(
    f"Section {i}: occupancy falls when each thread holds {i * 8} registers more than the tile needs." for i in range(6)
)
SHARED = PAGE.rsplit("\n\n", 3)[0]  # the index repeats all but the readme's last three paragraphs


def test_a_page_kept_for_its_own_source_is_no_copy_of_a_larger_sibling_page():
    # a site's readme page and its index, which repeats most of the readme beside sections of its own: larger,
    # so the preference reads "complete", and alone the readme is flagged against it
    site = "file:///usr/share/doc/p-doc/html"
    readme = _info(1, f"{site}/readme.html", PAGE)
    index = _info(2, f"{site}/index.html", SHARED + "\n\n" + INDEX_OWN)
    alone = copies.measure([readme, index])
    assert alone[1].duplicate_of == 2 and alone[1].because["rule"] == "complete"
    # with the Sphinx source it was rendered from, the readme is the page its group keeps, not a page flagged
    # against a third: its source points at it, and it points at nothing
    source = _info(3, f"{site}/_sources/readme.rst.txt", PAGE, kind="text")
    found = copies.measure([readme, index, source])
    assert found[3].duplicate_of == 1 and found[3].signal == "source" and found[3].score >= copies.HIGH_REDUNDANCY
    assert found[1] == copies.NO_COPY and found[2] == copies.NO_COPY


def test_a_current_page_with_its_past_state_is_no_copy_of_a_larger_page_of_its_repository():
    repo = "https://raw.githubusercontent.com/o/r"
    current = _info(1, f"{repo}/main/README.md", PAGE, kind="markdown")
    docs = _info(2, f"{repo}/main/docs/index.md", SHARED + "\n\n" + INDEX_OWN, kind="markdown")
    assert copies.measure([current, docs])[1].duplicate_of == 2  # alone: "complete"
    past = _info(
        3, f"{repo}/{'1a2b3c4d5e' * 4}/README.md", SHARED + "\n\nInstall with the old script.", kind="markdown"
    )
    found = copies.measure([current, docs, past])
    assert found[3].duplicate_of == 1 and found[3].because["rule"] == "current"  # the past state repeats the current
    assert found[1] == copies.NO_COPY  # and the current page is kept, not flagged against the docs index
    # a page flagged for a reason that says one replaces the other (a version) stays flagged
    newer = _info(4, f"{repo}/main/README-v2.md", PAGE + "\n\n" + INDEX_OWN, kind="markdown")
    assert copies.measure([current, newer, past])[1].duplicate_of == 4


def test_curation_keeps_the_copy_to_keep_even_when_an_older_copy_scores_higher(tmp_path):
    from pipeline.curate import Candidate, curate, representatives
    from pipeline.store import status_counts

    db = open_db(tmp_path / "shijie.db")
    long_old = TILING + "\n\n" + TILING.replace("tiling", "blocking") + "\nAn older appendix on occupancy."
    _store(db, "https://example.org/llvm-14-doc/tiling", long_old)
    _store(db, "https://example.org/llvm-19-doc/tiling", TILING + "\n\nUpdated for the new release.")
    _store(db, "https://example.org/turtle", TURTLE)
    scored = {s.url.rsplit("/", 2)[-2]: s for s in score_corpus(db)}
    old, new = scored["llvm-14-doc"], scored["llvm-19-doc"]
    assert old.redundancy == "high" and old.duplicate_of == new.id
    assert old.components["uniqueness"]["because"]["rule"] == "version"
    result = curate(db, min_value=0)
    assert new.id not in result.discarded_ids and old.id in result.discarded_ids
    reasons = {c.id: c.reason for c in result.changes}
    assert reasons[old.id] == f"repeats document {new.id}" and status_counts(db)["discarded"] == 1
    # chains end at their root; a ring (a hand-edited database) keeps its lowest id
    chain = [Candidate(i, "", None, None, "active", 50, "high", i + 1) for i in (1, 2)]
    chain.append(Candidate(3, "", None, None, "active", 10, "low", None))
    assert representatives(chain) == {1: 3, 2: 3}
    ring = [Candidate(i, "", None, None, "active", 50, "high", 1 + i % 3) for i in (1, 2, 3)]
    assert representatives(ring) == {2: 1, 3: 1}


def test_licence_footers_and_templates_make_no_copies_and_code_finds_a_translation():
    footer = "\n".join(
        [
            "Copyright (c) 2024 Example Corp. All rights reserved.",
            "Licensed under the Apache License, Version 2.0 (the License); you may not use this file except in",
            "compliance with the License. Distributed on an AS IS BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY",
            "KIND, either express or implied. See the License for the specific language governing permissions.",
        ]
    )
    a = _info(
        1, "https://example.org/a", "Warps and banks: a short note on how shared memory serves a warp.\n" + footer
    )
    b = _info(2, "https://example.org/b", "Tensor cores and WGMMA: another short note, on matrix units.\n" + footer)
    assert copies.measure([a, b])[1].score < 0.5 and copies.measure([a, b])[2].score < 0.5
    counts = copies.LineCounts()
    template = ["Site menu: " + " ".join(f"nav{i}w{j}" for j in range(10)) for i in range(20)]
    pages = [
        f"Page {n}: " + " ".join(f"word{n}x{k}" for k in range(150)) + "\n" + "\n".join(template) for n in range(10)
    ]
    for text in pages:
        counts.add(copies_line_hashes(text))
    infos = [_info(n, f"https://example.org/{n}", text, counts=counts) for n, text in enumerate(pages)]
    assert all(c.score < 0.5 for c in copies.measure(infos).values())
    # without the corpus count the template is half of every page, and the pages would repeat each other
    bare = [_info(n, f"https://example.org/{n}", text) for n, text in enumerate(pages)]
    assert any(c.score >= 0.5 for c in copies.measure(bare).values())
    code = ["\n".join(f"acc{i} = tl.dot(a{i}, b{i}, acc{i})  # step {i}" for i in range(40))]
    english = _info(
        1, "https://example.org/en.md", "How the loop works, in English words.\n", kind="markdown", code=code
    )
    chinese = _info(2, "https://example.org/zh.md", "循环如何工作，用中文说明。\n", kind="markdown", code=code)
    result = copies.measure([english, chinese])
    assert {result[1].signal, result[2].signal} == {"code", ""}


def copies_line_hashes(text: str):
    from pipeline.vision.reading import line_hashes

    return line_hashes(text)


def _store(db, url: str, text: str):
    doc = extract(text.encode(), "text/markdown", url + ".md").documents[0]
    Frontier(db).store_document(
        url,
        doc,
        final_url=None,
        content_type="text/markdown",
        byte_size=len(text),
        etag=None,
        last_modified=None,
        depth=0,
    )
    db.conn.commit()


def test_the_scorer_on_a_small_corpus_in_a_real_database(tmp_path):
    db = open_db(tmp_path / "shijie.db")
    _store(db, "https://example.org/tiling", TILING)
    _store(db, "https://example.org/notes", CHANGELOG)
    _store(db, "https://example.org/turtle", TURTLE)
    _store(db, "https://example.org/v1/tiling", TILING.replace("2.3x", "2.2x") + "\nAn old note.")
    scored = {s.url.rsplit("example.org/", 1)[1]: s for s in score_corpus(db)}
    tiling, changelog, turtle = scored["tiling"], scored["notes"], scored["turtle"]
    assert tiling.value > changelog.value and tiling.value > turtle.value
    assert tiling.relevance_score > 2 * turtle.relevance_score and turtle.relevance == "low"
    assert changelog.components["type"]["type"] == "changelog"
    assert scored["v1/tiling"].redundancy == "high" and scored["v1/tiling"].duplicate_of == tiling.id
    assert tiling.redundancy == "low"
    value = tiling.components["value"]
    assert value["base"] and all("feature" in r and "points" in r for r in value["contributions"])
    # a user's marks move value and relevance, arxiv-sanity style
    mark_document(db, turtle.id, "good")
    marked = {s.id: s for s in score_corpus(db)}
    assert marked[turtle.id].value > turtle.value and marked[turtle.id].relevance_score > turtle.relevance_score


# phase 25 (trap26): a long change log dense with the topic's names, and three siblings that are no change logs: release
# notes that explain a new kernel at length, a migration guide, a paper with a revision history
_KERNELS = ("gemm", "conv2d", "softmax", "layernorm", "attention", "reduction", "batchnorm", "pooling")
_APIS = ("cudaMemcpyAsync", "hipLaunchKernelGGL", "cudaStreamSynchronize", "cudaGraphLaunch", "ncclAllReduce")


def _release(major: int, minor: int) -> str:
    k = [_KERNELS[(major + minor + i) % len(_KERNELS)] for i in range(4)]
    a = [_APIS[(major + minor + i) % len(_APIS)] for i in range(2)]
    return f"""## [{major}.{minor}.0] - 20{10 + major}-{minor % 12 + 1:02d}-15

### Added
- Fused {k[0]} kernel for FP16 and BF16 on tensor cores (CUDA and HIP backends).
- Tuned {k[1]} kernel configurations for shared memory tiling on GPU devices.
- `{a[0]}` overlap for the {k[2]} workspace.

### Changed
- The {k[3]} kernel now uses warp shuffles for the reduction step.
- Default stream changed to a non-blocking CUDA stream; `{a[1]}` is called once per launch.

### Fixed
- Fixed a race in the {k[0]} kernel on devices with 64 KiB of shared memory (#{major * 100 + minor}).
- Fixed wrong results of the {k[1]} kernel with odd strides.

```
export KERNEL_DB_PATH=/opt/kernels/db
```
"""


LONG_CHANGELOG = "# Changelog\n\n" + "\n".join(
    _release(major, minor) for major in range(9, 2, -1) for minor in range(6, -1, -1)
)

KERNEL_RELEASE_NOTES = """# Release 3.0: a new attention kernel

This release replaces the attention kernel. This post explains why the old one was slow and how the new one works.

## Why the old kernel was memory bound

The old kernel wrote the full score matrix to global memory: for a sequence of 8192 tokens and 64-wide heads it
moved 512 MiB per head through HBM, so the kernel spent 80% of its time waiting on memory. Because the softmax needs
the maximum of each row before it can normalise, the scores had to be written once and read back twice.

## How the new kernel works

The new kernel keeps a tile of queries in registers and streams tiles of keys and values through shared memory. For
each tile it computes the scores, updates a running maximum and a running sum (the online softmax), rescales the
partial output and accumulates. This means the score matrix never leaves the chip: each element is produced, used and
discarded in shared memory. Note that the rescaling costs one multiply per element, far less than a round trip to HBM.

```cuda
for (int kv = 0; kv < n_tiles; ++kv) {
    load_tile(Ks, K + kv * TILE, tid);
    __syncthreads();
    float m_new = fmaxf(m_old, row_max(S));
    acc = acc * __expf(m_old - m_new) + P_times_V(S, Vs);
    m_old = m_new;
}
```

## What we measured

On an H100 the forward pass runs at 610 TFLOPS in BF16 (1.9x the old kernel) and the backward at 450 TFLOPS. The
occupancy is lower (one block per SM), but the kernel is now compute bound: the profiler shows 85% tensor core
utilisation. We chose a 128 x 64 tile because a larger one spilled registers.
"""

MIGRATION_GUIDE = """# Migrating from the 2.x kernel API to 3.x

Version 3 changes how kernels are launched and how their workspaces are allocated. This guide explains each change
and shows the code before and after.

## Launching a kernel

In 2.x every kernel took a raw stream and allocated its own workspace. In 3.x a kernel takes a launch context, which
owns the stream and a workspace pool, so that two kernels on one stream share the pool instead of allocating twice.

```cpp
// 2.x
gemm(a, b, c, m, n, k, stream);
// 3.x
LaunchContext ctx(stream, pool);
gemm(ctx, a, b, c, m, n, k);
```

## Workspaces

Because the pool is reused, a kernel must not keep a pointer to its workspace after it returns. If your code cached
the workspace pointer, allocate your own buffer with `pool.reserve(bytes)` and release it when the stream is done.

## Tuning tables

The tuning table moved from a file per device to one database. Run the converter once; the kernels read the new
database at start-up and fall back to heuristics for shapes it does not hold.
"""

REVISION_HISTORY = """# Register-blocked stencils on GPUs

## Abstract

We show that blocking a stencil in registers along the streaming dimension halves its memory traffic on GPUs.

## 1 Introduction

A 7-point stencil reads each point seven times. With the streaming dimension kept in registers, each thread reads a
column once and reuses it for three planes, so the kernel moves 2.1 bytes per point instead of 4.3.

## 2 Method

Each thread block holds a 32 x 8 tile of the plane in shared memory and three planes of its column in registers.
Because the planes rotate through registers, no plane is loaded twice. We measured 1.9x the bandwidth-bound baseline
on an A100 for a 512^3 grid.

## Revision history

- v3 (2024-05-02): camera-ready; added the A100 measurements in Section 2.
- v2 (2024-02-11): fixed the traffic count in the introduction (4.3, not 4.6 bytes per point).
- v1 (2023-11-20): first version.

## References

[1] A. Author. Stencils on GPUs. 2021.
"""


def test_a_change_logs_topic_terms_are_names_and_its_siblings_keep_theirs(tmp_path, monkeypatch):
    from pipeline.vision import scorer

    assert scorer.names_share(0.3) == 0.0 and scorer.names_share(scorer.CHANGELOG_NAMES_FROM) == 0.0
    assert scorer.names_share(1.0) == 1.0 and 0.4 < scorer.names_share(0.75) < 0.6
    assert scorer.names_discounted(1.6, 0.3, 1.0) == pytest.approx(0.3)  # all of it above the mean: names
    assert scorer.names_discounted(1.6, 0.3, 0.2) == 1.6 and scorer.names_discounted(0.1, 0.3, 1.0) == 0.1
    pages = {
        "CHANGES.md": LONG_CHANGELOG,
        "release-3.0.md": KERNEL_RELEASE_NOTES,
        "migrating.md": MIGRATION_GUIDE,
        "stencils.md": REVISION_HISTORY,
        "tiling.md": TILING,
        "turtle.md": TURTLE,
    }

    def score() -> dict:
        db = open_db(tmp_path / f"shijie{len(list(tmp_path.iterdir()))}.db")
        for name, text in pages.items():
            _store(db, f"https://example.org/docs/{name}", text)
        return {s.url.rsplit("/", 1)[1]: s for s in score_corpus(db)}

    read = score()
    monkeypatch.setattr(scorer, "names_share", lambda p: 0.0)
    as_before = score()
    log = read["CHANGES.md"]
    assert log.components["type"]["type"] == "changelog" and log.relevance_score > 0.1
    assert log.value < as_before["CHANGES.md"].value  # its kernels' and APIs' names no longer carry it
    explaining = [read[name].value for name in ("release-3.0.md", "tiling.md")]
    assert log.value < min(explaining)
    for name in ("release-3.0.md", "migrating.md", "stencils.md", "tiling.md"):
        assert read[name].components["type"]["probabilities"].get("changelog", 0.0) <= scorer.CHANGELOG_NAMES_FROM
        assert read[name].value == as_before[name].value


def test_training_refuses_when_labelled_texts_are_missing(tmp_path):
    env = {**os.environ, "SHIJIE_VISION_CACHE": str(tmp_path / "empty-cache"), "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, str(REPO / "tools" / "train_vision.py"), "--out", str(tmp_path / "model.json")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 1 and "refusing to train" in result.stderr
    assert not (tmp_path / "model.json").exists()


SAMPLE_TEMPLATE = """## Supported SM Architectures

SM 7.0, SM 7.5, SM 8.0, SM 8.6, SM 8.9 and SM 9.0 are supported by the build of this sample in the toolkit.

## Supported OSes

Linux, Windows and QNX are the operating systems this sample is built and tested on by the continuous build.

## Prerequisites

Download and install the CUDA Toolkit for your corresponding platform from the developer site of the vendor.
Make sure the dependencies mentioned in the Dependencies section above are installed before building.

## Build and Run

Change into the directory of the sample and run make; the binary lands in the bin folder of the repository.
Windows users open the solution file that matches their Visual Studio version and build the Release target."""


def _sample_readme(n: int) -> str:
    blurb = " ".join(f"sample{n}word{k}" for k in range(40))
    return f"# sample{n}\n\n## Description\n\nThis sample {blurb}.\n\n{SAMPLE_TEMPLATE}\n"


def test_pages_of_one_template_make_no_copies_but_the_revisions_of_one_page_stay_copies():
    """Lines that 2+ other pages share are a template and go; the revisions of one page (its name, at three
    commits, sharing every line) never count as each other's template and stay copies."""
    repo = "https://raw.githubusercontent.com/org/samples"
    texts = {n: _sample_readme(n) for n in range(4)}
    urls = {n: f"{repo}/abc1234/Samples/s{n}/README.md" for n in texts}
    for n, commit in enumerate(("def5678", "0a1b2c3", "abc1234")):  # the last at the current commit
        edit = "".join(f"\n\nRevision {n} paragraph {i}: TMA descriptors and their swizzle modes." for i in range(n))
        urls[10 + n], texts[10 + n] = f"{repo}/{commit}/docs/guide.md", PAGE + edit

    def measured(named: bool):
        counts = copies.LineCounts()
        for n, text in texts.items():
            counts.add(copies_line_hashes(text), urls[n] if named else "")
        return copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])

    found = measured(named=True)
    assert all(found[n].duplicate_of is None for n in range(4))  # the samples' own blurbs differ
    assert all(found[n].duplicate_of in (10, 11, 12) and found[n].score > 0.9 for n in (10, 11))
    assert found[12].duplicate_of is None  # the most complete revision is kept
    blind = measured(named=False)  # without page names, the three revisions' shared lines read as a template
    # the oldest, whole inside both others, keeps no text of its own but the template's: signed with those lines
    # (``CopyInfo.templated``), it meets its own later states all the same
    assert blind[10].duplicate_of in (11, 12)
    assert {copies.page_name(urls[n]) for n in (10, 11, 12)} == {"guide"}
    assert (
        copies.page_name(urls[0]) == "s0/readme" and copies.page_name(f"{repo}/abc1234/README.md") == "samples/readme"
    )
    assert copies.page_name("file:///usr/share/man/man3/MPI_Send.3") == copies.page_name(
        "file:///usr/share/doc/mpich-doc/html/www3/MPI_Send.html"
    )
    assert copies.page_name("https://h/docs/faq.zh.md") == copies.page_name("https://h/docs/faq.md") == "faq"
    assert copies.page_name("https://h/docs/zh/index.md") == copies.page_name("https://h/docs/en/index.md")


def test_a_man_page_and_its_html_twin_are_one_page_and_the_html_is_kept():
    from tests.test_extract_troff import PAGE as TROFF

    man = extract(TROFF.encode(), "text/plain", "file:///usr/share/man/man3/Tile_copy.3").documents[0]
    html = (
        "<html><head><title>Tile_copy</title></head><body><h1>Tile_copy</h1><p>Copies one tile of a matrix into"
        " shared memory</p><h2>Synopsis</h2><pre>int Tile_copy(const float *src, float *dst, int rows)</pre>"
        "<h2>Input Parameters</h2><dl><dt>src</dt><dd>the first element of the tile (pointer)</dd></dl>"
        "<h2>Notes</h2><p>The copy is <i>coalesced</i> when rows are a multiple of 32; otherwise it falls back to a"
        " strided loop. See <b>Tile_store</b>(3) and <b>Tile_load</b>(3).</p><h2>Thread safety</h2><p>This routine"
        " is thread-safe— it holds no state.</p></body></html>"
    )
    page = extract(html.encode(), "text/html", "file:///usr/share/doc/tiles/html/Tile_copy.html").documents[0]
    infos = [
        _info(1, "file:///usr/share/man/man3/Tile_copy.3", man.text, man.title, "text", code=man.code_blocks),
        _info(2, "file:///usr/share/doc/tiles/html/Tile_copy.html", page.text, page.title, "html"),
    ]
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].score >= 0.5  # the troff repeats the rendered page
    assert found[1].because["rule"] == "rendered" and found[2].duplicate_of is None
    # the same page as a generator writes it (Pod::Man, rst2man): a preamble of macro definitions and set-up before
    # .TH; read as the page, not as raw troff whose preamble outweighs the words, and still the HTML's twin
    from tests.test_extract_troff import PREAMBLE

    generated = PREAMBLE + TROFF.split("\n", 1)[1]
    man = extract(generated.encode(), "text/plain", "file:///usr/share/man/man3/Tile_copy.3").documents[0]
    assert man.metadata.get("markup") == "troff" and man.title == "Tile_copy"
    infos[0] = _info(1, "file:///usr/share/man/man3/Tile_copy.3", man.text, man.title, "text", code=man.code_blocks)
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].score >= 0.5 and found[2].duplicate_of is None


def test_a_projects_policy_file_repeats_only_its_own_and_a_rendered_page_beats_its_source():
    conduct = "\n\n".join(  # a code of conduct: a template many projects adopt word for word
        f"Pledge {i}. We as members, contributors and leaders pledge to make participation in our community a "
        f"harassment-free experience for everyone, and to act in ways that keep it open and welcoming ({i})."
        for i in range(12)
    )
    ours = _info(1, "https://raw.githubusercontent.com/a/one/abc1234/CODE_OF_CONDUCT.md", conduct, kind="markdown")
    theirs = _info(2, "https://raw.githubusercontent.com/b/two/abc1234/CODE_OF_CONDUCT.md", conduct, kind="markdown")
    again = _info(3, "https://raw.githubusercontent.com/a/one/abc1234/sub/CODE_OF_CONDUCT.md", conduct, kind="markdown")
    found = copies.measure([ours, theirs, again])
    assert found[2].duplicate_of is None  # another project's policy, the same words: its own terms
    assert {found[1].duplicate_of, found[3].duplicate_of} & {1, 3}  # one project's policy in two places
    source = _info(4, "https://raw.githubusercontent.com/a/one/abc1234/nn/switch/readme.md", PAGE, kind="markdown")
    shorter = PAGE.rsplit("\n\n", 3)[0]  # the source holds more words (its markup, a note): "complete" would keep it
    rendered = _info(5, "https://raw.githubusercontent.com/a/one/abc1234/docs/switch/readme.html", shorter)
    found = copies.measure([source, rendered])
    assert found[4].duplicate_of == 5 and found[4].because["rule"] == "rendered" and found[5].duplicate_of is None


def test_structure_sees_an_index_of_named_items_and_an_index_opening_a_guide():
    from pipeline.vision import signals

    index = "# Samples\n\n" + "\n\n".join(
        f"### [sample{n}](./sample{n})\nThis sample demonstrates feature {n} of the runtime." for n in range(12)
    )
    guide_body = "\n\n".join(
        f"The pipeline stage {i} waits on its barrier before the consumer warps read the tile, so the producer "
        f"can issue the next copy while tensor cores work on this one. This hides latency {i}."
        for i in range(12)
    )
    toctree = "\n".join(f"- [{name}]({name}.html)" for name in ("overview", "api", "examples", "tuning", "faq"))
    opened = "# CUB\n\n" + toctree + "\n\n" + guide_body
    figures = {
        name: signals.read("t", text, [], [], len(text.split()), {}, {}).features()
        for name, text in (("index", index), ("opened", opened), ("guide", guide_body))
    }
    assert figures["index"]["named_item_share"] > 0.4 and figures["index"]["short_section_share"] > 0.9
    assert figures["guide"]["named_item_share"] == 0 and figures["guide"]["short_section_share"] == 0
    assert figures["opened"]["index_then_prose"] > 0.3 > figures["guide"]["index_then_prose"]


def test_the_value_reads_the_subject_kernel_code_names_and_the_type_model_does_not():
    from pipeline.vision import signals

    matcher = topic.TopicMatcher(default_profile())
    reader = Reader(matcher, load_taxonomy())
    kernel = "\n".join(
        [
            "__global__ void reduce(const float* __restrict__ x, float* out) {",
            "  __shared__ float tile[256];",
            "  tile[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];",
            "  __syncthreads();",
            "  float v = __shfl_xor_sync(0xffffffff, tile[threadIdx.x], 16);",
            "  if (threadIdx.x % 32 == 0) atomicAdd(out, v);",
            "}",
        ]
    )
    glue = "\n".join(
        [
            "torch::Tensor reduce(torch::Tensor x) {",
            '  TORCH_CHECK(x.is_contiguous(), "x must be contiguous");',
            "  auto out = torch::zeros({1}, x.options());",
            "  launch_reduce(x.data_ptr<float>(), out.data_ptr<float>());",
            "  return out;",
            "}",
        ]
    )
    prose = "The reduction keeps a tile in shared memory, and each warp adds its lane's values before the atomic add."
    figures = {}
    for name, text in (("kernel", kernel), ("glue", glue), ("prose", prose)):
        reading, _ = reader.read((1, f"https://x.org/{name}.cu", name, "text", text, [], [], {}))
        figures[name] = reading.structure.features()["kernel_code"]
    assert figures["kernel"] > 1.5 > 0.5 > figures["glue"]  # a kernel names its subject, glue names none
    assert figures["prose"] == 0.0  # the same names in prose count elsewhere (term evidence): code only here
    assert signals.VALUE_ONLY.isdisjoint(load_model().doctype["features"])  # the type model keeps its inputs


def test_the_value_reads_a_test_suites_checks_and_the_type_model_does_not():
    from pipeline.vision import signals

    suite = "\n".join(
        [
            "import numpy as np",
            "import pytest",
            "",
            "@pytest.mark.parametrize('n', [128, 256])",
            "def test_reduce_matches_numpy(n):",
            "    x = np.arange(n, dtype=np.float32)",
            "    out = reduce(x)",
            "    np.testing.assert_allclose(out, x.sum(), rtol=1e-6)",
            "    assert out.dtype == np.float32",
        ]
    )
    gtest = "\n".join(
        [
            "TEST(Reduce, MatchesHost) {",
            "  std::vector<float> x(256, 1.0f);",
            "  EXPECT_EQ(reduce(x), 256.0f);",
            "  ASSERT_TRUE(last_error() == cudaSuccess);",
            "}",
        ]
    )
    lesson = "\n".join(
        [
            "# Reducing in shared memory",
            "",
            "Each block loads a tile into shared memory and halves the active threads at every step, so that the",
            "last warp adds its lanes with shuffles before one atomic add per block writes the total.",
            "",
            "```cuda",
            "tile[threadIdx.x] += tile[threadIdx.x + s];",
            "```",
        ]
    )
    figures = {
        name: signals.read(name, text, [], [], len(text.split()), {}, {}).features()["test_share"]
        for name, text in (("suite", suite), ("gtest", gtest), ("lesson", lesson))
    }
    assert figures["suite"] >= 0.4 and figures["gtest"] >= 0.4  # checks on most of their code lines
    assert figures["lesson"] == 0.0  # a lesson of the same reduction checks nothing
    assert signals.VALUE_ONLY.isdisjoint(load_model().doctype["features"])  # the type model keeps its inputs


def test_code_explained_as_it_goes_turns_between_code_and_prose_and_code_alone_does_not():
    from pipeline.vision import signals
    from shijie.explain import feature_words

    step = [
        "Each block first loads its tile of the input into shared memory, one element a thread.",
        "```cuda",
        "tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];",
        "__syncthreads();",
        "```",
        "Then half the threads add the other half's values, and the stride halves at every step.",
        "```cuda",
        "for (int s = blockDim.x / 2; s > 0; s >>= 1) {",
        "  if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];",
        "}",
        "```",
        "Finally the first thread of each block writes the block's sum with one atomic add.",
        "```cuda",
        "if (threadIdx.x == 0) atomicAdd(out, tile[0]);",
        "```",
    ]
    source = [
        "// block sums of the input, one atomic add a block; the reduction halves its stride at every step.",
        "__global__ void block_sum(const float* in, float* out) {",
        "  __shared__ float tile[256];",
        "  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];",
        "  __syncthreads();",
        "  for (int s = blockDim.x / 2; s > 0; s >>= 1) {",
        "    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];",
        "    __syncthreads();",
        "  }",
        "  if (threadIdx.x == 0) atomicAdd(out, tile[0]);",
        "}",
    ]
    essay = [
        "A reduction adds many values into one, and on a GPU each block first reduces its own part of the input.",
        "The partial sums of the blocks are then added together, by a second launch or by atomic additions.",
    ]

    def turns(lines: list[str]) -> float:
        text = "\n".join(lines)
        return signals.read("t", text, [], [], len(text.split()), {}, {}).features()["code_prose_turns"]

    assert turns(step) == pytest.approx(math.log1p(5))  # prose, code, prose, code, prose, code: five turns
    assert turns(source) == pytest.approx(math.log1p(0))  # a source file: its comment line is code, no turn
    assert turns(essay) == 0.0  # prose alone turns to nothing
    assert turns([*step, "", *source]) == turns(step)  # more code after the last turn adds none
    assert "code_prose_turns" in signals.VALUE_ONLY  # the value reads it; the type model keeps its inputs
    assert feature_words("code_prose_turns", "en") != "code_prose_turns"
    assert feature_words("code_prose_turns", "zh") != "code_prose_turns"


def test_the_value_targets_keep_tiers_in_order_and_technical_c_near_the_non_technical_pages():
    from pipeline.vision.labelled import Label
    from pipeline.vision.training import target, value_target

    def label(relevance: str, tier: str) -> Label:
        return Label("gh:our/toy", "our-toy", "github", "", "0" * 40, "page.md", "", relevance, tier, "guide", "", "")

    a, b, c = (value_target(label("technical", tier)) for tier in "ABC")
    assert a > b > c > 0.0
    assert b - c > c  # C sits nearer the off-topic and administrative pages than B does
    assert a - b == pytest.approx(b - c)  # since phase 19 the tiers are evenly spaced (B 0.55 before: A-B 0.45)
    assert value_target(label("off", "C")) == value_target(label("admin", "C")) == 0.0
    assert target(label("technical", "B")) == pytest.approx(0.67)  # the words-value model keeps its own targets


def test_training_never_reads_the_held_out_split():
    code = "import sys; sys.argv=['x']; sys.path.insert(0, 'tools'); import train_vision; train_vision.load('test32', None)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 1 and "refusing to read split 'test32'" in result.stderr


def test_every_value_feature_of_the_shipped_model_has_words_in_both_languages():
    from shijie.explain import feature_words

    for name in load_model().value["features"]:
        assert feature_words(name, "en") != name and feature_words(name, "zh") != name, name


def _bilingual_post(names: list[str]) -> tuple[str, str]:
    """A page of our own in English and its Chinese translation: one step a name, the names written alike."""
    english = "\n\n".join(
        f"Step {n}: the loop issues {name} once per stage, and the warp waits on the barrier before the next "
        f"stage reads shared memory."
        for n, name in enumerate(names)
    )
    chinese = "\n\n".join(
        f"第{n}步：循环在每个阶段发出 {name}，线程束在下一阶段读取共享内存之前等待屏障。"
        for n, name in enumerate(names)
    )
    return english, chinese


def test_a_translation_is_found_by_the_names_and_code_both_languages_write_alike():
    repo = "https://raw.githubusercontent.com/org/kernels/abc1234/docs"
    english, chinese = _bilingual_post(
        [f"tile_{n}_stride cp_async_{n} wgmma_m{n}n64k16 ldmatrix_x{n} swizzle_{n}b" for n in range(12)]
    )
    other = "\n\n".join(f"第{n}步：另一页讲的是 reduce_{n} 与 atomic_add_{n}，和上面的内容无关。" for n in range(12))
    urls = {1: f"{repo}/pipelining.md", 2: f"{repo}/pipelining.zh.md", 3: f"{repo}/reduction.zh.md"}
    texts = {1: english, 2: chinese, 3: other}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
    assert found[2].duplicate_of == 1 and found[2].signal == "translation"  # the original is kept
    assert found[2].because["rule"] == "original"
    assert found[1].duplicate_of is None and found[3].duplicate_of is None
    # the same two texts under unrelated names in unrelated folders are not compared across languages (in one
    # folder their anchors in order tell a translation: test_a_translation_under_a_name_of_its_own_…)
    apart = copies.LineCounts()
    for n, url in ((1, f"{repo}/pipelining.md"), (2, f"{repo}/archive/notes.zh.md")):
        apart.add(copies_line_hashes(texts[n]), url)
    pair = [
        _info(1, f"{repo}/pipelining.md", english, counts=apart),
        _info(2, f"{repo}/archive/notes.zh.md", chinese, counts=apart),
    ]
    assert copies.measure(pair)[2].duplicate_of is None


# TILING's prose in Chinese (our translation), its code and figures as they are: words the English model never read
TILING_ZH = (
    "# 通过共享内存对 GEMM 分块\n\n"
    "每个线程块把 A 的一块和 B 的一块从全局内存载入共享内存，这样从 HBM 取来的每个元素都被复用 BLOCK_K 次。"
    "因为载入是合并的，一个线程束每次请求读取 128 个连续字节；所以内核达到峰值内存带宽的 80%。"
    "注意，填充一行可以避免存储体冲突：没有填充时，一个线程束的 32 个线程落在同一个存储体上，访问被串行化。\n\n"
    + TILING[TILING.index("```cuda") : TILING.index("We measured")]
    + "我们在 A100 上测得 14.2 TFLOPS（N = 8192 时 8.1 毫秒），比朴素内核快 2.3 倍，"
    "所以 50% 的占用率不是瓶颈；寄存器压力才是。\n"
)


def test_a_translation_is_worth_at_least_what_its_original_is_worth(tmp_path):
    # the Chinese page reads few words the model holds; the copies stage finds the English page it translates,
    # and the scorer gives it that page's value where its own reading is lower (its own kept beside, for show)
    from pipeline.vision.scorer import translated_from

    repo = "https://raw.githubusercontent.com/org/kernels/abc1234/docs"
    english, chinese = _bilingual_post(
        [f"tile_{n}_stride cp_async_{n} wgmma_m{n}n64k16 ldmatrix_x{n} swizzle_{n}b" for n in range(12)]
    )
    db = open_db(tmp_path / "shijie.db")
    _store(db, f"{repo}/pipelining.md", english + "\n\n" + TILING)
    _store(db, f"{repo}/pipelining.zh.md", chinese + "\n\n" + TILING_ZH)
    _store(db, "https://example.org/turtle", TURTLE)
    scored = {s.url.rsplit("/", 1)[-1]: s for s in score_corpus(db)}
    original, translation = scored["pipelining.md"], scored["pipelining.zh.md"]
    assert translation.duplicate_of == original.id
    assert translation.components["uniqueness"]["signal"] == "translation"
    own = translation.components["value"]["own"]
    assert own < original.value  # read in words the model does not hold, the Chinese page alone reads lower
    assert translation.value == original.value and translation.components["value"]["translation_of"] == original.id
    assert "translation_of" not in original.components["value"]
    from shijie.explain import reasons

    for lang in ("en", "zh"):
        said = [line.text for line in reasons({"value": translation.value, "components": translation.components}, lang)]
        assert any(f" {original.id}" in text and ("translation" in text or "译本" in text) for text in said)
    # only a translation takes its original's value: a mirror, a rendered twin or an older state keeps its own
    value_of = {1: (60.0, {}), 2: (20.0, {})}
    assert translated_from(copies.Copy(0.9, 1, 0.0, "translation"), value_of) == 1
    assert translated_from(copies.Copy(0.9, 1, 0.8, "text"), value_of) is None
    assert translated_from(copies.Copy(0.3, 1, 0.0, "translation"), value_of) is None  # not a repeat


def test_a_page_that_only_includes_a_guide_is_worth_at_least_the_guide(tmp_path):
    # a Sphinx page whose own text is a title over one include directive renders the guide it names (LABELS.md: its
    # copy, rated on what its page shows); its own reading is of one line, so it takes the guide's value as a floor
    from pipeline.vision.scorer import included_from
    from shijie.explain import reasons

    repo = "https://raw.githubusercontent.com/org/kernels/abc1234/docs"
    db = open_db(tmp_path / "shijie.db")
    _store(db, f"{repo}/tiling.md", TILING)
    _store(db, f"{repo}/source/tiling_include.rst", "Tiling\n======\n\n.. include:: ../tiling.md\n")
    _store(db, "https://example.org/turtle", TURTLE)
    scored = {s.url.rsplit("/", 1)[-1]: s for s in score_corpus(db)}
    guide, stub = scored["tiling.md"], scored["tiling_include.rst"]
    assert stub.duplicate_of == guide.id and stub.components["uniqueness"]["signal"] == "included"
    assert stub.components["value"]["own"] < guide.value  # one directive line alone reads as next to nothing
    assert stub.value == guide.value and stub.components["value"]["included_from"] == guide.id
    assert "included_from" not in guide.components["value"]
    for lang in ("en", "zh"):
        said = [line.text for line in reasons({"value": stub.value, "components": stub.components}, lang)]
        assert any(f" {guide.id}" in text and ("include" in text or "包含" in text) for text in said)
    # only the include signal: a mirror or an older state keeps its own value, a weak match takes nothing
    value_of = {1: (60.0, {}), 2: (20.0, {})}
    assert included_from(copies.Copy(1.0, 1, 0.0, "included"), value_of) == 1
    assert included_from(copies.Copy(0.9, 1, 0.8, "text"), value_of) is None
    assert included_from(copies.Copy(0.9, 1, 0.0, "translation"), value_of) is None
    assert included_from(copies.Copy(0.3, 1, 0.0, "included"), value_of) is None  # not a repeat
    assert included_from(copies.Copy(1.0, 3, 0.0, "included"), value_of) is None  # a file not scored


def test_a_prose_translation_in_latin_letters_is_found_by_what_translators_leave_alone():
    # a German page of an .mdx guide: every word differs from the English one and is written in Latin letters (the
    # plain-word test reads them as foreign), only the links, images, inline code and numbers are shared
    repo = "https://raw.githubusercontent.com/org/guide/abc1234/pages/introduction"
    steps = [(f"gpt-{n}", f"https://arxiv.org/abs/2404.{7100 + n}", f"../../img/step_{n}.png") for n in range(8)]
    english = "\n\n".join(
        f"## Step {n}\n\nWith the model `{m}` the prompt gets a clearer answer when the question comes first "
        f"([the paper]({u})); otherwise it drifts, repeats itself or forgets parts of the task it was "
        f"given.\n\n![A screenshot of step {n}]({i})"
        for n, (m, u, i) in enumerate(steps)
    )
    german = "\n\n".join(
        f"## Schritt {n}\n\nMit dem Modell `{m}` liefert die Eingabe eine klarere Antwort, wenn die Frage zuerst "
        f"kommt ([die Arbeit]({u})); sonst schweift es ab, wiederholt sich oder vergisst Teile der Aufgabe, die man "
        f"ihm gestellt hat.\n\n![Ein Bildschirmfoto von Schritt {n}]({i})"
        for n, (m, u, i) in enumerate(steps)
    )
    shuffled = "\n\n".join(german.split("\n\n")[::-1])  # the same anchors out of order: no translation
    other = "\n\n".join(f"## Abschnitt {n}\n\nEin anderes Thema, ohne Verweise, Bilder oder Code." for n in range(8))
    urls = {
        1: f"{repo}/basics.en.mdx",
        2: f"{repo}/basics.de.mdx",
        3: f"{repo}/basics.fr.mdx",
        4: f"{repo}/basics.es.mdx",
    }
    texts = {1: english, 2: german, 3: shuffled, 4: other}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    assert copies.page_name(urls[2]) == copies.page_name(urls[1]) == "basics"  # .mdx is a document extension
    infos = [_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()]
    words = infos[0].words, infos[1].words
    assert words[0] is not None and words[1] is not None
    shared = len(set(words[0].tolist()) & set(words[1].tolist()))
    assert shared / min(map(len, words)) < copies.TRANSLATION_SHARE  # the plain-word test alone misses it
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].signal == "translation" and found[2].score >= copies.ANCHOR_SHARE
    assert found[2].because["rule"] == "original" and found[1].duplicate_of is None
    assert found[4].duplicate_of is None  # a page of the same name sharing no anchors
    assert copies.measure([infos[0], infos[2]])[3].duplicate_of is None  # its anchors out of order


def _guide_page(language: str, topic: str, n: int) -> str:
    """A page of our own guide in English or Spanish: its words differ, its links, code and numbers do not."""
    lines = []
    for k in range(8):
        anchors = f"`{topic}_{k}_launch` (https://example.org/{topic}/{k}) with {n * 100 + k * 7} blocks"
        if language == "es":
            lines.append(f"## Paso {k}\n\nEl paso usa {anchors}, y el resultado se guarda antes de seguir.")
        else:
            lines.append(f"## Step {k}\n\nThe step uses {anchors}, and its result is stored before moving on.")
    return "\n\n".join(lines)


def test_a_translation_under_a_name_of_its_own_is_found_among_the_pages_of_its_folder():
    # a course translated chapter by chapter whose Spanish tree numbers its pages differently (a page was dropped
    # from it), and a page whose file name was translated too: no page of the original bears its name, the
    # anchors it shares with one page of the original's folder tell which page it translates
    repo = "https://raw.githubusercontent.com/org/course/abc1234"
    urls = {
        1: f"{repo}/chapters/en/chapter1/8.mdx",
        2: f"{repo}/chapters/en/chapter1/9.mdx",
        3: f"{repo}/chapters/es/chapter1/8.mdx",  # the Spanish page 8 translates English page 9
        4: f"{repo}/docs/tiling.md",
        5: f"{repo}/docs/es/teselado.md",  # a file name translated with its page
        6: f"{repo}/docs/es/otro.md",  # a Spanish page of its own: no original in the folder
    }
    texts = {
        1: _guide_page("en", "quiz", 8),
        2: _guide_page("en", "bias", 9),
        3: _guide_page("es", "bias", 9),
        4: _guide_page("en", "tile", 1),
        5: _guide_page("es", "tile", 1),
        6: _guide_page("es", "scan", 2),
    }
    assert copies.translation_folder(urls[2]) == copies.translation_folder(urls[3]) == "chapters/chapter1"
    assert copies.translation_folder(urls[4]) == copies.translation_folder(urls[5]) == "docs"
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
    assert found[3].duplicate_of == 2 and found[3].signal == "translation" and found[3].because["rule"] == "original"
    assert found[5].duplicate_of == 4 and found[5].signal == "translation"
    assert all(found[n].duplicate_of is None for n in (1, 2, 4, 6))  # the originals, and a page of its own
    # the same folder in one language only compares no two names: pages of one folder are no translations
    alone = copies.LineCounts()
    english = {1: texts[1], 2: texts[2], 7: texts[2].replace("moving on", "going on")}
    urls[7] = f"{repo}/chapters/en/chapter1/10.mdx"
    for n, text in english.items():
        alone.add(copies_line_hashes(text), urls[n])
    one_language = copies.measure([_info(n, urls[n], t, kind="markdown", counts=alone) for n, t in english.items()])
    assert all(c.signal != "translation" for c in one_language.values())
    # nor does an en/ folder beside unmarked pages: both are English
    marked = {2: (f"{repo}/docs/en/bias.md", texts[2]), 8: (f"{repo}/docs/notes.md", texts[2].replace("on.", "."))}
    assert copies.translation_folder(marked[2][0]) == copies.translation_folder(marked[8][0]) == "docs"
    english_too = copies.LineCounts()
    for url, text in marked.values():
        english_too.add(copies_line_hashes(text), url)
    found = copies.measure([_info(n, u, t, kind="markdown", counts=english_too) for n, (u, t) in marked.items()])
    assert all(c.signal != "translation" for c in found.values())


def test_a_translation_in_a_language_folder_or_named_in_full_is_found_wherever_it_sits():
    # a blog post translated into a sub-folder named for its language, and a README with the language in its name
    repo = "https://raw.githubusercontent.com/org/kernels/abc1234/blogs"

    english, chinese = _bilingual_post(
        [f"tile_{n}_stride cp_async_{n} wgmma_m{n}n64k16 ldmatrix_x{n}" for n in range(12)]
    )
    english_fp6, chinese_fp6 = _bilingual_post([f"fp6_e{n}m2 dequant_{n} lut_{n}x4 mma_k{n}" for n in range(12)])
    urls = {
        1: f"{repo}/pipelining/README.md",
        2: f"{repo}/pipelining/japanese/README.md",
        3: f"{repo}/pipelining/2024-03-05/README.md",
        4: f"{repo}/pipelining/2024-03-05/README-Chinese.md",
    }
    texts = {1: english, 2: chinese, 3: english_fp6, 4: chinese_fp6}
    assert copies.language_of(urls[2]) == "ja" and copies.language_of(urls[4]) == "zh"
    assert copies.page_name(urls[2]) == copies.page_name(urls[1]) == "pipelining/readme"  # the folder is a language
    assert copies.page_name(urls[4]) == copies.page_name(urls[3]) == "2024-03-05/readme"  # so is the suffix
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
    assert found[2].duplicate_of == 1 and found[2].signal == "translation" and found[2].because["rule"] == "original"
    assert found[4].duplicate_of == 3 and found[4].signal == "translation" and found[4].because["rule"] == "original"
    assert found[1].duplicate_of is None and found[3].duplicate_of is None
    # a folder or a name that is no language keeps its meaning: the post's own folder names the page
    assert copies.page_name(f"{repo}/german-shepherd/README.md") == "german-shepherd/readme"
    assert copies.language_of(f"{repo}/german-shepherd/README.md") == ""
    assert copies.language_of("https://raw.githubusercontent.com/o/Chinese-Llama/abc1234/README.md") == ""


def test_a_translation_tree_beside_the_original_tree_meets_it_under_a_generic_name():
    # a project keeps its guide in docs/ and each translation in a tree of its own, translations/<code>/: a page
    # with a generic name sits at the top of both trees, under two different folders
    repo = "https://raw.githubusercontent.com/org/os-course/abc1234"
    english, korean_like = _bilingual_post([f"mmu_{n}_entry el{n}_vector gic_irq_{n} mbox_ch{n}" for n in range(12)])
    urls = {
        1: f"{repo}/docs/Introduction.md",
        2: f"{repo}/translations/ko/Introduction.md",
        3: f"{repo}/lessons/lesson01/README.md",  # a deeper page of the same generic name keeps its folder
        4: f"{repo}/translations/ko/lesson02/README.md",
    }
    assert copies.page_name(urls[1]) != copies.page_name(urls[2])  # the folders differ: docs/, translations/
    assert copies.translation_name(urls[1]) == copies.translation_name(urls[2]) == "introduction"
    assert copies.translation_name(urls[3]) == "lesson01/readme" != copies.translation_name(urls[4])
    assert copies.translation_name(f"{repo}/lessons/scheduler.md") == copies.page_name(f"{repo}/lessons/scheduler.md")
    english_2, korean_2 = _bilingual_post([f"sched_{n}_tick rq_{n}_len ctx_sw{n} pid_{n}map" for n in range(12)])
    texts = {1: english, 2: korean_like, 3: english_2, 4: korean_2}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
    assert found[2].duplicate_of == 1 and found[2].signal == "translation" and found[2].because["rule"] == "original"
    assert found[1].duplicate_of is None and found[4].duplicate_of is None  # lesson02 is no form of lesson01
    # one language tree alone marks nothing a translation: no original of that name, no pair
    alone = copies.measure([_info(2, urls[2], korean_like, kind="markdown", counts=counts)])
    assert alone[2].duplicate_of is None
    # more languages by code where a path seldom means anything else, and by name everywhere
    assert copies.language_of(f"{repo}/translations/vi/Introduction.md") == "vi"
    assert copies.language_of(f"{repo}/README-Polish.md") == "pl" and copies.language_of(f"{repo}/italian/x.md") == "it"
    assert copies.translation_name(f"{repo}/translations/tr/Introduction.md") == "introduction"
    for plain in (
        "tools/build.pl",
        "docs/ml/intro.md",
        "docs/try-it-out.md",
        "docs/id/index.md",
        "hindi-bert/README.md",
    ):
        assert copies.language_of(f"{repo}/{plain}") == "", plain


def test_a_sphinx_source_stub_is_a_copy_of_the_page_it_renders_to():
    # the source of an API page: a title, a comment the quick-start tool wrote, one autodoc directive with its
    # member list; the page it renders to holds the whole class reference the directive pulls in
    source = (
        ".. demo documentation master file, created by the quick-start tool.\n"
        "   You can adapt this file completely to your liking.\n\n"
        "Plan\n====\n\n.. autoclass:: demo.Plan\n   :members: bake, enqueue, strides_in, strides_out\n"
    )
    page_url = "file:///usr/share/doc/demo-doc/html/plan.html"
    page = _info(1, page_url, "Plan\n\n" + PAGE)
    stub = _info(2, "file:///usr/share/doc/demo-doc/html/_sources/plan.rst.txt", source, kind="text", copy_of=page_url)
    assert stub.text is not None and stub.text.size < copies.STUB_SHINGLES
    found = copies.measure([page, stub])
    assert found[2].duplicate_of == 1 and found[2].score == 1.0 and found[2].because == {"rule": "rendered"}
    assert found[1].duplicate_of is None
    # a source that only includes another file (the project's NEWS) has no text of its own at all
    include = _info(
        5,
        "file:///usr/share/doc/demo-doc/html/_sources/news.rst.txt",
        ".. _news:\n\n.. include:: ../NEWS\n",
        kind="text",
        copy_of="file:///usr/share/doc/demo-doc/html/news.html",
    )
    news = _info(6, "file:///usr/share/doc/demo-doc/html/news.html", "Release notes\n\n" + PAGE)
    assert include.text is None and copies.measure([include, news])[5].duplicate_of == 6
    # a comment is never rendered; directives, footnotes, targets and substitutions are not comments
    rst = ".. a note\n   on two lines\n\nText.\n\n.. note::\n   kept\n\n.. [1] a footnote\n\n.. |x| image:: a.png\n"
    assert (
        copies._RST_COMMENT.sub("", rst) == "Text.\n\n.. note::\n   kept\n\n.. [1] a footnote\n\n.. |x| image:: a.png\n"
    )
    # a long source is its page's copy too, however little their texts meet (Sphinx renders the page from it;
    # copy22): counted at the cut, not above it
    long_source = _info(
        3,
        "file:///usr/share/doc/demo-doc/html/_sources/other.rst.txt",
        PAGE,
        kind="text",
        copy_of="file:///usr/share/doc/demo-doc/html/other.html",
    )
    other = _info(4, "file:///usr/share/doc/demo-doc/html/other.html", "Other\n\n" + _paragraphs(30, "atomics"))
    found = copies.measure([long_source, other])
    assert found[3].duplicate_of == 4 and found[3].score == copies.HIGH_REDUNDANCY and found[4].duplicate_of is None


_LISTED = [
    "#include <vector>",
    "",
    "// the tile each block stages",
    *(f"static float tile_{i}[{16 * (i + 1)}];" for i in range(8)),
    "",
    "int main()",
    "{",
    *(f"    acc_{i} += a[{i} * lda + k] * b[k * ldb + {i}];" for i in range(24)),
    *(f"    store(out_{i}, acc_{i}, stride_{i});" for i in range(16)),
    "    return 0;",
    "}",
]


def test_a_numbered_source_listing_is_the_code_of_the_page_that_renders_it():
    # a documentation generator's listing of an example file (a number before each line, the navigation and the
    # tooltips of the symbols it links around it) and the tutorial page showing the same file between paragraphs
    head = "Demo library 1.0\n\nClasses Files Pages\n\ntiling.cpp\n\n"
    chunks = [_LISTED[i : i + 10] for i in range(0, len(_LISTED), 10)]
    prose = [
        f"Paragraph {n}: this part of the tutorial explains why the block stages its operands in shared memory "
        f"before the accumulation loop {n} reads them."
        for n in range(len(chunks))
    ]
    page = head + "\n\n".join(
        f"{p}\n\n" + "\n\n".join(line for line in c if line) for p, c in zip(prose, chunks, strict=True)
    )
    listing = head + "Go to the documentation of this file.\n\n"
    listing += "\n\n".join(f"{n} {line}".rstrip() for n, line in enumerate(_LISTED, start=1))
    listing += "\n\n" + "\n\n".join(
        f"demo::store_{i}\n\nvoid store_{i}(float *out, float acc, int stride)\n\nDefinition: store.hpp:{40 + i}"
        for i in range(16)
    )
    unnumbered = copies.unnumbered(listing)
    assert unnumbered is not None and unnumbered.split("\n")[0] == "#include <vector>"
    assert (
        "Definition" not in unnumbered and "Go to the documentation" not in unnumbered
    )  # the generator's, not the file's
    url = "file:///usr/share/doc/demo-doc/html"
    infos = [_info(1, f"{url}/tiling_8cpp-example.html", page), _info(2, f"{url}/tiling_8cpp_source.html", listing)]
    assert infos[1].source_copy and not infos[0].source_copy
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].score >= copies.HIGH_REDUNDANCY  # the rendered page is kept
    assert found[2].because == {"rule": "rendered"} and found[1].duplicate_of is None
    # what is no listing: a table of losses by step, prose, a numbered list of steps ("1. …")
    assert copies.unnumbered("step loss\n" + "\n".join(f"{n} {9 - n / 10:.2f}" for n in range(1, 40))) is None
    assert copies.unnumbered(PAGE) is None
    assert copies.unnumbered("\n".join(f"{n}. Install part {n} of the toolkit" for n in range(1, 20))) is None


def _template_page(own: str, n: int) -> str:
    shared = "\n\n".join(
        f"Setup {i}: create the handle, describe tensor {i} with its strides and data type, build the graph, "
        f"check support for the chosen engine, and allocate the workspace the plan asks for."
        for i in range(12)
    )
    mine = "\n\n".join(f"{own} {i}. " + " ".join(f"{own.lower()}_{i}_{w}" for w in range(20)) for i in range(n))
    return f"{shared}\n\n{mine}"


def test_pages_of_one_folder_from_one_template_are_no_copies_but_versions_of_one_page_are():
    # two samples of one folder, built from one template: the smaller is half inside the larger (containment
    # ≥ 0.5) though they share under half their shingles (Jaccard < 0.5): two pages, not a copy
    forward, backward = _template_page("Forward", 3), _template_page("Backward", 6)
    folder = "https://raw.githubusercontent.com/org/frontend/abc1234/samples/python"
    a = _info(1, f"{folder}/50_attention_forward.ipynb", forward, kind="markdown")
    b = _info(2, f"{folder}/51_attention_backward.ipynb", backward, kind="markdown")
    assert a.text and b.text
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    assert jaccard < copies.SIBLING_JACCARD
    assert copies.redundancy.containment(jaccard, a.text.size, b.text.size) >= copies.HIGH_REDUNDANCY
    assert copies.siblings(a.url, b.url)
    assert copies.measure([a, b])[1].duplicate_of is None
    # numbered in a series (a documentation generator's a00197, a00198) is no version either
    series = [
        _info(3, "file:///usr/share/doc/d/html/a00197.html", forward),
        _info(4, "file:///usr/share/doc/d/html/a00198.html", backward),
    ]
    assert copies.measure(series)[3].duplicate_of is None
    # the same texts as a marked version of one page, or as one page in two folders, stay copies
    versions = [_info(5, f"{folder}/attention.md", forward), _info(6, f"{folder}/attention-v2.md", backward)]
    assert copies.measure(versions)[5].duplicate_of == 6
    apart = [_info(7, f"{folder}/attention.ipynb", forward), _info(8, f"{folder}/../docs/attention.ipynb", backward)]
    assert not copies.siblings(apart[0].url, apart[1].url)
    assert copies.measure(apart)[7].duplicate_of == 8


def _routine_page(letter: str, routine: str, steps: int) -> str:
    """A generated reference page of our own for one routine in one precision: the arguments every routine of the
    library describes alike (a template), then the routine's own description, written once for all precisions
    but for the precision letter in its names."""
    upper = letter.upper()
    arguments = "\n\n".join(
        f"Argument {i}: the matrix descriptor {i} holds its storage type, data type and shape, and is left "
        f"unchanged on exit unless the options ask for equilibration."
        for i in range(10)
    )
    own = "\n\n".join(
        f"{upper}{routine.upper()} step {i} calls {letter}{routine}_kernel_{i}: "
        + " ".join(f"{routine}_{i}_{w}" for w in range(14))
        for i in range(steps)
    )
    return f"{letter}{routine}.c File Reference\n\n{arguments}\n\n{own}"


def test_one_routines_page_in_two_precisions_is_one_page_and_the_double_one_is_kept():
    # a numerical library documents each routine once per precision (s, d, c, z), from one template
    folder = "file:///usr/share/doc/solver-doc/html"
    pages = {
        1: (f"{folder}/dgssv_8c.html", _routine_page("d", "gssv", 12)),
        2: (f"{folder}/sgssv_8c.html", _routine_page("s", "gssv", 12)),
        3: (f"{folder}/dpanel_8c.html", _routine_page("d", "panel", 14)),
        4: (f"{folder}/zpanel_8c.html", _routine_page("z", "panel", 14)),
        5: (f"{folder}/dcolumn_8c.html", _routine_page("d", "column", 13)),  # another routine, one precision
    }
    assert copies.precision_twins(pages[2][0], pages[1][0]) == ("s", "d")
    assert copies.precision_twins(pages[1][0], pages[3][0]) is None  # two routines
    assert copies.precision_twins(f"{folder}/cpu.html", f"{folder}/dpu.html") is None  # a letter and two: no routine
    assert copies.precision_twins(f"{folder}/sgssv_8c.html", f"{folder}/../man/dgssv_8c.html") is None
    counts = copies.LineCounts()
    for url, text in pages.values():
        counts.add(copies_line_hashes(text), url)
    assert counts.page(pages[1][0]) == counts.page(pages[2][0]) != counts.page(pages[5][0]) == "dcolumn_8c"
    found = copies.measure([_info(n, url, text, counts=counts) for n, (url, text) in pages.items()])
    assert found[2].duplicate_of == 1 and found[2].because["rule"] == "precision"
    assert found[4].duplicate_of == 3 and found[4].because == {"rule": "precision", "precisions": ["d", "z"]}
    assert all(found[n].duplicate_of is None for n in (1, 3, 5))  # the routines stay pages of one template


def _kernel_file(variant: str, lines: int) -> str:
    """A kernel source file of our own: the scaffolding every variant of the folder repeats (includes, the launch
    helper, the host check), then a body of the variant's own."""
    scaffold = [
        "#include <cuda_fp16.h>",
        "#include <mma.h>",
        *(f"#define TILE_{i} ({16 * (i + 1)})" for i in range(6)),
        *(f"static inline int ceil_div_{i}(int a, int b) {{ return (a + b - 1) / b + {i}; }}" for i in range(8)),
        *(f"void check_{i}(cudaError_t e) {{ if (e != cudaSuccess) abort_with(e, {i}); }}" for i in range(8)),
    ]
    body = [
        f"    acc_{variant}_{i} = mma_{variant}(frag_a_{i}, frag_b_{variant}_{i}, acc_{variant}_{i}, stage_{i});"
        for i in range(lines)
    ]
    return "\n".join(
        [*scaffold, f"__global__ void hgemm_{variant}(const half *a, const half *b, half *c) {{", *body, "}"]
    )


def test_two_kernel_files_of_one_folder_need_more_in_common_than_two_pages():
    folder = "https://raw.githubusercontent.com/org/hgemm/abc1234/src/mma"
    permuted, stage4 = _kernel_file("permuted", 6), _kernel_file("async_stage4", 10)
    a = _info(1, f"{folder}/mma_permuted.cu", permuted, kind="text")
    b = _info(2, f"{folder}/mma_async_stage4.cu", stage4, kind="text")
    assert a.text and b.text
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    assert copies.SIBLING_JACCARD <= jaccard < copies.SIBLING_CODE_JACCARD  # a page pair this close would be copies
    assert copies.redundancy.containment(jaccard, a.text.size, b.text.size) >= copies.HIGH_REDUNDANCY
    assert copies.sibling_cut(a.url, b.url) == copies.SIBLING_CODE_JACCARD
    assert all(c.duplicate_of is None for c in copies.measure([a, b]).values())
    # the same two texts as two pages (not source files) are held to the pages' cut
    pages = [
        _info(3, f"{folder}/permuted.md", permuted, kind="markdown"),
        _info(4, f"{folder}/async_stage4.md", stage4, kind="markdown"),
    ]
    assert copies.sibling_cut(pages[0].url, pages[1].url) == copies.SIBLING_JACCARD
    assert copies.measure(pages)[3].duplicate_of == 4
    # two handlers of one folder of module examples, a short body each in the same scaffolding (0.6-0.7); their
    # names are not what their bodies differ in (``substituted`` reads the two as one text where they are: below)
    top, bottom = _kernel_file("top", 6), _kernel_file("bottom", 6)
    handlers = [
        _info(6, f"{folder}/irq_top.c", top, kind="text"),
        _info(7, f"{folder}/irq_deferred.c", bottom, kind="text"),
    ]
    assert handlers[0].text and handlers[1].text
    assert 0.6 <= handlers[0].text.minhash.jaccard(handlers[1].text.minhash) < copies.SIBLING_CODE_JACCARD
    assert all(c.duplicate_of is None for c in copies.measure(handlers).values())
    named = [handlers[0], _info(8, f"{folder}/irq_bottom.c", bottom, kind="text")]
    assert copies.substituted(named) == {6: [8], 8: [6]}  # one body, the variant's name changed throughout
    # one kernel file at two revisions stays a copy: revisions are no siblings
    again = _info(5, f"{folder.replace('abc1234', 'def5678')}/mma_permuted.cu", permuted, kind="text")
    assert {c.duplicate_of for c in copies.measure([a, again]).values()} == {None, 1}


def _licence_terms(count: int, clause: str) -> str:
    """A licence of our own words: ``count`` numbered clauses (``clause`` with ``{i}``), a paragraph each."""
    return "\n\n".join(clause.format(i=i) for i in range(count))


def test_a_licence_text_in_a_licenses_folder_is_each_projects_own():
    # the REUSE layout: LICENSES/<licence id>.txt, the same text in two projects is each one's terms
    terms = _licence_terms(
        10,
        "Section {i}. You may share and adapt the material for any purpose, provided you give appropriate credit, "
        "link to the terms, and indicate whether changes were made (clause {i}).",
    )
    ours = _info(1, "https://raw.githubusercontent.com/a/guide/abc1234/LICENSES/CC-BY-4.0.txt", terms, kind="text")
    theirs = _info(
        2, "https://raw.githubusercontent.com/b/other/def5678/LICENSES/CC-BY-4.0.txt", terms + "\n\nEnd.", kind="text"
    )
    assert all(c.duplicate_of is None for c in copies.measure([ours, theirs]).values())
    again = _info(3, "https://raw.githubusercontent.com/a/guide/def5678/LICENSES/CC-BY-4.0.txt", terms, kind="text")
    assert copies.measure([ours, again])[3].duplicate_of == 1  # its own project's licence at two revisions
    # the same text as two projects' pages (not in a LICENSES folder) is one page read twice
    pages = [
        _info(4, ours.url.replace("LICENSES", "docs"), terms),
        _info(5, theirs.url.replace("LICENSES", "docs"), terms),
    ]
    assert copies.measure(pages)[5].duplicate_of == 4


def test_stubs_repeat_only_their_own_page():
    # two redirect notes of one folder: a sentence each, the same but for the page they point to
    note = "This chapter has moved. The text now lives in the {} section of the new guide, kept up to date there."
    folder = "https://raw.githubusercontent.com/org/guide/abc1234/chapters"
    a = _info(1, f"{folder}/fences.md", note.format("fences"), kind="markdown")
    b = _info(2, f"{folder}/barriers.md", note.format("barriers"), kind="markdown")
    assert a.text and b.text and max(a.text.size, b.text.size) < copies.STUB_SHINGLES
    assert a.text.minhash.jaccard(b.text.minhash) >= copies.SIBLING_JACCARD
    assert all(c.duplicate_of is None for c in copies.measure([a, b]).values())
    # the same note at two revisions of one repository is one page read twice
    again = _info(3, f"{folder.replace('abc1234', 'def5678')}/fences.md", note.format("fences"), kind="markdown")
    assert {c.duplicate_of for c in copies.measure([a, again]).values()} == {None, 1}
    # a short page index of one generator in two packages is each package's own
    index = "Related Pages. Here is a list of all related documentation pages: the todo list, the bug list."
    ours = _info(4, "file:///usr/share/doc/alpha-doc/html/pages.html", index)
    theirs = _info(5, "file:///usr/share/doc/beta-doc/html/pages.html", index + " The deprecated list.")
    assert all(c.duplicate_of is None for c in copies.measure([ours, theirs]).values())


def test_a_templates_output_under_a_few_names_is_one_page_but_example_readmes_of_one_template_are_not():
    """Five option pages of one folder written from one template, the program's name and one word changed in
    each: their own texts are a stub once the template's lines go, so each is signed with them and they are
    copies. Two READMEs in two example folders of one template are no copies though they share as much, nor is a
    page whose own text is long enough to compare."""
    options = "\n".join(
        f"-{c}, --option-{c}=<value>    sets the {c} parameter of the measurement loop ({c} by default)"
        for c in "abcdefghijklmnopqrstu"
    )

    def page(name: str, verb: str) -> str:
        return (
            f"{name} - a {verb} bandwidth test\n\nThis program measures the bandwidth of {verb} transfers.\n\n{options}"
        )

    pages = {
        n: (f"file:///usr/share/man/man1/tool_{v}_bw.1", page(f"tool_{v}_bw", v))
        for n, v in enumerate(("write", "read", "send", "fetch", "swap"), 1)
    }
    base = "https://raw.githubusercontent.com/org/kit/abc1234/examples"
    readme = "\n".join(
        f"Step {i}: build the example with the kit's CMake preset and run it on device {i}." for i in range(20)
    )
    pages[6] = (f"{base}/sum/README.md", f"The sum example adds two arrays.\n\n{readme}")
    pages[7] = (f"{base}/scan/README.md", f"The scan example scans an array.\n\n{readme}")
    pages[8] = (f"{base}/sort/README.md", f"The sort example sorts an array.\n\n{readme}")
    counts = copies.LineCounts()
    for url, text in pages.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in pages.items()]
    assert all(i.templated for i in infos)
    found = copies.measure(infos)
    assert found[1].duplicate_of is None and all(found[n].duplicate_of in range(1, 6) for n in range(2, 6))
    assert all(found[n].duplicate_of is None for n in (6, 7, 8))  # cousins: each example's README
    # with a description of its own, a page is compared by it: pages per function, no copies
    long = {
        n: (url, text.replace("transfers.", "transfers. " + " ".join(f"{url[-8:]} word{i}" for i in range(60))))
        for n, (url, text) in pages.items()
        if n < 6
    }
    counts = copies.LineCounts()
    for url, text in long.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in long.items()]
    assert not any(i.templated for i in infos)
    assert all(c.duplicate_of is None for c in copies.measure(infos).values())


def test_a_generators_fixed_pages_and_a_debian_changelog_are_each_places_own():
    legend = "\n\n".join(
        f"Box {i}: a node drawn with a {i}-pixel border stands for a class whose members are shown in part, and an "
        f"arrow of colour {i} for a relation between two classes of the documented code."
        for i in range(12)
    )
    ours = _info(1, "file:///usr/share/doc/alpha-doc/html/graph_legend.html", legend)
    theirs = _info(2, "file:///usr/share/doc/beta-doc/html/graph_legend.html", legend)
    assert all(c.duplicate_of is None for c in copies.measure([ours, theirs]).values())

    # two versions of a package record two histories (the older's uploads inside the newer's): two documents
    def uploads(versions: range, package: str) -> str:
        return (
            "\n\n".join(
                f"alpha ({i}.0-1) unstable; urgency=medium. New upstream release {i}; rebuild the documentation with the "
                f"newer generator and drop patch {i}, applied upstream. -- A Maintainer, release {i}"
                for i in versions
            )
            + f"\n\nTo read the complete changelog use apt changelog {package}."
        )

    older = _info(3, "file:///usr/share/doc/alpha-14-doc/changelog.Debian", uploads(range(12), "a14"), kind="text")
    newer = _info(4, "file:///usr/share/doc/alpha-19-doc/changelog.Debian", uploads(range(20), "a19"), kind="text")
    assert all(c.duplicate_of is None for c in copies.measure([older, newer]).values())
    # one source's record, installed by each of its binary packages (all but the line naming the package): one
    lib = _info(7, "file:///usr/share/doc/libalpha1/changelog.Debian", uploads(range(20), "libalpha1"), kind="text")
    found = copies.measure([newer, lib])
    assert found[7].duplicate_of == 4 and found[4].duplicate_of is None
    assert copies.measure([older, lib])[3].duplicate_of is None  # the older version's record is still its own
    # the same texts as two packages' ordinary pages are one page read twice
    pages = [
        _info(5, ours.url.replace("graph_legend", "legend"), legend),
        _info(6, theirs.url.replace("graph_legend", "legend"), legend),
    ]
    assert {c.duplicate_of for c in copies.measure(pages).values()} == {None, 5}


def test_one_upload_record_in_several_packages_keeps_the_folder_whose_name_sorts_first():
    # one source's record, installed by each binary package built from it (the same text but the line naming the
    # package): the copy kept is the one in the folder whose name sorts first, byte order, whatever the store order
    # and whatever the names' numbers read as versions would say
    def record(package: str) -> str:
        return (
            "\n\n".join(
                f"beta ({i}.2-1) unstable; urgency=medium. New upstream release {i}: the socket options gain a "
                f"heartbeat timeout; refresh the symbols file and patch {i} for the curve tests. -- B Packager"
                for i in range(18)
            )
            + f"\n\nThis record was installed by {package}."
        )

    folders = ["libbeta5", "libbeta3-dev", "beta-tools"]  # stored in this order; "beta-tools" sorts first
    infos = [
        _info(n, f"file:///usr/share/doc/{folder}/changelog.Debian", record(folder), kind="text")
        for n, folder in enumerate(folders, 1)
    ]
    found = copies.measure(infos)
    assert found[3].duplicate_of is None
    assert found[1].duplicate_of == 3 and found[2].duplicate_of == 3
    assert found[1].because == {"rule": "package", "names": ["beta-tools", "libbeta5"]}
    # two of them: the development package's folder (``libbeta3-dev``) sorts before the runtime's (``libbeta5``)
    pair = copies.measure(infos[:2])
    assert pair[2].duplicate_of is None and pair[1].duplicate_of == 2
    assert copies.measure(infos[1::-1]) == pair  # the order stored changes nothing
    assert [preference.upload_record_folder(info.url) for info in infos] == folders
    assert preference.upload_record_folder("file:///usr/share/doc/libbeta5/changelog.gz") == ""
    # a binary-only rebuild's record, which dpkg names after the architecture (``changelog.Debian.amd64``), is one
    # upload record in each package rebuilt too: the same folder is kept, whatever the store order
    rebuilt = [
        _info(n, f"file:///usr/share/doc/{folder}/changelog.Debian.amd64", record(folder), kind="text")
        for n, folder in enumerate(folders, 1)
    ]
    assert {n: c.duplicate_of for n, c in copies.measure(rebuilt).items()} == {1: 3, 2: 3, 3: None}
    assert copies.measure(rebuilt[:2])[1].because == {"rule": "package", "names": ["libbeta3-dev", "libbeta5"]}
    assert preference.upload_record_folder("file:///usr/share/doc/libbeta5/changelog.Debian.arm64") == "libbeta5"
    assert preference.upload_record_folder("file:///usr/share/doc/libbeta5/changelog.Debian.html") == ""


def test_a_notebook_quoted_by_a_readme_is_no_copy_but_its_rendering_is():
    cells = "\n\n".join(
        f"Step {i}: load the model and the tokenizer, encode the sentence pair and call the view with layer {i} "
        f"and head {i}, then show the attention of every token to the others."
        for i in range(8)
    )
    readme = "\n\n".join(
        f"Section {i}: what the tool shows, how to install it with pip, and the options it takes ({i})."
        for i in range(40)
    )
    base = "https://raw.githubusercontent.com/org/viz/abc1234"
    notebook = _info(1, f"{base}/notebooks/model_view.ipynb", cells, title="{", kind="markdown")
    page = _info(2, f"{base}/README.md", readme + "\n\n" + cells, kind="markdown")
    assert notebook.source_copy
    assert copies.measure([notebook, page])[1].duplicate_of is None
    # rendered to HTML, the page is its rendering and the notebook its source copy
    rendered = _info(3, f"{base}/docs/model_view.html", readme + "\n\n" + cells)
    assert copies.measure([notebook, rendered])[1].duplicate_of == 3


def test_a_restructuredtext_changelog_and_its_rendered_page_sign_alike():
    # the source's link targets (a tenth of a changelog), reference marks and :pr: roles are not on the page
    people = ["Gabe Joseph", "Hendrik Makait", "Florian Jetter", "Thomas Grainger", "Laurence Watts"]
    entries = [
        (f"Fix the scheduler's handling of task {n} when a worker leaves", 7000 + n, people[n % 5]) for n in range(40)
    ]
    source = "Changelog\n=========\n\n.. _v1.2:\n\n1.2\n---\n\n" + "\n".join(
        f"- {what} (:pr:`{pr}`) `{who}`_" for what, pr, who in entries
    )
    source += "\n\n" + "\n".join(
        f".. _`{who} {k}`: https://github.com/user{k}/{who.split()[0].lower()}" for k in range(30) for who in people[:2]
    )
    rendered = "Changelog\n\n1.2\n\n" + "\n\n".join(f"{what} (GH#{pr}) {who}" for what, pr, who in entries)
    page = _info(1, "file:///usr/share/doc/dask-doc/html/changelog.html", rendered)
    copy = _info(2, "file:///usr/share/doc/dask-doc/html/_sources/changelog.rst.txt", source, kind="text")
    assert copy.source_copy
    found = copies.measure([page, copy])
    assert found[2].duplicate_of == 1 and found[2].score > 0.9 and found[1].duplicate_of is None
    assert (
        copies.neutral_markup("see `the guide <https://x.org/g>`_ and crusaderky_", True)
        == "see the guide and crusaderky"
    )


def test_a_notebook_read_as_json_is_a_copy_of_its_rendered_page():
    import json

    paragraphs = PAGE.split("\n\n")
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [line + "\n" for line in p.split(", ")]} for p in paragraphs
    ]
    cells.insert(
        3,
        {"cell_type": "code", "source": ["import numpy as np\n"], "outputs": [{"data": {"image/png": "iVBOR" * 400}}]},
    )
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)
    assert copies.notebook_text(raw) is not None and copies.notebook_text(PAGE) is None
    notebook = _info(1, "file:///usr/share/doc/ipp-doc/html/examples/broadcast.ipynb", raw, kind="text")
    page = _info(2, "file:///usr/share/doc/ipp-doc/html/examples/broadcast.html", "import numpy as np\n\n" + PAGE)
    found = copies.measure([notebook, page])
    assert found[1].duplicate_of == 2 and found[1].score > 0.9 and found[2].duplicate_of is None


def test_the_current_revision_of_a_repository_is_kept_even_when_the_past_one_is_longer():
    repo = "https://raw.githubusercontent.com/org/kernels"
    longer = PAGE + "".join(f"\n\nA section {i} on a queue class the project has since removed." for i in range(6))
    texts = {1: PAGE, 2: longer}  # the page now (shorter: a section went) and at a past commit
    urls = {1: f"{repo}/aaa1111/docs/queues.md", 2: f"{repo}/bbb2222/docs/old/queues.md"}  # it moved, too
    for n in range(3, 6):  # the rest of the repository, read at the current commit
        urls[n], texts[n] = f"{repo}/aaa1111/docs/page{n}.md", " ".join(f"page{n}w{k}" for k in range(200))
    infos = [_info(n, urls[n], t, kind="markdown") for n, t in texts.items()]
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because["rule"] == "current"
    assert found[2].because["pages"] == [4, 1] and found[1].duplicate_of is None  # the kept copy's figures first
    alone = copies.measure(infos[:2])  # with no repository around them, only its old/ folder says which is past
    assert alone[2].duplicate_of == 1 and alone[2].because["rule"] == "version"
    unmarked = _info(2, f"{repo}/bbb2222/docs/archived_queues/queues.md", longer, kind="markdown")
    alone = copies.measure([infos[0], unmarked])  # ... and without it, nothing does: the longer one is kept
    assert alone[1].duplicate_of == 2 and alone[1].because["rule"] == "complete"
    branch = _info(6, "https://github.com/org/kernels/blob/main/docs/queues.md", PAGE, kind="markdown")
    pinned = _info(7, f"{repo}/ccc3333/docs/queues.md", longer, kind="markdown")
    assert copies.measure([branch, pinned])[7].duplicate_of == 6  # a branch is the current state
    site = "https://docs.example.org/en"  # a documentation site: its latest/ channel against a release folder
    channel = _info(8, f"{site}/latest/queues.html", PAGE)
    release = _info(9, f"{site}/v1.2/queues.html", longer)
    found = copies.measure([channel, release])
    assert found[9].duplicate_of == 8 and found[9].because["versions"] == ["latest", "v1.2"]


def test_a_small_repository_s_readme_at_two_commits_keeps_the_commit_its_licence_was_read_at():
    # one path at two commits is one file's two states (LABELS.md: the newer kept, whatever its size): the readme
    # dropped a section and fixed a word since the permalinked commit, and the crawl read the repository's licence
    # at the head only, so the head is the current state though it holds less and only two pages were read at it
    repo = "https://raw.githubusercontent.com/org/moe"
    dropped = "".join(f"\n\nAn optional extra {i}: quantised activations saved at {i} bits." for i in range(6))
    now = PAGE.replace("Paragraph 3:", "Paragraph three:")  # the wording edited, a section gone
    readme = _info(1, f"{repo}/aaa1111/README.md", now, kind="markdown")
    past = _info(2, f"{repo}/bbb2222/README.md", PAGE + dropped, kind="markdown")
    licence = _info(3, f"{repo}/aaa1111/LICENSE", " ".join(f"term{k}" for k in range(300)), kind="text")
    found = copies.measure([readme, past, licence])
    assert found[2].duplicate_of == 1 and found[1].duplicate_of is None
    assert found[2].because == {"rule": "current", "revisions": ["aaa1111", "bbb2222"], "pages": [2, 1]}
    assert copies.measure([past, licence, readme])[2].duplicate_of == 1  # the order stored changes nothing
    # two pages of two paths at the two commits are not one file's states: two pages read at the head are too few
    # to call it current, and the larger is kept (the head's page may be another file that repeats it)
    moved = _info(4, f"{repo}/aaa1111/docs/overview.md", now, kind="markdown")
    found = copies.measure([moved, past, licence])
    assert found[4].duplicate_of == 2 and found[4].because["rule"] == "complete"
    # with the page alone at each commit, nothing tells the states apart: the size decides, as before
    alone = copies.measure([readme, past])
    assert alone[1].duplicate_of == 2 and alone[1].because["rule"] == "complete"


def test_a_name_marked_as_a_past_state_is_the_copy_even_when_it_is_the_longer_one():
    from pipeline.vision.preference import _version_order

    repo = "https://raw.githubusercontent.com/org/handbook/abc1234"  # one commit: no revision tells them apart
    longer = PAGE + "".join(f"\n\nA first-edition aside {i} on a library call since renamed." for i in range(6))
    first = _info(1, f"{repo}/chapters_v1/02.03-queues.ipynb", longer, kind="text")  # the first edition, kept
    current = _info(2, f"{repo}/chapters/02.03-queues.ipynb", PAGE, kind="text")  # beside the current one
    found = copies.measure([first, current])
    assert found[1].duplicate_of == 2 and found[1].because["rule"] == "version" and found[2].duplicate_of is None
    assert found[1].because["versions"] == ["chapters", "chapters_v1"]  # the kept copy's part first
    for old, new in (  # a past-state word after or before the name, or a folder of past states
        ("docs/guide-old/a.md", "docs/guide/a.md"),
        ("docs/legacy_guide/a.md", "docs/guide/a.md"),
        ("docs/archive/a.md", "docs/a.md"),
        ("docs/deprecated/api/a.md", "docs/api/a.md"),
    ):
        assert _version_order(old, new)[0] == -1 and _version_order(new, old)[0] == 1
    assert _version_order("notes-v2.html", "notes.html")[0] == 1  # a second version is still the newer
    # a page kept in a folder of past states when it moved and was renamed, below the folders both paths share
    site = "https://raw.githubusercontent.com/org/handbook/abc1234"
    old, new = f"{site}/docs/old/gemm.md", f"{site}/guide/matmul.md"
    assert _version_order(old, new)[0] == -1 and _version_order(new, old)[0] == 1
    assert _version_order("The old way of tiling", "Tiling now")[0] == 0  # a title's word is no folder
    assert _version_order(f"{site}/old/a.md", f"{site}/old/b.md")[0] == 0  # both in it: it says nothing
    text = _paragraphs(20, "Tiling")
    pair = [_info(1, old, text, kind="markdown"), _info(2, new, text, kind="markdown")]
    assert copies.measure(pair)[1].duplicate_of == 2  # the same text at two paths: the one in old/ is the copy
    for a, b in (  # no mark of a past state: a release of its own, a word that only ends in one, a page named so
        ("docs/notes_v1.5/a.md", "docs/notes/a.md"),
        ("docs/bold/a.md", "docs/b/a.md"),
        ("docs/guide/old", "docs/guide"),
    ):
        assert _version_order(a, b)[0] == 0


def test_a_text_file_repeats_its_own_rendered_page_first_not_a_sibling_that_shares_more():
    folder = "file:///usr/share/doc/kit/examples"
    entries = _paragraphs(30, "Example")
    by_keyword = entries + "\n\n" + _paragraphs(4, "Keyword")  # the same entries, grouped under keywords
    rendered = _paragraphs(3, "Navigation") + "\n\n" + entries.split("\n\n", 3)[3]  # its page, chrome around
    infos = [
        _info(1, f"{folder}/index.txt", entries, kind="text"),
        _info(2, f"{folder}/index.html", rendered),
        _info(3, f"{folder}/keyword-index.txt", by_keyword, kind="text"),
        _info(4, f"{folder}/keyword-index.html", by_keyword),
    ]
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].score >= copies.HIGH_REDUNDANCY
    assert found[3].duplicate_of == 4
    alone = copies.measure([infos[0], infos[2], infos[3]])  # with no page of its name, the sibling it repeats
    assert alone[1].duplicate_of in (3, 4)


def test_show_can_say_every_reason_a_copy_is_kept_and_every_signal_that_found_it():
    from pipeline.vision.preference import RULE_WEIGHT
    from shijie.text import CATALOGUE

    assert all(f"why.rule.{rule}" in CATALOGUE for rule in RULE_WEIGHT)
    source = (REPO / "pipeline" / "vision" / "copies.py").read_text(encoding="utf-8")
    signals = set(re.findall(r'Copy\(.*?"(\w+)"', source)) | {"text", "code"}
    assert {"contained", "source", "translation"} <= signals
    assert all(f"why.signal.{signal}" in CATALOGUE for signal in signals)


def test_show_says_when_one_domain_carries_the_relevance():
    from shijie.explain import reasons

    relevance = {"profile_score": 0.6, "term_evidence": 1.2, "cosine": 0.1, "evidence_domain": "parallel_computing"}
    shown = {"relevance_score": 0.55, "topic": "operator-adaptation", "components": {"relevance": relevance}}
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "within Parallel computing alone" in english and "“并行计算”一域" in chinese
    del relevance["evidence_domain"]
    assert "alone" not in " ".join(line.text for line in reasons(shown, "en"))


def test_show_says_a_rendering_term_counts_against():
    from shijie.explain import reasons

    terms = [{"term": "swapchain", "count": 4, "weight": -2.0}, {"term": "gpu", "count": 3, "weight": 2.0}]
    relevance = {"profile_score": 0.1, "term_evidence": 0.05, "cosine": 0.02, "matched_terms": terms}
    shown = {"relevance_score": 0.1, "topic": "operator-adaptation", "components": {"relevance": relevance}}
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "swapchain ×4 (another field's term, counts against)" in english and "他领域术语" in chinese
    assert english.count("counts against") == 1  # the GPU term is not


def test_the_profile_tells_compute_from_rendering_and_the_os_kernel():
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir
    from pipeline.vision.topic import TopicMatcher

    matcher = TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    compute = {"gpu": 4, "subgroup": 3, "spir v": 2, "device memory": 2, "compute shader": 2}
    rendering = compute | {"swapchain": 3, "rasterization": 3, "fragment shader": 3, "render pass": 2}
    assert matcher.evidence(rendering, 800).score < 0.5 * matcher.evidence(compute, 800).score
    queued = {"work item": 20, "workqueue": 10, "kthread": 3, "interrupt": 3}
    assert matcher.sense_factor("work item", queued) < 0.3 < 0.8 < matcher.sense_factor("work item", {"opencl": 3})
    assert matcher.sense_factor("kernel", {"kernel": 5, "workqueue": 3, "interrupt": 3}) < 0.3


def test_the_profile_reads_a_hardware_counter_page_as_profiling():
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir
    from pipeline.vision.topic import TopicMatcher

    matcher = TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    # a counter library's man page in the field's words: the PMU's events, counted and sampled on overflow
    counters = {"pmu": 4, "hardware event": 3, "performance monitoring": 2, "event set": 2, "counter overflow": 1}
    evidence = matcher.evidence(counters, 800)
    assert evidence.domain == "engineering_experience"
    assert evidence.score > 2 * matcher.evidence({"event set": 2, "counter overflow": 1}, 800).score


def test_a_source_copy_is_valued_as_its_content_and_typed_as_a_copy():
    import numpy as np

    from pipeline.vision.value_model import content_types

    classes = ["generated", "guide", "toc"]
    probs = np.array([0.6, 0.3, 0.1])
    assert np.allclose(content_types(probs, classes, source_copy=True), [0.0, 0.75, 0.25])
    assert np.allclose(content_types(probs, classes, source_copy=False), probs)  # a genindex stays generated
    assert "source_copy" not in load_model().value["features"]  # file_source, its twin, stays


def test_the_learned_topic_counts_less_where_the_senses_read_another_field():
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir

    matcher = topic.TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    gpu = matcher.evidence({"kernel": 6, "gpu": 4, "warp": 3, "thread block": 2}, 800)
    bare = matcher.evidence({"kernel": 6}, 800)  # an ambiguous term, no context either way: a third elsewhere
    os_kernel = matcher.evidence({"kernel": 6, "workqueue": 3, "interrupt": 3, "kthread": 3}, 800)
    assert gpu.other_sense < bare.other_sense <= topic.SENSE_NEUTRAL + 1e-9 < os_kernel.other_sense
    assert topic.learned_weight(gpu) == 1.0 and topic.learned_weight(bare) == pytest.approx(1.0)
    assert topic.learned_weight(os_kernel) < 0.3
    assert topic.learned_weight(topic.Evidence(0.0, 1.0, [], {}, None, 1.0)) == 0.0


def test_the_learned_topic_counts_in_full_only_where_the_profile_finds_the_topic():
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir

    matcher = topic.TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    nothing = matcher.evidence({}, 800)  # a GPU project's copyright file: no profile term at all
    # a sample's build README: CUDA, a word of the field, and its subject elsewhere (since phase 13 the platform's
    # names alone confirm nothing: the learned topic keeps its floor there)
    named = matcher.evidence({"cuda": 6, "gpu": 2}, 200)
    thin = matcher.evidence({"cuda": 6, "gpu": 2, "device memory": 1}, 200)
    # a chapter deep in the field: evidence 1.5 or more (one technical page in twelve of the labelled set)
    deep = matcher.evidence(
        {"shared memory": 8, "warp": 8, "coalesced": 6, "bank conflict": 5, "occupancy": 5, "tensor core": 5}
        | {"thread block": 6, "cuda": 8, "ptx": 4, "tiling": 5, "kernel launch": 4, "memory bandwidth": 4}
        | {"warp shuffle": 4, "software pipelining": 4, "register pressure": 4, "l2 cache": 4},
        600,
    )
    assert nothing.score == 0 and topic.evidence_weight(nothing) == pytest.approx(topic.LEARNED_FLOOR)
    assert topic.evidence_weight(named) == pytest.approx(topic.LEARNED_FLOOR)
    assert topic.LEARNED_FLOOR < topic.evidence_weight(thin) < topic.evidence_weight(deep)
    assert deep.score >= topic.LEARNED_FULL_EVIDENCE and topic.evidence_weight(deep) == 1.0
    # the senses' discount, the evidence's and (phase 27) another field's multiply: the scorer and training take
    # the product
    weights = topic.learned_weight(thin) * topic.evidence_weight(thin) * topic.foreign_weight(thin)
    assert topic.learned_share(thin) == pytest.approx(weights) and topic.foreign_weight(thin) == 1.0


def test_show_says_when_the_learned_topic_counts_less():
    from shijie.explain import reasons

    relevance = {"profile_score": 0.1, "term_evidence": 0.1, "cosine": 0.02, "learned_topic": 0.8}
    shown = {"relevance_score": 0.3, "topic": "operator-adaptation", "components": {"relevance": relevance}}
    assert "another sense" not in " ".join(line.text for line in reasons(shown, "en"))
    relevance["learned_weight"] = 0.25
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "counted ×0.25: its topic words read mostly in another sense" in english and "另一词义" in chinese


def test_show_says_when_another_fields_words_cut_the_learned_topic():
    # review28: a page of another field's words only (topic.foreign_weight) keeps part of its learned topic
    # probability; show says so instead of "blended half and half"
    from shijie.explain import reasons

    relevance = {"profile_score": 0.0, "term_evidence": 0.0, "cosine": 0.01, "learned_topic": 0.9}
    shown = {"relevance_score": 0.2, "topic": "operator-adaptation", "components": {"relevance": relevance}}
    relevance["learned_foreign_weight"] = 1.0
    assert "another field" not in " ".join(line.text for line in reasons(shown, "en"))
    relevance["learned_foreign_weight"] = 0.35
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "counted ×0.35: its topic words are all another field's" in english and "另一领域" in chinese
    assert "half and half" not in english


def test_low_relevance_is_counted_once_by_the_gate_not_by_the_value_model_too():
    from pipeline.vision import training

    model = load_model()
    assert "relevance" not in model.value["features"] and "relevance" not in training.VALUE_EXTRA
    figures = {name: mean for name, mean in zip(model.value["features"], model.value["mean"], strict=False)}
    # a manual of a neighbouring field and a GPU guide, alike but for their relevance: one model value; the scorer's
    # gate (x min(1, relevance / medium)^1.25, scorer.relevance_gate) is the only place the relevance lowers it
    near, far = model.value_of({**figures, "relevance": 0.9}), model.value_of({**figures, "relevance": 0.1})
    assert near[0] == far[0] and near[1]["raw"] == far[1]["raw"]


def test_a_page_under_the_medium_cut_keeps_a_share_of_its_value_that_falls_with_its_relevance():
    import numpy as np

    from pipeline.vision import scorer

    medium = 0.2
    # at or above the cut a page keeps all of its value; no cut, no gate
    assert scorer.relevance_gate(0.2, medium) == 1.0 and scorer.relevance_gate(0.9, medium) == 1.0
    assert scorer.relevance_gate(0.05, 0.0) == 1.0
    # halfway to the cut: 42% of its value (0.5 ** 1.25), not 35% (0.5 ** 1.5, phase 19), a quarter (squared,
    # before phase 19) nor half (the plain ratio)
    assert scorer.relevance_gate(0.1, medium) == pytest.approx(0.4204, abs=1e-3)
    # a quarter of the way: 18% of its value (0.25 ** 1.25), more than the 12.5% that phase 19's gate left it
    assert scorer.relevance_gate(0.05, medium) == pytest.approx(0.1768, abs=1e-3)
    # the share falls with the relevance, to nothing at none; the training tool reads the same gate over arrays
    shares = scorer.relevance_gate(np.array([0.0, 0.05, 0.1, 0.15, 0.3]), np.full(5, medium))
    assert shares[0] == 0.0 and np.all(np.diff(shares) > 0) and shares[-1] == 1.0
    assert shares[1] == pytest.approx(float(scorer.relevance_gate(0.05, medium)))


def test_the_words_value_is_read_both_alone_and_against_its_source(tmp_path, monkeypatch):
    import numpy as np

    from pipeline.vision import neighbours, training
    from pipeline.vision.value_model import VisionModel

    # training and the scorer list the same column, the one read against the source and the other not
    names = ["code_share", "words_value", "source_words_value"]
    assert "source_words_value" in training.VALUE_EXTRA
    assert [names[j] for j in training.relative_columns(names)] == ["code_share", "source_words_value"]
    model = load_model()
    assert "source_words_value" in model.value["relative"] and "words_value" not in model.value["relative"]
    # pages of our own: three of one project on GPU kernels, one alone in another; the scorer hands the value
    # model each page's words value twice, as written and moved by its source's offset from the corpus
    seen = {}
    original = VisionModel.value_of

    def spy(self, figures, *args, **kwargs):
        seen[len(seen)] = (figures["words_value"], figures["source_words_value"])
        return original(self, figures, *args, **kwargs)

    monkeypatch.setattr(VisionModel, "value_of", spy)
    db = open_db(tmp_path / "shijie.db")
    pages = [
        "# Tiles\n\nEach thread block stages a tile of A and B in shared memory, so that every warp reads its rows "
        "once; the MMA then runs on tensor cores while the next tile is loaded, which hides the global memory latency.",
        "# Banks\n\nShared memory has 32 banks; two threads of a warp that address one bank wait for each other, "
        "which is why the tile is padded by one column: the padding costs 3% of the memory and removes the conflicts.",
        "# Launch\n\nThe kernel is launched with 128 threads per block and a grid of tiles.",
    ]
    for n, text in enumerate(pages):
        _store(db, f"https://github.com/gpu/tiles/blob/main/{n}", text)
    _store(db, "https://github.com/other/notes/blob/main/warps", pages[1] + "\n\nWarps of 32 threads issue together.")
    score_corpus(db)
    figures = np.array(list(seen.values()))
    assert len(figures) == 4
    moved = neighbours.relative(figures[:, :1], ["a", "a", "a", "b"])[:, 0]
    assert np.allclose(figures[:, 1], moved, atol=1e-6)
    assert figures[3, 0] == pytest.approx(figures[3, 1])  # a page alone in its source keeps its own figure


def test_a_sphinx_api_source_with_directive_options_is_a_stub_of_its_page():
    # the source an API generator writes for a package: a title per module, one autodoc directive each, and the
    # directive's options (members, inheritance): markup the page renders as the reference it pulls in
    modules = ("plan", "queue", "layout", "strides", "shapes", "kinds", "fields")
    source = "demo.fft package\n================\n\nSubmodules\n----------\n\n" + "".join(
        f"demo.fft.{name} module\n{'-' * (len(name) + 16)}\n\n.. automodule:: demo.fft.{name}\n"
        "    :members:\n    :special-members: __call__\n    :undoc-members:\n    :show-inheritance:\n\n"
        for name in modules
    )
    page_url = "file:///usr/share/doc/demo-doc/html/demo.fft.html"
    page = _info(1, page_url, "demo.fft package\n\n" + PAGE)
    stub = _info(
        2, "file:///usr/share/doc/demo-doc/html/_sources/demo.fft.rst.txt", source, kind="text", copy_of=page_url
    )
    assert stub.text is not None and stub.text.size < copies.STUB_SHINGLES
    assert copies.measure([page, stub])[2].duplicate_of == 1
    # only the option lines right below a directive go: a field list of the text, or a directive's body, stays
    rst = ".. note::\n   :class: tip\n\n   :param x: the tile\n\nText.\n\n:Author: someone\n"
    assert copies._DIRECTIVE_OR_RULE.sub("", rst) == "\n   :param x: the tile\n\nText.\n\n:Author: someone\n"


def test_one_document_typeset_for_several_paper_sizes_is_one_page():
    # a reference card in A4, letter and legal: the same text, broken into pages at other places
    folder = "file:///usr/share/doc/demo-doc"
    card = "\n".join(
        f"Command {i}: run step {i} of the solver with tolerance 1e-{i % 9} and print the residual {i}."
        for i in range(40)
    )
    urls = [f"{folder}/refcard-a4.pdf", f"{folder}/refcard-letter.pdf", f"{folder}/refcard-legal.pdf"]
    assert len({copies.page_name(url) for url in urls}) == 1
    assert copies.page_name(f"{folder}/guide_a4paper.pdf") == copies.page_name(f"{folder}/guide_letterpaper.pdf")
    assert copies.page_name(f"{folder}/a4.html") == "a4"  # a name that is only a paper size stays itself

    def measured(names: list[str]) -> dict:
        texts = {
            f"{folder}/refcard-{name}.pdf": f"Reference card, {name} edition, set in columns\n{card.format(name=name)}"
            for name in names
        }
        counts = copies.LineCounts()
        for url, text in texts.items():
            counts.add(copies_line_hashes(text), url)
        return copies.measure(
            [_info(n, url, t, kind="pdf", counts=counts) for n, (url, t) in enumerate(texts.items(), 1)]
        )

    # the three forms of one page: their shared lines are no template, and two are copies of the one kept
    found = measured(["a4", "letter", "legal"])
    assert [n for n, c in found.items() if c.duplicate_of is None] == [1]  # the one kept (a chain leads to it)
    assert all(c.duplicate_of in (1, 2) and c.score >= copies.HIGH_REDUNDANCY for n, c in found.items() if n != 1)
    # three cards of one folder under three names, each with commands of its own, share their lines as a
    # template: what is left is each one's own
    card += "\n" + "\n".join(
        f"Own command {i}: " + " ".join(f"{{name}}word{i}{k}" for k in range(12)) for i in range(4)
    )
    assert all(c.duplicate_of is None for c in measured(["solver", "mesher", "plotter"]).values())
    # the same card under three names, nothing its own but its name: one template's output read three times
    card = card.rsplit("\nOwn command 0", 1)[0]
    assert sum(c.duplicate_of is None for c in measured(["solver", "mesher", "plotter"]).values()) == 1


def test_a_licence_named_by_its_id_is_each_projects_own():
    # a project ships the GPL as a file named after it; another's manual prints the same text in an appendix
    terms = _licence_terms(
        12,
        "Clause {i}. You may copy and distribute verbatim copies of the program's source code as you receive it, "
        "provided that you conspicuously publish on each copy an appropriate notice (term {i}).",
    )
    ours = _info(1, "https://raw.githubusercontent.com/a/guide/abc1234/GPL-2", terms, kind="text")
    manual = _info(2, "file:///usr/share/doc/beta-doc/manual.html", _paragraphs(20, "tiles") + "\n\n" + terms)
    assert copies.measure([ours, manual])[1].duplicate_of is None
    for name in ("GPL-2", "LGPL-2.1.txt", "gplv3.md", "Apache-2.0.txt", "GFDL-1.3"):
        assert copies._POLICY_FILE.search(f"https://raw.githubusercontent.com/a/guide/abc1234/{name}")
    for name in ("apache2.conf.md", "gpl.html", "mpl_plot.py"):  # no licence version: not named after one
        assert not copies._POLICY_FILE.search(f"https://raw.githubusercontent.com/a/guide/abc1234/{name}")
    again = _info(3, "https://raw.githubusercontent.com/a/guide/def5678/GPL-2", terms, kind="text")
    assert copies.measure([ours, again])[3].duplicate_of == 1  # its own project's licence at two revisions


def test_a_page_is_shown_administrative_only_when_the_administrative_types_outweigh_the_content_ones():
    from pipeline.vision.value_model import decide_type

    classes = ("agent_notes", "changelog", "guide", "qa", "other", "install")
    # a plurality of one administrative type, but most of the mass on content types: a content page, its best type
    assert decide_type([0.19, 0.05, 0.15, 0.14, 0.30, 0.17], classes) == "other"
    assert decide_type([0.19, 0.10, 0.16, 0.14, 0.12, 0.29], classes) == "install"  # 0.58 administrative
    assert decide_type([0.30, 0.05, 0.25, 0.15, 0.20, 0.05], classes) == "guide"  # 0.40 administrative
    assert decide_type([0.0, 0.0, 0.0, 0.0, 1.0, 0.0], classes) == "other"


def test_another_fields_words_keep_the_sense_agreement_and_the_relevance_between_0_and_1():
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir

    matcher = topic.TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    others = [t for t, w in matcher.terms.items() if w < 0]
    assert len(others) >= 8
    # one word of the field among many of other fields (rendering, model recipes): the negative terms must not
    # enter the senses' share, nor turn the general terms' confirmation negative
    for field_word in ("gpu", "quantization", "kernel"):
        for n in (1, 3, 8):
            for count in (1, 8):
                evidence = matcher.evidence({field_word: count, **{t: 5 for t in others[:n]}}, 3000)
                assert 0.0 <= evidence.agreement <= 1.0
                for cosine in (-0.4, 0.0, 0.3):
                    score, parts = topic.relevance(evidence, cosine)
                    assert 0.0 <= score <= 1.0 and parts["cosine"] >= 0.0


def test_a_platform_named_is_not_a_platform_discussed():
    # phase 13: a page that only runs on a GPU or a cluster (a container's setup, a build module, a simulation's
    # input page) names the platform; a kernel engineer's page says how the code uses it
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir

    profile = load_profile(data_dir() / "profiles" / DEFAULT_PROFILE)
    assert {"gpu", "cuda", "mpi", "openmp", "parallel computing"} <= profile.general
    container = _evidence(
        "Build the image with the CUDA libraries of the host so that the container sees the GPU. "
        "To run on a cluster, bind the host's MPI library into the image; OpenMP programs need nothing more. "
        "The GPU driver of the host must match the CUDA version of the image. Parallel computing jobs start "
        "with the cluster's launcher, as they would outside the container."
    )
    kernel = _evidence(
        "Each thread block of the CUDA kernel stages its tile in shared memory, so that the warps of the block "
        "read it without bank conflicts; global memory loads stay coalesced and the GPU's occupancy is set by "
        "the registers each thread needs."
    )
    assert container.score < 0.1 * kernel.score  # 0.30 of it when the platforms made the topic
    assert kernel.score > 0.5


def test_a_measurement_methodology_page_reads_as_profiling():
    # phase 14: how a kernel engineer measures (a microbenchmark's variance, frequency scaling, pinned threads,
    # repetitions, a tracer's self time, memory placed by a NUMA memory policy) is the debugging-and-profiling
    # domain's matter, in the field's words
    methodology = _evidence(
        "A microbenchmark of a short loop shows timing variance from run to run. Disable CPU frequency scaling "
        "and turbo boost, use CPU pinning for the benchmark thread, and time many repetitions; report their "
        "coefficient of variation. A function tracer then gives each call's self time, and a memory policy that "
        "binds the buffer to the local node removes the remote memory accesses."
    )
    plain = _evidence(
        "A test of a short loop shows that its result differs from run to run. Change the settings of the "
        "machine, run the program again before the final runs, and report the mean with its spread. A log of "
        "each call then gives its own duration, and keeping the buffer near the program helps."
    )
    assert methodology.domain == "engineering_experience"
    assert methodology.score > 0.3 > 0.05 > plain.score  # 0.08 before phase 14: the profile held few of its words


def test_placing_a_virtual_machine_reads_as_virtualisation_not_the_field():
    # phase 26 (rel28): a cloud's page on a guest's CPUs and memory speaks NUMA nodes, CPU pinning and threads per core
    # as the field does, but whose performance it tunes is a virtual machine's and no kernel is written: the
    # hypervisor, vCPUs, live migration and the guest operating system are virtualisation's own words, another field's
    placement = (
        "Each NUMA node has its own memory bandwidth, so the {who} should run on the cores of one node. With CPU "
        "pinning every {unit} is bound to one host core, and NUMA placement keeps its memory on the same node; "
        "threads per core decide whether two {unit_plural} share a physical core. {tail}"
    )
    guest = _evidence(
        placement.format(
            who="guest",
            unit="vCPU",
            unit_plural="vCPUs",
            tail="The hypervisor applies the policy when the guest operating system boots, and live migration "
            "to another host keeps it only where that host has the same layout.",
        )
    )
    program = _evidence(
        placement.format(
            who="program's worker threads",
            unit="worker thread",
            unit_plural="worker threads",
            tail="The runtime applies the policy when the program starts, and a run on another machine keeps it "
            "only where that machine has the same layout.",
        )
    )
    assert program.score > 0.15
    assert guest.score < 0.5 * program.score
    # the words alone, not "virtual machine" (a language's VM, a parallel virtual machine) nor "guest" alone
    alone = _evidence(
        placement.format(who="virtual machine", unit="guest thread", unit_plural="guest threads", tail="")
    )
    assert alone.score > 0.5 * program.score


def test_provisioning_a_gpu_cluster_reads_as_container_orchestration_not_the_field():
    # phase 34 (rel37): a GPU operator's deployment pages name the GPU, its driver, MIG and the device plugin on every
    # line, but what they do is place containers on a cluster's nodes: Kubernetes, kubectl, DaemonSets, ConfigMaps,
    # Helm charts and service accounts are container orchestration's own words, another field's, as
    # virtualisation's are; the learned topic model, which reads "GPU", "driver" and "MIG", keeps little of its say
    setup = (
        "The {what} starts the GPU driver, the container toolkit and the device plugin on every GPU node, and the "
        "MIG manager splits each GPU into the profiles its settings list. {tail}"
    )
    cluster = _evidence(
        setup.format(
            what="operator",
            tail="Install the Helm chart with kubectl access to the Kubernetes cluster: a DaemonSet runs each "
            "component, a ConfigMap holds the MIG profiles, and a ServiceAccount of its own lets each one read "
            "the node's labels.",
        )
    )
    host = _evidence(
        setup.format(what="install script", tail="Run it once on each machine, and check the versions it prints.")
    )
    assert cluster.foreign > 0 and cluster.specific == 0
    assert host.foreign == 0  # a container, a node, a driver: every HPC page's words, not the other field's
    assert topic.learned_share(cluster) < 0.5 * topic.learned_share(host)
    # not "custom resource" (a memory allocator's resources are the field's) nor "apiVersion" (a Vulkan instance's)
    for text in (
        "Pass a custom resource to the pool so that every allocation of device memory on the CUDA stream comes from it.",
        "Set the apiVersion of the instance to 1.3, then record the compute dispatch in a command buffer and submit it "
        "to the compute queue.",
    ):
        field = _evidence(text)
        assert field.foreign == 0 and field.specific > 0


def test_a_hardware_trace_page_reads_as_profiling():
    # phase 23 (rel24): a processor's trace unit, its packets decoded back into the program's flow, and the analysis
    # of a program's event traces are profiling as a kernel engineer reads it, in the field's words; the same pages
    # told in everyday words find nothing (0.10 for the trace page before phase 23: cycle counts and the profiler)
    trace = _evidence(
        "The trace unit of each core records the program's flow as a stream of packets: every branch taken, each "
        "exception, and a cycle count at intervals. The trace decoder reads the packets back, follows the program "
        "image to rebuild the instruction trace, and gives the executed address ranges to the profiler, which "
        "reports where the cycles went. A branch trace of this kind costs the program nothing at run time, where "
        "instrumentation would."
    )
    plain = _evidence(
        "The recording unit of each core writes down what the program did as a stream of records: every jump "
        "taken, each fault, and a count of clock ticks at intervals. The reader reads the records back, follows "
        "the program image to rebuild the list of steps, and gives the visited address ranges to the report, "
        "which says where the time went. A recording of this kind costs the program nothing while it runs."
    )
    assert trace.domain == "engineering_experience"
    assert trace.score > 0.3 > 0.05 > plain.score
    events = _evidence(
        "Performance analysis of the solver starts from an event trace of each process: every entry and exit of "
        "a region, every message sent and received, with a time stamp. The timeline shows where the processes wait."
    )
    assert events.domain == "engineering_experience" and events.score > 0.1  # 0 before phase 23


def test_gpgpu_names_the_field():
    # phase 23 (rel24): general-purpose computing on a GPU, by the field's own name, is the topic where a page on
    # compute shaders names no vendor's API
    def page(opening: str):
        return _evidence(
            f"{opening} with compute shaders: the data lives in storage buffers, each invocation of the shader "
            "handles one element, and the host dispatches as many work groups as the array needs before it reads "
            "the result back."
        )

    assert page("GPGPU").score > 1.5 * page("Drawing").score  # 0.086 and 0.086 before phase 23


def test_a_parallel_implementation_is_parallel_computing():
    # phase 23 (rel24): a page that says how an algorithm is carried out in parallel is parallel computing's matter;
    # the same page about "the implementation" is not (both 0 before phase 23: threads and parallelism only confirm)
    text = (
        "The parallel implementation of the merge sort splits the input among the threads, sorts each part, and "
        "merges the sorted parts pairwise; each thread works on its own part of the input."
    )
    parallel = _evidence(text)
    assert parallel.domain == "parallel_computing"
    assert parallel.score > 0.05 > _evidence(text.replace("The parallel implementation", "The implementation")).score


def test_a_short_program_that_calls_mpi_to_share_its_work_is_parallel_code_by_its_calls():
    # phase 24 (rel25): MPI's communication calls and the OpenMP runtime's thread queries say what a program does in
    # parallel, whatever its comments say; the same program with the calls renamed to serial helpers, or one that only
    # sets MPI up (MPI_Init, MPI_Comm_rank), finds nothing, "mpi" alone being a platform's name that only confirms
    program = """/* Each process draws its share of the samples; process 0 reads the count and adds up the hits. */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char *argv[])
{
  int rank, size;
  long count = 0, local, hits = 0, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) count = read_count();
  MPI_Bcast(&count, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  local = count / size;
  hits = draw_and_count(local, rank);
  MPI_Reduce(&hits, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("estimate %f\\n", 4.0 * total / count);
  MPI_Finalize();
  return 0;
}
"""
    serial = program.replace("MPI_Bcast(&count, 1, MPI_LONG, 0, MPI_COMM_WORLD)", "share_count(&count)").replace(
        "MPI_Reduce(&hits, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD)", "add_up(&hits, &total)"
    )
    calls = _evidence(program)
    assert calls.domain == "parallel_computing"
    assert calls.score > 0.15 > 0.02 > _evidence(serial).score  # both 0 before phase 24
    threads = _evidence(
        'int main(void)\n{\n  double sum = 0;\n  omp_set_num_threads(4);\n  printf("%d of %d\\n", '
        "omp_get_thread_num(), omp_get_num_threads());\n  return 0;\n}\n"
    )
    assert threads.score > 0.15


PLUGIN_PAGE = """Testing programs that use MPI

This plugin runs a test suite under MPI. Start the tests with mpirun and the number of ranks you need; each rank runs
the same tests. Mark a test that needs MPI with the marker, and one that needs at least four ranks with its size
argument. The plugin reports which MPI library it found and how many ranks started. A test that is not marked runs
once, on rank zero. Fixtures give each rank a temporary folder shared by every rank of the job, and the name of a file
that all ranks can open. Without an MPI launcher the marked tests are skipped, each with its reason.
"""

PROJECT_HISTORY = """The project began as a few helper functions written for one research group's tests, and grew as
other groups asked for the same help. Its first release had two markers and no documentation; the second added the
guide you are reading and a page of answers to common questions. Releases follow the calendar: one in spring and one
in autumn, each announced on the mailing list a week before. Bug reports are welcome on the tracker; please say which
version you use, how you started the tests and what you expected to see. Changes are reviewed by two maintainers
before they are accepted, and each change comes with a test of its own. The code is released under a permissive
licence, and the guide under a licence that lets you copy and adapt it if you name its authors.
"""


def test_a_page_that_names_mpi_densely_is_about_mpi():
    # phase 25 (rel26): "mpi" is a platform's name that only confirms the topic (phase 13), so a page about testing
    # MPI programs, whose other words (ranks, fixtures, markers) are not the profile's, found no evidence at all. Named
    # five times or more and in one word of a hundred, it is the page's subject ([general] subjects), counted as the
    # page's own; named twice, in a stub under sixty words, or the hardware's name as densely, it still only confirms
    dense = _evidence(PLUGIN_PAGE)
    assert dense.score > 0.1 and dense.specific > 0.1  # 0 before phase 25
    assert dense.matched[0]["term"] == "mpi" and "general" not in dense.matched[0]
    twice = PLUGIN_PAGE.replace("under MPI", "in parallel").replace("needs MPI", "runs in parallel")
    assert _evidence(twice.replace("which MPI library", "which library")).score == 0
    stub = "MPI helpers\n\nHelpers for MPI: run a function under MPI on n ranks, relaunch under MPI, check for MPI."
    assert _evidence(stub).score == 0
    assert _evidence(PLUGIN_PAGE.replace("MPI", "GPU")).specific == 0
    # the same five mentions in a page of five hundred words or more are under one word in a hundred: in passing
    assert _evidence(PLUGIN_PAGE + PROJECT_HISTORY * 2).specific > 0.1  # 394 words
    assert _evidence(PLUGIN_PAGE + PROJECT_HISTORY * 3).score == 0  # 534 words


def test_a_profile_subject_must_be_one_of_its_general_terms(tmp_path):
    path = tmp_path / "p.toml"
    body = '[terms]\n"mpi" = 2.0\n"gpu" = 2.0\n"warp" = 2.0\n[general]\nterms = ["mpi", "gpu"]\nsubjects = [%s]\n'
    path.write_text(body % '"mpi"')
    assert load_profile(path).subjects == frozenset({"mpi"})
    path.write_text(body % '"MPI", " mpi "')  # a subject in another case or with spaces is the term
    assert load_profile(path).subjects == frozenset({"mpi"})
    path.write_text(body % "")
    assert load_profile(path).subjects == frozenset()
    # "warp" is one of the profile's terms but not a [general] one: the error says which list it must be in
    path.write_text(body % '"warp"')
    with pytest.raises(DataError, match=r"subjects 'warp' not among its \[general\] terms"):
        load_profile(path)
    path.write_text(body % '""')  # an empty name is shown as one
    with pytest.raises(DataError, match="subjects '' not among"):
        load_profile(path)
    for listed in ('"mpi"', "{mpi = 1}", "[1]"):
        path.write_text(body.replace("[%s]", "%s") % listed)
        with pytest.raises(DataError, match="'subjects' must be a list of its \\[general\\] terms"):
            load_profile(path)
    for weight in ("0.0", "-1.5"):  # a subject's weight is counted as the page's own evidence: it must be one
        path.write_text(body.replace('"mpi" = 2.0', f'"mpi" = {weight}') % '"mpi"')
        with pytest.raises(DataError, match="subjects 'mpi' need a weight above 0"):
            load_profile(path)
    assert "mpi" in PROFILE.subjects and not PROFILE.subjects & {"gpu", "cuda", "rocm"}


def test_an_isa_page_names_the_unit_its_instruction_issues_to():
    # phase 24 (rel25): an instruction set reference says which execution unit runs each instruction, whatever the
    # vendor calls its units; the same page that names only "the unit" reads as before (both 0.051 before phase 24)
    def page(unit: str):
        return _evidence(
            f"Summary: add two vectors of sixteen lanes element by element. {unit}: the vector unit. Encoding: 32 "
            "bits, the opcode in the top eight. The result is written back two cycles after the instruction issues."
        )

    assert page("Execution unit").score > 1.5 * page("Unit").score


def test_a_page_that_is_only_an_include_directive_is_a_copy_of_the_file_it_includes():
    """A Sphinx page whose source is a title over an include directive (``included``) renders the file it names:
    that file is the document, kept (LABELS.md's include-only convention, 2026-12-05); a page with text of its own
    around the directive, an index whose toctree lists pages, or a page of two includes is not such a page."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1"
    licence = _info(1, f"{repo}/INSTALL.md", _words("building", 300), kind="markdown")
    stub = _info(
        2, f"{repo}/docs/source/install.rst", "Install\n=======\n\n.. include:: ../../INSTALL.md\n", kind="text"
    )
    myst = _info(3, f"{repo}/docs/install.md", "# Install\n\n```{include} ../INSTALL.md\n```\n", kind="markdown")
    own = _info(4, f"{repo}/docs/setup.rst", f"Setup\n=====\n\n{_words('tuning', 200)}\n\n.. include:: ../INSTALL.md\n")
    found = copies.measure([licence, stub, own])
    assert found[2].duplicate_of == 1 and found[2].signal == "included" and found[2].score == 1.0
    assert found[1].duplicate_of is None and found[4].score < copies.HIGH_REDUNDANCY  # (our lessons share a template)
    assert copies.measure([licence, myst])[3].duplicate_of == 1
    # copy37: a licence page that shows the licence file whole through a literal include (reST's or MyST's)
    literal = "# License\n\n```{literalinclude} ../INSTALL.md\n:language: text\n```\n"
    assert copies.measure([licence, _info(9, f"{repo}/docs/license.md", literal, kind="markdown")])[9].duplicate_of == 1
    rest = "License\n=======\n\n.. literalinclude:: ../INSTALL.md\n   :language: text\n"
    assert copies.measure([licence, _info(10, f"{repo}/docs/license.rst", rest, kind="text")])[10].duplicate_of == 1
    elsewhere = _info(5, f"{repo}/docs/other.rst", "Other\n=====\n\n.. include:: ../missing.md\n", kind="text")
    assert copies.measure([licence, elsewhere])[5].duplicate_of is None
    # an index that includes the overview and lists the manual's pages is the manual's entry, not a copy; a page
    # that gathers two included fragments under its own headings is a copy of neither
    index = _info(
        6, f"{repo}/docs/index.rst", ".. include:: ../INSTALL.md\n\n.. toctree::\n   :maxdepth: 2\n\n   usage\n   api\n"
    )
    two = _info(7, f"{repo}/docs/two.rst", "Two\n===\n\n.. include:: ../INSTALL.md\n\n.. include:: ../NOTES.md\n")
    assert copies.measure([licence, index, two])[6].duplicate_of is None
    assert copies.measure([licence, two])[7].duplicate_of is None
    empty_toc = ".. toctree::\n   :maxdepth: 2\n\n.. include:: ../INSTALL.md\n"  # a toctree listing nothing
    assert copies.measure([licence, _info(8, f"{repo}/docs/i.rst", empty_toc)])[8].duplicate_of == 1


def _lesson(language: str, topic: str) -> str:
    """A lesson of our own tutorial in English or Spanish: the prose differs, the code, links and numbers do not."""
    parts = []
    for k in range(8):
        anchors = f"`{topic}_init_{k}` (0x3F00{k}000, https://example.org/{topic}/{k})"
        if language == "es":
            parts.append(
                f"## Paso {k}\n\nAhora llamamos a {anchors}. El programa espera hasta que el dispositivo responde, "
                "y luego guarda el valor en la memoria para que la siguiente parte lo pueda leer sin problemas."
            )
        else:
            parts.append(
                f"## Step {k}\n\nNow we call {anchors}. The program waits until the device answers, and then "
                "it stores the value in the memory so that the next part can read it without any trouble."
            )
    return "\n\n".join(parts)


def test_a_translation_whose_language_only_its_text_tells_is_found_beside_its_original():
    # a tutorial whose lessons hold an English README and its Spanish translation under a Spanish file name: no path
    # marks a language, the text does (few English function words), and the anchors tell which page it translates
    repo = "https://raw.githubusercontent.com/org/tutorial/abc1234"
    spanish, english = _lesson("es", "timer"), _lesson("en", "timer")
    assert copies.foreign_text(f"{repo}/03_timer/LEEME.md", "markdown", spanish)
    assert not copies.foreign_text(f"{repo}/03_timer/README.md", "markdown", english)
    assert not copies.foreign_text(f"{repo}/03_timer/timer.c", "text", spanish)  # a source file is no page
    assert not copies.foreign_text(f"{repo}/03_timer/LEEME.md", "markdown", spanish[:300])  # too few words
    urls = {
        1: f"{repo}/03_timer/README.md",
        2: f"{repo}/03_timer/LEEME.md",
        3: f"{repo}/03_timer/NOTES.md",  # an English page of the folder on another topic
        4: f"{repo}/04_uart/LEEME.md",  # a Spanish lesson whose English page is not in the corpus
        5: f"{repo}/05_gpio/README.md",  # two English pages of one folder sharing their anchors: one language
        6: f"{repo}/05_gpio/USAGE.md",
    }
    texts = {
        1: english,
        2: spanish,
        3: _lesson("en", "notes"),
        4: _lesson("es", "uart").replace("espera hasta que el dispositivo responde", "envía un byte por la línea"),
        5: _lesson("en", "gpio"),
        6: _lesson("en", "gpio").replace("Now we call", "Here the code calls").replace("trouble", "delay"),
    }
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n], copies.foreign_text(urls[n], "markdown", text))
    found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
    assert found[2].duplicate_of == 1 and found[2].signal == "translation" and found[2].because["rule"] == "original"
    assert all(found[n].signal != "translation" for n in (1, 3, 4, 5, 6))
    assert found[1].duplicate_of is None and found[4].score < copies.HIGH_REDUNDANCY  # (our lessons share a template)


def test_doxygen_hashed_folders_mark_no_language():
    """Doxygen's ``CREATE_SUBDIRS`` folders (``html/de/dc0/``) are hashes: ``de/`` there is no German page, so a
    sample's source and its example page are compared as any two forms of one text; ``manual/de/`` still is."""
    from pipeline.vision.preference import language_of

    doxygen = "file:///usr/share/doc/lib-doc/html/de/dc0/samples_2squares_8cpp-example.html"
    assert language_of(doxygen) == "" and language_of("file:///usr/share/doc/lib-doc/html/d9/dde/x.html") == ""
    assert language_of("file:///usr/share/doc/server-doc/manual/de/mpm.html") == "de"
    assert language_of("https://example.org/docs/de/index.html") == "de"


def test_a_short_translated_page_under_its_original_name_needs_fewer_anchors():
    """One place and one page name in two language folders say "one page": a short translation sharing
    ``NAMED_ANCHOR_MIN`` anchors in order is found; under a name of its own the folder search asks ``ANCHOR_MIN``."""
    names = [f"`worker_{w}`" for w in ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta", "zeta")]
    english = "\n\n".join(
        f"The server starts {n} when the load grows, and stops it when the queue is empty." for n in names
    )
    german = "\n\n".join(
        f"Der Server startet {n}, wenn die Last steigt, und stoppt ihn bei leerer Warteschlange." for n in names
    )
    base = "file:///usr/share/doc/server-doc/manual"
    for name, expected in (("workers", 1), ("arbeiter", None)):
        urls = {1: f"{base}/en/workers.html", 2: f"{base}/de/{name}.html"}
        texts = {1: english, 2: german}
        counts = copies.LineCounts()
        for n, text in texts.items():
            counts.add(copies_line_hashes(text), urls[n])
        found = copies.measure([_info(n, urls[n], t, kind="markdown", counts=counts) for n, t in texts.items()])
        assert found[2].duplicate_of == expected
        assert found[1].duplicate_of is None


def test_a_moved_stub_that_links_to_the_new_page_names_where_the_rewritten_page_went():
    """A past page whose path now holds a "moved" stub linking to a page of the current tree is that page's older
    state when ``MOVED_LINKED`` of it lives on there (a getting-started page rewritten into a section's first
    page); the same share in a page the stub does not name, or a stub without a link, makes no copy."""
    repo = "https://raw.githubusercontent.com/org/kernels/{}/{}"
    guide = _paragraphs(30, "Tiling")
    kept_part = "\n\n".join(guide.split("\n\n")[:10])  # a third of it, rewritten around
    current = {
        n: _info(n, repo.format("main", f"docs/other{n}.md"), _words(f"o{n}", 200), kind="markdown")
        for n in (10, 11, 12)
    }
    past = _info(5, repo.format("da40a1e", "docs/start.md"), guide, kind="markdown")
    linked = "## This page has moved\n\nRead the [first steps](start/1-first-steps.md) of the new section."
    stub = _info(6, repo.format("main", "docs/start.md"), linked, kind="markdown")
    new = _info(
        7, repo.format("main", "docs/start/1-first-steps.md"), f"{kept_part}\n\n{_words('new', 500)}", kind="markdown"
    )
    other = _info(8, repo.format("main", "docs/other.md"), f"{kept_part}\n\n{_words('else', 500)}", kind="markdown")
    assert stub.moved_to == ("start/1-first-steps.md",)
    found = copies.measure([past, stub, new, *current.values()])
    assert found[5].duplicate_of == 7 and found[5].signal == "moved" and found[5].score >= copies.HIGH_REDUNDANCY
    assert copies.measure([past, stub, other, *current.values()])[5].duplicate_of is None  # not the page it names
    plain = _info(
        6, repo.format("main", "docs/start.md"), "## This page has moved to the new section.", kind="markdown"
    )
    assert copies.measure([past, plain, new, *current.values()])[5].duplicate_of is None


def test_a_page_read_as_another_language_is_no_translation_of_the_code_it_quotes():
    """A Spanish README whose code blocks quote the kernel beside it shares that file's identifiers in order; a
    language read from the text compares written pages only, so the source file is no "original" of it."""
    repo = "https://raw.githubusercontent.com/org/tutorial/abc1234"
    names = [f"tile_load_{k}" for k in range(14)]
    kernel = "\n".join(f"__device__ void {n}(float* SMEM_{k}) {{ }}" for k, n in enumerate(names))
    readme = _lesson("es", "tile") + "\n\n```cuda\n" + kernel + "\n```\n"
    urls = {1: f"{repo}/03_tile/kernel.cu", 2: f"{repo}/03_tile/LEEME.md"}
    texts = {1: kernel, 2: readme}
    kinds = {1: "text", 2: "markdown"}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n], copies.foreign_text(urls[n], kinds[n], text))
    found = copies.measure([_info(n, urls[n], t, kind=kinds[n], counts=counts) for n, t in texts.items()])
    assert all(c.signal != "translation" for c in found.values())


def test_an_auto_tuning_strategies_page_reads_as_the_field():
    # phase 16: searching a kernel's tuning space (its tunable parameters: block sizes, tiling factors) with
    # random, local or Bayesian search strategies is the field's work, in its own words
    tuning = _evidence(
        "Brute-force auto-tuning benchmarks every configuration of the tuning space, which grows with each "
        "tunable parameter. A search strategy visits fewer: random sampling, a local search from the best "
        "configuration so far, or Bayesian optimization that models the time of each tuning parameter setting "
        "and picks the next point of the search space to measure."
    )
    plain = _evidence(
        "Trying everything measures every combination of the options, whose number grows with each option. "
        "Cheaper ways visit fewer: picking at random, moving from the best one so far, or a model of the time "
        "of each setting that picks the next one to measure."
    )
    assert tuning.score > 0.3 > 0.05 > plain.score  # 0.0 before phase 16: the profile held none of its words


def test_one_program_written_a_way_per_folder_is_no_copy_of_its_sibling_ways():
    # one solver file under one name in a folder per strategy: the scaffolding shared, the body each folder's own
    repo = "https://raw.githubusercontent.com/org/solvers/abc1234"
    ring, halo = _kernel_file("ring_exchange", 6), _kernel_file("halo_overlap", 10)
    a = _info(1, f"{repo}/ring/solver.cu", ring, kind="text")
    b = _info(2, f"{repo}/halo_overlap/solver.cu", halo, kind="text")
    assert a.text and b.text
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    assert copies.SIBLING_JACCARD <= jaccard < copies.SIBLING_CODE_JACCARD
    assert copies.redundancy.containment(jaccard, a.text.size, b.text.size) >= copies.HIGH_REDUNDANCY
    assert copies.cousins(a.url, b.url) and not copies.siblings(a.url, b.url)
    assert all(c.duplicate_of is None for c in copies.measure([a, b]).values())
    # the same kernel file kept byte for byte in two strategy folders is still one text
    same = [
        _info(3, f"{repo}/ring/kernels.cu", ring, kind="text"),
        _info(4, f"{repo}/halo/kernels.cu", ring, kind="text"),
    ]
    found = copies.measure(same)
    assert {found[3].duplicate_of, found[4].duplicate_of} == {None, 3} or {
        found[3].duplicate_of,
        found[4].duplicate_of,
    } == {None, 4}
    # not cousins: one path at two commits, two package versions, two languages, a marked older or newer folder,
    # two steps of one named series, folders of two depths
    past = "https://raw.githubusercontent.com/org/solvers/0123456"
    assert not copies.cousins(f"{repo}/ring/solver.cu", f"{past}/ring/solver.cu")
    assert not copies.cousins("file:///usr/share/doc/kit-1-doc/a/x.html", "file:///usr/share/doc/kit-2-doc/a/x.html")
    assert not copies.cousins(f"{repo}/docs/en/guide.md", f"{repo}/docs/fr/guide.md")
    assert not copies.cousins(f"{repo}/notebooks/a.ipynb", f"{repo}/notebooks_v1/a.ipynb")
    assert not copies.cousins(f"{repo}/csrc/quant/deq.cuh", f"{repo}/csrc/quant_new/deq.cuh")
    assert not copies.cousins(f"{repo}/gemm_01/main.cu", f"{repo}/gemm_02_tma/main.cu")
    assert not copies.cousins(f"{repo}/tp.py", f"{repo}/moe/tp.py")
    assert copies.cousins(f"{repo}/examples/ring/README.md", f"{repo}/examples/halo/README.md")
    assert copies.cousins(f"{repo}/apps/README.md", f"{repo}/libraries/blas/README.md")
    assert not copies.cousins(f"{repo}/kernels/LICENSE", f"{repo}/kernels/moe/LICENSE")  # one folder holds the other


def test_a_guide_shipped_as_plain_text_and_as_html_keeps_the_html_whatever_its_folder():
    from pipeline.vision.preference import preference

    body = _paragraphs(30, "Queue")
    text = _info(1, "file:///usr/share/doc/mailer-doc/QUEUE_README", body, kind="text")
    page = _info(2, "file:///usr/share/doc/mailer-doc/html/QUEUE_README.html", body + "\n\nBack to the index.")
    assert preference(page, text) == (True, {"rule": "rendered", "from": "same name"})
    assert preference(text, page)[0] is False
    found = copies.measure([text, page])
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None
    # a text file of another name is no rendering of the page: the usual rules decide
    other = _info(3, "file:///usr/share/doc/mailer-doc/QUEUE_NOTES", body, kind="text")
    assert preference(page, other)[1]["rule"] != "rendered"


def test_a_term_whose_stem_is_an_everyday_word_is_read_in_its_sense():
    # phase 17: "vectorized" stems to "vector" (geometry's vectors) and "swizzle" is also a shading language's
    # component reordering: with senses, a page of the other meaning reads its words as that meaning, so the
    # learned topic counts less there (learned_weight), and the field's own use keeps its weight
    shading = _evidence(
        "Swizzle the components of a vector: v.xyz reorders xyzw, and c.rgb picks the colour components of rgba in "
        "the shader; a swizzle may repeat a component."
    )
    memory = _evidence(
        "Swizzle the shared memory layout so that each tile's rows fall in different banks: the swizzle removes the "
        "bank conflicts of a column read, with the same stride."
    )
    simd = _evidence("The compiler vectorized the loop: each SIMD lane of the vector register takes one element.")
    assert shading.senses["swizzle"] < 0.3 < 0.9 < memory.senses["swizzle"]
    assert shading.senses["vectorized"] < 0.3 < 0.9 < simd.senses["vectorized"]
    assert shading.score < 0.05 < 0.2 < memory.score  # 0.17 and 0.31 before
    assert topic.learned_weight(shading) < 0.5 < topic.learned_weight(memory) == 1.0  # 1.0 both before


def test_a_term_counts_only_its_written_forms_where_its_stem_is_an_everyday_word(tmp_path):
    # phase 19 (rel20): "lowering", "porting" and "transformer" stem to "lower", "port" and "transform"; the
    # profile's [forms] count only the words written as the term begins, so a page of ports, lower bounds and
    # transformations holds none of them, and the field's own use counts as before
    assert PROFILE.forms["porting"] == ("porting", "ported")
    everyday = _evidence(
        "Open the serial port and the network ports; lower the timeout to the lower bound, then transform the "
        "records: each transformation is applied to the port's lower half."
    )
    field = _evidence(
        "Porting the attention kernel to the new GPU: the compiler's lowering of the transformer layer to PTX, "
        "ported from the old code."
    )
    for term in ("porting", "lowering", "transformer"):
        assert not any(m["term"] == term for m in everyday.matched)
    assert {"porting", "lowering", "transformer"} <= {m["term"] for m in field.matched}
    counts = {m["term"]: m["count"] for m in field.matched}
    assert counts["porting"] == 2 and counts["lowering"] == 1  # "Porting" and "ported"; "lowering"
    # without [forms] the stems alone match: the everyday page's words count for the three terms
    stems_only = topic.TopicMatcher(dataclasses.replace(PROFILE, forms={}))
    reading, _ = Reader(stems_only, load_taxonomy()).read(
        (1, "https://example.org/x.md", "", "markdown", "Open the port, lower the bound, transform it.", [], [], {})
    )
    assert {"porting", "lowering", "transformer"} <= {m["term"] for m in reading.evidence.matched}
    # [forms] loads for one-word terms of the profile; another word, or a phrase, is a one-line error
    path = tmp_path / "p.toml"
    path.write_text("text = 'x'\n[terms]\nporting = 1\n[forms]\nporting = ['porting', 'Ported']\n", encoding="utf-8")
    assert load_profile(path).forms == {"porting": ("porting", "ported")}
    for bad, message in (("lowering = ['lowering']", "not one of"), ("porting = []", "beginnings")):
        path.write_text(f"text = 'x'\n[terms]\nporting = 1\n[forms]\n{bad}\n", encoding="utf-8")
        with pytest.raises(DataError, match=message):
            load_profile(path)
    path.write_text("text = 'x'\n[terms]\n'cuda graph' = 1\n[forms]\n'cuda graph' = ['cuda']\n", encoding="utf-8")
    with pytest.raises(DataError, match="one word"):
        load_profile(path)


def test_a_platform_or_gpu_generation_named_confirms_but_does_not_make_the_topic():
    # phase 19 (rel20): a requirement line names the platform and the GPU generation as a kernel page does; like
    # "CUDA" and "GPU" they are [general] terms: alone they make no evidence, beside the field's words they count
    requirement = _evidence("The sample needs ROCm 6 on CDNA 3, or a Volta, Ampere, Hopper or Blackwell card.")
    assert requirement.score == 0.0
    assert {"rocm", "volta", "ampere", "hopper", "blackwell", "cdna"} <= PROFILE.general
    with_field = _evidence(
        "On Hopper, the kernel stages tiles in shared memory with TMA and issues WGMMA from one warp group; on "
        "CDNA 3 under ROCm, MFMA instructions with the tile in the LDS."
    )
    without = _evidence(
        "The kernel stages tiles in shared memory with TMA and issues WGMMA from one warp group; the MFMA "
        "instructions with the tile in the LDS."
    )
    assert with_field.score > without.score > 0.3


def test_a_sparse_solves_task_names_confirm_but_do_not_make_the_topic():
    # phase 32: a solver's calling sequence names its task (an LU factorization of a sparse matrix, a triangular
    # solve) as a GPU factorisation page does; like "BLAS" and "LAPACK" beside them they are [general] terms: alone
    # they make no evidence, beside the field's words they count
    usage = _evidence(
        "Call the symbolic analysis once per sparse matrix pattern, then the LU factorization for each set of values, "
        "then a triangular solve for each right-hand side; the control array sets the pivot tolerance."
    )
    assert usage.score == 0.0
    assert {"lu factorization", "lu factorisation", "triangular solve", "sparse matrix", "sparse matrices"} <= (
        PROFILE.general
    )
    with_task = _evidence(
        "The supernodal LU factorization of the sparse matrix sends each supernode's update to the GPU as a batched "
        "GEMM on device memory, and the triangular solve runs one thread block per level."
    )
    without = _evidence(
        "The supernodal factorisation sends each supernode's update to the GPU as a batched GEMM on device memory, "
        "and the solve runs one thread block per level."
    )
    assert with_task.score > without.score > 0.2


def test_simd_code_and_a_lock_free_ring_read_as_the_field():
    # phase 17: code written with SIMD intrinsics' vector types, non-temporal stores, and a lock-free ring read in
    # the field's words; their plain-words twins do not
    simd = _evidence(
        "The copy loop loads __m256i registers from the source and writes them with non-temporal streaming stores, "
        "which bypass the cache; write combining on mapped memory makes them fast."
    )
    plain_copy = _evidence(
        "The copy loop loads blocks from the source and writes them to the destination, one block at a time, until "
        "the whole buffer is copied."
    )
    ring = _evidence(
        "A lock-free ring buffer lets a multi-producer enqueue by compare and swap on the head index; lockless "
        "dequeue reads the tail."
    )
    plain_ring = _evidence(
        "A circular list lets many writers add items by updating the head index; readers take items at the tail."
    )
    assert simd.score > 0.2 > 0.05 > plain_copy.score  # 0.0 before
    assert ring.score > 0.2 > 0.05 > plain_ring.score  # 0.09 before


def test_a_books_later_edition_is_the_newer_state_and_two_man_sections_are_no_versions():
    from pipeline.vision.preference import editions, preference

    book = "https://raw.githubusercontent.com/org/book/abc1234"
    body = _paragraphs(20, "Preface")
    first = _info(1, f"{book}/first-edition/src/preface.md", body, kind="markdown")
    second = _info(
        2, f"{book}/second-edition/src/preface.md", body + "\n\nNow with a chapter on paging.", kind="markdown"
    )
    assert preference(second, first)[0] and preference(second, first)[1]["rule"] == "version"
    assert not preference(first, second)[0]
    found = copies.measure([first, second])
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None
    assert not copies.cousins(first.url, second.url)  # two editions of one book, not variants per folder
    assert editions("Tiling, 2nd ed.") == "Tiling, edition-2" and editions("third_edition/x") == "edition-3/x"
    assert editions("Revised Edition") == "edition-2" and editions("first editor") == "first editor"
    # a title: a later edition is newer than the same title with an earlier one, or with none
    a = _info(3, "https://h/a.html", body, title="Tiling guide 2nd edition")
    b = _info(4, "https://h/b.html", body, title="Tiling guide")
    assert preference(a, b)[1]["rule"] == "version" and preference(a, b)[0]
    # a command's man page in section 1 and a concept's in section 7: two pages, no version between them
    cmd = _info(5, "file:///usr/share/man/man1/tiler-run.1", body, kind="text")
    concept = _info(6, "file:///usr/share/man/man7/tiler-rules.7", _paragraphs(14, "Preface"), kind="text")
    assert preference(cmd, concept)[1]["rule"] != "version"


def test_a_packages_plain_text_changelog_beside_its_html_changes_page_keeps_the_page():
    from pipeline.vision.preference import preference

    body = _paragraphs(30, "Release")
    text = _info(1, "file:///usr/share/doc/tiledb-doc/changelog", body + "\n\n" + _paragraphs(3, "Plain"), kind="text")
    page = _info(2, "file:///usr/share/doc/tiledb-doc/changes.html", body)
    assert preference(page, text) == (True, {"rule": "rendered", "from": "packaged changelog"})
    found = copies.measure([text, page])
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None
    # the packager's own record, or another package's page, is no rendering of it: the usual rules decide
    debian = _info(3, "file:///usr/share/doc/tiledb-doc/changelog.Debian", body, kind="text")
    assert preference(page, debian)[1]["rule"] != "rendered"
    other = _info(4, "file:///usr/share/doc/other-doc/changes.html", body)
    assert preference(other, text)[1]["rule"] != "rendered"


def test_a_readme_rendered_to_html_keeps_its_text_beside_the_readmes_past_states():
    """A docs page generated from the README shares its lines with the README at three commits: one other page,
    not a template, so the page keeps its text and, the same text rendered, is the copy kept."""
    repo = "https://raw.githubusercontent.com/org/annotate"
    body = _paragraphs(24, "Ranges")
    urls = {
        1: f"{repo}/abc1234/README.md",
        2: f"{repo}/def5678/README.md",
        3: f"{repo}/0a1b2c3/README.md",
        4: f"{repo}/abc1234/docs/index.html",
    }
    page = "Annotation library: documentation home\n\n" + body + "\n\nGenerated from the README by the docs build."
    texts = {1: body, 2: body, 3: body, 4: page}
    counts = copies.LineCounts()
    for n, text in texts.items():
        counts.add(copies_line_hashes(text), urls[n])
    infos = [_info(n, urls[n], texts[n], kind="html" if n == 4 else "markdown", counts=counts) for n in texts]
    assert infos[3].text and infos[0].text and infos[3].text.size > infos[0].text.size  # the README's lines stay
    found = copies.measure(infos)
    assert found[4].duplicate_of is None and found[1].duplicate_of == 4
    assert all(found[n].duplicate_of in (1, 2, 3, 4) and found[n].score >= 0.5 for n in (2, 3))  # one page's states


def test_an_older_state_repeats_its_own_newer_state_before_a_sibling_samples_page():
    repo = "https://raw.githubusercontent.com/org/samples"
    opening = _paragraphs(10, "Staging")
    old = _info(1, f"{repo}/abc1234/spmm_csr/README.md", opening, kind="markdown")
    kept = opening.split("\n\n")[:5]
    new = _info(
        2, f"{repo}/def5678/spmm_csr/README.md", "\n\n".join(kept) + "\n\n" + _paragraphs(20, "Tiles"), "", "markdown"
    )
    # another sample's README, at the newer commit, grew from the same opening and holds more of it
    other = _info(3, f"{repo}/def5678/spmm_ell/README.md", opening + "\n\n" + _paragraphs(4, "Ell"), kind="markdown")
    found = copies.measure([old, new, other])
    assert found[1].duplicate_of == 2 and found[1].signal == "revision"


def test_a_table_joined_with_another_holds_it_and_a_section_page_of_one_name_does_not():
    folder = "https://raw.githubusercontent.com/org/porting/abc1234/docs/tables"
    part_text = _paragraphs(6, "Supported")
    whole_text = part_text + "\n\n" + _paragraphs(30, "Library")
    part = _info(1, f"{folder}/BLAS_API_supported_by_HIP.md", part_text, kind="markdown")
    whole = _info(2, f"{folder}/BLAS_API_supported_by_HIP_and_ROC.md", whole_text, kind="markdown")
    found = copies.measure([part, whole])
    assert found[1].duplicate_of == 2 and found[1].signal == "contained" and found[2].duplicate_of is None
    # a page whose name only opens the other's (a section per page) is no part of it, however much it repeats
    page = _info(3, f"{folder}/runtime.md", part_text, kind="markdown")
    section = _info(4, f"{folder}/runtime_memory.md", whole_text, kind="markdown")
    assert copies.measure([page, section])[3].duplicate_of is None


def test_the_field_edge_in_its_own_words_reads_as_the_field():
    # phase 18 (rel19): parallel algorithms and memory ordering, SIMD vectors, a GPU compute API's submission and
    # pipelines, in the field's words; their plain-words twins do not
    parallel = _evidence(
        "The parallel sort splits the input among the threads and ends with a multiway merge; under an execution "
        "policy each parallel algorithm keeps sequential consistency, and a memory fence or a memory_order argument "
        "orders the counters."
    )
    plain_parallel = _evidence(
        "The sort splits the input into parts and ends by joining the sorted parts; each call keeps the order of "
        "equal items, and a counter records how many were moved."
    )
    simd = _evidence(
        "Each SIMD vector holds eight floats: the SIMD width follows the vector unit, a vector instruction works on "
        "a whole SIMD register, and aligned memory lets the vector width load in one step."
    )
    device = _evidence(
        "The compute pipeline binds the compute shader; command submission sends the recorded work to the queue, and "
        "the tensors live in GPU memory until the work is done."
    )
    plain = _evidence(
        "Each chapter of the book marks a phase of the story: the last page closes the innermost one, and the cover "
        "holds eight pictures."
    )
    assert parallel.score > 0.15 > 0.05 > plain_parallel.score  # 0.0 before
    assert simd.score > 0.15 > 0.05 > plain.score  # 0.08 before
    assert device.score > 0.15  # 0.0 before


def _notebook(paragraphs: list[str]) -> str:
    import json

    cells = [{"cell_type": "markdown", "metadata": {}, "source": [p + "\n"]} for p in paragraphs]
    cells.insert(2, {"cell_type": "code", "source": ["import numpy as np\n"], "outputs": []})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}, indent=1)


def test_a_page_exported_from_a_notebook_is_its_copy_and_the_notebook_is_kept():
    # phase 19 (copy20): a reStructuredText tutorial an exporter wrote from a notebook, its outputs pasted in as
    # <notebook>_files/<notebook>_<cell>_<output>.png images; before, the larger export was kept and the notebook
    # flagged
    repo = "https://raw.githubusercontent.com/org/regress/abc1234"
    paragraphs = PAGE.split("\n\n")
    export = "\n\n".join(
        [
            ".. note:: This tutorial was generated from a notebook.",
            *paragraphs[:2],
            ".. code:: python\n\n    import numpy as np",
            ".. image:: fitting_files/fitting_4_0.png",
            *paragraphs[2:],
            ".. image:: fitting_files/fitting_9_1.png",
            *(f"Output {i}: the loss after step {i} reads {i / 7:.4f} on the held-out points." for i in range(12)),
        ]
    )
    assert copies.exported_from("text", export) == "fitting" and copies.exported_from("text", PAGE) == ""
    page = _info(1, f"{repo}/docs/tutorials/fitting.rst", export, kind="text")
    notebook = _info(2, f"{repo}/docs/_static/notebooks/fitting.ipynb", _notebook(paragraphs), kind="text")
    assert page.text and notebook.text and page.text.size > notebook.text.size  # the export is the larger
    found = copies.measure([page, notebook])
    assert found[1].duplicate_of == 2 and found[1].because == {"rule": "generated", "from": "notebook export"}
    assert found[2].duplicate_of is None
    # a plain-text twin with no outputs (as a notebook pairing tool keeps one) is not read as an export
    twin = _info(3, f"{repo}/docs/tutorials/fitting.md", "\n\n".join([*paragraphs, "A closing note."]), kind="markdown")
    assert twin.exported_from == ""
    # another notebook's images name another notebook
    other = _info(4, f"{repo}/docs/_static/notebooks/scaling.ipynb", _notebook(paragraphs), kind="text")
    assert copies.measure([page, other])[4].duplicate_of == 1


def test_a_preprocessed_form_beside_its_source_is_its_copy_by_their_names():
    from pipeline.vision.preference import generated_form

    folder = "https://raw.githubusercontent.com/org/asm/abc1234/gemm"
    assert generated_form(f"{folder}/gemm_pre_64.sass", f"{folder}/gemm64.sass") == -1
    assert generated_form(f"{folder}/gemm64.sass", f"{folder}/gemm_pre_64.sass") == 1
    assert generated_form(f"{folder}/kernel.expanded.cu", f"{folder}/kernel.cu") == -1
    assert generated_form(f"{folder}/gemm_pre_64.sass", f"{folder}/gemm64.cu") == 0  # another language
    assert generated_form(f"{folder}/gemm_pre_64.sass", f"{folder}/gemm128.sass") == 0  # another kernel
    assert generated_form(f"{folder}/pre/gemm64.sass", f"{folder}/gemm64.sass") == 0  # another folder
    assert generated_form(f"{folder}/prefetch.cu", f"{folder}/fetch.cu") == 0  # a word, not a stage
    # the source: commented blocks, one of them a loop; the form writes the loop out, one line per register
    source_lines = [
        f"// step {i}: load tile {i} into shared buffer {i % 2} while the FMA block runs" for i in range(40)
    ]
    source = "\n".join([*source_lines, "<CODE>", "for my $r (0 .. 63) { emit_fma($r); }", "</CODE>"])
    expanded = "\n".join(
        [*source_lines, *(f"--:-:-:-:1  FFMA acc{r}, a{r % 8}, b{r // 8}, acc{r}; // unrolled {r}" for r in range(64))]
    )
    a = _info(1, f"{folder}/gemm64.sass", source, kind="text")
    b = _info(2, f"{folder}/gemm_pre_64.sass", expanded, kind="text")
    assert a.text and b.text
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    assert copies.redundancy.containment(jaccard, b.text.size, a.text.size) < copies.HIGH_REDUNDANCY
    found = copies.measure([a, b])
    assert found[2].duplicate_of == 1 and found[2].signal == "generated" and found[1].duplicate_of is None


def test_a_template_is_the_copy_of_the_file_written_from_it():
    repo = "https://raw.githubusercontent.com/org/gp/abc1234"
    frame = "\n".join(
        f"    virtual double value_{i} (const double* x) {{ return x[{i}] * scale_{i}; }};" for i in range(40)
    )
    template = "\n".join(
        [
            "#ifndef KERNELS_H",
            frame,
            "{% for spec in specs %}",
            "class {{ spec.name }} : public Kernel {",
            "    double eval (const double r2) { return {{ spec.value }}; };",
            "};",
            "{% endfor %}",
            "#endif",
        ]
    )
    classes = "\n".join(
        f"class Kernel{i} : public Kernel {{\n    double eval (const double r2) {{ return exp(-{i} * r2) + {i}; }};\n}};"
        for i in range(30)
    )
    output = "\n".join(["#ifndef KERNELS_H", frame, classes, "#endif"])
    assert copies.is_template(template) and not copies.is_template(output)
    assert not copies.is_template("int grid[2][2] = {{0, 1}, {2, 3}};\nint z[1][1] = {{0}};\nint w[1][1] = {{1}};")
    a = _info(1, f"{repo}/templates/kernels.h", template, kind="text")
    b = _info(2, f"{repo}/src/include/gp/kernels.h", output, kind="text")
    assert copies.cousins(a.url, b.url)  # one name in two folders: held apart, but for a template
    found = copies.measure([a, b])
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None
    # without its tags the same pair is two cousins, held apart
    plain = _info(3, f"{repo}/templates/kernels.h", template.replace("{%", "(%").replace("{{", "(("), kind="text")
    assert copies.measure([plain, b])[3].duplicate_of is None


def test_a_series_file_renamed_from_the_first_is_its_copy_and_other_series_pages_are_not():
    folder = "file:///usr/share/doc/libla-dev/examples/rot"

    def variant(n: int, extra: int = 0) -> str:
        lines = [f"int La_rot_blk_var{n}( La_obj G, La_obj A, int b_alg )", "{"]
        for i in range(30):
            lines.append(f"    La_rot_bl{'sdcz'[i % 4]}_var{n}( k_G, m_A, n_A, buff_G + {i}, rs_G, cs_G, step_{i} );")
        lines += [f"    la_extra_{n}_{j}( A, {j} );" for j in range(extra)]
        return "\n".join([*lines, "    return LA_SUCCESS;", "}"])

    assert copies.own_number(f"{folder}/La_rot_blk_var6.c", variant(6)) == copies.own_number(
        f"{folder}/La_rot_blk_var2.c", variant(2)
    )
    infos = [
        _info(1, f"{folder}/La_rot_blk_var2.c", variant(2), kind="text"),
        _info(2, f"{folder}/La_rot_blk_var6.c", variant(6), kind="text"),
        _info(3, f"{folder}/La_rot_blk_var9.c", variant(9), kind="text"),
        _info(4, f"{folder}/La_rot_blk_var3.c", variant(3, extra=40), kind="text"),  # a variant of its own
    ]
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[3].duplicate_of == 1 and found[2].because == {"rule": "series"}
    assert found[1].duplicate_of is None and found[4].duplicate_of is None
    assert copies.series_pair(f"{folder}/a00197.html", f"{folder}/a00198.html")
    assert not copies.series_pair(f"{folder}/notes-v1.md", f"{folder}/notes-v2.md")  # versions, not a series
    assert not copies.series_pair(f"{folder}/x_var2.c", f"{folder}/x_var2.h")


def test_one_test_per_back_end_named_after_its_folder_is_no_copy_of_another_back_ends():
    base = "file:///usr/share/doc/libsolver-dev/examples/vector"

    def test_file(backend: str) -> str:
        body = [f"    fails += Test_Vector_op_{i}(X, Y, length, {i});" for i in range(60)]
        return "\n".join([f"#include <vector/vector_{backend}.h>", f"  X = VNew_{backend}(length);", *body])

    a = _info(1, f"{base}/C_openmp/test_vector_openmp.c", test_file("openmp"), kind="text")
    b = _info(2, f"{base}/pthreads/test_vector_pthreads.c", test_file("pthreads"), kind="text")
    assert copies.folder_variants(a.url, b.url)
    assert all(c.duplicate_of is None for c in copies.measure([a, b]).values())
    assert not copies.folder_variants(f"{base}/C_openmp/test_vector.c", f"{base}/serial/test_vector.c")  # one name
    assert not copies.folder_variants(f"{base}/a/run_fast.c", f"{base}/b/run_slow.c")  # the folders name neither


def test_a_sphinx_source_finds_its_page_by_its_path_even_when_licence_text_leaves_neither_a_signature():
    html = "file:///usr/share/doc/tools-doc/html"
    assert copies.rendered_page(f"{html}/_sources/misc.rst.txt") == f"{html}/misc.html"
    assert copies.rendered_page(f"{html}/_sources/guide/intro.txt") == f"{html}/guide/intro.html"
    assert copies.rendered_page(f"{html}/misc.html") == ""
    licence = "\n\n".join(
        [
            "Licence\n=======",
            # our own words: each sentence names a licence's matter (redistribution, the licensor, warranty)
            "Redistribution of these tools, changed or not, is welcome wherever this notice and the copyright "
            "lines travel with every copy; the licensor asks nothing in return for the redistribution.",
            "No warranty of any kind comes with the tools: the licensor answers for no loss their use may cause, "
            "and whoever relies on them does so without warranty of fitness for any purpose.",
        ]
    )
    source = _info(1, f"{html}/_sources/misc.rst.txt", licence, kind="text")
    page = _info(2, f"{html}/misc.html", licence)
    assert source.text is None and page.text is None  # licence text alone: compared with nothing
    found = copies.measure([source, page])
    assert found[1].duplicate_of == 2 and found[1].signal == "source" and found[2].duplicate_of is None


def test_assembler_sources_and_two_programs_under_two_names_are_held_to_the_code_cut():
    repo = "https://raw.githubusercontent.com/org/asm/abc1234"
    lds, sts = _kernel_file("shared_load", 6), _kernel_file("shared_store", 10)
    # two micro-benchmarks in assembler of one folder: source files, held to the code cut as two .cu files are
    a = _info(1, f"{repo}/microbench/shared_lds.sass", lds, kind="text")
    b = _info(2, f"{repo}/microbench/shared_sts.sass", sts, kind="text")
    assert a.text and b.text
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    assert copies.SIBLING_JACCARD <= jaccard < copies.SIBLING_CODE_JACCARD
    assert copies.sibling_cut(a.url, b.url) == copies.SIBLING_CODE_JACCARD
    assert all(c.duplicate_of is None for c in copies.measure([a, b]).values())
    # two programs of one repository under two names in two folders: their shared harness makes no copy
    c = _info(3, f"{repo}/microbench/bench.cu", lds, kind="text")
    d = _info(4, f"{repo}/gemm/gemm.cu", sts, kind="text")
    assert copies.renamed_code(c.url, d.url) and not copies.siblings(c.url, d.url)
    assert all(x.duplicate_of is None for x in copies.measure([c, d]).values())
    assert not copies.renamed_code(f"{repo}/docs/bench.md", f"{repo}/gemm/gemm.md")  # pages, not code
    assert not copies.renamed_code(f"{repo}/a/gemm.cu", f"{repo}/b/gemm.cu")  # one name: cousins


BINARY_ANALYSIS = (
    "Symbolic execution of the x86 instructions: each register holds a symbolic expression, the taint analysis "
    "marks the bytes the input reaches, and the SMT solver answers the path constraint. Concolic runs follow one "
    "path at a time; the deobfuscation pass proves an opaque predicate constant and removes the dead branch. The "
    "semantics of every instruction, the AVX and SSE ones too, are lifted to LLVM IR, and the LLVM IR recompiled."
)
RDMA_PAGE = (
    "Post a send work request on the queue pair and poll the completion queue for its completion. RDMA writes "
    "place data in the remote buffer without the remote CPU; over InfiniBand or RoCE the adapter moves the "
    "bytes, and GPUDirect RDMA reads and writes device memory directly."
)


def _without(terms: set[str]):
    profile = dataclasses.replace(PROFILE, terms={t: w for t, w in PROFILE.terms.items() if t not in terms})
    reader = Reader(topic.TopicMatcher(profile), load_taxonomy())

    def evidence(text: str):
        return reader.read((1, "https://example.org/x.md", "", "markdown", text, [], [], {}))[0].evidence

    return evidence


def test_program_analysis_of_binaries_is_another_field_and_rdma_is_the_fields_interconnect():
    # phase 20 (rel21): a binary-analysis page says "instruction", "register", "IR" and "LLVM" as a back end does;
    # its own field's words (symbolic execution, taint analysis, SMT solver, concolic, deobfuscation, opaque
    # predicates) count against it, as rendering's do
    analysis_words = {
        "symbolic execution",
        "taint analysis",
        "smt solver",
        "concolic",
        "deobfuscation",
        "opaque predicate",
    }
    assert all(PROFILE.terms[t] < 0 for t in analysis_words)
    with_them, without_them = _evidence(BINARY_ANALYSIS), _without(analysis_words)(BINARY_ANALYSIS)
    assert without_them.score > 0.1 and with_them.score < 0.5 * without_them.score
    back_end = "Instruction scheduling and register allocation in the back end, then lowering to PTX."
    assert _evidence(back_end).score == pytest.approx(_without(analysis_words)(back_end).score)  # none of them here
    # the interconnect of distributed training in its own words: a verbs page reads as parallel computing
    rdma_words = {
        "rdma",
        "remote direct memory access",
        "infiniband",
        "roce",
        "queue pair",
        "completion queue",
        "gpudirect",
    }
    assert all(PROFILE.domains[t] == "parallel_computing" and PROFILE.terms[t] > 0 for t in rdma_words)
    rdma = _evidence(RDMA_PAGE)
    assert rdma.score > 0.3 and rdma.domain == "parallel_computing"
    assert _without(rdma_words)(RDMA_PAGE).score < 0.25 * rdma.score


def _definition(form: str, skip: int = 0) -> str:
    """One made-up definition (our own names: gadget modes, flags and operations) written out as a generator
    writes it for one language; ``skip`` leaves out every skip-th value (another revision of the definition)."""
    groups = {"GadgetMode": ["Idle", "Warm", "Burst", "Drain"], "GadgetFlag": ["Pinned", "Shared", "Cached"]}
    groups |= {f"GadgetOp{g}": [f"Step{k}" for k in range(20)] for g in range(7)}
    out = ["// generated from the gadget grammar; edit the grammar, not this file"]
    value = 0
    for group, members in groups.items():
        out.append({"h": "typedef enum {", "hpp": f"enum class {group} : unsigned {{"}.get(form, f'"{group}": {{'))
        for member in members:
            value += 7
            if skip and value % skip == 0:
                continue
            shown = hex(value) if form == "h" and group == "GadgetFlag" else str(value)
            line = {
                "h": f"    Gadget{group[6:]}{member} = {shown},",
                "hpp": f"    {member} = {shown},",
                "py": f"        '{member}' : {shown},",
                "json": f'        "{member}": {shown},',
            }[form]
            out.append(line)
        out.append({"h": f"}} Gadget{group[6:]};", "hpp": "};"}.get(form, "    },"))
    return "\n".join(out) + "\n"


def test_one_definition_generated_for_several_languages_is_one_document_and_the_c_header_is_kept():
    """A C header beside its C++, Python and JSON forms (one folder, other extensions): no shingle in common,
    the same values in the same order with the same name words; the header is kept. A header beside its C source
    (names, no values in order), two revisions of the definition in one language, and forms in two folders are
    not such forms."""
    base = "file:///usr/include/gadget/unified"
    forms = [_info(k, f"{base}/gadget.{ext}", _definition(ext), kind="text") for k, ext in enumerate(FORMS, 1)]
    assert all(len(f.values) >= copies.FORM_VALUES for f in forms)
    found = copies.measure(forms)
    assert found[1].duplicate_of is None  # the C header
    assert all(found[k].duplicate_of == 1 and found[k].signal == "generated" for k in (2, 3))
    assert found[4].duplicate_of in (1, 3)  # the JSON form writes the Python one's words: a copy of either
    assert copies.measure(list(reversed(forms)))[1].duplicate_of is None  # whatever the order
    # the header's implementation: the same names, calls and a few numbers, not the values listed in order
    source = "\n".join(f"int gadget_step{k}(int mode) {{ return mode * {k % 3} + {k // 5}; }}" for k in range(150))
    impl = _info(5, f"{base}/gadget.c", _definition("h").replace("= ", "= 1 + ") + source, kind="text")
    assert copies.measure([forms[0], impl])[5].duplicate_of is None
    # one language twice (a header of the next revision beside it) is for the revision rules, not this one
    twin = _info(6, f"{base}/gadget_next.h", _definition("h", skip=3), kind="text")
    assert 6 not in copies.language_forms([forms[0], twin])
    # another folder: not the generator's one output
    other = _info(7, "file:///usr/include/gadget/legacy/gadget.py", _definition("py"), kind="text")
    assert 7 not in copies.language_forms([forms[0], other])
    # a short definition (under FORM_VALUES values) is not read at all
    short = _info(8, f"{base}/small.py", "MODES = {'Idle': 0, 'Warm': 1}\n", kind="text")
    assert short.values is None


def test_forms_need_a_name_in_common_and_never_compare_more_than_the_cap():
    """Two tables of numbers alone (no name words) in one folder under two extensions name nothing: no forms of
    one definition. The values bound the order test from above (``_common_count``), and a list longer than
    ``FORM_VALUE_CAP`` is read up to the cap, so one folder of long tables costs no more than the cap's pairs."""
    base = "file:///usr/include/gadget/tables"
    zeros = "\n".join("0, 0, 0, 0, 0," for _ in range(40))
    a, b = (_info(k, f"{base}/zeros.{ext}", zeros, kind="text") for k, ext in ((1, "h"), (2, "py")))
    assert len(a.values) >= copies.FORM_VALUES and len(a.names) == 0
    assert copies.language_forms([a, b]) == {}
    assert copies._common_count(np.array([1, 1, 2, 3]), np.array([1, 2, 2, 4])) == 2  # 1 once, 2 once
    order = np.arange(500)
    assert copies._common_count(order, order[::-1]) >= copies._in_order(order, order[::-1]) * 500
    long = "\n".join(f"GADGET_MODE_{k} = {k}," for k in range(copies.FORM_VALUE_CAP + 500))
    assert len(_info(3, f"{base}/long.h", long, kind="text").values) == copies.FORM_VALUE_CAP


FORMS = ("h", "hpp", "py", "json")


def test_a_sphinx_source_is_its_own_pages_copy_however_little_their_shingles_meet():
    """Sphinx renders each page from its source: an autosummary source (a title and the names of forty
    functions) is its page's copy though the page shows each function's documentation; a byte-identical source
    in another package's tree repeats its own package's page first."""
    html = "file:///usr/share/doc/widgets-doc/html"
    names = "\n".join(f"   widgets.fold_{k}" for k in range(40))
    source_text = f"Reference\n=========\n\n.. autosummary::\n   :toctree: generated\n\n{names}\n"
    page_text = "\n\n".join(
        f"widgets.fold_{k}(values, axis) folds the values along the axis {_words(f'fold{k}', 60)}" for k in range(40)
    )
    source = _info(1, f"{html}/_sources/reference.rst.txt", source_text, kind="text")
    page = _info(2, f"{html}/reference.html", page_text)
    found = copies.measure([source, page])
    assert found[1].duplicate_of == 2 and found[1].score >= copies.HIGH_REDUNDANCY and found[2].duplicate_of is None
    # one history page shipped by two packages: each source names its own package's page
    history = _words("history", 300)
    other_html = "file:///usr/share/doc/gears-doc/html"
    pages = [
        _info(3, f"{html}/user/history.html", history),
        _info(4, f"{html}/_sources/user/history.rst.txt", history, kind="text"),
        _info(5, f"{other_html}/user/history.html", history + "\n\n" + _words("gears", 40)),
        _info(6, f"{other_html}/_sources/user/history.rst.txt", history, kind="text"),
    ]
    found = copies.measure(pages)
    assert found[4].duplicate_of == 3 and found[6].duplicate_of == 5


def test_one_releases_notes_are_no_copy_of_the_history_that_gathers_them():
    """A release's page (``releases/v1.2.0.html``) inside the place's release history (``release.html``, which
    includes every release's notes): the record of one moment, a document of its own, whatever the dates say. A
    page of another name inside a newer page is still found (``contained``)."""
    html = "file:///usr/share/doc/widgets-doc/html"
    notes = {k: _words(f"release{k}", 120) for k in range(6)}
    history = _info(1, f"{html}/release.html", "\n\n".join(notes.values()), newest=2022.5)
    one = _info(2, f"{html}/releases/v1.2.0.html", notes[2], newest=2016.8)
    found = copies.measure([history, one])
    assert found[2].duplicate_of is None and found[1].duplicate_of is None
    assert copies.release_part(f"{html}/releases/v1.2.0.html", f"{html}/release.html")
    assert copies.release_part(f"{html}/releases/2.3.html", f"{html}/changelog.html")
    assert not copies.release_part(f"{html}/guide/install.html", f"{html}/release.html")  # no release's name
    assert not copies.release_part(f"{html}/releases/v1.2.0.html", f"{html}/guide.html")  # no history
    assert not copies.release_part(f"{html}/releases/v1.2.0.html", "file:///usr/share/doc/gears/html/release.html")


def test_two_short_pointers_of_one_template_that_link_to_different_places_are_two_pages():
    """Short pages written from one template ("this page has moved to …") that point to different places are two
    pointers; the same pointer twice (one link target shared) is one page read twice."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1"

    def moved(title: str, target: str) -> str:
        return (
            f"# {title}\n\nThis guide now lives on the project's documentation site, where it is kept current "
            f"with each release. Read it there under the [{title}](https://docs.example.org/{target}) page, "
            f"and send corrections to the [documentation repository](https://example.org/docs/{target}.md).\n"
        )

    a = _info(1, f"{repo}/docs/TILING.md", moved("Tiling", "tiling"), kind="markdown")
    b = _info(2, f"{repo}/docs/SCHEDULES.md", moved("Tiling", "schedules"), kind="markdown")
    assert a.pointers and len(a.pointers) == 2 and a.text is not None
    assert copies.STUB_SHINGLES <= a.text.size < copies.POINTER_SHINGLES  # no stub: the pointers rule decides
    found = copies.measure([a, b])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    same = _info(3, f"{repo}/guide/TILING.md", moved("Tiling", "tiling"), kind="markdown")
    assert copies.measure([a, same])[3].duplicate_of == 1 or copies.measure([a, same])[1].duplicate_of == 3
    assert copies.two_pointers(a, b) and not copies.two_pointers(a, same)


def test_two_pages_of_one_folder_met_by_their_code_examples_are_held_to_the_sibling_cut_by_their_text():
    """A function's page and the reference page that shows every function's examples (one folder, two names):
    the smaller one's code lies whole in the larger's, their texts are two pages' (under the sibling cut), so
    they are siblings, not copies. Two source files met by their code are not pages, and keep the code reading."""
    html = "file:///usr/share/doc/widgets-doc/html"
    examples = {k: f"result = widgets.fold_{k}(values, axis={k % 3}) + offset_{k} * scale_{k}" for k in range(40)}
    one = "\n".join(examples[k] for k in range(12))
    every = "\n".join(examples.values())
    page = _info(1, f"{html}/widgets.fold.html", _words("fold", 160), code=[one])
    reference = _info(2, f"{html}/reference.html", _words("reference", 400) + _words("fold", 40), code=[every])
    assert page.code is not None and reference.code is not None
    assert page.text.minhash.jaccard(reference.text.minhash) < copies.sibling_cut(page.url, reference.url)
    found = copies.measure([page, reference])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None


def test_a_pull_request_template_is_no_copy_of_the_contributing_guide_that_quotes_its_checklist():
    """The form a contributor fills in (a pull request's or an issue's template) against the contributing guide
    that quotes its checklist: a form and a guide. Two copies of one form are still one form."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1"
    checklist = _words("checklist", 120)
    form = _info(1, f"{repo}/.github/pull_request_template.md", checklist, kind="markdown")
    guide = _info(2, f"{repo}/CONTRIBUTING.md", checklist + "\n\n" + _words("guide", 60), kind="markdown")
    found = copies.measure([form, guide])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    again = _info(3, f"{repo}/docs/.github/PULL_REQUEST_TEMPLATE.md", checklist, kind="markdown")
    found = copies.measure([form, again])
    assert found[1].duplicate_of == 3 or found[3].duplicate_of == 1
    assert copies.one_form(f"{repo}/.github/ISSUE_TEMPLATE/bug_report.md", f"{repo}/README.md")


def test_a_number_longer_than_python_reads_at_once_is_a_value_like_any_other():
    """A data file may write a number of thousands of digits (a digest, a constant written out): ``int`` refuses
    a decimal string of more than 4,300, and the file is still read, the number as its value modulo 2^62."""
    long = "7" * 5000
    text = "\n".join(f"gadget_level_{k} = {k * 3}" for k in range(120)) + f"\nGADGET_SEED = {long}\n"
    info = _info(1, "file:///usr/include/gadget/levels.py", text, kind="text")
    assert info.values is not None and len(info.values) == 121
    assert info.values[-1] == int(long[:4000]) * 10**1000 + int(long[4000:]) & 0x3FFF_FFFF_FFFF_FFFF
    assert list(copies._values("0x1F 16 v1.2 123456789012345678901")) == [31, 16, 123456789012345678901 % 2**62]


def _unit(variant: str, bits: int, flag: str, debug: bool = False) -> str:
    """A made-up compilation unit that instantiates one dispatch template for one case (a bit width, a flag)."""
    lines = ['#include "dispatch.cuh"', "", f"tile_kernel pick_tile_kernel_{variant}(int rows, bool scaled)", "{"]
    if debug:
        lines.append('    // printf("rows = %d\\n", rows);')
    lines += [
        f"    if (rows == {m}) return tile_map_{variant[-1]}<{m}, {bits}, {flag}>::pick(rows);" for m in range(1, 9)
    ]
    return "\n".join([*lines, "    return NULL;", "}", ""])


def test_compilation_units_of_one_template_are_one_text_but_for_their_constants():
    """Units that instantiate one template per case (a bit width, a flag, the variant's name) write the same lines
    but for their constants: the shingles of those lines never meet, the lines with their constants masked do.
    The fullest unit (a line the others dropped) is kept, then the first by name; a unit with other lines, or a
    file of another extension, is no instance."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1/src/units"
    units = [
        _info(1, f"{repo}/inst_q4_1a.cu", _unit("1a", 4, "false"), kind="text"),
        _info(2, f"{repo}/inst_q4_1b.cu", _unit("1b", 4, "true", debug=True), kind="text"),
        _info(3, f"{repo}/inst_q8_2a.cu", _unit("2a", 8, "false"), kind="text"),
        _info(
            4, f"{repo}/inst_q4_1c.cu", _unit("1c", 4, "false").replace("pick(rows)", "pick(rows, scaled)"), kind="text"
        ),
        _info(5, f"{repo}/inst_q4_1d.cpp", _unit("1d", 4, "false"), kind="text"),
    ]
    assert units[0].text.minhash.jaccard(units[2].text.minhash) < copies.sibling_cut(units[0].url, units[2].url)
    found = copies.measure(units)
    assert found[2].duplicate_of is None  # the fullest: its debugging line
    assert found[1].duplicate_of == 2 and found[3].duplicate_of == 2 and found[1].score >= copies.INSTANCE_SHARE
    assert found[4].duplicate_of is None and found[5].duplicate_of is None
    assert copies.instances(units[:1] + units[2:3]) == {3: (1, 1.0)}  # no fuller one: the first by name


def test_a_file_its_name_marks_as_a_template_is_the_copy_of_the_file_written_from_it():
    """``tables.template.md`` beside ``tables.md``: a generator fills the template's placeholder and writes the
    output under the plain name. The output is the document, even where its text (a table of identifiers) reads
    as another language than the template's prose."""
    repo = "https://raw.githubusercontent.com/org/isa/3f2c9b1/intrinsics"
    prose = _words("intro", 200)
    rows = "\n".join(f"| vop{k}_lane{k % 4} | vreg{k} src{k} | vop.{k % 8}x{k % 16} |" for k in range(400))
    counts = copies.LineCounts()
    counts.add(np.zeros(0, dtype=np.uint64), f"{repo}/tables.md", foreign=True)  # read so in pass 1
    template = _info(1, f"{repo}/tables.template.md", prose + "\n\n{table}\n", kind="markdown", counts=counts)
    output = _info(2, f"{repo}/tables.md", prose + "\n\n" + rows + "\n", kind="markdown", counts=counts)
    found = copies.measure([template, output])
    assert found[2].duplicate_of is None and found[1].duplicate_of == 2
    assert preference.named_template(f"{repo}/config.h.in", f"{repo}/config.h")
    assert preference.named_template(f"{repo}/index.tmpl.html", f"{repo}/index.html")
    assert not preference.named_template(f"{repo}/tables.md", f"{repo}/tables.template.md")
    assert not preference.named_template(f"{repo}/other/tables.template.md", f"{repo}/tables.md")  # another folder
    assert not preference.named_template(f"{repo}/tables.inline.md", f"{repo}/tables.md")  # no template word


def test_the_current_trees_file_is_kept_over_its_archived_form_whichever_is_rest():
    """A FAQ kept in ``docs/archive/v1/`` as Markdown beside the current tree's reST page: the current one is kept,
    though its markup reads as a source copy's (which a rendered page would be kept over)."""
    repo = "https://raw.githubusercontent.com/org/profiler/3f2c9b1/docs"
    body = _words("faq", 300)
    rest = "FAQ\n===\n\n.. note::\n\n   Read :ref:`install` first.\n\n" + body
    rest += "\n\n.. code-block:: bash\n\n   run\n\n:doc:`usage`\n\n.. tip::\n\n   :class:`Session`\n"
    current = _info(1, f"{repo}/manual/questions.rst", rest, kind="text")
    archived = _info(2, f"{repo}/archive/v1/questions.md", "# FAQ\n\n" + body, kind="markdown")
    assert current.source_copy and not archived.source_copy
    found = copies.measure([current, archived])
    assert found[1].duplicate_of is None and found[2].duplicate_of == 1
    assert preference.past_order(archived.url, current.url)[0] == -1


def test_a_reference_page_is_no_copy_of_its_modules_highlighted_source_page():
    """Sphinx's viewcode page of a module (``_modules/…html``) holds the docstrings its reference page renders:
    the reference lies inside it, yet one is the code and one the reference. One module's source page in two
    packages is still one page."""
    html = "file:///usr/share/doc/widgets-doc/html"
    docstrings = _words("doc", 300)
    code = docstrings + "\n\n" + _words("code", 400)
    reference = _info(1, f"{html}/channels.html", docstrings)
    source = _info(2, f"{html}/_modules/widgets/channels.html", code)
    found = copies.measure([reference, source])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    again = _info(3, "file:///usr/share/doc/widgets-doc-2/html/_modules/widgets/channels.html", code)
    found = copies.measure([source, again])
    assert found[2].duplicate_of == 3 or found[3].duplicate_of == 2
    assert copies.module_source(f"{html}/channels.html", f"{html}/_modules/widgets/channels.html")
    assert not copies.module_source(f"{html}/_modules/a.html", f"{html}/_modules/b.html")


def test_a_header_is_no_copy_of_the_man_page_that_documents_its_calls():
    """A header whose comments say what its man page says: the code a compiler reads and the manual, two documents
    either way round. Two man pages of one text are still one page."""
    comments = _words("alloc", 300)
    header = _info(
        1, "file:///usr/share/doc/libwidgets-dev/include/widgets.h", comments + "\n\nint widget_alloc(void);"
    )
    page = _info(2, "file:///usr/share/man/man3/widgets.3.gz", comments + "\n\n" + _words("seealso", 40), kind="text")
    found = copies.measure([header, page])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    again = _info(3, "file:///usr/share/man/man3/widgets_alloc.3.gz", comments + "\n\n" + _words("seealso", 40))
    found = copies.measure([page, again])
    assert found[2].duplicate_of == 3 or found[3].duplicate_of == 2
    assert copies.code_and_manual("https://example.org/src/kernel.cu", "https://example.org/man/man1/kernel.1")
    assert not copies.code_and_manual("https://example.org/src/kernel.cu", "https://example.org/docs/kernel.html")


def test_an_exercise_is_no_copy_of_its_solution():
    """A puzzle's exercise file is its solution with the answer left out: nearly all of it lies in the solution,
    yet a reader works one and checks the other. The same exercise in two places is still one file."""
    repo = "https://raw.githubusercontent.com/org/warp-drills/3f2c9b1"
    frame = _words("frame", 300)
    exercise = _info(1, f"{repo}/problems/d7/d7.mojo", frame + "\n\n# FILL ME IN (roughly 8 lines)", kind="text")
    solution = _info(2, f"{repo}/solutions/d7/d7.mojo", frame + "\n\n" + _words("answer", 40), kind="text")
    found = copies.measure([exercise, solution])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    assert copies.exercise_and_solution(f"{repo}/exercises/ch2/sum.cu", f"{repo}/answers/ch2/sum.cu")
    assert not copies.exercise_and_solution(f"{repo}/problems/d7/d7.mojo", f"{repo}/problems/d8/d8.mojo")
    assert not copies.exercise_and_solution(f"{repo}/solutions/d7/d7.mojo", f"{repo}/solutions/d7/d7_alt.mojo")


def test_two_markdown_pages_of_one_folder_met_by_their_code_examples_are_held_to_the_sibling_cut_by_their_text():
    """As two HTML pages: a function's Markdown page and the reference page that shows every function's examples
    (one folder, two names) are siblings by their texts, whatever their code shares."""
    repo = "https://raw.githubusercontent.com/org/widgets/3f2c9b1/docs"
    examples = {k: f"result = widgets.fold_{k}(values, axis={k % 3}) + offset_{k} * scale_{k}" for k in range(40)}
    one = "\n".join(examples[k] for k in range(12))
    every = "\n".join(examples.values())
    page = _info(1, f"{repo}/fold.md", _words("fold", 160), kind="markdown", code=[one])
    reference = _info(
        2, f"{repo}/reference.md", _words("reference", 400) + _words("fold", 40), kind="markdown", code=[every]
    )
    assert page.code is not None and reference.code is not None
    found = copies.measure([page, reference])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None


def test_an_example_program_is_no_copy_of_a_guide_page_that_quotes_it_but_is_of_the_page_named_after_it():
    """An example program quoted whole by a guide page among its prose: the program and the page, two documents. A
    page a documentation generator names after the file (``crawler_8py-example.html``) is its rendering."""
    html = "file:///usr/share/doc/widgets-doc/html"
    program = _words("crawler", 200)
    guide = _info(
        1, f"{html}/guide/channels.html", _words("queues", 60) + "\n\n" + program + "\n\n" + _words("more", 20)
    )
    source = _info(2, "file:///usr/share/doc/widgets-doc/examples/crawler/crawler.py", program, kind="text")
    found = copies.measure([guide, source])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    rendered = _info(3, f"{html}/crawler_8py-example.html", _words("title", 20) + "\n\n" + program)
    found = copies.measure([rendered, source])
    assert found[2].duplicate_of == 3
    assert copies.quoted_program(f"{html}/guide/channels.html", "file:///x/examples/crawler.py")
    assert not copies.quoted_program(f"{html}/demo_3.html", "file:///x/examples/demo-3/demo-3.cu")


def test_units_of_one_template_are_each_matched_once_not_with_every_other_unit(monkeypatch):
    """A generated folder holds hundreds of units of one template: each meets the units ranked above it, the best
    first, and stops at the first it agrees with, so the line matcher runs about once a unit (every pair of the
    folder, as before, cost minutes on a few hundred), and the unit kept and the shares are as every pair gives."""
    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1/src/generated"
    words = [f"case{chr(97 + k % 26)}{chr(97 + k // 26)}" for k in range(60)]
    units = [
        _info(k, f"{repo}/inst_{k:02d}.cu", _unit("1a", 4, "false") + f"// {words[k]}\n", kind="text")
        for k in range(60)
    ]
    assert len({u.shape.tobytes() for u in units if u.shape is not None}) == len(units)  # no two of one shape
    calls = []

    class Counted(copies.SequenceMatcher):
        def __init__(self, *args, **kwargs):
            calls.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(copies, "SequenceMatcher", Counted)
    found = copies.instances(units)
    assert found == {k: (0, pytest.approx(found[k][1])) for k in range(1, 60)}  # the first by name is kept
    assert all(share >= copies.INSTANCE_SHARE for _, share in found.values())
    assert len(calls) < 2 * len(units)


def test_the_reason_shown_for_a_unit_of_one_template_speaks_of_the_template_not_of_a_numbered_series():
    from shijie.explain import reasons

    repo = "https://raw.githubusercontent.com/org/kernels/3f2c9b1/src/units"
    units = [
        _info(1, f"{repo}/inst_q4_1a.cu", _unit("1a", 4, "false"), kind="text"),
        _info(2, f"{repo}/inst_q8_2a.cu", _unit("2a", 8, "true", debug=True), kind="text"),
    ]
    copy = copies.measure(units)[1]
    assert copy.duplicate_of == 2 and copy.signal == "instance"
    uniqueness = {"redundancy": copy.score, "jaccard": copy.jaccard, "signal": copy.signal, "because": copy.because}
    shown = {"duplicate_of_id": 2, "redundancy": "high", "redundancy_score": copy.score}
    for lang, template, series in (("en", "template", "numbered series"), ("zh", "模板", "编号系列")):
        said = " ".join(line.text for line in reasons({**shown, "components": {"uniqueness": uniqueness}}, lang))
        assert template in said and series not in said


def test_a_program_whose_stem_lies_in_html_is_no_rendering_of_every_page():
    """The page's name is read without its ``.html``: ``ml.py`` quoted by ``intro.html`` is a program and a guide
    page, not the file and its rendering (``ml`` lies in ``introhtml``, not in ``intro``)."""
    html = "file:///usr/share/doc/widgets-doc/html"
    assert copies.quoted_program(f"{html}/guide/intro.html", "file:///x/examples/ml.py")
    assert copies.quoted_program("file:///x/examples/tm.cu", f"{html}/guide/intro.htm")
    assert not copies.quoted_program(f"{html}/ml_8py-example.html", "file:///x/examples/ml.py")


def _factory(namespace: str, argument: str = "") -> str:
    """A made-up factory header written once per back end: the same lines but for the back end's namespace."""
    return "\n".join(
        [
            "/* Factory of one transport back end. */",
            "#pragma once",
            "#include <memory>",
            "#include <vector>" if argument else "#include <cstddef>",
            "#include <relay/transport/context.h>",
            "namespace relay {",
            "namespace transport {",
            f"namespace {namespace} {{",
            f"std::shared_ptr<Context> create({argument});",
            f"}} // namespace {namespace}",
            "} // namespace transport",
            "} // namespace relay",
            "",
        ]
    )


def _factories(path: Callable[[str], str], third: str) -> list[copies.CopyInfo]:
    """Four back ends' factory headers at ``path(case)``, ids 1-4: shm, ibv, ``third`` of one template, and mpt,
    whose factory takes an argument (a line of its own)."""
    cases = ("shm", "ibv", third, "mpt")
    argument = {"mpt": "std::vector<Lane> lanes"}
    return [_info(k, path(c), _factory(c, argument.get(c, "")), kind="text") for k, c in enumerate(cases, 1)]


def _one_template(headers: list[copies.CopyInfo], kept: int, copied: tuple[int, ...]) -> None:
    """``_factories``' headers as one template's instances: ``copied`` are copies of ``kept``, found as instances;
    ``kept`` and the back end with a line of its own (4) stay documents."""
    assert copies.instances(headers) == {k: (kept, 1.0) for k in copied}
    measured = copies.measure(headers)
    assert measured[kept].duplicate_of is None and measured[4].duplicate_of is None
    assert all(measured[k].duplicate_of == kept and measured[k].signal == "instance" for k in copied)


def _plugin_readme(plugin: str, what: str, extra: str = "") -> str:
    """A made-up plugin README of one template: the plugin's name and what it shows are its only own words."""
    lines = [
        "# relay-kit",
        f"The {plugin} plugin shows {what} object on the screen and waits for a key.{extra}",
        "## Examples",
        "Example experiments are in the examples folder; open one in a browser to run it.",
        "## Documentation",
        f"The manual of this plugin is at https://relay.example.org/latest/plugins/{plugin}.",
        "## Getting help",
        "Ask on the discussion forum; search its history for earlier answers first.",
        "## Contributing",
        "Read the contributing page before you open a pull request.",
        "## Citation",
        "Cite the project's paper if you use the kit in academic work.",
    ]
    return "\n\n".join(lines)


def test_files_of_one_template_that_differ_by_their_own_names_are_one_text():
    """A header written once per back end under the back end's name (``transport/shm_factory.h``), its namespace
    the name's; a plugin page per plugin, its name and the word for what it shows the page's name's. Their
    shingles barely meet (the header's few lines differ in the namespace; the pages share a template); with the
    names their file names give them masked (``own_names``), every line is the same: one template's instances,
    the first by name kept. A back end whose factory takes an argument, or a page with a sentence of its own,
    stays a document of its own; so do two variants' code that differ inside their identifiers."""
    repo = "https://raw.githubusercontent.com/org/relay/3f2c9b1"
    headers = _factories(lambda case: f"{repo}/include/transport/{case}_factory.h", "shm_ring")
    _one_template(headers, kept=2, copied=(1, 3))  # ibv is the first by name
    # without the names masked the namespace lines differ: no instances
    assert not np.array_equal(copies.shape(_factory("shm")), copies.shape(_factory("ibv")))
    pages = [
        _info(5, f"{repo}/docs/plugins/choose-image.md", _plugin_readme("choose-image", "an image"), kind="markdown"),
        _info(6, f"{repo}/docs/plugins/choose-html.md", _plugin_readme("choose-html", "an HTML"), kind="markdown"),
        _info(
            7,
            f"{repo}/docs/plugins/choose-audio.md",
            _plugin_readme("choose-audio", "an audio", " It plays the clip twice before the key counts."),
            kind="markdown",
        ),
    ]
    assert copies.instances(pages) == {5: (6, 1.0)}
    # a written page must agree in every line: the same pages less one line of the template are no instances
    shorter = _info(
        8, f"{repo}/docs/plugins/choose-text.md", _plugin_readme("choose-text", "a text")[:-60], kind="markdown"
    )
    assert copies.instances([pages[1], shorter]) == {}
    # two kernels of one folder whose bodies differ inside their identifiers (acc_top_0, acc_bottom_0) stay apart
    assert copies.own_names(f"{repo}/src/irq_top.c").sub("#", "acc_top_0 = top(x);") == "acc_top_0 = #(x);"


def test_one_file_name_written_per_case_into_the_case_folder_is_one_template():
    """A factory header written once per back end into the back end's folder (``channel/shm/factory.h`` beside
    ``channel/ibv/factory.h``), its namespace the folder's name: masked by the names its path gives it
    (``own_names``: the folder's too), every line is the same, so the copies are one template's instances and the
    first by name is kept. The same file name in sibling folders that differs in a line beyond its names (a back
    end whose factory takes an argument, one program written a second way) stays a document of its own, and so do
    two files of one name at two revisions or in two places (those are the version and mirror rules' pairs)."""
    repo = "https://raw.githubusercontent.com/org/relay/3f2c9b1/include/channel"
    headers = _factories(lambda case: f"{repo}/{case}/factory.h", "cuda_ipc")
    _one_template(headers, kept=3, copied=(1, 2))  # cuda_ipc is the first by path
    assert copies.own_names(f"{repo}/cuda_ipc/factory.h").sub("#", "namespace cuda_ipc {") == "namespace # {"
    # one name in two places, or at two revisions: no cousins, no instances
    other = "https://raw.githubusercontent.com/org/relay/9d0e1a2/include/channel"
    assert copies.instances([headers[0], _info(5, f"{other}/ibv/factory.h", _factory("ibv"), kind="text")]) == {}
    elsewhere = "https://raw.githubusercontent.com/other/relay/3f2c9b1/include/channel"
    assert copies.instances([headers[0], _info(6, f"{elsewhere}/ibv/factory.h", _factory("ibv"), kind="text")]) == {}


def test_written_pages_and_cousins_meet_only_files_of_their_shape(monkeypatch):
    """Written pages and cousins are instances only where every line agrees, so a folder's many written pages and
    a place's many files of one name (a README.md per folder) meet only those of their very shape: no pair of two
    shapes is read (a folder's pages or a name's files squared, on a corpus of thousands of them), and the
    agreeing pair is still found."""
    repo = "https://raw.githubusercontent.com/org/relay/3f2c9b1/include/channel"
    words = "amber basil cedar delta ember fjord grove heron ivory jasper kelp lotus maple nectar onyx pearl".split()
    text = "\n".join(f"This lane reads {{}} from the {other} queue {k}." for other in words for k in range(2))
    readmes = [
        _info(n, f"{repo}/{word}/README.md", text.replace("{}", word), kind="text") for n, word in enumerate(words, 1)
    ]
    pages = [
        _info(n, f"{repo}/guide/{word}-lanes.md", text.replace("{}", words[n - 20]), kind="text")
        for n, word in enumerate(words, 20)
    ]
    twins = [
        _info(n, f"{repo}/{name}/factory.h", _factory(name), kind="text") for n, name in ((41, "shm"), (42, "ibv"))
    ]
    assert all(info.shape is not None for info in readmes + pages)
    calls = []
    for rule in ("cousins", "precision_twins"):
        plain = getattr(copies, rule)
        monkeypatch.setattr(copies, rule, lambda a, b, plain=plain: calls.append((a, b)) or plain(a, b))
    assert copies.instances(readmes + pages + twins) == {41: (42, 1.0)}
    assert len(calls) == 2  # the twins' pair, once for each reading


def test_the_general_page_is_kept_over_its_variant_for_one_machine():
    """``README_apu.md`` beside ``README.md``: the same walkthrough written again for one machine, its commands
    and figures changed, newer and a little longer. The general page is the one kept; a name that adds a version, a
    past or newer state, a fuller form or a language is no case (the version and language rules read those)."""
    folder = "https://raw.githubusercontent.com/org/course/3f2c9b1/mpi/ghost/ver4"
    body = _words("ghost", 400)
    general = _info(
        1, f"{folder}/README.md", body + "\n\nRun it with bind.sh on 4 ranks.", kind="markdown", newest=2023.0
    )
    variant = _info(
        2,
        f"{folder}/README_apu.md",
        body + "\n\nRun it with bind_apu.sh on 4 ranks. " + _words("apu", 40),
        kind="markdown",
        newest=2025.5,
    )
    found = copies.measure([general, variant])
    assert found[1].duplicate_of is None
    assert found[2].duplicate_of == 1 and found[2].because == {
        "rule": "general",
        "names": ["README.md", "README_apu.md"],  # the names as the reader sees them
    }
    assert preference.case_variant(f"{folder}/hello.c", f"{folder}/hello_msvc.c")
    assert preference.case_variant(f"{folder}/Makefile", f"{folder}/Makefile_cuda")  # no extension: the whole name
    assert not preference.case_variant(f"{folder}/Makefile", f"{folder}/Makefile_cuda.mk")
    assert not preference.case_variant(f"{folder}/.bashrc", f"{folder}/.bashrc_gpu")  # only an extension: no stem
    for name in ("README_v2.md", "README_old.md", "README_new.md", "README_full.md", "README_zh.md", "README_2.md"):
        assert not preference.case_variant(f"{folder}/README.md", f"{folder}/{name}")
    for name in ("README-tests.md", "README_api.md", "README-examples.md"):  # a part of the project: a page of its own
        assert not preference.case_variant(f"{folder}/README.md", f"{folder}/{name}")
    assert not preference.case_variant(f"{folder}/README.md", f"{folder}/other/README_apu.md")  # two folders
    assert not preference.case_variant(f"{folder}/README.md", f"{folder}/README_apu.rst")  # two extensions
    assert not preference.case_variant(f"{folder}/tiling.md", f"{folder}/tiling_with_pipelining.md")  # two words


def test_show_names_the_general_page_kept_and_the_variant_shown():
    """``shijie show`` on the variant: the page kept is the general one, named as written, and the one shown is its
    variant for one case, in English and in Chinese."""
    from shijie.explain import reasons

    because = {"rule": "general", "names": ["README.md", "README_apu.md"]}
    uniqueness = {"redundancy": 0.9, "jaccard": 0.89, "signal": "text", "because": because}
    shown = {
        "duplicate_of_id": 1,
        "redundancy": "high",
        "redundancy_score": 0.9,
        "components": {"uniqueness": uniqueness},
    }
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "it is the general page (README.md), this one its variant for one case (README_apu.md)" in english
    assert "它是通用页面（README.md），本篇是其针对某一情形的变体（README_apu.md）" in chinese


def test_a_latex_manual_is_kept_over_the_markdown_a_converter_made_of_it():
    """``manual.tex`` beside ``manual.md``: a converter wrote the Markdown from the LaTeX (its labels left as
    ``{#sec:...}`` attributes), longer by its markup. The LaTeX, the text its author edits, is kept; the HTML
    rendered from a LaTeX source is its rendering, which this rule does not read."""
    folder = "https://raw.githubusercontent.com/org/profiler/3f2c9b1/manual"
    body = _words("manual", 600)
    tex = _info(1, f"{folder}/manual.tex", "\\section{Overview}\\label{overview}\n\n" + body, kind="text")
    md = _info(
        2, f"{folder}/manual.md", "# Overview {#overview}\n\n" + body + "\n\n" + _words("attr", 60), kind="markdown"
    )
    found = copies.measure([tex, md])
    assert found[1].duplicate_of is None
    assert found[2].duplicate_of == 1 and found[2].because == {"rule": "generated", "from": "conversion"}
    assert preference.latex_conversion(f"{folder}/manual.tex", f"{folder}/manual.rst")
    assert not preference.latex_conversion(f"{folder}/manual.tex", f"{folder}/manual.html")
    assert not preference.latex_conversion(f"{folder}/manual.tex", f"{folder}/guide.md")
    assert not preference.latex_conversion(f"{folder}/manual.tex", f"{folder}/manual.txt")  # notes or output: unsaid
    assert not preference.latex_conversion(f"{folder}/manual.tex", f"{folder}/web/manual.md")


def test_a_page_is_named_after_a_program_only_from_one_of_its_words_starts():
    """review22's call: ``domain.html`` holds ``main`` inside a word and is no rendering of ``main.cu``; a page
    named after the program keeps it at a word's start, separators, capitals or a generator's digits marking
    them (``solver_8cpp-example.html``, ``plotGemm.html``, Doxygen's ``samples_2cpp_2kmeans_8cpp-example.html``)."""
    site = "file:///usr/share/doc/kit-doc/html"
    assert copies.quoted_program(f"{site}/domain.html", "file:///usr/share/doc/kit-doc/examples/main.cu")
    for page, program in (
        ("solver_8cpp-example.html", "solver.cpp"),
        ("plotGemm.html", "gemm.py"),
        ("samples_2cpp_2kmeans_8cpp-example.html", "kmeans.cpp"),
        ("demo_3.html", "demo-3.cu"),
    ):
        assert not copies.quoted_program(f"{site}/{page}", f"file:///usr/share/doc/kit-doc/examples/{program}")


def _walker_program(language: str, name: str, topic: str) -> str:
    """One program of our own, written in C or Fortran: the same header comment, calls, constants and messages,
    each language's syntax around them. ``topic`` names what it walks (another program of the folder)."""
    calls = [f"{topic}_open", f"{topic}_step", f"{topic}_report", f"{topic}_close", "draw_uniform", "seed_clock"]
    words = " ".join(f"{topic}{'abcdefghij'[k // 10]}{'klmnopqrst'[k % 10]}" for k in range(30))
    messages = [f"Walking the {topic} lattice with {k} steps per stream" for k in range(6)]
    if language == "c":
        lines = [
            f"/* {words} */",
            f"/* Demonstrates {topic} walks: each stream draws its steps. */",
            "#include <stdio.h>",
        ]
        lines += ["int main(void)", "{", "  int stream, steps = 64;", "  double step_size = 0.25;"]
        lines += [f"  {call}(stream, steps, step_size);" for call in calls]
        lines += [f'  printf("{message}\\n");' for message in messages]
        return "\n".join([*lines, "  return 0;", "}"])
    lines = ["C " + words, f"C Demonstrates {topic} walks: each stream draws its steps.", f"       program {name}"]
    lines += ["       implicit none", "       integer stream, steps", "       real*8 step_size"]
    lines += [f"       call {call}(stream, steps, step_size)" for call in calls]
    lines += [f"       print *, '{message}'" for message in messages]
    return "\n".join([*lines, "       end"])


def test_one_program_in_c_and_fortran_is_one_program_and_the_c_one_is_kept():
    """A library's examples written once per language: ``walk.c``, its Fortran form ``walkf.F`` (the ``f`` its
    name adds) and C++ form ``walk.C``. Their lines share no shingle; their calls, constants and messages are
    one program's, so the form whose name has no mark, C before C++ before Fortran, is kept. Another program
    of the folder (its Fortran form too) stays its own, and so do two interfaces of one library (a C header
    beside its Fortran module): headers are no program."""
    folder = "file:///usr/share/doc/walker-doc/examples"
    files = {
        1: (f"{folder}/walk.c", _walker_program("c", "walk", "lattice")),
        2: (f"{folder}/walkf.F", _walker_program("f", "walkf", "lattice")),
        3: (f"{folder}/walk.C", _walker_program("c", "walk", "lattice").replace("stdio.h", "cstdio")),
        4: (f"{folder}/spin_mpi.c", _walker_program("c", "spin", "spinor")),
        5: (f"{folder}/spinf_mpi.F", _walker_program("f", "spinf", "spinor")),
        6: (f"{folder}/hopf.F", _walker_program("f", "hopf", "graph")),  # named as hop.c's form, another program
        7: (f"{folder}/hop.c", _walker_program("c", "hop", "torus")),
        8: (f"{folder}/api.h", _walker_program("c", "api", "mesh")),
        9: (f"{folder}/api.f90", _walker_program("f", "api", "mesh")),
    }
    infos = [_info(n, url, text, kind="text") for n, (url, text) in files.items()]
    forms = copies.program_forms(infos)
    assert {o for o, _, _, _ in forms[2]} == {1, 3} and all(kept for _, _, kept, _ in forms[2])
    assert {o for o, _, _, _ in forms[1]} == {2, 3} and not any(kept for _, _, kept, _ in forms[1])
    assert {o for o, _, _, _ in forms[5]} == {4}
    assert 6 not in forms and 7 not in forms and 8 not in forms and 9 not in forms
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because == {"rule": "program", "names": ["walk.c", "walkf.F"]}
    assert found[2].signal == "program"  # review24: found by its names, no preprocessed form ("generated" said so)
    assert found[3].duplicate_of == 1 and found[5].duplicate_of == 4
    assert all(found[n].duplicate_of is None for n in (1, 4, 6, 7, 8, 9))
    assert copies._unmarked("walkf_mpi") == ["walk_mpi"] and copies._unmarked("walk_f") == ["walk"]
    assert copies._unmarked("fwalk") == []  # a leading f is a name's own (a C file of a Fortran interface)


def test_a_programs_c_form_its_name_marks_with_a_c_is_the_c_plus_plus_forms_copy():
    """copy36: a library's example in C++ (``walk.cpp``) beside its C port, whose name adds a ``C``
    (``walkC.c``, or ``walk_c.c``): one program in two languages, the unmarked form kept. Two C files whose names
    differ by that letter are one language, no such pair; a C++ file whose name ends in a ``C`` marks no C form."""
    folder = "file:///usr/share/doc/walker-doc/examples"
    cpp = _walker_program("c", "walk", "lattice").replace("stdio.h", "cstdio")
    files = {
        1: (f"{folder}/walk.cpp", cpp),
        2: (f"{folder}/walkC.c", _walker_program("c", "walk", "lattice")),
        3: (f"{folder}/hop.c", _walker_program("c", "hop", "torus")),
        4: (f"{folder}/hopC.c", _walker_program("c", "hop", "torus").replace("stdio.h", "stdlib.h")),
        5: (f"{folder}/spin.c", _walker_program("c", "spin", "spinor")),
        6: (f"{folder}/spinC.cpp", _walker_program("c", "spin", "spinor").replace("stdio.h", "cstdio")),
        7: (f"{folder}/seed.cpp", _walker_program("c", "seed", "graph").replace("stdio.h", "cstdio")),
        8: (f"{folder}/seed_c.c", _walker_program("c", "seed", "graph")),
    }
    infos = [_info(n, url, text, kind="text") for n, (url, text) in files.items()]
    forms = copies.program_forms(infos)
    assert {o for o, _, _, _ in forms[2]} == {1} and all(kept for _, _, kept, _ in forms[2])
    assert {o for o, _, _, _ in forms[8]} == {7}
    assert not {3, 4, 5, 6} & set(forms)
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because == {"rule": "program", "names": ["walk.cpp", "walkC.c"]}
    assert found[8].duplicate_of == 7
    assert found[1].duplicate_of is None and found[7].duplicate_of is None
    assert copies._c_unmarked("diffusionC") == ["diffusion"] and copies._c_unmarked("seed-c") == ["seed"]
    assert copies._c_unmarked("ABC") == [] and copies._c_unmarked("basic") == []


def _precision_header(word: str, camel: str) -> str:
    """A header of our own that declares one interface in one precision: the type on every line, and in names."""
    lines = [f"/* Planner for distributed transforms of {word} data: grids, plans and their execution. */"]
    for k in range(18):
        lines.append(f"int plan_{word}_stage{k}(Plan{camel}Grid* grid, {word}* input_{k}, {word}* output_{k}, int n);")
    return "\n".join(lines)


def test_one_header_in_two_precisions_named_by_a_suffix_is_one_file():
    """``plan_float.h`` beside ``plan.h``: one interface in single and double precision, the type and the
    names' precision word changed on every line (their own Jaccard reads as two headers of one template). With
    the precision words masked they are one text: the file without a suffix is kept (the general one), and of two
    suffixed forms the double one. Two headers a suffix pairs but whose texts differ stay apart."""
    folder = "file:///usr/include/planner"
    files = {
        1: (f"{folder}/plan.h", _precision_header("double", "Double")),
        2: (f"{folder}/plan_float.h", _precision_header("float", "Float")),
        3: (f"{folder}/fft_single.h", _precision_header("float", "Float").replace("plan_", "fft_")),
        4: (f"{folder}/fft_double.h", _precision_header("double", "Double").replace("plan_", "fft_")),
        5: (f"{folder}/grid.h", _words("gridone", 200)),
        6: (f"{folder}/grid_float.h", _words("gridtwo", 200)),
    }
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    assert preference.precision_suffix_twins(files[2][0], files[1][0]) == ("s", "d")
    assert preference.precision_suffix_twins(files[3][0], files[4][0]) == ("s", "d")
    assert preference.precision_suffix_twins(f"{folder}/plan_half.h", f"{folder}/plan.h") == ("h", "d")
    assert preference.precision_suffix_twins(f"{folder}/plan_float.h", f"{folder}/other/plan.h") is None
    assert preference.precision_suffix_twins(f"{folder}/plan_float.h", f"{folder}/plan.hpp") is None
    # a one-letter "_d" names a debug build or a daemon as often as a precision: no pair by it
    assert preference.precision_suffix_twins(f"{folder}/run_d.c", f"{folder}/run.c") is None
    assert preference.precision_suffix_twins(f"{folder}/plan_d.h", f"{folder}/plan_float.h") is None
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because["rule"] == "general"
    assert found[3].duplicate_of == 4 and found[3].because == {"rule": "precision", "precisions": ["d", "s"]}
    assert all(found[n].duplicate_of is None for n in (1, 4, 5, 6))


def _typed_sample(ctype: str, enum: str, check: str, alpha: str = "alpha = 1") -> str:
    """A sample of our own, one short main written for one element type: a typedef per operand, the library's
    enum constants of that precision, a support check and a literal, the rest the same in every precision."""
    lines = ["// Scales a tensor by alpha and writes it out: the sample a contraction library ships per type."]
    lines += ["#include <cstdio>", '#include "common.hpp"', "", "int main(int argc, char* argv[])", "{"]
    lines += [
        f"    if(!is{check}Supported())",
        "    {",
        '        std::puts("unsupported device");',
        "        return 1;",
    ]
    lines += ["    }", f"    typedef {ctype} ADataType;", f"    typedef {ctype} DDataType;"]
    lines += [f"    constexpr DataType typeA = LIB_{enum};", f"    constexpr DataType typeD = LIB_{enum};"]
    lines += [f"    ADataType {alpha};", "    float beta = 0.5f;"]
    for k in range(40):
        lines.append(f"    stage{k}(handle, &plan{k}, typeA, typeD, modes{k}, extents{k}, workspace{k});")
    return "\n".join([*lines, "    return 0;", "}"])


def test_one_sample_written_for_each_precision_is_one_program_and_the_double_one_is_kept():
    """copy37: a library's one sample written once per element type (``scale_f64_f64_compute_f64.cpp``,
    ``scale_bf16_bf16_compute_bf16.cpp``, ``scale_cf32_cf32_compute_cf32.cpp``, …): the typedefs, the enum
    constants of the precision, the support check and a literal change, each line more than one name (``_Float16``,
    ``lib_bfloat16``, ``libFloatComplex``, ``LIB_R_16BF``). One program (LABELS.md), and the double-precision
    form is kept for every member, not the first by name nor the one a pair's precision rule prefers. Another
    program of the folder, and two files a precision part pairs whose bodies differ, stay apart."""
    folder = "https://raw.githubusercontent.com/org/tensorlib/abc1234/samples/contraction"
    family = {
        1: ("scale_f64_f64_compute_f64.cpp", _typed_sample("double", "R_64F", "F64")),
        2: ("scale_f32_f32_compute_f32.cpp", _typed_sample("float", "R_32F", "F32")),
        3: ("scale_f16_f16_compute_f16.cpp", _typed_sample("_Float16", "R_16F", "F32")),
        4: ("scale_bf16_bf16_compute_bf16.cpp", _typed_sample("lib_bfloat16", "R_16BF", "F32")),
        5: ("scale_cf32_cf32_compute_cf32.cpp", _typed_sample("libFloatComplex", "C_32F", "F32", "alpha(1, 1)")),
        6: ("scale_f64_f64_compute_f32.cpp", _typed_sample("double", "R_64F", "F64").replace("1.0", "1.0f")),
    }
    others = {
        7: ("reduce_f32.cpp", _typed_sample("float", "R_32F", "F32").replace("stage", "reduce_pass")),
        8: ("vec_float.h", "\n".join(f"static inline float lane{k}(float x) {{ return x * {k}; }}" for k in range(30))),
        9: ("vec_bfloat16.h", "\n".join(f"uint16_t round_bits{k}(uint32_t u);" for k in range(30))),
    }
    files = {n: (f"{folder}/{name}", text) for n, (name, text) in (family | others).items()}
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    assert copies.precision_parts(files[4][0]) == (f"{folder}/scale_compute.cpp", ("b", "b", "b"))
    assert copies.precision_parts(f"{folder}/run_d.c") is None and copies.precision_parts(f"{folder}/f32.cpp") is None
    families = copies.precision_families(infos)
    assert {n: families[n][0] for n in families} == dict.fromkeys(range(1, 7), 1)
    found = copies.measure(infos)
    assert all(found[n].duplicate_of == 1 for n in range(2, 7)), {n: found[n].duplicate_of for n in found}
    assert found[4].because == {"rule": "precision", "names": [files[1][0].rpartition("/")[2], family[4][0]]}
    assert all(found[n].duplicate_of is None for n in (1, 7, 8, 9))


def _kernel_program(language: str, topic: str) -> str:
    """One CUDA program of our own, in CUDA C or CUDA Fortran: the same kernels, runtime calls, constants and
    messages, each dialect's syntax around them. ``topic`` names what it shows (another program)."""
    calls = ["cudaEventCreate", "cudaEventRecord", "cudaEventSynchronize", "cudaEventElapsedTime", "cudaMemcpy"]
    kernels = [f"{topic}Naive", f"{topic}Coalesced", f"{topic}NoBankConflicts", f"{topic}Copy"]
    words = " ".join(f"{topic}{'abcdefghij'[k // 10]}{'klmnopqrst'[k % 10]}" for k in range(24))
    messages = [f"Bandwidth of the {topic} kernel with tile {k} (GB/s)" for k in range(4)]
    if language == "c":
        lines = [f"// {words}", "#include <cstdio>", "const int TILE_DIM = 32;"]
        for kernel in kernels:
            lines += [f"__global__ void {kernel}(float *odata, const float *idata)", "{", "  __syncthreads();", "}"]
        lines += ["int main(int argc, char **argv)", "{", "  cudaEvent_t startEvent, stopEvent;"]
        lines += [f"  {call}(&startEvent);" for call in calls]
        lines += [f"  {kernel}<<<dimGrid, dimBlock>>>(d_tdata, d_idata);" for kernel in kernels]
        lines += [f'  printf("{message}\\n", ms);' for message in messages]
        return "\n".join([*lines, "}"])
    lines = [f"! {words}", "module kernels_m", "  integer, parameter :: TILE_DIM = 32", "contains"]
    for kernel in kernels:
        lines += [
            f"  attributes(global) subroutine {kernel}(odata, idata)",
            "    call syncthreads()",
            "  end subroutine",
        ]
    lines += [
        "end module kernels_m",
        f"program {topic}",
        "  use cudafor",
        "  type (cudaEvent) :: startEvent, stopEvent",
    ]
    lines += [f"  istat = {call}(startEvent)" for call in calls]
    lines += [f"  call {kernel}<<<dimGrid, dimBlock>>>(tdata_d, idata_d)" for kernel in kernels]
    lines += [f"  write(*,*) '{message}', ms" for message in messages]
    return "\n".join([*lines, f"end program {topic}"])


def test_a_cuda_fortran_program_beside_its_cuda_c_form_is_one_program_and_the_c_one_is_kept():
    """copy37: a series that teaches each lesson in CUDA C and in CUDA Fortran, each language in a tree of its own
    and the names a word shorter or in another case (``cuda-fortran/shared.cuf`` beside
    ``cuda-c/shared-memory/shared-memory.cu``, ``finiteDifference.cuf`` beside ``finite-difference.cu``): one
    program in two languages, the CUDA C form kept as C is before Fortran. A CUDA Fortran program whose name
    starts no CUDA C program's stays its own, and a ``.cu`` kernel beside its ``.cpp`` host code is no pair."""
    repo = "https://raw.githubusercontent.com/org/gpu-blog/abc1234/series"
    files = {
        1: (f"{repo}/cuda-c/shared-memory/shared-memory.cu", _kernel_program("c", "reverse")),
        2: (f"{repo}/cuda-fortran/shared.cuf", _kernel_program("f", "reverse")),
        3: (f"{repo}/cuda-c/finite-difference/finite-difference.cu", _kernel_program("c", "deriv")),
        4: (f"{repo}/cuda-fortran/finiteDifference.cuf", _kernel_program("f", "deriv")),
        5: (f"{repo}/cuda-fortran/transpose.cuf", _kernel_program("f", "transpose")),
        6: (f"{repo}/cuda-c/stencil/stencil.cu", _kernel_program("c", "transpose")),  # another name: no pair
        7: (f"{repo}/cuda-c/host/scan.cu", _kernel_program("c", "scan")),
        8: (f"{repo}/cuda-c/host/scan.cpp", _kernel_program("c", "scan").replace("__global__", "")),
    }
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    forms = copies.program_forms(infos)
    assert {o for o, _, _, _ in forms[2]} == {1} and all(kept for _, _, kept, _ in forms[2])
    assert {o for o, _, _, _ in forms[4]} == {3} and not any(kept for _, _, kept, _ in forms[3])
    assert not {5, 6, 7, 8} & set(forms)
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because == {
        "rule": "program",
        "names": ["shared-memory.cu", "shared.cuf"],
    }
    assert found[4].duplicate_of == 3
    assert all(found[n].score < copies.HIGH_REDUNDANCY for n in (1, 3, 5, 6))  # each its own program


def test_the_documentation_folder_is_kept_over_an_older_tree_of_its_pages_deeper_down():
    """A repository's pages moved from ``source/docs/*.md`` to ``docs/<section>/*.rst``, renamed and in another
    markup, the old tree left in place at the same revision. The top ``docs/`` folder is what a documentation
    host builds: its page is kept, though the reST one reads as a source copy."""
    repo = "https://raw.githubusercontent.com/org/tracer/1a2b3c4"
    body = _words("runtime", 400)
    old = _info(1, f"{repo}/source/docs/runtime.md", "# Configuring the runtime\n\n" + body, kind="markdown")
    new = _info(
        2,
        f"{repo}/docs/how-to/configuring-runtime-options.rst",
        "Configuring runtime options\n===========================\n\n.. note:: Read first.\n\n" + body,
        kind="text",
    )
    found = copies.measure([old, new])
    assert found[2].duplicate_of is None
    assert found[1].duplicate_of == 2 and found[1].because["where"] == "docs tree"
    assert preference.docs_tree(new.url, old.url) == 1 and preference.docs_tree(old.url, new.url) == -1
    assert preference.docs_tree(new.url, f"{repo}/tools/runtime.md") == 0  # no documentation tree deeper down
    assert preference.docs_tree(new.url, f"{repo}/docs/old/runtime.md") == 0  # both in the top folder
    past = "https://raw.githubusercontent.com/org/tracer/9f8e7d6/source/docs/runtime.md"
    assert preference.docs_tree(new.url, past) == 0  # another revision: the revision rules read it


def test_a_name_with_an_f_added_marks_a_fortran_form_only_of_a_fortran_file():
    """review24: the ``f`` a name adds marks a program's Fortran form; ``printf.c`` beside ``print.c`` (two C
    files, one library's calls in both) or ``vecf.F`` beside ``vec.F`` (two Fortran files) are two programs of one
    language, whatever names they share: neither is the other's form in another language."""
    folder = "file:///usr/share/doc/walker-doc/src"
    c_text = _walker_program("c", "walk", "lattice")
    other_c = "\n".join(reversed(c_text.replace("(stream, steps, step_size)", "(&ctx)").splitlines()))
    for plain, marked, plain_text, marked_text in (
        ("print.c", "printf.c", c_text, other_c),
        ("vec.c", "vec_f.c", c_text, other_c),
        ("vec.F", "vecf.F", _walker_program("f", "vec", "lattice"), _walker_program("f", "vecf", "lattice")),
    ):
        infos = [
            _info(1, f"{folder}/{plain}", plain_text, kind="text"),
            _info(2, f"{folder}/{marked}", marked_text, kind="text"),
        ]
        assert copies.program_forms(infos) == {}, (plain, marked)
    infos = [
        _info(1, f"{folder}/vec.c", c_text, kind="text"),
        _info(2, f"{folder}/vecf.F", _walker_program("f", "vecf", "lattice"), kind="text"),
    ]
    assert {o for o, _, kept, _ in copies.program_forms(infos)[2] if kept} == {1}  # the Fortran form of a C program


def test_a_written_pages_suffix_names_an_edition_or_a_case_not_a_precision():
    """review24: a precision suffix reads one source file in two precisions (``plan_float.h`` beside ``plan.h``);
    on a written page it names an edition or a case: ``guide-single.html`` is the manual on one page,
    ``lab_d.md`` the fourth lab of a series. Such pages stay siblings of one template (held to its cut), and
    no reason calls one a double-precision page."""
    folder = "file:///usr/share/doc/course/html"
    for a, b in (("guide.html", "guide-single.html"), ("lab.md", "lab_d.md"), ("notes_float.rst", "notes.rst")):
        assert preference.precision_twins(f"{folder}/{a}", f"{folder}/{b}") is None, (a, b)
        assert copies.siblings(f"{folder}/{a}", f"{folder}/{b}"), (a, b)
    assert preference.precision_twins(f"{folder}/plan.h", f"{folder}/plan_float.h") == ("d", "s")
    assert not copies.siblings(f"{folder}/plan.h", f"{folder}/plan_float.h")


def _stencil(filled: bool) -> str:
    """A CUDA exercise of our own: a stencil kernel and its driver; the exercise leaves the kernel's body as
    FIXMEs, the solution fills it in."""
    body = (
        [
            "    int gindex = threadIdx.x + blockIdx.x * blockDim.x + RADIUS_OF_THE_STENCIL_WINDOW;",
            "    int lindex = threadIdx.x + RADIUS_OF_THE_STENCIL_WINDOW;",
            "    temp[lindex] = in[gindex]; // read the block's own elements into shared memory first",
            "    for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];",
        ]
        if filled
        else ["    int gindex = FIXME;", "    int lindex = FIXME;", "    temp[lindex] = FIXME;", "    // FIXME"]
    )
    driver = [
        f"    check_halo_{k}(out, in, N, {k}); // verify halo element {k} against the host result" for k in range(12)
    ]
    return "\n".join(
        [
            "#include <cstdio>",
            "__global__ void stencil_1d(int *in, int *out) {",
            *body,
            "}",
            "int main() {",
            *driver,
            "}",
        ]
    )


def test_an_exercise_beside_its_solution_is_the_solutions_copy_and_the_solution_is_kept():
    """``stencil.cu`` beside ``stencil_solution.cu``: the exercise is the solution with the kernel's body left
    as FIXMEs. The solution is kept (whichever is longer or stored first), and the exercise is found by its
    lines however much of the text the answer is: a short notebook beside ``solutions/<name>__SOLUTION.ipynb``
    whose filled-in cells break up its shingles. A solution's notes beside the exercise, and two exercises of
    one series, share no such name and stay apart."""
    folder = "https://raw.githubusercontent.com/org/course/abc1234/exercises/hw3"
    shared = [f"Step {k}: launch the kernel over the image tile {k} and compare the result." for k in range(6)]
    exercise_nb = "\n".join([*shared, "gpu_tile = ...", "grid = ...", "kernel[grid, block](...)", "plt.imshow(...)"])
    solution_nb = "\n".join(
        [
            *shared,
            "gpu_tile = cuda.to_device(np.ascontiguousarray(image_tile, dtype=np.float32), stream=stream_one)",
            "grid = (math.ceil(gpu_tile.shape[0] / block[0]), math.ceil(gpu_tile.shape[1] / block[1]), 1)",
            "kernel[grid, block](gpu_tile, gpu_output, np.float32(threshold_value), np.int32(channels))",
            "plt.imshow(gpu_output.copy_to_host(stream=stream_one).reshape(image_tile.shape[:2]), cmap='gray')",
        ]
    )
    files = {
        1: (f"{folder}/stencil.cu", _stencil(False)),
        2: (f"{folder}/stencil_solution.cu", _stencil(True)),
        3: (f"{folder}/tile.ipynb", exercise_nb),
        4: (f"{folder}/solutions/tile__SOLUTION.ipynb", solution_nb),
        5: (f"{folder}/solver.c", _words("solverone", 200)),
        6: (f"{folder}/solver_solution_notes.md", _words("solvernotes", 200)),
    }
    assert preference.exercise_paths(files[2][0]) == (files[1][0],)
    assert files[3][0] in preference.exercise_paths(files[4][0])
    assert preference.exercise_paths(f"{folder}/solution_stencil.cu") == (files[1][0],)
    assert preference.exercise_paths(f"{folder}/stencil-sol.cu") == (files[1][0],)
    assert preference.exercise_paths(files[6][0]) == ()  # the word in a name is no mark
    assert preference.exercise_paths(f"{folder}/solutions.md") == ()
    assert preference.solution_pair(f"{folder}/hw2.cu", f"{folder}/hw1.cu") == 0  # two exercises of a series
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    # by id, size and name alone the exercise would be kept: the solution rule decides
    assert preference.preference(infos[1], infos[0])[1] == {
        "rule": "solution",
        "names": ["stencil_solution.cu", "stencil.cu"],
    }
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].because["rule"] == "solution"
    assert found[3].duplicate_of == 4 and found[3].score >= copies.HIGH_REDUNDANCY
    assert all(found[n].duplicate_of is None for n in (2, 4, 5, 6))


def _change_log(releases: list[str], page: bool) -> str:
    """A change log of our own, one heading per release, newest first, each with its entries: as a text file
    (``*`` items), or as the text of its web page (items as paragraphs)."""
    out = []
    for n, release in enumerate(releases):
        out.append(f"2024-03-{28 - n:02d}  {release}  <maintainer>")
        for k in range(6):
            entry = f"fix the tile planner's halo exchange case {n}-{k}, which is 72.0 percent of the traffic."
            out.append(entry if page else f"  * {entry}")
        out.append("")
    return "\n".join(out)


def test_of_two_change_logs_one_release_behind_the_other_the_later_is_kept():
    """A project's plain-text change log and the web site's copy of it, rendered one release before: the same
    entries, the text one release ahead. The one whose newest entry heading names the later release is kept,
    though the other is the HTML page; a number in an entry's sentence is no release."""
    releases = [f"3.2.{k}" for k in range(30, 0, -1)]
    text = _change_log(releases, page=False)
    page = _change_log(releases[1:], page=True)
    place = "file:///usr/share/doc/tiler-doc"
    assert preference.newest_release(f"{place}/changelog", text) == (3, 2, 30)
    assert preference.newest_release(f"{place}/html/www/changelog.html", page) == (3, 2, 29)
    assert preference.newest_release(f"{place}/guide.html", text) == ()  # no change log by its name
    assert preference.newest_release(f"{place}/NEWS", "Version 1.10 (2020-03-01)\n  * the 72.0 dpi default") == (1, 10)
    infos = [
        _info(1, f"{place}/html/www/changelog.html", page, kind="html"),
        _info(2, f"{place}/changelog", text, kind="text"),
    ]
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2
    assert found[1].because == {"rule": "version", "where": "release", "versions": ["3.2.30", "3.2.29"]}
    assert found[2].duplicate_of is None


def test_a_rest_source_in_a_source_tree_beside_the_built_site_is_its_pages_copy():
    """A package ships its documentation's reST sources (``rst/``) beside the built site (``html/``): a source that
    is only a title and an ``automodule`` directive holds nothing its page does not show, as Sphinx's
    ``_sources/`` copy would not. The same path below two top folders names the pair; a source whose page was not
    built, or another package's page under the same path, is no pair."""
    place = "file:///usr/share/doc/tiler-doc"
    source = "Tile planner extension\n======================\n\n.. automodule:: tiler.ext.planner\n    :members:\n"
    page = _words("plannerpage", 400)
    infos = [
        _info(1, f"{place}/rst/core/planner.rst", source, kind="text"),
        _info(2, f"{place}/html/core/planner.html", page, kind="html"),
        _info(3, f"{place}/rst/core/unbuilt.rst", "Unbuilt\n=======\n\n.. automodule:: tiler.unbuilt\n", kind="text"),
        _info(4, "file:///usr/share/doc/other-doc/html/core/unbuilt.html", _words("otherpage", 400), kind="html"),
    ]
    assert copies.tree_pages(infos) == {1: 2}
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].signal == "source"
    assert all(found[n].duplicate_of is None for n in (2, 3, 4))


def test_a_debian_packages_copyright_record_and_a_licence_text_it_quotes_are_two_documents():
    """A package's ``copyright`` file names who holds which files under which terms and quotes the licence after
    it; the upstream's licence text shipped beside it is the terms alone. Two documents, however much of the one
    the other holds. Two packages' (or two versions') copyright records are no such pair."""
    terms = _words("licenceterms", 400)
    record = "Files: *\nCopyright: 2020-2024 The Tiler Authors\nLicense: TPL-1.0\n\n" + terms
    place, other = "file:///usr/share/doc/tiler-doc", "file:///usr/share/doc/tiler-19-doc"
    assert copies.packaged_copyright(f"{place}/copyright", f"{place}/TPL")
    assert not copies.packaged_copyright(f"{place}/copyright", f"{other}/copyright")
    assert not copies.packaged_copyright(f"{place}/html/copyright.html", f"{place}/TPL")
    infos = [
        _info(1, f"{place}/copyright", record, kind="text"),
        _info(2, f"{place}/TPL", terms, kind="text"),
    ]
    found = copies.measure(infos)
    assert found[2].duplicate_of is None and found[1].duplicate_of is None


def _menu_header(fortran: bool, topic: str) -> str:
    """A header of our own that prints a menu of ``topic``'s generators: C ``printf`` calls, or the Fortran
    include file of the same menu (comments in the first column, ``print *`` statements)."""
    entries = [f"{topic}{word}" for word in ("lagged", "linear", "carry", "twister", "mixed", "prime", "shift")]
    note = [f"This menu lists the {topic} generators and the numeral that selects each {topic} stream"]
    if fortran:
        lines = [f"C {line}" for line in note]
        lines += [f"        print *, '   {name}    --- {k} '" for k, name in enumerate(entries)]
        lines += [f"        print *, 'Choose a {topic} generator by its numeral, then seed it'"]
    else:
        lines = [f"/* {line} */" for line in note]
        lines += [f'  printf("   {name}    --- {k} \\n");' for k, name in enumerate(entries)]
        lines += [f'  printf("Choose a {topic} generator by its numeral, then seed it\\n");']
    return "\n".join(lines)


def test_a_header_an_f_marks_is_a_fortran_form_only_when_written_in_fortran():
    """review24: two headers of one folder, one named as the other's Fortran form (``menuf.h`` of ``menu.h``):
    the library's include file for its Fortran programs, the same menu in Fortran, is the C header's form and
    the C one is kept. ``printf.h`` beside ``print.h``, two C headers of one library that share its names, are
    two headers: the ``f`` ends a C name there."""
    folder = "file:///usr/share/doc/streams-doc/examples"
    c_menu, f_menu = _menu_header(False, "stream"), _menu_header(True, "stream")
    assert copies.written_in_fortran(f_menu) and not copies.written_in_fortran(c_menu)
    infos = [_info(1, f"{folder}/menu.h", c_menu, kind="text"), _info(2, f"{folder}/menuf.h", f_menu, kind="text")]
    assert infos[1].fortran and not infos[0].fortran
    assert [(o, kept) for o, _, kept, _ in copies.program_forms(infos)[2]] == [(1, True)]
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because["rule"] == "program" and found[1].duplicate_of is None
    other_c = "\n".join(reversed(c_menu.replace("\\n", " (%d)\\n").splitlines()))
    infos = [_info(1, f"{folder}/print.h", c_menu, kind="text"), _info(2, f"{folder}/printf.h", other_c, kind="text")]
    assert not infos[1].fortran
    assert copies.program_forms(infos) == {}


def test_a_files_reference_page_is_a_copy_of_its_groups_page_below_the_sibling_cut():
    """A generated reference: ``stencil_8hpp.html`` lists what ``stencil.hpp`` declares, and
    ``group__ext__stencil.html`` documents the same declarations one by one. Their names nest (the file's
    words are some of the group's, the generator's ``_8hpp`` aside): one subject, the file page the summary of the
    group page, a copy from ``NESTED_JACCARD``. Two pages of one folder whose names do not nest (another file's
    page beside the group, two methods' pages) keep the sibling cut."""
    api = "file:///usr/share/doc/vecmath-doc/api"
    declarations = _words("stencildecl", 200)
    summary = declarations + "\n\n" + _words("stencilfile", 60)
    documented = declarations + "\n\n" + _words("stencildoc", 300)
    file_page = _info(1, f"{api}/stencil_8hpp.html", summary)
    group_page = _info(2, f"{api}/group__ext__stencil.html", documented)
    assert file_page.text is not None and group_page.text is not None
    jaccard = file_page.text.minhash.jaccard(group_page.text.minhash)
    assert copies.NESTED_JACCARD <= jaccard < copies.SIBLING_JACCARD, jaccard
    assert copies.nested_names(file_page.url, group_page.url)
    assert copies.sibling_cut(file_page.url, group_page.url) == copies.NESTED_JACCARD
    found = copies.measure([file_page, group_page])
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None
    other_file = _info(3, f"{api}/lattice_8hpp.html", summary)  # another file's page, the same shares
    assert not copies.nested_names(other_file.url, group_page.url)
    assert not copies.nested_names(f"{api}/sort_keys.html", f"{api}/sort_values.html")
    assert copies.nested_names(f"{api}/functions_b.html", f"{api}/functions_vars_b.html")
    found = copies.measure([other_file, group_page])
    assert found[3].duplicate_of is None and found[2].duplicate_of is None


def test_a_programs_fortran_form_mirrored_elsewhere_stays_the_mirrors_copy():
    """review24: the program rule outranks a near-copy in a file's own language, but not the same file in another
    folder. ``walkf.F`` beside ``walk.c`` is the C program's Fortran form; the same ``walkf.F`` in another
    package's examples, newer, is the one text twice: the older file is that mirror's copy, as it would be
    with no C form beside it."""
    old = "file:///usr/share/doc/walker-doc/examples"
    new = "file:///usr/share/doc/walker2-doc/examples"
    fortran = _walker_program("f", "walkf", "lattice")
    infos = [
        _info(1, f"{old}/walk.c", _walker_program("c", "walk", "lattice"), kind="text", newest=2019.0),
        _info(2, f"{old}/walkf.F", fortran, kind="text", newest=2019.0),
        _info(3, f"{new}/walkf.F", fortran, kind="text", newest=2024.0),
    ]
    found = copies.measure(infos)
    assert found[2].duplicate_of == 3 and found[2].signal == "text" and found[3].duplicate_of is None
    alone = copies.measure(infos[:2])  # no mirror: the Fortran form is the C program's copy
    assert alone[2].duplicate_of == 1 and alone[2].because["rule"] == "program"


def test_a_file_left_in_a_deprecated_folder_is_the_older_state_of_the_current_one():
    """A repository keeps its retired settings in ``configs/deprecated-sets/`` beside the ``configs/current-sets/``
    it moved on to: ``deprecated-sets/gpu_a/run.cfg`` is ``current-sets/gpu_a/run.cfg`` as it was, more than half
    its lines rewritten since (under the high cut, so no other reading makes it a copy). The past mark and the same
    path below the two folders make it the current file's older state, a copy from ``REVISION_CONTAINMENT``.
    Another setting's file of the current folder, or the same file in two unmarked folders, is left alone."""
    repo = "https://raw.githubusercontent.com/org/sim/1a2b3c4/configs"
    kept = _words("keptline", 240)
    retired = kept + "\n\n" + _words("retired", 360)
    old = _info(1, f"{repo}/deprecated-sets/gpu_a/run.cfg", retired, kind="text")
    new = _info(2, f"{repo}/current-sets/gpu_a/run.cfg", kept + "\n\n" + _words("rewritten", 280), kind="text")
    other = _info(3, f"{repo}/current-sets/gpu_b/run.cfg", _words("other", 300), kind="text")
    pairs = copies.past_folders([old, new, other])
    assert list(pairs) == [1] and [p[0] for p in pairs[1]] == [2]
    assert copies.REVISION_CONTAINMENT <= pairs[1][0][1] < copies.HIGH_REDUNDANCY
    found = copies.measure([old, new, other])
    assert found[1].duplicate_of == 2 and found[1].signal == "revision"
    assert found[2].duplicate_of is None and found[3].duplicate_of is None
    twin = _info(4, f"{repo}/tested-sets/gpu_a/run.cfg", retired, kind="text")
    # two unmarked folders hold the path: which one the retired file was an older state of is not said (and a past
    # file beside thousands of siblings is not compared with each), so nothing is paired by its folder
    assert copies.past_folders([old, new, twin]) == {}
    assert copies.past_folders([new, twin]) == {}  # and two unmarked folders are no states of each other


def test_a_package_whose_name_has_a_past_word_is_no_past_state_of_another_package():
    """``past_folders`` reads a folder a past word marks beside its sibling inside one project. Two Debian packages
    are two projects: ``mail-archive-tools`` (a tool that archives mail: its name says what it does, not that it
    is retired) and ``netsim`` both install a ``README.Debian`` written from the packagers' template, and neither
    is the other's older state, nor is another package's copyright record. Inside one package, a retired
    folder beside the current one is still read."""
    doc = "file:///usr/share/doc"
    template = _words("packagertemplate", 240)
    tool = template + "\n\n" + _words("mailtool", 280)
    sim = template + "\n\n" + _words("netsimnotes", 280)
    infos = [
        _info(1, f"{doc}/mail-archive-tools/README.Debian", tool, kind="text"),
        _info(2, f"{doc}/netsim/README.Debian", sim, kind="text"),
    ]
    assert copies.past_folders(infos) == {}
    found = copies.measure(infos)
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    inside = [
        _info(3, f"{doc}/netsim/old-notes/setup.txt", tool, kind="text"),
        _info(4, f"{doc}/netsim/notes/setup.txt", sim, kind="text"),
    ]
    assert [p[0] for p in copies.past_folders(inside)[3]] == [4]
    assert copies.measure(inside)[3].duplicate_of == 4


def test_a_name_that_only_extends_another_at_its_end_names_another_subject():
    """``nested_names`` lowers the sibling cut for a page whose name's words are some of another's: a file's page
    beside its group's (``stencil_8hpp``, ``group__ext__stencil``), an index beside its part (``functions_b``,
    ``functions_vars_b``). A name that only adds words at its end names another call of one family, two
    subjects of one template: ``xq_send.3`` beside ``xq_send_init.3``, ``sort`` beside ``sort_keys``. Two such
    man pages sharing the template's text (Jaccard 0.375, between the two cuts) are no copies."""
    man = "file:///usr/share/man/man3"
    template = _words("mantemplate", 200)
    send = _info(1, f"{man}/xq_send.3", template + "\n\n" + _words("sendcall", 60))
    init = _info(2, f"{man}/xq_send_init.3", template + "\n\n" + _words("sendinit", 300))
    assert send.text is not None and init.text is not None
    assert copies.NESTED_JACCARD <= send.text.minhash.jaccard(init.text.minhash) < copies.SIBLING_JACCARD
    assert not copies.nested_names(send.url, init.url)
    assert not copies.nested_names(f"{man}/sort.3", f"{man}/sort_keys.3")
    assert not copies.nested_names(f"{man}/mem.3", f"{man}/memcpy.3")
    found = copies.measure([send, init])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    api = "file:///usr/share/doc/vecmath-doc/api"  # the readings it was written for still nest
    assert copies.nested_names(f"{api}/stencil_8hpp.html", f"{api}/group__ext__stencil.html")
    assert copies.nested_names(f"{api}/functions_b.html", f"{api}/functions_vars_b.html")


def test_a_source_of_only_include_directives_is_a_copy_of_the_page_rendered_from_it():
    """A change log whose source is a note and one include directive per release (``rendered_by_name``), none of the
    included files in the corpus, is a copy of the one HTML page of its place that bears its name: that page shows
    what the directives pull in. Two HTML pages of that name name none; a page of its own text is no stub."""
    pkg = "file:///usr/share/doc/ourtool-doc"
    releases = "\n".join(f".. include:: ../notes/notes-2.{k}.rst" for k in range(12, 0, -1))
    source = f".. _notes:\n\nRelease notes\n=============\n\n.. note:: Every release, newest first.\n\n{releases}\n"
    assert copies.only_included(source)[:2] == ("../notes/notes-2.12.rst", "../notes/notes-2.11.rst")
    stub = _info(1, f"{pkg}/notes.gz", source, kind="text")
    page = _info(2, f"{pkg}/html/notes.html.gz", _words("release", 300))
    other = _info(3, f"{pkg}/html/usage.html.gz", _words("usage", 300))
    found = copies.measure([stub, page, other])
    assert found[1].duplicate_of == 2 and found[1].signal == "included" and found[2].duplicate_of is None
    twice = _info(4, f"{pkg}/site/notes.html", _words("release", 300))
    assert copies.measure([stub, page, twice])[1].duplicate_of != 2  # two pages of its name: neither is read so
    elsewhere = _info(5, "file:///usr/share/doc/othertool-doc/html/notes.html", _words("release", 300))
    assert copies.measure([stub, elsewhere])[1].duplicate_of is None  # another package's page
    own = _info(6, f"{pkg}/notes.gz", f"Notes\n=====\n\n{_words('tuning', 200)}\n\n{releases}\n", kind="text")
    assert copies.measure([own, page])[6].duplicate_of is None


def test_a_page_whose_front_matter_names_the_page_it_renders_is_that_pages_copy():
    """A site that writes a library's guide once for one framework and gives the other frameworks' pages front
    matter naming it (``ref:``, from the repository's root or the page's folder) renders it in their place: the
    page named is the text (``front_matter_page``, ``rendered_from``). Front matter that names no page file, a page
    of its own text larger than the page it names, or a page not in the corpus, is no copy."""
    repo = "https://raw.githubusercontent.com/org/fetcher/3f2c9b1"
    guide = _info(1, f"{repo}/docs/framework/alpha/guides/retries.md", _words("retry", 300), kind="markdown")
    bare = "---\nid: retries\ntitle: Retries\nref: docs/framework/alpha/guides/retries.md\n---\n"
    beta = _info(2, f"{repo}/docs/framework/beta/guides/retries.md", bare, kind="markdown")
    assert copies.front_matter_page(bare) == "docs/framework/alpha/guides/retries.md"
    found = copies.measure([guide, beta])
    assert found[2].duplicate_of == 1 and found[1].duplicate_of is None
    swapped = (
        "---\nid: retries\nref: ../../alpha/guides/retries.md\nreplace: { 'alpha-lib': 'gamma-lib' }\n---\n\n"
        "```tsx\nconst result = useFetch(() => ({ key: ['users'] }))\n```\n"
    )
    gamma = _info(3, f"{repo}/docs/framework/gamma/guides/retries.md", swapped, kind="markdown")
    assert copies.measure([guide, gamma])[3].duplicate_of == 1
    titled = "---\nid: retries\ntitle: Retries\nsidebar: guides\n---\n\n" + _words("backoff", 300)
    assert copies.front_matter_page(titled) == ""
    larger = f"---\nref: docs/framework/alpha/guides/retries.md\n---\n\n{_words('backoff', 600)}\n"
    delta = _info(4, f"{repo}/docs/framework/delta/guides/retries.md", larger, kind="markdown")
    assert copies.measure([guide, delta])[4].duplicate_of is None
    missing = _info(5, f"{repo}/docs/framework/beta/guides/other.md", bare.replace("retries.md", "gone.md"))
    assert copies.measure([guide, missing])[5].duplicate_of is None


def _profile_page(role: str, *, extra: str = "") -> str:
    """A manual page of our own for a tuning profile written for one role (``guest``, ``host``)."""
    return "\n".join(
        [
            f'.TH OURTUNE_PROFILES_EDGE_{role.upper()} "7" "01 Feb 2024" "ourtune"',
            ".SH NAME",
            f"ourtune\\-profiles\\-edge\\-{role} - the profile provided for the edge {role}",
            ".SH DESCRIPTION",
            f"The profile is provided for the edge {role}.",
            f'.BI "low\\-latency\\-{role}"',
            f"Profile optimised for edge {role}s based on the low latency profile.",
            "It pins interrupts to the housekeeping cores and disables timer migration.",
            extra or "It keeps the scheduler's tick off on the isolated cores.",
            ".SH SEE ALSO",
            f".BR ourtune\\-profiles\\-edge\\-{'host' if role == 'guest' else 'guest'} (7)",
        ]
    )


def test_two_pages_one_written_from_the_other_with_one_name_swapped_are_one_text():
    """Two manual pages of one folder whose names differ in one word and whose every line is the same once both
    words are masked in both (``swapped``: "for the edge guest" → "for the edge host", each one's see-also naming
    the other) are one text; the first by name is kept. Two calls of the template that differ in a line of more
    than the name stay apart, as do two pages whose names differ in two words."""
    man = "file:///usr/share/man/man7"
    guest = _info(1, f"{man}/ourtune-profiles-edge-guest.7.gz", _profile_page("guest"), kind="man")
    host = _info(2, f"{man}/ourtune-profiles-edge-host.7.gz", _profile_page("host"), kind="man")
    found = copies.measure([host, guest])
    assert found[2].duplicate_of == 1 and found[1].duplicate_of is None and found[2].signal == "swapped"
    other = _profile_page("host", extra="It raises the network queues' budget for packet forwarding.")
    said = _info(3, f"{man}/ourtune-profiles-edge-host.7.gz", other, kind="man")
    assert copies.measure([guest, said])[3].duplicate_of is None
    apart = _info(4, f"{man}/ourtune-profiles-core-host.7.gz", _profile_page("host"), kind="man")
    assert 4 not in copies.swapped([guest, apart])


def test_a_legacy_folder_is_past_beside_its_own_name_not_beside_another_kind():
    """``legacy`` also names a kind of thing that lives on (a legacy API, still documented): ``legacy-api/guide.md``
    beside ``rest-api/guide.md`` is the second API's guide, written from the same outline, not the first one's
    older state, and is no copy. A folder that is only the word (``legacy/``) or adds it to its sibling's name
    (``docs-legacy/`` beside ``docs/``) is the past state, as a state word in any name is (``deprecated-api/``)."""
    repo = "https://raw.githubusercontent.com/org/svc/1a2b3c4/docs"
    outline = _words("outline", 240)
    first = outline + "\n\n" + _words("restcalls", 300)
    second = outline + "\n\n" + _words("legacycalls", 280)
    apart = [
        _info(1, f"{repo}/legacy-api/guide.md", second, kind="markdown"),
        _info(2, f"{repo}/rest-api/guide.md", first, kind="markdown"),
    ]
    assert copies.past_folders(apart) == {}
    assert copies.measure(apart)[1].duplicate_of is None
    for old_folder, current_folder in (("legacy", "current"), ("docs-legacy", "docs"), ("deprecated-api", "rest-api")):
        infos = [
            _info(1, f"{repo}/{old_folder}/guide.md", second, kind="markdown"),
            _info(2, f"{repo}/{current_folder}/guide.md", first, kind="markdown"),
        ]
        assert [p[0] for p in copies.past_folders(infos)[1]] == [2], old_folder
        assert copies.measure(infos)[1].duplicate_of == 2, old_folder
    assert copies.past_of("legacy", "current") and copies.past_of("api_legacy", "api")
    assert not copies.past_of("legacy-api", "rest-api") and not copies.past_of("backup-tool", "restore-tool")


def test_one_release_s_notes_are_a_release_record_but_no_change_log():
    """A change log (``CHANGE_LOG_NAME``) lists every release newest first, and its first heading names the newest
    (``newest_release``); the preference keeps the one of two change logs whose newest release is later. A page of
    one release's notes (``releases/RELEASE.html``, ``release.html``, ``changelog-2.1.md``) is a record of releases
    too (``RELEASE_RECORD``: never one text's older state) but no change log: its heading names the one release it
    records, not how far a history reaches, and reads as no release. Both readings share one word list."""
    notes = "Release 1.3.0\n=============\n\n- the sort keeps equal keys in order\n"
    for page in ("https://h/o/p/1a2b3c4/docs/releases/RELEASE.html", "https://h/o/p/1a2b3c4/docs/changelog-1.3.md"):
        assert preference.RELEASE_RECORD.search(preference.url_path(page)), page
        assert preference.newest_release(page, notes) == (), page
    log = "https://h/o/p/1a2b3c4/docs/release-notes.md"
    assert preference.RELEASE_RECORD.search(preference.url_path(log))
    assert preference.newest_release(log, notes) == (1, 3, 0)
    assert copies.RELEASE_RECORD is preference.RELEASE_RECORD


def test_the_general_path_s_reach_reads_no_rule():
    """``benchmarks/vision_copies.general_reach``: how far shingles alone carry a labelled pair. The same text in
    two repositories' folders reaches the cut; a page one rule finds (a README's older state, rewritten but for a
    third: ``history``) does not; two pages of one folder whose containment passes the cut but whose Jaccard is
    under the sibling cut read 0 (the general path holds them apart as one template's pages)."""
    from benchmarks.vision_copies import general_reach

    base = "https://raw.githubusercontent.com/org"
    text = _words("kernel", 400)
    mirror = _info(1, f"{base}/a/1a2b3c4/docs/tiling.md", text, kind="markdown")
    kept = _info(2, f"{base}/b/5d6e7f8/notes/tiling.md", text, kind="markdown")
    assert general_reach(mirror, kept) >= copies.HIGH_REDUNDANCY
    older = _info(
        3, f"{base}/a/0a0a0a0/README.md", _words("kernel", 140) + "\n\n" + _words("old", 260), kind="markdown"
    )
    newer = _info(4, f"{base}/a/1a2b3c4/README.md", text, kind="markdown")
    assert general_reach(older, newer) < copies.HIGH_REDUNDANCY
    shared = _words("outline", 200)
    part = _info(5, f"{base}/a/1a2b3c4/docs/guide_linux.md", shared + "\n\n" + _words("linux", 120), kind="markdown")
    whole = _info(6, f"{base}/a/1a2b3c4/docs/guide_windows.md", shared + "\n\n" + _words("win", 400), kind="markdown")
    assert copies.siblings(part.url, whole.url)
    jaccard = part.text.minhash.jaccard(whole.text.minhash)
    assert jaccard < copies.SIBLING_JACCARD
    assert redundancy.containment(jaccard, part.text.size, whole.text.size) >= copies.HIGH_REDUNDANCY
    assert general_reach(part, whole) == 0.0


def test_the_general_path_s_column_counts_only_pairs_it_read():
    """``benchmarks/vision_copies.analyse`` counts a pair in the general path's column only where it read the two
    pages (``infos``, the copies stage's own run): a whole-scorer run (``--full``) reads none, and its table must not
    say shingles alone reach every pair. Where it reads them, a pair found under the cut is found only through a
    rule, and one at the cut is not."""
    from benchmarks.vision_copies import analyse
    from pipeline.vision.evaluate import Outcome
    from pipeline.vision.labelled import Label

    def label(path: str, dup_of: str = "") -> Label:
        return Label("gh:org/a", "a", "github", "", "1a2b3c4", path, "", "high", "high", "technical", dup_of, "")

    copy, keep = label("docs/old.md", "gh:org/a:docs/new.md"), label("docs/new.md")
    ids = {copy.key: 1, keep.key: 2}
    outcomes = {
        1: Outcome(1, 0.5, "high", 0.9, "high", 0.95, 2),
        2: Outcome(2, 0.5, "high", 0.9, "low", 0.0, None),
    }
    unread = analyse([copy, keep], ids, outcomes, False, {})["all|all"]
    assert unread["found"] == 1 and unread.get("general", 0) == 0 and unread.get("rule_only", 0) == 0
    base = "https://raw.githubusercontent.com/org/a/1a2b3c4/docs"
    text = _words("kernel", 400)
    rewritten = _words("kernel", 140) + "\n\n" + _words("old", 260)
    for copy_text, general, rule_only in ((text, 1, 0), (rewritten, 0, 1)):
        infos = {
            1: _info(1, f"{base}/old.md", copy_text, kind="markdown"),
            2: _info(2, f"{base}/new.md", text, kind="markdown"),
        }
        read = analyse([copy, keep], ids, outcomes, False, {}, infos)["all|all"]
        assert (read["found"], read["general"], read["rule_only"]) == (1, general, rule_only)


def _pair_header(key: str, value: str) -> str:
    """A header of our own written once per value type from one template (``tile_to_<value>.h``)."""
    guard = f"OURPOLY_{key.upper()}_TO_{value.upper()}_H"
    return "\n".join(
        [
            f"#ifndef {guard}",
            f"#define {guard}",
            "",
            f"#include <ourpoly/{key}.h>",
            f"#include <ourpoly/{value}.h>",
            "",
            f"#define OURPOLY_KEY ourpoly_{key}",
            f"#define OURPOLY_VAL ourpoly_{value}",
            f"#define OURPOLY_MAP_SUFFIX {key}_to_{value}",
            f"#define OURPOLY_MAP_TYPE {key}_to_{value}",
            "#include <ourpoly/maybe_templ.h>",
            "#include <ourpoly/hmap_templ.h>",
            "#undef OURPOLY_KEY",
            "#undef OURPOLY_VAL",
            "",
            "#endif",
        ]
    )


def _launch_header(cls: str, *, base_bit: int = 32, extra: str = "") -> str:
    """A launch-descriptor header of our own for one class number (``ourq<cls>desc.h``), its fields' bit ranges."""
    upper = cls.upper()
    return "\n".join(
        [
            f"#ifndef __OURQ{upper}DESC_H__",
            f"#define __OURQ{upper}DESC_H__",
            f"/* the launch descriptor of class OURQ{upper}, version two */",
            f"#define OURQ{upper}_DESC_OUTER_PUT                 MW(30:0)",
            f"#define OURQ{upper}_DESC_OUTER_GET                 MW({base_bit + 29}:{base_bit})",
            f"#define OURQ{upper}_DESC_INNER_GET                 MW(94:64)",
            f"#define OURQ{upper}_DESC_PROGRAM_OFFSET            MW(127:96)",
            f"#define OURQ{upper}_DESC_BARRIER_COUNT             MW(132:128)",
            f"#define OURQ{upper}_DESC_SHARED_MEMORY_SIZE        MW({extra or '149:133'})",
            f"#endif // __OURQ{upper}DESC_H__",
        ]
    )


def test_two_files_written_once_per_type_from_one_template_are_one_text():
    """Two files of one folder and extension whose every differing token is the other's with what differs
    between their names changed (``substituted``: ``tile_to_tile.h`` beside ``tile_to_warp_group.h``, the value
    type's name changed wherever it stands, the key's left; ``ourq3a0desc.h`` beside ``ourq4a0desc.h``, the class
    number changed in every field's name) are one text. The same template with another field's bit range, or a
    line of another wording, says something else and stays apart; so does a number changed on its own."""
    folder = "https://raw.githubusercontent.com/org/ourpoly/0a1b2c3/include/ourpoly"
    same = _info(1, f"{folder}/tile_to_tile.h", _pair_header("tile", "tile"), kind="code")
    other = _info(2, f"{folder}/tile_to_warp_group.h", _pair_header("tile", "warp_group"), kind="code")
    assert copies.substituted([same, other]) == {1: [2], 2: [1]}
    found = copies.measure([same, other])
    assert {(k, v.duplicate_of, v.signal) for k, v in found.items() if v.duplicate_of} in (
        {(1, 2, "substituted")},
        {(2, 1, "substituted")},
    )
    classes = "https://raw.githubusercontent.com/org/ourgpu/0a1b2c3/classes/compute"
    older = _info(3, f"{classes}/ourq3a0desc.h", _launch_header("3a0"), kind="code")
    newer = _info(4, f"{classes}/ourq4a0desc.h", _launch_header("4a0"), kind="code")
    assert copies.substituted([older, newer]) == {3: [4], 4: [3]}
    # the class number the names differ in is the case's, no version: the first by name (the one the others were
    # written from) is kept, whichever order they come in
    for pair in ([older, newer], [newer, older]):
        found = copies.measure(pair)
        assert (found[4].duplicate_of, found[4].signal, found[3].duplicate_of) == (3, "substituted", None)
    # one class whose descriptor moved a field says something else: its bit range is no name
    moved = _info(5, f"{classes}/ourq5a0desc.h", _launch_header("5a0", base_bit=40), kind="code")
    assert copies.substituted([older, moved]) == {}
    assert copies.measure([older, moved])[5].duplicate_of is None
    wider = _info(6, f"{classes}/ourq6a0desc.h", _launch_header("6a0", extra="151:133"), kind="code")
    assert copies.substituted([older, wider]) == {}
    # a number changed where the names' change stands in no name: "3" → "4" in a bit range is a value
    classes_change = copies.name_change("ourq3a0desc", "ourq4a0desc")
    assert not copies._explained("3", "4", classes_change)
    assert copies._explained("OURQ3A0_DESC", "OURQ4A0_DESC", classes_change)
    types_change = copies.name_change("tile_to_tile", "tile_to_warp_group")
    assert copies._explained("ourpoly_tile", "ourpoly_warp_group", types_change)
    assert not copies._explained("ourpoly_tiles", "ourpoly_warp_groups", types_change)
    assert copies.name_change("tile_to_tile", "tile_to_tile_ex") is None  # a word added: no change to read
    platforms = copies.name_change("oursurf_ios", "oursurf_macos")  # a word inside names in camel case
    assert copies._explained("OurIOSSurfaceInfo", "OurMacOSSurfaceInfo", platforms)
    assert not copies._explained("OurIOStream", "OurMacOStream", platforms)
    assert not copies._explained("bios", "bmacos", platforms)


def _example_makefile(example: str, libs: str = "-lourds") -> str:
    """A per-example makefile of our own (``Makefile.<example>``): a licence header of our own wording, the
    example's name and the shared rules it includes."""
    header = [
        "# Copyright (C) the ourds authors",
        "#",
        "# Permission is granted to use, copy and change this file for any purpose,",
        "# provided this notice is kept with every copy of it.",
        "#",
        "# This file is offered as is, without any warranty.",
    ]
    return "\n".join(
        [
            *header,
            "",
            f"EXAMPLE_NAME = {example}",
            "",
            "SOURCES = $(EXAMPLE_NAME).c",
            f"LIBS = {libs}",
            "",
            "include ../Makefile.examples.template",
        ]
    )


def test_makefiles_written_once_per_example_in_sibling_folders_are_copies():
    """copy35: files named by a template's stem and their case (``Makefile.<example>``, whose last "extension" is
    the example) are compared within one folder and across sibling folders: a makefile per example, the example's
    name changed and nothing else, is one text, even where one example's name has a word more (``add`` beside
    ``add_tail``). A makefile of a sibling folder that links another library says something of its own and stays
    apart; so does one of another place (another package's examples)."""
    examples = "file:///usr/share/doc/ourds-dev/examples"
    assert copies.case_name(f"{examples}/list/Makefile.our_list_add") == ("makefile", "our_list_add")
    assert copies.case_name(f"{examples}/list/Makefile") is None
    add = _info(1, f"{examples}/list/Makefile.our_list_add", _example_makefile("our_list_add"), kind="text")
    tail = _info(2, f"{examples}/list/Makefile.our_list_add_tail", _example_makefile("our_list_add_tail"), kind="text")
    hashed = _info(3, f"{examples}/hash/Makefile.our_hash_del", _example_makefile("our_hash_del"), kind="text")
    found = copies.substituted([add, tail, hashed])
    assert {k: sorted(v) for k, v in found.items()} == {1: [2, 3], 2: [1, 3], 3: [1, 2]}
    flagged = copies.measure([add, tail, hashed])
    assert sum(v.duplicate_of is not None for v in flagged.values()) == 2
    assert all(v.signal == "substituted" for v in flagged.values() if v.duplicate_of is not None)
    # a sibling folder's makefile that links another library: a line of its own, none allowed across folders
    stack = _info(4, f"{examples}/stack/Makefile.our_stack_push", _example_makefile("our_stack_push", "-lourds-lf"))
    assert copies.substituted([add, stack]) == {}
    # another package's examples are no sibling folder
    other = "file:///usr/share/doc/theirds-dev/examples/list/Makefile.our_list_del"
    assert copies.substituted([add, _info(5, other, _example_makefile("our_list_del"), kind="text")]) == {}
    # a changed line that names no example (another include) is the file's own, in one folder too
    own = _example_makefile("our_list_del").replace("../Makefile.examples.template", "../Makefile.other.template")
    assert copies.substituted([add, _info(6, f"{examples}/list/Makefile.our_list_del", own, kind="text")]) == {}


def _example_readme(example: str, channel: str, first: str = "") -> str:
    """A per-example README of our own, one per example folder (``<example>/README``): what the example shows,
    naming its channel, the example's files (named after the example) and how to run it."""
    return "\n".join(
        [
            first or f"This example shows the round-robin scheduling of our tasks through a {channel} channel.",
            "",
            "Files included in this example:",
            f"{example}.cpp",
            f"{example}.h",
            f"{example}_test.cpp",
            "run_design.tcl",
            "",
            "Running the design:",
            "ourtool -f run_design.tcl",
        ]
    )


def test_readmes_written_once_per_example_folder_are_copies_and_one_that_says_more_is_not():
    """copy36: files of one name in sibling folders (``merge_balance/README`` beside ``split_balance/README``)
    are one text where every line that differs is the other's with the folders' names changed (``merge`` →
    ``split`` in the sentence and in the files it lists): an example's page per folder, written once. A sibling
    folder's README that rewrites its sentence says something of its own (none is allowed across folders) and
    stays apart, as does one whose verb is its folder's word grown (no change within a word across folders); so
    does one of the examples' parent folder, and one of another repository."""
    channels = "https://raw.githubusercontent.com/org/ourhls/0a1b2c3/examples/channels"
    merge = _info(1, f"{channels}/merge_balance/README", _example_readme("merge_balance", "merge"), kind="text")
    split = _info(2, f"{channels}/split_balance/README", _example_readme("split_balance", "split"), kind="text")
    assert copies.substituted([merge, split]) == {1: [2], 2: [1]}
    found = copies.measure([merge, split])
    assert {(k, v.duplicate_of, v.signal) for k, v in found.items() if v.duplicate_of} in (
        {(1, 2, "substituted")},
        {(2, 1, "substituted")},
    )
    rewritten = "This example shows how the fan channel drops the tasks it cannot hold while the consumer is busy."
    fan = _info(3, f"{channels}/fan_balance/README", _example_readme("fan_balance", "fan", rewritten), kind="text")
    assert copies.substituted([merge, fan]) == {}
    # a sentence whose verb is the folder's word grown ("scans" beside "sorts") says what each example does
    scan = _info(
        6, f"{channels}/scan/README", _example_readme("scan", "scan", "The scan example scans a queue."), kind="text"
    )
    sort = _info(
        7, f"{channels}/sort/README", _example_readme("sort", "sort", "The sort example sorts a queue."), kind="text"
    )
    assert copies.substituted([scan, sort]) == {}
    parent = _info(4, f"{channels}/README", _example_readme("channels", "merge"), kind="text")
    assert copies.substituted([merge, parent]) == {}
    theirs = "https://raw.githubusercontent.com/org/theirhls/0a1b2c3/examples/channels/split_balance/README"
    assert copies.substituted([merge, _info(5, theirs, _example_readme("split_balance", "split"), kind="text")]) == {}


def _vector_page(width: int, *, converts: str = "", own: int = 0, rule: str = "keeps the sign") -> str:
    """A reference page of our own for one integer vector width (``ourvec<width>``): its header, one entry per
    call, each naming the type, and a line naming the types it converts from; ``own`` more lines of its own."""
    t = f"ourvec{width}"
    calls = ("copy", "zero", "one", "add", "adds", "sub", "subs", "mul", "scale", "maxv", "minv", "clamp", "abs")
    lines = [t, f"Header: ourlib/{t}.h", "Table of contents (click to go):", "Functions:"]
    lines += [f"our_{t}_{call}()" for call in calls]
    lines += [f"init {t} using {converts or 'the first lanes of a float vector'}", "Parameters:"]
    for call in calls:
        lines += [f"void our_{t}_{call}({t} a, {t} dest)", f"applies {call} to each lane of a and stores it in dest"]
    lines += [f"lane {i} of the result {rule} of the {call} call" for i, call in enumerate(calls[:own])]
    return "\n\n".join(lines)


def test_reference_pages_written_once_per_case_but_for_a_line_of_their_own_are_one_text():
    """copy34: two HTML reference pages of one folder written from one template per vector width (``ourvec2``,
    ``ourvec3``), the width changed in every name, are one text even where one line of the long page is its own
    (the types it converts from): a page may keep ``SUBSTITUTE_OWN_LINES`` of its lines (3%). Two such pages that
    differ in more lines than that, or a short page (under 34 lines) with a line of its own, stay apart, as two
    pages of one template that say different things do."""
    html = "file:///usr/share/doc/ourlib-doc/html"
    two = _info(1, f"{html}/ourvec2.html", _vector_page(2))
    three = _info(2, f"{html}/ourvec3.html", _vector_page(3, converts="ourvec2 or a float vector"))
    assert two.plain_lines == three.plain_lines >= 34  # an HTML page's lines are read as well
    assert copies.substituted([two, three]) == {1: [2], 2: [1]}
    found = copies.measure([three, two])
    assert (found[2].duplicate_of, found[2].signal, found[1].duplicate_of) == (1, "substituted", None)
    # two more lines of its own (3 of 47, where 3% is one): the page says something of its own
    four = _info(3, f"{html}/ourvec4.html", _vector_page(4, converts="ourvec3", own=2, rule="wraps on overflow"))
    five = _info(4, f"{html}/ourvec5.html", _vector_page(5, own=2))
    assert four.plain_lines == five.plain_lines == 47
    assert copies.substituted([four, five]) == {}
    assert copies.measure([four, five])[4].duplicate_of is None
    six = _info(5, f"{html}/ourvec6.html", _vector_page(6, own=2))
    assert copies.substituted([five, six]) == {4: [5], 5: [4]}
    # a short page with one line of its own stays apart: 3% of its lines is none
    short = "\n".join(f"line {i} of the ourtool_NAME page" for i in range(20))
    a = _info(6, f"{html}/ourtool_read.html", short.replace("NAME", "read"))
    b = _info(7, f"{html}/ourtool_write.html", short.replace("NAME", "write").replace("line 3 of", "the third of"))
    assert copies.substituted([a, b]) == {}
    c = _info(8, f"{html}/ourtool_send.html", short.replace("NAME", "send"))
    assert copies.substituted([a, c]) == {6: [8], 8: [6]}


def test_two_reference_pages_of_one_template_that_say_different_things_stay_apart():
    """Two written pages of one template whose names differ in one word but whose lines say other things (another
    default, another limit, beside the name) are pages of their own: a token the names do not explain stays."""
    docs = "https://raw.githubusercontent.com/org/ourgemm/0a1b2c3/docs/samples"

    def page(op: str, tile: int, stages: int, says: str = "") -> str:
        return "\n".join(
            [
                f"# The {op} sample",
                f"The {op} sample runs one {op} over a {tile}x{tile} tile per block.",
                f"It stages {stages} slices of each operand through shared memory.",
                says or "Each block writes its tile of the output once, after the last slice.",
                f"Run it with `ourgemm_{op} --m 4096 --n 4096 --k 4096`.",
                "The output prints the time and the throughput of each run.",
                "Pass `--check` to compare the result with the reference kernel.",
                "Pass `--iterations` to change how many runs are timed.",
                "The sample builds with the rest of the library.",
            ]
        )

    gemm = _info(1, f"{docs}/sample_gemm.md", page("gemm", 128, 3), kind="markdown")
    own = "The filter is unrolled into columns in registers, so no image tile is written back to global memory."
    conv = _info(2, f"{docs}/sample_conv.md", page("conv", 64, 4, own), kind="markdown")
    assert copies.substituted([gemm, conv]) == {}
    assert copies.measure([gemm, conv])[2].duplicate_of is None
    twin = _info(3, f"{docs}/sample_syrk.md", page("syrk", 128, 3), kind="markdown")
    assert copies.substituted([gemm, twin]) == {1: [3], 3: [1]}


def test_a_model_file_whose_term_coef_does_not_fit_its_vocabulary_or_classes_is_refused_in_one_line():
    # review28: the type model's term rows are checked when the file is read, not at the first page typed
    from pipeline.vision.value_model import VisionModel, Words

    raw = load_model().raw
    rows, classes = raw["doctype"]["term_coef"], raw["doctype"]["classes"]

    def with_doctype(**doctype) -> dict:
        return {**raw, "doctype": {**raw["doctype"], **doctype}}

    short_row = [rows[0][:-1], *rows[1:]]
    empty = {
        "vocabulary": [],
        "idf": [],
        "topic": {"coef": [], "intercept": 0.0},
        "value": {"coef": [], "intercept": 0.0},
    }
    no_terms = {k: v for k, v in raw["doctype"].items() if k != "term_coef"}
    for broken in (
        with_doctype(term_coef=rows[:-1]),
        with_doctype(term_coef=short_row),
        {**raw, "terms": empty, "doctype": no_terms},
    ):
        with pytest.raises(DataError, match="term_coef") as refused:
            VisionModel(broken, "our.json")
        assert "\n" not in str(refused.value) and str(refused.value).startswith("our.json: ")
    # an empty vocabulary with its (empty) term rows is a model that types by the form alone
    model = VisionModel({**raw, "terms": empty, "doctype": {**raw["doctype"], "term_coef": []}}, "our.json")
    structure = dict.fromkeys(raw["doctype"]["features"], 0.0)
    assert model.doc_type(structure, Words((), ()))[0] in classes
    # a file from before phase 27 (no "reads", no term_coef) types by the form alone, whatever the words
    before = {k: v for k, v in no_terms.items() if k != "reads"}
    old = VisionModel({**raw, "doctype": before}, "our.json")
    words = old.words([old.vocabulary[0], old.vocabulary[1]])
    assert words.indices and old.doc_type(structure, words) == old.doc_type(structure, Words((), ()))
    assert old.doc_type(structure, words) != load_model().doc_type(structure, words)


def test_identifier_words_on_dunders_stray_underscores_and_numbers():
    # review28: what identifier_words makes of the underscores a text writes that join no words
    from pipeline.vision.reading import identifier_words

    written = analysis.written("__init__ _ __ a__b x86_64 sm_90 _tile_ our__shared___memory 2_4 plain words")
    assert identifier_words(written) == ["init", "", "x86", "", "sm", "", "tile", "", "our", "shared", "memory", ""]
    assert identifier_words(analysis.written("no identifiers here, only words")) == []
    # a word the tokenizer splits at other characters is no identifier: a dotted or hyphenated name stays apart
    assert identifier_words(analysis.written("shared.memory shared-memory")) == []


def _header(fields: list[str], prefix: str) -> str:
    lines = ["/* generated file: do not edit */", f"#ifndef {prefix}_H", f"#define {prefix}_H"]
    lines += [f"#define {prefix}_{field:<40} MW({32 * n + 31}:{32 * n})" for n, field in enumerate(fields)]
    return "\n".join([*lines, "#endif"])


def test_a_headers_macros_are_read_in_the_words_they_join():
    # phase 27 (rel29): a launch descriptor's header is macros only, each field's name its words joined by
    # underscores; the tokenizer keeps every macro whole, so the profile found nothing in it (evidence 0 before)
    launch = _header(
        [
            "CTA_RASTER_WIDTH",
            "CTA_THREAD_DIMENSION0",
            "SHARED_MEMORY_SIZE",
            "REGISTER_COUNT",
            "BARRIER_COUNT",
            "MIN_SM_CONFIG_SHARED_MEM_SIZE",
            "TARGET_SM_CONFIG_SHARED_MEM_SIZE",
            "OCCUPANCY_THRESHOLD_WARP",
            "L1_CONFIGURATION",
            "CONSTANT_BUFFER_VALID",
        ],
        "OURQ_LAUNCHV03",
    )
    assert _evidence(launch).score > 0.2
    # a window system's header names another subject in the same way: its words find nothing of the field
    window = _header(
        ["SURFACE_CREATE_INFO", "WINDOW_HANDLE", "DISPLAY_CONNECTION", "VISUAL_ID", "PRESENT_MODE", "SPEC_VERSION"],
        "OUR_XWIN_SURFACE",
    )
    assert _evidence(window).score == 0
    # one identifier's words make a phrase, two identifiers side by side do not ("..._SHARED MEMORY_...")
    apart = "\n".join(f"set OURQ_{n}_SHARED MEMORY_{n}_SIZE before the call" for n in range(8))
    joined = "\n".join(f"set OURQ_{n}_SHARED_MEMORY_SIZE before the call" for n in range(8))
    assert _evidence(apart).score < _evidence(joined).score
    assert "shared memory" not in [m["term"] for m in _evidence(apart).matched]


def test_an_identifier_the_profile_names_whole_is_not_read_again_in_its_parts():
    # review28: a term the profile writes with underscores (a CUDA builtin, a Triton launch setting) is counted whole
    # by the phrase pass; its parts are no second reading of the same word ("__syncthreads" is not also
    # "syncthreads", "num_warps" not also "warp")
    once = _evidence("Each block calls __syncthreads() after the loads; set num_warps and block_size in the config.")
    matched = {m["term"]: m["count"] for m in once.matched}
    assert {"__syncthreads", "num_warps", "block_size"} <= matched.keys()
    assert not {"syncthreads", "warp", "block size"} & matched.keys(), matched
    # an identifier the profile does not name whole is still read in its words
    inside = _evidence("Each block calls our_syncthreads_wrapper() after the loads; set our_num_warps in the config.")
    assert {"syncthreads", "warp"} <= {m["term"] for m in inside.matched}


def test_a_gpus_programming_interface_at_register_level_is_the_field_an_os_device_drivers_is_not():
    # phase 27 (rel29): a GPU hardware manual's words for how work reaches the GPU (push buffers, their command
    # stream, subchannels, the launch descriptor, copy engines, VRAM and its partitions) are the driver interface
    # domain's; a network card's driver says MMIO, DMA descriptors, a ring buffer and interrupts, every device's
    gpu = _evidence(
        "Work reaches the GPU through push buffers. The driver writes methods into a push buffer, and the host "
        "reads the command stream and hands each method to the subchannel an engine's class is bound to. The copy "
        "engine moves data between VRAM and system memory, and every memory partition has its own memory "
        "controller. A compute launch reads its descriptor, the queue meta data, for the grid's dimensions."
    )
    nic = _evidence(
        "Work reaches the network card through its registers. The driver maps the registers with MMIO and writes "
        "DMA descriptors into a ring buffer, and the device reads each descriptor and raises an interrupt when a "
        "packet is sent. A semaphore guards the queue, and the page table maps every buffer the card reads."
    )
    assert gpu.domain == "driver_interface"
    assert gpu.score > 0.4  # 0 before phase 27: only "GPU" and "stream", [general] words
    assert nic.score < 0.05


def test_a_page_in_another_fields_words_only_keeps_less_of_the_learned_probability():
    # phase 27 (rel29): the learned model reads a video codec's header or a window system's as the GPU API beside it;
    # a page whose profile words are all another field's (video coding, rendering) and none the field's own keeps
    # less of the learned topic probability; one field term of its own and it keeps the share its evidence gives it
    codec = _evidence(
        "The encoder writes every slice of an H264 stream with its level, and the HEVC decoder reads the parameter "
        "sets of each frame; video decoding runs on the GPU while the AV1 encoder waits."
    )
    kernel = _evidence(
        "The encoder writes every slice of an H264 stream with its level, and the kernel keeps each frame in shared "
        "memory; a warp decodes one block while the tensor cores wait."
    )
    assert codec.score == 0 and codec.foreign > 0.1 and kernel.foreign == 0
    assert topic.learned_share(codec) < 0.5 * topic.LEARNED_FLOOR  # the floor, 0.7, before phase 27
    assert topic.learned_share(kernel) >= topic.LEARNED_FLOOR


def test_the_relevance_shown_names_the_share_a_foreign_page_keeps(tmp_path):
    # review28: the learned share is three weights' product since phase 27; the scored components show each of them
    codec_text = (
        "# Our codec notes\n\nThe encoder writes every slice of an H264 stream with its level, and the HEVC decoder "
        "reads the parameter sets of each frame; video decoding runs on the GPU while the AV1 encoder waits.\n"
    )
    kernel_text = (
        "# Our kernel notes\n\nThe kernel keeps each tile in shared memory; a warp reads one row of the tile while "
        "the tensor cores multiply the previous one, and the occupancy stays at two blocks per SM.\n"
    )
    db = open_db(tmp_path / "shijie.db")
    _store(db, "https://example.org/docs/codec", codec_text)
    _store(db, "https://example.org/docs/kernel", kernel_text)
    shown = {s.url.rsplit("/", 1)[1]: s.components["relevance"] for s in score_corpus(db)}
    codec, kernel = shown["codec"], shown["kernel"]
    assert 0 < codec["learned_foreign_weight"] < 0.9 and codec["profile_score"] == 0  # video coding's words only
    assert kernel["learned_foreign_weight"] == 1.0


def test_a_raster_order_is_no_rasterization():
    # phase 27 (rel29): "raster" shares its stem with rasterization, rendering's word against the field; a grid walked
    # in raster order (a CTA raster, a launch descriptor's raster width) is the field's, rasterizing triangles is not
    grid = _evidence(
        "Thread blocks are launched in raster order: the CTA raster walks the grid row by row, so neighbouring "
        "blocks share their tiles in the L2 cache; the raster width sets how many blocks a row holds."
    )
    drawing = _evidence(
        "The rasterizer turns each triangle into fragments; rasterization runs after the vertex shader."
    )
    assert not {"rasterization", "rasterizer"} & {m["term"] for m in grid.matched}  # both matched before phase 27
    assert {"rasterization", "rasterizer"} <= {m["term"] for m in drawing.matched}


def test_a_gpu_execution_apis_queues_and_command_buffers_are_the_field_a_task_queues_are_not():
    # phase 29 (rel32): a GPU execution API's reference in its own words (command buffers recorded and submitted to a
    # queue of a compute queue family, a timeline semaphore, device memory from a heap, a dispatch) is the driver
    # interface domain's, signatures included; a job queue's submit and a network buffer are other senses
    api = _evidence(
        "Each worker records a command buffer from its command pool and ends it with vkCmdDispatch; the queue "
        "submission hands it to a queue of the compute queue family, and a timeline semaphore tells the transfer "
        "queue when the storage buffer is ready. Memory comes from a memory heap through vkAllocateMemory."
    )
    signatures = _evidence(
        "our_queue_submit (OurQueue *self, OurCmdBuffer *cmd_buffer);\n"
        "our_queue_request_cmd_buffer (OurQueue *self);\n"
        "our_queue_free_cmd_buffer (OurQueue *self, OurCmdBuffer *cmd_buffer);\n"
        "our_device_get_compute_queue (OurDevice *self);"
    )
    jobs = _evidence(
        "Each worker takes a job from the task queue; submit adds a job to the queue, and the broker keeps every "
        "message in a buffer until the consumer reads it. The socket's send buffer fills when the network is slow."
    )
    drawing = _evidence(
        "The renderer records the render pass into a command buffer each frame, binds the vertex buffer and the "
        "fragment shader, and presents the framebuffer through the swapchain."
    )
    assert api.domain == "driver_interface" and api.score > 0.4  # 0.0 before
    assert signatures.score > 0.15  # 0.0 before: the identifiers read as words no term named
    assert jobs.score < 0.05
    assert drawing.score < 0.05  # rendering's words still count against the command buffer


def test_memory_ordering_and_synthesis_pragmas_are_the_field_a_databases_atomics_and_a_meshs_vertices_are_not():
    # phase 30 (rel33): a CPU concurrency library's fences (a load fence, a compiler barrier, acquire and release, the
    # store order of a memory model, fetch-and-add, wait-free queues) and an FPGA synthesis note's pragmas (a loop
    # pipelined to an initiation interval of one, its arrays partitioned) are the field's ideas in a CPU's or an
    # FPGA's words; a database's atomic commit and its locks, an OS kernel's spinlock, a video's HLS stream and a mesh
    # library's meshlets and vertex cache are other subjects
    fences = _evidence(
        "Our load fence orders every load before it against every load after it. Under total store order it is only "
        "a compiler barrier; elsewhere the fence instruction is emitted. Use acquire semantics on the reader and "
        "release semantics on the writer, and fetch-and-add the counter of the wait-free queue."
    )
    synthesis = _evidence(
        "The inner loop is pipelined with #pragma HLS pipeline II=1: loop pipelining reaches an initiation interval "
        "of one once the operand arrays are split by array partitioning into banks, and high-level synthesis turns "
        "the loop into the FPGA's datapath."
    )
    database = _evidence(
        "Each transaction commits atomically: the database writes its journal, takes the lock on every page it "
        "changes and releases the locks after the commit, so a reader sees the whole update or none of it."
    )
    spinlock = _evidence(
        "The spinlock disables interrupts on this CPU and spins until the lock is free; the mutex sleeps instead."
    )
    video = _evidence(
        "The player fetches the HLS playlist, then each video segment at the bitrate the network allows; the m3u8 "
        "file lists the segments of the live stream."
    )
    mesh = _evidence(
        "The library reorders the triangles for the vertex cache, builds meshlets for mesh shading and keeps the "
        "overdraw low; its SIMD decoder unpacks the vertex stream with SSE."
    )
    assert fences.domain == "parallel_computing" and fences.score > 0.3  # 0.0 before: atomics and barriers confirm
    assert synthesis.score > 0.3  # 0.0 before: pipelining and unrolling only confirm
    assert database.score < 0.05
    assert spinlock.score < 0.05
    assert video.score < 0.05
    assert mesh.score < 0.05  # 0.07 before: the SIMD words alone


def _call_page(name: str, parameters: list[str], extra: list[str] = ()) -> str:
    """A manual page of our own, as the crawler stores it rendered, for one call of an I/O queue library."""
    synopsis = [f"void {name}(struct ourq_entry *entry,", *[f"{p}," for p in parameters[:-1]], f"{parameters[-1]});"]
    return "\n".join(
        [
            "NAME",
            f"{name} - prepare a queued transfer request",
            "",
            "SYNOPSIS",
            "#include <ourq.h>",
            *synopsis,
            "",
            "DESCRIPTION",
            f"The {name}(3) function prepares a queued transfer request. The queue entry entry is set up to use the",
            "descriptor fd and to move len bytes of the buffer buf at the given offset once the queue is submitted.",
            "The entry is owned by the queue until its completion is reaped, and the buffer must stay valid until",
            "then: the transfer may start at any time after submission and reads or writes it asynchronously.",
            *extra,
            "This function prepares an asynchronous transfer request. See the queue overview for details.",
            "",
            "RETURN VALUE",
            "None. The completion's result holds the number of bytes moved, or a negative error number.",
            "",
            "EXAMPLE",
            f"ret = {name}(entry, fd, buf, len);",
            "",
            "SEE ALSO",
            "ourq_get_entry(3), ourq_submit(3), ourq_wait_completion(3)",
        ]
    )


def test_pages_of_one_template_whose_synopses_declare_other_calls_are_pages_of_their_own():
    """Two manual pages of one folder written from one template are copies when one is the other with the name
    changed; where the synopsis of one declares a call with other parameters (``send2`` takes ``int flags`` more
    and says which flags), each documents its own call, however many sentences they share (``other_calls``). A
    call in an example (``ret = f(a, b);``) declares nothing."""
    man = "file:///usr/share/man/man3"
    base = ["int fd", "const void *buf", "size_t len", "off_t offset"]
    flags = [
        "Supported values for flags are:",
        "OURQ_HIPRI",
        "High priority request, poll the device if possible",
        "OURQ_APPEND",
        "Append the data at the end of the file whatever the offset says",
    ]
    send = _info(1, f"{man}/ourq_prep_send.3", _call_page("ourq_prep_send", base), kind="man")
    send2 = _info(2, f"{man}/ourq_prep_send2.3", _call_page("ourq_prep_send2", [*base, "int flags"], flags), kind="man")
    assert copies.declared_calls(send) == (
        tuple("void ( struct ourq_entry * entry , int fd , const void * buf , size_t len , off_t offset )".split()),
    )
    cache: dict = {}
    assert copies.other_calls(send, send2, cache) and copies.other_calls(send2, send, cache)
    found = copies.measure([send, send2])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    # the same page under another call's name, its parameters the same: one template's copy, as before
    again = _info(3, f"{man}/ourq_prep_push.3", _call_page("ourq_prep_push", base), kind="man")
    assert not copies.other_calls(send, again, cache)
    found = copies.measure([send, again])
    assert found[3].duplicate_of == 1 and found[1].duplicate_of is None
    # a qualifier the name's change does not explain is another call (``const`` on the buffer)
    plain = _info(4, f"{man}/ourq_prep_pull.3", _call_page("ourq_prep_pull", ["int fd", "void *buf", *base[2:]]))
    assert copies.other_calls(again, plain, cache)


def _gemm_sample(letter: str, ctype: str) -> str:
    """A GEMM sample of our own written for one precision: the element type on every buffer and the routine's
    precision letter (``ourblasSgemm``, ``ourblasHgemm``), the rest the same."""
    lines = ["// Multiplies two matrices on the device and checks the product against a loop on the host."]
    lines += ['#include "ourblas.h"', "#include <vector>", "", "int main()", "{"]
    lines += [f"    {ctype} alpha = 1.1, beta = 0.9;", f'    std::puts("{letter}gemm sample");']
    lines += [f"    std::vector<{ctype}> h{x}(size_{x});" for x in "abc"]
    lines += [f"    {ctype} *d{x};" for x in "abc"]
    lines += [f"    ourMalloc(&d{x}, size_{x} * sizeof({ctype}));" for x in "abc"]
    for k in range(20):
        lines.append(f"    fill{k}(h{'abc'[k % 3]}.data(), rows{k}, cols{k}, seed{k});")
    lines.append(
        f"    ourblas{letter.upper()}gemm(handle, transa, transb, m, n, k, &alpha, da, lda, db, ldb, &beta, dc, ldc);"
    )
    lines += [f"    check{k}(hc.data(), gold{k}, tolerance{k});" for k in range(10)]
    return "\n".join([*lines, "    return 0;", "}"])


def test_one_sample_per_precision_named_by_blas_letters_is_one_program():
    """copy39: a BLAS library's GEMM sample in single and in half precision (``example_sgemm.cpp``,
    ``example_hgemm.cpp``): the element type on every buffer, the routine's precision letter in its call. The
    names say the precision by BLAS's letter before the routine's name, not by a part of their own, so only where a
    sibling's name differs in that letter alone is it read so (``letter_parts``); neither is double, and the
    single-precision one is kept (the nearest double, ``dzsctbhe``). A sample whose name only starts with such a
    letter (``example_scale.cpp``) reads no precision."""
    folder = "https://raw.githubusercontent.com/org/ourblas/abc1234/clients/samples"
    files = {
        1: f"{folder}/example_hgemm.cpp",
        2: f"{folder}/example_sgemm.cpp",
        3: f"{folder}/example_scale.cpp",
    }
    texts = {1: _gemm_sample("h", "_Float16"), 2: _gemm_sample("s", "float"), 3: _gemm_sample("s", "float")}
    texts[3] = texts[3].replace("fill", "scale_by")
    counts = copies.LineCounts()
    for n, url in files.items():
        counts.add(copies_line_hashes(texts[n]), url)
    infos = [_info(n, url, texts[n], kind="text", counts=counts) for n, url in files.items()]
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[2].duplicate_of is None and found[3].duplicate_of is None
    assert copies.precision_families(infos) == {1: (2, pytest.approx(0.95, abs=0.05)), 2: (2, 1.0)}
    assert infos[2].typeless is None  # no precision read: its lines are not read for one
    assert copies.letter_parts(files[2]) == [(f"{folder}/example_?gemm.cpp", "s")]
    assert counts.letter_family(files[1]) and counts.letter_family(files[2]) and not counts.letter_family(files[3])
    alone = copies.LineCounts()  # without its sibling the half sample's name names no precision
    alone.add(copies_line_hashes(texts[1]), files[1])
    assert not alone.letter_family(files[1])


def _object_header(verb: str, obj: str, width: int = 78, own: str = "") -> str:
    """A header of our own per object of a solver (``oursolve_free_numeric.h``): a banner ruled to one width, the
    prototypes per index type, a usage note; the object's name changed on every line that names it."""
    title = f"/* === oursolve_{verb}_{obj} "
    lines = [title + "=" * (width - len(title) - 3) + " */", "", f"#ifndef OURSOLVE_{verb.upper()}_{obj.upper()}_H"]
    for index in ("di", "dl", "zi", "zl"):
        lines += [f"void oursolve_{index}_{verb}_{obj}", "(", f"    void **{obj.capitalize()}", ") ;", ""]
    for index in ("di", "dl", "zi", "zl"):
        lines += [f"    void *{obj.capitalize()} ;", f"    oursolve_{index}_{verb}_{obj} (&{obj.capitalize()}) ;"]
    lines += [
        f"    Releases the {obj.capitalize()} object and sets its handle to NULL; nothing else may release it.",
        f"    void **{obj.capitalize()} ;    Input argument, NULL on output.",
        own or f"    {obj.capitalize()} is an object made by oursolve_*_{obj}; a NULL one is left as it is.",
    ]
    lines += [
        f"    Note {k}: the {obj.capitalize()} object keeps its workspace {k} until it is released." for k in range(20)
    ]
    return "\n".join([*lines, "#endif"])


def test_two_headers_of_one_template_keep_the_one_the_umbrella_header_includes_first():
    """copy39: a sparse solver's header per factorisation object (``oursolve_free_numeric.h`` beside
    ``oursolve_free_symbolic.h``): the object's name changed on every line, the banner's ruler as much shorter as
    the name is longer (its length is no word), one sentence worded apart. One template (LABELS.md), and of two
    pages none newer or fuller, the one the source lists first is kept: the library's umbrella header includes the
    symbolic object's header first. Without the umbrella the preference decides as before."""
    folder = "file:///usr/include/oursolve"
    numeric = _info(1, f"{folder}/oursolve_free_numeric.h", _object_header("free", "numeric"), kind="code")
    symbolic = _info(
        2,
        f"{folder}/oursolve_free_symbolic.h",
        _object_header("free", "symbolic", own="    Points to a Symbolic object made by oursolve_*_symbolic, or NULL."),
        kind="code",
    )
    assert copies.substituted([numeric, symbolic]) == {1: [2], 2: [1]}
    umbrella_text = "\n".join(
        ["/* oursolve: the solver's one header */", '#include "oursolve_config.h"']
        + [f'#include "oursolve_{verb}_{obj}.h"' for verb in ("free", "save") for obj in ("symbolic", "numeric")]
    )
    umbrella = _info(3, f"{folder}/oursolve.h", umbrella_text, kind="code")
    for order in ([numeric, symbolic, umbrella], [umbrella, symbolic, numeric]):
        found = copies.measure(order)
        assert (found[1].duplicate_of, found[2].duplicate_of) == (2, None)
        assert found[1].because["from"] == "include order"
    assert copies.listed_first(symbolic, numeric, [numeric, symbolic, umbrella], {}) == 1
    assert copies.listed_first(symbolic, numeric, [numeric, symbolic], {}) == 0
    # a ruler's length alone is no line of its own; a word in it is
    assert copies._substitutes("/* === a ====== */", "/* === b ===== */", (frozenset({("a", "b")}), ()), {}, {})
    assert not copies._substitutes("/* === a ====== */", "/* === b ==-== */", (frozenset({("a", "b")}), ()), {}, {})


def test_two_classes_generated_member_lists_are_pages_of_their_own():
    """copy39: a documentation generator's member list of a class beside its derived class's (``…module-members.html``,
    ``…module__ext-members.html``): the derived list holds every inherited member and a few of its own, nearly all
    of the other's text, yet documents another class. One class's list at two versions stays one page."""
    html = "file:///usr/share/doc/ourmod-doc/html"
    members = [f"set_option_{k}(const std::string &value) ourmod::module" for k in range(40)]

    def page(cls: str, extra: list[str]) -> str:
        head = [
            f"ourmod::{cls} Member List",
            f"This is the complete list of members for ourmod::{cls}, including all inherited members.",
        ]
        return "\n\n".join([*head, *members, *extra])

    base = _info(1, f"{html}/classourmod_1_1module-members.html", page("module", []))
    derived = _info(
        2,
        f"{html}/classourmod_1_1module__ext-members.html",
        page("module_ext", ["get_interface(const std::string &id) ourmod::module_ext"]),
    )
    found = copies.measure([base, derived])
    assert found[1].duplicate_of is None and found[2].duplicate_of is None
    assert copies.member_lists(derived.url, base.url) and not copies.member_lists(base.url, base.url)
    newer = "file:///usr/share/doc/ourmod-doc-2/html/classourmod_1_1module-members.html"
    assert not copies.member_lists(newer, base.url)


def test_a_proof_vms_memory_consistency_and_a_terminals_warp_are_not_the_fields():
    # phase 31 (rel34): "Triton", "memory consistency", "accumulator" and "warp" are the field's words (a Triton
    # kernel, a GPU's memory model, an MMA's fp32 accumulator, a warp's lanes), and also a zero-knowledge virtual
    # machine's (its RAM table proved consistent by a permutation argument over the execution trace, its running
    # accumulators), and a terminal app's name: the page's other words tell which
    gpu_model = _evidence(
        "The GPU memory model gives memory consistency between threads: a store before a release fence is seen by a "
        "load after an acquire, and the cache of each SM is coherent only at those points."
    )
    triton_kernel = _evidence(
        "The Triton kernel loads a tile with tl.load, multiplies it with tl.dot into an fp32 accumulator and writes "
        "it back with tl.store; triton.jit compiles it for the GPU with num_warps = 4, and each warp owns 32 lanes."
    )
    proof_vm = _evidence(
        "Triton VM is a zero-knowledge virtual machine: the prover runs the program, records its execution trace and "
        "proves memory consistency of the RAM table with a permutation argument and a lookup argument. Each "
        "accumulator column sums the rows as a polynomial over a field element, so the STARK proof stays short."
    )
    terminal = _evidence(
        "Warp is a terminal app with a built-in coding agent. Open a tab, run a shell command, and let the agent "
        "explain the output; join the Warp Slack community to ask how to contribute to Warp."
    )
    assert gpu_model.senses["memory consistency"] > 0.8 and gpu_model.score > 0.1
    assert triton_kernel.senses["triton"] > 0.8 and triton_kernel.senses["warp"] > 0.8
    assert triton_kernel.senses["accumulator"] > 0.8 and triton_kernel.score > 0.5
    assert proof_vm.senses["triton"] < 0.3 and proof_vm.senses["memory consistency"] < 0.3
    assert proof_vm.senses["accumulator"] < 0.3 and terminal.senses["warp"] < 0.3
    for trap in (proof_vm, terminal):
        assert trap.score < 0.02
        assert topic.learned_share(trap) < 0.5 * topic.LEARNED_FLOOR  # the floor, 0.7, before phase 31


def test_the_value_reads_the_share_of_a_samples_lines_that_run_on_the_device_and_the_type_model_does_not():
    from pipeline.vision import signals
    from shijie.explain import feature_words

    # a sample that teaches overlap: its kernel, and the streams and asynchronous copies around it
    sample = [
        "// each stream copies its part in, runs the kernel on it and copies it back while the next part copies in",
        "__global__ void scale(float* a, int offset) {",
        "  int i = offset + blockIdx.x * blockDim.x + threadIdx.x;",
        "  a[i] = a[i] * 2.0f;",
        "}",
        "int main() {",
        "  cudaStream_t stream[4];",
        "  for (int i = 0; i < 4; ++i) cudaStreamCreate(&stream[i]);",
        "  for (int i = 0; i < 4; ++i) {",
        "    cudaMemcpyAsync(&d[i * n], &h[i * n], part, cudaMemcpyHostToDevice, stream[i]);",
        "    scale<<<n / 256, 256, 0, stream[i]>>>(d, i * n);",
        "  }",
        "}",
    ]
    # the helper of the same sample: it parses the arguments, allocates, copies, times and prints
    helper = [
        "int main(int argc, char** argv) {",
        "  int n = argc > 1 ? atoi(argv[1]) : 1024;",
        "  cudaMalloc(&d, n * sizeof(float));",
        "  cudaEventRecord(start); run(d, n); cudaEventRecord(stop);",
        '  printf("%d elements: %f ms\\n", n, ms);',
        "}",
    ]
    # the same kernel in CUDA Fortran, a device variable, an OpenACC loop and a Triton kernel: device code each
    fortran = [
        "attributes(global) subroutine scale(a, offset)",
        "  i = offset + threadIdx%x + blockDim%x * (blockIdx%x - 1)",
        "  a(i) = a(i) * 2.0",
        "end subroutine scale",
        "program main",
        "  print *, 'done'",
        "end program main",
    ]
    directive = [
        "__device__ float bias;",
        "#pragma acc parallel loop",
        "for (i = 0; i < n; i++)",
        "  a[i] = 0;",
        "b = a;",
    ]
    triton = ["@triton.jit", "def add(x, n):", "    tl.store(x, 1)", "", "def main():", "    add[(1,)](x, 1)"]
    prose = "A kernel marked __global__ runs on the device, and the host launches it."

    def share(lines: list[str] | str) -> float:
        text = lines if isinstance(lines, str) else "\n".join(lines)
        return signals.read("t", text, [], [], len(text.split()), {}, {}).features()["device_code"]

    assert share(sample) == pytest.approx(4 / 13)  # the kernel's four lines of thirteen
    assert share(helper) == 0.0  # the helper runs nothing on the device
    assert share(fortran) == pytest.approx(4 / 7)  # to its "end subroutine"
    assert share(directive) == pytest.approx(4 / 5)  # the variable, and the directive to its loop's statement
    assert share(triton) == pytest.approx(3 / 5)  # the decorated function, not the one after it
    assert share(prose) == 0.0  # a name in prose opens nothing
    assert "device_code" in signals.VALUE_ONLY  # the value reads it; the type model keeps its inputs
    assert signals.VALUE_ONLY.isdisjoint(load_model().doctype["features"])
    assert feature_words("device_code", "en") != "device_code" and feature_words("device_code", "zh") != "device_code"


def _dot_program(language: str, pragma: str) -> str:
    """A short program of our own, a dot product offloaded with one directive, in C or in Fortran."""
    if language == "c":
        return "\n".join(
            [
                "#include <stdio.h>",
                "#define LENGTH 4096",
                "int main(void)",
                "{",
                "  double left[LENGTH], right[LENGTH], product[LENGTH];",
                "  /* fill the operands */",
                "  for (int k = 0; k < LENGTH; k++) { left[k] = 0.5 * k; right[k] = 2.0; }",
                f"  #pragma omp {pragma}",
                "  for (int k = 0; k < LENGTH; k++) product[k] = left[k] * right[k];",
                "  double total = 0.0;",
                "  for (int k = 0; k < LENGTH; k++) total += product[k];",
                '  printf("dot total %f\\n", total);',
                "  return 0;",
                "}",
            ]
        )
    return "\n".join(
        [
            "program dot",
            "  implicit none",
            "  integer, parameter :: length = 4096",
            "  real, dimension(length) :: left, right, product",
            "  real :: total",
            "  integer :: k",
            "  ! fill the operands",
            "  do k = 1, length",
            "     left(k) = 0.5 * k",
            "     right(k) = 2.0",
            "  end do",
            f"  !$omp {pragma.replace('for', 'do')}",
            "  do k = 1, length",
            "     product(k) = left(k) * right(k)",
            "  end do",
            "  total = sum(product)",
            "  write(*,*) 'dot total', total",
            "end program dot",
        ]
    )


def test_a_short_program_beside_its_fortran_form_under_one_name_is_one_program():
    """A course's example written in C and in Fortran under one name (``dot.c``, ``dot.f90``): a short program
    has few name words, and each language spends half of them on its own keywords (``int``, ``void``;
    ``integer``, ``implicit``). Its own words once those go (its variables, calls and messages) are one
    program's, so the C form is kept; two programs of one language, or under two names, stay apart."""
    folder = "https://raw.githubusercontent.com/org/offload-course/abc1234/examples"
    files = {
        1: (f"{folder}/dot.c", _dot_program("c", "target")),
        2: (f"{folder}/dot.f90", _dot_program("f", "target")),
        3: (f"{folder}/axpy.f90", _words("axpy", 30)),
    }
    infos = [_info(n, url, text, kind="text") for n, (url, text) in files.items()]
    a, b = infos[0].names, infos[1].names
    assert a is not None and b is not None  # all their words: under the share that says one program
    assert len(np.intersect1d(a, b)) / min(len(a), len(b)) < copies.PROGRAM_NAMES
    forms = copies.program_forms(infos)
    assert [(o, kept) for o, _, kept, _ in forms[2]] == [(1, True)]
    assert 3 not in forms
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[2].because["rule"] == "program"
    assert found[1].duplicate_of is None and found[3].duplicate_of is None


def test_a_program_in_a_solution_folder_is_the_solution_of_the_file_at_its_path_without_it():
    """A course ships the exercise to fill in (``ex02/ex02.c``: one directive left bare) and, in a solution
    folder, the same program filled in under the same name (``ex02/solution/ex02.c``; or
    ``exercise/solution/mapping/core.c`` of ``exercise/mapping/core.c``). The solution is kept, the exercise is its
    copy; a solution folder's README names no exercise."""
    repo = "https://raw.githubusercontent.com/org/offload-course/abc1234/content/exercise"
    files = {
        1: (f"{repo}/ex02/ex02.c", _dot_program("c", "target")),
        2: (f"{repo}/ex02/solution/ex02.c", _dot_program("c", "target teams distribute parallel for")),
        3: (f"{repo}/mapping/core.c", _dot_program("c", "target")),
        4: (f"{repo}/solution/mapping/core.c", _dot_program("c", "target map(to: left, right)")),
    }
    assert preference.exercise_paths(files[2][0]) == (files[1][0],)
    assert preference.exercise_paths(files[4][0]) == (files[3][0],)
    assert preference.exercise_paths(f"{repo}/ex02/solution/README.md") == ()
    assert preference.solution_pair(files[2][0], files[1][0]) == 1
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    found = copies.measure(infos)
    assert found[1].duplicate_of == 2 and found[1].because["rule"] == "solution"
    assert found[3].duplicate_of == 4 and found[3].because["rule"] == "solution"
    assert found[2].duplicate_of is None and found[4].duplicate_of is None


def test_episode_stubs_of_one_template_keep_the_one_the_index_lists_first():
    """A lesson's unwritten episodes are one stub template, the title and one question apart: copies of each
    other, none newer, fuller or rendered. The one kept is the one the manual's index lists first in its toctree
    (LABELS.md), not the one stored first; a page the index does not list changes nothing."""
    folder = "https://raw.githubusercontent.com/org/offload-lesson/abc1234/content"
    frame = "\n\n".join(
        f"Heading {k}\n----------\n\nTODO write the part {k} of this episode: the text, a figure of the stencil, a "
        f"type-along of the field structure in C++ and Fortran, and the build line for step {k}."
        for k in range(8)
    )

    def stub(title: str) -> str:
        return f"{title}\n{'=' * len(title)}\n\n.. questions::\n\n   - {title}?\n\n{frame}\n"

    index = "\n".join(
        ["The lessons", "===========", "", ".. toctree::", "   :maxdepth: 1", "   :caption: Lessons", ""]
        + [f"   {name}" for name in ("introduction", "profiling", "optimization", "Multiple GPUs <multi-gpu>")]
        + ["", "Who is the course for?", "----------------------", "", "Engineers who port loops to GPUs."]
    )
    files = {
        1: (f"{folder}/multi-gpu.rst", stub("How do I run on several GPUs")),
        2: (f"{folder}/optimization.rst", stub("How do I make offloaded loops fast")),
        3: (f"{folder}/profiling.rst", stub("Which parts of my code matter")),
        4: (f"{folder}/index.rst", index),
    }
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    assert copies.index_lists(infos, folder) == [["introduction", "profiling", "optimization", "multi-gpu"]]
    assert copies.index_first(infos[2], infos[0], infos, {}) == 1
    found = copies.measure(infos)
    assert found[3].duplicate_of is None and found[4].duplicate_of is None
    assert found[2].duplicate_of == 3 and found[1].duplicate_of in (2, 3)
    assert found[2].because == {"rule": "id", "from": "index order", "names": ["profiling.rst", "optimization.rst"]}


_TERMS = "\n".join(  # a licence in our own words: every line but the title names a licence's matter
    [
        "The Open Lesson Licence",
        "",
        "Redistribution of these lessons, changed or not, is welcome wherever this notice and the copyright",
        "lines above travel with every copy; the licensor asks nothing in return for the redistribution.",
        "",
        "No warranty of any kind comes with the lessons: the licensor answers for no loss their use may cause,",
        "and whoever relies on them does so without warranty of fitness for any purpose.",
    ]
)


def _licence(*holders: str) -> str:
    lines = _TERMS.split("\n")
    return "\n".join([lines[0], "", *holders, *lines[1:]])


def test_a_projects_licence_repeated_in_a_folder_is_the_root_licences_copy_a_vendored_one_is_not():
    """A course repeats its licence in each exercise folder, the same terms, its holder line naming fewer of the
    course's holders (or none): one licence, the root's kept. A library vendored in a folder under the same
    terms names other holders and stays its own; so does the same text in another repository."""
    repo = "https://raw.githubusercontent.com/org/offload-lesson/abc1234"
    files = {
        1: (f"{repo}/LICENSE.code", _licence("Copyright (c) 2021, Ada Lindqvist and contributors of Northlab")),
        2: (f"{repo}/exercise/ex02/LICENSE-MIT", _licence("Copyright (c) 2019 Northlab", "Copyright (c) 2021 Ada")),
        3: (f"{repo}/tools/editor-syntax/LICENSE.txt", _licence("Copyright (c) 2022")),
        4: (f"{repo}/third_party/fmtlib/LICENSE", _licence("Copyright (c) 2012 Victor Mountain")),
        5: ("https://raw.githubusercontent.com/org/other-lesson/def5678/LICENSE", _licence("Copyright (c) 2021 Ada")),
    }
    infos = [_info(n, url, text, kind="text") for n, (url, text) in files.items()]
    assert len({info.terms for info in infos}) == 1 and infos[0].terms
    assert infos[1].holders == frozenset({"northlab", "ada"})
    assert copies.one_licence(infos) == {2: 1, 3: 1}
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1 and found[3].duplicate_of == 1
    assert all(found[n].duplicate_of is None for n in (1, 4, 5))


def test_a_root_licence_with_a_note_beside_its_terms_is_kept_over_a_folders_copy_of_the_terms():
    """A project's root licence adds a paragraph of its own under the terms (what it depends on and under which
    licence); an example folder repeats the terms alone, as comment lines: one licence, the root's kept. A
    folder's file that adds more than a note of its own (another licence's terms after ours) stays its own."""
    repo = "https://raw.githubusercontent.com/org/gpu-runtime/abc1234"
    header = "\n".join(f"// {line}" for line in _licence("Copyright 2019 Northlab").split("\n"))
    note = "\n\nThe runtime depends on the Harbour parser, licensed under its own permissive licence."
    other = "\n\n".join(
        f"Clause {i} of the Quay terms: the parser may be copied and changed, and no warranty of any kind comes "
        "with it, whatever the licence of the work it is shipped in says."
        for i in range(4)
    )
    files = {
        1: (f"{repo}/LICENSE", _licence("Copyright (c) 2019, Northlab") + note),
        2: (
            f"{repo}/examples/mandel/license.txt",
            "\n".join(f"# {line}" for line in _licence("Copyright 2019 Northlab").split("\n")),
        ),
        3: (f"{repo}/vendor/parser/LICENSE", _licence("Copyright (c) 2019, Northlab") + "\n\n" + other),
        # a short kernel under the licence as its header: a source file, no licence with a note
        4: (
            f"{repo}/examples/saxpy/kernels/saxpy.cu",
            header + "\n__global__ void saxpy(float a, float *y) { y[0] *= a; }",
        ),
        # a sample's licence without the licence's title line: a heading before the terms is no note
        5: (f"{repo}/samples/stencil/deep/License.txt", "\n".join(_licence("Copyright 2019 Northlab").split("\n")[1:])),
    }
    infos = [_info(n, url, text, kind="text") for n, (url, text) in files.items()]
    assert infos[0].terms != infos[1].terms and infos[0].holders == infos[1].holders == frozenset({"northlab"})
    assert copies.noted_terms(infos[0].term_words, infos[1].term_words)
    assert infos[3].terms and copies.noted_terms(infos[1].term_words, infos[3].term_words)  # by its words, a note
    assert copies.one_licence(infos) == {2: 1}
    found = copies.measure(infos)
    assert found[2].duplicate_of == 1
    assert all(found[n].duplicate_of is None for n in (1, 3, 4, 5))


def test_a_script_written_once_per_numbered_case_keeps_the_first_not_the_higher_number():
    """A tutorial's plot scripts, one per step of the tutorial (``plot_v0.py``, ``plot_v1.py``), the same lines
    but the step's number written alone (``upto=0``): one text from one template, whose number is the case's,
    not a version. The first by name is kept; the higher number is no newer state of it. A script whose own
    number is another than the names' (``size=64`` beside ``size=128``) says something else and stays apart."""
    folder = "https://raw.githubusercontent.com/org/tile-lessons/abc1234/docs/steps/plots"

    def script(step: str, size: str = "64") -> str:
        return "\n".join(
            [
                "import os",
                "import sys",
                "",
                "# the plotting helper lives beside this script; the docs builder runs it from the docs root",
                'sys.path.insert(0, os.path.join(os.getcwd(), "steps", "plots"))',
                "from draw_steps import draw_throughput",
                "",
                f"draw_throughput(upto={step}, tile={size})",
                'print("drawn")',
            ]
        )

    first = _info(1, f"{folder}/plot_v0.py", script("0"), kind="text")
    second = _info(2, f"{folder}/plot_v1.py", script("1"), kind="text")
    assert copies.substituted([first, second]) == {1: [2], 2: [1]}
    found = copies.measure([first, second])
    assert found[2].duplicate_of == 1 and found[1].duplicate_of is None
    assert copies.measure([second, first])[2].duplicate_of == 1  # the order they come in changes nothing
    other = _info(3, f"{folder}/plot_v2.py", script("2", "128"), kind="text")
    assert copies.substituted([second, other]) == {}  # another tile size: a number the names do not change


def test_a_steps_solution_inside_the_next_steps_exercise_is_kept():
    """A course starts each exercise from the last step's solution and adds the functions to fill in: the next
    exercise holds that solution whole and is larger, yet it is its own solution's copy, and the solution of
    the step before is kept, not read as a part of the next exercise."""
    repo = "https://raw.githubusercontent.com/org/offload-course/abc1234/exercise"
    loop = _dot_program("c", "target teams distribute parallel for")
    blanks = "\n".join(
        f"void update_step_{k}(double *field, int rows, int columns)\n{{\n  int size = rows * columns;\n"
        f"  /* add the data mapping for step {k} here */\n}}"
        for k in range(1)
    )
    filled = blanks.replace("/* add the data mapping for", "#pragma omp target update from(field[0:size]) /*")
    files = {
        1: (f"{repo}/solution/offloading/core.c", loop),
        2: (f"{repo}/mapping/core.c", loop + "\n" + blanks),
        3: (f"{repo}/solution/mapping/core.c", loop + "\n" + filled),
    }
    counts = copies.LineCounts()
    for url, text in files.values():
        counts.add(copies_line_hashes(text), url)
    infos = [_info(n, url, text, kind="text", counts=counts) for n, (url, text) in files.items()]
    found = copies.measure(infos)
    assert found[2].duplicate_of == 3 and found[2].because["rule"] == "solution"
    assert found[1].duplicate_of is None and found[3].duplicate_of is None


FAST_EXP_HEADER = """/* A fast exponential for single and double precision.
 * Range reduction first: x = n ln2 + r with |r| <= ln2 / 2, n rounded to the nearest integer.
 * Then a rational approximation of exp(r) of Pade type, its two polynomials evaluated by Horner's scheme.
 * 2^n is built by writing n + 127 into the exponent field of a float, bits 23 to 30. */
static inline float fast_expf(float x)
{
    float n = floorf(x * LOG2E + 0.5f);
    float r = x - n * LN2_HI - n * LN2_LO;
    float p = ((P3 * r + P2) * r + P1) * r + P0;
    float q = ((Q3 * r + Q2) * r + Q1) * r + Q0;
    return (1.0f + 2.0f * r * p / (q - r * p)) * as_float(((int)n + 127) << 23);
}
"""

SEND_PAGE = """NAME
net_post - posts the data of the active message buffer to another process

DESCRIPTION
The routine takes the message that the calling process packed into its send buffer and posts it to the process named
by its identifier, labelled with a message tag that the receiver chooses messages by. A matching receive on the other
side unpacks the data from its receive buffer. The call returns as soon as the send buffer may be reused.
"""


def test_a_fast_elementary_function_and_a_message_passing_call_read_in_their_own_words():
    # phase 34 (tech38): a vectorised maths library's header says how its fast exp computes (a range reduction, a
    # Pade-type rational approximation evaluated by Horner's scheme) and a message-passing library's call page says
    # what it sends (a send buffer, a message tag, a matching receive): neither found any of the profile's words
    # (evidence 0.0 before); the same texts told in a spreadsheet's or a mail client's words still find none
    header = _evidence(FAST_EXP_HEADER)
    assert header.domain == "numerical_analysis" and header.score > 0.1
    page = _evidence(SEND_PAGE)
    assert page.domain == "parallel_computing" and page.score > 0.2
    everyday = _evidence(
        "The sheet rounds each price to the nearest cent and adds a tax column; the total is written in bold at the "
        "bottom of the table, and a chart of the monthly totals is drawn beside it."
    )
    mail = _evidence(
        "The mail client keeps a draft of the message until you press send; replies are grouped under the first "
        "message of their thread, and a tag marks the ones you have read."
    )
    assert everyday.score == 0 and mail.score == 0
