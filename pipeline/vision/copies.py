"""Redundancy without boilerplate, and which copy of a group to keep: the newest, most complete, rendered one.

Two passes over the texts, both streaming:

1. While the scorer reads each document (``reading.Reader``), the hashes of its distinct lines
   (``reading.line_keys``: words only, so a man page and its HTML twin, a Markdown list and its rendered one
   have the same lines) go into count-min sketches (``LineCounts``, fixed memory whatever the corpus size) that
   estimate in how many documents each line occurs, and in how many forms and revisions of one page
   (``page_name``).
2. ``Signer.sign`` reads each text again and drops its boilerplate before hashing: lines that occur in at
   least ``BOILERPLATE_DOCS`` documents, other pages than the forms and revisions of its own (navigation,
   shared footers; a page mirrored under a dozen version folders of a site keeps its text), lines of licence text
   (``_LICENCE_LINE``: copyright notices, "licensed under", SPDX tags), and template lines — in
   ``NEIGHBOUR_DOCS`` documents, ``NEIGHBOUR_DOCS - 1`` of them other pages (MPICH's thread-safety and error
   sections, a per-sample README's build notes; a file at several revisions counts once), dropped from a page
   where they hold ``TEMPLATE_SHARE`` of the words. What is left is the page's own text: two pages of one
   template are copies only when their own texts are; the revisions of one page share lines only with each other
   and stay copies, as do one routine's pages in two precisions (``LineCounts.page``: ``sgssv`` beside ``dgssv``). A page with less
   than ``OWN_MIN_TOKENS`` words of its own is a copy of many and keeps its full text; a page left with a stub of
   its own (under ``STUB_SHINGLES``) that its template's lines outweigh ``FRAMED_RATIO`` to one is that template's
   output under another name (option pages of one program, a word and the name changed) and is signed with the
   template's lines (``CopyInfo.templated``), meeting only the pages of its folder and its own forms. What is left becomes
   4-word shingles and a MinHash (``pipeline.redundancy``). Code blocks, filtered the same way (a licence
   header in a code fence is no shared code), get a second MinHash of their own: a translation of a tutorial
   shares its code, not its words. Two refinements:
   a document that is mostly licence text (``LICENCE_DOMINATED`` of its words in paragraphs with licence
   wording) is compared by its holder lines only (lines with a year, Debian's ``Files:`` lines; fewer than
   ``HOLDER_MIN_TOKENS`` words of them and it is compared with nothing): two MIT
   licences of two projects are not copies of each other, the same project's licence in two places is;
   a source copy (reStructuredText) loses its role markup (``:func:`x``` → ``x``), directive lines and comments, so
   its shingles meet the rendered page's; after the boilerplate goes, ``neutral_markup`` takes what only one
   form of a page writes (reStructuredText link targets and reference marks, Markdown link targets in a source
   copy, ``GH#`` before an issue number anywhere); a notebook served as raw JSON is signed by its cells'
   sources (``notebook_text``); a numbered source listing (a code browser's, Doxygen's ``*_source.html``) is
   signed by its numbered lines without their numbers (``unnumbered``) and counts as the source copy of the
   page that renders its file.

``measure(infos)`` finds candidate pairs eight ways, none comparing documents blindly (the cost grows with
the corpus, not its square):

- both MinHashes in LSH (datasketch; expected O(1) candidates per query): pairs at Jaccard ≥ 0.3;
  two pages of one folder under two names (``siblings``: a sample per case, a reference page per function,
  often one template) count only from ``SIBLING_JACCARD`` (``SIBLING_CODE_JACCARD`` for two source files or
  notebooks, ``sibling_cut``), or when one is an earlier form or the translation
  of the other;
- a consistent sample of each text's shingle hashes (``contained_in``: the hashes below a fixed cut, so a
  text inside another has its sample inside the other's): a short old README inside a long new one, whose
  Jaccard is small however complete the containment. Such a pair counts only when the two are one path at
  two revisions, or the larger text is the newer version, the newer date or the rendered page
  (``GROWN_RULES``; between two pages of one folder, a version their names mark), or the larger is the manual's
  one-document form, a PDF or single-page HTML of the same place (``_whole_form``: the pages are its parts, the
  whole is kept), or the smaller is an excerpt of the larger (``_excerpt``: a written page almost whole inside
  a longer written page of its place, a post merged into a tutorial; not a page inside a README or index):
  a page quoting a whole example file is no copy of it;
- one page in two languages (``translated``: one place, one page name (``translation_name``: a translation
  tree beside the original's meets it), different language marks on the
  paths: a code, ``docs/zh/``, ``faq.ja.md``, or a name, ``blog/post/japanese/``, ``README-Chinese.md``), by
  the words both languages write alike or by the anchors translators leave alone (``anchors``); a translated
  page under a name of its own (a renumbered chapter, a translated file name) by its anchors alone, against
  the pages of the original's folder (``translation_folder``);
- one file at two states of its tree (``revised``: one ``version_key``, a repository's file at two commits, a
  Debian package's file at two package versions, a site's page under two version or channel folders), by its
  name, however much was rewritten: a copy when ``REVISION_CONTAINMENT`` of the older lies in the newer (0.4,
  below the 0.5 of two unrelated texts: the name already says it is the same document; release notes of two
  versions, one path and two documents, share under 0.05), counted at the cut when it keeps less than half;
  a repository's file at two commits is one file's history whatever was rewritten (``one_document``: the older
  state counts at the cut when nothing else holds it; not a release record, nor against a "moved" stub);
- a page at a past commit whose own path holds less than ``REVISION_CONTAINMENT`` of it now, and whose text
  lives on under another path of the current tree (``moved``: at least ``REVISION_CONTAINMENT`` of it there);
- the crawler's word: a Sphinx source copy names its rendered page (``metadata["source_copy_of"]``), which
  it repeats whatever its markup leaves of the shingles; where the crawler said nothing, its path names it
  (``rendered_page``: ``_sources/guide.rst.txt`` beside ``guide.html``), as does a reST source shipped in a tree
  of its own beside the built one (``tree_pages``: ``rst/core/x.rst`` beside ``html/core/x.html``);
- a file and its preprocessed or expanded form of one folder, by their names (``generated_forms``), one text from
  ``REVISION_CONTAINMENT`` either way; and the files of a numbered series that are one text once each one's own
  number is set aside (``renumbered``, ``own_number``): the first of the series is kept; and the source files of
  one folder, or of one name in sibling folders, instantiated from one template, one text once their constants
  and the names their own paths give them are masked (``instances``, ``shape``, ``own_names``; written pages and
  sibling folders' files only when every line agrees): the fullest is kept; and two files or HTML pages of one
  folder, extension and line count whose every differing token is the other's with what differs between their
  names changed, but for ``SUBSTITUTE_OWN_LINES`` of a long page's lines (``substituted``: ``id_to_id.h`` beside
  ``id_to_ast_expr.h``, ``clc3c0qmd.h`` beside ``clc4c0qmd.h``, a vector type's page per width): the preference's
  choice, the first by name where it would read the names' case number as a version (a step's number that ends
  a name's word, written alone in the text, is the name's too: ``plot_v0.py`` beside ``plot_v1.py``);
- one program written in two languages, a C example beside its Fortran or C++ form under its name or the name
  with a language mark (``program_forms``: ``seedf.F`` of ``seed.c``), by the share of their name words (their
  calls, constants, messages): the unmarked, else the C form is kept; and one source file in two precisions
  its name's suffix tells (``precision_forms``: ``plan_float.h`` beside ``plan.h``), one text once the precision
  words are masked (``unprecise``), the preference saying which is kept;
- an exercise beside its solution under its name (``solution_forms``: ``stencil.cu`` beside
  ``stencil_solution.cu``, or ``solutions/<name>__SOLUTION.ipynb``, or a program under its own name in a solution
  folder, ``ex02/solution/ex02.c`` of ``ex02/ex02.c``), ``SOLUTION_LINES`` of the exercise's lines in
  the solution however much of the text the answer is: the solution is kept (``preference.solution_pair``), and is
  no copy of the next step's exercise that starts from it;
- a project's licence repeated in a folder of its repository (``one_licence``): the same terms (or the root's
  terms with a short note of the project's beside them, ``noted_terms``), its holders among the root file's; the
  one nearer the root is kept.

Of two pages of one template that nothing else tells apart (the preference's ``id``), the one a toctree of their
folder lists first is kept (``index_first``: the manual's index order, LABELS.md).

Some pairs are held apart whatever they share: two files of a numbered series (``series_pair``) but as
``renumbered`` reads them; one program's variants named after their folders (``folder_variants``); a module's
highlighted source page and a page that is not one (``module_source``), a source file and a man page
(``code_and_manual``), an exercise and its solution in two folders (``exercise_and_solution``), a Debian package's
``copyright`` record and another file of the package (``packaged_copyright``), and a source file and an HTML page
not named after it that quotes it (``quoted_program``); and two source files of one place under two names in two
folders are held to ``SIBLING_CODE_JACCARD`` (``renamed_code``), as two files of one folder are. A template and the
file written from it are no cousins.

For every candidate pair it estimates the containment of one in the other (from the MinHash Jaccard and the
sizes, or the shared share of the sample). A document's redundancy is its containment in a candidate that is
*preferred* over it as the copy to keep (``preference``, which also says why); ``duplicate_of`` names that
candidate. The preference (rendered page over source copy, original over translation, newer version, newer
date, more complete, HTML, lower id) never looks at a score or rank: its rules are in ``preference``.

A code-block copy counts when its code holds at least ``CODE_MIN_TOKENS`` tokens and ``CODE_MIN_SHARE`` of
the document, and ``CODE_CONTAINMENT`` of it lies in the other's code.
"""

from __future__ import annotations

import itertools
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from urllib.parse import urljoin

import numpy as np
from datasketch import MinHashLSH

from .. import redundancy
from . import analysis
from .preference import (
    CHANNEL_FOLDER,
    CURRENT_PAGES,
    CURRENT_RATIO,
    DEB_DOC,
    EDITION,
    LANGUAGES,
    MAN_PAGE,
    PAST_MARK,
    RELEASE_FOLDER,
    RELEASE_RECORD,
    RULE_WEIGHT,
    UPLOAD_RECORD,
    CopyInfo,
    below_shared,
    deb_place,
    exercise_paths,
    generated_form,
    language_of,
    newest_release,
    one_path_two_revisions,
    precision_of,
    precision_suffix,
    precision_suffix_twins,
    precision_twins,
    preference,
    rendered_twins,
    revision_of,
    solution_pair,
    stage_stem,
    template_pair,
    translation_language,
    url_path,
)
from .reading import LINE_MIN_CHARS, line_keys

BOILERPLATE_DOCS = 8  # a line in this many documents, other pages than this one's forms, is a template
NEIGHBOUR_DOCS = 3  # a line in this many documents, all but one of them other pages than this one, is a template
TEMPLATE_SHARE = 0.2  # ... and goes when such lines hold this share of the words (a few shared headings do not)
OWN_MIN_TOKENS = 4  # a page left with fewer words of its own (not one shingle) keeps them all: it is a copy of many
CODE_MIN_TOKENS = 60
CODE_MIN_SHARE = 0.2
CODE_CONTAINMENT = 0.9  # instruction listings of two GPU generations share 86% of their code and are no copies
SAMPLE_SHIFT = 4  # containment samples keep 1 shingle hash in 16
SAMPLE_BELOW = np.uint64(1 << (32 - SAMPLE_SHIFT))
SAMPLE_POSTINGS = 16  # a sampled shingle in more documents than this is a common phrase, not a copy
SAMPLE_MIN = 4  # shared sampled shingles a containment candidate needs (~64 shingles of text)
SAMPLE_CONTAINMENT = 0.6
GROWN_RULES = ("version", "date", "rendered")  # what makes a contained text an earlier form of the larger one
SIBLING_JACCARD = 0.4  # two pages of one folder under two names are copies from this Jaccard on ...
NESTED_JACCARD = 0.3  # ... two whose names nest (``nested_names``: a file's page beside its group's) from this one
SIBLING_CODE_JACCARD = 0.7  # ... two source files or notebooks from this one (a sample or kernel per case) ...
SIBLING_RULES = (*GROWN_RULES, "current", "original", "generated")  # ... or one is an earlier, translated or
# machine-made form of the other
REVISION_CONTAINMENT = 0.4  # one file at two revisions or versions (``version_key``) is a copy from this on
UPLOAD_RECORD_JACCARD = 0.9  # two packages' upload records are one record from this Jaccard on (all but a line)
STUB_SHINGLES = 36  # a text with fewer shingles of its own (a redirect, a title and a link) repeats only itself
POINTER_SHINGLES = 2 * STUB_SHINGLES  # a page this short whose links all differ from another's points elsewhere
FRAMED_RATIO = 2  # a stub of a page that its template's lines outweigh this many times is signed with them
HIGH_REDUNDANCY = redundancy.HIGH_REDUNDANCY
FORM_VALUES = 100  # a definition written out for several languages lists at least this many values ...
FORM_COUNT = 0.8  # ... two forms list this share of each other's count ...
FORM_ORDER = 0.95  # ... this share of the shorter list in the same order ...
FORM_NAMES = 0.8  # ... and this share of the smaller one's name words (``language_forms``)
FORM_VALUE_CAP = 4000  # values compared in order at most (the opening of a long list orders it well enough)
PROGRAM_NAMES = 0.6  # one program in two languages shares this share of the smaller one's name words ...
PROGRAM_MIN_NAMES = 20  # ... of at least this many (``program_forms``) ...
SMALL_PROGRAM_NAMES = 6  # ... or, for two forms under one name, this many once each language's words go
_LANGUAGE_WORDS = frozenset(  # the words a C, C++ or Fortran program writes for its language, not its task
    "auto break case char const continue default do double else enum extern float for goto if inline int long "
    "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while "
    "include define ifdef ifndef endif undef pragma bool true false class namespace public protected template "
    "typename using new delete virtual operator std this nullptr "
    "program end subroutine function module use implicit none integer real precision complex logical character "
    "parameter dimension allocatable allocate deallocate intent in out inout call then endif enddo contains "
    "print write read format stop type kind only result".split()
)
MIRROR_SHARE = 0.95  # a program form this much inside its own file in another folder is that mirror's copy first
SKETCH_ROWS, SKETCH_BITS = 3, 22
NEAR_BITS = 24  # the fine line count: 3 rows of 2^24 uint16 counters (96 MB); see LineCounts
NAMED_BITS = 23  # the same page name's sketch: 3 rows of 2^23 uint16 counters (48 MB)
_SORTED_ADD = 96  # LineCounts._add: from this many counters on, sorting them and adding by indexing beats np.add.at
_MULTIPLIERS = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)
_LICENCE_LINE = re.compile(
    r"copyright|\(c\)|©|licen[cs]ed? under|all rights reserved|spdx-license|permission is hereby granted|"
    r"warrant(?:y|ies)|licensor|redistribution",
    re.IGNORECASE,
)
LICENCE_DOMINATED = 0.6
LICENCE_NOTE_SHARE = 0.8  # one licence with a note of the project's beside it: this share of its words the licence's
HOLDER_MIN_TOKENS = 20
_HOLDER_LINE = re.compile(r"\b(?:19|20)\d\d\b|^\s*files:", re.IGNORECASE)
_ROLE = re.compile(r":[\w:+-]+:`([^`<]*?)(?:\s*<[^>]*>)?`")
_DIRECTIVE_OR_RULE = re.compile(  # a directive with its option lines (:members:, :show-inheritance:), a rule
    r"^\s*(?:\.\. [\w:-]+::.*(?:\n[ \t]+:[\w-]+:(?:[ \t][^\n]*)?)*|[=\-~^*#+`'\"]{4,})\s*$", re.MULTILINE
)
_RST_COMMENT = re.compile(  # ".. a note", its indented lines: never rendered (not a directive, target, footnote)
    r"^\.\.(?:[ \t]+(?![\w:-]+::|_|\||\[)[^\n]*)?[ \t]*(?:\n|$)(?:[ \t]*\n)*(?:[ \t]+\S[^\n]*(?:\n|$)(?:[ \t]*\n)*)*",
    re.MULTILINE,
)
_INCLUDE = re.compile(  # Sphinx's include directives (m2r's mdinclude, literalinclude) and MyST's, the file named
    r"^[ \t]*(?:\.\. (?:md|literal)?include::|[`:]{3,}[ \t]*\{(?:literal)?include\})[ \t]+(\S+)[ \t]*$", re.MULTILINE
)
_TOCTREE_ENTRY = re.compile(  # a toctree that lists pages (reST's indented entries, MyST's lines in its fence)
    r"^[ \t]*\.\. toctree::[^\n]*\n(?:[ \t]*(?::[^\n]*)?\n)*[ \t]+[^\s:][^\n]*$"
    r"|^[ \t]*[`:]{3,}[ \t]*\{toctree\}[^\n]*\n(?:[ \t]*(?::[^\n]*)?\n)*[ \t]*[^\s:`][^\n]*$",
    re.MULTILINE,
)


def only_included(text: str) -> tuple[str, ...]:
    """The files a page includes when include directives are all it does: the files named (``.. include::``,
    ``.. mdinclude::``, MyST's ``{include}``, either's ``literalinclude``: a licence page that shows the file
    whole), in order, with no toctree that lists pages (an index that includes the README and lists the
    manual's pages is the manual's entry, a page of its own) — else ``()``. ``measure``
    also asks that little text of its own stands around them (``STUB_SHINGLES``): one file named is the page's
    whole text (``included``); several are parts its rendered page assembles (``rendered_by_name``)."""
    if "include" not in text:  # every directive _INCLUDE reads names itself so
        return ()
    named = tuple(dict.fromkeys(_INCLUDE.findall(text)))
    if not named or _TOCTREE_ENTRY.search(text):
        return ()
    return named


