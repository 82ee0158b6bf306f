"""A man page's troff source → the text a reader sees: paragraphs, headings, the synopsis as code.

A man page is served as plain text (``/usr/share/man/man3/MPI_Send.3``, a ``.3.gz`` gunzipped): read as is,
its words sit among requests (``.TP``, ``.PD 0``, ``.B buf``) and escapes (``\\fB``, ``\\-``, ``\\&``), its lines
are broken wherever the author pressed return, and its title is ``.TH MPI_Send 3 "2/22/2022"``. The same page
rendered as HTML (its twin in the package's ``html/``) then shares its words but not its lines or shingles.
``render(text)`` does what ``man`` does, short of layout:

- ``is_man_page(text)``: the first request, after ``.\\"`` comments and a preamble that only sets troff up
  (macro definitions ``.de``…``..``, strings, registers, conditions: Pod::Man writes some 130 such lines before
  ``.TH``), is ``.TH`` (man macros) or ``.Dd``/``.Dt`` (mdoc), within the first 400 lines;
- requests that only lay out (``.PP .TP .PD .RS .RE .br .sp .in .ti .ad .nh .ft`` …) end a paragraph and
  leave no words (the tag after ``.TP``, and ``.IP``'s, is a line of its own, as in a definition list); font requests (``.B .I .BR .IR .RI .SM`` …) leave their arguments (the alternating ones
  without spaces: ``.BR free (3)`` → ``free(3)``); ``.SH``/``.SS`` (``.Sh``/``.Ss``) are headings; ``.IP tag``
  and mdoc's ``.It``/``.Nm``/``.Nd``/``.Fn`` … keep their words; unknown requests are dropped;
- fill mode joins a paragraph's source lines into one line (as the HTML twin has them); ``.nf``…``.fi`` (no-fill:
  synopses, examples) keeps its lines and is a code block;
- escapes: fonts and sizes go, ``\\-``/``\\(em``/``\\(bu``/``\\(aq``/quotes become their characters, ``\\&``,
  ``\\%``, ``\\|``, ``\\^``, ``\\c`` and strings (``\\*(..``) go, ``\\"`` starts a comment.

The title is ``.TH``'s first argument (``.Dt``'s, lower case). Nothing here is a full troff: a macro's
definition (``.de``/``.am``…``..``) and an ignored block (``.ig``) leave nothing, a call of a macro a page defines
itself and tables (``tbl``) pass through as their words.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Iterator

_COMMENT = re.compile(r'^[.\']\s*\\"')
_TRAILING_COMMENT = re.compile(r'(?<!\\)\\".*$')
_REQUEST = re.compile(r"^[.']\s*([A-Za-z][A-Za-z0-9]{0,3})\b\s*(.*)$")
_FIRST_REQUEST = re.compile(r"^[.']\s*(TH|Dd|Dt)\b")
_HEADING = {"SH", "SS", "Sh", "Ss"}
_FONT_JOINED = {"BR", "RB", "BI", "IB", "IR", "RI"}  # alternating fonts: arguments written without spaces
_FONT_SPACED = set(
    "B I SM SB Nm Nd Fn Fa Ft Fd Ar Cm Fl Va Dv Er Ev Pa Li Em Sy Xr Op Ql Dq Sq Pq St Lb In Vt Ic At".split()
)
_TAGGED = {"IP", "It", "TQ"}  # a paragraph with a tag: the tag is text
_NO_FILL = {"nf", "EX", "Bd"}
_FILL = {"fi", "EE", "Ed"}
# Named characters (``\\(xx``) as a reader sees them; any other name leaves nothing
_NAMED = {
    **dict.fromkeys(("em", "en", "hy"), "-"),
    "bu": "•",
    **dict.fromkeys(("aq", "cq", "oq"), "'"),
    **dict.fromkeys(("lq", "rq", "dq"), '"'),
    "co": "©",
    "mu": "×",
    **{name: name for name in ("<=", ">=", "!=", "==")},
}
_ESCAPES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r'\\".*$'), ""),  # comment to the end of the line
    (re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)"), ""),  # font changes
    (re.compile(r"\\s[+-]?(?:\d|\(\d\d|\[\d+\])"), ""),  # size changes
    (re.compile(r"\\\*(?:\[[^\]]*\]|\(..|.)"), ""),  # strings
    (re.compile(r"\\[nk](?:\[[^\]]*\]|\(..|.)"), ""),  # number registers, marks
    (re.compile(r"\\[hvwlLoXYZ]'[^']*'"), ""),  # motions, widths, overstrikes
    (re.compile(r"\\\((..)"), lambda found: _NAMED.get(found.group(1), "")),  # named characters
    (re.compile(r"\\\[[^\]]*\]"), ""),  # groff's long names
    (re.compile(r"\\[-]"), "-"),
    (re.compile(r"\\[e\\]"), "\\\\"),
    (re.compile(r"\\[ ~0]"), " "),
    (re.compile(r"\\[&%|^c:!)/,dutp{}]"), ""),
    (re.compile(r"\\(.)"), r"\1"),
]


_BLOCK = {"de", "de1", "am", "am1", "ig"}  # a macro definition or an ignored block, up to its ".." line
_SETUP = {"ds", "ds1", "nr", "if", "ie", "el", "tr", "rm", "rr", "als", "ft", "br", "hy", "nh", "ad", "IX", "mso"}
_BRACE = re.compile(r"^\s*\\[{}]")  # a condition's brace on a line of its own ("\{\"): set-up, no text
_BLOCK_END = re.compile(r"^[.']\s*\.")  # "..", or ".  ." as Asciidoctor indents it inside a condition


def _page_lines(lines: Iterable[str]) -> Iterator[str]:
    """The lines that can hold the page's text or requests: without comments, a condition's brace lines, and
    macro definitions and ignored blocks (their opening request to their ``..``), which leave nothing."""
    inside = False  # in a macro definition or an ignored block
    for line in lines:
        if inside:
            inside = _BLOCK_END.match(line) is None
            continue
        if _COMMENT.match(line) or _BRACE.match(line):
            continue
        block = _REQUEST.match(line)
        if block and block.group(1) in _BLOCK:
            inside = True
            continue
        yield line


def is_man_page(text: str) -> bool:
    for line in _page_lines(text.lstrip("\ufeff").split("\n", 400)[:400]):
        if not line.strip():
            continue
        if not line.startswith((".", "'")):
            return False
        if _FIRST_REQUEST.match(line):
            return True
        found = _REQUEST.match(line)
        if found is not None and found.group(1) not in _SETUP:  # none: a condition's closing brace, a bare dot
            return False
    return False


def unescape(text: str) -> str:
    """The text with every escape replaced, in one pass from left to right.

    One pass, not one ``sub`` per rule: a rule's output is never read again, so ``\\e`` and ``\\\\`` (a printed
    backslash) stay a backslash, and the ``\\fB`` after an escaped backslash stays text, as troff reads them.
    """
    out: list[str] = []
    pos = 0
    while (start := text.find("\\", pos)) >= 0:
        out.append(text[pos:start])
        pos = start + 1  # a lone backslash at the end of the text leaves nothing
        for pattern, repl in _ESCAPES:
            if found := pattern.match(text, start):
                out.append(repl(found) if callable(repl) else found.expand(repl))
                pos = found.end()
                break
    out.append(text[pos:])
    return "".join(out)


def _arguments(rest: str) -> list[str]:
    try:
        return shlex.split(rest.replace("\\", "\\\\"), posix=True)
    except ValueError:
        return rest.split()


def render(text: str) -> tuple[str, str, list[str], list[str]]:
    """(title, text, headings, code blocks) of a man page's troff source."""
    title = ""
    out: list[str] = []
    headings: list[str] = []
    code_blocks: list[str] = []
    paragraph: list[str] = []
    code: list[str] | None = None
    tag_next = False  # after .TP the next line is the tag: a line of its own, as a definition list shows it

    def flush() -> None:
        if paragraph:
            out.append(" ".join(" ".join(paragraph).split()))  # filled: spaces collapse, as a browser shows them
            paragraph.clear()

    for raw in _page_lines(text.lstrip("\ufeff").split("\n")):
        raw = _TRAILING_COMMENT.sub("", raw)
        found = _REQUEST.match(raw)
        if not found:
            if raw.startswith((".", "'")):  # a request we cannot read ("..", ".\}")
                continue
            words = unescape(raw).rstrip()
            if code is not None:
                code.append(words)
                out.append(words)
            elif words.strip():
                paragraph.append(words.strip())
                if tag_next:
                    flush()
                    tag_next = False
            else:
                flush()
                out.append("")
            continue
        name, rest = found.group(1), found.group(2)
        args = [unescape(a) for a in _arguments(rest)]
        if name in ("TH", "Dt"):
            title = args[0] if args else ""
            title = title.lower() if name == "Dt" else title
            continue
        if name in _HEADING:
            flush()
            heading = " ".join(args).strip()
            if heading:
                headings.append(heading)
                out.extend(["", heading])
            continue
        if name in _NO_FILL:
            flush()
            code = []
            continue
        if name in _FILL:
            if code is not None and any(line.strip() for line in code):
                code_blocks.append("\n".join(code).strip("\n"))
            code = None
            continue
        if name in _FONT_JOINED or name in _FONT_SPACED or name in _TAGGED:
            words = ("" if name in _FONT_JOINED else " ").join(args).strip()
            if name in _TAGGED:
                flush()
            if not words:
                continue
            if code is not None:
                code.append(words)
                out.append(words)
            else:
                paragraph.append(words)
                if tag_next or name in _TAGGED:
                    flush()
                    tag_next = False
            continue
        # layout requests (.PP .TP .PD .RS .RE .br .sp .in .ti .ad .nh .ft .ne …) and any other: a break
        if name not in ("ft", "ad", "nh", "hy", "na", "ps", "vs", "ne", "PD", "ds", "nr", "so"):
            flush()
            tag_next = name == "TP"
    flush()
    if code is not None and any(line.strip() for line in code):
        code_blocks.append("\n".join(code).strip("\n"))
    clean = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in out)).strip()
    return title, clean, headings, code_blocks
