"""Which copy of two to keep: the rendered, original, newer, more complete one, and why.

``preference(a, b)`` says whether ``a`` is the better copy to keep and which rule decided, with the figures it
compared (``{"rule": "version", "where": "url", "versions": [...]}``): ``copies.measure`` counts a document as
redundant only in a copy preferred over it, and ``shijie show`` prints the reason. The preference never looks
at a score or rank; the first rule that tells the two apart decides:

    0. the current revision of a repository over a past one (``_current``: a branch over a pinned commit, else
       the commit most of the repository's pages were read at; of one path's two states, fewer pages tell):
       a page's state first, its form within a state;
       then the original over a machine-made form of it: a notebook over the written page an exporter made of it
       (its outputs named as ``<notebook>_files/`` images: ``_notebook_export``), a file over its preprocessed or
       expanded form beside it (``gemm_pre_64.sass`` of ``gemm64.sass``: ``generated_form``), a LaTeX file over
       the Markdown or text a converter made of it under its name (``latex_conversion``); and the file a
       generator wrote from a template (``{% for %}``, ``{{ x }}``) over the template (``template_pair``), or
       from a file its name marks as the template of one beside it (``tables.template.md`` of ``tables.md``:
       ``named_template``); then a solution over the exercise its name marks it the solution of
       (``max_reduction_solution.cu`` beside ``max_reduction.cu``: ``solution_pair``);
    1. of two written files (no HTML), the one outside an archive of past states (``past_order``: ``archive/``,
       ``legacy/``, ``old/``) over the one in it, whichever is reST, and the one in its repository's top
       documentation folder over one in a documentation tree further down (``docs_tree``: ``docs/how-to/x.rst``
       beside ``source/docs/x.md``, an older layout left behind); of two change logs, the one whose first entry
       heading names the later release (``newest_release``: a site's copy one release behind the text); then a
       rendered page over its source copy (named
       by the crawler, a Sphinx ``_sources/*.rst.txt`` / ``.md.txt`` URL, a title made of markup, reStructuredText
       markup in a text file), and an HTML page over a Markdown or plain-text file of the same name
       (``switch/readme.html`` beside ``switch/readme.md``: what a documentation generator renders from its source; a
       text file with no extension whose name is the page's stem, ``TUNING_README`` beside
       ``html/TUNING_README.html``), and an HTML page over a man page (``…/man3/MPI_Send.3``: the troff the same
       generator wrote beside it; Doxygen names the HTML ``a00198.html``); a Debian package's plain-text upstream
       changelog (``changelog.gz``) beside an HTML page of its package (the text is the page's source or the text
       version Debian's policy asks for beside it: ``_packaged_changelog``);
       the original over its translation: a path marked with a language (``docs/zh/…``, ``notes.zh.md``)
       is the translation of one not marked, or marked ``en``; so is a page whose text is in another language
       (``CopyInfo.foreign``) beside an English one;
    2. of one source's upload record in two binary packages' folders (``/usr/share/doc/<package>/changelog.Debian``:
       ``upload_record_folder``), the folder whose name sorts first, byte order (no version read in the names);
       the newer version: the first path segment or title word where the two differ, read as numbers
       (``llvm-14-doc`` < ``llvm-19-doc``, ``v2.1`` < ``v3.5``), an edition mark read as its number
       (``first-edition/`` < ``second-edition/``, "2nd ed." < "3rd ed.": ``editions``), a site's channel folder
       after a numbered release (``/en/v1.2/`` < ``/en/latest/``, ``/stable/``: ``_channel_order``); two man
       sections (``man1/``, ``man7/``) are no versions;
    3. of a written page or source file and its variant for one case (``README_apu.md`` beside ``README.md``:
       ``case_variant``), the general one; then the newer date it shows (metadata, or the latest date written in
       it), when a month or more apart;
       then, of one routine's page in two precisions (``precision_twins``: ``sgssv_8c.html`` beside
       ``dgssv_8c.html``, BLAS's first letters s, d, c, z; or a suffix, ``plan_single.h`` beside
       ``plan_double.h``), the double-precision one (d, then z, s, c, h);
    4. the more complete one (more distinct shingles, by more than 5%);
    5. HTML over markdown or plain text; then the lower id, so the choice is always the same.

The rules compare two ``CopyInfo``: the record the copies stage keeps of each document (it lives here, with
the rules that read it, so that this module imports nothing of ``copies``). ``RULE_WEIGHT`` ranks the rules
by strength, to break a ring of copies that prefer each other through the rules' tolerances.
``one_path_two_revisions`` tells whether two URLs are one file at two revisions, which lets a contained text
count as an earlier form of the larger one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from .. import redundancy


@dataclass(frozen=True)
class CopyInfo:
    """What the copies stage knows of one document (``copies.Signer.sign`` makes it), and what the rules read."""

    id: int
    url: str
    title: str
    kind: str
    newest_date: float
    source_copy: bool
    text: redundancy.Signature | None
    code: redundancy.Signature | None
    code_share: float
    boilerplate_share: float  # share of the words dropped as boilerplate
    copy_of: str | None = None  # the rendered page the crawler says this is the source of (Sphinx _sources)
    sample: np.ndarray | None = None  # the text's shingle hashes below copies.SAMPLE_BELOW (consistent sample), uint32
    words: np.ndarray | None = None  # hashes of its language-neutral words, for a page with a translation (sorted)
    anchors: np.ndarray | None = None  # ... and of what translators leave alone, in the page's order (copies.anchors)
    revision_pages: int = 0  # pages of the corpus read at its repository revision (copies.measure sets it)
    includes: tuple[str, ...] = ()  # the files it only includes, as written (copies.only_included)
    renders: str = ""  # the page its front matter names to render in its place, as written (copies.front_matter_page)
    foreign: bool = False  # its text is in another language than English, no path marking it (copies.foreign_text)
    moved_to: tuple[str, ...] = ()  # a short page's relative links, where a "moved" stub says it went (copies.moved)
    exported_from: str = ""  # the notebook whose outputs a written page shows as an exporter names them (copies)
    template: bool = False  # it holds a template engine's tags ({{ x }}, {% for %}): a generator's input (copies)
    templated: bool = False  # a template's output with little of its own, signed with the template's lines (copies)
    values: np.ndarray | None = None  # a data or code file's numbers in its order, for its other languages' forms
    names: np.ndarray | None = None  # ... and the words of its names (``copies.language_forms``), sorted
    pointers: tuple[str, ...] = ()  # a short page's link targets, absolute ones too (``copies.two_pointers``)
    worded: tuple[str, ...] = ()  # a page's lines, its own names and constants masked (``copies.swapped``)
    plain: bytes = b""  # a file's non-blank lines as written, spacing collapsed, compressed (``copies.substituted``)
    plain_lines: int = 0  # ... and how many
    shape: np.ndarray | None = None  # a source file's lines, constants masked, hashed in order (``copies.instances``)
    unprecise: redundancy.Signature | None = None  # a file in one of two precisions, its precision words masked
    typeless: np.ndarray | None = None  # a source file named by its precision, its element type's spellings masked
    release: tuple[int, ...] = ()  # a change log's newest release, as its headings write it (``newest_release``)
    lines: np.ndarray | None = None  # an exercise's or its solution's stripped lines, hashed (sorted, unique)
    fortran: bool = False  # a header written in Fortran (``copies.written_in_fortran``): a Fortran program's include
    terms: int = 0  # a licence's terms, its words but its holder lines', as one checksum (``copies.licence_terms``)
    holders: frozenset[str] = frozenset()  # ... and the words of its holder lines (a year's line, copyright noise out)
    term_words: str = ""  # ... and its terms' words, joined by spaces (``copies.noted_terms``)


RULE_WEIGHT = {
    "rendered": 32,
    "original": 24,
    "generated": 24,
    "program": 24,  # one program in two languages (``copies.program_forms``: no rule of the preference's)
    "version": 16,
    "package": 16,  # one upload record in two binary packages' folders (``upload_record_folder``)
    "date": 8,
    "general": 7,
    "solution": 7,
    "current": 6,
    "precision": 5,
    "complete": 4,
    "html": 2,
    "id": 1,
}
CURRENT_PAGES = 3  # a revision is the repository's current one with this many pages read at it ...
CURRENT_RATIO = 2  # ... and this many times the pages of the other
STATE_PAGES = 2  # ... or, of one path read at two revisions (one file's two states), this many


def preference(a: CopyInfo, b: CopyInfo) -> tuple[bool, dict]:
    """Whether ``a`` is the better copy to keep of the two (see the module docstring), and why: ``{"rule":
    current | generated | rendered | original | package | version | general | date | precision | complete | html | id,
    ...}`` with the figures the rule compared, ``a``'s first."""
    current = _current(a, b)  # two states of one repository: which state comes first, its form within one
    if current:
        return current > 0, {
            "rule": "current",
            "revisions": [_short(a.url), _short(b.url)],
            "pages": [a.revision_pages, b.revision_pages],
        }
    exported = _notebook_export(a, b) - _notebook_export(b, a)
    if exported:  # a notebook beside the page an exporter wrote from it (its outputs as <stem>_files/ images)
        return exported < 0, {"rule": "generated", "from": "notebook export"}
    generated = generated_form(a.url, b.url)
    if generated:  # a file beside its preprocessed or expanded form (``gemm_pre_64.sass`` of ``gemm64.sass``)
        return generated > 0, {"rule": "generated", "from": "generated form"}
    converted = latex_conversion(a.url, b.url) - latex_conversion(b.url, a.url)
    if converted:  # a LaTeX source beside the Markdown or text a converter made of it (``manual.tex``, ``manual.md``)
        return converted > 0, {"rule": "generated", "from": "conversion"}
    named = named_template(b.url, a.url) - named_template(a.url, b.url)
    if named:  # a file its name marks as the template of the file beside it (``tables.template.md``)
        return named > 0, {"rule": "rendered", "from": "template"}
    solved = solution_pair(a.url, b.url)
    if solved:  # an exercise beside its solution under its name (``max_reduction.cu``, ``max_reduction_solution.cu``)
        names = [url_path(info.url).rpartition("/")[2] for info in ((a, b) if solved > 0 else (b, a))]
        return solved > 0, {"rule": "solution", "names": names}
    if a.template != b.template and template_pair(a.url if a.template else b.url, b.url if a.template else a.url):
        # a template (``{{ op.name }}``, ``{% for %}``) and the file a generator wrote from it under its name
        return b.template, {"rule": "rendered", "from": "template"}
    if "html" not in (a.kind, b.kind):
        # two written files (Markdown, reST, text) of which one is kept in an archive of past states: the current
        # tree's file is kept, though it is the one written in reST markup (a source copy's marks)
        past, parts = past_order(a.url, b.url)
        if past:
            return past > 0, {"rule": "version", "where": "url", "versions": parts}
        tree = docs_tree(a.url, b.url)
        if tree:  # the repository's documentation folder beside an older tree of its pages deeper down
            return tree > 0, {"rule": "version", "where": "docs tree", "versions": [_tree(a.url), _tree(b.url)]}
    if a.release and b.release and a.release != b.release:
        # two change logs of the same entries, one a release behind the other (a site's copy not refreshed at the
        # last release): the one whose newest release is later holds every entry, and is kept
        return a.release > b.release, {
            "rule": "version",
            "where": "release",
            "versions": [_dotted(a.release), _dotted(b.release)],
        }
    if a.source_copy != b.source_copy:
        return b.source_copy, {"rule": "rendered"}
    if (a.kind == "html") != (b.kind == "html") and {a.kind, b.kind} <= _RENDERED_FROM and _same_name(a, b):
        return a.kind == "html", {"rule": "rendered", "from": "same name"}
    man_a, man_b = bool(MAN_PAGE.search(a.url)), bool(MAN_PAGE.search(b.url))
    if man_a != man_b and "html" in (a.kind, b.kind):  # the HTML page a documentation generator made beside it
        return man_b and a.kind == "html", {"rule": "rendered", "from": "man page"}
    lang_a, lang_b = translation_language(a), translation_language(b)
    if lang_a != lang_b and "" in (lang_a, lang_b):  # one says it is a translation, the other does not
        return lang_a == "", {"rule": "original", "languages": [lang_a or "-", lang_b or "-"]}
    if (
        _packaged_changelog(a) != _packaged_changelog(b)
        and "html" in (a.kind, b.kind)
        and deb_place(a.url) == deb_place(b.url)
    ):  # Debian's plain-text changelog beside the package's HTML page of the same changes: the page kept
        return _packaged_changelog(b) and a.kind == "html", {"rule": "rendered", "from": "packaged changelog"}
    record_a, record_b = upload_record_folder(a.url), upload_record_folder(b.url)
    if record_a and record_b and record_a != record_b:
        # one source's upload record installed by two of its binary packages (``copies`` finds them one record only
        # when their texts are one): the package whose folder's name sorts first, byte order, whatever was stored
        # first; no version read in the names (``libzmq3-dev`` beside ``libzmq5`` are one upload's two packages)
        return record_a < record_b, {"rule": "package", "names": [record_a, record_b]}
    for field in ("url", "title"):
        order, parts = _version_order(getattr(a, field), getattr(b, field))
        if order:
            return order > 0, {"rule": "version", "where": field, "versions": parts}
    variant = case_variant(a.url, b.url) - case_variant(b.url, a.url) if "html" not in (a.kind, b.kind) else 0
    if variant:  # the general page beside its variant for one case (``README.md``, ``README_apu.md``)
        general, case = (a, b) if variant > 0 else (b, a)
        names = [url_path(info.url).rstrip("/").rpartition("/")[2] for info in (general, case)]  # as written
        return variant > 0, {"rule": "general", "names": names}
    if a.newest_date and b.newest_date and abs(a.newest_date - b.newest_date) >= 1 / 12:
        return a.newest_date > b.newest_date, {"rule": "date", "dates": [_month(a.newest_date), _month(b.newest_date)]}
    twins = precision_twins(a.url, b.url)
    if twins:  # one routine's page in two precisions: the double-precision one is the reference
        rank_a, rank_b = (PRECISIONS.index(t) for t in twins)
        return rank_a < rank_b, {"rule": "precision", "precisions": list(twins)}
    size_a = a.text.size if a.text else 0
    size_b = b.text.size if b.text else 0
    if min(size_a, size_b) and abs(size_a - size_b) > 0.05 * max(size_a, size_b):
        return size_a > size_b, {"rule": "complete", "sizes": [size_a, size_b]}
    if (a.kind == "html") != (b.kind == "html"):
        return a.kind == "html", {"rule": "html"}
    return a.id < b.id, {"rule": "id"}