_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_RENDERS_KEY = re.compile(  # a front matter key that names the file a page renders in its place: ref: guides/x.md
    r"^(?:ref|include|src|source|file)[ \t]*:[ \t]*[\"']?([^\s\"'#]+\.(?:mdx?|markdown|rst))[\"']?[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)


def front_matter_page(text: str) -> str:
    """The page file a Markdown page's front matter names to render in its place (``ref: docs/a/guide.md``,
    ``include:``, ``src:``, ``source:``, ``file:``), as written, or "". A site that documents one library for
    several frameworks writes each framework's page once and gives the others front matter that renders it (with
    their package names substituted, or a code block of their own in place of one of its examples): the page
    named is the text, the referring page its rendering (``measure``)."""
    found = _FRONT_MATTER.match(text)
    if found is None:
        return ""
    named = _RENDERS_KEY.findall(found.group(1))
    return named[0] if len(set(named)) == 1 else ""


_RST_TARGET = re.compile(r"^\s*\.\. _[^\n]*?:(?:\s.*)?$", re.MULTILINE)  # .. _`Gabe Joseph`: https://…, .. _v1.2:
_RST_REFERENCE = re.compile(r"`([^`<]+?)(?:\s*<[^>]*>)?`__?")  # `Gabe Joseph`_, `the guide <https://…>`__
_RST_WORD_REFERENCE = re.compile(r"\b([A-Za-z][\w.-]*?)__?(?=[\s.,;:!?)]|$)", re.MULTILINE)  # crusaderky_
_LINK_TARGET = re.compile(r"\]\(([^)\s#]+)[^)]*\)|`[^`<]*<([^>\s#]+)>`_")  # [text](target), `text <target>`_
MOVED_LINKED = 0.25  # a stub's link names where a page moved: this much of it must live on there
_MD_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*(?:\s+\"[^\"\n]*\")?\)")  # [text](target "title"), ![alt](img)
_ISSUE_PREFIX = re.compile(r"\b[A-Za-z]{1,4}#(?=\d)")  # GH#7368, PR#12: what an extlink role renders as
_PARAGRAPHS = re.compile(r"\n\s*\n")
_NEUTRAL = re.compile(r"[a-z0-9_]{2,}")  # a token any language writes alike: a name, an identifier, a number
TRANSLATION_WORDS = 20  # a translation shares at least this many such words with its original ...
TRANSLATION_SHARE = 0.6  # ... and this share of the smaller one's (two pages of one project: 0.2-0.45)
ANCHOR_MIN = 10  # or: a translation shares at least this many anchors (``anchors``) with its original ...
NAMED_ANCHOR_MIN = 8  # ... this many when the paths name one page (one place, one ``translation_name``) ...
ANCHOR_SHARE = 0.7  # ... this share of the smaller one's distinct anchors (labelled translations: 0.75-1.0) ...
ANCHOR_ORDER = 0.5  # ... and this share of the shorter anchor sequence in the same order (0.61-1.0)
ANCHOR_CAP = 2000  # anchors compared in order at most (the opening of a long page orders it well enough)
_ANCHOR = re.compile(
    r"https?://[^\s)\]\"'<>]+"  # a URL
    r"|(?<=\]\()[^)\s]+"  # a Markdown link or image target: ../../img/sky.png
    r"|(?<!`)`[^`\n]+`(?!`)"  # inline code
    r"|\b(?:\w*\d\w*|\w*[a-z]\w*[A-Z]\w*|[A-Z]{2,}\w*|\w+_\w+)\b"  # a number, camelCase, an acronym, snake_case
)
_LICENCE_WORDS = (
    "copyright",
    "(c)",
    "©",
    "licen",
    "rights reserved",
    "spdx",
    "permission is hereby",
    "warrant",
    "redistribution",
)


def _has_licence(text: str) -> bool:
    """Cheap test before the line-by-line regex: plain substring search runs in C at memory speed."""
    low = text.lower()
    return any(word in low for word in _LICENCE_WORDS)


_POLICY_FILE = re.compile(
    r"/(?:licen[cs]e|copying|copyright|notice|third[-_]?party[-_]?notices|contributing|code[-_]of[-_]conduct|"
    r"security|governance)(?:[-_.][\w-]+)*$"
    r"|/(?:[al]?gpl|[gl]?fdl|apache|mpl|epl|cddl)(?:[-_.]v?|v)\d[\d.]*(?:[-_.][\w-]+)*$"  # a licence named: GPL-2, LGPL-2.1
    r"|/licen[cs]es/[^/]+$"  # a licence text in a LICENSES folder (the REUSE layout: LICENSES/CC-BY-4.0.txt)
    rf"|{UPLOAD_RECORD.pattern}"  # Debian's record of a package's uploads, in each binary package of a source
    # a documentation generator's fixed pages, the same in every project it documents: Doxygen's graph legend
    # and its lists of pages, files, classes and modules; Sphinx's index, search and module-index pages
    r"|/(?:graph_legend|pages|files|annotated|classes|hierarchy|modules|namespaces|genindex|search|py-modindex)"
    r"\.html?$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_SOURCE_URL = re.compile(r"/_sources/|\.(?:rst|md)\.txt$", re.IGNORECASE)
_RST_MARKUP = re.compile(r"^\s*\.\. [\w:-]+::|^\s*[=\-~^*]{4,}\s*$|:(?:ref|doc|class|func|code):`", re.MULTILINE)


class LineCounts:
    """Count-min sketches (fixed memory, over-estimates only) of in how many documents each line occurs, and in
    how many of the forms and revisions of one page (``page_name``) it does.

    ``table`` (uint32, 2^22 counters a row) serves the corpus-wide threshold ``BOILERPLATE_DOCS``. ``fine``
    counts the same and is wider (2^24 counters a row, as uint16: a line in more than 65,535 documents wraps,
    and ``table``, far past ``BOILERPLATE_DOCS`` by then, drops it anyway), because the template threshold
    ``NEIGHBOUR_DOCS`` is low: at 100k documents of ~100 lines a row holds 0.6 counts a counter, so a line seen
    once reads as 3 in about 0.2% of cases (3 rows each over-counting by 2). ``named`` is keyed by (line, page
    name), 2^23 counters a row: an over-count there only keeps a line that a template shares."""

    def __init__(self) -> None:
        self.table = np.zeros((SKETCH_ROWS, 1 << SKETCH_BITS), dtype=np.uint32)
        self.fine = np.zeros((SKETCH_ROWS, 1 << NEAR_BITS), dtype=np.uint16)
        self.named = np.zeros((SKETCH_ROWS, 1 << NAMED_BITS), dtype=np.uint16)
        self.translated: set[tuple[str, str]] = set()  # (place, page name) of the pages a path marks a language of
        self.translated_folders: set[tuple[str, str]] = set()  # ... and (place, folder without its language mark)
        self.foreign: set[str] = set()  # the URLs of the pages whose text is in another language (``foreign_text``)
        self.precision_bases: set[str] = set()  # the paths of files a precision suffix names, the suffix taken off
        self.precisions: dict[str, set[str]] = {}  # a routine's name without its precision letter → the letters read
        self.exercises: set[str] = set()  # the paths of the exercises a solution's name marks (``exercise_paths``)
        self.family_bases: set[str] = set()  # the paths a program's name leaves once its precision parts go
        self.cuda_fortran: set[str] = set()  # the places (``neighbourhood``) that hold a CUDA Fortran program
        self.letter_forms: dict[str, set[str]] = {}  # a source name with a routine's precision letter out → letters

    @staticmethod
    def _slots(hashes: np.ndarray, bits: int) -> np.ndarray:
        """Each hash's counter in each row, as an index into the whole table read flat (row × 2^bits + slot)."""
        with np.errstate(over="ignore"):
            slots = (hashes[None, :] * _MULTIPLIERS[:SKETCH_ROWS, None]) >> np.uint64(64 - bits)
        return slots + (np.arange(SKETCH_ROWS, dtype=np.uint64) << np.uint64(bits))[:, None]

    @staticmethod
    def _keyed(hashes: np.ndarray, key: str) -> np.ndarray:
        with np.errstate(over="ignore"):
            return hashes ^ (
                np.uint64(redundancy.stable_hash(key) & 0xFFFFFFFFFFFFFFFF) * np.uint64(0x9E3779B97F4A7C15)
            )

    def _add(self, table: np.ndarray, hashes: np.ndarray, bits: int) -> None:
        """One more for each hash in each row: every row at once on the flat table (``np.add.at`` counts a counter
        two hashes share twice); a long list sorted first, and added by plain indexing when no counter repeats."""
        flat = table.reshape(-1)
        slots = self._slots(hashes, bits).ravel()
        if slots.size >= _SORTED_ADD:
            slots.sort()
            if not (slots[1:] == slots[:-1]).any():
                flat[slots] += 1
                return
        np.add.at(flat, slots, 1)

    def _count(self, table: np.ndarray, hashes: np.ndarray, bits: int) -> np.ndarray:
        return table.reshape(-1)[self._slots(hashes, bits)].min(axis=0)

    def add(self, hashes: np.ndarray, url: str = "", foreign: bool = False) -> None:
        """One document's distinct line hashes (``reading.line_hashes``) and its URL (for its ``page_name``, and
        to note a page whose path marks a language, or whose text is in another language than English
        (``foreign``: ``foreign_text``): it and its original are compared across languages)."""
        name = page_name(url) if url else ""
        if name and foreign:
            self.foreign.add(url)
            self.translated_folders.add((neighbourhood(url), translation_folder(url)))
        if name and language_of(url):
            self.translated.add((neighbourhood(url), translation_name(url)))
            self.translated_folders.add((neighbourhood(url), translation_folder(url)))
        suffixed = precision_suffix(url) if url else None
        if suffixed is not None:  # a file in a precision its name's suffix says: the other may bear no suffix
            self.precision_bases.add(suffixed[0])
        if url:
            self.exercises.update(exercise_paths(url))
            family = precision_parts(url)
            if family is not None:  # a program named by its element type: the other may bear no precision part
                self.family_bases.add(family[0])
            for base, letter in letter_parts(url):  # a routine's precision letter: sgemm beside hgemm
                self.letter_forms.setdefault(base, set()).add(letter)
            if _CUDA_FORM.search(url_path(url)) and url_path(url).lower().endswith(".cuf"):
                self.cuda_fortran.add(neighbourhood(url))
        precision = precision_of(url) if url else None
        routine = precision[0] if precision is not None else None
        if precision is not None:
            self.precisions.setdefault(precision[0], set()).add(precision[1])
        if hashes.size:
            self._add(self.table, hashes, SKETCH_BITS)
            fresh = hashes
            if url:  # ``fine`` and ``named`` count files: a line this file brought at another revision counts once
                seen = self._keyed(hashes, "\0" + (version_key(url) or url))
                fresh = hashes[self._count(self.named, seen, NAMED_BITS) == 0]
                self._add(self.named, seen, NAMED_BITS)
            self._add(self.fine, fresh, NEAR_BITS)
            if name:
                self._add(self.named, self._keyed(fresh, name), NAMED_BITS)
            if routine is not None:  # its lines counted as the routine's too: its precisions are one page
                self._add(self.named, self._keyed(fresh, routine), NAMED_BITS)

    def letter_family(self, url: str) -> bool:
        """Whether a source file's name holds a routine's precision letter (``letter_parts``) that another file's
        name, the same but for that letter, holds otherwise: one sample per precision, ``example_sgemm.cpp`` beside
        ``example_hgemm.cpp``."""
        return any(len(self.letter_forms.get(base, ())) > 1 for base, _ in letter_parts(url))

    def page(self, url: str) -> str:
        """The page a URL is one form of, for the template count (``Signer._content``): its ``page_name``, or for
        one routine's page in two or more precisions (``preference.precision_twins``: ``sgssv_8c.html`` beside
        ``dgssv_8c.html``) the routine, whose lines the precisions share as the revisions of one page do."""
        precision = precision_of(url)
        if precision is not None and len(self.precisions.get(precision[0], ())) > 1:
            return precision[0]
        return page_name(url)

    def count(self, hashes: np.ndarray) -> np.ndarray:
        if not hashes.size:
            return np.zeros(0, dtype=np.uint32)
        return self._count(self.table, hashes, SKETCH_BITS)

    def siblings(self, hashes: np.ndarray, name: str) -> np.ndarray:
        """In how many files each line occurs that are other pages than ``name`` (the fine count less the files
        named ``name``: this page's own forms), as int64 (an over-count of the forms can make it negative). Both
        counts count a file once however many of its revisions or package versions hold the line
        (``version_key``): a README at three commits is one other page beside its HTML rendering, whose text
        stays its own, not a template that three pages share."""
        if not hashes.size:
            return np.zeros(0, dtype=np.int64)
        fine = self._count(self.fine, hashes, NEAR_BITS).astype(np.int64)
        if not name:
            return fine - 1
        return fine - self._count(self.named, self._keyed(hashes, name), NAMED_BITS)


_SITE = re.compile(r"^[a-z][\w+.-]*://([^/]*)/([^/?#]+)/([^/?#]+)/", re.IGNORECASE)


def neighbourhood(url: str) -> str:
    """The place a document lives in (its policy files are its own; a translation sits beside its original): a
    Debian documentation package (``file:///usr/share/doc/<package>/``; man pages are ``/usr/share/man``), else
    the host and the first two path segments (a repository on a code host, ``github.com/<owner>/<repo>``, a
    section of a site); "" when the URL has fewer. Numbers read as one (``clang-14-doc`` and ``clang-19-doc``
    are one place at two versions): a project's licence in both is its own."""
    place = deb_place(url)
    if place:
        return _DIGITS.sub("#", place)
    found = _SITE.match(url)
    return _DIGITS.sub("#", "/".join(found.groups()).lower()) if found else ""


_GENERIC_NAME = frozenset(
    "index readme license licence copying contributing changelog changes news notes main default home overview"
    " intro introduction summary".split()
)
_NAME = re.compile(r"(?:\.(?:html?|mdx?|markdown|rst|txt|ipynb|gz|[1-9][a-z]*))+$", re.IGNORECASE)
_LANGUAGE_MARK = re.compile(rf"[._-](?:{LANGUAGES})$", re.IGNORECASE)  # faq.zh, README-Chinese
_PAPER_MARK = re.compile(  # one document typeset for several paper sizes: refcard-a4.pdf, refcard-letter.pdf
    r"[._-](?:a[3-5]|b5|(?:us)?letter|legal|tabloid)(?:paper)?(?=\.[a-z]+$|$)", re.IGNORECASE
)
_REVISION_PART = re.compile(
    r"[0-9a-f]{7,40}|v?\d+(?:\.\d+)*|main|master|latest|stable|dev|trunk|html"
    rf"|{LANGUAGES}",  # a language folder: docs/zh/index.md, blog/post/japanese/README.md
    re.IGNORECASE,
)


def _file_stem(url: str) -> str:
    """A URL's file name without its document extensions (``_NAME``), lower-cased; "" for a URL without a path."""
    parts = _path_parts(url)
    return _NAME.sub("", parts[-1]).lower() if parts else ""


def page_name(url: str) -> str:
    """The page a URL is one form or revision of: its file name without document extensions, a man section or a
    language mark (``MPI_Send.3``, ``MPI_Send.html`` → ``mpi_send``; ``faq.zh.md`` → ``faq``,
    ``README-Chinese.md`` → ``readme``) or a paper size (``refcard-a4.pdf``, ``refcard-letter.pdf``: one
    document typeset twice, its lines broken at other places), with its folder when the name says nothing alone
    (``asyncAPI/readme``, ``cub/index``), a revision, version, language (``zh``, ``japanese``) or ``html`` segment skipped
    (``…/abc1234/README.md`` and ``…/def5678/README.md`` are one page). Lines shared only by the forms of one
    page are not a template (``Signer._content``)."""
    parts = _path_parts(url)
    if len(parts) < 2:
        return ""
    name = _PAPER_MARK.sub("", _LANGUAGE_MARK.sub("", _NAME.sub("", parts[-1]))).lower()
    if name in _GENERIC_NAME or not name:
        folder = next((p for p in reversed(parts[1:-1]) if not _REVISION_PART.fullmatch(p)), "")
        name = f"{folder.lower()}/{name}"
    return name


_VERSION_SEGMENT = re.compile(  # a folder that names a state of a tree: a commit, a release, a branch or channel
    rf"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{{7,40}}|{RELEASE_FOLDER.pattern}|{CHANNEL_FOLDER.pattern}",
    re.IGNORECASE,
)


def version_key(url: str) -> str | None:
    """What one file keeps across the states of its tree, or None when the URL names no state: a code host's
    file without its revision (``raw.githubusercontent.com/o/r/<commit>/docs/x.md`` → ``o/r/docs/x.md``), a
    Debian package's file without its version (``clang-14-doc/clang-14/html/X.html`` and
    ``clang-19-doc/clang-19/html/X.html``: the package's numbers read as one wherever a folder repeats them),
    a site's page without the folder that names its version or channel (``docs/v1.2/x.html``,
    ``docs/latest/x.html``, ``docs/stable/x.html``: a dotted or ``v`` version, a commit, a branch; a bare number
    is no version, ``lecture/2/`` is a chapter). The file name itself is never changed: two files of one folder
    numbered in a series are two pages."""
    found = DEB_DOC.match(url)
    if found:
        numbers = set(_DIGITS.findall(found.group(1).rsplit("/", 1)[-1]))
        if not numbers:
            return None
        parts = found.string[found.end() :].split("/")
        folders = [_DIGITS.sub(lambda m: "#" if m.group(0) in numbers else m.group(0), p) for p in parts[:-1]]
        return "/".join([neighbourhood(url), *folders, parts[-1]])
    revision = revision_of(url)
    if revision is not None:
        return f"{revision[0]}/{url_path(url).split(f'/{revision[1]}/', 1)[-1]}"
    parts = url_path(url.split("://", 1)[-1]).split("/")
    folders = ["@" if _VERSION_SEGMENT.fullmatch(p) else p for p in parts[:-1]]
    return "/".join([*folders, parts[-1]]) if "@" in folders else None


def _named_groups(infos: list[CopyInfo], key_of: Callable[[str], Hashable | None]) -> list[list[CopyInfo]]:
    """The documents with a text, grouped by the key their URL names (``key_of``; None: in no group), in order."""
    groups: dict[Hashable, list[CopyInfo]] = {}
    for info in infos:
        key = key_of(info.url) if info.text is not None else None
        if key is not None:
            groups.setdefault(key, []).append(info)
    return list(groups.values())


def revised(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float, float]]]:
    """id → [(id of the same file at another revision or version (``version_key``), containment, Jaccard)]: a
    candidate by its name, as a translation is, however much the file was reworked between the two states (the
    LSH and the sample find only pairs that kept most of their text)."""
    found: dict[int, list[tuple[int, float, float]]] = {}
    for members in _named_groups(infos, version_key):
        for a, b in itertools.combinations(members, 2):
            package_a, package_b = DEB_DOC.match(a.url), DEB_DOC.match(b.url)
            if a.url == b.url or (package_a and package_b and package_a.group(1) == package_b.group(1)):
                continue  # one package's two folders that repeat its numbers (x3/, x4/ of python3-mpi4py) are two pages
            _both_ways(found, a, b)
    return found


def _both_ways(found: dict[int, list[tuple[int, float, float]]], a: CopyInfo, b: CopyInfo) -> None:
    """Add (other id, containment, Jaccard) to each side's list in ``found``: one MinHash estimate of the pair,
    each side's containment in the other read from it."""
    assert a.text is not None and b.text is not None
    jaccard = a.text.minhash.jaccard(b.text.minhash)
    for one, other, own, theirs in ((a, b, a.text.size, b.text.size), (b, a, b.text.size, a.text.size)):
        score = redundancy.containment(jaccard, own, theirs)
        found.setdefault(one.id, []).append((other.id, round(score, 4), round(jaccard, 4)))


def included(info: CopyInfo, by_url: dict[str, int]) -> int | None:
    """The id of the first file of the corpus that an include directive of ``info`` names (``.. include::``,
    ``.. mdinclude::``, MyST's ``{include}``; the path read from the page's own folder, so at the page's
    revision of its repository, or in its package), or None. A page whose source is such a directive and
    little more (``STUB_SHINGLES``) renders that file's text under a title: the file is the document and is kept
    (``measure``), as the crawler's rendered page is kept over its Sphinx source copy."""
    if len(info.includes) != 1:
        return None  # a page that assembles several files is none of them: its rendered page (``rendered_by_name``)
    for name in info.includes:
        if "://" in name or name.startswith("/"):
            continue  # an absolute path names the source tree's root, not a place the URL can say
        found = by_url.get(urljoin(info.url, name))
        if found is not None and found != info.id:
            return found
    return None


def rendered_from(info: CopyInfo, by_url: dict[str, int]) -> int | None:
    """The id of the page that ``info``'s front matter names to render (``front_matter_page``): read from the
    page's own folder, else from each folder above it up to its place (a site's front matter writes paths from
    the repository's root: ``ref: docs/react/guide.md``), the nearest first; or None."""
    name = info.renders
    if not name or "://" in name:
        return None
    name = name.lstrip("/")
    path = url_path(info.url)
    for depth in range(len(_below_place(info.url))):
        folder = path.rsplit("/", depth + 1)[0]
        found = by_url.get(urljoin(folder + "/", name))
        if found is not None and found != info.id:
            return found
    return None


def rendered_by_name(infos: list[CopyInfo]) -> dict[int, int]:
    """id of a source page that is only include directives (``only_included``) → the one HTML page of its place
    (a package, a repository: ``_site``) that bears its file name (``changelog.gz`` → ``html/changelog.html``):
    the page the source was rendered to, which shows the text of every file it includes. A change log that lists
    one include per release, installed beside the built manual, holds none of that text; where the included
    files are not in the corpus, the rendered page is the one that holds them. Two HTML pages of that name in one
    place name none."""
    if not any(info.includes for info in infos):
        return {}
    pages: dict[tuple[str, str], list[int]] = {}
    for info in infos:
        if info.kind == "html" and not info.includes:
            pages.setdefault((_site(info.url), _file_stem(info.url)), []).append(info.id)
    found: dict[int, int] = {}
    for info in infos:
        if not info.includes or info.kind == "html":
            continue
        stem = _file_stem(info.url)
        built = pages.get((_site(info.url), stem), [])
        if stem and len(built) == 1:
            found[info.id] = built[0]
    return found


def one_document(older: CopyInfo, newer: CopyInfo) -> bool:
    """Whether two states of one ``version_key`` are one document's by their identity, whatever was rewritten
    between them: one path of one repository at two commits (a code host's file, ``revision_of``) is one file's
    history, and its newer state replaces the older. Not so for a file that records a moment (release notes,
    a changelog, news: ``RELEASE_RECORD``; a cumulative changelog's older state lies in the newer anyway, a
    file replaced at each release holds another release's notes), for a newer state that is a stub which
    replaced more text than it holds (fewer than ``STUB_SHINGLES`` shingles and fewer than the older state's: a
    "this page moved" note left at the old path, not the text's current state; a short page that grew, a title
    and its directives with a line or two more, is still that page), nor for a Debian package's or a site's two
    versions (two releases of a manual: the text is the evidence, as ``REVISION_CONTAINMENT`` reads it)."""
    ra, rb = revision_of(older.url), revision_of(newer.url)
    return (
        ra is not None
        and rb is not None
        and ra[0] == rb[0]
        and ra[1] != rb[1]
        and version_key(older.url) == version_key(newer.url)
        and not RELEASE_RECORD.search(url_path(older.url))
        and newer.text is not None
        and (newer.text.size >= STUB_SHINGLES or older.text is None or newer.text.size >= older.text.size)
    )


def moved(
    infos: list[CopyInfo], states: dict[int, list[tuple[int, float, float]]]
) -> dict[int, tuple[int, float, float]]:
    """past id → (id, containment, Jaccard) of a page read at a past commit of a repository whose own path's
    other states (``revised``: read at the repository's current commit, or none read) hold less than
    ``REVISION_CONTAINMENT`` of it, and the page of another path at the repository's current commit
    (``preference._current``) that holds the most of it, at least ``REVISION_CONTAINMENT``: the file moved
    when the tree was reorganised, and its text lives on under the new path (a "moved" stub or a rewrite
    now sits at the old one). When a stub at its path links to a page of the current tree (``moved_to``), that
    page is taken from ``MOVED_LINKED`` of the text on: the stub says where the page went, which was rewritten."""
    by_repo: dict[str, list[CopyInfo]] = {}
    for info in infos:
        found = revision_of(info.url)
        if found is not None and info.text is not None:
            by_repo.setdefault(found[0], []).append(info)
    result: dict[int, tuple[int, float, float]] = {}
    for members in by_repo.values():
        head = max(members, key=lambda i: (i.revision_pages, i.id))
        if head.revision_pages < CURRENT_PAGES:
            continue
        current = [i for i in members if revision_of(i.url) == revision_of(head.url)]
        pasts = [
            past
            for past in members
            if past.revision_pages * CURRENT_RATIO <= head.revision_pages  # a pinned past state against the current
            and not any(share >= REVISION_CONTAINMENT for _, share, _ in states.get(past.id, ()))  # its path holds it
        ]
        if not pasts:
            continue
        # every past page against every current one at once: the MinHash Jaccard is the share of equal slots
        texts = [now.text for now in current if now.text is not None]  # all of them: by_repo holds pages with text
        hashes = np.stack([text.minhash.hashvalues for text in texts])
        sizes = np.array([text.size for text in texts], dtype=np.float64)
        keys = [version_key(now.url) for now in current]
        ids = [now.id for now in current]
        at = {now.url: n for n, now in enumerate(current)}
        for past in pasts:
            assert past.text is not None
            jaccards = (hashes == past.text.minhash.hashvalues).mean(axis=1)
            scores = redundancy.containments(jaccards, past.text.size, sizes)
            key = version_key(past.url)
            own = [n for n, k in enumerate(keys) if k == key]
            scores[own] = 0.0  # its own path: ``revised`` reads it
            best = int(np.argmax(scores))
            if scores[best] >= REVISION_CONTAINMENT:
                result[past.id] = (ids[best], round(float(scores[best]), 4), round(float(jaccards[best]), 4))
                continue
            # a "moved" stub now at its path names where it went: the first page of the tree it links to, when a
            # part of the text (``MOVED_LINKED``) lives on there (rewritten as the page grew into a section)
            linked = (at.get(urljoin(current[n].url, link)) for n in own for link in current[n].moved_to)
            target = next((t for t in linked if t is not None and t not in own and scores[t] >= MOVED_LINKED), None)
            if target is not None:
                result[past.id] = (ids[target], round(float(scores[target]), 4), round(float(jaccards[target]), 4))
    return result


def _folder_places(infos: list[CopyInfo]) -> Iterator[tuple[CopyInfo, str, str, bool]]:
    """For each folder of each read file's path (below its host): the file, the key its path has with that one
    folder left out (the place, the path above it, the path below it), the folder's name and whether a past mark
    names it."""
    for info in infos:
        if info.text is None:
            continue
        parts, place = info.url.split("/"), neighbourhood(info.url)
        for k in range(3, len(parts) - 1):
            key = f"{place}\0{'/'.join(parts[:k])}\0{'/'.join(parts[k + 1 :])}"
            yield info, key, parts[k], bool(PAST_MARK.search(parts[k]))


_KIND_PAST = re.compile(r"legacy|archive|backup", re.IGNORECASE)  # past words that also name a thing of now


def past_of(folder: str, sibling: str) -> bool:
    """Whether a folder a past word marks (``PAST_MARK``) holds the past state of its unmarked sibling's files.
    A word that only says a state (``old``, ``deprecated``, ``obsolete``, ``previous``, ``bak``) marks it in any
    name: ``deprecated-cfgs/`` beside ``tested-cfgs/``, ``old_docs/`` beside ``docs/``. A word that also names a
    kind of thing that lives on (``legacy``: a legacy API, boot mode or interface, still documented; ``archive``:
    an archive format or tool; ``backup``: a backup tool) marks it only as the folder's whole name (``legacy/``)
    or added to its sibling's name (``legacy-docs/`` or ``docs_legacy/`` beside ``docs/``): ``legacy-api/``
    beside ``rest-api/`` is a second API's folder, as ``backup-tool/`` beside ``restore-tool/`` is a second tool's,
    not a past state of the first."""
    words = [w for w in _OWN_WORD.split(folder.lower()) if w]
    if any(PAST_MARK.fullmatch(w) and not _KIND_PAST.fullmatch(w) for w in words):
        return True
    rest = [w for w in words if not _KIND_PAST.fullmatch(w)]
    return not rest or rest == [w for w in _OWN_WORD.split(sibling.lower()) if w]


def past_folders(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float, float]]]:
    """id → [(id of the current file, the share of it in that file, their Jaccard)] of a file left in a folder a
    past mark names as a past state (``PAST_MARK``, ``past_of``: ``deprecated-cfgs/``, ``old_docs/``, ``legacy/``;
    not ``legacy-api/`` beside ``rest-api/``) whose path below that folder
    is a current file's path below a sibling folder of no such mark (``configs/deprecated-cfgs/gpu_a/setup.cfg``
    beside ``configs/tested-cfgs/gpu_a/setup.cfg``): the file's older state, kept when its project moved on, as a
    file at an older commit is (``measure`` reads it from ``REVISION_CONTAINMENT`` on, the current file kept
    whatever their sizes, and no copy of its past state). Only the one folder differs, inside one place
    (``neighbourhood``): a Debian package or a repository whose own name holds a past word (``mail-archive``) is
    another project beside its sibling packages, not their past state. Files of other names, or one name in two
    sibling folders neither marked, are left to the other readings. The current file must be the only one: where
    two unmarked siblings hold the path (``stable/x`` and ``next/x`` beside ``old/x``), which of them the past file
    was is not said, and a folder of thousands of siblings would otherwise pair each past file with each of them."""
    wanted: dict[str, list[tuple[CopyInfo, str]]] = {}
    for info, key, folder, marked in _folder_places(infos):
        if marked:
            wanted.setdefault(key, []).append((info, folder))
    found: dict[int, list[tuple[int, float, float]]] = {}
    if not wanted:
        return found
    current: dict[str, list[tuple[CopyInfo, str]]] = {}
    for info, key, folder, marked in _folder_places(infos):
        if key in wanted and not marked:
            current.setdefault(key, []).append((info, folder))
    for key, holders in current.items():
        if len(holders) != 1:
            continue
        ((info, sibling),) = holders
        assert info.text is not None
        for old, folder in wanted[key]:
            if not past_of(folder, sibling):
                continue
            assert old.text is not None
            jaccard = old.text.minhash.jaccard(info.text.minhash)
            share = redundancy.containment(jaccard, old.text.size, info.text.size)
            found.setdefault(old.id, []).append((info.id, round(share, 4), round(jaccard, 4)))
    return found


_BUILT_SOURCE = re.compile(r"/_sources/(.+?)\.txt$")  # Sphinx's copy of a source: _sources/<docname><suffix>.txt
_SOURCE_SUFFIXES = (".rst", ".md", ".ipynb", ".txt")


def built_sources(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float, float]]]:
    """id → [(id, containment, Jaccard)] of a built site's Sphinx source copy (``_sources/guide/x.md.txt``) and
    the one source file of the same place it was copied from (``…/source/guide/x.md``; a suffix the copy dropped,
    ``_sources/x.txt``, is any source suffix): a repository that commits its built site beside its sources holds
    one text twice, the copy as it was at the last build. Compared as one file's two states (the
    ``REVISION_CONTAINMENT`` cut); two candidates of one name (``index.rst`` in two trees) name none."""
    by_place: dict[str, list[CopyInfo]] = {}
    for info in infos:
        if info.text is not None:
            by_place.setdefault(_site(info.url), []).append(info)
    found: dict[int, list[tuple[int, float, float]]] = {}
    for members in by_place.values():
        for copy in members:
            built = _BUILT_SOURCE.search(url_path(copy.url))
            if built is None:
                continue
            docname = built.group(1)
            ends = (
                (f"/{docname}",)
                if docname.endswith(_SOURCE_SUFFIXES)
                else tuple(f"/{docname}{suffix}" for suffix in _SOURCE_SUFFIXES)
            )
            sources = [
                other
                for other in members
                if other.id != copy.id and "/_sources/" not in other.url and url_path(other.url).endswith(ends)
            ]
            if len(sources) != 1:
                continue
            _both_ways(found, copy, sources[0])
    return found


