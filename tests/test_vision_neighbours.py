"""The source a page belongs to, from its URL, and the pull of the source's other pages on its relevance."""

import numpy as np
import pytest

from pipeline.vision import neighbours


@pytest.mark.parametrize(
    ("url", "source"),
    [
        (
            "https://raw.githubusercontent.com/NVIDIA/cutlass/abc123/media/docs/gemm.md",
            "raw.githubusercontent.com/NVIDIA/cutlass",
        ),
        ("https://github.com/openai/triton/blob/main/README.md", "github.com/openai/triton"),
        ("https://github.com/openai", None),  # an owner's page: no repository
        ("https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html", "docs.nvidia.com/cuda"),
        ("https://example.org/index.html", "example.org"),
        ("file:///usr/share/doc/python-distributed-doc/html/scheduling-policies.html", "file:python-distributed"),
        ("file:///usr/share/doc/libfftw3-dev/html/index.html", "file:libfftw3"),
        ("file:///usr/share/doc/libfftw3-doc/copyright", "file:libfftw3"),  # -doc and -dev: one package
        ("file:///usr/share/likwid/perfgroups/skylakeX/FLOPS_DP.txt", "file:likwid"),
        ("file:///usr/share/man/man1/likwid-perfctr.1", "man:likwid"),
        ("file:///usr/share/man/man3/MPI_Send.3", "man:mpi"),
        ("file:///usr/share/gtk-doc/html/Ufo/index.html", "file:Ufo"),
        ("file:///home/me/notes/cuda/streams.md", "file:/home/me/notes/cuda"),
        ("file:///notes.txt", None),
    ],
)
def test_source_of(url, source):
    assert neighbours.source_of(url) == source


def test_pull_towards_the_other_pages_of_the_source():
    relevance = np.array([0.2, 0.8, 0.8, 0.8, 0.5, 0.3])
    sources = ["a", "a", "a", "a", None, "b"]
    moved, floor = neighbours.lift(relevance, sources)
    # page 0's neighbours read 0.8; three of them weigh 3 / (3 + SHRINK)
    weight = 3 / (3 + neighbours.SHRINK)
    assert floor[0] == pytest.approx(0.8)
    assert moved[0] == pytest.approx(0.2 + neighbours.PRIOR_SHARE * neighbours.PULL_UP * weight * 0.6)
    # a page above its floor is drawn down by the whole share, one below it lifted by PULL_UP of it
    assert 0 < neighbours.PULL_UP < 1
    # page 1's neighbours are the others (0.2, 0.8, 0.8), never itself: their floor is near the low one
    assert floor[1] == pytest.approx(np.quantile([0.2, 0.8, 0.8], neighbours.FLOOR_QUANTILE))
    assert moved[1] < 0.8
    # no source, or a source of one page: unchanged, no neighbours
    assert moved[4] == 0.5 and moved[5] == 0.3
    assert np.isnan(floor[4]) and np.isnan(floor[5])
    # the pull keeps the page's own order within its source
    assert moved[0] < moved[1]


def test_a_source_lifts_a_page_only_when_nearly_all_its_other_pages_read_high():
    # one page reads low in two sources of ten: the other nine all read high, or five of them read low
    on_topic = np.array([0.3] + [0.7] * 9)
    mixed = np.array([0.3] + [0.7] * 4 + [0.1] * 5)
    lifted_on, _ = neighbours.lift(on_topic, ["a"] * 10)
    lifted_mixed, _ = neighbours.lift(mixed, ["a"] * 10)
    assert lifted_on[0] > 0.3 + 0.5 * neighbours.PRIOR_SHARE * neighbours.PULL_UP * 0.4 and lifted_mixed[0] < 0.3
    # and the best-sounding pages of the mixed source are drawn towards its floor
    assert lifted_mixed[1] < 0.7 - 0.5 * neighbours.PRIOR_SHARE * 0.6


def test_the_floor_of_the_others_is_numpys_quantile_without_the_page():
    rng = np.random.default_rng(7)
    for n in (2, 3, 5, 11, 40):
        values = rng.random(n)
        values[1] = values[0]  # ties
        expected = [np.quantile(np.delete(values, j), neighbours.FLOOR_QUANTILE) for j in range(n)]
        assert neighbours._floors(values) == pytest.approx(expected)