PRECISIONS = "dzsch"  # BLAS/LAPACK's precision letters, the page kept first: double, double complex, single, complex
# (and h, half, which a suffix names: ``precision_suffix_twins``)
_PRECISION_NAME = re.compile(r"^(.*/)?([sdcz])([a-z0-9_]{3,}[^/]*)$", re.IGNORECASE)  # sgssv_8c.html, dpotrf.3


def url_path(url: str) -> str:
    """The URL without its query and fragment."""
    return url.split("?", 1)[0].split("#", 1)[0]


def precision_of(url: str) -> tuple[str, str] | None:
    """A file name read as one routine in a precision (BLAS and LAPACK name each routine once per precision, by a
    first letter: ``sgemm``, ``dgemm``, ``cgemm``, ``zgemm``): the routine, the URL with that letter as ``~``
    (``…/html/~gssv_8c.html``), and the letter; None for a name that starts with no such letter and three more
    characters."""
    found = _PRECISION_NAME.match(url_path(url))
    return (f"{found.group(1) or ''}~{found.group(3).lower()}", found.group(2).lower()) if found else None


def precision_twins(a: str, b: str) -> tuple[str, str] | None:
    """The precision letters of two URLs that are one routine's page in two precisions (one folder, the file names
    the same but for a first letter of ``PRECISIONS``: ``sgssv_8c.html`` and ``dgssv_8c.html``; or but for a
    precision suffix, ``precision_suffix_twins``), else None. A numerical library generates such pages from one
    template, so their texts differ in the letters only: one page in two precisions, not two pages of one
    template."""
    of_a, of_b = precision_of(a), precision_of(b)
    if of_a is None or of_b is None or of_a[0] != of_b[0] or of_a[1] == of_b[1]:
        return precision_suffix_twins(a, b)
    return of_a[1], of_b[1]