def rendered_page(url: str) -> str:
    """The URL of the page a Sphinx source copy was built beside, by its path (``…/html/_sources/guide.rst.txt`` →
    ``…/html/guide.html``): Sphinx copies each source to ``_sources/<docname><suffix>.txt`` and renders it to
    ``<docname>.html`` in the folder above. What the crawler's word (``CopyInfo.copy_of``) says, read from the
    URL where the crawler said nothing (a package's documentation read from its files); "" for any other URL."""
    path = url_path(url)
    found = _BUILT_SOURCE.search(path)
    if found is None:
        return ""
    docname = found.group(1)
    for suffix in _SOURCE_SUFFIXES:
        if docname.endswith(suffix):
            docname = docname[: -len(suffix)]
            break
    return f"{path[: found.start()]}/{docname}.html"


_TREE_SOURCE = re.compile(r"\.rst$", re.IGNORECASE)
_TREE_PAGE = re.compile(r"\.html?(?:\.gz)?$", re.IGNORECASE)


def _tree_key(url: str, suffix: re.Pattern) -> tuple[str, str, str] | None:
    """(place, top folder, the path below it without its extension) of a file the pattern names, at least one
    folder below its place; None for any other."""
    parts = _below_place(url)
    path = url_path(url)
    if len(parts) < 2 or not suffix.search(parts[-1]):
        return None
    place = path[: len(path) - len("/".join(parts))]
    return place, parts[0], suffix.sub("", "/".join(parts[1:]))


def tree_pages(infos: list[CopyInfo]) -> dict[int, int]:
    """id of a reST source → id of the page built from it in another top folder of its place: a package that
    ships its documentation's sources beside the built site (``rst/core/engine.rst`` beside
    ``html/core/engine.html``), the same path below two top folders. What Sphinx's ``_sources/`` copy is to its
    page (``rendered_page``), the source tree is to the built one: the page renders the source and pulls in what
    its directives name, so a source that is only a title and an ``automodule`` directive is the page's copy."""
    pages: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for info in infos:
        key = _tree_key(info.url, _TREE_PAGE) if info.kind == "html" else None
        if key is not None:
            pages.setdefault((key[0], key[2]), []).append((key[1], info.id))
    found: dict[int, int] = {}
    for info in infos:
        key = _tree_key(info.url, _TREE_SOURCE) if info.kind != "html" else None
        if key is None:
            continue
        built = [page for top, page in pages.get((key[0], key[2]), ()) if top != key[1]]
        if len(built) == 1:
            found[info.id] = built[0]
    return found


def stage_key(url: str) -> tuple[str, str, str] | None:
    """(folder, extension, name without its build-stage words) of a file (``preference.generated_form``'s
    reading: ``gemm_pre_64.sass`` and ``gemm64.sass`` → one key), None for a name without an extension."""
    folder, _, name = url_path(url).rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot:
        return None
    plain, _ = stage_stem(stem)
    return (folder, ext.lower(), plain) if plain else None


def generated_forms(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float, float]]]:
    """id → [(id, the larger of the two containments, Jaccard)] of a file and its generated form of one folder
    (``preference.generated_form``: ``gemm_pre_64.sass`` beside ``gemm64.sass``), found by their names. The
    form expands its source's blocks (a macro written out per register, a loop unrolled), so the source lies in
    the form more than the form in the source: the pair is one text from ``REVISION_CONTAINMENT`` either way.
    Files are grouped by their folder, extension and name without its build-stage words: linear in the corpus."""
    found: dict[int, list[tuple[int, float, float]]] = {}
    for members in _named_groups(infos, stage_key):
        for a, b in itertools.combinations(members, 2):
            if not generated_form(a.url, b.url):
                continue
            assert a.text is not None and b.text is not None
            jaccard = a.text.minhash.jaccard(b.text.minhash)
            share = max(
                redundancy.containment(jaccard, a.text.size, b.text.size),
                redundancy.containment(jaccard, b.text.size, a.text.size),
            )
            found.setdefault(a.id, []).append((b.id, round(share, 4), round(jaccard, 4)))
            found.setdefault(b.id, []).append((a.id, round(share, 4), round(jaccard, 4)))
    return found


_VALUE = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)(?![\w.])")  # a number alone: 12, 0x1F (not v1.2, x86)
_NAME_WORD = re.compile(r"[A-Z]?[a-z]{2,}|[A-Z]{3,}(?![a-z])")  # the words of a name: SpvOpLoad → Spv, Op, Load
_PAGE_FILE = re.compile(r"\.(?:html?|md|markdown|mdx|rst|txt|adoc|pdf|ipynb|gz|[1-9][a-z]*)$|/[^/.]+$", re.IGNORECASE)


_VALUE_MASK = 0x3FFF_FFFF_FFFF_FFFF  # a value is kept modulo 2^62: it fits an int64


def _value(number: str) -> int:
    """One number's value modulo 2^62 (``_VALUE_MASK``). A long decimal run (a digest, a table of digits written
    as one number) is read 18 digits at a time: ``int`` refuses a decimal string of more than 4,300 digits, and
    the remainder of the whole is that of its pieces, so every value stays what ``int`` reads."""
    if number[1:2] in "xX":
        return int(number, 16) & _VALUE_MASK
    value = 0
    for start in range(0, len(number), 18):
        piece = number[start : start + 18]
        value = (value * 10 ** len(piece) + int(piece)) & _VALUE_MASK
    return value


def _values(text: str) -> np.ndarray:
    """The numbers a file writes, in its order, each as its value (``0x10`` and ``16`` alike), as int64."""
    return np.fromiter((_value(x) for x in _VALUE.findall(text)), dtype=np.int64)


def _common_count(a: np.ndarray, b: np.ndarray) -> int:
    """How many values two lists hold in common, each counted as often as the list holding it fewer times: no
    sequence of both in one order is longer, so it bounds ``_in_order`` from above."""
    values_a, counts_a = np.unique(a, return_counts=True)
    values_b, counts_b = np.unique(b, return_counts=True)
    _, in_a, in_b = np.intersect1d(values_a, values_b, assume_unique=True, return_indices=True)
    return int(np.minimum(counts_a[in_a], counts_b[in_b]).sum())


def language_forms(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float]]]:
    """id → [(id, the share of values in order)] of one definition generated for several languages: files of one
    folder under other extensions (a C header beside its C++, C#, Python, JSON forms) that list the same values
    (``FORM_VALUES`` at least, ``FORM_COUNT`` of each other's count), ``FORM_ORDER`` of the shorter list in
    the same order, with ``FORM_NAMES`` of the smaller one's name words (split at their capitals: ``SpvOpLoad``
    and ``OpLoad`` name one thing). Their lines share no shingle (each language writes a value its own way), so
    neither index meets them; the values and names in one order are the one text. A header and its source file
    share names but not the values in order; two tables of one folder in one language are two tables."""
    folders: dict[str, list[CopyInfo]] = {}
    for info in infos:
        if info.values is not None and info.names is not None:
            folders.setdefault(url_path(info.url).rpartition("/")[0], []).append(info)
    found: dict[int, list[tuple[int, float]]] = {}
    for members in folders.values():
        for a, b in itertools.combinations(members, 2):
            assert a.values is not None and b.values is not None and a.names is not None and b.names is not None
            if _extension(a.url) == _extension(b.url):
                continue
            if min(len(a.values), len(b.values)) < FORM_COUNT * max(len(a.values), len(b.values)):
                continue
            shared = len(np.intersect1d(a.names, b.names, assume_unique=True))
            if shared == 0 or shared < FORM_NAMES * min(len(a.names), len(b.names)):
                continue  # no name in common (a table of numbers alone names nothing) or too few
            if _common_count(a.values, b.values) < FORM_ORDER * min(len(a.values), len(b.values)):
                continue  # fewer values in common than the order test needs: it cannot pass (and costs more)
            share = _in_order(a.values, b.values)
            if share >= FORM_ORDER:
                found.setdefault(a.id, []).append((b.id, round(share, 4)))
                found.setdefault(b.id, []).append((a.id, round(share, 4)))
    return found


_PRECISION_WORD = re.compile(  # a precision's word, alone or in a name: float, spfft_float_grid, SpfftFloatGrid
    r"_?(?:[Ff]loat|[Dd]ouble|[Ss]ingle|[Hh]alf|FLOAT|DOUBLE|[Ff][Pp]?(?:16|32|64))(?![a-z0-9])"
)
PRECISION_JACCARD = 0.7  # one file in two precisions: this Jaccard once the precision words are masked


def precision_forms(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float]]]:
    """id → [(id, Jaccard)] of one source file in two precisions (``preference.precision_suffix_twins``:
    ``transform_float.h`` beside ``transform.h``), ``PRECISION_JACCARD`` alike once the words of their precision
    are masked (``float``, ``double``, the ``_float`` of ``spfft_float_grid_create``, the ``Float`` of
    ``SpfftFloatGrid``). The type changes on every line, so their own Jaccard reads as two files of one template;
    with the precision set aside they are one text. Which is kept is the preference's to say."""
    by_base: dict[str, list[CopyInfo]] = {}
    for info in infos:
        if info.unprecise is not None:
            suffixed = precision_suffix(info.url)
            by_base.setdefault(suffixed[0] if suffixed else url_path(info.url), []).append(info)
    found: dict[int, list[tuple[int, float]]] = {}
    for members in by_base.values():
        for a, b in itertools.combinations(members, 2):
            assert a.unprecise is not None and b.unprecise is not None
            if not precision_suffix_twins(a.url, b.url):
                continue
            jaccard = a.unprecise.minhash.jaccard(b.unprecise.minhash)
            if jaccard >= PRECISION_JACCARD:
                found.setdefault(a.id, []).append((b.id, round(jaccard, 4)))
                found.setdefault(b.id, []).append((a.id, round(jaccard, 4)))
    return found


_PRECISION_PART = re.compile(  # a name part that names an element type: gemm_f64, scale_bf16, plan-double, x_cf32
    r"float|single|double|half|bfloat16|bf16|tf32|fp(?:8|16|32|64)|f(?:16|32|64)|cf?(?:32|64)", re.IGNORECASE
)
_PART_LETTER = {"float": "s", "single": "s", "double": "d", "half": "h", "bfloat16": "b", "bf16": "b", "tf32": "t"}
_FAMILY_ORDER = "dzsctbhe"  # the precision kept first (LABELS.md: double), as ``PRECISIONS`` orders BLAS's letters
_NAME_PARTS = re.compile(r"([-_.])")
_TYPE_SPELLING = re.compile(  # an element type's spelling inside a name: _Float16, hip_bfloat16, hipDoubleComplex,
    # isF64Supported, HIP_R_64F, HIPTENSOR_COMPUTE_C32F, CUDA_C_32F, fp16, __half (not int32_t, nor a bare 32)
    r"(?i:b?float|double|half|single)(?:8|16|32|64)?|(?i:[bct]?fp?|[rc]_|c)(?:8|16|32|64)f?|(?i:(?<=_)(?:16|32|64)f)"
)
_TYPED_NAME = re.compile(r"[A-Za-z_]\w*")  # a name that holds a type's spelling is masked whole: hip_bfloat16
_LITERAL_SUFFIX = re.compile(r"(?<=\d)[fFhH]\b|(?<=%)l(?=[fegFEG])")  # 1.0f, 2.5h; printf's %lf beside %f
FAMILY_SHARE = 0.9  # one program per element type: this share of the longer one's lines, types masked


def _part_letter(part: str) -> str:
    """The precision letter of a name part ``_PRECISION_PART`` reads (lower case): ``f64`` → ``d``, ``cf32`` → ``c``."""
    if part in _PART_LETTER:
        return _PART_LETTER[part]
    bits = part.lstrip("cfp")
    if part.startswith("c"):
        return "z" if bits == "64" else "c"
    return {"64": "d", "32": "s", "16": "h"}.get(bits, "e")


def precision_parts(url: str) -> tuple[str, tuple[str, ...]] | None:
    """A source file's name read as a program written for an element type its name's parts say (``_PRECISION_PART``:
    ``simple_scale_contraction_f64_f64_f64_compute_f64.cpp``, ``plan_float.h``): the path with those parts taken
    out (``…/simple_scale_contraction_compute.cpp``) and their precision letters in order (``dddd``: ``d`` double,
    ``s`` single, ``h`` half, ``b`` bfloat16, ``c``/``z`` single/double complex, ``t`` tf32, ``e`` 8 bits); None
    for a file that is no source file or whose name names no element type."""
    path = url_path(url)
    if not _CODE_FILE.search(path):
        return None
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.partition(".")
    parts = _NAME_PARTS.split(stem)
    letters, kept = [], []
    for i in range(0, len(parts), 2):
        part = parts[i]
        if _PRECISION_PART.fullmatch(part):
            letters.append(_part_letter(part.lower()))
        else:
            kept.append(part)
    if not letters or not kept:
        return None
    return f"{folder}/{'_'.join(kept)}{dot}{ext}", tuple(letters)


_LETTER_PART = re.compile(r"([sdczh])([a-z]{3,}[0-9]*)")  # a routine named with BLAS's precision letter: sgemm, hgemm


def letter_parts(url: str) -> list[tuple[str, str]]:
    """A source file's name read as a routine's sample or kernel written for the precision BLAS's letter before the
    routine's name says (``example_sgemm.cpp``, ``example_hgemm.cpp``: ``s`` single, ``h`` half, ``d``, ``c``,
    ``z``): for each lower-case name part such a letter may lead, the path with the letter taken out
    (``…/example_?gemm.cpp``) and the letter. Most such parts are words (``scale``, ``dense``): a part is read so
    only where another file's name is the same but for that letter (``LineCounts.letter_family``,
    ``precision_families``)."""
    path = url_path(url)
    if not _CODE_FILE.search(path):
        return []
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.partition(".")
    parts = _NAME_PARTS.split(stem)
    read = []
    for i in range(0, len(parts), 2):
        match = _LETTER_PART.fullmatch(parts[i])
        if match:
            named = "".join([*parts[:i], "?" + match.group(2), *parts[i + 1 :]])
            read.append((f"{folder}/{named}{dot}{ext}", match.group(1)))
    return read


def _typeless(line: str) -> str:
    """A line with every name that holds an element type's spelling masked whole, literal suffixes dropped."""
    masked = _TYPED_NAME.sub(lambda m: "#" if _TYPE_SPELLING.search(m.group()) else m.group(), line)
    return _SPACE.sub(" ", _LITERAL_SUFFIX.sub("", masked)).strip()


def typeless_lines(text: str) -> np.ndarray:
    """A source file's non-blank lines, hashed in order, with every spelling of its element type masked
    (``_TYPE_SPELLING``: the type's names, typedefs and enum or dtype constants of one precision; a literal's
    ``f`` and printf's ``l``, ``_LITERAL_SUFFIX``) and its spacing collapsed (``precision_families``)."""
    masked = (_typeless(line) for line in text.split("\n"))
    return redundancy.stable_hashes(line for line in masked if line)


def _root(parent: dict[int, int], x: int) -> int:
    """The root of ``x``'s set in a union-find forest (``parent``), its path halved on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def precision_families(infos: list[CopyInfo]) -> dict[int, tuple[int, float]]:
    """id → (id of the member kept, share of lines) of one program written once per element type: source files of
    one folder and one extension whose names are one name once the parts naming a precision are taken out
    (``precision_parts``: ``…_f64_f64_compute_f64.cpp``, ``…_bf16_bf16_compute_bf16.cpp``,
    ``…_cf32_cf32_compute_cf32.cpp``), whose lines agree in ``FAMILY_SHARE`` of the longer one's, in order, once
    the element type's spellings are masked (``typeless_lines``: ``_Float16``, ``hip_bfloat16``,
    ``hipFloatComplex``, ``HIP_R_64F``, ``HIPTENSOR_COMPUTE_C32F``, a literal's ``f``). A library's sample or
    kernel written for each precision changes a typedef, its enum constants and a check, a handful of lines and
    more than one name each, so neither the shingles nor one name's substitution meets them all. The family is one
    program (LABELS.md), and its member kept for every one of them is the one LABELS.md's precision rule names:
    the name without a precision part, else the double-precision one (the fewest parts from double, ``dzsctbhe``),
    else the first by name. A routine's precision letter (``letter_parts``: ``example_sgemm.cpp`` beside
    ``example_hgemm.cpp``) names the precision where two such files' names differ in that letter only."""
    typed = [(info, letter_parts(info.url)) for info in infos if info.typeless is not None]
    lettered: dict[str, set[str]] = {}
    for _, parts in typed:
        for base, letter in parts:
            lettered.setdefault(base, set()).add(letter)
    groups: dict[str, list[tuple[CopyInfo, tuple[bool, int, str]]]] = {}
    for info, parts in typed:
        read = precision_parts(info.url)
        if read is None:
            read = next(((base, (letter,)) for base, letter in parts if len(lettered[base]) > 1), None)
        base, letters = read if read is not None else (url_path(info.url), ())
        rank = (len(letters) > 0, sum(_FAMILY_ORDER.index(x) for x in letters), url_path(info.url))
        groups.setdefault(base, []).append((info, rank))
    found: dict[int, tuple[int, float]] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        parent = {info.id: info.id for info, _ in members}
        order = {info.id: r for info, r in members}
        share_of: dict[int, float] = {}
        for (a, _), (b, _) in itertools.combinations(members, 2):
            assert a.typeless is not None and b.typeless is not None
            short, long = (a.typeless, b.typeless) if len(a.typeless) <= len(b.typeless) else (b.typeless, a.typeless)
            if len(short) < FAMILY_SHARE * len(long):
                continue
            share = _shape_share(short, long)
            if share >= FAMILY_SHARE:
                share_of[a.id] = max(share_of.get(a.id, 0.0), share)
                share_of[b.id] = max(share_of.get(b.id, 0.0), share)
                ra, rb = _root(parent, a.id), _root(parent, b.id)
                if ra != rb:
                    parent[max(ra, rb, key=order.__getitem__)] = min(ra, rb, key=order.__getitem__)
        for member in share_of:
            kept = _root(parent, member)
            found[member] = (kept, 1.0 if kept == member else round(share_of[member], 4))
    return found


SOLUTION_LINES = 0.6  # an exercise is its solution's when this share of its lines stand in the solution


def solution_forms(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float]]]:
    """id → [(id, share of the exercise's lines in its solution)] of an exercise and its solution by their names
    (``preference.exercise_paths``: ``max_reduction.cu`` beside ``max_reduction_solution.cu``, a notebook beside
    ``solutions/<its name>__SOLUTION.ipynb``) when ``SOLUTION_LINES`` of the exercise's lines stand in the
    solution: the exercise is the solution with the answer taken out (``FIXME``, ``...``, a hint), whatever
    share of the text that answer is, so a short exercise whose shingles the filled-in code breaks up is still
    the solution's. Two exercises of one series, or a solution's notes beside the exercise, share no such name."""
    by_path = {url_path(info.url): info for info in infos if info.lines is not None}
    found: dict[int, list[tuple[int, float]]] = {}
    for solution in by_path.values():
        for path in exercise_paths(solution.url):
            exercise = by_path.get(path)
            if exercise is None or exercise.id == solution.id:
                continue
            assert exercise.lines is not None and solution.lines is not None
            if not exercise.lines.size:
                continue
            share = np.isin(exercise.lines, solution.lines, assume_unique=True).mean()
            if share >= SOLUTION_LINES:
                found.setdefault(exercise.id, []).append((solution.id, round(float(share), 4)))
                found.setdefault(solution.id, []).append((exercise.id, round(float(share), 4)))
    return found


_PROGRAM_FILE = re.compile(r"^(.*)/([^/]+)\.(c|C|cc|cpp|cxx|f|F|for|f77|f90|F90|f95|f03|f08|h)(?:\.gz)?$")
_PROGRAM_LANGUAGES = {"c": 0, "C": 1, "cc": 1, "cpp": 1, "cxx": 1, "h": 3}  # C, C++, Fortran (2), a header
_FORTRAN_PART = re.compile(r"f|fortran|f77|f90", re.IGNORECASE)  # a name part that marks the Fortran form: seed_f
_PROGRAM_NAME_PARTS = re.compile(r"([-_])")


def program_name(url: str) -> tuple[str, str, int] | None:
    """A C, C++ or Fortran file (a program, or a header a program includes) read as (its folder, its name
    without extension, its language: 0 C, 1 C++, 2 Fortran, 3 a header); None for any other file."""
    found = _PROGRAM_FILE.match(url_path(url))
    if found is None:
        return None
    return found.group(1), found.group(2), _PROGRAM_LANGUAGES.get(found.group(3), 2)


def _unmarked(stem: str) -> list[str]:
    """The names a file named as another's Fortran form gives back without its mark: one part of the name with
    an ``f`` added (``seedf_mpi`` of ``seed_mpi``, ``2streamsf`` of ``2streams``), or a part of its own (``seed_f``,
    ``seed-fortran``)."""
    parts = _PROGRAM_NAME_PARTS.split(stem)
    out = []
    for i in range(0, len(parts), 2):
        part = parts[i]
        if len(part) >= 3 and part.endswith("f"):
            out.append("".join([*parts[:i], part[:-1], *parts[i + 1 :]]))
        if i and _FORTRAN_PART.fullmatch(part):
            out.append("".join(parts[: i - 1] + parts[i + 1 :]))
    return out


_C_MARK = re.compile(r"(?<=[a-z0-9])C$|[-_][cC]$")  # a name part that marks the C form: diffusionC, seed_c


def _c_unmarked(stem: str) -> list[str]:
    """The name a file named as another's C form gives back without its mark: a capital ``C`` after a word
    (``diffusionC`` of ``diffusion``, written in camel case) or a part of its own (``seed_c``, ``seed-C``)."""
    found = _C_MARK.search(stem)
    return [stem[: found.start()]] if found is not None and found.start() >= 2 else []


_FORTRAN_LINE = re.compile(  # a fixed-form comment (C or ! in the first column) or a Fortran statement
    r"^(?:[Cc!](?![\w])|[ \t]+(?:print\s*\*|write\s*\(|call\s+\w|integer\b|real\b|double\s+precision\b|"
    r"character\b|logical\b|parameter\s*\(|common\s*/|external\s+\w))",
    re.IGNORECASE | re.MULTILINE,
)
_C_LINE = re.compile(  # a C statement or declaration (its semicolon, a brace), or a preprocessor line
    r"[;{}][ \t]*(?://[^\n]*|/\*[^\n]*)?$|^[ \t]*#[ \t]*(?:define|include|if|ifdef|ifndef|endif|pragma)\b",
    re.MULTILINE,
)


def written_in_fortran(text: str) -> bool:
    """Whether a header's lines read as Fortran (fixed-form comments, ``print *``, ``call``, declarations) more
    often than as C (statements ending in a semicolon, braces, preprocessor lines): the include file a library
    writes for its Fortran programs (``xf.h`` beside the C programs' ``x.h``), not a C header whose name ends
    in an ``f`` (``printf.h``)."""
    return len(_FORTRAN_LINE.findall(text)) > len(_C_LINE.findall(text))


def _mirror(info: CopyInfo, other: CopyInfo) -> bool:
    """Whether ``other`` is ``info``'s file under its own name in another folder (another package, a mirror)."""
    folder_a, _, name_a = url_path(info.url).rpartition("/")
    folder_b, _, name_b = url_path(other.url).rpartition("/")
    return name_a == name_b and folder_a != folder_b


