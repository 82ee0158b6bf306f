"""A page read in its source's context: the relevance of the other pages of the same source.

A crawl knows where each document came from. A page of likwid's performance-counter groups or of Dask's
scheduler says "throughput", "event", "worker" and little of the profile's words, yet every other page of its
source is about performance tools; a page of a terminal emulator's manual may say "GPU" and "kernel" while its
source is about a terminal. The source is read from the URL alone (``source_of``), as the scorer has it:

    a forge (github.com, raw.githubusercontent.com, gitlab.com, …)   host / owner / repository
    file:///usr/share/doc/<package>/…                                 the package, without -doc, -dev, -headers
    file:///usr/share/man/manN/<name>.N                               the man page's suite: <name> up to its
                                                                      first "-" or "_" (likwid-perfctr: likwid)
    file:///usr/share/<folder>/… (gtk-doc/html/<package>/…)           that folder (that package)
    any other file:///…/<folder>/<page>                               the page's folder
    any other URL                                                     host / first path segment

For page i of a source S with n_S ≥ 2 pages (relevance r_j, before this step):

    m_i         = mean of r_j over the other pages of S                       # the page itself left out
    w_i         = (n_S − 1) / (n_S − 1 + SHRINK)                              # few neighbours: little weight
    relevance_i = r_i + PRIOR_SHARE × w_i × (m_i − r_i)                       # a fifth of the way to them

A page's own words keep four fifths of its relevance: a CUDA page in a Python manual stays well above the cut,
an off-topic page of a GPU project (its code of conduct, a Vulkan guide's graphics chapter) moves a fifth of the
way up, which the medium cut, calibrated after this step, absorbs. Leave-families-out over the six splits
(docs/perf.md, "The Vision, phase 6: relevance"): ROC AUC technical vs off 0.955 → 0.958 (Debian 0.941 → 0.950,
GitHub 0.975 → 0.978) at the same technical and off-topic shares at the fold cuts. A lift only (neighbours above
the page pull it up, never down) and larger shares pass more off-topic pages of GPU sources, so the cut rises and
the technical share falls (0.5: 0.808 → 0.775): the sources whose technical pages read low (Dask's scheduler,
Pythran, llvmlite) read low as a whole, and their neighbours cannot lift them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from urllib.parse import urlsplit

import numpy as np

PRIOR_SHARE = 0.2
SHRINK = 3.0
FORGES = frozenset(("github.com", "raw.githubusercontent.com", "gitlab.com", "codeberg.org", "bitbucket.org"))
_PACKAGE_SUFFIX = re.compile(r"-(doc|dev|headers|examples|common)$")
_SHARED_FOLDERS = frozenset(("doc", "gtk-doc", "html", "help", "devhelp", "books"))
_SUITE = re.compile(r"[-_.]")


def source_of(url: str) -> str | None:
    """The source a page belongs to, from its URL alone (None: none can be told)."""
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    if parts.scheme == "file":
        return _file_source(segments)
    host = (parts.hostname or "").lower()
    if not host:
        return None
    if host in FORGES:
        return "/".join([host, *segments[:2]]) if len(segments) >= 2 else None
    return "/".join([host, *segments[:1]]) if len(segments) >= 2 else host


def _file_source(segments: list[str]) -> str | None:
    # a Debian system's layout: documentation under /usr/share/doc/<package>, man pages under /usr/share/man
    if segments[:2] != ["usr", "share"]:  # a folder of the user's: the page's own folder
        return "file:/" + "/".join(segments[:-1]) if len(segments) >= 2 else None
    rest = segments[2:]
    if len(rest) < 2:
        return None
    if rest[0] == "man":
        name = rest[-1]
        return "man:" + _SUITE.split(name, maxsplit=1)[0].lower() if len(rest) >= 3 else None
    while len(rest) > 2 and rest[0] in _SHARED_FOLDERS:
        rest = rest[1:]
    return "file:" + _PACKAGE_SUFFIX.sub("", rest[0])


def lift(relevance: np.ndarray, sources: Sequence[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """Each page's relevance moved towards its source's other pages; and the neighbours' mean (NaN: none)."""
    members: dict[str, list[int]] = defaultdict(list)
    for i, source in enumerate(sources):
        if source is not None:
            members[source].append(i)
    moved = relevance.astype(float).copy()
    neighbours = np.full(len(relevance), np.nan)
    for idx in members.values():
        if len(idx) < 2:
            continue
        own = relevance[idx].astype(float)
        others = len(idx) - 1
        mean = (own.sum() - own) / others
        neighbours[idx] = mean
        moved[idx] = own + PRIOR_SHARE * others / (others + SHRINK) * (mean - own)
    return moved, neighbours


def relative(figures: np.ndarray, sources: Sequence[str | None]) -> np.ndarray:
    """Each page's figures (rows; one column a figure) read against its source's other pages, for the value:

        figure_i − w_i × (m_i − M)      m_i: the mean over the other pages of its source, M: over the corpus,
                                        w_i = (n_S − 1) / (n_S − 1 + SHRINK), as ``lift``'s

    A source whose every page is written one way (a generator's markup, a project's habit of long tables, its
    pages all typed alike) moves the value of all of them by as much when figures are read alone: a whole
    source valued high or low, which the value, compared across sources, must not do. Read this way, a page
    keeps what sets it apart from its neighbours; a page alone in its source (or a source of one page) keeps its
    own figures, and a corpus of one source is read as it is (m_i ≈ M)."""
    figures = np.asarray(figures, dtype=float)
    out = figures.copy()
    if not len(figures):
        return out
    corpus = figures.mean(axis=0)
    members: dict[str, list[int]] = defaultdict(list)
    for i, source in enumerate(sources):
        if source is not None:
            members[source].append(i)
    for idx in members.values():
        if len(idx) < 2:
            continue
        own = figures[idx]
        others = len(idx) - 1
        mean = (own.sum(axis=0, keepdims=True) - own) / others
        out[idx] = own - others / (others + SHRINK) * (mean - corpus)
    return out