_PRECISION_SUFFIX = re.compile(
    r"^(.*/[^/]+?)[-_](float|single|f32|fp32|double|f64|fp64|half|f16|fp16)(\.[^/]*)?$", re.IGNORECASE
)
_WRITTEN_PAGE = re.compile(r"\.(?:html?|md|markdown|mdx|rst|txt|adoc)(?:\.gz)?$", re.IGNORECASE)
_SUFFIX_LETTER = {"float": "s", "single": "s", "f32": "s", "fp32": "s", "double": "d", "f64": "d"}
_SUFFIX_LETTER |= {"fp64": "d", "half": "h", "f16": "h", "fp16": "h"}


def precision_suffix(url: str) -> tuple[str, str] | None:
    """A file name read as one file's form in a precision its suffix names (``transform_float.h``, ``gemm_f16.cu``,
    ``solver-double.c``): the URL without the suffix (``…/transform.h``) and the precision's letter (``s`` single,
    ``d`` double, ``h`` half); None for a name with no such suffix."""
    found = _PRECISION_SUFFIX.match(url_path(url))
    if found is None:
        return None
    return found.group(1) + (found.group(3) or ""), _SUFFIX_LETTER[found.group(2).lower()]


def precision_suffix_twins(a: str, b: str) -> tuple[str, str] | None:
    """The precision letters of two files of one folder that are one file in two precisions by their names: the
    same name but for a precision suffix (``grid_f32.h`` beside ``grid_f64.h``), or one name and the same name
    with such a suffix (``transform_float.h`` beside ``transform.h``: the name without a suffix is the other
    precision, double beside a single or half suffix, single beside a double one); else None. A library that
    offers its interface in two precisions writes the second file from the first, the type and the names'
    precision word changed on every line. Source files only: a written page's suffix names an edition or a case
    (``guide-single.html``, the manual on one page; ``lab_d.md``, the fourth of a series), two pages of one
    template that ``copies.siblings`` must still hold to its cut."""
    if _WRITTEN_PAGE.search(url_path(a)) or _WRITTEN_PAGE.search(url_path(b)):
        return None
    of_a, of_b = precision_suffix(a), precision_suffix(b)
    path_a, path_b = url_path(a), url_path(b)
    if of_a and of_b:
        return (of_a[1], of_b[1]) if of_a[0] == of_b[0] and of_a[1] != of_b[1] else None
    if of_a and of_a[0] == path_b:
        return of_a[1], "s" if of_a[1] == "d" else "d"
    if of_b and of_b[0] == path_a:
        return "s" if of_b[1] == "d" else "d", of_b[1]
    return None


_CHANGE_LOG_WORDS = r"change[-_]?log|changes|news|history|release[-_]?notes"
CHANGE_LOG_NAME = re.compile(rf"(?:^|/)(?:{_CHANGE_LOG_WORDS})(?!\.debian)(?:\.\w+)*$", re.IGNORECASE)
"""A cumulative change log, every release's entries newest first (``CHANGES.rst``, ``NEWS``, ``changelog.html``):
its first entry heading names its newest release (``newest_release``). Not Debian's upload record."""
RELEASE_RECORD = re.compile(rf"/(?:{_CHANGE_LOG_WORDS}|releases?)(?:[-_.][\w-]+)*$", re.IGNORECASE)
"""A file that records releases, one or all (``CHANGE_LOG_NAME``'s change logs, and one release's notes,
``releases/RELEASE.html``, ``changelog-2.1.md``, ``release.html``, Debian's ``changelog.Debian.gz``): the record
of moments, not one text's states (``copies.one_document``, ``copies.release_part``). The two are not one
reading: a page of one release's notes beside the history that gathers them is no change log one release behind
it (read as one, its heading's version made the one release's page the history's keep: test16's bottleneck
notes, one pair missed, one flag more and three copies to keep flagged)."""
_RELEASE_HEADING = re.compile(  # 2021-01-25 6.9.11-60 <…>, v2.4.1, Version 1.10 (…), name 0.3.0 - 2020-01-02
    r"^(?:\d{4}-\d\d-\d\d\s+|(?:version|release)\s+|[A-Za-z][\w+-]*\s+)?v?(\d+(?:\.\d+)+(?:-\d+)?)"
    r"(?:\s*(?:$|[-(<:\[¶–—]|\d{4}|[A-Z][a-z]+ \d))",
    re.IGNORECASE,
)
RELEASE_HEADING_CHARS = 100  # a change log's entry heading is a short line, no list item


def newest_release(url: str, text: str) -> tuple[int, ...]:
    """A change log's newest release (``CHANGES.rst``, ``NEWS``, ``changelog.html``; not Debian's upload record):
    the version of its first entry heading (a change log lists its releases newest first), a short line that is
    no list item, the version first or after a date, ``version`` or one name, and nothing but a date, a dash or a
    bracket after it (``2021-01-25  6.9.11-60 <maintainer>``, ``## v2.4.1``, ``Version 1.10 (2020-03-01)``,
    ``tool 0.3.0 - 2021-05-06``), read as numbers (``6.9.11-60`` → 6, 9, 11, 60); a number inside a sentence
    (``which is 72.0``, ``the v0.3.1 and the documentation``) is none. () for another file, or one that writes
    no version."""
    if not CHANGE_LOG_NAME.search(url_path(url)):
        return ()
    for line in text.split("\n"):
        line = line.strip().lstrip("#= ")
        if not line or len(line) > RELEASE_HEADING_CHARS or line[0] in "*-+•>|":
            continue
        found = _RELEASE_HEADING.match(line)
        if found is not None:
            return tuple(int(n) for n in re.split(r"[.-]", found.group(1)))
    return ()


