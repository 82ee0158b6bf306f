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
    moved, mean = neighbours.lift(relevance, sources)
    # page 0's neighbours read 0.8; three of them weigh 3 / (3 + SHRINK)
    weight = 3 / (3 + neighbours.SHRINK)
    assert mean[0] == pytest.approx(0.8)
    assert moved[0] == pytest.approx(0.2 + neighbours.PRIOR_SHARE * weight * 0.6)
    # page 1's neighbours are the others (0.2, 0.8, 0.8), never itself: it moves down a little
    assert mean[1] == pytest.approx(0.6)
    assert moved[1] < 0.8
    # no source, or a source of one page: unchanged, no neighbours
    assert moved[4] == 0.5 and moved[5] == 0.3
    assert np.isnan(mean[4]) and np.isnan(mean[5])
    # the pull keeps the page's own order within its source
    assert moved[0] < moved[1]


def test_pull_is_independent_of_the_other_sources():
    relevance = np.array([0.1, 0.9, 0.4, 0.6])
    alone, _ = neighbours.lift(relevance[:2], ["a", "a"])
    together, _ = neighbours.lift(relevance, ["a", "a", "b", "b"])
    assert together[:2] == pytest.approx(alone)