def test_pull_is_independent_of_the_other_sources():
    relevance = np.array([0.1, 0.9, 0.4, 0.6])
    alone, _ = neighbours.lift(relevance[:2], ["a", "a"])
    together, _ = neighbours.lift(relevance, ["a", "a", "b", "b"])
    assert together[:2] == pytest.approx(alone)


SCHEDULER = """# Scheduling

The scheduler keeps a queue of ready tasks and hands each to the worker with the least pending work. A task
whose inputs sit on another worker is moved there when the transfer costs less than the wait. Workers report
their load every 500 ms; the scheduler steals work from the busiest when another worker idles.
"""

GPU_PAGES = [
    "# Shared memory tiling\n\nEach thread block loads a tile into shared memory; warps read coalesced rows, and the "
    "kernel's occupancy on the SM depends on registers per thread. Tensor cores run the MMA on bf16 tiles.",
    "# Fused attention backward\n\nThe CUDA kernel recomputes the softmax from the saved log-sum-exp; each warp "
    "holds a tile of dQ in registers and the kernel reaches 70% of the H100's bf16 tensor core throughput.",
    "# Warp shuffles\n\nA reduction across a warp uses __shfl_down_sync; the GPU kernel avoids shared memory bank "
    "conflicts and keeps the SM's occupancy high with 128 threads per block.",
]
GARDEN_PAGES = [
    "# Roses\n\nPrune roses in late winter, water them deeply once a week and feed them compost in spring.",
    "# Tomatoes\n\nTomatoes want sun and a stake; pinch the side shoots and water the soil, not the leaves.",
    "# Lawns\n\nMow high in summer, rake the moss in autumn and sow seed where the grass is thin.",
]


def test_a_generic_page_reads_in_its_sources_context(tmp_path):
    from pipeline.score import score_corpus
    from pipeline.store import open_db
    from shijie.explain import reasons
    from tests.test_vision_model import _store

    db = open_db(tmp_path / "shijie.db")
    for n, text in enumerate(GPU_PAGES):
        _store(db, f"https://github.com/gpu/kernels/blob/main/{n}", text)
    for n, text in enumerate(GARDEN_PAGES):
        _store(db, f"https://github.com/home/garden/blob/main/{n}", text)
    _store(db, "https://github.com/gpu/kernels/blob/main/scheduling", SCHEDULER)
    _store(db, "https://github.com/home/garden/blob/main/scheduling", SCHEDULER + "\nWater the beds at dawn.")
    scored = {s.url.split("github.com/", 1)[1]: s for s in score_corpus(db)}
    among_gpu, among_garden = scored["gpu/kernels/blob/main/scheduling"], scored["home/garden/blob/main/scheduling"]
    rel = among_gpu.components["relevance"]
    # the same words, read beside GPU pages, rise; beside garden pages, fall
    assert rel["source_lift"] > 0 > among_garden.components["relevance"]["source_lift"]
    assert among_gpu.relevance_score > among_garden.relevance_score
    assert rel["source_neighbours"] > rel["own_score"]
    assert among_gpu.relevance_score == pytest.approx(rel["own_score"] + rel["source_lift"], abs=2e-4)
    shown = {"relevance_score": among_gpu.relevance_score, "topic": "t", "components": {"relevance": rel}}
    english = " ".join(line.text for line in reasons(shown, "en"))
    chinese = " ".join(line.text for line in reasons(shown, "zh"))
    assert "of the other pages of its source read" in english and "同一来源的其他页面" in chinese


def test_the_value_reads_a_pages_figures_against_its_sources_other_pages():
    # two sources of four pages, one written with long tables throughout (figure 0.8 + spread), one without
    x = np.array([[0.9], [0.8], [0.7], [0.8], [0.1], [0.0], [0.2], [0.1], [0.5]])
    sources = ["a"] * 4 + ["b"] * 4 + [None]
    moved = neighbours.relative(x, sources)
    corpus = x.mean()
    # the source's offset from the corpus is taken out, shrunk as the relevance's pull is (3 others: half of it),
    # and the order within the source is kept
    assert np.argsort(moved[:4, 0]).tolist() == np.argsort(x[:4, 0]).tolist()
    assert np.isclose(abs(moved[:4].mean() - corpus), abs(x[:4].mean() - corpus) / 2)
    assert np.isclose(abs(moved[4:8].mean() - corpus), abs(x[4:8].mean() - corpus) / 2)
    assert moved[8, 0] == x[8, 0]  # a page whose source is unknown keeps its figure
    one = neighbours.relative(x[:4], sources[:4])  # a corpus of one source is read as it is
    assert np.isclose(one.mean(), x[:4].mean()) and np.argsort(one[:, 0]).tolist() == np.argsort(x[:4, 0]).tolist()