def program_forms(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float, bool, int]]]:
    """id → [(id, the share of name words, whether that one is the form kept, its language as ``program_name``
    reads it)] of one program written in two
    languages: files of one folder, a C program beside its C++ or Fortran form under the same name (``sprng.c``,
    ``sprng.C``), or beside the Fortran form its name marks with an ``f`` (``seedf_mpi.F`` of ``seed_mpi.c``,
    ``genf_menu.h`` of ``gen_menu.h``), the two sharing ``PROGRAM_NAMES`` of the smaller one's name words (its
    calls, constants and the words of its messages and comments: ``_NAME_WORD``). Their lines share no shingle
    (each language writes a call and a message its own way), so neither index meets them. The mark names a
    Fortran form: the marked file is Fortran beside a C or C++ one, or a header written in Fortran beside a header
    (whose language its name does not say); ``printf.c`` beside ``print.c`` or ``seedf.F`` beside ``seed.F`` is two files of one
    language, no such pair; nor is a marked header written in C (``printf.h`` beside ``print.h``: two C headers,
    ``written_in_fortran``). A C form's name may mark it with a ``C`` (``diffusionC.c`` beside ``diffusion.cpp``,
    ``seed_c.c``: ``_c_unmarked``), a mark of a C file beside its C++ or Fortran form only (copy36). Headers are no
    program: ``x.h`` beside ``x.hpp`` or ``x.f90`` is an interface per language, each a page of its own. Two forms
    under one name whose words fall under that share, or a short program under ``PROGRAM_MIN_NAMES`` words (a
    directive's example in C and Fortran), are read by their own words, each language's keywords set aside
    (``_LANGUAGE_WORDS``: ``int``, ``void``; ``integer``, ``implicit``), from ``SMALL_PROGRAM_NAMES`` of them."""
    by_name: dict[tuple[str, str], list[tuple[CopyInfo, int | None, int]]] = {}
    language = np.unique(redundancy.stable_hashes(_LANGUAGE_WORDS))
    for info in infos:
        name = program_name(info.url)
        if name is None or info.names is None:
            continue
        by_name.setdefault((name[0], name[1]), []).append((info, None, name[2]))
        if len(info.names) < PROGRAM_MIN_NAMES:  # a short program: only its other form under its own name
            continue
        for plain in _unmarked(name[1]):
            by_name.setdefault((name[0], plain), []).append((info, 2, name[2]))
        for plain in _c_unmarked(name[1]):
            by_name.setdefault((name[0], plain), []).append((info, 0, name[2]))
    found: dict[int, list[tuple[int, float, bool, int]]] = {}
    for members in by_name.values():  # the form kept: the one its name does not mark, else C, C++, Fortran
        for (a, mark_a, lang_a), (b, mark_b, lang_b) in itertools.combinations(members, 2):
            if (mark_a is None) == (mark_b is None):
                if mark_a is not None or lang_a == lang_b or 3 in (lang_a, lang_b):
                    continue  # one language and no mark, or a header: no two forms of one program
            else:
                mark = mark_a if mark_b is None else mark_b
                marked, unmarked = (lang_a, lang_b) if mark_b is None else (lang_b, lang_a)
                if mark == 0:  # the mark names a C form: of a C file beside its C++ or Fortran form
                    if not (marked == 0 and unmarked in (1, 2)):
                        continue
                else:
                    header = (a if mark_b is None else b).fortran and marked == unmarked == 3  # a Fortran include
                    if not (marked == 2 and unmarked in (0, 1)) and not header:
                        continue  # the mark names a Fortran form: not of a Fortran file, nor a C file or header
            assert a.names is not None and b.names is not None
            share = 0.0
            if min(len(a.names), len(b.names)) >= PROGRAM_MIN_NAMES:
                shared = len(np.intersect1d(a.names, b.names, assume_unique=True))
                share = shared / min(len(a.names), len(b.names))
            if share < PROGRAM_NAMES and mark_a is None and mark_b is None:
                # two forms under one name (``Example_target.1.c``, ``Example_target.1.f90``): their own words,
                # each language's keywords set aside, are the program's (its calls, variables, messages), however
                # short it is and however many words each language spends on declaring them
                own_a, own_b = (np.setdiff1d(n, language, assume_unique=True) for n in (a.names, b.names))
                if min(len(own_a), len(own_b)) >= SMALL_PROGRAM_NAMES:
                    share = len(np.intersect1d(own_a, own_b, assume_unique=True)) / min(len(own_a), len(own_b))
            if share >= PROGRAM_NAMES:
                rank_a, rank_b = (int(mark_a is not None), lang_a), (int(mark_b is not None), lang_b)
                found.setdefault(a.id, []).append((b.id, round(share, 4), rank_b < rank_a, lang_b))
                found.setdefault(b.id, []).append((a.id, round(share, 4), rank_a < rank_b, lang_a))
    _cuda_forms(infos, found)
    return found


_CUDA_FORM = re.compile(r"/([^/]+)\.(cu|cuf|CUF)(?:\.gz)?$")  # a CUDA C program (``.cu``) or a CUDA Fortran one
_STEM_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")  # finiteDifference, finite-difference: finite, difference


def _stem_words(stem: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in _STEM_WORDS.findall(stem))


def _cuda_forms(infos: list[CopyInfo], found: dict[int, list[tuple[int, float, bool, int]]]) -> None:
    """``program_forms`` for the GPU dialects: a CUDA Fortran program (``.cuf``) and its CUDA C form (``.cu``), one
    program in two languages (LABELS.md), the C form kept as C is kept before Fortran. A series that teaches one
    lesson in both languages keeps each language in a tree of its own (``cuda-fortran/transpose.cuf`` beside
    ``cuda-cpp/transpose/transpose.cu``) and names a form a word shorter or in another case (``shared.cuf``,
    ``shared-memory.cu``; ``finiteDifference.cuf``, ``finite-difference.cu``): the two are of one place and
    revision, one name's words are the first words of the other's, and they share ``PROGRAM_NAMES`` of the
    smaller one's name words (the CUDA calls, the kernels' names, the words of the messages). Each CUDA Fortran
    program meets the CUDA C program of its place that shares the most. A ``.cu`` file beside a ``.cpp`` one is
    a kernel and its host code, never two forms: only the two CUDA dialects are paired here."""
    cuda_c: dict[tuple[str, str], list[tuple[CopyInfo, tuple[str, ...]]]] = {}
    fortran: list[tuple[CopyInfo, tuple[str, ...]]] = []
    for info in infos:
        form = _CUDA_FORM.search(url_path(info.url))
        if form is None or info.names is None or len(info.names) < PROGRAM_MIN_NAMES:
            continue
        words = _stem_words(form.group(1))
        if not words:
            continue
        if form.group(2) == "cu":
            cuda_c.setdefault((neighbourhood(info.url), str(revision_of(info.url))), []).append((info, words))
        else:
            fortran.append((info, words))
    for info, words in fortran:
        best: tuple[float, int] | None = None
        for other, other_words in cuda_c.get((neighbourhood(info.url), str(revision_of(info.url))), ()):
            short, long = (words, other_words) if len(words) <= len(other_words) else (other_words, words)
            if long[: len(short)] != short:
                continue
            assert info.names is not None and other.names is not None
            shared = len(np.intersect1d(info.names, other.names, assume_unique=True))
            share = shared / min(len(info.names), len(other.names))
            if share >= PROGRAM_NAMES and (best is None or (share, -other.id) > (best[0], -best[1])):
                best = (share, other.id)
        if best is not None:
            found.setdefault(info.id, []).append((best[1], round(best[0], 4), True, 0))
            found.setdefault(best[1], []).append((info.id, round(best[0], 4), False, 2))


_PAGE_SUFFIX = re.compile(r"\.(?:html?|mdx?|rst|txt)(?:\.gz)?$", re.IGNORECASE)
_RELEASE_NAME = re.compile(r"^v?\d+(?:\.\d+)+$", re.IGNORECASE)  # v1.2.0, 2.3: a page named by its release


def release_part(part: str, whole: str) -> bool:
    """Whether ``part`` is one release's notes (a page named by its version: ``releases/v1.2.0.html``) and
    ``whole`` the history of one place that gathers every release's notes (``release.html``, a changelog): the
    record of one moment is a document of its own, not an earlier form of the history that includes it, however
    much of it the history repeats."""
    name = _PAGE_SUFFIX.sub("", url_path(part).rpartition("/")[2])
    return (
        bool(_RELEASE_NAME.match(name))
        and RELEASE_RECORD.search(url_path(whole)) is not None
        and neighbourhood(part) == neighbourhood(whole)
    )


_FORM_TEMPLATE = re.compile(  # the form a contributor fills in: a pull request's or an issue's template
    r"/(?:\.github/|docs/|\.gitlab/)?(?:pull_request_template|issue_template|merge_request_templates?)(?:/|\.\w+$)",
    re.IGNORECASE,
)


def one_form(a: str, b: str) -> bool:
    """Whether one of two files is a form a contributor fills in (a pull request's or an issue's template) and the
    other is not: the contributing guide that quotes the form's checklist is a guide, the form a form."""
    return bool(_FORM_TEMPLATE.search(url_path(a))) != bool(_FORM_TEMPLATE.search(url_path(b)))


_VIEWCODE = re.compile(r"/_modules/[^?#]*\.html?$", re.IGNORECASE)  # Sphinx viewcode: a module's source as a page


def module_source(a: str, b: str) -> bool:
    """Whether one of two HTML pages is a module's highlighted source (Sphinx viewcode's ``_modules/…html``) and the
    other a page that is not: the reference page renders the docstrings the source holds, so it lies inside the
    source page, but one is the code a reader reads to see how it works and the other the reference; two
    documents. A source file beside its viewcode page, or one module's source page in two versions, is no such
    pair."""
    pages = all(url_path(u).lower().endswith((".html", ".htm")) for u in (a, b))
    return pages and bool(_VIEWCODE.search(url_path(a))) != bool(_VIEWCODE.search(url_path(b)))


def code_and_manual(a: str, b: str) -> bool:
    """Whether one of two files is a source file (a header, a C, CUDA or Python file: ``_CODE_FILE``) and the
    other a man page (``…/man3/widget_alloc.3``): the page documents the calls the file declares, in the words of
    its comments where the file is commented that well, but one is the code a compiler or interpreter reads and the
    other the manual; two documents, whichever copied its text from the other."""
    code_a, code_b = (bool(_CODE_FILE.search(url_path(u))) for u in (a, b))
    man_a, man_b = (bool(MAN_PAGE.search(url_path(u))) for u in (a, b))
    return (code_a and man_b) or (code_b and man_a)


_NAME_MARKS = re.compile(r"[-_.\s]+")


def quoted_program(a: str, b: str) -> bool:
    """Whether one of two files is a source file and the other an HTML page of another name that holds it (a guide
    page that quotes the whole example among its prose, an examples page that shows several): the program a reader
    runs and the page that explains it, two documents. A page named after the file (a documentation generator's
    ``solver_8cpp-example.html``, a gallery's ``demo_3.html`` for ``demo-3.cu``: the file's stem in the page's
    name from one of its words' starts, separators aside, ``_names_at_word``) is the file's rendering, its copy;
    ``domain.html`` is no page of ``main.cu``."""
    for code, page in ((a, b), (b, a)):
        name_c, name_p = url_path(code).rpartition("/")[2], url_path(page).rpartition("/")[2]
        if _CODE_FILE.search(name_c) and name_p.lower().endswith((".html", ".htm")):
            stem = _NAME_MARKS.sub("", name_c.rpartition(".")[0].lower())
            return bool(stem) and not _names_at_word(stem, name_p.rpartition(".")[0])  # not ".html"
    return False


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[0-9])(?=[A-Za-z])")  # plotGemm; Doxygen's 2cout (for /cout)


def _names_at_word(stem: str, name: str) -> bool:
    """Whether ``stem`` (lower case, separators out) stands in ``name`` from one of its words' starts, separators
    a word's capitals and a letter after digits marking them (``solver`` in ``solver_8cpp-example``, ``demo3`` in
    ``demo_3``, ``gemm`` in ``plotGemm``, ``kmeans`` in Doxygen's ``samples_2cpp_2kmeans_8cpp-example``, its
    ``_2`` a slash); ``main`` inside ``domain`` is no name of the page."""
    words = [w for part in _NAME_MARKS.split(name) for w in _CAMEL.split(part) if w]
    joined = "".join(words).lower()
    starts, at = set(), 0
    for word in words:
        starts.add(at)
        at += len(word)
    found = joined.find(stem)
    while found >= 0:
        if found in starts:
            return True
        found = joined.find(stem, found + 1)
    return False


_EXERCISE_FOLDER = re.compile(r"problems?|exercises?|starters?|skeletons?", re.IGNORECASE)
_SOLUTION_FOLDER = re.compile(r"solutions?|answers?|solved", re.IGNORECASE)


def exercise_and_solution(a: str, b: str) -> bool:
    """Whether two files of one place are an exercise and its solution: below the folders they share, one path
    passes through an exercise folder (``problems/``, ``exercises/``, ``starter/``, ``skeleton/``) and the other
    through a solution folder (``solutions/``, ``answers/``, ``solved/``). The exercise is the solution with its
    answer left out (a ``TODO`` where the kernel's body goes), so nearly all of it lies in the solution, but a
    reader works the one and checks against the other: two documents."""
    if neighbourhood(a) != neighbourhood(b):
        return False
    pa, pb = url_path(a).split("/"), url_path(b).split("/")
    x, y = below_shared(pa, pb)
    ex_x, ex_y = (any(_EXERCISE_FOLDER.fullmatch(p) for p in parts) for parts in (x, y))
    sol_x, sol_y = (any(_SOLUTION_FOLDER.fullmatch(p) for p in parts) for parts in (x, y))
    return (ex_x and sol_y) or (ex_y and sol_x)


_DEBIAN_COPYRIGHT = re.compile(r"^file:///usr/share/doc/[^/]+/copyright$")


def packaged_copyright(a: str, b: str) -> bool:
    """Whether one of two files of a Debian package is the package's ``copyright`` file and the other is not:
    the packager's record of who holds which of the package's files under which terms, the licence texts
    quoted after it, beside a licence text the upstream ships (``LICENSE``, ``MPL``) or any other page. The
    record and the terms it quotes are two documents, however much of the one the other holds."""
    if deb_place(a) != deb_place(b) or not deb_place(a):
        return False
    return bool(_DEBIAN_COPYRIGHT.match(url_path(a))) != bool(_DEBIAN_COPYRIGHT.match(url_path(b)))


def _extension(url: str) -> str:
    name = url_path(url).rpartition("/")[2]
    return name.rpartition(".")[2].lower() if "." in name else ""


def form_rank(url: str) -> int:
    """Which form of a definition written for several languages is kept (``language_forms``): the C header, the
    form every other language binds to (0), before any other (1)."""
    return 0 if _extension(url) == "h" else 1


def series_pair(a: str, b: str) -> bool:
    """Whether two URLs are two files of one numbered series: one folder, one extension, one name but the number
    it closes with, a number no version mark names (``La_rot_blk_var2.c`` and ``…_var6.c``, ``a00031.html``
    and ``a00032.html``, ``ch01.md`` and ``ch02.md``). Each is a page of its own, often of one template: they are
    copies only as ``renumbered`` reads them, the same text but for the number."""
    sa, sb = _series_name(a), _series_name(b)
    return sa is not None and sb is not None and sa[:3] == sb[:3] and sa[3] != sb[3]


RENUMBERED_JACCARD = 0.9  # two files of a series are one text renamed from this Jaccard on (their numbers set aside)


def renumbered(infos: list[CopyInfo], lsh: MinHashLSH) -> dict[int, tuple[int, float, float]]:
    """id → (id of the first file of its series that holds the same text, containment, Jaccard): files of one
    numbered series (``series_pair``) whose texts, their own numbers set aside (``own_number``), share
    ``RENUMBERED_JACCARD`` of their shingles. A file copied to start the next variant and renamed, its routines
    renamed with it, repeats the first; the first (the lowest number) is kept. Series pages that differ beyond
    their numbers (a chapter per topic, a reference page per routine) stay pages of their own. The candidates
    come from the text LSH (``lsh``: a pair at that Jaccard is one with certainty), not from every pair of a
    series (a generator's folder numbers thousands of pages)."""
    by_id = {info.id: info for info in infos}
    found: dict[int, tuple[int, float, float]] = {}
    for later in infos:
        series = _series_name(later.url)
        if series is None or later.text is None:
            continue
        first: tuple[int, int, float, float] | None = None  # (number, id, containment, Jaccard)
        for other_id in lsh.query(later.text.minhash):
            other = by_id[other_id]
            number = _series_name(other.url)
            if other.text is None or number is None or not series_pair(later.url, other.url) or number[3] > series[3]:
                continue
            jaccard = later.text.minhash.jaccard(other.text.minhash)
            if jaccard >= RENUMBERED_JACCARD and (first is None or (number[3], other_id) < first[:2]):
                score = redundancy.containment(jaccard, later.text.size, other.text.size)
                first = (number[3], other_id, round(score, 4), round(jaccard, 4))
        if first is not None:
            found[later.id] = first[1:]
    return found


INSTANCE_MIN_LINES = 8  # a source file of at least this many lines (its constants masked) ...
INSTANCE_SHARE = 0.9  # ... is an instance of one template with another of its folder that holds this share of
# the longer one's lines in order (``instances``)
_VARIANT_PART = re.compile(r"(?<=[A-Za-z0-9]_)[A-Za-z0-9]{1,3}\b")  # a name's short last part: kernel_1a, map_b, v_2
_CONSTANT = re.compile(
    r"(?<![\w.])(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[fFuUlL]*)(?![\w.])|\b(?:true|false|True|False)\b"
)
_SPACE = re.compile(r"\s+")


def _masked_lines(text: str, url: str) -> list[str]:
    """``shape``'s lines before hashing: non-blank, constants, variant marks and own names masked, spaced once."""
    names = own_names(url)
    lines = text.split("\n")
    if names is not None:
        lines = [names.sub("#", line) for line in lines]
    masked = (_SPACE.sub(" ", _CONSTANT.sub("#", _VARIANT_PART.sub("#", line))).strip() for line in lines)
    return [line for line in masked if line]


SWAP_MAX_LINES = 2000  # pages compared for a swapped name keep their lines' text up to this many


def worded_lines(text: str, url: str, kind: str) -> tuple[str, ...]:
    """A page's lines as ``shape`` masks them, kept as text for ``swapped``: a written or manual page (not HTML,
    not a source file) whose name has two words or more and ``INSTANCE_MIN_LINES`` lines or more; else ()."""
    path = url_path(url)
    if kind == "html" or _CODE_FILE.search(path) or not _PAGE_FILE.search(path):
        return ()
    stem = _NAME.sub("", path.rpartition("/")[2])
    if len(_OWN_WORD.split(stem)) < 2:
        return ()
    lines = _masked_lines(text, url)
    return tuple(lines) if INSTANCE_MIN_LINES <= len(lines) <= SWAP_MAX_LINES else ()


def _names_either(line: str, a: str, b: str) -> bool:
    lowered = line.lower()
    return a in lowered or b in lowered


def swapped(infos: list[CopyInfo]) -> dict[int, list[int]]:
    """id → ids of the pages it is one text with (both ways): two pages of one folder and one extension whose
    names differ in one word (``profile-guest.7``, ``profile-host.7``) and whose every line is the same once both
    words are masked in both (each alone, or with a plural's ``s``; constants and the words both names share
    masked as ``shape`` masks them): one page written from the other by swapping one name throughout ("for the
    guest" → "for the host", each one's "see also" naming the other). Two calls of one template that say different
    things differ in a line of more than the name, and stay apart. Which one is kept is the preference's call
    (``measure``), as for any two copies."""
    groups: dict[tuple[str, str, int, int, tuple[str, ...]], list[tuple[str, CopyInfo]]] = {}
    for info in infos:
        if not info.worded:
            continue
        folder, _, name = url_path(info.url).rpartition("/")
        parts = _OWN_WORD.split(_NAME.sub("", name).lower())
        for k, word in enumerate(parts):
            if len(word) >= 2 and word.isalpha():
                rest = tuple(parts[:k] + parts[k + 1 :])
                groups.setdefault((folder, _extension(info.url), len(parts), k, rest), []).append((word, info))
    found: dict[int, list[int]] = {}
    for group in groups.values():
        by_length: dict[int, list[tuple[str, CopyInfo]]] = {}  # one text swapped has as many lines as the other
        for word, info in group:
            by_length.setdefault(len(info.worded), []).append((word, info))
        for members in by_length.values():
            _swapped_pairs(members, found)
    return found


def _swapped_pairs(members: list[tuple[str, CopyInfo]], found: dict[int, list[int]]) -> None:
    """``swapped``'s comparison of the pages of one group and one line count, each pair once, in store order."""
    for x in range(1, len(members)):
        word_b, b = members[x]
        for word_a, a in members[:x]:
            if word_a == word_b:
                continue
            # only the lines that differ, and only where each names one of the two words, are read closely
            differ = [(la, lb) for la, lb in zip(a.worded, b.worded, strict=True) if la != lb]
            if not all(_names_either(la, word_a, word_b) and _names_either(lb, word_a, word_b) for la, lb in differ):
                continue
            both = re.compile(
                rf"(?<![A-Za-z0-9])(?:{re.escape(word_a)}|{re.escape(word_b)})(?:e?s)?(?![A-Za-z0-9])",
                re.IGNORECASE,
            )
            if all(both.sub("#", la) == both.sub("#", lb) for la, lb in differ):
                found.setdefault(a.id, []).append(b.id)
                found.setdefault(b.id, []).append(a.id)


