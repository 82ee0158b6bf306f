"""What a document's form says about it: structure figures and cue phrases, read in one pass.

``read(title, text, headings, code_blocks, toks, cue_counts, head_counts, url)`` returns a ``Structure``: raw
counts from one walk over the text's lines and paragraphs (code, prose, lists, links, tables, shell lines,
signatures, reStructuredText markup, questions, version headings) and from cheap C-level regex scans
(numbers, measurements with units, dates, math), plus the counts of cue phrases per group (``CUES``), which
the caller counts with the same phrase pass that finds profile terms and taxonomy concepts.

``Structure.features()`` turns them into named, scale-free figures (densities per 1000 words, shares of
lines, log lengths), the inputs of the document-type classifier (``doctype``) and the value model
(``value_model``). Every name reads as what it measures, because ``shijie show`` prints them.

Nothing here looks at where we stored a file. The one place a name is read is the last segment of the URL,
as ``file_*`` cues (changelog, licence, readme, …): a crawler sees that name too (``/CHANGELOG.md``,
``/LICENSE``, ``copyright``), and its features are scaled down (``FILE_CUE_SCALE``) so the classifier
learns it as a weak prior that text cues must confirm, not as the answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

# Cue phrases per group, as a reader recognises the kind of a page; stemmed like the text (analysis).
CUES: dict[str, tuple[str, ...]] = {
    "explain": (
        "because",
        "since the",
        "so that",
        "therefore",
        "thus",
        "hence",
        "this means",
        "which means",
        "in order to",
        "the reason",
        "as a result",
        "for example",
        "for instance",
        "e g",
        "i e",
        "note that",
        "consider",
        "we can",
        "this is why",
        "instead of",
        "however",
        "whereas",
        "trade off",
        "tradeoff",
        "in other words",
        "intuitively",
        "the idea",
        "the key",
        "it follows",
        "which is why",
        "to avoid",
        "otherwise",
        "in contrast",
        "this allows",
        "this ensures",
        "the cost",
        "bottleneck",
    ),
    "licence": (
        "permission is hereby granted",
        "without warranty",
        "licensed under",
        "license",
        "licence",
        "copyright",
        "all rights reserved",
        "redistribution",
        "redistributions",
        "warranties",
        "merchantability",
        "liability",
        "licensor",
        "licensee",
        "subject to the following conditions",
        "the above copyright notice",
        "spdx license identifier",
        "gnu general public license",
        "apache license",
        "bsd",
        "mit license",
        "terms and conditions",
        "indemnify",
        "sublicense",
    ),
    "changelog": (
        "changelog",
        "change log",
        "release notes",
        "release note",
        "what s new",
        "whats new",
        "new features",
        "bug fixes",
        "bug fix",
        "breaking changes",
        "breaking change",
        "deprecated",
        "deprecation",
        "fixed",
        "added",
        "removed",
        "urgency",
        "closes",
        "upload",
        "released",
        "backport",
        "regression fix",
        "known issues",
        "changes since",
        "version bump",
        "new release",
    ),
    "install": (
        "pip install",
        "conda install",
        "apt get",
        "apt install",
        "yum install",
        "brew install",
        "cmake",
        "make install",
        "build from source",
        "building from source",
        "prerequisites",
        "requirements",
        "installation",
        "install",
        "installing",
        "docker",
        "git clone",
        "configure",
        "ld_library_path",
        "setup py",
        "wheel",
        "dependencies",
        "supported platforms",
        "build instructions",
        "toolchain",
        "environment variable",
        "package manager",
        "virtual environment",
    ),
    "contributing": (
        "pull request",
        "pull requests",
        "code of conduct",
        "contributor",
        "contributors",
        "contributing",
        "signed off by",
        "sign off",
        "developer certificate of origin",
        "code review",
        "coding style",
        "coding standards",
        "maintainer",
        "maintainers",
        "commit message",
        "issue tracker",
        "harassment",
        "governance",
        "we welcome",
        "open an issue",
        "file an issue",
        "reviewers",
        "cla",
        "community",
        "inclusive",
        "respectful",
        "enforcement",
        "reporting guidelines",
    ),
    "agent": (
        "claude",
        "claude code",
        "ai agent",
        "ai agents",
        "coding agent",
        "agents",
        "copilot",
        "cursor",
        "llm agent",
        "this file provides guidance",
        "you are",
        "assistant",
        "agents md",
        "claude md",
        "skill md",
        "when working with code in this repository",
        "prompt",
        "always read",
        "never commit",
    ),
    "marketing": (
        "announce",
        "announcing",
        "excited",
        "world s",
        "industry leading",
        "unprecedented",
        "breakthrough",
        "revolutionary",
        "state of the art",
        "join us",
        "register now",
        "learn more",
        "sign up",
        "contact us",
        "customers",
        "partners",
        "award",
        "leading",
        "trusted by",
        "get started today",
        "free trial",
        "advertisement",
        "sponsored",
        "affiliate",
        "newsletter",
        "deals",
        "supercharge",
        "will surprise you",
        "you won t believe",
        "game changer",
        "buyer s guide",
        "buy now",
        "limited time",
        "press release",
    ),
    "paper": (
        "abstract",
        "et al",
        "references",
        "in this paper",
        "we propose",
        "our method",
        "our approach",
        "related work",
        "conclusion",
        "evaluation",
        "arxiv",
        "proceedings",
        "preprint",
        "doi",
        "we present",
        "experiments",
        "baseline",
        "state of the art",
        "contributions",
        "appendix",
    ),
    "summary": (
        "the paper",
        "this paper",
        "the authors",
        "summary",
        "key idea",
        "key ideas",
        "tl dr",
        "takeaway",
        "takeaways",
        "main contribution",
        "paper notes",
        "notes on",
        "reading notes",
        "the main idea",
    ),
    "tutorial": (
        "in this tutorial",
        "tutorial",
        "step",
        "let s",
        "we will",
        "you will learn",
        "you will",
        "first",
        "next",
        "finally",
        "exercise",
        "run the following",
        "try",
        "example",
        "walkthrough",
        "hands on",
        "getting started",
        "now we",
        "here we",
        "puzzle",
    ),
    "api": (
        "parameters",
        "returns",
        "return type",
        "return value",
        "raises",
        "arguments",
        "argument",
        "template parameters",
        "member functions",
        "public member functions",
        "defined in header",
        "signature",
        "attributes",
        "methods",
        "class",
        "struct",
        "typedef",
        "enum",
        "overload",
        "see also",
        "deprecated since",
        "default value",
        "type",
        "param",
        "const",
        "void",
        "namespace",
        "synopsis",
    ),
    "qa": (
        "faq",
        "frequently asked questions",
        "question",
        "questions",
        "answer",
        "troubleshooting",
        "why does",
        "how do i",
        "how can i",
        "is it possible",
        "what is the difference",
        "can i",
        "common issues",
        "known problems",
        "workaround",
    ),
    "readme": (
        "readme",
        "getting started",
        "quick start",
        "quickstart",
        "installation",
        "usage",
        "features",
        "license",
        "citation",
        "cite",
        "news",
        "roadmap",
        "overview",
        "documentation",
        "support",
        "acknowledgements",
        "contributing",
        "badge",
        "star",
        "demo",
    ),
    "links": (
        "awesome",
        "list of",
        "curated",
        "resources",
        "papers",
        "links",
        "reading list",
        "bibliography",
        "publications",
        "blog posts",
        "videos",
        "talks",
        "slides",
        "github com",
        "http",
        "https",
        "www",
    ),
    "index": (
        "index",
        "table of contents",
        "contents",
        "module index",
        "genindex",
        "search page",
        "next",
        "previous",
        "navigation",
        "sitemap",
        "subpackages",
        "submodules",
        "file list",
        "here is a list of all",
        "modules",
        "all files",
    ),
    "blog": (
        "my",
        "i ve",
        "i m",
        "i think",
        "i was",
        "i wanted",
        "in this post",
        "this post",
        "blog",
        "posted",
        "we ll",
        "you ll",
        "thanks",
        "subscribe",
        "comments",
        "twitter",
    ),
    "measure": (
        "benchmark",
        "benchmarks",
        "speedup",
        "throughput",
        "latency",
        "bandwidth",
        "tflops",
        "gflops",
        "gb s",
        "tb s",
        "ms",
        "ns",
        "cycles",
        "utilization",
        "achieved",
        "measured",
        "profile",
        "profiler",
        "nsight",
        "ncu",
        "faster",
        "slower",
        "x faster",
        "roofline",
    ),
}

# a file name a crawler sees at the end of the URL, and the type it hints at
FILE_CUES: dict[str, re.Pattern] = {
    "changelog": re.compile(r"^(changelog|changes|news|history|release[-_ ]?notes?|whatsnew)\b", re.IGNORECASE),
    "licence": re.compile(r"^(licen[cs]e|copying|copyright|eula|notice|third[-_]party)", re.IGNORECASE),
    "install": re.compile(r"^(install|installation|building|build|setup|getting[-_]started)\b", re.IGNORECASE),
    "contributing": re.compile(r"^(contributing|code[-_]of[-_]conduct|governance|security|maintainers)", re.IGNORECASE),
    "readme": re.compile(r"^readme\b", re.IGNORECASE),
    "agent": re.compile(r"^(claude|agents?|copilot|skill)\b", re.IGNORECASE),
    "index": re.compile(r"^(index|genindex|py-modindex|search|contents|toc|sitemap|files|annotated)\b", re.IGNORECASE),
    "source": re.compile(r"\.(rst|md)\.txt$|^_sources$", re.IGNORECASE),
}
FILE_CUE_SCALE = 0.3  # a name is a weak prior: its features enter at 0.3 of a text feature's scale

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
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_MEASURE = re.compile(
    r"\d(?:[\d.,]*)\s?(?:x\b|×|%|[kmgtp]i?b/s|[kmgt]?flop/?s|[kmgt]?ops\b|tops\b|ms\b|us\b|µs|μs|ns\b|"
    r"cycles?\b|[kmg]hz\b|[kmgt]i?b\b|bytes?\b|b/clk|gb\b|tb\b|watts?\b|w\b|fps\b|tokens?/s)",
    re.IGNORECASE,
)
_YEAR_DATE = re.compile(r"\b((?:19|20)\d\d)[-/.](0?[1-9]|1[0-2])(?:[-/.](\d\d?))?\b")
_MONTH_DATE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b", re.I
)
_MONTHS = {
    m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)
}
_MATH = re.compile(
    r"\$[^$\n]{1,200}\$|\\(?:frac|sum|prod|sqrt|cdot|times|mathbf|mathrm|left|right|le|ge|exp)\b|[∑∏√∂∇≤≥≈×÷·αβγδεθλμσΣ]"
)
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")
_EXCLAIM = re.compile(r"!(?:\s|$)")
_BADGE = re.compile(r"\[!\[|shields\.io|badge", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_SOURCE_PATH = re.compile(r"/_sources/|\.(?:rst|md)\.txt$", re.IGNORECASE)


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
    numbers: int = 0
    measurements: int = 0
    dates: int = 0
    newest_date: float = 0.0  # the latest date written in the text, as year + (month - 1) / 12 (0: none)
    math: int = 0
    exclaims: int = 0
    badges: int = 0
    cjk: int = 0
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
            "numbers": per_k(self.numbers),
            "measurements": per_k(self.measurements),
            "dates": per_k(self.dates),
            "math": per_k(self.math),
            "exclaims": per_k(self.exclaims),
            "badges": math.log1p(self.badges),
            "cjk_share": self.cjk / max(self.chars, 1),
            "title_markup": float(self.title_markup),
            "source_copy": float(self.source_copy),
        }
        for group in CUES:
            out[f"cue_{group}"] = per_k(self.cues.get(group, 0))
            out[f"distinct_{group}"] = math.log1p(self.distinct_cues.get(group, 0))
            out[f"head_{group}"] = math.log1p(self.head_cues.get(group, 0))
        for name in FILE_CUES:
            out[f"file_{name}"] = FILE_CUE_SCALE * self.file_cues.get(name, 0)
        return out


def cue_phrases() -> list[str]:
    return [phrase for phrases in CUES.values() for phrase in phrases]


def group_counts(found: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """(occurrences, distinct phrases) per cue group, from a phrase counter's ``{phrase: count}``."""
    total: dict[str, int] = {}
    distinct: dict[str, int] = {}
    for group, phrases in CUES.items():
        hits = [found[p] for p in phrases if p in found]
        total[group] = sum(hits)
        distinct[group] = len(hits)
    return total, distinct