MODEL_TUTORIAL = """# Train a small chatbot

Load the pretrained transformer, fine-tune it for three epochs on the GPU with a learning rate of 3e-5, and
watch the validation loss. Attention masks pad the batches; the training loop saves a checkpoint each epoch.
The attention runs as one fused kernel, its tiles in shared memory.
"""


def test_a_source_draws_its_best_sounding_page_down_by_half_the_gap(tmp_path):
    # phase 15: a page above its source's floor moves half of the (shrunk) gap down; one below it, 0.15 of it up
    from pipeline.score import score_corpus
    from pipeline.store import open_db
    from tests.test_vision_model import _store

    assert neighbours.PRIOR_SHARE == 0.5
    assert abs(neighbours.PRIOR_SHARE * neighbours.PULL_UP - 0.15) < 1e-9
    db = open_db(tmp_path / "shijie.db")
    for n, text in enumerate(GARDEN_PAGES):
        _store(db, f"https://github.com/home/garden/blob/main/{n}", text)
    _store(db, "https://github.com/home/garden/blob/main/chatbot", MODEL_TUTORIAL)
    scored = {s.url.rsplit("/", 1)[1]: s for s in score_corpus(db)}
    rel = scored["chatbot"].components["relevance"]
    others = len(GARDEN_PAGES)
    weight = others / (others + neighbours.SHRINK)
    # the model tutorial says GPU, attention and a fused kernel (since phase 27 a page of a training recipe's words
    # only keeps none of the learned probability, topic.foreign_weight), its source's other pages nothing of the
    # field: drawn half-way
    assert rel["source_neighbours"] < rel["own_score"]
    expected = neighbours.PRIOR_SHARE * weight * (rel["source_neighbours"] - rel["own_score"])
    assert rel["source_lift"] == pytest.approx(expected, abs=3e-4)
    assert scored["chatbot"].relevance_score < rel["own_score"]


GPU_MODULE = """# The image library's GPU module

Each filter of this module runs as a CUDA kernel: a thread block loads a tile of the image into shared memory,
padded by one column against bank conflicts, and each warp reads coalesced rows. The kernel's occupancy depends
on the registers per thread; with 256 threads per block and 32 registers each, four blocks fit on an SM. Streams
overlap the host-to-device copies with the kernels, and the memory bandwidth reached is close to the HBM peak.
"""


def test_a_page_strong_in_the_fields_own_words_is_spared_the_draw_down():
    # phase 16: the draw-down spares a page by its specific evidence ([general] terms aside), so a library's GPU
    # module keeps its place among the library's other pages while a model tutorial, whose field words are all
    # [general] ones (attention, GPU), is drawn down as before
    from pipeline.profile import DEFAULT_PROFILE, load_profile
    from pipeline.resources import data_dir
    from pipeline.terms import PhraseCounter
    from pipeline.vision import analysis, topic

    matcher = topic.TopicMatcher(load_profile(data_dir() / "profiles" / DEFAULT_PROFILE))
    counter = PhraseCounter(matcher.phrases(), key=analysis.phrase_key)

    def specific(text: str) -> float:
        toks = analysis.tokens(text)
        return matcher.evidence(counter.count(toks), len(toks)).specific

    assert neighbours.spared(specific(GPU_MODULE)) > 0.5
    assert neighbours.spared(specific(MODEL_TUTORIAL)) == 0.0
    assert neighbours.spared(specific(GARDEN_PAGES[0])) == 0.0
    relevance = np.array([0.6, 0.6, 0.05, 0.05, 0.05, 0.05])
    spare = np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    moved, _ = neighbours.lift(relevance, ["a"] * 6, spare)
    plain, _ = neighbours.lift(relevance, ["a"] * 6)
    assert moved[0] == pytest.approx(0.6) and moved[1] == pytest.approx(plain[1]) and plain[1] < 0.6
    assert moved[2:] == pytest.approx(plain[2:])  # a lift is never spared: only the draw-down