SUBSTITUTE_MIN_LINES = 5  # files compared for a consistent substitution: this many lines ...
SUBSTITUTE_MAX_LINES = SWAP_MAX_LINES  # ... up to this many
SUBSTITUTE_OWN_LINES = 0.03  # lines of their own (no name change explains them) one text keeps: this share at most
_TOKEN = re.compile(r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+|\s+")
_WHOLE_CONSTANT = re.compile(r"(?:0[xX])?[0-9a-fA-F]*\d[0-9a-fA-F]*[uUlLfF]*|\d+")


def plain_lines(text: str, url: str, kind: str) -> tuple[bytes, int]:
    """A file's non-blank lines as written (an HTML page's as read), spacing collapsed, compressed, and how many
    (``substituted``): a file of ``SUBSTITUTE_MIN_LINES`` to ``SUBSTITUTE_MAX_LINES`` lines; else (b"", 0)."""
    lines = [line for line in (_SPACE.sub(" ", raw).strip() for raw in text.split("\n")) if line]
    if not SUBSTITUTE_MIN_LINES <= len(lines) <= SUBSTITUTE_MAX_LINES:
        return b"", 0
    return zlib.compress("\n".join(lines).encode(), 1), len(lines)


_NAME_WORDS = re.compile(r"[-_.]+")


def _word_changes(a: str, b: str) -> list[tuple[str, str]] | None:
    """The runs of words one name replaces in the other, in order (words split at ``-``, ``_`` and ``.``, any
    case, each run joined by ``_``): ``id_to_ast_expr`` → ``map_to_basic_set``: (``id``, ``map``), (``ast_expr``,
    ``basic_set``). None where a run is added or dropped (one name the other's with a word more)."""
    words_a, words_b = _NAME_WORDS.split(a.lower()), _NAME_WORDS.split(b.lower())
    changes = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, words_a, words_b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag != "replace":
            return None
        changes.append(("_".join(words_a[i1:i2]), "_".join(words_b[j1:j2])))
    return changes


def _inner_change(a: str, b: str) -> tuple[str, str, str, str]:
    """What differs within one word (``clc3c0qmd`` → ``clc4c0qmd``): the two parts and the characters either side
    (``3``, ``4``, ``c``, ``c``; "" at the word's start or end)."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return a[start : len(a) - end], b[start : len(b) - end], a[start - 1 : start], a[len(a) - end : len(a) - end + 1]


def name_change(a: str, b: str) -> tuple[frozenset[tuple[str, str]], tuple[tuple[str, str, str, str], ...]] | None:
    """What differs between two file names (stems): the runs of words one replaces in the other (``id_to_id`` →
    ``id_to_ast_expr``: ``id`` → ``ast_expr``), and, where one word is replaced by one, what differs within it
    (``clc3c0qmd`` → ``clc4c0qmd``: ``3`` → ``4`` between ``c`` and ``c``; ``cuda11`` → ``cuda13``: ``1`` → ``3``
    after ``1``). None where the names are one, or one adds a word to the other."""
    changes = _word_changes(a, b)
    if not changes:
        return None
    inner = tuple(_inner_change(x, y) for x, y in changes if "_" not in x + y and not (x.isdigit() or y.isdigit()))
    return frozenset(changes), tuple(c for c in inner if c[0] and c[1] and c[2])  # a word's own part changed


def _explained(token_a: str, token_b: str, change: tuple[frozenset[tuple[str, str]], tuple]) -> bool:
    """Whether one token is the other with some of the names' changes made (``name_change``): ``isl_id`` →
    ``isl_ast_expr`` for ``id`` → ``ast_expr``, ``ISL_ID_TO_AST_EXPR_H`` → ``ISL_MAP_TO_BASIC_SET_H`` for both of
    ``id_to_ast_expr`` → ``map_to_basic_set``'s, whole words of the token as of the names; ``NVC3C0_QMD`` →
    ``NVC4C0_QMD`` for ``3`` → ``4`` between ``c`` and ``c``, within a word of a name (never a number) with the
    names' neighbours. Another number, or a word the names do not change, is not explained."""
    words, inner = change
    if _within_name(token_a, token_b, words):
        return True
    changes = _word_changes(token_a, token_b)
    if not changes:
        return False
    for x, y in changes:
        if (x, y) in words or (x.isdigit() and y.isdigit() and any(_trailing_number(x, y, c) for c in inner)):
            continue  # a name's word, or the number that ends a name's word written alone (``v0``: ``upto=0``)
        if "_" in x + y or _WHOLE_CONSTANT.fullmatch(x) or _WHOLE_CONSTANT.fullmatch(y):
            return False
        part_a, part_b, before, after = _inner_change(x, y)
        if not any((part_a, part_b) == (c[0], c[1]) and c[2] == before and (not c[3] or c[3] == after) for c in inner):
            return False
    return True


def _trailing_number(x: str, y: str, inner: tuple[str, str, str, str]) -> bool:
    """Whether two numbers written alone are the whole numbers that end a word of the two names (``plot_v0`` →
    ``plot_v1``: ``0`` → ``1`` after ``v``, at the word's end): the step or case the name counts, which a script
    written once per case passes on (``upto=0``). A number inside a name's word (``q3a0`` → ``q4a0``) stands for a
    class, and a number alone that equals it may be a bit or a size: not read so."""
    return (x, y) == inner[:2] and not inner[2].isdigit() and not inner[3]


def _at_word_edge(token: str, at: int) -> bool:
    """Whether a word of a name written in camel case or with separators may start (or end) at ``at``."""
    if at <= 0 or at >= len(token):
        return True
    left, right = token[at - 1], token[at]
    if left in "-_." or right in "-_.":
        return True
    return (left.islower() and right.isupper()) or (
        left.isupper() and right.isupper() and token[at + 1 : at + 2].islower()
    )


def _within_name(token_a: str, token_b: str, words: frozenset[tuple[str, str]]) -> bool:
    """Whether one token is the other with one word the names change changed inside a name written in camel case
    (``VkIOSSurfaceCreateInfoMVK`` → ``VkMacOSSurfaceCreateInfoMVK`` for ``ios`` → ``macos``), the word standing
    whole at the token's word edges."""
    low_a, low_b = token_a.lower(), token_b.lower()
    for x, y in words:
        at = low_a.find(x)
        while at >= 0:
            end = at + len(x)
            if (
                low_b == low_a[:at] + y + low_a[end:]
                and _at_word_edge(token_a, at)
                and _at_word_edge(token_a, end)
                and _at_word_edge(token_b, at)
                and _at_word_edge(token_b, at + len(y))
            ):
                return True
            at = low_a.find(x, at + 1)
    return False


def substituted(infos: list[CopyInfo]) -> dict[int, list[int]]:
    """id → ids of the files it is one text with (both ways): two files of one folder and one extension, of one
    number of lines, whose lines are the same but for tokens that are each the other's with what differs between
    the two file names changed (``id_to_id.h`` beside ``id_to_ast_expr.h``: ``isl_id`` → ``isl_ast_expr``,
    ``ISL_ID_TO_ID_H`` → ``ISL_ID_TO_AST_EXPR_H``; ``clc3c0qmd.h`` beside ``clc4c0qmd.h``: ``NVC3C0_`` →
    ``NVC4C0_`` on every line), mapped one to one across the whole file: one file written once per type, class
    or version from one template, the case's name changed wherever it appears and nothing else. A long page may
    keep a few lines of its own, ``SUBSTITUTE_OWN_LINES`` of its lines at most (none under 34 lines): a vector
    type's reference page per width, each the other's with the width changed in every name, but for the one
    line naming the types it converts from. Two pages of one template that say different things (another value,
    another parameter, a sentence of their own) differ in more lines the names do not explain, and stay apart
    (labelled pages of one template kept apart differ in 5% of their lines or more, those labelled one text in
    3% or less). Files are compared within one folder, extension and line count only, and only the lines that
    differ are read; files named by a template's stem and their case (``Makefile.<example>``) and files of one
    name in sibling folders (``<example>/README``) are compared by ``_case_substitutions``. Which one is kept is
    the preference's call."""
    groups: dict[tuple[str, str, int], list[CopyInfo]] = {}
    for info in infos:
        if info.plain_lines:
            folder = url_path(info.url).rpartition("/")[0]
            groups.setdefault((folder, _extension(info.url), info.plain_lines), []).append(info)
    found: dict[int, list[int]] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        lines = [zlib.decompress(info.plain).decode().split("\n") for info in members]
        for y, x in _shape_candidates(lines, int(SUBSTITUTE_OWN_LINES * len(lines[0]))):
            a, b = members[y], members[x]
            if _one_substitution(a.url, b.url, lines[y], lines[x]):
                found.setdefault(a.id, []).append(b.id)
                found.setdefault(b.id, []).append(a.id)
    _case_substitutions(infos, found)
    return found


_WORD_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_RULER = re.compile(r"([^\w\s])\1{3,}")  # a ruler drawn in one mark (``=====``, ``-----``): its length is no word


def _shape_candidates(lines: list[list[str]], own: int) -> list[tuple[int, int]]:
    """The pairs (y, x), y < x, in order, of files of one number of lines that ``_substitution_of`` could read as
    one text with at most ``own`` lines of their own: a line that is the other's with names changed has the
    other's shape (its words masked, its punctuation and spacing as they are), so two such files differ in the
    shape of ``own`` lines at most, and of the ``own + 1`` runs their lines are cut into, one at least has the
    same shapes in both (the pigeonhole). Only files that share such a run are compared: a folder of pages with
    one number of lines is not read pair by pair (score_bench's 10,000 pages of one site). ``substituted`` and
    ``_case_substitutions`` both read their pairs from it."""
    runs = own + 1
    n = len(lines[0])
    bounds = [n * k // runs for k in range(runs + 1)]
    buckets: dict[tuple[int, tuple[str, ...]], list[int]] = {}
    for i, text in enumerate(lines):
        shapes = [_RULER.sub(r"\1\1\1", _WORD_TOKEN.sub("w", line)) for line in text]
        for k in range(runs):
            buckets.setdefault((k, tuple(shapes[bounds[k] : bounds[k + 1]])), []).append(i)
    pairs = {(y, x) for members in buckets.values() for j, x in enumerate(members) for y in members[:j]}
    return sorted(pairs, key=lambda pair: (pair[1], pair[0]))


def case_name(url: str) -> tuple[str, str] | None:
    """A file name read as a template's stem and the case it is written for: the part before the first dot and
    the rest (``Makefile.cds_list_add_rcu`` → ``makefile``, ``cds_list_add_rcu``; ``Dockerfile.cuda`` →
    ``dockerfile``, ``cuda``), document extensions set aside (``_file_stem``); None for a name without a dot or
    with nothing before it."""
    stem, dot, case = _file_stem(url).partition(".")
    return (stem, case) if dot and stem and case else None


def _sibling_key(url: str) -> str:
    """The folder whose subfolders a file's folder is one of (``examples/list/…`` → ``examples``), where that
    folder still lies inside the file's place (``neighbourhood``); else the file's own folder."""
    folder, _, name = url_path(url).rpartition("/")
    parent = folder.rpartition("/")[0]
    place = neighbourhood(url)
    return parent if place and parent and neighbourhood(f"{parent}/{name}") == place else folder


def _case_substitutions(infos: list[CopyInfo], found: dict[int, list[int]]) -> None:
    """``substituted`` for files named by a template's stem and their case (``case_name``: ``Makefile.<example>``,
    ``Dockerfile.<variant>``, whose last "extension" is the case, so no two share one): files of one stem and one
    number of lines, in one folder or in sibling folders (``_sibling_key``: one makefile per example, the examples
    sorted into a folder per kind), are one text where every line that differs is the other's with the cases'
    change made (``name_change`` of the cases; a token that is one case whole, or holds it whole as words, may
    read as the other's even where one case has a word more: ``cds_list_add_rcu`` → ``cds_list_add_tail_rcu``).
    Files of one name in sibling folders (``merge_balance/README`` beside ``split_balance/README``: an example's
    page written once per example folder) are read the same way, the folders' names the cases, whole words only
    (no change within a word: "scans" → "sorts" beside ``scan``/``sort`` folders says what each one does).
    Across folders no line of its own is allowed: pages of one template in sibling folders that rewrite a line
    or a paragraph per case stay apart."""
    groups: dict[tuple[str, str, int], list[tuple[CopyInfo, str, str]]] = {}
    for info in infos:
        if not info.plain_lines:
            continue
        folder, _, name = url_path(info.url).rpartition("/")
        named = case_name(info.url)
        if named:
            groups.setdefault((_sibling_key(info.url), named[0], info.plain_lines), []).append((info, folder, named[1]))
            continue
        parent, _, case = folder.rpartition("/")
        if parent:  # one name in sibling folders: the folder names the case (``list/README``)
            groups.setdefault((parent, f"/{name}", info.plain_lines), []).append((info, folder, case.lower()))
    for (parent, stem, _), members in groups.items():
        if len(members) < 2:
            continue
        one_name = stem.startswith("/")  # files of one name, each in its folder, the folder naming the case
        if one_name:  # sibling folders of one place only (read once a name is shared)
            members = [member for member in members if _sibling_key(member[0].url) == parent]
            if len(members) < 2:
                continue
        lines = [zlib.decompress(info.plain).decode().split("\n") for info, _, _ in members]
        # the one-folder allowance bounds both: a pair across folders, allowed none, differs in fewer shapes still;
        # files of one name lie in sibling folders only, and are compared where all their lines' shapes agree
        allowed = 0 if one_name else int(SUBSTITUTE_OWN_LINES * len(lines[0]))
        for y, x in _shape_candidates(lines, allowed):
            (a, folder_a, case_a), (b, folder_b, case_b) = members[y], members[x]
            if case_a == case_b or b.id in found.get(a.id, ()):
                continue
            words, inner = name_change(case_a, case_b) or (frozenset(), ())
            if one_name:  # folders' names change whole words: a prose word is no identifier's part
                inner = ()  # (``scan``/``sort`` folders: "scans" → "sorts" says what each example does)
            change = (words | {(case_a, case_b)}, inner)
            own = SUBSTITUTE_OWN_LINES if folder_a == folder_b else 0.0
            if _substitution_of(change, lines[y], lines[x], own):
                found.setdefault(a.id, []).append(b.id)
                found.setdefault(b.id, []).append(a.id)


def _stem(url: str) -> str:
    """A file's name without its document extensions and its last extension (``id_to_id.h`` → ``id_to_id``)."""
    name = _file_stem(url)
    return name.rpartition(".")[0] or name


def _one_substitution(url_a: str, url_b: str, lines_a: list[str], lines_b: list[str]) -> bool:
    """``substituted``'s test of two files: every differing line the other's with the names' change made in
    tokens, the tokens mapped one to one, but for ``SUBSTITUTE_OWN_LINES`` of the lines at most (a line the
    change does not explain, or whose tokens map otherwise than the lines read before it, is the page's own)."""
    change = name_change(_stem(url_a), _stem(url_b))
    if change is None:
        return False
    return _substitution_of(change, lines_a, lines_b, SUBSTITUTE_OWN_LINES)


def _substitution_of(
    change: tuple[frozenset[tuple[str, str]], tuple], lines_a: list[str], lines_b: list[str], own_share: float
) -> bool:
    """``_one_substitution``'s reading of two files' lines under one change of names, ``own_share`` of the lines
    at most the page's own."""
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}
    differ = 0
    own = int(own_share * len(lines_a))  # lines of its own a page may keep
    for la, lb in zip(lines_a, lines_b, strict=True):
        if la == lb:
            continue
        differ += 1
        if not _substitutes(la, lb, change, forward, backward):
            own -= 1
            if own < 0:
                return False
    return differ > 0


def _ruler(token: str) -> str:
    """A token with every ruler in it drawn three marks long (``/* === name ===…= */`` framed to one width: the
    rule is as much longer as the name is shorter); a word is left as it is."""
    return _RULER.sub(r"\1\1\1", token) if not token[0].isalnum() and token[0] != "_" else token


def _substitutes(
    la: str,
    lb: str,
    change: tuple[frozenset[tuple[str, str]], tuple],
    forward: dict[str, str],
    backward: dict[str, str],
) -> bool:
    """Whether one line is the other with the names' change made in tokens, each token mapped as before (the maps
    take the line's pairs only when the whole line is explained)."""
    ta, tb = _TOKEN.findall(la), _TOKEN.findall(lb)
    if len(ta) != len(tb):
        return False
    pairs: dict[str, str] = {}
    for xa, xb in zip(ta, tb, strict=True):
        if xa == xb or (xa[0] == xb[0] and _ruler(xa) == _ruler(xb)):
            continue
        if forward.get(xa, xb) != xb or backward.get(xb, xa) != xa or pairs.setdefault(xa, xb) != xb:
            return False
        if not _explained(xa, xb, change):
            return False
    if len(set(pairs.values())) != len(pairs):
        return False
    forward.update(pairs)
    backward.update((xb, xa) for xa, xb in pairs.items())
    return True


_HEADER_FILE = re.compile(r"\.(?:h|hh|hpp|hxx|cuh)$", re.IGNORECASE)
_INCLUDE_LINE = re.compile(r"^#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]", re.MULTILINE)  # #include "umfpack_x.h"


def include_lists(infos: list[CopyInfo], folder: str) -> list[list[str]]:
    """The names of the files each header of one folder includes, in order (``#include "x_numeric.h"`` → ``x_numeric.h``):
    a library's umbrella header lists its headers so, its index (``listed_first``). Read from the plain lines
    (``plain_lines``)."""
    lists = []
    for info in infos:
        path = url_path(info.url)
        if info.plain and _HEADER_FILE.search(path) and path.rpartition("/")[0] == folder:
            text = zlib.decompress(info.plain).decode()
            if "#" in text:
                names = [name.rpartition("/")[2] for name in _INCLUDE_LINE.findall(text)]
                if len(names) > 1:
                    lists.append(names)
    return lists


def listed_first(a: CopyInfo, b: CopyInfo, infos: list[CopyInfo], lists: dict[str, list[list[str]]]) -> int:
    """+1 where a header of two headers' folder includes ``a`` before ``b`` (the library's umbrella header: its
    index's order), -1 where it includes ``b`` first, 0 where no header of the folder includes both or the two are
    no headers of one folder. Two headers of one template (``substituted``: ``x_free_numeric.h`` beside
    ``x_free_symbolic.h``), neither newer nor fuller, keep the one the source lists first (LABELS.md), where the
    shingles' sizes (``complete``) read only which lines other headers happen to share. ``lists`` caches each
    folder's ``include_lists``."""
    path_a, path_b = url_path(a.url), url_path(b.url)
    folder, _, name_a = path_a.rpartition("/")
    other_folder, _, name_b = path_b.rpartition("/")
    if folder != other_folder or not (_HEADER_FILE.search(name_a) and _HEADER_FILE.search(name_b)):
        return 0
    return _listed_order(name_a, name_b, folder, lists, lambda folder: include_lists(infos, folder))


def _listed_order(
    name_a: str, name_b: str, folder: str, lists: dict[str, list[list[str]]], read: Callable[[str], list[list[str]]]
) -> int:
    """+1 where a list of ``folder``'s (``read(folder)``, cached in ``lists``) names ``name_a`` before ``name_b``, -1
    where it names ``name_b`` first, 0 where none names both: the order a source lists two pages in, whatever list
    it is (``listed_first``'s include lists, ``index_first``'s toctrees)."""
    if folder not in lists:
        lists[folder] = read(folder)
    for names in lists[folder]:
        if name_a in names and name_b in names:
            return 1 if names.index(name_a) < names.index(name_b) else -1
    return 0


_TOCTREE_OPEN = re.compile(r"^(?:\.\. toctree::|[`:]{3,} ?\{toctree\})")  # reST's toctree, MyST's fence
_TOCTREE_NAME = re.compile(r"^(?:[^<>]*<)?([\w./-]+?)(?:\.(?:rst|md|txt))?>?$")  # intro, Intro <intro>, intro.md


def index_lists(infos: list[CopyInfo], folder: str) -> list[list[str]]:
    """The page names each written page of one folder lists in its toctrees, in order (``.. toctree::`` and its
    entries, ``Title <name>`` read as ``name``; MyST's ``{toctree}`` fence): a manual's index, the order its reader
    meets the pages in (``index_first``). Read from the plain lines (``plain_lines``: blank lines gone, spacing
    collapsed), an entry the line after the options until a line that names no page."""
    lists = []
    for info in infos:
        path = url_path(info.url)
        if not (info.plain and path.rpartition("/")[0] == folder and _WRITTEN_FILE.search(path)):
            continue
        text = zlib.decompress(info.plain).decode()
        if "toctree" not in text:
            continue
        names: list[str] = []
        entries = False
        for line in text.split("\n"):
            if _TOCTREE_OPEN.match(line):
                entries = True
            elif entries and line.startswith(":"):
                continue  # an option (:maxdepth: 1, :caption: Lessons)
            elif entries and (found := _TOCTREE_NAME.match(line)) is not None:
                names.append(found.group(1).rpartition("/")[2])
            else:
                entries = False
        if len(names) > 1:
            lists.append(names)
    return lists


def index_first(a: CopyInfo, b: CopyInfo, infos: list[CopyInfo], lists: dict[str, list[list[str]]]) -> int:
    """+1 where a page of two written pages' folder lists ``a`` before ``b`` in its toctree (the manual's index), -1
    where it lists ``b`` first, 0 where none lists both or the two are no written pages of one folder. Two pages
    of one template (an episode stub per lesson, the same text but its title), neither newer, fuller nor
    rendered, keep the one the index lists first (LABELS.md: "else the one the source lists first"), not the one
    stored first. ``lists`` caches each folder's ``index_lists``."""
    path_a, path_b = url_path(a.url), url_path(b.url)
    folder, _, name_a = path_a.rpartition("/")
    other_folder, _, name_b = path_b.rpartition("/")
    if folder != other_folder or not (_written(a.url, a.kind) and _written(b.url, b.kind)):
        return 0
    stem_a, stem_b = name_a.rpartition(".")[0], name_b.rpartition(".")[0]
    return _listed_order(stem_a, stem_b, folder, lists, lambda folder: index_lists(infos, folder))


_DECLARATION = re.compile(
    r"^[ \t]*((?:[A-Za-z_]\w*[ \t*]+)+)[A-Za-z_]\w*[ \t]*\(([^()]*)\)[ \t]*;", re.MULTILINE
)  # ``int io_uring_wait_cqe(struct io_uring *ring, ...);``: a C prototype, its name set aside
_PARAMETER_WORD = re.compile(r"[A-Za-z_]\w*")


def declared_calls(info: CopyInfo) -> tuple[tuple[str, ...], ...]:
    """The C functions a written page declares (a man page's or reference page's synopsis), each as the tokens of
    its return type and parameters, its own name set aside, in order: ``void (struct io_uring_sqe * sqe , int fd
    ...)``. A declaration's parameters are typed (two words each, or ``void``): a call in an example (``ret =
    f(a, b);``) is none. Read from the page's plain lines (``plain_lines``); () for a source file or where none
    is declared."""
    if not info.plain or _CODE_FILE.search(url_path(info.url)):
        return ()
    calls = []
    for match in _DECLARATION.finditer(zlib.decompress(info.plain).decode()):
        parameters = [p.strip() for p in match.group(2).split(",")]
        if parameters != ["void"] and not all(p == "..." or len(_PARAMETER_WORD.findall(p)) >= 2 for p in parameters):
            continue
        calls.append(tuple(t for t in _TOKEN.findall(f"{match.group(1)} ({match.group(2)})") if not t.isspace()))
    return tuple(calls)


def other_calls(a: CopyInfo, b: CopyInfo, calls: dict[int, tuple[tuple[str, ...], ...]]) -> bool:
    """Whether two written pages of one folder document other calls: both declare C functions (``declared_calls``)
    and the declarations differ in more than what differs between the two file names (``name_change``), in their
    number or in a type, a parameter or a qualifier (``readv`` beside ``readv2``, which takes ``int flags`` more;
    ``wait_cqe`` beside ``wait_cqe_nr``; ``openat`` beside ``openat2``, which takes a ``struct open_how`` where
    the other takes ``flags`` and ``mode``). Such pages of one template say different things (other parameters,
    other semantics: LABELS.md), whatever share of their sentences they keep; a generator's page per routine whose
    synopsis is the other's with the name changed is a copy (the per-operation pages of one atomic family).
    ``calls`` caches each page's reading."""
    for info in (a, b):
        if info.id not in calls:
            calls[info.id] = declared_calls(info)
    ours, theirs = calls[a.id], calls[b.id]
    if not ours or not theirs:
        return False
    if len(ours) != len(theirs):
        return True
    change = name_change(_stem(a.url), _stem(b.url)) or (frozenset(), ())
    return any(
        len(x) != len(y) or any(s != t and not _explained(s, t, change) for s, t in zip(x, y, strict=True))
        for x, y in zip(ours, theirs, strict=True)
    )


def shape(text: str, url: str = "") -> np.ndarray:
    """A file's non-blank lines in order, each hashed with its constants masked (numbers, booleans, and a name's
    short last part, the variant mark a generator appends: ``kernel_1a`` and ``kernel_2b`` alike), the names its
    own path gives it masked (``own_names``: the namespace ``hip`` in ``hip_backend.hpp``, ``cma`` in
    ``channel/cma/factory.h``) and its spacing collapsed: what one template writes whatever it was instantiated
    with or for (``instances``)."""
    return redundancy.stable_hashes(_masked_lines(text, url))


_OWN_WORD = re.compile(r"[-_.\s]+")


def own_names(url: str) -> re.Pattern | None:
    """The names a file's path gives what it writes, as one pattern (whole words, any case): its stem and its
    folder's name, whole and word by word and in runs of up to four words (``headers/hip_backend.hpp`` →
    ``hip_backend``, ``hip``, ``backend``, ``headers``; ``shm_ring_factory.h`` → ``shm_ring`` too;
    ``channel/cuda_ipc/factory.h`` → ``cuda_ipc``, ``cuda``, ``ipc``, ``factory``). A template instantiated once
    per case writes each copy under a name of its case, or into a folder of its case, and writes the case's name
    in its text (a namespace, a module's title, a plugin's name in its description): masked, the copies are one
    text, while two files whose lines differ beyond their own names stay apart. A name is masked where it stands
    alone (``namespace hip``, "the HIP back end", "the choose-image plugin"), not inside an identifier
    (``acc_top_0``): a variant's own code names its own symbols so, and differs in more than them. A folder's
    name is masked in every file of the folder alike (``include`` in ``#include`` lines), so it makes no two files
    of one folder meet that differ elsewhere."""
    folder, _, name = url_path(url).rpartition("/")
    words: set[str] = set()
    for whole in (name.rpartition(".")[0] or name, folder.rpartition("/")[2]):
        parts = _OWN_WORD.split(whole)
        runs = ("_".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, min(len(parts), i + 4) + 1))
        words |= {w.lower() for w in (whole, *runs) if len(w) >= 2 and not w.isdigit()}
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)


def instances(infos: list[CopyInfo]) -> dict[int, tuple[int, float]]:
    """id → (id of the instance kept, the share of lines in order) of source files instantiated from one
    template: files of one folder and one extension (``INSTANCE_MIN_LINES`` or more) whose lines, their
    constants masked (``shape``), agree in ``INSTANCE_SHARE`` of the longer one's lines, in order. A build that
    compiles one kernel per bit width, head size or flag combination writes one compilation unit per case, the
    same text but for its constants and its variant's name; the constants are all that differs, the shingles of
    the lines that write them do not meet. The instance kept is the fullest (most lines: the one the others were
    cut from keeps a comment or an include they dropped), then the first by name. One routine's files in two
    precisions are left to the preference (``precision_twins``: the double-precision one is kept). The names a
    file's own path gives (``own_names``: a back end's namespace in ``hip_backend.hpp`` beside
    ``cuda_backend.hpp``, or in ``channel/cma/factory.h``) are masked like its constants. Written pages
    (Markdown, reST, text) are instances only when every line agrees so: one template's pages that differ only
    in the name of what they document. Files are compared within their folder and extension only, and only where
    their line counts are within the share; each with those ranked above it, the best first, up to the first it
    agrees with. One file name in sibling folders
    of one place (``cousins``: ``channel/cma/factory.h`` beside ``channel/shm/factory.h``, a template written once
    per case into the case's folder) is an instance only where every line agrees once masked: one program
    written a second way in a folder of its own differs in more than its names and stays apart."""
    # written pages and cousins agree only on one shape (every line), so those are grouped by their shape too: a
    # folder's thousands of written pages, or a place's thousands of README.md files, meet only those of their very
    # shape, not each other (the square of a folder's pages or of a name's files, on a corpus of 10k pages)
    groups: dict[tuple[str, str, bytes], list[CopyInfo]] = {}
    named: dict[tuple[str, str, str, bytes], list[CopyInfo]] = {}
    for info in infos:
        if info.shape is not None:
            folder, _, name = url_path(info.url).rpartition("/")
            exact = info.shape.tobytes()
            written = b"" if _CODE_FILE.search(url_path(info.url)) else exact  # one extension: all code or none
            groups.setdefault((folder, _extension(info.url), written), []).append(info)
            named.setdefault((neighbourhood(info.url), str(revision_of(info.url)), name, exact), []).append(info)
    rank = {
        info.id: (-len(info.shape), url_path(info.url)) for g in groups.values() for info in g if info.shape is not None
    }
    found: dict[int, tuple[int, float]] = {}
    # source files of one folder agree in INSTANCE_SHARE of their lines (a unit may drop a line or two); written
    # pages only when every line is the same once names and constants are masked: a page with a line of its own
    # beside a template's twenty (an example's README that says what it does) is a page of its own
    _agreeing(groups.values(), rank, found, lambda a, b: INSTANCE_SHARE if _CODE_FILE.search(url_path(a.url)) else 1.0)
    # cousins (one name, sibling folders) only when every line is the same once masked
    cased = (members for members in named.values() if len(members) > 1)
    _agreeing(cased, rank, found, lambda a, b: 1.0 if cousins(a.url, b.url) else 2.0)
    return found