def _dotted(release: tuple[int, ...]) -> str:
    return ".".join(map(str, release))


_SOLUTION_NAME = re.compile(
    r"^(?:(?P<after>.+?)[-_.]+(?:solutions?|sol|solved)|(?:solutions?|sol|solved)[-_.]+(?P<before>.+))$", re.IGNORECASE
)
_SOLUTION_DIR = re.compile(r"solutions?|answers?|solved", re.IGNORECASE)


_PROGRAM_SOURCE = re.compile(
    r"\.(?:cu|cuh|c|cc|cpp|cxx|h|hh|hpp|hxx|hip|cl|py|ipynb|f|f90|F90|f95|f03|for|jl|rs|go|java|js|ts)$", re.IGNORECASE
)


def exercise_paths(url: str) -> tuple[str, ...]:
    """The paths of the exercise a file's name marks it the solution of: the same name without its solution mark
    (``max_reduction_solution.cu`` of ``max_reduction.cu``; ``_sol``, ``-solution``, ``solution_`` alike, in any
    case), the same extension, in its own folder, or, for a file in a solution folder (``solutions/``,
    ``answers/``), in the folder above it; () for a name with no such mark. A name that only holds the word
    (``solver_solution_notes.md``, ``solutions.md``) marks no exercise. A program or notebook under its own name
    in a solution folder is the solution of the file at its path without that folder (``ex02/solution/ex02.c`` of
    ``ex02/ex02.c``, ``exercise/solution/mapping/core.cpp`` of ``exercise/mapping/core.cpp``): the course ships
    the program to fill in and, in a folder of its own, the same program filled in."""
    path = url_path(url)
    folder, _, name = path.rpartition("/")
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem or not folder:
        return ()
    found = _SOLUTION_NAME.match(stem)
    if found is None:
        if not _PROGRAM_SOURCE.search(name):
            return ()
        parts = folder.split("/")
        return tuple(
            "/".join([*parts[:i], *parts[i + 1 :], name])
            for i, part in enumerate(parts)
            if _SOLUTION_DIR.fullmatch(part)
        )
    exercise = (found.group("after") or found.group("before")).strip("-_.")
    if not exercise:
        return ()
    named = f"{exercise}.{extension}"
    above, _, last = folder.rpartition("/")
    return (
        (f"{folder}/{named}", f"{above}/{named}") if above and _SOLUTION_DIR.fullmatch(last) else (f"{folder}/{named}",)
    )


def solution_pair(a: str, b: str) -> int:
    """1 when ``a`` is the solution of the exercise ``b`` by their names (``exercise_paths``), -1 the other way
    round, else 0. An exercise is its solution with the answer left out (``FIXME`` where the index goes, ``...``
    where a cell's code goes): the solution is the whole text, the exercise the part of it a reader can work
    from, so the solution is kept."""
    if url_path(b) in exercise_paths(a):
        return 1
    if url_path(a) in exercise_paths(b):
        return -1
    return 0


_RENDERED_FROM = {"html", "markdown", "text"}
MAN_PAGE = re.compile(r"/man[1-9][a-z]*/[^/]+\.[1-9][a-z]*(?:\.gz)?$")  # …/man3/MPI_Send.3: a man page's troff
_STEM = re.compile(r"([^/]+?)(?:\.(?:html?|md|markdown|rst|txt))+$", re.IGNORECASE)


def _file_name(url: str) -> str:
    """The last segment of a URL's path, lower case."""
    return url_path(url).rstrip("/").rsplit("/", 1)[-1].lower()


_TEMPLATE_SUFFIX = re.compile(r"\.(?:j2|jinja2?|tmpl|template|mako|in)$", re.IGNORECASE)


def template_pair(template: str, output: str) -> bool:
    """Whether a template's URL and another file's are a template and the file written from it by their names:
    one file name (``templates/ops.h`` and ``include/ops.h``), or the template's is the other's and a
    template suffix (``ops.h.j2``, ``config.h.in``). Its tags (``CopyInfo.template``) say it is one."""
    name_t, name_o = _file_name(template), _file_name(output)
    return name_t == name_o or _TEMPLATE_SUFFIX.sub("", name_t) == name_o


_TEMPLATE_WORD = re.compile(r"j2|jinja2?|tmpl|tpl|template|mako|in", re.IGNORECASE)


def named_template(template: str, output: str) -> int:
    """1 when ``template``'s name marks it as the template of ``output`` beside it, else 0: one folder, and the
    template's name is the output's with a template word among its dotted parts (``tables.template.md`` beside
    ``tables.md``, ``config.h.in`` beside ``config.h``, ``index.tmpl.html`` beside ``index.html``). A generator
    fills such a file's placeholders (``{table}``, ``@VERSION@``, whatever its engine writes) and writes the
    output under the plain name: the output is what a reader reads, the template its frame, however the
    placeholders are written (``CopyInfo.template`` reads only a template engine's tags)."""
    folder_t, _, name_t = url_path(template).rpartition("/")
    folder_o, _, name_o = url_path(output).rpartition("/")
    if folder_t != folder_o or name_t == name_o:
        return 0
    parts = name_t.split(".")
    plain = [p for p in parts[1:] if not _TEMPLATE_WORD.fullmatch(p)]
    return int(len(plain) == len(parts) - 2 and ".".join([parts[0], *plain]).lower() == name_o.lower())


def _notebook_export(page: CopyInfo, notebook: CopyInfo) -> int:
    """1 when ``page`` is a written page (Markdown, reStructuredText, text: not HTML) that an exporter wrote from
    the notebook ``notebook``: it shows that notebook's outputs as an exporter names their images
    (``fitting_files/fitting_4_0.png`` for ``fitting.ipynb``: ``CopyInfo.exported_from``), and the notebook bears that
    name. The notebook is the document, the written page a machine-made form of it, outputs pasted in (a
    notebook paired with a plain-text twin that holds no outputs, as jupytext keeps one, says nothing here)."""
    name = _file_name(notebook.url)
    return int(
        bool(page.exported_from)
        and page.kind in _RENDERED_FROM - {"html"}
        and name.endswith(".ipynb")
        and name[: -len(".ipynb")] == page.exported_from.lower()
    )


STAGE_WORD = re.compile(r"pre|preproc|preprocessed|expanded|generated", re.IGNORECASE)
"""A word of a build stage in a file name: the preprocessed or expanded form of a file (``generated_form``)."""
_NAME_PARTS = re.compile(r"[-_.]")