@pytest.mark.parametrize(
    ("url", "record"),
    [
        ("https://github.com/someone/gpu-lib/blob/main/CHANGELOG.md", True),
        ("file:///usr/share/doc/libfoo-doc/changelog.Debian.gz", True),
        ("https://example.org/project/NEWS", True),
        ("https://example.org/project/release-notes.html", True),
        ("https://github.com/someone/gpu-lib/blob/main/LICENSE", True),
        ("file:///usr/share/doc/libfoo-doc/copyright", True),
        ("https://github.com/someone/gpu-lib/blob/main/NOTICE.txt", True),
        ("https://github.com/someone/gpu-lib/blob/main/docs/shared-memory.md", False),
        ("https://github.com/someone/gpu-lib/blob/main/README.md", False),
        ("file:///usr/share/man/man3/foo_launch.3.gz", False),
        ("https://example.org/docs/newsletter-archive.html", False),  # "news" must end the word
    ],
)
def test_a_record_is_named_as_a_changelog_or_a_licence(url, record):
    assert neighbours.is_record(url) is record


def test_a_record_keeps_a_share_of_its_relevance_outside_its_source():
    # a GPU library's pages, on topic, and its changelog, which names every kernel it fixed
    relevance = np.array([0.7, 0.7, 0.7, 0.7, 0.6])
    sources = ["a"] * 5
    records = np.array([False, False, False, False, True])
    moved, floors = neighbours.lift(relevance, sources, None, records)
    assert moved[4] == pytest.approx(neighbours.RECORD_SHARE * 0.6)  # not lifted by its on-topic neighbours
    assert np.isnan(floors[4])
    assert moved[:4] == pytest.approx(relevance[:4])  # its low score sets no floor for the others
    plain, _ = neighbours.lift(relevance, sources)
    assert plain[4] > 0.6
    # a record's low relevance does not draw an on-topic neighbour down either
    relevance = np.array([0.7, 0.3, 0.3, 0.3])
    moved, _ = neighbours.lift(relevance, ["a"] * 4, None, np.array([False, True, True, True]))
    assert moved[0] == pytest.approx(0.7)
    assert neighbours.lift(relevance, ["a"] * 4)[0][0] < 0.7
    # no records given, or none among the pages: the lift as before
    none, _ = neighbours.lift(relevance, ["a"] * 4, None, np.zeros(4, dtype=bool))
    assert none == pytest.approx(neighbours.lift(relevance, ["a"] * 4)[0])


def test_the_scorer_reads_a_changelog_as_a_record_and_says_so(tmp_path):
    # phase 20 (rel21): scored among its source's pages, a project's changelog keeps RECORD_SHARE of its own
    # relevance, is not lifted by its on-topic neighbours, and the explanation says why
    from pipeline.score import score_corpus
    from pipeline.store import open_db
    from shijie.explain import reasons
    from tests.test_vision_model import _store

    db = open_db(tmp_path / "shijie.db")
    for n in range(4):
        _store(db, f"https://github.com/home/kernels/blob/main/docs/{n}.md", GPU_MODULE + f"\nPage {n}.")
    _store(db, "https://github.com/home/kernels/blob/main/CHANGELOG.md", "## 2.1\n\n" + GPU_MODULE)
    scored = {s.url.rsplit("/", 1)[1]: s for s in score_corpus(db)}
    rel = scored["CHANGELOG.md"].components["relevance"]
    assert rel["record"] is True and rel["record_share"] == neighbours.RECORD_SHARE and rel["source_neighbours"] is None
    assert scored["CHANGELOG.md"].relevance_score == pytest.approx(neighbours.RECORD_SHARE * rel["own_score"], abs=1e-4)
    assert scored["0.md"].components["relevance"]["record"] is False
    assert scored["0.md"].relevance_score > scored["CHANGELOG.md"].relevance_score
    record = scored["CHANGELOG.md"]
    shown = {"relevance_score": record.relevance_score, "components": record.components}
    said = " ".join(line.text for line in reasons(shown, "en"))
    assert "a project's record" in said and "25%" in said