def _agreeing(
    groups: Iterable[list[CopyInfo]],
    rank: dict[int, tuple[int, str]],
    found: dict[int, tuple[int, float]],
    least_of: Callable[[CopyInfo, CopyInfo], float],
) -> None:
    """``instances``' match within each group of files: each unit meets those ranked above it, the best first, and
    the first it agrees with (in the share of lines in order ``least_of`` asks of the pair; over 1.0: never) is
    kept. A unit an earlier grouping found is left as found."""
    for members in groups:
        members.sort(key=lambda info: len(info.shape))  # type: ignore[arg-type]
        # each unit meets the units ranked above it, the best first, and the first it agrees with is the one kept:
        # in a generated folder that is the fullest for nearly every unit, one comparison a unit where every pair
        # of a folder of hundreds cost minutes
        key = [(rank[info.id], k) for k, info in enumerate(members)]  # one path stored twice: the first in order kept
        order = sorted(range(len(members)), key=key.__getitem__)
        for x in range(len(members)):
            if members[x].id in found:
                continue
            for y in order:
                if key[y] >= key[x]:
                    break
                i, j = min(x, y), max(x, y)  # the shorter first, as the line matcher reads them
                a, b = members[i], members[j]
                assert a.shape is not None and b.shape is not None
                if len(a.shape) < INSTANCE_SHARE * len(b.shape) or precision_twins(a.url, b.url):
                    continue
                least = least_of(a, b)
                if least > 1.0 or (least == 1.0 and not np.array_equal(a.shape, b.shape)):
                    continue
                share = _shape_share(a.shape, b.shape)
                if share >= least:
                    found[members[x].id] = (members[y].id, round(share, 4))
                    break


def _shape_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of ``b``'s masked lines (``shape``) that ``a``, no longer, holds in order: 1.0 for one shape, 0.0
    where fewer lines are common than ``INSTANCE_SHARE`` of them (the line matcher could find no more)."""
    if np.array_equal(a, b):
        return 1.0
    if _common_count(a, b) < INSTANCE_SHARE * len(b):
        return 0.0
    matcher = SequenceMatcher(None, a.tolist(), b.tolist(), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(b)


_NAME_SPLIT = re.compile(r"[-_.]+")


def folder_variants(a: str, b: str) -> bool:
    """Whether two files are one program's variants for two cases their folders name: one place and revision, two
    sibling folders, and the two names the same once the words of their own folder's name are taken out
    (``omp/test_vec_omp.c`` beside ``threads/test_vec_threads.c``: a module's test per
    threading back end). Each names its case in its folder and again in its name; the text each shares with the
    other is the scaffolding of one test written per case, and what differs is the case it tests. Never copies
    of each other (a copy of one file in another folder keeps its name: ``cousins``)."""
    pa, pb = url_path(a).split("/"), url_path(b).split("/")
    if pa[-1] == pb[-1] or revision_of(a) != revision_of(b) or neighbourhood(a) != neighbourhood(b):
        return False
    x, y = below_shared(pa, pb)
    if not x or not y:
        return False
    words_x = {w for part in x for w in _NAME_SPLIT.split(part.lower()) if w}
    words_y = {w for part in y for w in _NAME_SPLIT.split(part.lower()) if w}
    name_x, name_y = (_NAME_SPLIT.split(p[-1].lower()) for p in (pa, pb))
    if name_x[-1] != name_y[-1] or len(name_x) < 2 or len(name_y) < 2:
        return False  # one extension, and a name before it
    kept_x = [w for w in name_x[:-1] if w not in words_x]
    kept_y = [w for w in name_y[:-1] if w not in words_y]
    return bool(kept_x) and kept_x == kept_y and len(kept_x) < len(name_x) - 1 and len(kept_y) < len(name_y) - 1


_MEMBER_LIST = re.compile(r"/([^/]+)-members\.html?$", re.IGNORECASE)  # Doxygen's classx_1_1module-members.html


def member_lists(a: str, b: str) -> bool:
    """Whether two pages are a documentation generator's member lists of two classes (Doxygen's
    ``<class>-members.html``, "the complete list of members for X, including all inherited members"): each lists
    its own class's members, a derived class's list its base's as well, so one list holds nearly all of the other
    while documenting another class. One class's list in two versions keeps one name, and is compared as ever."""
    one, other = _MEMBER_LIST.search(a), _MEMBER_LIST.search(b)
    return one is not None and other is not None and one.group(1) != other.group(1)


def held_apart(a: str, b: str) -> bool:
    """Whether two URLs name two documents whatever their texts share (``HELD_APART``, in that order): pages of a
    numbered series, one program's variants per folder, a release's notes and the history, a form and a guide, a
    module's source page and a reference page, a source file and its man page, an exercise and its solution, a
    program and a page that quotes it, a package's copyright record and another of its files, two classes' member
    lists. Both the candidates' loop and the contained texts' loop of ``measure`` ask it, ``a`` the page measured."""
    return any(rule(a, b) for rule in HELD_APART)


def _template_of(a: CopyInfo, b: CopyInfo) -> bool:
    """Whether one of two files is a template (``CopyInfo.template``) and the other the file written from it, by
    their names (``preference.template_pair``): not two variants of one name, whatever folders they sit in."""
    if a.template == b.template:
        return False
    template, output = (a, b) if a.template else (b, a)
    return template_pair(template.url, output.url)


def translation_name(url: str) -> str:
    """The page a translation and its original share (``translated`` compares the pages of one place under one
    such name): ``page_name``, except for a generic name (``README``, ``index``, ``Introduction``) at most one
    folder below its place's root, once revision and language segments are skipped, which is the bare name. A
    project's translations often sit in a tree of their own beside the original's (``translations/ko/…``,
    ``i18n/ja/…`` beside ``docs/…``): below the language folder the two trees are the same, so
    ``translations/ko/Introduction.md`` and ``docs/Introduction.md`` are one page, as
    ``translations/ko/lesson01/rpi-os.md`` and ``docs/lesson01/rpi-os.md`` already were. Deeper generic names
    keep their folder (``lesson01/README.md`` is no translation of ``lesson02/README.md``); only a page whose
    path marks a language is compared across languages, and the text tests of ``translated`` still decide."""
    name = page_name(url)
    if "/" not in name:
        return name
    below = [p for p in _below_place(url)[:-1] if not _REVISION_PART.fullmatch(p)]
    return name.rpartition("/")[2] if len(below) <= 1 else name


def translation_folder(url: str) -> str:
    """The folder a translation and its original share below their place, language and revision segments
    skipped (``chapters/es/chapter1/8.mdx`` and ``chapters/en/chapter1/9.mdx`` → ``chapters/chapter1``;
    ``docs/zh/guide.md`` and ``docs/guide.md`` → ``docs``): where a translated page under a name of its own (a
    renumbered chapter, a title translated into its file name) finds its original (``translated``)."""
    return "/".join(p for p in _below_place(url)[:-1] if not _REVISION_PART.fullmatch(p)).lower()


def _below_place(url: str) -> list[str]:
    """The path segments of a URL below its place (``neighbourhood``): a Debian package's folder, a repository
    (and, on a raw file host, its revision)."""
    found = DEB_DOC.match(url)
    if found:
        return [p for p in found.string[found.end() :].split("/") if p]
    parts = _path_parts(url)
    return parts[3:] if _SITE.match(url) else parts[1:]


def _path_parts(url: str) -> list[str]:
    """The host and path segments of a URL, without its scheme, query and fragment."""
    return [p for p in url_path(url.split("://", 1)[-1]).split("/") if p]


_NUMBERED_LINE = re.compile(r"^[ \t]*(\d+)(?:[ \t]+(.*?))?[ \t]*$", re.MULTILINE)
_FIRST_LINE = re.compile(r"\n[ \t]*1(?:[ \t]|\n|$)")  # a literal first: ~1 ns a character
_LETTER = re.compile(r"[^\W\d_]")
LISTING_MIN_LINES = 10  # a source listing numbers at least this many lines ...
LISTING_SHARE = 0.5  # ... this share of the text's non-blank lines ...
LISTING_ASCENDING = 0.9  # ... its numbers rise from one numbered line to the next this often ...
LISTING_WORDED = 0.25  # ... and this share of them hold a word (code does; a table of figures by step does not)


def unnumbered(text: str) -> str | None:
    """A source listing's own text: its numbered lines without their numbers (``12 int main()`` → ``int
    main()``); None for a text that is no listing. A code browser or a documentation generator (Doxygen's
    ``*_source.html``) shows a file with a number before each line, and around it what is not the file: the
    navigation, the generator's tooltips for the symbols it links (a signature and where it is defined). The
    number is a token of its own in every shingle, so no shingle of the listing met the code of the page it
    renders (a tutorial page that shows the same file between its paragraphs). A listing numbers
    ``LISTING_MIN_LINES`` lines or more from 1, ``LISTING_SHARE`` of its non-blank lines, rising
    ``LISTING_ASCENDING`` of the time, ``LISTING_WORDED`` of them with a word (a table of losses by step is
    none, nor a numbered list: it writes ``1.``)."""
    first = _FIRST_LINE.search("\n" + text)  # a listing has a line 1; found at i, it starts text[i:]
    if first is None:
        return None
    found = _NUMBERED_LINE.findall(text, first.start())
    if len(found) < LISTING_MIN_LINES:
        return None
    numbers = [int(n) for n, _ in found]
    rising = sum(b > a for a, b in itertools.pairwise(numbers))
    worded = sum(1 for _, line in found if _LETTER.search(line))
    lines = sum(1 for line in text.split("\n") if line.strip())
    if (
        len(found) < LISTING_SHARE * lines
        or rising < LISTING_ASCENDING * (len(found) - 1)
        or worded < LISTING_WORDED * len(found)
    ):
        return None
    return "\n".join(line for _, line in found)


def is_source_copy(url: str, title: str, kind: str, text: str, copy_of: str | None = None) -> bool:
    """Whether a text is the source of a page rendered from it: a Sphinx source copy (named by the crawler or
    by its ``_sources/`` URL), a title made of markup, reStructuredText markup in a text file."""
    if copy_of or _SOURCE_URL.search(url):
        return True
    if title.strip() and not any(ch.isalnum() for ch in title):
        return True
    return kind in ("text", "markdown") and len(_RST_MARKUP.findall(text[:20000])) >= 5


class Signer:
    def __init__(self, counts: LineCounts, documents: int):
        self.counts = counts
        self.threshold = BOILERPLATE_DOCS if documents >= 2 * BOILERPLATE_DOCS else documents + 1
        self.near_threshold = NEIGHBOUR_DOCS if documents >= 2 * BOILERPLATE_DOCS else 0

    def _content(
        self, text: str, licence: bool | None = None, name: str = "", keep_template: bool = False
    ) -> tuple[str, bool]:
        """The text without its boilerplate lines (frequent in the corpus, a template, or licence wording);
        whether any went.

        A line is a template when ``NEIGHBOUR_DOCS`` documents of the corpus hold it and at least
        ``NEIGHBOUR_DOCS - 1`` of them are other pages (``page_name``): siblings made from one template
        share it, the revisions and forms of one page do not count (three revisions of one page share every
        line and stay copies, by construction). Template lines go only from a page made from a template (they
        hold ``TEMPLATE_SHARE`` of its words: a shared "Introduction" or "Options:" heading would only shift the
        shingles); what is left is the page's own text, and two pages built from one template are copies only
        when their own texts are. ``keep_template`` keeps the template's lines (a stub's frame: ``sign``)."""
        lines = text.split("\n")
        keys = line_keys(text)
        hashes = redundancy.stable_hashes(keys).view(np.uint64)
        long_enough = np.fromiter((len(k) >= LINE_MIN_CHARS for k in keys), dtype=bool, count=len(keys))
        drop = (self.counts.count(hashes) >= self.threshold) & long_enough
        siblings = self.counts.siblings(hashes, name) if self.near_threshold else None
        if siblings is not None:  # the forms and revisions of this page make no line boilerplate: other pages do
            drop &= siblings >= self.threshold - 1
        if _has_licence(text) if licence is None else licence:  # line by line only where licence wording is
            drop |= np.fromiter((_LICENCE_LINE.search(k) is not None for k in keys), dtype=bool, count=len(keys))
        if siblings is not None and not keep_template:
            template = long_enough & (siblings >= self.near_threshold - 1) & ~drop
            if template.any():
                words = np.fromiter((len(k.split()) for k in keys), dtype=np.int64, count=len(keys))
                if words[template].sum() >= TEMPLATE_SHARE * words.sum():
                    drop |= template
        if not drop.any():
            return text, False
        return "\n".join(line for line, gone in zip(lines, drop, strict=False) if not gone), True

    def sign(
        self,
        doc_id: int,
        url: str,
        title: str,
        kind: str,
        text: str,
        code_blocks: list,
        newest: float,
        copy_of: str | None = None,
    ) -> CopyInfo:
        original = text
        cells = notebook_text(text) if kind == "text" else None
        if cells is not None:  # its lines as a reader of the notebook sees them (pass 1 counted the JSON's)
            text = cells
        listing = unnumbered(text)
        if listing is not None:  # a numbered source listing: the code of the page that renders it
            text = listing
        source_copy = listing is not None or is_source_copy(url, title, kind, text, copy_of)
        if source_copy:
            text = _DIRECTIVE_OR_RULE.sub("", _ROLE.sub(r"\1", _RST_COMMENT.sub("", text)))
        text = own_number(url, text)
        licence = _has_licence(text)
        content, templated = None, False
        terms, holders, term_words = 0, frozenset[str](), ""
        if licence and _licence_share(text) >= LICENCE_DOMINATED:
            terms, holders, term_words = licence_terms(text)
            all_toks = analysis.tokens(text)
            toks = analysis.tokens("\n".join(line for line in text.split("\n") if _HOLDER_LINE.search(line)))
            if len(toks) < HOLDER_MIN_TOKENS:  # a holder line or two tell no copy apart
                toks = []
        else:
            name = self.counts.page(url)
            content, changed = self._content(text, licence, name)
            toks = analysis.tokens(neutral_markup(content, source_copy))
            all_toks = analysis.tokens(neutral_markup(text, source_copy)) if changed else toks
            if len(toks) < OWN_MIN_TOKENS:  # next to nothing of its own: a copy of many, compared whole
                toks = all_toks
            elif changed and len(toks) < STUB_SHINGLES + redundancy.SHINGLE_WORDS - 1:
                framed = analysis.tokens(neutral_markup(self._content(text, licence, name, True)[0], source_copy))
                if len(framed) > FRAMED_RATIO * len(toks):
                    # its template's output, a name and a few words its own: compared with its template's lines
                    toks, templated = framed, True
        dropped = 1 - len(toks) / len(all_toks) if all_toks else 0.0
        hashes = redundancy.shingle_hashes(toks)
        words = anchored = None
        place = neighbourhood(url)
        if (place, translation_name(url)) in self.counts.translated or (
            place,
            translation_folder(url),
        ) in self.counts.translated_folders:  # a translation or its original, by name or by folder
            words = np.unique(redundancy.stable_hashes(t for t in all_toks if _NEUTRAL.fullmatch(t)))
            anchored = anchors(content if content is not None else text)
        code_toks = analysis.tokens(self._content("\n".join(map(str, code_blocks)))[0]) if code_blocks else []
        code_share = len(code_toks) / max(len(all_toks), 1)
        code = None
        if len(code_toks) >= CODE_MIN_TOKENS and code_share >= CODE_MIN_SHARE:
            code = redundancy.signature(code_toks)
        values = names = None
        if kind != "html" and not _PAGE_FILE.search(url_path(url)):
            values = _values(original)[:FORM_VALUE_CAP]
            if len(values) < FORM_VALUES:
                values = None
            cuda = _CUDA_FORM.search(url_path(url)) is not None and neighbourhood(url) in self.counts.cuda_fortran
            if values is not None or program_name(url) is not None or cuda:
                names = np.unique(redundancy.stable_hashes(w.lower() for w in _NAME_WORD.findall(original)))
        lines = (
            shape(original, url)
            if kind != "html" and (_CODE_FILE.search(url_path(url)) or _written(url, kind))
            else None
        )
        unprecise = None
        if _CODE_FILE.search(url_path(url)) and (
            precision_suffix(url) is not None or url_path(url) in self.counts.precision_bases
        ):  # one of a file's two precisions, compared with the other with its precision words masked
            unprecise = redundancy.signature(analysis.tokens(_PRECISION_WORD.sub("", original)))
        typeless = None
        if (
            precision_parts(url) is not None
            or (url_path(url) in self.counts.family_bases and _CODE_FILE.search(url_path(url)))
            or self.counts.letter_family(url)
        ):  # a program named by its element type (or the name its precision forms' suffixes leave, or a routine's
            # precision letter that a sibling's name holds otherwise)
            typeless = typeless_lines(original)
        exercise_lines = None
        if exercise_paths(url) or url_path(url) in self.counts.exercises:  # an exercise or its solution
            exercise_lines = np.unique(
                redundancy.stable_hashes(k for k in (ln.strip() for ln in text.split("\n")) if k)
            )
        plain = plain_lines(original, url, kind)
        return CopyInfo(
            doc_id,
            url,
            title,
            kind,
            newest,
            source_copy,
            redundancy.signature_of(hashes),
            code,
            round(code_share, 4),
            round(dropped, 4),
            copy_of,
            hashes[hashes < SAMPLE_BELOW].astype(np.uint32),
            words,
            anchors=anchored,
            includes=only_included(original),
            worded=worded_lines(original, url, kind),
            plain=plain[0],
            plain_lines=plain[1],
            renders=front_matter_page(original) if kind != "html" else "",
            foreign=url in self.counts.foreign,  # read once, in pass 1 (``LineCounts.add``)
            moved_to=_stub_links(original) if hashes.size < STUB_SHINGLES else (),
            pointers=_links(original) if hashes.size < POINTER_SHINGLES else (),
            exported_from=exported_from(kind, original) if cells is None else "",
            template=is_template(original),
            templated=templated,
            values=values,
            names=names,
            shape=lines if lines is not None and len(lines) >= INSTANCE_MIN_LINES else None,
            unprecise=unprecise,
            typeless=typeless,
            lines=exercise_lines,
            release=newest_release(url, text),
            fortran=names is not None and url_path(url).endswith((".h", ".h.gz")) and written_in_fortran(original),
            terms=terms,
            holders=holders,
            term_words=term_words,
        )


def notebook_text(text: str) -> str | None:
    """A Jupyter notebook read as its raw JSON (a raw file server sends it as text): its cells' sources, one
    after another, without the outputs (base64 images, tables) and the JSON around them; None for anything that
    is not a notebook. Its rendered page (nbsphinx) shows the same cells: as JSON, every source line ends in a
    quoted ``\\n",`` whose ``n`` is a token of its own, so no shingle of the notebook met one of the page's."""
    if not text.lstrip().startswith("{") or '"cells"' not in text[:2000]:
        return None
    try:
        cells = json.loads(text).get("cells")
    except (ValueError, AttributeError):
        return None
    if not isinstance(cells, list):
        return None
    parts = []
    for cell in cells:
        source = cell.get("source", "") if isinstance(cell, dict) else ""
        parts.append("".join(source) if isinstance(source, list) else str(source))
    return "\n\n".join(parts)


_NOTEBOOK_OUTPUT = re.compile(r"([\w.-]+?)_files/\1_\d+_\d+\.(?:png|jpe?g|svg|gif)\b")


def exported_from(kind: str, text: str) -> str:
    """The notebook a written page (Markdown, reStructuredText, text) was exported from, by the names an exporter
    gives the notebook's output images (``fitting_files/fitting_4_0.png``:
    ``<notebook>_files/<notebook>_<cell>_<output>``, nbconvert's convention); "" when it shows none.
    ``preference`` keeps the notebook: the page is a machine-made form of it, outputs pasted in."""
    if kind not in _AUTHORED or "_files/" not in text:  # a substring test first: ~1 ns a character
        return ""
    found = _NOTEBOOK_OUTPUT.search(text)
    return found.group(1) if found else ""


_TEMPLATE_STATEMENT = re.compile(r"\{%-?\s*(?:for|if|set|macro|block|include|extends|raw)\b[^%\n]*%\}")
_TEMPLATE_VALUE = re.compile(r"\{\{-?\s*[A-Za-z_][\w.]*(?:\s*\|[^{}\n]*)?\s*-?\}\}")
TEMPLATE_TAGS = 3  # a template writes at least this many tags, one of them a statement (a loop, a condition)


def is_template(text: str) -> bool:
    """Whether a file is a template engine's input (Jinja's, Django's, Mako's syntax): a statement tag (``{% for
    op in ops %}``, ``{% if %}``) and ``TEMPLATE_TAGS`` tags in all (``{{ op.name }}``). A generator writes
    the file of its name from it (``preference.template_pair``): the output is the document a reader reads, the
    template holds its frame and none of what the loops write. A C++ brace initialiser (``{{0, 1}}``) is no tag."""
    head = text[:100_000]
    if "{%" not in head:  # no statement tag: a substring test first, the two patterns only where one may be
        return False
    statements = len(_TEMPLATE_STATEMENT.findall(head))
    return statements >= 1 and statements + len(_TEMPLATE_VALUE.findall(head)) >= TEMPLATE_TAGS


_SERIES_STEM = re.compile(r"^(.*?[A-Za-z])([-_]?)(\d+)$")  # blk_var6, a00031, ch01: a name that ends in a number
_SERIES_WORD = re.compile(r"[A-Za-z]+[-_]?$")  # the name's last word before its number, with its separator


def _series_name(url: str) -> tuple[str, str, str, int] | None:
    """(folder, the name without its closing number, extension, the number) of a file whose name ends in a number
    that marks no version (``La_rot_blk_var6.c``, ``a00031.html``; not ``notes-v2.md``): one of a series."""
    folder, _, name = url_path(url).rpartition("/")
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    found = _SERIES_STEM.match(stem)
    if found is None or _MARKED_VERSION.search(stem):
        return None
    return folder, found.group(1) + found.group(2), ext.lower(), int(found.group(3))


def own_number(url: str, text: str) -> str:
    """The text with its own name's closing number set aside where it writes it after the name's last word
    (``La_rot_bls_var6`` → ``La_rot_bls_var#`` in ``La_rot_blk_var6.c``): a file copied to
    make the next of a series and renamed, its routines with it, is the same text as the first
    (``renumbered``). Only the number of the file's own name, after that name's last word, changes."""
    series = _series_name(url)
    if series is None:
        return text
    word = _SERIES_WORD.search(series[1])
    if word is None:
        return text
    pattern = re.compile(rf"(?<![A-Za-z]){re.escape(word.group(0))}0*{series[3]}(?!\d)", re.IGNORECASE)
    return pattern.sub(f"{word.group(0)}#", text)


def neutral_markup(text: str, source_copy: bool) -> str:
    """The text as a reader of either form sees it, for its shingles: a Markdown link or image leaves its text
    (``[the guide](https://…)`` → ``the guide``: its rendered page has no URL there), an issue reference its
    number (``GH#7368`` → ``7368``: Sphinx renders ``:pr:`7368``` so, the source keeps the bare number); a
    reStructuredText source copy also loses its link targets (``.. _`Gabe Joseph`: https://…``, at the foot of
    a changelog: a tenth of its words, none of them on the rendered page) and the reference marks around link
    text (`` `Gabe Joseph`_`` → ``Gabe Joseph``, ``crusaderky_`` → ``crusaderky``: ``_`` is a token of its own,
    or sticks to the word, and breaks every shingle it falls in). Applied after the boilerplate lines go (their
    line keys were counted on the text as stored)."""
    if "#" in text:  # an issue reference holds one (the pattern, opening on ``\b``, is tried at every place)
        text = _ISSUE_PREFIX.sub("", text)
    if source_copy:
        text = _RST_WORD_REFERENCE.sub(r"\1", _RST_REFERENCE.sub(r"\1", _RST_TARGET.sub("", _MD_LINK.sub(r"\1", text))))
    return text


_AUTHORED = ("markdown", "text")  # files a person writes (Markdown, reStructuredText, text), not a generator's pages
_ENGLISH = frozenset(  # the commonest English function words (not "a", "is": other languages write them too)
    "the and of to in for that this with on are be you it as by from can or an if will not your which at have".split()
)
_FENCED_BLOCK = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1", re.MULTILINE | re.DOTALL)
_PLAIN_WORD = re.compile(r"(?<![\w`/.#:-])[^\W\d_A-Z]{2,}(?![\w`/(-])")  # a lower-case word of prose, no identifier
_WRITTEN_FILE = re.compile(r"\.(?:md|markdown|mdx|rst|txt|adoc)$", re.IGNORECASE)
FOREIGN_WORDS = 80  # a written page is read as another language than English from this many plain words ...
FOREIGN_ENGLISH = 0.03  # ... when under this share of them are English function words (English prose: 0.15-0.3)


def foreign_text(url: str, kind: str, text: str) -> bool:
    """Whether a written page (a Markdown, reStructuredText, AsciiDoc or text file) that no path marks as a
    language is in another language than English by its text: ``FOREIGN_WORDS`` plain words of prose (lower
    case, outside code blocks, not identifiers), under ``FOREIGN_ENGLISH`` of them English function words. A
    translation kept beside its original under a name of its own language (a README beside its translated
    "read me") is found so: ``translated`` compares it with the English pages of its folder by their anchors."""
    if not _written(url, kind) or language_of(url):
        return False
    words = _PLAIN_WORD.findall(_FENCED_BLOCK.sub(" ", text))
    if len(words) < FOREIGN_WORDS:
        return False
    return sum(w in _ENGLISH for w in words) < FOREIGN_ENGLISH * len(words)


