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

    f_i         = FLOOR_QUANTILE quantile of r_j over the other pages of S    # the page itself left out
    w_i         = (n_S − 1) / (n_S − 1 + SHRINK)                              # few neighbours: little weight
    relevance_i = r_i + PRIOR_SHARE × w_i × (f_i − r_i)        × PULL_UP when f_i > r_i (a lift)

The source vouches for a page only as far as nearly all of its other pages are on topic: the pull goes towards
the level nine in ten of them reach (the 10th percentile), not towards their mean. A source whose pages are
on topic throughout (an MPI library's manual, an OpenCL binding's reference: pages that say "communicator" or
"context" more than the profile's words) lifts its weakest pages towards the cut; a source that holds
off-topic pages (an OS kernel's documentation with a few pages on DMA, a GPU vendor's blog with posts about
chatbots, a framework's FAQ) has a low floor, so it lifts none of them and draws its best-sounding pages down.
A page's own words keep most of its relevance.

Phase 7 (rel8, measured with ``topic.learned_weight`` in place): leave-families-out
by training split, technical pages at high/medium per split mean 0.797 → 0.827, worst split 0.699 → 0.699,
Debian mean 0.616 → 0.670, ROC AUC per split mean 0.963 → 0.967; pooled over families 0.844 → 0.855 technical,
6.5% → 6.2% off-topic. Towards the mean (phase 6, a fifth of the way), a stronger pull lifted the off-topic
pages of GPU sources with their sources and took the cut up (share 0.4: technical 0.756 per split); towards the
median or the upper quartile likewise. The 10th percentile of the others is computed from one sort per source
(``_floors``), so a source of many pages costs n log n.

Phase 8 (rel9): a source vouches for a page less than it draws one down (``PULL_UP`` 0.5): a source whose pages
all run on GPUs lifted its pages about another subject (an image codec's or a cryptography sample's README, a
geometry library's build page) as far as its kernels. Each training split left out in turn, off-topic pages at
high/medium per split max/mean 0.297/0.069 -> 0.270/0.065, pooled 5.08% -> 4.9%, technical pages unchanged
(0.836 pooled, per split min/mean 0.686/0.821), AUC pooled 0.9677 -> 0.9676 (per split min/mean 0.926/0.965 ->
0.927/0.965). No pull-up at all was not measured.

Phase 15 (rel16): a source draws a page above its floor down by half the gap (``PRIOR_SHARE`` 0.3 → 0.5), and
lifts one below it as before (``PULL_UP`` 0.5 → 0.3: 0.15 of the gap, as 0.3 × 0.5 was). The pages that pass the medium
cut with a thin evidence of their own are mostly best-sounding pages of mixed sources (a GPU library's samples of
another field, a model tutorial beside a few kernel chapters, a build page); drawn further towards their source's
floor they fall under it, the calibrated cut falls with them, and technical pages that sat just under it cross.
Each training split left out in turn (twelve folds): ROC AUC per split min/mean 0.9402/0.9666 → 0.9410/0.9699,
technical at high/medium 0.729/0.814 → 0.729/0.825, off-topic max/mean 16.2%/5.45% → 16.2%/5.47%; pooled AUC
0.9675 → 0.9700, technical 0.825 → 0.837 (Debian 0.695 → 0.711), off-topic 4.85% unchanged (docs/perf.md).

Phase 16 (rel17): the draw-down spares a page by its own words of the field (``spared``: the specific evidence,
``topic.Evidence.specific``, which leaves the [general] terms out: none of it below ``SPARE_FROM``, all of it from
``SPARE_FULL``). A page that speaks the field's own words (occupancy, bank conflicts, a task scheduler's work
stealing) is its own witness and need not sound like its neighbours; a model tutorial or a course chapter, whose
field words are [general] ones (attention, GPU, transformer), is drawn down as before. A lift is never spared.
Thirteen folds: technical at high/medium per split min/mean 0.736/0.833 → 0.744/0.834, ROC AUC min 0.9449 →
0.9453, off-topic pooled 4.77% → 4.70% (docs/perf.md).

Phase 20 (rel21): a project's record (``is_record``: a file named as a changelog, release notes or NEWS, or as a
licence, copyright or notice file, ``cues.FILE_CUES``) is no text about a subject: a changelog of a GPU project
names CUDA, kernels and every feature it fixed, a copyright file every library it bundles, yet neither teaches
anything (LABELS.md: such pages are administrative when their project is on topic, off-topic otherwise; none
of the labelled set's 594 pages so named is technical). Such a page keeps ``RECORD_SHARE`` of its own relevance
and stands outside its source: it is not lifted or drawn down, and it sets no floor for the source's other
pages. Seventeen folds: ROC AUC per split min/mean 0.9448/0.9719 → 0.9465/0.9756, technical at high/medium
0.622/0.8239 → 0.653/0.8361, off-topic max/mean 13.5%/4.98% → 13.5%/4.78% (docs/perf.md).

Phase 21 (rel22): a library's reference (``is_reference``: a header or a source file, a kernel language's too, by
its name's extension, or a man page of section 3, a library call's) holds its library's identifiers more than prose
about them: an API header of a sparse BLAS, a SIMD library's example, a collective library's call page say little of
the field in words, yet each is about what its library is about. Such a page below the median of its source's other
pages (``REFERENCE_QUANTILE``) is pulled ``REFERENCE_SHARE`` of the way up to it (× w_i, as above) wherever that
pull is stronger than the usual one (up towards the floor, or down to it); it is never drawn down further than
another page. Eighteen folds: ROC AUC per split min/mean 0.9573/0.9769 → 0.9575/0.9774, technical at high/medium
0.653/0.8464 → 0.663/0.8518 (Debian pooled 0.717 → 0.728), off-topic max/mean 21.6%/5.43% → 18.9%/5.20%
(docs/perf.md).

Phase 28 (rel30): a page with little text of its own (``thinness``: a documentation stub of a title and one directive
that pulls a library's reference in, a short example, a two-line readme; fewer than ``THIN_FROM`` words, all of it
from ``THIN_FULL`` words down) is judged by its source more than by its words: below the median of its source's
other pages (``THIN_QUANTILE``) it is pulled ``THIN_SHARE`` × thinness of the way up to it (× w_i) wherever that
pull is the stronger one, as a reference is. A page whose few profile words are another field's has a reading of
its own and is not so lifted. Out of fold (docs/perf.md, "phase 28: pages with little text of their own"): test23
technical at high/medium 0.706 → 0.753 (the memory library's stubs), seven folds test16..test22 pooled 0.823 → 0.829,
off-topic 3.9% → 3.7%.

Phase 29 (rel31): a page is read as its rendered page is. Its include directives (``reading.included_names``:
``.. include::``, ``.. literalinclude::``, ``.. mdinclude::``, MyST's) name files whose text the rendered page shows:
where the corpus holds them (``included_pages``: the name read from the page's own folder), the page is lifted to
the mix of its relevance and theirs, each weighed by its words, where that is higher (``INCLUDE_SHARE``; a record
is not); where a directive names a program (``includes_code``: a header's or a source file's name) on a page of
up to ``INCLUDED_CODE_WORDS`` words, the page shows that program's code and is lifted as a library's reference
is, whether or not the corpus holds the file (a cookbook's recipe: a sentence and the example it teaches). Out of
fold (docs/perf.md, "phase 29: pages whose substance is an include"): eight folds test16..test23 pooled AUC
0.9706 → 0.9707, technical at high/medium 0.827 → 0.827 (test17 0.823 → 0.826), off-topic 3.9% unchanged; the
Debian half unchanged.

Phase 30 (thin34): a whole short text is not a stub. An abstract, a man page's paragraph on a command, a short
answer or a news item (``is_whole_text``: a body of prose paragraphs, ``WHOLE_PROSE`` words at least and
``WHOLE_SHARE`` of the page's, with no code line, no directive or markup line, no include and at most
``WHOLE_LINKS`` lines with a link) says what it is about in its own words; its substance is not elsewhere, as a
stub's is (a directive that pulls a reference in, a listing, a link to the real page, a two-line readme). It keeps
of the thin-page lift only the share its own evidence of the field vouches for (none without any, all of it from
``WHOLE_EVIDENCE``): an off-topic abstract in a feed of GPU papers is no longer lifted to its feed's median; the
stubs keep their lift (docs/perf.md, "phase 30: a whole short text is not a stub").

Phase 31 (nb35): nor is a whole program text. A plain-text page whose lines are code (``is_whole_code``: a program file
as a forge or a package serves it, ``WHOLE_CODE_SHARE`` of its lines code, no link, no directive, no include) is
complete in itself, as a whole prose text is: a plotting helper, a timing printer or a label reader among a GPU
source's samples says in its own code what it is about. It keeps of the thin-page lift only the share its own evidence
of the field vouches for; a library's header or example program keeps the reference lift, which reads its name, and
the stubs of a documentation tree (markdown or HTML pages of a title and a directive) keep theirs (docs/perf.md,
"phase 31: a whole program text is not a stub").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urljoin, urlsplit

import numpy as np

from .cues import FILE_CUES, file_name, url_file_path

if TYPE_CHECKING:
    from .reading import Reading
    from .signals import Structure

PRIOR_SHARE = 0.5
FLOOR_QUANTILE = 0.1
SHRINK = 3.0
PULL_UP = 0.3
# phase 16 (rel17): a page spared the draw-down by its own words of the field ([general] terms aside, but since phase 25
# a [general] subject the page names densely, topic.TopicMatcher.confirming): none below SPARE_FROM of specific
# evidence, all of it from SPARE_FULL (topic.Evidence.specific)
SPARE_FROM = 0.1
SPARE_FULL = 0.6
# phase 20 (rel21): the share of its own relevance a project's record (a changelog's or a licence's file) keeps
RECORD_SHARE = 0.25
RECORD_CUES = ("changelog", "licence")
# phase 21 (rel22): a library's reference (a header, a source file, a man page of a library call) is lifted
# REFERENCE_SHARE of the way to the REFERENCE_QUANTILE of its source's other pages (× w_i), where that lifts it more
REFERENCE_SHARE = 0.5
REFERENCE_QUANTILE = 0.5
# a header or a source file of a compiled or scripted language or of a kernel language (OpenCL C, Metal, a compute
# shader, HIP), by the name's extension; a man page of section 3, in a man3 folder (``v1.3`` names a release)
_REFERENCE_NAME = re.compile(r"\.(h|hh|hpp|hxx|cuh|inl|inc|c|cc|cpp|cxx|cu|py|f90|rs|go|java|cl|metal|comp|hip)$", re.I)
# phase 28 (rel30): a page with little text of its own (a stub, a parameter table, a short example) is judged by its
# source more than by its words: lifted THIN_SHARE × thinness of the way to the THIN_QUANTILE of its source's other
# pages (× w_i), where that lifts it more; thinness 1 at THIN_FULL words or fewer, 0 from THIN_FROM (0: the rule off)
THIN_SHARE = 0.5
THIN_QUANTILE = 0.5
THIN_FULL = 60
THIN_FROM = 250
# phase 30 (thin34): a whole short text (an abstract, a man page's paragraph on a command, a short answer, a news
# item) is no stub: a body of prose, WHOLE_PROSE words at least and WHOLE_SHARE of the page's, with no code line,
# no directive or markup line, no include and at most WHOLE_LINKS lines with a link. Its own words say what it is
# about; it keeps of the thin-page lift only what its own evidence of the field vouches for: none without any of it,
# all of it from WHOLE_EVIDENCE (topic.Evidence.score)
WHOLE_PROSE = 40
WHOLE_SHARE = 0.6
WHOLE_LINKS = 1
WHOLE_EVIDENCE = 0.1
# phase 31 (nb35): a whole program text is no stub either: a plain-text page (a program file as a forge serves it, kind
# "text") whose lines are code, WHOLE_CODE_SHARE of them at least, with no link line, no directive or markup line and
# no include. A plotting helper, a timing printer, a label reader of a GPU source's samples is complete in itself; it
# keeps of the thin-page lift only what its own evidence of the field vouches for, as a whole prose text does
WHOLE_CODE_SHARE = 0.2
# phase 29 (rel31): a page whose include directives name pages of the corpus (``reading.included_names``, read from the
# page's own folder) is read as its rendered page is, its own words and theirs: lifted to the mix of its relevance
# and theirs, each weighed by its words, where that is higher (INCLUDE_SHARE of the way; 0: the rule off)
INCLUDE_SHARE = 1.0
# a page that includes a program (a header's or a source file's name, as ``is_reference`` reads one) shows that
# program's code: a page of up to INCLUDED_CODE_WORDS words of its own (a longer one is a guide that shows a listing
# among its prose, read by its words) is lifted as a library's reference is (0: the rule off)
INCLUDED_CODE = 1.0
INCLUDED_CODE_WORDS = 1000
_LIBRARY_CALL_PAGE = re.compile(r"/man3[a-z]*/[^/]+\.3[a-z]*(\.gz)?$", re.IGNORECASE)
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


def spared(specific: float) -> float:
    """The share of the draw-down a page is spared by its own specific evidence (0..1, ``SPARE_FROM``..``SPARE_FULL``)."""
    return min(1.0, max(0.0, (specific - SPARE_FROM) / (SPARE_FULL - SPARE_FROM)))


def is_record(url: str) -> bool:
    """Whether the URL's file is named as a project's record: a changelog (changelog, changes, NEWS, release
    notes) or a licence (licence, copying, copyright, notice), as ``cues.FILE_CUES`` reads a name."""
    name = file_name(url)
    return any(FILE_CUES[cue].search(name) for cue in RECORD_CUES)


def is_reference(url: str) -> bool:
    """Whether the URL's file is named as a library's reference: a header or a source file (its extension: .h, .hpp,
    .cuh, .c, .cpp, .cu, .py, .cl, .comp, …) or a man page of section 3 in its man3 folder, a library call's
    (``man3/name.3``, ``man3/name.3x.gz``; a page named ``v1.3`` elsewhere is a release's)."""
    return bool(_REFERENCE_NAME.search(file_name(url)) or _LIBRARY_CALL_PAGE.search(url_file_path(url)))


def thinness(words: int, foreign: float = 0.0, whole: bool = False, evidence: float = 0.0) -> float:
    """How little text of its own a page has to be judged by (0..1: 1 at ``THIN_FULL`` words or fewer, 0 from
    ``THIN_FROM``); 0 for a page whose own words are another field's (``topic.Evidence.foreign``: it has a reading).
    A whole short text (``whole``, ``is_whole_text`` or ``is_whole_code``) keeps of it the share its own ``evidence``
    of the field vouches for (none at 0, all of it from ``WHOLE_EVIDENCE``): an abstract about soil moisture among a
    feed's GPU papers, or a plotting helper among its GPU samples, says what it is about, and is believed."""
    if THIN_SHARE <= 0 or foreign > 0:
        return 0.0
    thin = min(1.0, max(0.0, (THIN_FROM - words) / (THIN_FROM - THIN_FULL)))
    if whole and WHOLE_EVIDENCE > 0:
        thin *= min(1.0, max(0.0, evidence) / WHOLE_EVIDENCE)
    return thin


def is_whole_text(structure: Structure, includes: Sequence[str] = ()) -> bool:
    """Whether a page's text is a whole one, however short: a body of prose paragraphs (``WHOLE_PROSE`` words at
    least, ``WHOLE_SHARE`` of its words), with no code line, no directive or markup line (an rst title's underline
    counts), no include directive and at most ``WHOLE_LINKS`` lines with a link; a stub's substance is elsewhere
    (a directive that pulls a reference in, a listing, a link to the real page, a line or two of readme)."""
    prose = structure.prose_words
    return (
        prose >= WHOLE_PROSE
        and prose >= WHOLE_SHARE * structure.words
        and not structure.code_lines
        and not structure.rst_lines
        and structure.link_lines <= WHOLE_LINKS
        and not includes
    )


def is_whole_code(structure: Structure, includes: Sequence[str] = (), kind: str = "text") -> bool:
    """Whether a page is a whole program text, however short: a plain-text page (``kind`` "text": a program file as a
    forge or a package serves it, not a markdown or HTML page) whose lines are code (``WHOLE_CODE_SHARE`` of them at
    least), with no line with a link, no directive or markup line and no include directive. Its code is the page's
    substance, as a whole prose text's paragraphs are; a stub's is elsewhere (a documentation page of a title and a
    directive, a readme of a line or two, a link to the real page)."""
    return (
        kind == "text"
        and structure.code_lines > 0
        and structure.code_lines >= WHOLE_CODE_SHARE * structure.lines
        and not structure.link_lines
        and not structure.rst_lines
        and not includes
    )


class LiftInputs(NamedTuple):
    """What ``lift`` reads of each page beside its relevance, in ``lift``'s order: ``lift(relevance, *inputs)``."""

    sources: list[str | None]
    spare: np.ndarray
    records: np.ndarray
    references: np.ndarray
    thin: np.ndarray
    includes: list[tuple[int, ...]]
    words: np.ndarray


def lift_inputs(readings: Sequence[Reading]) -> LiftInputs:
    """Each page's source, spared evidence, record, reference, thinness, included pages and words, read from its
    ``Reading``: the one reading of the lift's inputs for the scorer and training alike, so that the two lift alike."""
    return LiftInputs(
        [source_of(r.url) for r in readings],
        np.array([spared(r.evidence.specific) for r in readings]),
        np.array([is_record(r.url) for r in readings], dtype=bool),
        np.array([is_reference(r.url) or includes_code(r.includes, r.words) for r in readings], dtype=bool),
        np.array(
            [
                thinness(
                    r.words,
                    r.evidence.foreign,
                    is_whole_text(r.structure, r.includes) or is_whole_code(r.structure, r.includes, r.kind),
                    r.evidence.score,
                )
                for r in readings
            ]
        ),
        included_pages([r.url for r in readings], [r.includes for r in readings]),
        np.array([r.words for r in readings], dtype=float),
    )


def includes_code(names: Sequence[str], words: int = 0) -> bool:
    """Whether a page of ``words`` words of its own (up to ``INCLUDED_CODE_WORDS``) has include directives that
    name a program (a header or a source file, ``is_reference``'s extensions): a cookbook's or a tutorial's page
    of a sentence and a ``literalinclude`` of its example renders as that example, a library's code, whether or
    not the corpus holds the file."""
    if INCLUDED_CODE <= 0 or words > INCLUDED_CODE_WORDS:
        return False
    return any(_REFERENCE_NAME.search(file_name(name)) for name in names)


def included_pages(urls: Sequence[str], names: Sequence[Sequence[str]]) -> list[tuple[int, ...]]:
    """For each page, the pages of the corpus (row indices) its include directives name, each read from the
    page's own folder (``urljoin``: ``../../examples/a.cpp`` beside ``docs/sphinx/cookbook/a.rst``); a name with a
    scheme or from the root (``/usage.rst``: Sphinx reads it from the source tree's top, which a URL does not
    say) names none, and a page never includes itself."""
    if not any(names):
        return [() for _ in urls]
    by_url = {url: i for i, url in enumerate(urls)}
    found: list[tuple[int, ...]] = []
    for i, (url, named) in enumerate(zip(urls, names, strict=True)):
        pages = (by_url.get(urljoin(url, name)) for name in named if "://" not in name and not name.startswith("/"))
        found.append(tuple(dict.fromkeys(j for j in pages if j is not None and j != i)))
    return found


def lift(
    relevance: np.ndarray,
    sources: Sequence[str | None],
    spare: np.ndarray | None = None,
    records: np.ndarray | None = None,
    references: np.ndarray | None = None,
    thin: np.ndarray | None = None,
    includes: Sequence[Sequence[int]] | None = None,
    words: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each page's relevance moved towards its source's other pages' floor; and that floor (NaN: none).

    ``spare``: per page, the share of the draw-down it is spared (``spared``; none when not given).
    ``records``: per page, whether it is a project's record (``is_record``): it keeps ``RECORD_SHARE`` of its
    relevance and stands outside its source (none when not given).
    ``references``: per page, whether it is a library's reference (``is_reference``): below the median of its
    source's other pages, it moves ``REFERENCE_SHARE`` of the way up to it where that pull is the stronger one,
    against the usual pull up or down (none when not given).
    ``thin``: per page, its ``thinness``: it moves ``THIN_SHARE`` × thinness of the way up to its source's other
    pages' ``THIN_QUANTILE`` where that pull is the stronger one (none when not given).
    ``includes``, ``words``: per page, the pages its include directives name (``included_pages``) and its words: a
    page that includes some is lifted ``INCLUDE_SHARE`` of the way to the mix of its relevance and theirs (after
    this lift), each weighed by its words, where that is higher; a record is not (none when not given)."""
    if records is not None and np.any(records):
        relevance = np.where(records, RECORD_SHARE * relevance.astype(float), relevance)
        sources = [None if record else source for source, record in zip(sources, records, strict=True)]
    members = _members(sources)
    moved = relevance.astype(float).copy()
    floors = np.full(len(relevance), np.nan)
    for idx in members.values():
        if len(idx) < 2:
            continue
        own = relevance[idx].astype(float)
        others = len(idx) - 1
        floor = _floors(own)
        floors[idx] = floor
        gap = floor - own
        down = gap if spare is None else gap * (1 - spare[idx])
        weight = others / (others + SHRINK)
        step = PRIOR_SHARE * weight * np.where(gap > 0, PULL_UP * gap, down)
        if references is not None:  # the stronger pull: the usual one, or the lift towards the others' median
            towards = REFERENCE_SHARE * weight * np.maximum(0.0, _quantiles(own, REFERENCE_QUANTILE) - own)
            step = np.where(references[idx] & (towards > np.abs(step)), towards, step)
        if thin is not None and THIN_SHARE > 0:  # a page of little text of its own: judged by its source
            towards = THIN_SHARE * weight * thin[idx] * np.maximum(0.0, _quantiles(own, THIN_QUANTILE) - own)
            step = np.where(towards > np.abs(step), towards, step)
        moved[idx] = own + step
    if includes is not None and words is not None and INCLUDE_SHARE > 0:
        outside = records if records is not None else np.zeros(len(moved), dtype=bool)
        moved = _with_included(
            moved, [() if out else pages for pages, out in zip(includes, outside, strict=True)], words
        )
    return moved, floors


def _with_included(relevance: np.ndarray, includes: Sequence[Sequence[int]], words: np.ndarray) -> np.ndarray:
    """Each page that includes pages of the corpus lifted towards the words-weighed mix of its relevance and
    theirs (their relevance before this step: one file included by another is read as it was)."""
    out = relevance.copy()
    for i, pages in enumerate(includes):
        if not pages:
            continue
        weights = np.maximum(1.0, words[[i, *pages]])
        mix = float(weights @ relevance[[i, *pages]] / weights.sum())
        out[i] = relevance[i] + INCLUDE_SHARE * max(0.0, mix - relevance[i])
    return out


def _members(sources: Sequence[str | None]) -> dict[str, list[int]]:
    """The pages (row indices) of each known source."""
    members: dict[str, list[int]] = defaultdict(list)
    for i, source in enumerate(sources):
        if source is not None:
            members[source].append(i)
    return members


def _floors(values: np.ndarray) -> np.ndarray:
    """For each value, the FLOOR_QUANTILE quantile of the other values (``_quantiles``)."""
    return _quantiles(values, FLOOR_QUANTILE)


def _quantiles(values: np.ndarray, quantile: float) -> np.ndarray:
    """For each value, the ``quantile`` quantile (linear, as numpy's) of the other values: one sort.

    The others of the value at sorted position r are the sorted values without position r, so their k-th
    smallest is sorted[k] below r and sorted[k + 1] from r on."""
    n = len(values)
    order = np.argsort(values, kind="stable")
    ranks = np.empty(n, dtype=int)
    ranks[order] = np.arange(n)
    ordered = values[order]
    position = quantile * (n - 2)
    lo = int(np.floor(position))
    hi = min(lo + 1, n - 2)
    below = ordered[lo + (lo >= ranks)]
    above = ordered[hi + (hi >= ranks)]
    return below + (position - lo) * (above - below)


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
    members = _members(sources)
    for idx in members.values():
        if len(idx) < 2:
            continue
        own = figures[idx]
        others = len(idx) - 1
        mean = (own.sum(axis=0, keepdims=True) - own) / others
        out[idx] = own - others / (others + SHRINK) * (mean - corpus)
    return out