@pytest.mark.parametrize(
    ("url", "reference"),
    [
        ("https://github.com/acme/tiles/blob/main/include/tiles/gemm.h", True),
        ("https://github.com/acme/tiles/blob/main/include/tiles/layout.hpp", True),
        ("https://github.com/acme/tiles/blob/main/src/reduce.cu", True),
        ("https://github.com/acme/tiles/blob/main/src/reduce.CUH", True),  # the extension in any case
        ("https://github.com/acme/tiles/blob/main/python/tiles/ops.py", True),
        ("https://github.com/acme/tiles/blob/main/kernels/reduce.cl", True),  # a kernel language's source
        ("https://github.com/acme/tiles/blob/main/shaders/prefix_sum.comp", True),
        ("https://github.com/acme/tiles/blob/main/docs/components.html", False),
        ("file:///usr/share/doc/libtiles-dev/examples/matmul.cpp", True),
        ("file:///usr/share/man/man3/tiles_launch.3.gz", True),  # a library call's man page
        ("file:///usr/share/man/man3/tiles_launch.3x", True),
        ("file:///usr/share/man/man1/tiles-run.1.gz", False),  # a command's
        ("https://github.com/acme/tiles/releases/tag/v1.3", False),  # a release, named by its version
        ("https://example.org/docs/notes-2.3", False),
        ("https://github.com/acme/tiles/blob/main/README.md", False),
        ("https://example.org/docs/gemm.html", False),
        ("https://example.org/docs/h", False),
        ("file:///usr/share/doc/libtiles-dev/changelog.Debian.gz", False),
    ],
)
def test_a_reference_is_named_as_a_header_a_source_file_or_a_library_calls_man_page(url, reference):
    assert neighbours.is_reference(url) is reference


def test_a_reference_below_its_sources_median_is_pulled_up_to_it():
    # phase 21 (rel22): a header of an on-topic library holds identifiers, little prose: judged by its library.
    # Six pages read 0.2, 0.6 x 4 and 0.1 (the header); the others' median is 0.6, their floor far lower
    relevance = np.array([0.2, 0.6, 0.6, 0.6, 0.6, 0.1])
    sources = ["a"] * 6
    references = np.array([False, False, False, False, False, True])
    plain, _ = neighbours.lift(relevance, sources)
    moved, _ = neighbours.lift(relevance, sources, None, None, references)
    weight = 5 / (5 + neighbours.SHRINK)
    assert moved[5] == pytest.approx(0.1 + neighbours.REFERENCE_SHARE * weight * (0.6 - 0.1))
    assert moved[5] > plain[5]  # further than a page of prose at 0.1 is lifted
    assert moved[:5] == pytest.approx(plain[:5])  # the others move as before
    # a reference above the others' median moves as any page does (drawn down to the floor)
    references = np.array([False, True, False, False, False, False])
    moved, _ = neighbours.lift(relevance, sources, None, None, references)
    assert moved == pytest.approx(plain)
    # a source whose pages all read low (an off-topic library's) lifts its header no higher than they read
    low = np.array([0.1, 0.1, 0.1, 0.05])
    moved, _ = neighbours.lift(low, ["b"] * 4, None, None, np.array([False, False, False, True]))
    assert moved[3] < 0.1 and moved[:3] == pytest.approx(neighbours.lift(low, ["b"] * 4)[0][:3])


def test_a_reference_drawn_down_hard_keeps_the_stronger_pull():
    # just below the others' median and far above their floor, a reference is drawn down as any page: that pull
    # is the stronger one
    relevance = np.array([0.05, 0.05, 0.9, 0.9, 0.9, 0.85])
    references = np.array([False, False, False, False, False, True])
    plain, _ = neighbours.lift(relevance, ["a"] * 6)
    moved, _ = neighbours.lift(relevance, ["a"] * 6, None, None, references)
    assert moved[5] == pytest.approx(plain[5]) and moved[5] < 0.85


def test_a_page_of_little_text_of_its_own_is_judged_by_its_source():
    # phase 28 (rel30): a documentation stub (a title and one directive that pulls in a library's reference), a
    # short example or a two-line readme says too little for its own words to place it: its source's other pages
    # do. Six pages of one source read 0.1 (a weak page of prose), 0.5 x 4, and 0.1 (the stub)
    relevance = np.array([0.1, 0.5, 0.5, 0.5, 0.5, 0.1])
    sources = ["a"] * 6
    words = [900, 800, 700, 1200, 600, 12]
    thin = np.array([neighbours.thinness(n) for n in words])
    assert list(thin) == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    plain, _ = neighbours.lift(relevance, sources)
    moved, _ = neighbours.lift(relevance, sources, None, None, None, thin)
    weight = 5 / (5 + neighbours.SHRINK)
    assert moved[5] == pytest.approx(0.1 + neighbours.THIN_SHARE * weight * (0.5 - 0.1))
    assert moved[5] > plain[5] and moved[0] == pytest.approx(plain[0])  # the page of prose moves as before
    # half as thin, half the pull; a page of its own length is judged by its words
    assert neighbours.thinness((neighbours.THIN_FULL + neighbours.THIN_FROM) / 2) == pytest.approx(0.5)
    assert neighbours.thinness(neighbours.THIN_FROM) == 0.0
    # a short page whose few profile words are another field's has a reading of its own: not lifted
    assert neighbours.thinness(12, foreign=0.3) == 0.0
    # a source whose pages all read low (an off-topic project's) lifts its stub no higher than they read
    low = np.array([0.1, 0.1, 0.1, 0.02])
    moved, _ = neighbours.lift(low, ["b"] * 4, None, None, None, np.array([0.0, 0.0, 0.0, 1.0]))
    assert moved[3] < 0.1