def stage_stem(stem: str) -> tuple[str, bool]:
    """(the name's stem without its build-stage words, lower-cased, its parts joined; whether it held such a
    word) of a file name's stem: ``gemm_pre_64`` → ``("gemm64", True)``, ``gemm64`` → ``("gemm64", False)``. The
    one reading of a name's build stage, ``generated_form``'s and ``copies.stage_key``'s."""
    parts = _NAME_PARTS.split(stem.lower())
    plain = [p for p in parts if not STAGE_WORD.fullmatch(p)]
    return "".join(plain), len(plain) < len(parts)


def generated_form(a: str, b: str) -> int:
    """-1 when ``a`` is a generated form of ``b`` by their names, +1 the other way, 0 neither: one folder, one
    extension, and one name is the other's with a word of a build stage among its parts (``gemm_pre_64.sass``
    beside ``gemm64.sass``, ``kernel.expanded.cu`` beside ``kernel.cu``: ``pre``, ``preproc``,
    ``preprocessed``, ``expanded``, ``generated``). A preprocessor or a macro expander writes the file again with
    its blocks expanded: the file as its author wrote it is the document, the expansion a machine's copy."""
    folder_a, _, name_a = url_path(a).rpartition("/")
    folder_b, _, name_b = url_path(b).rpartition("/")
    if folder_a != folder_b or name_a == name_b:
        return 0
    (stem_a, dot_a, ext_a), (stem_b, dot_b, ext_b) = name_a.rpartition("."), name_b.rpartition(".")
    if not (dot_a and dot_b) or ext_a.lower() != ext_b.lower():
        return 0
    (plain_a, marked_a), (plain_b, marked_b) = stage_stem(stem_a), stage_stem(stem_b)
    if plain_a != plain_b or not plain_a:
        return 0
    return -1 if marked_a and not marked_b else 1 if marked_b and not marked_a else 0


_LATEX_FILE = re.compile(r"\.(?:tex|latex)$", re.IGNORECASE)
_CONVERTED_FILE = re.compile(r"\.(?:md|markdown|rst)$", re.IGNORECASE)


def latex_conversion(source: str, form: str) -> int:
    """1 when ``form`` is a written page (Markdown, reStructuredText) that a converter made of the LaTeX file
    ``source`` beside it, by their names: one folder, one stem, ``manual.tex`` and ``manual.md``. A manual written
    in LaTeX is typeset from it; a Markdown twin under its name is what a converter (pandoc, a project's script)
    writes from it for the web, its labels left as attributes (``{#sec:intro}``): the LaTeX is the document an
    author edits, the twin a machine's copy. HTML made from LaTeX is its rendering (``rendered``), not this; a plain
    text file under its name is left to the other rules (the notes a manual was typeset from read as the same
    pair, the text made of it too: the name says neither)."""
    folder_s, _, name_s = url_path(source).rpartition("/")
    folder_f, _, name_f = url_path(form).rpartition("/")
    if folder_s != folder_f or not _LATEX_FILE.search(name_s) or not _CONVERTED_FILE.search(name_f):
        return 0
    return int(name_s.rpartition(".")[0].lower() == name_f.rpartition(".")[0].lower())


_CASE_WORD = re.compile(r"[a-z0-9]{2,12}", re.IGNORECASE)  # one word a variant's name adds: apu, msvc, gpu
_PART_WORD = re.compile(  # a word that names a part of a project, not a case: README-tests.md is the tests' page
    r"tests?|testing|docs?|examples?|samples?|benchmarks?|bench|tools?|scripts?|api|internals?|design|dev|"
    r"developers?|contributing|install|build|usage|faq|notes?",
    re.IGNORECASE,
)


def case_variant(general: str, variant: str) -> int:
    """1 when ``variant`` is ``general``'s page written again for one case its name adds, by their names: one
    folder, one extension, and the variant's name is the general one's and one more word after ``_`` or ``-``
    (``README_apu.md`` beside ``README.md``, ``timer_msvc.c`` beside ``timer.c``): a machine, a
    platform, a compiler. The variant repeats the general page with its case's commands and figures; the general
    page is the one a reader of the folder starts from, and is kept, whatever date or length either shows. Files a
    person writes only (``preference`` asks it of no HTML page: a generated manual names its editions' pages so,
    ``setup_lite.html`` beside ``setup.html``, and which edition is the document is the site's to say). A word
    that marks a version, a past or newer state, a fuller form or a language (``_v2``, ``_old``, ``_new``,
    ``_full``, ``_zh``) is no case: the version and language rules read those; nor is a word that names a part of
    the project (``README-tests.md``, ``notes_api.md``: the tests' or the API's page, one of its own)."""
    folder_g, _, name_g = url_path(general).rpartition("/")
    folder_v, _, name_v = url_path(variant).rpartition("/")
    # no extension: the whole name is the stem (``Makefile`` beside ``Makefile_cuda``); a name that is only an
    # extension (``.bashrc``) has no stem and no variant
    stem_g, dot_g, ext_g = name_g.rpartition(".") if "." in name_g else (name_g, "", "")
    stem_v, dot_v, ext_v = name_v.rpartition(".") if "." in name_v else (name_v, "", "")
    if folder_g != folder_v or dot_g != dot_v or ext_g.lower() != ext_v.lower() or not stem_g:
        return 0
    if not stem_v.lower().startswith(stem_g.lower()) or stem_v[len(stem_g) : len(stem_g) + 1] not in ("_", "-"):
        return 0
    word = stem_v[len(stem_g) + 1 :]
    return int(bool(_CASE_WORD.fullmatch(word)) and not _STATE_WORD.fullmatch(word) and not _PART_WORD.fullmatch(word))


def rendered_twins(page: CopyInfo, source: CopyInfo) -> bool:
    """Whether ``page`` is the HTML page rendered from ``source``, a Markdown or plain-text file of the same name
    in the same folder (``examples/index.html`` beside ``examples/index.txt``)."""
    return (
        page.kind == "html"
        and source.kind in _RENDERED_FROM - {"html"}
        and _stem(page.url) != ""
        and _stem(page.url) == _stem(source.url)
        and url_path(page.url).rsplit("/", 1)[0] == url_path(source.url).rsplit("/", 1)[0]
    )


_PACKAGED_CHANGELOG = re.compile(r"^file:///usr/share/doc/([^/]+)/(?:[^/]+/)*changelog(?:\.gz)?$", re.IGNORECASE)
DEB_DOC = re.compile(r"^file://(/usr/share/doc/[^/]+|/usr/share/man)/")
"""A Debian documentation package's folder (``/usr/share/doc/<package>``) or the man pages' (``/usr/share/man``)
that a ``file://`` URL lies in: the one reading of a package's place, ``copies.neighbourhood``'s too."""


def _packaged_changelog(info: CopyInfo) -> bool:
    """Whether a document is a Debian package's upstream changelog in plain text (``/usr/share/doc/<package>/
    changelog.gz``; not ``changelog.Debian.gz``, the packager's own record, nor ``changelog.html.gz``). Debian's
    policy installs a project's changes under that one name whatever upstream called them (``CHANGES.rst``,
    ``NEWS``, ``HISTORY.md``), and where upstream writes them as HTML it asks for a plain-text version under it
    beside the HTML: so where the package also holds an HTML page of the same changes, the text is that page's
    source or a text rendering of it, and the page is kept."""
    return info.kind != "html" and bool(_PACKAGED_CHANGELOG.match(url_path(info.url)))