def _links(text: str) -> tuple[str, ...]:
    """Every link target a page writes in Markdown or reST (``[text](target)``, ```text <target>`_``), absolute or
    relative, in order (``two_pointers``); an HTML page's stored text keeps no links (the extractor holds them
    apart), so it has none and the pointers rule never meets it."""
    return tuple(a or b for a, b in _LINK_TARGET.findall(text))


def two_pointers(a: CopyInfo, b: CopyInfo) -> bool:
    """Two short pages (``POINTER_SHINGLES``) that each link somewhere and share no link target: two pointers
    written from one template ("this page has moved to …", "see … for …"), each to its own place, not one text
    read twice; what they say is the template's, where they point is their own."""
    return bool(a.pointers) and bool(b.pointers) and not set(a.pointers) & set(b.pointers)


def _stub_links(text: str) -> tuple[str, ...]:
    """The relative link targets of a short page (a "this page has moved" stub), in order: where it says its
    text went (``moved``). Absolute URLs name no page of its tree."""
    found = (a or b for a, b in _LINK_TARGET.findall(text))
    return tuple(t for t in found if "://" not in t and not t.startswith(("/", "mailto:")))[:8]


def anchors(text: str) -> np.ndarray:
    """What a translator leaves alone, in the page's order: URLs and link targets, image names, inline code,
    numbers and identifiers (a word with a digit, an inner capital, an underscore, or in capitals: ``gpt-4``,
    ``OpenAI``, ``INTRO1``, ``LLM``), as the hashes of their ``[a-z0-9_]{2,}`` tokens. Plain words of any
    language are no anchors, so a German page and its English original are compared on what both write alike
    (the plain-word test, ``TRANSLATION_SHARE``, reads German words as foreign and fails it)."""
    toks = [t for found in _ANCHOR.findall(text) for t in _NEUTRAL.findall(found.lower())]
    return redundancy.stable_hashes(toks[:ANCHOR_CAP])