def test_a_page_that_includes_pages_of_the_corpus_is_read_with_them():
    # phase 29 (rel31): a tutorial page of a sentence and a ``literalinclude`` of the example it teaches renders as
    # that example; when the corpus holds the file (read from the page's own folder), the page is read as its
    # rendered page is, its few words and the file's, each weighed by its words
    from pipeline.vision.reading import included_names

    page = (
        "Pinned staging buffers\n======================\n\nA pool of pinned buffers, reused across copies:\n\n"
        ".. literalinclude:: ../../examples/staging_pool.cu\n   :language: cuda\n   :lines: 10-40\n\n"
        ".. include:: ./notes.rst\n\n.. include:: /usage.rst\n\n.. literalinclude:: ../../examples/staging_pool.cu\n"
    )
    assert included_names(page) == ("../../examples/staging_pool.cu", "./notes.rst", "/usage.rst")
    assert included_names("Streams overlap copies with kernels.") == ()
    root = "https://raw.githubusercontent.com/acme/tiles/abc123/"
    urls = [root + "docs/guide/staging.rst", root + "examples/staging_pool.cu", root + "docs/guide/notes.rst"]
    names = [included_names(page), (), ()]
    assert neighbours.included_pages(urls, names) == [(1, 2), (), ()]  # "/usage.rst": from the tree's top, unknown
    assert neighbours.included_pages(urls, [(), (), ()]) == [(), (), ()]
    relevance = np.array([0.05, 0.6, 0.2])
    words = np.array([20.0, 380.0, 100.0])
    moved, _ = neighbours.lift(relevance, [None] * 3, None, None, None, None, [(1, 2), (), ()], words)
    assert moved[0] == pytest.approx((20 * 0.05 + 380 * 0.6 + 100 * 0.2) / 500)
    assert list(moved[1:]) == pytest.approx([0.6, 0.2])  # the included files read as they were
    # a page that reads higher than what it includes keeps its own reading; a record is never lifted so
    high = neighbours.lift(np.array([0.7, 0.6, 0.2]), [None] * 3, None, None, None, None, [(1, 2), (), ()], words)
    assert high[0][0] == pytest.approx(0.7)
    record = np.array([True, False, False])
    kept, _ = neighbours.lift(relevance, [None] * 3, None, record, None, None, [(1, 2), (), ()], words)
    assert kept[0] == pytest.approx(neighbours.RECORD_SHARE * 0.05)


def test_a_page_that_includes_a_program_is_lifted_as_a_reference():
    # phase 29 (rel31): a cookbook page whose substance is a ``literalinclude`` of a program shows that program's
    # code, a library's reference, whether or not the corpus holds the file
    assert neighbours.includes_code(("../../../examples/cookbook/recipe_pool.cpp",))
    assert neighbours.includes_code(("kernels/scan.cu", "../README.md"))
    assert not neighbours.includes_code(("../LICENSE", "../CONTRIBUTING.md", "install.rst"))
    assert not neighbours.includes_code(())
    # a long page that shows a listing among its prose is a guide, read by its own words
    assert neighbours.includes_code(("kernels/scan.cu",), neighbours.INCLUDED_CODE_WORDS)
    assert not neighbours.includes_code(("kernels/scan.cu",), neighbours.INCLUDED_CODE_WORDS + 1)
    # read from the page's text by the Reader (an .rst page as the extractor gives it) and handed to the lift
    from pipeline.extract import extract
    from pipeline.profile import default_profile
    from pipeline.taxonomy import load_taxonomy
    from pipeline.vision import topic
    from pipeline.vision.reading import Reader

    reader = Reader(topic.TopicMatcher(default_profile()), load_taxonomy())
    root = "https://raw.githubusercontent.com/acme/pools/abc123/docs/cookbook/"
    pages = {
        "pinned.rst": "Pinned pools\n============\n\nA pool in pinned memory:\n\n"
        ".. literalinclude:: ../../examples/cookbook/recipe_pinned.cpp\n   :language: C++\n",
        "intro.rst": "Introduction\n============\n\nThis cookbook shows a pool for each kind of memory.\n",
    }
    readings = []
    for n, (name, text) in enumerate(pages.items()):
        doc = extract(text.encode(), "text/plain", root + name).documents[0]
        row = (n, root + name, doc.title, doc.kind, doc.text, doc.headings, doc.code_blocks, {})
        readings.append(reader.read(row)[0])
    assert readings[0].includes == ("../../examples/cookbook/recipe_pinned.cpp",) and readings[1].includes == ()
    inputs = neighbours.lift_inputs(readings)
    assert list(inputs.references) == [True, False] and inputs.includes == [(), ()]