UPLOAD_RECORD = re.compile(r"/changelog\.debian(?:\.(?!html?$|txt$|md$)[a-z0-9][a-z0-9-]*)?(?:\.gz)?$", re.IGNORECASE)
"""Debian's record of a package's uploads (``changelog.Debian``), or of its binary-only rebuilds for one architecture
(``changelog.Debian.amd64``: a binNMU's record, which dpkg names after the architecture it was rebuilt for)."""


def upload_record_folder(url: str) -> str:
    """The folder a Debian upload record lies in (``/usr/share/doc/<package>/changelog.Debian``: the binary
    package that installed it), "" for any other URL. Every binary package built from one source installs the
    source's record, the same text but the line naming the package; of two such copies the one in the folder whose
    name sorts first (byte order: ``glslang-dev`` before ``glslang-tools``, ``libzmq3-dev`` before ``libzmq5``) is
    kept, a choice any corpus allows (the folder is in every such page's path) and the same whatever the store
    order."""
    path = url_path(url)
    return path.rsplit("/", 2)[-2] if UPLOAD_RECORD.search(path) else ""


def deb_place(url: str) -> str:
    """The Debian folder a ``file://`` URL lies in (``DEB_DOC``: ``/usr/share/doc/<package>``, ``/usr/share/man``),
    "" for any other URL."""
    found = DEB_DOC.match(url)
    return found.group(1) if found else ""


def _same_name(a: CopyInfo, b: CopyInfo) -> bool:
    """Whether an HTML page and a Markdown or plain-text file bear one name: the same stem (``readme.html``,
    ``readme.md``), or the text file's whole name is the page's stem (``TUNING_README`` beside
    ``html/TUNING_README.html``: a project that writes its guides once and ships them as plain text and as HTML
    names both after the guide; the HTML is the rendering, whatever folder it sits in)."""
    if _stem(a.url) == _stem(b.url):
        return True
    page, text = (a, b) if a.kind == "html" else (b, a)
    return _plain_name(text.url) != "" and _plain_name(text.url) == _stem(page.url)


def _plain_name(url: str) -> str:
    """A file name with no extension at all (``TUNING_README``, ``INSTALL``), lower case; "" for any other."""
    name = url_path(url).rstrip("/").rsplit("/", 1)[-1]
    return name.lower() if name and "." not in name else ""


def _stem(url: str) -> str:
    """The file name without its document extensions, lower case ("" when it has none of them)."""
    found = _STEM.search(url.rstrip("/"))
    return found.group(1).lower() if found else ""


_REPOSITORY_FILE = re.compile(
    r"^https?://(?:raw\.githubusercontent\.com/([^/]+/[^/]+)|(?:github|gitlab)\.com/([^/]+/[^/]+)(?:/-)?/(?:blob|raw))"
    r"/([^/]+)/",
    re.IGNORECASE,
)
_BRANCH = re.compile(r"main|master|trunk|latest|stable|dev|develop|HEAD", re.IGNORECASE)


def revision_of(url: str) -> tuple[str, str] | None:
    """(repository, revision) of a file URL of a code host (``raw.githubusercontent.com/o/r/<rev>/…``,
    ``github.com/o/r/blob/<rev>/…``), None for any other URL."""
    found = _REPOSITORY_FILE.match(url)
    return ((found.group(1) or found.group(2)).lower(), found.group(3)) if found else None


def _current(a: CopyInfo, b: CopyInfo) -> int:
    """+1 when ``a`` is read at its repository's current revision and ``b`` at a past one, -1 the other way, 0
    unknown. A branch (``main``, ``master`` …) is current against a commit or tag; between two commits, the
    current one is where the crawl read the repository (``CURRENT_PAGES`` pages or more, ``CURRENT_RATIO`` times
    the other's): a crawler follows a repository's links at its head, and reaches a page at another commit
    through a permalink, which pins a past state. A page that moved path between the two is told apart too.
    One path read at two commits is one file's two states, one of them the newer whatever their sizes (a rewrite
    that dropped a section is shorter than the state before it): there the commit the crawl read another page of
    the repository at (``STATE_PAGES``, twice the other's: the readme and the licence at the head, the readme
    alone at a permalink) is the current one, where the size would otherwise decide (``complete``)."""
    ra, rb = revision_of(a.url), revision_of(b.url)
    if ra is None or rb is None or ra[0] != rb[0] or ra[1] == rb[1]:
        return 0
    branch_a, branch_b = bool(_BRANCH.fullmatch(ra[1])), bool(_BRANCH.fullmatch(rb[1]))
    if branch_a != branch_b:
        return 1 if branch_a else -1
    na, nb = a.revision_pages, b.revision_pages
    least = STATE_PAGES if one_path_two_revisions(a.url, b.url) else CURRENT_PAGES
    if max(na, nb) >= least and max(na, nb) >= CURRENT_RATIO * min(na, nb):
        return 1 if na > nb else -1
    return 0


def _short(url: str) -> str:
    found = revision_of(url)
    return found[1][:12] if found else ""


def prefer(a: CopyInfo, b: CopyInfo) -> bool:
    """True when ``a`` is the better copy to keep of the two."""
    return preference(a, b)[0]


_LANGUAGE_NAMES = {
    "chinese": "zh",
    "japanese": "ja",
    "korean": "ko",
    "russian": "ru",
    "french": "fr",
    "german": "de",
    "spanish": "es",
    "portuguese": "pt",
    "english": "en",
    "italian": "it",
    "vietnamese": "vi",
    "turkish": "tr",
    "polish": "pl",
    "dutch": "nl",
    "ukrainian": "uk",
    "czech": "cs",
    "greek": "el",
    "arabic": "ar",
    "persian": "fa",
    "hebrew": "he",
    "hindi": "hi",
    "bengali": "bn",
    "indonesian": "id",
    "thai": "th",
}
# the codes read alone: those paths seldom use for anything else (``it`` is a word of file names, ``try-it-out.md``;
# ``pl`` is Perl's extension; ``id``, ``ml``, ``cs``, ``ms`` and ``uk`` name other things): the other languages
# mark a path by their names (``italian/``, ``README-Polish.md``)
_CODES = "zh|cn|zh[-_](?:cn|tw|hans|hant)|ja|jp|ko|kr|ru|fr|de|es|pt|en|vi|tr"
LANGUAGES = _CODES + "|" + "|".join(_LANGUAGE_NAMES)
"""A language as a path marks it: a code (``docs/zh/…``, ``faq.en.md``) or its name in English (a translation
in a ``japanese/`` folder beside the original, ``README-Chinese.md``)."""
_LANGUAGE = re.compile(  # a name ends a segment or a file name: Chinese-LLaMA/, german-shepherd/ mark none
    rf"(?:^|[/._-])(?:({_CODES})(?=$|[/._-])|({'|'.join(_LANGUAGE_NAMES)})(?=$|[/.]))", re.IGNORECASE
)


_DOXYGEN_DIRS = re.compile(r"/d[0-9a-f]/d[0-9a-f]{2}(?=/)")  # Doxygen's hashed sub-folders (``html/de/dc0/``)


