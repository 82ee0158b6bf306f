"""The cue phrases a reader recognises the kind of a page by, and the file names a crawler sees.

``CUES``: phrases per group (explain, licence, changelog, install, …), stemmed like the text
(``analysis``). The scorer counts them with the same phrase pass that finds profile terms and taxonomy
concepts (``reading``); ``group_counts`` turns those counts into occurrences and distinct phrases per group,
which ``signals.Structure`` holds and turns into features (``cue_*``, ``distinct_*``, ``head_*``).

``FILE_CUES``: the one place a name is read. Nothing in the Vision looks at where we stored a file; the last
segment of the URL is what a crawler sees too (``/CHANGELOG.md``, ``/LICENSE``, ``copyright``), so it gives
``file_*`` cues (changelog, licence, readme, …), and their features are scaled down (``FILE_CUE_SCALE``) so
the classifier learns a name as a weak prior that text cues must confirm, not as the answer.

The phrase table is laid out by hand, several phrases a line, so that a group reads at a glance (the formatter
would put one phrase on each of 450 lines).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

# Cue phrases per group, as a reader recognises the kind of a page; stemmed like the text (analysis).
# fmt: off
CUES: dict[str, tuple[str, ...]] = {
    "explain": (
        "because", "since the", "so that", "therefore", "thus", "hence", "this means", "which means", "in order to",
        "the reason", "as a result", "for example", "for instance", "e g", "i e", "note that", "consider", "we can",
        "this is why", "instead of", "however", "whereas", "trade off", "tradeoff", "in other words", "intuitively",
        "the idea", "the key", "it follows", "which is why", "to avoid", "otherwise", "in contrast", "this allows",
        "this ensures", "the cost", "bottleneck",
    ),
    "licence": (
        "permission is hereby granted", "without warranty", "licensed under", "license", "licence", "copyright",
        "all rights reserved", "redistribution", "redistributions", "warranties", "merchantability", "liability",
        "licensor", "licensee", "subject to the following conditions", "the above copyright notice",
        "spdx license identifier", "gnu general public license", "apache license", "bsd", "mit license",
        "terms and conditions", "indemnify", "sublicense",
    ),
    "changelog": (
        "changelog", "change log", "release notes", "release note", "what s new", "whats new", "new features",
        "bug fixes", "bug fix", "breaking changes", "breaking change", "deprecated", "deprecation", "fixed", "added",
        "removed", "urgency", "closes", "upload", "released", "backport", "regression fix", "known issues",
        "changes since", "version bump", "new release",
    ),
    "install": (
        "pip install", "conda install", "apt get", "apt install", "yum install", "brew install", "cmake",
        "make install", "build from source", "building from source", "prerequisites", "requirements", "installation",
        "install", "installing", "docker", "git clone", "configure", "ld_library_path", "setup py", "wheel",
        "dependencies", "supported platforms", "build instructions", "toolchain", "environment variable",
        "package manager", "virtual environment",
    ),
    "contributing": (
        "pull request", "pull requests", "code of conduct", "contributor", "contributors", "contributing",
        "signed off by", "sign off", "developer certificate of origin", "code review", "coding style",
        "coding standards", "maintainer", "maintainers", "commit message", "issue tracker", "harassment", "governance",
        "we welcome", "open an issue", "file an issue", "reviewers", "cla", "community", "inclusive", "respectful",
        "enforcement", "reporting guidelines",
    ),
    "agent": (
        "claude", "claude code", "ai agent", "ai agents", "coding agent", "agents", "copilot", "cursor", "llm agent",
        "this file provides guidance", "you are", "assistant", "agents md", "claude md", "skill md",
        "when working with code in this repository", "prompt", "always read", "never commit",
    ),
    "marketing": (
        "announce", "announcing", "excited", "world s", "industry leading", "unprecedented", "breakthrough",
        "revolutionary", "state of the art", "join us", "register now", "learn more", "sign up", "contact us",
        "customers", "partners", "award", "leading", "trusted by", "get started today", "free trial", "advertisement",
        "sponsored", "affiliate", "newsletter", "deals", "supercharge", "will surprise you", "you won t believe",
        "game changer", "buyer s guide", "buy now", "limited time", "press release",
    ),
    "paper": (
        "abstract", "et al", "references", "in this paper", "we propose", "our method", "our approach", "related work",
        "conclusion", "evaluation", "arxiv", "proceedings", "preprint", "doi", "we present", "experiments", "baseline",
        "state of the art", "contributions", "appendix",
    ),
    "summary": (
        "the paper", "this paper", "the authors", "summary", "key idea", "key ideas", "tl dr", "takeaway", "takeaways",
        "main contribution", "paper notes", "notes on", "reading notes", "the main idea",
    ),
    "tutorial": (
        "in this tutorial", "tutorial", "step", "let s", "we will", "you will learn", "you will", "first", "next",
        "finally", "exercise", "run the following", "try", "example", "walkthrough", "hands on", "getting started",
        "now we", "here we", "puzzle",
    ),
    "api": (
        "parameters", "returns", "return type", "return value", "raises", "arguments", "argument",
        "template parameters", "member functions", "public member functions", "defined in header", "signature",
        "attributes", "methods", "class", "struct", "typedef", "enum", "overload", "see also", "deprecated since",
        "default value", "type", "param", "const", "void", "namespace", "synopsis",
    ),
    "qa": (
        "faq", "frequently asked questions", "question", "questions", "answer", "troubleshooting", "why does",
        "how do i", "how can i", "is it possible", "what is the difference", "can i", "common issues", "known problems",
        "workaround",
    ),
    "readme": (
        "readme", "getting started", "quick start", "quickstart", "installation", "usage", "features", "license",
        "citation", "cite", "news", "roadmap", "overview", "documentation", "support", "acknowledgements",
        "contributing", "badge", "star", "demo",
    ),
    "links": (
        "awesome", "list of", "curated", "resources", "papers", "links", "reading list", "bibliography", "publications",
        "blog posts", "videos", "talks", "slides", "github com", "http", "https", "www",
    ),
    "index": (
        "index", "table of contents", "contents", "module index", "genindex", "search page", "next", "previous",
        "navigation", "sitemap", "subpackages", "submodules", "file list", "here is a list of all", "modules",
        "all files",
    ),
    "blog": (
        "my", "i ve", "i m", "i think", "i was", "i wanted", "in this post", "this post", "blog", "posted", "we ll",
        "you ll", "thanks", "subscribe", "comments", "twitter",
    ),
    "measure": (
        "benchmark", "benchmarks", "speedup", "throughput", "latency", "bandwidth", "tflops", "gflops", "gb s", "tb s",
        "ms", "ns", "cycles", "utilization", "achieved", "measured", "profile", "profiler", "nsight", "ncu", "faster",
        "slower", "x faster", "roofline",
    ),
}
# What a kernel's own code names: the subject a kernel engineer reads source for (tiles, shared memory, warps,
# intrinsics), as against the bindings, argument checks and library calls of glue code. Not a cue group (the
# type model does not read it): ``signals`` counts the distinct ones, and the value reads them inside code only
# (``kernel_code``).
KERNEL_NAMES: tuple[str, ...] = (
    "__shared__", "__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_xor_sync", "threadidx", "blockidx",
    "blockdim", "griddim", "warp", "warps", "lane", "shared memory", "smem", "tile", "tiles", "tiled",
    "tl load", "tl store", "tl dot", "tl program_id", "tl arange", "tl where", "tl max", "tl sum", "tl exp",
    "tl exp2", "tl atomic_add", "block_m", "block_n", "block_k", "mma", "wgmma", "ldmatrix", "cp async",
    "tma", "tensor core", "tensor cores", "coalesced", "bank conflict", "bank conflicts", "registers",
    "register", "occupancy", "vectorized", "float4", "half2", "__restrict__", "__ldg", "atomicadd",
    "accumulator", "accumulate", "pipeline", "prefetch", "software pipelining", "double buffering",
    "cache line", "l2 cache", "online softmax", "_mm256", "_mm512", "intrinsic", "intrinsics", "simd",
    "unroll", "pragma unroll", "stride", "strides", "offsets", "mask",
)
# fmt: on

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


def cue_phrases() -> list[str]:
    """Every cue phrase, group by group, then the kernel names (a phrase twice: the phrase pass keeps one)."""
    return [phrase for phrases in CUES.values() for phrase in phrases] + list(KERNEL_NAMES)


def _groups_of() -> dict[str, list[str]]:
    """Each cue phrase's groups (a group as often as it lists the phrase)."""
    groups: dict[str, list[str]] = {}
    for group, phrases in CUES.items():
        for phrase in phrases:
            groups.setdefault(phrase, []).append(group)
    return groups


_GROUPS_OF = _groups_of()


def group_counts(found: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """(occurrences, distinct phrases) per cue group, from a phrase counter's ``{phrase: count}``: each found
    phrase adds to its groups (the found phrases are few; every group's list of phrases is not walked)."""
    total = dict.fromkeys(CUES, 0)
    distinct = dict.fromkeys(CUES, 0)
    for phrase, count in found.items():
        for group in _GROUPS_OF.get(phrase, ()):
            total[group] += count
            distinct[group] += 1
    return total, distinct


def url_file_path(url: str) -> str:
    """A URL's path, unquoted ('' when the URL does not parse)."""
    try:
        return unquote(urlsplit(url).path)
    except ValueError:
        return ""


def file_name(url: str) -> str:
    """The last segment of a URL's path, unquoted ('' when the URL does not parse)."""
    return url_file_path(url).rstrip("/").rsplit("/", 1)[-1]