def _read(url: str, text: str, media_type: str = "text/markdown"):
    from pipeline.extract import extract
    from pipeline.profile import default_profile
    from pipeline.taxonomy import load_taxonomy
    from pipeline.vision import topic
    from pipeline.vision.reading import Reader

    doc = extract(text.encode(), media_type, url).documents[0]
    row = (1, url, doc.title, doc.kind, doc.text, doc.headings, doc.code_blocks, {})
    return Reader(topic.TopicMatcher(default_profile()), load_taxonomy()).read(row)[0]


# our own texts: an abstract about another field, one about the field, and three stubs of a documentation tree
OUR_ABSTRACT = (
    "# Estimating river discharge from satellite altimetry\n\n"
    "We estimate the daily discharge of large rivers from the water levels that radar altimeters measure along "
    "their tracks. A rating curve fitted for each gauging station turns a level into a flow, and a filter fills "
    "the days between two passes. Over twelve rivers the estimates agree with the gauges within eight percent. "
    "The method needs no model of the basin and runs on a laptop in minutes.\n"
)
OUR_ON_TOPIC_ABSTRACT = (
    "# Fewer bank conflicts in shared memory transposes\n\n"
    "We study how a tiled transpose kernel reads and writes shared memory on recent GPUs. Padding each tile by one "
    "column removes the bank conflicts of the column reads, and a swizzled layout removes them without the padding. "
    "Both raise the kernel's memory throughput close to the device's copy bandwidth. We report the occupancy and "
    "the warp stalls of each variant on three architectures.\n"
)
OUR_STUBS = (
    "# Streams\n\n```{eval-rst}\n.. doxygengroup:: streams\n   :members:\n```\n",
    "# tiles\n\nFast tiles for everyone. See the documentation.\n",
    "# Memory pools\n\nSee [the pools page](https://example.org/docs/pools.html) for the details.\n",
)


def test_a_whole_short_text_is_not_a_stub():
    # phase 30 (thin34): an abstract, a man page's paragraph on a command, a short answer is a whole text, however
    # short: its own words say what it is about. Beside a feed's on-topic entries, an abstract about another field
    # is not lifted as a stub is; one about the field keeps the lift; a stub (a directive, a two-line readme, a
    # link to the real page) keeps it too
    root = "https://example.org/feed/"
    off = _read(root + "a", OUR_ABSTRACT)
    on = _read(root + "b", OUR_ON_TOPIC_ABSTRACT)
    stubs = [_read(root + f"s{n}", text) for n, text in enumerate(OUR_STUBS)]
    assert neighbours.is_whole_text(off.structure, off.includes) and off.words < neighbours.THIN_FROM
    assert neighbours.is_whole_text(on.structure, on.includes)
    assert not any(neighbours.is_whole_text(s.structure, s.includes) for s in stubs)
    assert off.evidence.score == 0 and on.evidence.score >= neighbours.WHOLE_EVIDENCE
    inputs = neighbours.lift_inputs([off, on, *stubs])
    assert inputs.thin[0] == 0.0  # the other field's abstract: believed
    assert inputs.thin[1] == pytest.approx(neighbours.thinness(on.words))  # the field's: the whole lift
    assert list(inputs.thin[2:]) == pytest.approx([neighbours.thinness(s.words) for s in stubs])
    assert all(t > 0.5 for t in inputs.thin[1:])
    # a whole text keeps the share of the lift its own evidence of the field vouches for
    half = neighbours.WHOLE_EVIDENCE / 2
    assert neighbours.thinness(88, whole=True, evidence=half) == pytest.approx(neighbours.thinness(88) / 2)
    # in a feed of on-topic entries, the abstract about another field moves only as any page does
    relevance = np.array([0.05, 0.6, 0.6, 0.6, 0.6, 0.6])
    sources = ["feed"] * 6
    thin = np.array([inputs.thin[0], 0.0, 0.0, 0.0, 0.0, 0.0])
    plain, _ = neighbours.lift(relevance, sources)
    moved, _ = neighbours.lift(relevance, sources, None, None, None, thin)
    assert moved[0] == pytest.approx(plain[0])
    stub_moved, _ = neighbours.lift(relevance, sources, None, None, None, np.array([inputs.thin[2], 0, 0, 0, 0, 0]))
    assert stub_moved[0] > plain[0]