def _in_order(a: np.ndarray, b: np.ndarray) -> float:
    """Share of the shorter sequence that the other holds in the same order (the matching blocks of
    ``difflib.SequenceMatcher``, an approximation of their longest common subsequence from below)."""
    matcher = SequenceMatcher(None, a.tolist(), b.tolist(), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / max(1, min(len(a), len(b)))


def _licence_share(text: str) -> float:
    """Share of the words in paragraphs that carry licence wording."""
    total = licence = 0
    for paragraph in _PARAGRAPHS.split(text):
        words = len(paragraph.split())
        total += words
        if _LICENCE_LINE.search(paragraph):
            licence += words
    return licence / total if total else 0.0


_TERMS_WORD = re.compile(r"[^\W\d_]{2,}")
_HOLDER_NOISE = frozenset(
    "copyright all rights reserved and the by of from for its individual contributors authors other".split()
)


def licence_terms(text: str) -> tuple[int, frozenset[str], str]:
    """A licence text read as its terms (the words of every line but its holder lines, ``_HOLDER_LINE``, as one
    checksum: spacing, case and marks aside), its holders (the words of those lines, copyright's own words
    aside) and the terms' words themselves, joined by spaces: two files of one repository under the same terms
    whose holders are one's among the other's are the project's one licence (``one_licence``)."""
    terms: list[str] = []
    holders: set[str] = set()
    for line in text.split("\n"):
        words = [w.lower() for w in _TERMS_WORD.findall(line)]
        if _HOLDER_LINE.search(line):
            holders.update(w for w in words if w not in _HOLDER_NOISE)
        else:
            terms.extend(words)
    joined = " ".join(terms)
    return (zlib.crc32(joined.encode()) or 1) if terms else 0, frozenset(holders), joined


_LICENCE_FILE = re.compile(r"/(?:licen[cs]e|copying)(?:[-_.][\w-]+)*$", re.IGNORECASE)  # LICENSE, license.txt


def noted_terms(a: str, b: str) -> bool:
    """Whether one licence's terms (``licence_terms``' words) are the other's whole with a short note of the
    project's after them (a root licence that adds a paragraph on what the project depends on, the folder's copy
    the terms alone): the shorter's words open the longer's, ending at a word's edge, and hold
    ``LICENCE_NOTE_SHARE`` of its words at least. A heading or preamble before the terms is no note (a sample's
    licence without the root's "MIT License" title was labelled a page of its own), and a licence of other terms,
    or a file gathering several licences, holds more of its own. ``one_licence`` reads it only between two files
    named as licences (``_LICENCE_FILE``): a source file whose licence header is most of its words is none."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if not short or short == long or len(short) < LICENCE_NOTE_SHARE * len(long):
        return False
    return f"{long} ".startswith(f"{short} ")


def one_licence(infos: list[CopyInfo]) -> dict[int, int]:
    """copy id → the licence kept: a project's licence repeated in a folder of its repository (an exercise's, a
    bundled tool's: ``exercise/LICENSE-MIT`` beside the root's ``LICENSE.code``), the same terms at the same
    revision, its holders among the root file's or the other way (the same project's holders, one line naming
    more of them, or none named). Holder lines are all that tells two licences of one kind apart (``Signer.sign``
    compares such texts by them alone), and they differ here only in how many of the project's holders they
    name; a vendored library's licence names other holders and stays its own. A root licence may add a note of
    the project's own under the terms (what it depends on, under which other licence: ``noted_terms``); the
    folder's copy of the terms alone is still the project's licence. The one nearer the repository's root is
    kept (the file a reader of the project meets), and two at one depth are left to the other rules."""
    groups: dict[tuple[str, str], list[CopyInfo]] = {}
    for info in infos:
        if info.terms:
            groups.setdefault((neighbourhood(info.url), str(revision_of(info.url))), []).append(info)
    found: dict[int, int] = {}
    for members in groups.values():
        members.sort(key=lambda info: (url_path(info.url).count("/"), info.id))
        depth = {info.id: url_path(info.url).count("/") for info in members}
        # a note read only between two licence files: a source file with a licence header is no licence
        licence_file = {info.id: _LICENCE_FILE.search(url_path(info.url)) is not None for info in members}
        for copy in members[1:]:
            for kept in members:
                if depth[kept.id] >= depth[copy.id]:
                    break
                notes = licence_file[copy.id] and licence_file[kept.id]
                if (
                    (kept.terms == copy.terms or (notes and noted_terms(kept.term_words, copy.term_words)))
                    and (copy.holders <= kept.holders or kept.holders <= copy.holders)
                    and not held_apart(copy.url, kept.url)
                ):
                    found[copy.id] = kept.id
                    break
    return found


@dataclass(frozen=True)
class Copy:
    score: float  # containment in the copy preferred over it (0: none)
    duplicate_of: int | None
    jaccard: float
    signal: str  # "text" | "code" | a rule's own ("generated", "program", "renumbered", ...) | ""
    because: dict | None = None  # why that copy is the one to keep (``preference``), its figures first


NO_COPY = Copy(0.0, None, 0.0, "")


HELD_APART = (  # ``held_apart``'s readings, each (measured page, other page) -> bool
    series_pair,
    folder_variants,
    release_part,
    one_form,
    module_source,
    code_and_manual,
    exercise_and_solution,
    quoted_program,
    packaged_copyright,
    member_lists,
)


def measure(infos: list[CopyInfo]) -> dict[int, Copy]:
    """Each document's containment in a preferred near-copy (``Copy``), over candidates only: the two LSH
    indexes (text, code), the containment samples (``contained_in``), and the source copies the crawler named."""
    revisions = Counter(revision_of(info.url) for info in infos)
    infos = [
        replace(info, revision_pages=revisions[revision_of(info.url)]) if revision_of(info.url) else info
        for info in infos
    ]
    by_id = {info.id: info for info in infos}
    settings = dict(
        threshold=redundancy.CANDIDATE_JACCARD, num_perm=redundancy.NUM_PERM, weights=redundancy.LSH_WEIGHTS
    )
    text_lsh, code_lsh = MinHashLSH(**settings), MinHashLSH(**settings)
    for info in infos:
        if info.text is not None:
            text_lsh.insert(info.id, info.text.minhash, check_duplication=False)
        if info.code is not None:
            code_lsh.insert(info.id, info.code.minhash, check_duplication=False)
    contained = contained_in(infos)
    translations = translated(infos)
    states = revised(infos)
    forms = generated_forms(infos)
    series = renumbered(infos, text_lsh)
    instantiated = instances(infos)
    swaps = swapped(infos)
    substitutions = substituted(infos)
    listings: dict[str, list[list[str]]] = {}  # a folder's headers' include lists (``listed_first``), read lazily
    indexes: dict[str, list[list[str]]] = {}  # a folder's toctrees (``index_first``), read lazily
    written_for = language_forms(infos)
    programs = program_forms(infos)
    precisions = precision_forms(infos)
    families = precision_families(infos)
    solutions = solution_forms(infos)
    exercises = {
        i for i, pairs in solutions.items() for other, _ in pairs if solution_pair(by_id[other].url, by_id[i].url) > 0
    }
    licences = one_licence(infos)
    built_in_tree = tree_pages(infos)
    assembled = rendered_by_name(infos)
    moves = moved(infos, states)
    pasts = past_folders(infos)
    past_pairs = {(old, current) for old, pairs in pasts.items() for current, _, _ in pairs}
    for one, pairs in built_sources(infos).items():
        states.setdefault(one, []).extend(pairs)
    by_url = {info.url: info.id for info in infos}
    place = {info.id: neighbourhood(info.url) for info in infos}
    policy = {info.id for info in infos if _POLICY_FILE.search(info.url)}
    uploads = {info.id for info in infos if UPLOAD_RECORD.search(url_path(info.url))}

    def foreign_policy(a: int, b: int) -> bool:
        """A project's policy file (licence, contributing, conduct, security, notices, a Debian package's
        changelog) or a generator's fixed page (a graph legend, an index of pages) against another project's: the
        same template text is each project's own terms or frame, not a page read twice. Two Debian packages'
        upload records (``changelog.Debian``) are one record only when their texts are one
        (``UPLOAD_RECORD_JACCARD``): the binary packages built from one source each install that source's
        record, all but the line that names the package; two versions of a package (``llvm-14``, ``llvm-19``)
        record two histories, the older's uploads inside the newer's, and are two documents."""
        if a in uploads and b in uploads:
            one, other = by_id[a].text, by_id[b].text
            return one is None or other is None or one.minhash.jaccard(other.minhash) < UPLOAD_RECORD_JACCARD
        return (a in policy or b in policy) and place[a] != place[b]

    def stubs(a: CopyInfo, b: CopyInfo) -> bool:
        """Two short texts (``STUB_SHINGLES``: a redirect note, a page index, a licence pointer) that are not
        one page in one place: what little they write is the template's ("this page moved to …"), and a page
        this short is copied only as itself (its revisions and forms)."""
        assert a.text is not None and b.text is not None
        return min(a.text.size, b.text.size) < STUB_SHINGLES and (
            (page_name(a.url) != page_name(b.url) and not precision_twins(a.url, b.url)) or place[a.id] != place[b.id]
        )

    calls: dict[int, tuple[tuple[str, ...], ...]] = {}  # ``other_calls``' reading of a page, once
    result: dict[int, Copy] = {}
    for info in infos:
        best = twin = NO_COPY  # twin: the page this one was rendered into, beside it under its name
        for signal, lsh, own in (("text", text_lsh, info.text), ("code", code_lsh, info.code)):
            if own is None:
                continue
            for other_id in sorted(lsh.query(own.minhash)):
                if other_id == info.id or foreign_policy(info.id, other_id) or (other_id, info.id) in past_pairs:
                    continue  # itself, another project's policy, or its own past state (``past_folders``)
                other = by_id[other_id]
                if held_apart(info.url, other.url):
                    continue  # a series' pages are copies only when renumbered (``renumbered``), the others never
                if (info.templated or other.templated) and not _template_siblings(info.url, other.url):
                    continue  # a template's output, signed with the template's lines, meets its folder's pages only
                theirs = other.text if signal == "text" else other.code
                if theirs is None:
                    continue
                jaccard = own.minhash.jaccard(theirs.minhash)
                score = redundancy.containment(jaccard, own.size, theirs.size)
                if (signal == "code" and score < CODE_CONTAINMENT) or (
                    score <= best.score and (score < HIGH_REDUNDANCY or not rendered_twins(other, info))
                ):
                    continue
                if signal == "text" and (stubs(info, other) or two_pointers(info, other)):
                    continue
                better, because = preference(other, info)
                if because["rule"] == "id":  # neither newer, fuller nor rendered: the one the index lists first
                    listed = index_first(other, info, infos, indexes)
                    if listed:
                        names = [url_path(u).rpartition("/")[2] for u in (other.url, info.url)]
                        better, because = listed > 0, {"rule": "id", "from": "index order", "names": names}
                held = jaccard  # two pages (HTML, or Markdown) met by their code examples are siblings by their texts
                if signal == "code":
                    pages = (
                        info.kind == other.kind
                        and info.kind in ("html", "markdown")
                        and info.text is not None
                        and other.text is not None
                    )
                    held = info.text.minhash.jaccard(other.text.minhash) if pages else 1.0  # type: ignore[union-attr]
                if (
                    better
                    and held < sibling_cut(info.url, other.url)
                    and (
                        (
                            not _earlier_form(because)
                            and (siblings(info.url, other.url) or renamed_code(info.url, other.url))
                        )
                        or (cousins(info.url, other.url) and not _template_of(info, other))
                    )
                ):
                    # two pages of one template: one folder, two names; or one name in two sibling folders, where
                    # the folders, not a date or a copyright year, say which variant each is
                    continue
                if (
                    better
                    and not _earlier_form(because)
                    and siblings(info.url, other.url)
                    and other_calls(info, other, calls)
                ):
                    continue  # two reference pages of one folder whose synopses declare other calls
                if better and score > best.score:  # only a better copy to keep makes this one redundant
                    best = Copy(round(score, 4), other_id, round(jaccard, 4), signal, because)
                if better and score >= HIGH_REDUNDANCY and score > twin.score and rendered_twins(other, info):
                    twin = Copy(round(score, 4), other_id, round(jaccard, 4), signal, because)
        if twin.duplicate_of is not None:
            # a Markdown or text file and the HTML page of its name beside it: it repeats its own rendering first,
            # though a sibling page (an index by keyword beside one by name) shares a little more of its text
            best = twin
        for other_id, share in contained.get(info.id, ()):
            # a small text inside a much larger one: Jaccard is low, the sampled containment says it. Only an
            # earlier form of the larger one is a copy (the same file name, or the larger is the newer version,
            # date or rendered page): a page that quotes a whole example file, or a README that includes its
            # getting-started page, does not make them copies
            other = by_id[other_id]
            if foreign_policy(info.id, other_id) or held_apart(info.url, other.url):
                continue
            if (
                share > best.score
                and info.text is not None
                and other.text is not None
                and not stubs(info, other)
                and not two_pointers(info, other)
            ):
                better, because = preference(other, info)
                grown = (
                    because["rule"] in GROWN_RULES
                    and (_earlier_form(because) or not siblings(info.url, other.url))
                    and not (cousins(info.url, other.url) and not _template_of(info, other))
                    and not _quoted_source(info, other, because)
                ) or (
                    because["rule"] == "complete"
                    and (_whole_form(other, info) or _excerpt(info, other, share) or _joined(info, other))
                )
                if better and (grown or one_path_two_revisions(info.url, other.url)):
                    jaccard = info.text.minhash.jaccard(other.text.minhash)
                    best = Copy(round(share, 4), other_id, round(jaccard, 4), "contained", because)
        for other_id, share, jaccard in states.get(info.id, ()):
            # one file at two revisions or versions that still shares REVISION_CONTAINMENT of its text: the older
            # state of the document the newer one replaces, a copy however much was rewritten around what stayed
            # (counted at the cut when it keeps less than half); the newer state is the one to keep (preference)
            if info.text is None or share < REVISION_CONTAINMENT or foreign_policy(info.id, other_id):
                continue
            score = max(share, HIGH_REDUNDANCY)
            if score > best.score or (
                best.score >= HIGH_REDUNDANCY and best.duplicate_of != other_id and best.signal != "revision"
            ):
                # an older state repeats its own newer state first: another page it shares a little more with
                # (a sibling sample's README, a docs page at its commit) does not make it that page's copy
                better, because = preference(by_id[other_id], info)
                if better:
                    best = Copy(round(score, 4), other_id, jaccard, "revision", because)
        for other_id, share, jaccard in pasts.get(info.id, ()):
            # a file left in a past-marked folder beside the current file at its path (``past_folders``): its older
            # state, which the current one replaces whatever their sizes say (the folder's mark says which is past)
            score = max(share, HIGH_REDUNDANCY)
            if share >= REVISION_CONTAINMENT and score > best.score:
                paths = [url_path(by_id[other_id].url), url_path(info.url)]
                best = Copy(
                    round(score, 4),
                    other_id,
                    jaccard,
                    "revision",
                    {"rule": "version", "where": "url", "versions": paths},
                )
        if info.id in moves:
            # a page at a past commit whose path now holds little of it (a "moved" stub, a rewrite), and whose
            # text lives on under another path of the current tree: the same document, moved
            other_id, share, jaccard = moves[info.id]
            score = max(share, HIGH_REDUNDANCY)
            if score > best.score:
                better, because = preference(by_id[other_id], info)
                if better:
                    best = Copy(round(score, 4), other_id, jaccard, "moved", because)
        for other_id, share, jaccard in forms.get(info.id, ()):
            # a file and its preprocessed or expanded form, as their names say (``preference.generated_form``): one
            # text, the form holding its source's lines expanded; a copy from REVISION_CONTAINMENT either way
            score = max(share, HIGH_REDUNDANCY)
            if share >= REVISION_CONTAINMENT and score > best.score:
                better, because = preference(by_id[other_id], info)
                if better:
                    best = Copy(round(score, 4), other_id, jaccard, "generated", because)
        for other_id, share in sorted(written_for.get(info.id, ()), key=lambda f: (form_rank(by_id[f[0]].url), -f[1])):
            # one definition generated for several languages (``language_forms``): the C header is kept, and
            # between two other forms the preference decides
            if share > best.score:
                own_rank, form_of = form_rank(info.url), form_rank(by_id[other_id].url)
                better, because = preference(by_id[other_id], info)
                if form_of < own_rank:
                    better, because = True, {"rule": "generated", "from": "language form"}
                if better and form_of <= own_rank:
                    best = Copy(round(share, 4), other_id, 0.0, "generated", because)
        for other_id, jaccard in precisions.get(info.id, ()):
            # one file in two precisions (``precision_forms``): the same text once the precision words are masked
            if jaccard > best.score:
                better, because = preference(by_id[other_id], info)
                if better:
                    best = Copy(jaccard, other_id, jaccard, "text", because)
        for other_id, share, kept, _ in sorted(programs.get(info.id, ()), key=lambda f: (f[3], -f[1])):
            # one program in two languages (``program_forms``): the form its name does not mark is kept, else the
            # C one before C++ before Fortran. It outranks a near-copy in its own language (a program's Fortran
            # variant beside its Fortran form): the kept form is the one the others were written from, and is no
            # copy of them whatever another rule read (a Fortran file's comment rules read as reST markup). Not
            # over the same file elsewhere (``MIRROR_SHARE`` of it under its own name in another folder): the one
            # text twice is a copy before one program in two languages is
            if kept and best.score >= MIRROR_SHARE and _mirror(info, by_id[best.duplicate_of]):  # type: ignore[index]
                break
            if kept:
                names = [url_path(url).rpartition("/")[2] for url in (by_id[other_id].url, info.url)]
                because = {"rule": "program", "names": names}
                best = Copy(max(share, HIGH_REDUNDANCY, best.score), other_id, 0.0, "program", because)
                break
            if best.duplicate_of == other_id:
                best = NO_COPY
        for other_id, share in solutions.get(info.id, ()):
            # an exercise and its solution by their names (``solution_forms``): the solution is kept, the exercise
            # its copy however much of the text the answer is
            if solution_pair(by_id[other_id].url, info.url) > 0:
                names = [url_path(by_id[i].url).rpartition("/")[2] for i in (other_id, info.id)]
                best = Copy(
                    max(share, HIGH_REDUNDANCY, best.score), other_id, 0.0, "text", {"rule": "solution", "names": names}
                )
            elif best.duplicate_of == other_id:
                best = NO_COPY
        if info.id in series:
            # one of a numbered series that is the first's text renamed (``renumbered``): the first is kept
            other_id, share, jaccard = series[info.id]
            if share > best.score:
                best = Copy(round(share, 4), other_id, jaccard, "renumbered", {"rule": "series"})
        if info.id in instantiated:
            # one of the compilation units instantiated from one template, the same lines but for their constants
            # (``instances``): the fullest, else the first by name, is kept
            other_id, share = instantiated[info.id]
            if share > best.score:
                best = Copy(share, other_id, 0.0, "instance", {"rule": "instance"})
        for signal, other_id in itertools.chain(
            (("swapped", i) for i in swaps.get(info.id, ())),
            (("substituted", i) for i in substitutions.get(info.id, ())),
        ):
            # one page written from another of its folder with one name swapped throughout (``swapped``), or one
            # file with the case its name gives changed in every token that names it (``substituted``): one
            # text, the preference's choice kept
            if best.score < 1.0:
                better, because = preference(by_id[other_id], info)
                case = (
                    signal == "substituted" and because.get("rule") == "version" and because.get("where") != "release"
                )
                if case:
                    # the number the two names differ in is the case's (a class, a variant), no version: the
                    # file the others were written from is kept, read as the first by name (LABELS.md; as
                    # ``instances`` keeps)
                    names = [url_path(by_id[other_id].url), url_path(info.url)]
                    better, because = names[0] < names[1], {"rule": "id", "names": names}
                listed = listed_first(by_id[other_id], info, infos, listings) if signal == "substituted" else 0
                if listed:  # two headers of one template: the one the library's umbrella header includes first
                    names = [url_path(by_id[other_id].url), url_path(info.url)]
                    better, because = listed > 0, {"rule": "id", "from": "include order", "names": names}
                if signal == "substituted" and instantiated.get(other_id, (None,))[0] == info.id:
                    better = False  # the instance kept of a template (``instances``) is no copy of its own instance
                if better:
                    best = Copy(1.0, other_id, 0.0, signal, because)
                    break
                if case and best.duplicate_of == other_id and (best.because or {}).get("rule") == "version":
                    # the file the other was written from, which the text's reading took for the other's older
                    # version (``plot_v0.py`` beside ``plot_v1.py``): the number is the case's, and this one kept
                    best = NO_COPY
        if info.id in families:
            # one program written once per element type (``precision_families``): the member LABELS.md's precision
            # rule names is kept for every one of them, and is no copy of its own family
            kept_id, share = families[info.id]
            if kept_id not in (info.id, best.duplicate_of):  # (a pair the preference already kept so stays)
                names = [url_path(by_id[i].url).rpartition("/")[2] for i in (kept_id, info.id)]
                because = {"rule": "precision", "names": names}
                best = Copy(max(share, HIGH_REDUNDANCY), kept_id, 0.0, "instance", because)
            elif best.duplicate_of is not None and families.get(best.duplicate_of, (None,))[0] == info.id:
                best = NO_COPY
        if best.score < HIGH_REDUNDANCY and info.text is not None:
            # one path of one repository at two commits, however rewritten: the older state of one file, which
            # the newer replaces (``one_document``); counted at the cut, and only where nothing else holds it
            for other_id, _, jaccard in states.get(info.id, ()):
                better, because = preference(by_id[other_id], info)
                if better and one_document(info, by_id[other_id]):
                    best = Copy(HIGH_REDUNDANCY, other_id, jaccard, "history", because)
                    break
        if best.score < HIGH_REDUNDANCY and info.id in licences:
            # a project's licence repeated in a folder of its repository (``one_licence``): the root's is kept
            names = [url_path(by_id[i].url).rpartition("/")[2] for i in (licences[info.id], info.id)]
            best = Copy(
                1.0, licences[info.id], 0.0, "text", {"rule": "id", "from": "licence at the root", "names": names}
            )
        for other_id, share in translations.get(info.id, ()):
            # one page in two languages (the same name in one place, a language marked on one path): their words
            # differ, the names, identifiers and numbers both write alike do not
            if share > best.score and info.text is not None:
                better, because = preference(by_id[other_id], info)
                if better:
                    best = Copy(round(share, 4), other_id, 0.0, "translation", because)
        page = by_url.get(info.copy_of or rendered_page(info.url) or "")
        if page is None:  # a reST source in a source tree beside the built one (``tree_pages``)
            page = built_in_tree.get(info.id)
        page_text = by_id[page].text if page is not None and page != info.id else None
        if page is not None and page != info.id and (page_text is not None or info.text is None):
            # the crawler read this from Sphinx's _sources/ and named its rendered page: a candidate however
            # little the page's navigation leaves of the Jaccard. A source with no text or less than a stub's
            # of its own once its markup, directives and comments go (an include directive alone; a title and
            # an autodoc, include or doxygen directive; a toctree) holds nothing its page does not show: the
            # page renders it, and pulls in what its directives name. Nor does a longer one: Sphinx renders the
            # page from it, whatever its directives pull in (an autosummary's functions) or leave out (a licence
            # the page reads as a few holder lines), so it is the page's copy however little their shingles meet
            # (counted at the cut), and its own page's first: another package's byte-identical source names a
            # page of that package
            jaccard, score = 0.0, 1.0
            if info.text is not None and page_text is not None:
                jaccard = info.text.minhash.jaccard(page_text.minhash)
                score = redundancy.containment(jaccard, info.text.size, page_text.size)
                if info.text.size < STUB_SHINGLES:
                    score = 1.0
            best = Copy(round(max(score, HIGH_REDUNDANCY), 4), page, round(jaccard, 4), "source", {"rule": "rendered"})
        if best.score < HIGH_REDUNDANCY and info.includes and (info.text is None or info.text.size < STUB_SHINGLES):
            # a page that is only an include directive (a title over ``.. include:: ../LICENSE.txt``): its source
            # holds none of the text its rendered page shows, the file it names holds all of it (``included``)
            target = included(info, by_url)
            if target is None:  # several files, or one not in the corpus: the page it was rendered to
                target = assembled.get(info.id)
            if target is not None:
                best = Copy(1.0, target, 0.0, "included", {"rule": "complete"})
        if best.score < HIGH_REDUNDANCY and info.renders:
            # a page whose front matter names the page it renders in its place (``rendered_from``): that page is
            # the text, this one its rendering with a few parts of its own (substituted names, an example); read
            # so only where its own text is no larger than the page it names
            target = rendered_from(info, by_url)
            target_text = by_id[target].text if target is not None else None
            if target is not None and (
                info.text is None or (target_text is not None and info.text.size <= target_text.size)
            ):
                best = Copy(1.0, target, 0.0, "included", {"rule": "complete"})
        if (
            best.duplicate_of in exercises
            and best.signal in ("text", "code", "contained")
            and (best.because or {}).get("rule") in WEAK_RULES
            and exercise_paths(info.url)  # a solution, by its name
        ):
            # a step's solution inside the next step's exercise (the course starts each exercise from the last
            # solution and adds the blanks to fill): the exercise is its own solution's copy, the solution is kept
            best = NO_COPY
        result[info.id] = best
    for cycle in _cycles(result):
        # the preference's tolerances (a month, 5% of the text) can make three copies prefer each other in a
        # ring; the one that wins its ring by the strongest rules is the copy to keep, and repeats nothing
        wins = dict.fromkeys(cycle, 0)
        for a in cycle:
            for b in cycle:
                better, because = preference(by_id[a], by_id[b]) if a != b else (False, {})
                if better:
                    wins[a] += RULE_WEIGHT[because["rule"]]
        result[max(cycle, key=lambda d: (wins[d], -d))] = NO_COPY
    return kept_documents(result, by_id)


ONE_DOCUMENT_SIGNALS = ("source", "revision", "history", "moved")  # a page's own source or past state repeats it
# (as does its path at another commit of its repository, whatever signal found the two)
WEAK_RULES = (
    "complete",
    "id",
)  # the preference said only "larger" or "first stored": no reason one page replaces another


def kept_documents(result: dict[int, Copy], by_id: dict[int, CopyInfo]) -> dict[int, Copy]:
    """A copy group keeps one page. A page that is the copy to keep of its own source or past state (a Sphinx
    source or a text file rendered into it, the same path at an older commit, its file left in a past folder:
    ``ONE_DOCUMENT_SIGNALS`` or the preference's ``rendered``) is a document of its site in its own right, written
    and kept as one page; flagged in turn as a near-copy of another page (not its own other state) only because
    that page is larger or was stored first (``WEAK_RULES``), the two are pages that share much of their text (an
    index that repeats the readme, a keyword index beside the index, one configuration beside another's), and it
    is kept: its copies then point at a page the group keeps, not at a page flagged against a third."""
    rooted = {
        found.duplicate_of
        for doc, found in result.items()
        if found.duplicate_of is not None
        and found.score >= HIGH_REDUNDANCY
        and (
            found.signal in ONE_DOCUMENT_SIGNALS
            or (found.because or {}).get("rule") == "rendered"
            or (
                revision_of(by_id[doc].url) is not None
                and one_path_two_revisions(by_id[doc].url, by_id[found.duplicate_of].url)
            )
        )
    }
    for doc in rooted:
        found = result.get(doc)
        if (
            found is not None
            and found.duplicate_of is not None
            and found.score >= HIGH_REDUNDANCY
            and found.signal in ("text", "code")
            and (found.because or {}).get("rule") in WEAK_RULES
            and not one_path_two_revisions(by_id[doc].url, by_id[found.duplicate_of].url)
        ):
            result[doc] = NO_COPY
    return result


_MARKED_VERSION = re.compile(  # notes-v2, guide-1.2, edition-2, second-edition (``preference.EDITION``)
    r"(?:^|[-_. ])(?:v|version|rev|edition)[-_ ]?\d|\d+\.\d+|" + EDITION.pattern, re.IGNORECASE
)


def _earlier_form(because: dict) -> bool:
    """Whether the preference's reason says one page is an earlier form (or the translation) of the other
    (``SIBLING_RULES``). Between two files of one folder, a number in their names is a version only when the
    name marks it so (``notes-v2``, ``guide-1.2``, ``notes-old``: ``preference.PAST_MARK``): files numbered in a series (``ch01``/``ch02``,
    ``50_forward``/``51_backward``, Doxygen's ``a00197``/``a00198``) are siblings, not versions."""
    if because["rule"] == "version" and because.get("where") == "url":
        return any(_MARKED_VERSION.search(part) or PAST_MARK.search(part) for part in because.get("versions", ()))
    return because["rule"] in SIBLING_RULES


_PRINT_FORM = re.compile(  # a manual's one-document form: Sphinx's singlehtml, a print or single-page version
    r"/(?:singlehtml|print|onepage|single[-_]?page|all[-_]in[-_]one)(?:/|\.html?$)"
    r"|[-_.](?:print|onepage|singlepage|single[-_]page|all[-_]in[-_]one)\.html?$",
    re.IGNORECASE,
)


def _whole_form(whole: CopyInfo, part: CopyInfo) -> bool:
    """Whether ``whole`` is a manual's one-document form that holds ``part``, a page of the same place: a PDF
    beside HTML, Markdown or text pages (the printed manual: every chapter page lies inside it), or a
    single-page or print HTML (``singlehtml/``, ``print.html``) beside the multi-page one. The pages are its
    parts, not pages that quote one another, so the folder guard of ``contained_in``'s pairs does not hold them
    apart; the whole is kept (``preference``: the complete one), as it holds every page a reader of one would
    read. Two PDFs, or two pages of one form, are not this: a paper that quotes a page stays a page."""
    if _site(whole.url) != _site(part.url):
        return False
    if whole.kind == "pdf":
        return part.kind != "pdf"
    return (
        whole.kind == "html"
        and bool(_PRINT_FORM.search(url_path(whole.url)))
        and not _PRINT_FORM.search(url_path(part.url))
    )


EXCERPT_CONTAINMENT = 0.8  # a page this much inside a longer page of its place is an excerpt of it (``_excerpt``)


def _excerpt(part: CopyInfo, whole: CopyInfo, share: float) -> bool:
    """Whether ``part`` is an excerpt of ``whole``: a prose page of the same place (not one of its folder's
    siblings, which one template makes alike) that lies almost whole in a longer prose page
    (``EXCERPT_CONTAINMENT`` of its sampled shingles): a post merged into a tutorial, a chapter the longer
    guide took in. Not a source file quoted by a page (a page that shows a whole example is no copy of it), nor
    a page inside a project's overview (a README or index gathers its pages' openings, each still read in its
    place)."""
    name = _file_stem(whole.url)
    return (
        share >= EXCERPT_CONTAINMENT
        and neighbourhood(part.url) == neighbourhood(whole.url)
        and not siblings(part.url, whole.url)
        and part.kind in _AUTHORED
        and whole.kind in _AUTHORED
        and not any(_CODE_FILE.search(url_path(u)) for u in (part.url, whole.url))
        and name not in _GENERIC_NAME
    )


_JOIN = re.compile(r"[-_. ](?:and|with|plus)[-_. ]\w", re.IGNORECASE)


def _joined(part: CopyInfo, whole: CopyInfo) -> bool:
    """Whether ``whole`` is ``part`` joined with another text, as their names say: one folder, and the larger
    file's name is the smaller's and a joining word and more (``API_supported_by_HIP.md`` inside
    ``API_supported_by_HIP_and_ROC.md``, ``tiling.md`` inside ``tiling_with_pipelining.md``): a table or page
    merged with another one, kept whole, the part it took in its copy. Names that only share an opening
    (``runtime.html``, ``runtime_memory.html``: a section per page) join nothing."""
    folder_p, _, file_p = url_path(part.url).rpartition("/")
    folder_w, _, file_w = url_path(whole.url).rpartition("/")
    stem_p, stem_w = _NAME.sub("", file_p).lower(), _NAME.sub("", file_w).lower()
    return (
        folder_p == folder_w and bool(stem_p) and stem_w.startswith(stem_p) and bool(_JOIN.match(stem_w[len(stem_p) :]))
    )


def _site(url: str) -> str:
    """The place a manual's forms share: a Debian package or a repository (``neighbourhood``), else the host (a
    documentation site builds ``html/`` and ``singlehtml/`` side by side, two of ``neighbourhood``'s sections)."""
    if DEB_DOC.match(url) or revision_of(url) is not None:
        return neighbourhood(url)
    parts = _path_parts(url)
    return parts[0].lower() if parts else ""


def _quoted_source(small: CopyInfo, large: CopyInfo, because: dict) -> bool:
    """Whether a source copy (a notebook's cells, a Markdown source) lies inside a larger page that is not its
    rendering: the page a source renders to is HTML or bears the source's own name (``pipelining.ipynb`` →
    ``pipelining.md``); a README in another folder that repeats a notebook's code cells quotes the notebook,
    and the notebook stays a page of its own."""
    return (
        because["rule"] == "rendered"
        and small.source_copy
        and large.kind != "html"
        and page_name(small.url) != page_name(large.url)
    )


_CODE_FILE = re.compile(
    r"\.(?:cu|cuh|c|cc|cpp|cxx|h|hh|hpp|hxx|hip|cl|py|ipynb|f|f90|jl|rs|go|java|scala|js|ts|s|asm|sass|ptx)$",
    re.IGNORECASE,
)


def sibling_cut(a: str, b: str) -> float:
    """The Jaccard from which two ``siblings`` are copies: ``SIBLING_CODE_JACCARD`` for two source files or
    notebooks (a kernel per variant, a sample per case: the same includes, launch code, host setup and
    checks around a body of their own, so the scaffolding alone makes half their shingles), else
    ``SIBLING_JACCARD``. Over the ten training splits the code siblings from Jaccard 0.45 sat at 0.48-0.63 (the
    highest a kernel module example per case: the same includes, init and exit code and module macros around a
    handler of its own), none a labelled copy; test8's labelled copy among code siblings, an example's compiler
    variant, sits at 0.32 (a copy of a source file is its revision or its rendering). Two ``cousins`` (one name in
    two sibling folders) are held to ``SIBLING_CODE_JACCARD`` whatever they are: a README or a ``main`` per
    example folder bears the same name by convention, so the name says nothing of one text (the labelled cousin
    copies share 0.96-1.0; two example READMEs of one template 0.43-0.55)."""
    both_code = all(_CODE_FILE.search(url_path(url)) for url in (a, b))
    if both_code or cousins(a, b):
        return SIBLING_CODE_JACCARD
    return NESTED_JACCARD if nested_names(a, b) else SIBLING_JACCARD


_FILE_IN_NAME = re.compile(r"\d(?:h|hh|hpp|hxx|c|cc|cpp|cxx|cu|cuh|py|f90)", re.IGNORECASE)  # x_8hpp: x.hpp


def _name_words(url: str) -> list[str]:
    words = _NAME_SPLIT.split(page_name(url).rpartition("/")[2])
    return [w for w in words if w and not _FILE_IN_NAME.fullmatch(w)]


def nested_names(a: str, b: str) -> bool:
    """Whether the words of one page's name are some of the other's (``bitfield_8hpp.html``, the reference page
    of ``bitfield.hpp``, beside ``group__gtc__bitfield.html``, the group that documents what the file declares;
    ``functions_b.html`` beside ``functions_vars_b.html``): one subject, one page the other's part or summary
    (a file's declarations, a group's documentation of them). Not a name that only adds words at the other's
    end (``send`` and ``send_init``, ``sort`` and ``sort_keys``): another call of one family, two subjects of one
    template; nor two names that merely share a beginning (``mem``, ``memcpy``). The reading is the names' alone:
    two pages of nested names are held to ``NESTED_JACCARD`` whatever they are. A generator's mark of the file a
    page documents (``_8hpp`` for ``.hpp``) is no word of the name."""
    x, y = _name_words(a), _name_words(b)
    short, long = (x, y) if len(x) <= len(y) else (y, x)
    return bool(x and y) and (set(x) < set(y) or set(y) < set(x)) and long[: len(short)] != short


_NEWER_MARK = re.compile(r"(?:^|[-_. ])(?:new|newer|next|updated)(?:$|[-_. ])", re.IGNORECASE)  # kernels_new
_SERIES_STEP = re.compile(
    r"^([a-z][a-z_-]*?)[-_]?\d+(?=$|[-_.])", re.IGNORECASE
)  # cute_gemm_01, step2: a named series' step


def cousins(a: str, b: str) -> bool:
    """Whether two URLs are one file name in two folders of one place and revision, neither inside the other
    (``mpi/jacobi.cpp`` beside ``nccl/jacobi.cpp``, ``examples/shared_memory/main.hip`` beside
    ``examples/warp_shuffle/main.hip``, ``Applications/README.md`` beside ``Libraries/BLAS/README.md``). A
    project that writes one program a dozen ways, or a sample per case, gives each way a folder and the file the
    same name; the scaffolding the variants share makes them look alike, and the lines that differ are what each
    teaches. ``measure`` holds them to ``SIBLING_CODE_JACCARD`` (``sibling_cut``) with no exception for a newer
    date or version (variants written years apart carry their years in their text and copyright lines), and
    takes no contained text between them for a copy (a variant that grows another keeps its own way). Not
    cousins: a file at two revisions or in two packages (the revision or the place differs: ``revised``' pairs),
    two language folders (a translation), a folder and one inside it (a file lifted into a sub-project), folders
    a version, past or newer mark names (``notes_v1``, ``legacy``, ``kernels_new``: two states of one folder),
    or two steps of one named series (``cute_gemm_01``, ``cute_gemm_02_tma``: a tutorial's successive states of
    one program)."""
    pa, pb = url_path(a).split("/"), url_path(b).split("/")
    if pa[-1] != pb[-1] or revision_of(a) != revision_of(b):
        return False
    if neighbourhood(a) != neighbourhood(b) or language_of(a) != language_of(b):
        return False
    x, y = below_shared(pa, pb)  # the two folders below the one they share
    if not x or not y:  # one folder holds the other: a copy lifted into a sub-project, not a sibling variant
        return False
    if any(_MARKED_VERSION.search(part) or PAST_MARK.search(part) or _NEWER_MARK.search(part) for part in x + y):
        return False
    step_x, step_y = _SERIES_STEP.match(x[0]), _SERIES_STEP.match(y[0])
    return not (step_x and step_y and step_x.group(1).lower() == step_y.group(1).lower())


def renamed_code(a: str, b: str) -> bool:
    """Whether two URLs are two source files of one place under two names in two folders (``bench/timing.cu``
    beside ``gemm/gemm.cu``, ``examples/benchmark.py`` beside ``kernels/gemm.py``): two programs that share
    their scaffolding (includes, a launch and timing harness, the build notes in a header comment), held to
    ``SIBLING_CODE_JACCARD`` as two files of one folder are. A copy of a source file keeps its name (a mirror, a
    revision: ``cousins`` are held the same way) or sits beside the file it was renamed from (``siblings``)."""
    folder_a, _, name_a = url_path(a).rpartition("/")
    folder_b, _, name_b = url_path(b).rpartition("/")
    return (
        folder_a != folder_b
        and name_a != name_b
        and bool(_CODE_FILE.search(name_a) and _CODE_FILE.search(name_b))
        and neighbourhood(a) == neighbourhood(b)
        and revision_of(a) == revision_of(b)
    )


def _template_siblings(a: str, b: str) -> bool:
    """Whether a page signed with its template's lines (``CopyInfo.templated``) may meet the other: a page of its
    folder under another name, or its own forms and revisions. Two READMEs of two example folders, or a module
    index beside a page list, share a generator's frame and differ in what each lists: no copies."""
    return siblings(a, b) or page_name(a) == page_name(b)


def siblings(a: str, b: str) -> bool:
    """Whether two URLs are two pages of one folder (``chapters/getting_started_linux.md`` and
    ``chapters/getting_started_windows.md``, ``samples/50_forward.ipynb`` and ``samples/51_backward.ipynb``):
    the same path but the file name, and two ``page_name``s (not one page in two forms). Such pages are often
    made from one template (a sample per case, a chapter per platform, a reference page per function), and the
    template's text makes the smaller one look half contained in the larger; ``measure`` counts them copies
    only when they share ``SIBLING_JACCARD`` of their shingles, or a rule of ``SIBLING_RULES`` says one is an
    earlier form or the translation of the other. One routine's pages in two precisions (``precision_twins``:
    ``sgssv_8c.html``, ``dgssv_8c.html``) are one page, no siblings."""
    folder_a, _, file_a = url_path(a).rpartition("/")
    folder_b, _, file_b = url_path(b).rpartition("/")
    return folder_a == folder_b and file_a != file_b and page_name(a) != page_name(b) and not precision_twins(a, b)


def translated(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float]]]:
    """id → [(id of the same page in another language, the share that makes it one)]: pages of one place and one
    ``translation_name`` whose paths mark different languages (``language_of``; one may mark none), that share

    - ``TRANSLATION_WORDS`` and ``TRANSLATION_SHARE`` of their language-neutral words (``[a-z0-9_]{2,}``: the
      names, identifiers and code a Chinese page keeps in Latin letters), or
    - ``NAMED_ANCHOR_MIN`` and ``ANCHOR_SHARE`` of their distinct anchors (``anchors``: URLs, image names, inline
      code, numbers, identifiers), ``ANCHOR_ORDER`` of them in the same order: a German or French page writes
      every word in Latin letters, so only what translators leave alone tells it is the English page's
      translation; a prose page of a Chinese guide keeps too few Latin words (14) for the first test.

    The place and the name are the guard: no two pages are compared across languages unless a path marks one
    as the other's translation. Of the pages of one place without a dup label, 4.5% share 10 anchors and 0.6 of
    the smaller one's (a licence inside a README, a navigation bar): anchors alone would not do.

    A translation whose name differs from its original's (a translated tree that numbers its chapters
    otherwise, ``es/chapter1/8.mdx`` for ``en/chapter1/9.mdx``; a file name translated with its page) is looked
    for in the original's folder (``translation_folder``: one folder once the language segment goes): there the
    anchor test alone decides (its order condition is what a sibling page of the folder, sharing a few links and
    names, does not meet), and ``measure`` keeps the page that shares the most."""
    groups: dict[tuple[str, str], list[CopyInfo]] = {}
    for info in infos:
        if info.words is not None and len(info.words):
            groups.setdefault((neighbourhood(info.url), translation_name(info.url)), []).append(info)
    found: dict[int, list[tuple[int, float]]] = {}

    def pair(a: CopyInfo, b: CopyInfo, share: float) -> None:
        found.setdefault(a.id, []).append((b.id, round(share, 4)))
        found.setdefault(b.id, []).append((a.id, round(share, 4)))

    for members in groups.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if language_of(a.url) == language_of(b.url) or a.words is None or b.words is None:
                    continue
                shared = len(np.intersect1d(a.words, b.words, assume_unique=True))
                share = shared / min(len(a.words), len(b.words))
                if not (shared >= TRANSLATION_WORDS and share >= TRANSLATION_SHARE):
                    share = 0.0
                share = max(share, _anchor_share(a.anchors, b.anchors, NAMED_ANCHOR_MIN))  # the stronger test
                if share:
                    pair(a, b, share)
    folders: dict[tuple[str, str], list[CopyInfo]] = {}
    for info in infos:
        if info.anchors is not None and len(info.anchors):
            folders.setdefault((neighbourhood(info.url), translation_folder(info.url)), []).append(info)
    for members in folders.values():
        if len({_language(m) for m in members}) < 2:
            continue
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                languages = {_language(a), _language(b)}
                if len(languages) < 2 or translation_name(a.url) == translation_name(b.url):
                    continue  # one language (an unmarked page beside an en/ one is English too), or one name
                if "other" in languages and not (_written(a.url, a.kind) and _written(b.url, b.kind)):
                    continue  # a language read from the text: its original is a written page, not the code it quotes
                share = _anchor_share(a.anchors, b.anchors)
                if share:
                    pair(a, b, share)
    return found


def _written(url: str, kind: str) -> bool:
    """A file a person writes as a page (Markdown, reStructuredText, AsciiDoc or text), not a source file."""
    return kind in _AUTHORED and bool(_WRITTEN_FILE.search(url_path(url)))


def _language(info: CopyInfo) -> str:
    """The language a page is in: its path's mark, else "other" when its text is in another language than
    English (``foreign_text``), else "en" (an unmarked page beside an ``en/`` one is English too)."""
    return translation_language(info) or "en"


def _anchor_share(a: np.ndarray | None, b: np.ndarray | None, minimum: int = ANCHOR_MIN) -> float:
    """The share of the smaller one's distinct anchors the other holds, when it passes the anchor test
    (``translated``: ``minimum`` anchors shared); 0.0 when it does not."""
    if a is None or b is None or not len(a) or not len(b):
        return 0.0
    mine, theirs = np.unique(a), np.unique(b)
    shared = len(np.intersect1d(mine, theirs, assume_unique=True))
    share = shared / min(len(mine), len(theirs))
    if shared < minimum or share < ANCHOR_SHARE or _in_order(a, b) < ANCHOR_ORDER:
        return 0.0
    return share


def _cycles(found: dict[int, Copy]) -> list[list[int]]:
    """The rings of ``duplicate_of`` pointers (each document points at one copy at most)."""
    state: dict[int, int] = {}  # 1: on the current path, 2: done
    rings = []
    for start in found:
        path = []
        current: int | None = start
        while current is not None and current in found and state.get(current, 0) == 0:
            state[current] = 1
            path.append(current)
            current = found[current].duplicate_of
        if current is not None and state.get(current) == 1:
            rings.append(path[path.index(current) :])
        for doc in path:
            state[doc] = 2
    return rings


def contained_in(infos: list[CopyInfo]) -> dict[int, list[tuple[int, float]]]:
    """id → [(id of a document that holds most of it, sampled containment)], for pairs the Jaccard LSH misses.

    Each text keeps the shingle hashes below ``SAMPLE_BELOW`` (1 in ``2**SAMPLE_SHIFT``): a sample that is
    consistent across documents, so when A's shingles lie in B, A's sample lies in B's sample. Hashes shared
    by more than ``SAMPLE_POSTINGS`` documents (common phrases, templates) name no copy and are skipped; from
    the rest, a pair is a candidate when B holds at least ``SAMPLE_CONTAINMENT`` of A's sample, and at least
    ``SAMPLE_MIN`` hashes of it. Sorted arrays and counts, no pair of documents compared blindly: linear in the
    samples, plus the pairs inside each posting list (at most ``SAMPLE_POSTINGS``² each).
    """
    own = [(i, info.sample) for i, info in enumerate(infos) if info.sample is not None and len(info.sample)]
    if len(own) < 2:
        return {}
    hashes = np.concatenate([sample for _, sample in own])
    docs = np.concatenate([np.full(len(sample), i, dtype=np.int64) for i, sample in own])
    order = np.argsort(hashes, kind="stable")
    hashes, docs = hashes[order], docs[order]
    starts = np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]])
    sizes = np.diff(np.r_[starts, len(hashes)])
    firsts, seconds = [], []
    for size in np.unique(sizes[(sizes >= 2) & (sizes <= SAMPLE_POSTINGS)]):
        members = docs[starts[sizes == size][:, None] + np.arange(size)]  # (groups, size)
        left, right = np.nonzero(~np.eye(size, dtype=bool))
        firsts.append(members[:, left].ravel())
        seconds.append(members[:, right].ravel())
    if not firsts:
        return {}
    n = len(infos)
    pairs, shared = np.unique(np.concatenate(firsts) * n + np.concatenate(seconds), return_counts=True)
    first, second = pairs // n, pairs % n
    sampled = np.array([len(info.sample) if info.sample is not None else 0 for info in infos])
    share = shared / np.maximum(sampled[first], 1)
    keep = (shared >= SAMPLE_MIN) & (share >= SAMPLE_CONTAINMENT)
    found: dict[int, list[tuple[int, float]]] = {}
    for a, b, c in zip(first[keep].tolist(), second[keep].tolist(), share[keep].tolist(), strict=True):
        found.setdefault(infos[a].id, []).append((infos[b].id, round(c, 4)))
    return found