def _marks(url: str) -> list[str]:
    """The languages a URL's path marks, in order, a name read as its code (``japanese`` → ``ja``). Doxygen's
    hashed sub-folders (``CREATE_SUBDIRS``: ``d0/d1f/`` to ``df/dff/``) mark none, though ``de/`` reads as German."""
    path = _DOXYGEN_DIRS.sub("", url.split("://", 1)[-1].split("/", 1)[-1])
    return [code.lower() if code else _LANGUAGE_NAMES[name.lower()] for code, name in _LANGUAGE.findall(path)]


def language_of(url: str) -> str:
    """The language a URL's path marks (``docs/zh/…``, ``faq.en.md``, ``blog/japanese/README.md``: "zh", "en",
    "ja"), "" for none."""
    marks = _marks(url)
    return marks[-1] if marks else ""


def _language_mark(url: str) -> str:
    """The language a URL's path marks as a translation (``docs/zh/…``, ``notes.zh.md``, ``README-Chinese.md``),
    "" for none; English counts as none: "en" beside "zh" marks the original."""
    mark = language_of(url)
    return "" if mark == "en" else mark


def translation_language(info: CopyInfo) -> str:
    """The language a page is a translation into: its path's mark (``_language_mark``), else "other" when its
    text is in another language than English (``CopyInfo.foreign``), else "" (an original, or English)."""
    return _language_mark(info.url) or ("other" if info.foreign else "")


_NUMBERS = re.compile(r"\d+")


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in _NUMBERS.findall(text)[:4])


_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "revised": 2,  # a revised edition is the first one's successor
}
EDITION = re.compile(
    rf"(?<![a-z])({'|'.join(_ORDINALS)}|\d+(?:st|nd|rd|th))[-_. ]+(?:edition|ed)(?![a-z])\.?", re.IGNORECASE
)
"""An edition mark: ``second-edition/``, ``first_edition``, "Second Edition", "2nd ed.", "revised edition"."""


def editions(text: str) -> str:
    """``text`` with each edition mark written as one numbered word (``second-edition`` → ``edition-2``, "3rd ed."
    → ``edition-3``), so that ``_version_order`` reads two editions of one book as two versions of it (a book's
    first- and second-edition folders name the same page twice, and the higher edition is the newer text)."""

    def number(found: re.Match) -> str:
        mark = found.group(1).lower()
        return f"edition-{_ORDINALS.get(mark) or int(mark[:-2])}"

    return EDITION.sub(number, text)


_MAN_SECTION = re.compile(r"man[1-9][a-z]*", re.IGNORECASE)  # a man page's section folder: man1, man3, man7


def _version_order(a: str, b: str) -> tuple[int, list[str]]:
    """+1 when ``a`` reads as a newer version than ``b`` at the first place they differ, -1 older, 0 unknown;
    and the two parts that differ. A name with a version suffix is newer than the same name without one
    (``notes-v2.html`` after ``notes.html``, "Tuning guide v2" after "Tuning guide": the first has none); a name
    marked as a past state is older than the same name without the mark (``guide_v1/`` or ``guide-old/`` before
    ``guide/``, ``legacy/api.md`` before ``api.md``: ``_suffixed``, ``_archived``), and so is a URL that alone
    passes through such a folder below the folders both share, whatever its name (``docs/old/gemm.md`` before
    ``guide/matmul.md``: ``_in_past_folder``)."""
    parts_a, parts_b = _parts(a), _parts(b)
    archived = _past(a, b, parts_a, parts_b)
    if archived:  # one path is the other with a folder that keeps past states (``legacy/``, ``archive/``)
        return archived, [" ".join(parts_a), " ".join(parts_b)]
    for x, y in zip(parts_a, parts_b, strict=False):
        if x == y:
            continue
        if _MAN_SECTION.fullmatch(x) and _MAN_SECTION.fullmatch(y):
            return 0, []  # two man sections (a command in man1, a concept in man7): two pages, no versions
        channel = _channel_order(x, y)
        if channel:
            return channel, [x, y]
        nx, ny = _numbers(x), _numbers(y)
        if nx and ny and nx != ny and len(x) < 40 and len(y) < 40:  # not a commit hash or a long name
            letters_x, letters_y = re.sub(r"\d+", "#", x), re.sub(r"\d+", "#", y)
            if letters_x == letters_y:  # the same name with another number: a version
                return (1 if nx > ny else -1), [x, y]
        return _suffixed(x, y), ([x, y] if _suffixed(x, y) else [])
    if abs(len(parts_a) - len(parts_b)) == 1:  # one title is the other and a last word
        longer = parts_a if len(parts_a) > len(parts_b) else parts_b
        if _VERSION_WORD.fullmatch(longer[-1]) and int(_numbers(longer[-1])[0]) >= 2:
            order = 1 if longer is parts_a else -1
            return order, [" ".join(parts_a), " ".join(parts_b)]
    return 0, []


def past_order(a: str, b: str) -> tuple[int, list[str]]:
    """-1 when ``a`` is kept in a folder for past states that ``b`` is not (``docs/legacy/api.md`` beside
    ``docs/api.md``: ``_archived``; a URL that alone passes through such a folder below the folders both share,
    ``docs/archive/v1/guide.md`` beside ``docs/manual/guide.rst``: ``_in_past_folder``), +1 the other way,
    0 otherwise; and the two paths as read (``_version_order``'s first test)."""
    parts_a, parts_b = _parts(a), _parts(b)
    archived = _past(a, b, parts_a, parts_b)
    return (archived, [" ".join(parts_a), " ".join(parts_b)]) if archived else (0, [])


def _parts(text: str) -> list[str]:
    """A URL's or title's parts as ``_version_order`` and ``past_order`` compare them: split at ``/`` and spaces,
    each edition mark written as its number (``editions``)."""
    return re.split(r"[/\s]+", editions(text).strip())


def _past(a: str, b: str, parts_a: list[str], parts_b: list[str]) -> int:
    """``past_order``'s reading of two paths already split (``_parts``), read once for both of its callers."""
    return _archived(parts_a, parts_b) or ("://" in a and "://" in b and _in_past_folder(parts_a, parts_b))


CHANNEL_FOLDER = re.compile(r"latest|stable|current|main|master|trunk|dev|develop", re.IGNORECASE)
"""A folder that names a channel of a site or a branch of a tree: its current state."""
RELEASE_FOLDER = re.compile(r"v?\d+(?:\.\d+)+|v\d+", re.IGNORECASE)
"""A folder that names a numbered release (``v1.2``, ``2.0``, ``v3``; a bare number is a chapter)."""


def _channel_order(x: str, y: str) -> int:
    """+1 when ``x`` is a channel folder (``latest``, ``stable``, ``main`` …) and ``y`` a numbered release
    (``v1.2``, ``2.0``), -1 the other way, 0 otherwise: a documentation site's ``/en/latest/`` page is its current
    state, a release folder a past one (as a repository's branch is current against a commit, ``_current``).
    Two channels, or two releases, are not ordered here."""
    for first, second, order in ((x, y, 1), (y, x, -1)):
        if CHANNEL_FOLDER.fullmatch(first) and RELEASE_FOLDER.fullmatch(second):
            return order
    return 0


_VERSION_WORD = re.compile(r"\(?(?:v|version\s*|rev\s*|edition-)\d+(?:\.\d+)*\)?|\d+\.\d+(?:\.\d+)*", re.IGNORECASE)


