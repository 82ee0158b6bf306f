"""What a document's form says about it: structure figures and cue phrases, read in one pass.

``read(title, text, headings, code_blocks, toks, cue_counts, head_counts, url)`` returns a ``Structure``: raw
counts from one walk over the text's lines and paragraphs (code, prose, lists, links, tables, shell lines,
signatures, reStructuredText markup, questions, version headings; named items, short sections and an index
opening followed by prose, which tell an index page from a guide that opens with one) and from cheap C-level
regex scans
(numbers, measurements with units, dates, math), plus the counts of cue phrases per group (``cues.CUES``),
which the caller counts with the same phrase pass that finds profile terms and taxonomy concepts.

``Structure.features()`` turns them into named, scale-free figures (densities per 1000 words, shares of
lines, log lengths), the inputs of the document-type classifier (``doctype``) and the value model
(``value_model``). Every name reads as what it measures, because ``shijie show`` prints them.

One figure is the value model's alone (``VALUE_ONLY``, left out of the type model): ``kernel_code``, the distinct
kernel names (``cues.KERNEL_NAMES``) × the share of code lines, since phase 6: a kernel's source that names its
tiles, shared memory and warps against glue that binds and checks arguments around a library call. A second since
phase 18: ``test_share``, the share of lines holding a test's check (an assertion, a gtest macro, pytest): a test
suite exercises a call without teaching it. A third since phase 22: ``code_prose_turns``, how often the text turns
between lines of code and lines of prose (log): code explained as it goes against code alone.

Nothing here looks at where we stored a file: the one name read is the last segment of the URL, as weak
``file_*`` cues (``cues.FILE_CUES``, scaled by ``FILE_CUE_SCALE``), and whether the URL is a source copy.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from .cues import CUES, FILE_CUE_SCALE, FILE_CUES, KERNEL_NAMES, cue_phrases, file_name, group_counts

__all__ = ["CUES", "FILE_CUES", "FILE_CUE_SCALE", "VALUE_ONLY", "Structure", "cue_phrases", "group_counts", "read"]


_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LIST = re.compile(r"^\s*(?:[-*+•◦▪]|\d{1,3}[.)])\s+\S")
_LINK = re.compile(r"\]\(|https?://|www\.", re.IGNORECASE)
_TABLE = re.compile(r"^\s*\||\S\s\|\s\S.*\|\s|^\s*\+[-=+]{3,}")
_SHELL = re.compile(
    r"^\s*(?:\$\s|>>>\s|pip3?\s|conda\s|sudo\s|apt(?:-get)?\s|cmake\s|make\b|git\s|export\s|\./|docker\s|"
    r"python3?\s+-m\s|nvcc\s|bash\s|source\s|cd\s|mkdir\s|wget\s|curl\s)"
)
_CODE_END = (";", "{", "}", "):", ");", "){", "*/")
_CODE_START = (
    "def ",
    "return ",
    "#include",
    "__global__",
    "@triton",
    "import ",
    "from ",
    "for (",
    "if (",
    "class ",
    "template",
    "struct ",
    "//",
    "#define",
    "auto ",
    "const ",
    "static ",
    "void ",
    "int ",
    "float ",
    "tl.",
)
_SIGNATURE = re.compile(
    r"^\s*(?:[\w:<>*&,\s\[\]]+\s+)?[\w.:~]+\s*\([^()]*\)\s*(?:const\s*)?(?:->\s*[\w.\[\], ]+)?[¶:]?\s*$"
)
_RST = re.compile(r"^\s*\.\. [\w:-]+::|:(?:ref|class|func|meth|doc|code|math|term|mod|attr|py:\w+):`")
_UNDERLINE = re.compile(r"^\s*([=\-~^*#+`'\"])\1{3,}\s*$")
_VERSION_HEAD = re.compile(
    r"^\s*(?:#+\s*|\*\s*)?\[?(?:v(?:ersion)?\s?)?\d+\.\d+(?:\.\d+)*\]?|\b(?:19|20)\d\d[-/.]\d\d[-/.]\d\d\b|"
    r"^\S+ \([^)]*\d[^)]*\) [\w-]+; urgency=",
    re.IGNORECASE,
)
# The whole-text scans below are written so that each opens on one character class: the regex engine then skips
# to the next character that can start a match in C (a pattern opening on ``\b``, a lookbehind, an IGNORECASE letter
# or an alternation of classes is tried at every position of the text instead). Each finds what its plain form
# finds, match for match (tests/test_vision_speed.py holds both forms and compares them):
#   _NUMBER       (?<![\w.])\d+(?:\.\d+)?(?![\w.]): the lookbehind moved past the first digit
#   _MEASURE      \d(?:[\d.,]*)\s?(?:unit): a unit never opens on a digit, "." or ",", so the run of them is taken
#                 whole (possessive ``*+``: giving any back cannot help), and a match never starts right after a
#                 digit (that digit's attempt, on the same run and the same unit, matched first)
#   _YEAR_DATE    \b((?:19|20)\d\d)...: ``\b`` before a digit is "no word character before", read after "19"/"20"
#   _MONTH_DATE   \b(jan|feb|...)[a-z]*... with IGNORECASE: the month's first letter as a class, then its other two
#                 letters by that first one, every letter with the forms IGNORECASE gives it (s: U+017F; [a-z]: U+0130, U+0131, U+017F, U+212A)
#   _MATH, _BADGE an alternation whose branches open on different characters: the opening character as a class,
#                 then each branch by the character it opened on
_NUMBER = re.compile(r"\d(?<![\w.]\d)\d*(?:\.\d+)?(?![\w.])")
_MEASURE = re.compile(
    r"\d(?<!\d\d)[\d.,]*+\s?(?:x\b|×|%|[kmgtp]i?b/s|[kmgt]?flop/?s|[kmgt]?ops\b|tops\b|ms\b|us\b|µs|μs|ns\b|"
    r"cycles?\b|[kmg]hz\b|[kmgt]i?b\b|bytes?\b|b/clk|gb\b|tb\b|watts?\b|w\b|fps\b|tokens?/s)",
    re.IGNORECASE,
)
_YEAR_DATE = re.compile(r"((?:19|20)(?<!\w..)\d\d)[-/.](0?[1-9]|1[0-2])(?:[-/.](\d\d?))?\b")
_MONTH_DATE = re.compile(
    r"([JjFfMmAaSs\u017fOoNnDd](?<!\w.)(?:(?<=[Jj])(?:[Aa][Nn]|[Uu][Nn]|[Uu][Ll])|(?<=[Ff])[Ee][Bb]|(?<=[Mm])[Aa][RrYy]|"
    r"(?<=[Aa])(?:[Pp][Rr]|[Uu][Gg])|(?<=[Ss\u017f])[Ee][Pp]|(?<=[Oo])[Cc][Tt]|(?<=[Nn])[Oo][Vv]|(?<=[Dd])[Ee][Cc]))"
    r"[a-zA-Z\u0130\u0131\u017f\u212a]*\.?\s+(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b"
)
_MONTHS = {
    m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)
}
_MATH_SIGNS = "∑∏√∂∇≤≥≈×÷·αβγδεθλμσΣ"
_MATH = re.compile(
    rf"[$\\{_MATH_SIGNS}](?:(?<=\$)[^$\n]{{1,200}}\$|"
    r"(?<=\\)(?:frac|sum|prod|sqrt|cdot|times|mathbf|mathrm|left|right|le|ge|exp)\b|"
    rf"(?<=[{_MATH_SIGNS}]))"
)
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")
_EXCLAIM = re.compile(r"!(?:\s|$)")
_BADGE = re.compile(
    r"[\[Ss\u017fBb](?:(?<=\[)!\[|(?<=[Ss\u017f])[Hh][Ii\u0130\u0131][Ee][Ll][Dd][Ss\u017f]\.[Ii\u0130\u0131][Oo]|(?<=[Bb])[Aa][Dd][Gg][Ee])"
)
_SOURCE_PATH = re.compile(r"/_sources/|\.(?:rst|md)\.txt$", re.IGNORECASE)
# a named item: a list entry or a heading that opens with a name (a link, bold or code text, or a few words
# before a colon or a dash) — "- [flash](./flash): fused attention", "### [reduction](./reduction)", "**foo** — …"
_NAMED_ITEM = re.compile(
    r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+|#{1,6}\s+)?(?:\[[^\]]{1,80}\]\([^)]*\)|\*\*[^*]{1,60}\*\*|`[^`]{1,60}`|"
    r"[\w.+-]+(?:\s[\w.+-]+){0,3}\s*(?::|\s[-–—]\s))"
)
# a test's checks: the assertions of a test suite (assert and its library forms, gtest's EXPECT_/ASSERT_ macros and
# TEST cases, pytest, unittest, the array libraries' testing modules). A page of them exercises an API without
# explaining it: the value reads the share of lines holding one (``test_share``), since phase 18
_TEST_CHECK = re.compile(
    r"\bassert\w*|\b(?:EXPECT|ASSERT)_[A-Z_]+|@pytest\b|\bpytest\b|\bTEST(?:_F|_P)?\s*\(|"
    r"\b(?:np|numpy|torch)\.testing\b|\bunittest\b"
)
# device code: a line that opens a kernel or a device function (CUDA and HIP ``__global__``/``__device__``, OpenCL
# ``__kernel``, CUDA Fortran ``attributes(global)``, a Triton or Numba ``@jit``) or an offload region (OpenACC, OpenMP
# ``target``). The lines of what it opens are the device code a page teaches with; the host code around it (its
# allocation, copies, argument parsing and printing) is not. Read by ``device_lines``, for ``device_code``
_DEVICE_OPEN = re.compile(
    r"[_aA@#!](?:(?<=_)_(?:global|device|kernel)__\b|(?<=[aA])(?i:ttributes)\s*\(\s*(?i:global|device)\s*\)|"
    r"(?<=@)(?:triton|cuda|numba\.cuda)\.jit\b|(?<=#)\s*pragma\s+(?:acc|omp\s+target)\b|(?<=!)\$(?i:acc)\b)"
)
_DEVICE_HINTS = ("__global__", "__device__", "__kernel", "ttributes", "TTRIBUTES", ".jit", "pragma", "$acc", "$ACC")
_FORTRAN_END = re.compile(r"[eE](?i:nd)\s*(?i:subroutine|function|do)\b|!\$(?i:acc)\s+(?i:end)\b")


def device_lines(text: str) -> int:
    """How many of the text's non-empty lines are device code: each line that opens a kernel, a device function or an
    offload region (``_DEVICE_OPEN``, on a line that is not a sentence or a comment), and the lines of its body: to
    the brace that closes it (C, C++, CUDA, OpenCL; a directive's loop without braces, to its first statement's
    end), to its ``end subroutine``, ``end do`` or ``!$acc end`` (Fortran), or while indented under it (Python). A
    ``__device__`` variable ends at its semicolon."""
    if not any(hint in text for hint in _DEVICE_HINTS):
        return 0
    starts = [found.start() for found in _DEVICE_OPEN.finditer(text)]
    if not starts:
        return 0
    # the lines an opener is on (a line is searched again only there; the others are read only inside a region)
    openers, line_no, last = set(), 0, 0
    for at in starts:
        line_no += text.count("\n", last, at)
        last = at
        openers.add(line_no)
    count = 0
    mode = ""  # "c": braces, "f": Fortran, "py": indentation
    depth = 0
    opened = False
    indent = 0
    for number, raw in enumerate(text.split("\n")):
        if not mode and number not in openers:
            continue
        line = raw.strip()
        if not line:
            continue
        if mode == "py":  # the decorated function's header (to its colon), then its indented body
            if opened or len(raw) - len(raw.lstrip()) > indent:
                count += 1
                opened = opened and not line.endswith(":")
                continue
            mode = ""
        elif mode == "f":
            count += 1
            if _FORTRAN_END.match(line):
                mode = ""
            continue
        elif mode == "c":
            count += 1
            depth += line.count("{") - line.count("}")
            opened = opened or "{" in line
            if (opened and depth <= 0) or (not opened and line.endswith(";")):
                mode = ""
            continue
        found = _DEVICE_OPEN.search(line)
        prose = len(line.split()) >= PROSE_LINE_WORDS and _SENTENCE_END.search(line + " ")
        if not found or prose or line.startswith(("//", "/*", "* ")) or _FORTRAN_END.match(line):
            continue  # a name in a sentence or a comment opens nothing; nor does an offload region's end
        count += 1
        opener = found.group(0)
        if opener.startswith("@"):
            mode, indent, opened = "py", len(raw) - len(raw.lstrip()), True
        elif opener[0] in "aA!" or line.startswith("!"):
            mode = "f"
        else:
            depth = line.count("{") - line.count("}")
            opened = "{" in line
            if not (opened and depth <= 0) and not line.endswith(";"):
                mode = "c"
    return count


# figures only the value model reads: the document-type model is fitted without them (training.fit_word_models)
VALUE_ONLY = frozenset({"kernel_code", "test_share", "code_prose_turns", "device_code"})
# a line of prose for ``code_prose_turns``: this many words or more, with a sentence end (code lines are read as
# ``code_lines`` reads them)
PROSE_LINE_WORDS = 8
SHORT_SECTION = 40  # a section body under this many words is an entry of an index, not a part of a guide
HEAD_PART = 0.4  # the first 40% of the lines are "the opening" for index_then_prose
_CJK = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"\d")


@dataclass
class Structure:
    words: int = 0
    chars: int = 0
    lines: int = 0
    paragraphs: int = 0
    prose_paragraphs: int = 0
    prose_words: int = 0
    sentences: int = 0
    code_lines: int = 0
    code_blocks: int = 0
    headings: int = 0
    list_lines: int = 0
    link_lines: int = 0
    table_lines: int = 0
    shell_lines: int = 0
    signature_lines: int = 0
    rst_lines: int = 0
    question_lines: int = 0
    version_lines: int = 0
    label_words: int = 0  # words in short paragraphs without a sentence end: menus, lists of names
    named_items: int = 0  # lines opening with a name then a blurb or nothing: entries of an index
    sections: int = 0  # sections (text between headings) holding any words
    short_sections: int = 0  # of them, those under SHORT_SECTION words: entries, not chapters
    head_index: float = 0.0  # share of the opening lines (HEAD_PART) that are list, link or label lines
    tail_prose: float = 0.0  # share of the words after the opening that are prose
    numbers: int = 0
    measurements: int = 0
    dates: int = 0
    newest_date: float = 0.0  # the latest date written in the text, as year + (month - 1) / 12 (0: none)
    math: int = 0
    exclaims: int = 0
    badges: int = 0
    cjk: int = 0
    test_lines: int = 0  # lines holding a test's check (``_TEST_CHECK``): assertions, gtest macros, pytest
    code_prose_turns: int = 0  # turns between a run of code lines and a run of prose lines (``PROSE_LINE_WORDS``)
    kernel_names: int = 0  # distinct kernel names (cues.KERNEL_NAMES: tiles, shared memory, warps, tl.dot, …)
    device_lines: int = 0  # lines of kernels, device functions and offload regions (``device_lines``)
    title_markup: bool = False  # the title is markup ("========"), as in a Sphinx source copy
    source_copy: bool = False  # a Sphinx/markdown source copy (_sources/, .rst.txt): a crawler sees the URL
    cues: dict[str, int] = field(default_factory=dict)  # cue phrase occurrences per group
    distinct_cues: dict[str, int] = field(default_factory=dict)  # distinct cue phrases per group
    head_cues: dict[str, int] = field(default_factory=dict)  # cue phrases in the title and headings
    file_cues: dict[str, int] = field(default_factory=dict)  # the URL's file name, weak

    def features(self) -> dict[str, float]:
        """Scale-free figures: densities per 1000 words (log), shares of lines, log lengths."""
        words = max(self.words, 1)
        lines = max(self.lines, 1)

        def per_k(count: float) -> float:  # log density per 1000 words; short texts do not explode
            return math.log1p(1000 * count / max(words, 150))

        out = {
            "log_words": math.log1p(words / 100),
            "long_text": min(1.0, words / 3000),
            "short_text": 1.0 if words < 150 else 0.0,
            "prose_share": self.prose_words / words,
            "sentence_length": min(60.0, self.prose_words / max(self.sentences, 1)) / 60,
            "code_share": self.code_lines / lines,
            "code_blocks": math.log1p(self.code_blocks),
            "headings": per_k(self.headings),
            "list_share": self.list_lines / lines,
            "link_share": self.link_lines / lines,
            "table_share": self.table_lines / lines,
            "shell_share": self.shell_lines / lines,
            "signature_share": self.signature_lines / lines,
            "rst_share": self.rst_lines / lines,
            "question_share": self.question_lines / lines,
            "version_lines": per_k(self.version_lines),
            "label_share": self.label_words / words,
            "named_item_share": self.named_items / lines,
            "short_section_share": self.short_sections / self.sections if self.sections >= 4 else 0.0,
            "index_then_prose": self.head_index * self.tail_prose,
            "numbers": per_k(self.numbers),
            "measurements": per_k(self.measurements),
            "dates": per_k(self.dates),
            "math": per_k(self.math),
            "exclaims": per_k(self.exclaims),
            "badges": math.log1p(self.badges),
            "cjk_share": self.cjk / max(self.chars, 1),
            "title_markup": float(self.title_markup),
            "source_copy": float(self.source_copy),
            # value only: code is worth what it teaches. The subject a kernel's code names (distinct kernel
            # names, log) where the page is code: a kernel with its tiles and warps, not glue around a library
            "kernel_code": math.log1p(self.kernel_names) * self.code_lines / lines,
            # value only: the share of lines that check a result, a test suite's mark: code that exercises a call
            # without teaching it (a test of a kernel call against a tutorial of it)
            "test_share": self.test_lines / lines,
            # value only: code explained as it goes, the turns between code and prose (log): a lesson that shows a
            # step and says what it does turns often; a source file, or a page of code with a paragraph on top, seldom
            "code_prose_turns": math.log1p(self.code_prose_turns),
            # value only: the share of the lines that run on the device (kernels, device functions, offload
            # regions): a sample that teaches a kernel against the host program that only allocates and prints
            "device_code": min(1.0, self.device_lines / lines),
        }
        for group in CUES:
            out[f"cue_{group}"] = per_k(self.cues.get(group, 0))
            out[f"distinct_{group}"] = math.log1p(self.distinct_cues.get(group, 0))
            out[f"head_{group}"] = math.log1p(self.head_cues.get(group, 0))
        for name in FILE_CUES:
            out[f"file_{name}"] = FILE_CUE_SCALE * self.file_cues.get(name, 0)
        return out


def read(
    title: str,
    text: str,
    headings: list,
    code_blocks: list,
    n_tokens: int,
    found: dict[str, int],
    head_found: dict[str, int],
    url: str = "",
) -> Structure:
    """The structure of one document; ``found``/``head_found``: cue phrase counts in the text / title+headings."""
    s = Structure(words=n_tokens, chars=len(text), code_blocks=len(code_blocks))
    s.cues, s.distinct_cues = group_counts(found)
    s.head_cues, _ = group_counts(head_found)
    s.kernel_names = sum(1 for name in KERNEL_NAMES if name in found)
    s.device_lines = device_lines(text)
    name = file_name(url)
    s.file_cues = {k: 1 for k, pattern in FILE_CUES.items() if pattern.search(name)}
    s.source_copy = bool(_SOURCE_PATH.search(url))
    stripped_title = (title or "").strip()
    s.title_markup = bool(stripped_title) and not any(ch.isalnum() for ch in stripped_title)

    in_fence = False
    paragraph: list[str] = []
    heads = len(headings)
    heading_lines = {h.strip() for h in headings if h and len(h) < 200}  # HTML headings are plain lines
    previous = ""
    fenced_blocks = 0
    last_kind = ""  # "code" or "prose": the last such line, for code_prose_turns
    section_words = 0
    index_lines: list[int] = []  # line numbers of list, link and label lines (the opening's index part)
    prose_at: list[tuple[int, int]] = []  # (line number, words) of each prose paragraph

    def close_section() -> None:
        nonlocal section_words
        if section_words:
            s.sections += 1
            s.short_sections += section_words < SHORT_SECTION
        section_words = 0

    def close_paragraph() -> None:
        nonlocal section_words
        if not paragraph:
            return
        body = " ".join(paragraph)
        n_words = len(body.split())
        section_words += n_words
        s.paragraphs += 1
        ends = len(_SENTENCE_END.findall(body))
        if n_words >= 12 and ends >= 1:
            s.prose_paragraphs += 1
            s.prose_words += n_words
            prose_at.append((s.lines, n_words))
            s.sentences += ends
        elif n_words < 12 and not ends and not any(c in body for c in "=(){};"):
            s.label_words += n_words
        paragraph.clear()

    for raw in text.split("\n"):
        line = raw.strip()
        if _FENCE.match(raw):
            close_paragraph()
            in_fence = not in_fence
            fenced_blocks += in_fence
            continue
        if not line:
            close_paragraph()
            previous = ""
            continue
        s.lines += 1
        coded = line.endswith(_CODE_END) or line.startswith(_CODE_START)  # a code line outside a fence, by its ends
        if in_fence or coded:
            kind = "code"
        elif len(line.split()) >= PROSE_LINE_WORDS and _SENTENCE_END.search(line + " "):
            kind = "prose"
        else:
            kind = ""
        if kind and kind != last_kind:
            s.code_prose_turns += bool(last_kind)
            last_kind = kind
        if (
            "ssert" in line or "SSERT" in line or "EXPECT_" in line or "TEST" in line or "test" in line
        ) and _TEST_CHECK.search(line):
            s.test_lines += 1
        if in_fence:
            s.code_lines += 1
            if _SHELL.match(line):
                s.shell_lines += 1
            continue
        if _UNDERLINE.match(line):
            if previous:  # an rst title underline, or a markdown setext heading
                heads += 1
                s.rst_lines += 1
                close_paragraph()
                close_section()
            continue
        previous = line
        first = line[0]
        if first == "#" and line.lstrip("#").startswith(" "):
            close_paragraph()
            close_section()
            if _VERSION_HEAD.search(line):
                s.version_lines += 1
            if _NAMED_ITEM.match(line):
                s.named_items += 1
            continue  # a markdown heading: counted in ``headings`` by the extractor
        if line in heading_lines:
            close_paragraph()
            close_section()
        listed = _LIST.match(line)
        linked = "](" in line or "http" in line or "www." in line
        if listed or linked or (len(line) < 40 and not _SENTENCE_END.search(line + " ")):
            index_lines.append(s.lines)
        if (listed or linked) and len(line) < 300 and _NAMED_ITEM.match(line):
            s.named_items += 1
        if coded:
            s.code_lines += 1
        if _SHELL.match(line):
            s.shell_lines += 1
        if listed:
            s.list_lines += 1
        if linked:
            s.link_lines += 1
        if (first == "|" or first == "+" or " | " in line) and _TABLE.search(line):
            s.table_lines += 1
        if (first == "." or ":`" in line) and _RST.search(line):
            s.rst_lines += 1
        if line.endswith("?"):
            s.question_lines += 1
        maybe_version = line[:1].isdigit() or first in "[v*V" or "urgency=" in line or "20" in line[:40]
        if maybe_version and _VERSION_HEAD.search(line[:80]):
            s.version_lines += 1
        if "(" in line and len(line) < 200 and _SIGNATURE.match(line):
            s.signature_lines += 1
        paragraph.append(line)
    close_paragraph()
    close_section()
    opening = max(1, int(HEAD_PART * s.lines))
    s.head_index = sum(n <= opening for n in index_lines) / opening if s.lines >= 10 else 0.0
    s.tail_prose = min(1.0, sum(w for n, w in prose_at if n > opening) / max(s.words, 1))
    s.headings = heads
    if not code_blocks:
        s.code_blocks = fenced_blocks
    ascii = text.isascii()
    # numbers, measurements and dates all hold a digit: a text without one has none of them (an ASCII text's digits
    # are 0-9, each found by a plain substring search; ``\d`` knows the other scripts' digits too)
    if any(d in text for d in "0123456789") if ascii else _DIGIT.search(text):
        s.numbers = len(_NUMBER.findall(text))
        s.measurements = len(_MEASURE.findall(text))
        numeric, named = _YEAR_DATE.findall(text), _MONTH_DATE.findall(text)
        s.dates = len(numeric) + len(named)
        s.newest_date = max(
            [int(y) + (int(m) - 1) / 12 for y, m, _ in numeric]
            # casefold: IGNORECASE reads a long s as an s ("ſep 2019"), and so must the month's lookup
            + [int(y) + (_MONTHS[m[:3].casefold()] - 1) / 12 for m, y in named],
            default=0.0,
        )
    if not ascii or "$" in text or "\\" in text:  # math opens on "$", a backslash or a sign outside ASCII
        s.math = len(_MATH.findall(text))
    s.exclaims = len(_EXCLAIM.findall(text))
    s.badges = len(_BADGE.findall(text[:20000]))
    s.cjk = 0 if ascii else len(_CJK.findall(text))
    return s