# our own program texts: a plotting helper of another field, and a launcher of the field, as a forge serves them
OUR_PLOTTING_HELPER = (
    "function showLevels(levels, stations)\n"
    "% Plots the water level of each gauging station over the year\n"
    "figure;\n"
    "hold on;\n"
    "for k = 1:numel(stations)\n"
    "    plot(levels(:, k), 'DisplayName', stations{k});\n"
    "end\n"
    "legend show;\n"
    "xlabel('day'); ylabel('level (m)');\n"
    "end\n"
)
OUR_KERNEL_LAUNCHER = (
    "function out = runTranspose(tile)\n"
    "% Launches the tiled transpose CUDA kernel on the GPU with one thread block per tile\n"
    "kernel = parallel.gpu.CUDAKernel('transpose.ptx', 'transpose.cu');\n"
    "kernel.ThreadBlockSize = [tile tile 1];\n"
    "kernel.GridSize = [64 64];\n"
    "out = feval(kernel, gpuArray.zeros(1024, 'single'));\n"
    "% shared memory padding avoids bank conflicts in the column reads\n"
    "end\n"
)


def test_a_whole_program_text_is_not_a_stub():
    # phase 31 (nb35): a plain-text program file (a plotting helper, a timing printer beside a GPU source's samples)
    # is complete in itself: its code is its substance, as a whole prose text's paragraphs are. Beside on-topic
    # pages it keeps of the thin-page lift only what its own evidence of the field vouches for; a program of the
    # field keeps the lift; the stubs of a documentation tree (a directive, a two-line readme, a link) keep theirs
    root = "https://example.org/samples/"
    helper = _read(root + "showLevels.m", OUR_PLOTTING_HELPER, "text/plain")
    launcher = _read(root + "runTranspose.m", OUR_KERNEL_LAUNCHER, "text/plain")
    stubs = [_read(root + f"s{n}.md", text) for n, text in enumerate(OUR_STUBS)]
    assert helper.kind == "text" and not neighbours.is_reference(helper.url)
    assert neighbours.is_whole_code(helper.structure, helper.includes, helper.kind)
    assert neighbours.is_whole_code(launcher.structure, launcher.includes, launcher.kind)
    assert not any(neighbours.is_whole_code(s.structure, s.includes, s.kind) for s in stubs)
    # the same lines as a markdown page are no program file; an include directive's substance is elsewhere
    assert not neighbours.is_whole_code(helper.structure, helper.includes, "markdown")
    assert not neighbours.is_whole_code(helper.structure, ("a.h",), helper.kind)
    assert helper.words < neighbours.THIN_FULL and helper.evidence.score == 0
    assert launcher.evidence.score >= neighbours.WHOLE_EVIDENCE
    inputs = neighbours.lift_inputs([helper, launcher, *stubs])
    assert inputs.thin[0] == 0.0  # the plotting helper: believed
    assert inputs.thin[1] == pytest.approx(neighbours.thinness(launcher.words))  # the field's program: the lift
    assert list(inputs.thin[2:]) == pytest.approx([neighbours.thinness(s.words) for s in stubs])
    # among a source's on-topic pages the helper moves only as any page does; as a stub it would be lifted
    relevance = np.array([0.1, 0.6, 0.6, 0.6, 0.6, 0.6])
    sources = ["samples"] * 6
    plain, _ = neighbours.lift(relevance, sources)
    moved, _ = neighbours.lift(relevance, sources, None, None, None, np.array([inputs.thin[0], 0, 0, 0, 0, 0]))
    assert moved[0] == pytest.approx(plain[0])
    as_stub, _ = neighbours.lift(relevance, sources, None, None, None, np.array([1.0, 0, 0, 0, 0, 0]))
    assert as_stub[0] > plain[0] + 0.1