_VERSION_SUFFIX = re.compile(r"[-_. ]?(?:v|version|rev|edition-)(\d+)(?:\.\d+)*", re.IGNORECASE)


_EXTENSION = re.compile(r"\.(?:html?|md|rst|txt|pdf)$", re.IGNORECASE)


_PAST_WORDS = "old|older|legacy|archive|archived|deprecated|obsolete|previous|prev|outdated|attic|bak|backup"
PAST_MARK = re.compile(rf"(?:^|[-_. ])(?:{_PAST_WORDS})(?:$|[-_. ])", re.IGNORECASE)
"""A name part that marks a past state: ``guide-old``, ``legacy_docs``, ``notes.bak``, an ``archive`` folder."""
_PAST_SUFFIX = re.compile(rf"[-_. ](?:{_PAST_WORDS})", re.IGNORECASE)
_PAST_PREFIX = re.compile(rf"(?:{_PAST_WORDS})[-_. ]", re.IGNORECASE)
_PAST_FOLDER = re.compile(_PAST_WORDS, re.IGNORECASE)


def _suffixed(x: str, y: str) -> int:
    """+1 when ``x`` is ``y`` with a version suffix of 2 or more (``notes-v2`` vs ``notes``), -1 the other way;
    and -1 when ``x`` is ``y`` marked as a past state, +1 the other way: a first-version suffix (``notes_v1``,
    ``guide-version1``: a name gets it when a newer version takes the plain name, as a book's first-edition
    folder beside the current one) or a past-state word before or after it (``notes-old``, ``legacy_notes``)."""
    x, y = _EXTENSION.sub("", x), _EXTENSION.sub("", y)
    for longer, shorter, order in ((x, y, 1), (y, x, -1)):
        if shorter and longer.startswith(shorter) and len(longer) - len(shorter) <= 12:
            tail = longer[len(shorter) :]
            found = _VERSION_SUFFIX.fullmatch(tail)
            if found:
                if int(found.group(1)) >= 2:
                    return order
                if "." not in tail[1:]:  # v1, v0; not v1.5, a release of its own
                    return -order
            if _PAST_SUFFIX.fullmatch(tail):
                return -order
        if shorter and longer.endswith(shorter) and _PAST_PREFIX.fullmatch(longer[: len(longer) - len(shorter)]):
            return -order
    return 0


def _archived(parts_a: list[str], parts_b: list[str]) -> int:
    """-1 when ``parts_a`` is ``parts_b`` with one more part that names a place for past states (``docs/legacy/
    api.md`` beside ``docs/api.md``, ``archive/``, ``old/``, ``deprecated/``), +1 the other way, 0 otherwise."""
    for longer, shorter, order in ((parts_a, parts_b, -1), (parts_b, parts_a, 1)):
        if len(longer) == len(shorter) + 1:
            for i, part in enumerate(longer):
                if i < len(shorter) and _PAST_FOLDER.fullmatch(part) and longer[:i] + longer[i + 1 :] == shorter:
                    return order
    return 0


def below_shared(parts_a: list[str], parts_b: list[str]) -> tuple[list[str], list[str]]:
    """The folders of two paths (split at ``/``) below the folders they share: ``a/b/c/x.md`` and ``a/d/y.md`` give
    ``["b", "c"]`` and ``["d"]``. A file name is no folder, so a path's last part is never shared nor returned."""
    shared = 0
    while shared < min(len(parts_a), len(parts_b)) - 1 and parts_a[shared] == parts_b[shared]:
        shared += 1
    return parts_a[shared:-1], parts_b[shared:-1]


def _in_past_folder(parts_a: list[str], parts_b: list[str]) -> int:
    """-1 when, below the folders the two paths share, only ``parts_a`` passes through a folder that keeps past
    states (``docs/old/gemm.md`` beside ``guide/matmul.md``: a page kept in ``old/`` when it moved and was
    renamed), +1 the other way, 0 otherwise (both or neither; a file name is no folder)."""
    below_a, below_b = below_shared(parts_a, parts_b)
    past_a = any(_PAST_FOLDER.fullmatch(p) for p in below_a)
    past_b = any(_PAST_FOLDER.fullmatch(p) for p in below_b)
    return 0 if past_a == past_b else (-1 if past_a else 1)


_DOCS_FOLDER = re.compile(r"docs?|documentation", re.IGNORECASE)


def _repository_path(url: str) -> list[str]:
    """The folders of a code host's file URL below its revision (``raw.githubusercontent.com/o/r/<rev>/source/
    docs/x.md`` gives ``["source", "docs"]``), [] for any other URL."""
    found = _REPOSITORY_FILE.match(url)
    return url_path(url)[found.end() :].split("/")[:-1] if found else []


def _tree(url: str) -> str:
    return "/".join(_repository_path(url)) + "/"


def docs_tree(a: str, b: str) -> int:
    """+1 when ``a`` lies in its repository's documentation folder (``docs/`` or ``doc/`` at the top) and ``b``, of
    the same repository and revision, in a documentation folder further down (``source/docs/``, ``tools/doc/``),
    -1 the other way, 0 otherwise. A documentation host builds the top folder; a tree of the same pages below
    another folder is an older layout left behind when the pages moved (renamed, often to another markup)."""
    ra, rb = revision_of(a), revision_of(b)
    if ra is None or ra != rb:
        return 0
    parts_a, parts_b = _repository_path(a), _repository_path(b)
    for top, deep, order in ((parts_a, parts_b, 1), (parts_b, parts_a, -1)):
        if (
            top
            and _DOCS_FOLDER.fullmatch(top[0])
            and deep
            and not _DOCS_FOLDER.fullmatch(deep[0])
            and any(_DOCS_FOLDER.fullmatch(p) for p in deep[1:])
        ):
            return order
    return 0


_REVISION = re.compile(r"[0-9a-f]{7,40}|v?\d+(?:\.\d+)*|main|master|latest|stable|dev|trunk", re.IGNORECASE)


def one_path_two_revisions(a: str, b: str) -> bool:
    """Whether two URLs are one path at two revisions: equal but in one segment, a commit, a version or a
    branch in both (``…/triton/da40a1e/README.md`` and ``…/triton/3f2c9b1/README.md``)."""
    parts_a, parts_b = a.rstrip("/").split("/"), b.rstrip("/").split("/")
    if len(parts_a) != len(parts_b):
        return False
    differ = [(x, y) for x, y in zip(parts_a, parts_b, strict=True) if x != y]
    return len(differ) == 1 and all(_REVISION.fullmatch(part) for part in differ[0])


def _month(year: float) -> str:
    """A date kept as year + (month - 1) / 12, as YYYY-MM."""
    whole = int(year)
    return f"{whole}-{min(12, round((year - whole) * 12) + 1):02d}"


_STATE_WORD = re.compile(  # a word that marks another state or a fuller form, not a case: the version rules' domain
    r"v\d.*|version\d*|rev\d*|\d+|new|newer|next|updated|latest|final|full|complete|extended|current|draft|"
    + "|".join((_PAST_WORDS, _CODES, *_LANGUAGE_NAMES)),
    re.IGNORECASE,
)