def file_name(url: str) -> str:
    try:
        path = unquote(urlsplit(url).path)
    except ValueError:
        return ""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name


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
    name = file_name(url)
    s.file_cues = {k: 1 for k, pattern in FILE_CUES.items() if pattern.search(name)}
    s.source_copy = bool(_SOURCE_PATH.search(url))
    stripped_title = (title or "").strip()
    s.title_markup = bool(stripped_title) and not any(ch.isalnum() for ch in stripped_title)

    in_fence = False
    paragraph: list[str] = []
    heads = len(headings)
    previous = ""
    fenced_blocks = 0

    def close_paragraph() -> None:
        if not paragraph:
            return
        body = " ".join(paragraph)
        n_words = len(body.split())
        s.paragraphs += 1
        ends = len(_SENTENCE_END.findall(body))
        if n_words >= 12 and ends >= 1:
            s.prose_paragraphs += 1
            s.prose_words += n_words
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
        if in_fence:
            s.code_lines += 1
            if _SHELL.match(line):
                s.shell_lines += 1
            continue
        if _UNDERLINE.match(line):
            if previous:  # an rst title underline, or a markdown setext heading
                heads += 1
                s.rst_lines += 1
            continue
        previous = line
        first = line[0]
        if first == "#" and line.lstrip("#").startswith(" "):
            close_paragraph()
            if _VERSION_HEAD.search(line):
                s.version_lines += 1
            continue  # a markdown heading: counted in ``headings`` by the extractor
        if line.endswith(_CODE_END) or line.startswith(_CODE_START):
            s.code_lines += 1
        if _SHELL.match(line):
            s.shell_lines += 1
        if _LIST.match(line):
            s.list_lines += 1
        if "](" in line or "http" in line or "www." in line:
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
    s.headings = heads
    if not code_blocks:
        s.code_blocks = fenced_blocks
    s.numbers = len(_NUMBER.findall(text))
    s.measurements = len(_MEASURE.findall(text))
    numeric, named = _YEAR_DATE.findall(text), _MONTH_DATE.findall(text)
    s.dates = len(numeric) + len(named)
    s.newest_date = max(
        [int(y) + (int(m) - 1) / 12 for y, m, _ in numeric]
        + [int(y) + (_MONTHS[m[:3].lower()] - 1) / 12 for m, y in named],
        default=0.0,
    )
    s.math = len(_MATH.findall(text))
    s.exclaims = len(_EXCLAIM.findall(text))
    s.badges = len(_BADGE.findall(text[:20000]))
    s.cjk = len(_CJK.findall(text))
    return s


_CJK = re.compile(r"[\u4e00-\u9fff]")
