"""Crawled text made safe to print: it is data, never markup or control codes.

Everything a page wrote (titles, snippets, URLs, reasons that quote it) reaches the terminal through ``safe``
(inside rich markup and table cells) or ``plain`` (a ``rich.text.Text``, never parsed): both drop escape
sequences (clear screen, window titles, hyperlinks), C0/C1 control characters and bidirectional overrides, and
``safe`` escapes rich markup, so a title reading ``[/b]`` or ``[link=http://…]`` prints as those characters.
``highlighted`` shows a search snippet with its matches styled (and still bracketed, so they stay visible
without colour). Widths are display cells (``rich.cells``): a CJK character takes two (``fit``, ``pad``).
"""

from __future__ import annotations

import re

from rich.cells import cell_len, set_cell_size
from rich.markup import escape
from rich.text import Text

MATCH_STYLE = "bold yellow"  # a search term inside a snippet

_ESCAPES = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?                        # CSI: colours, cursor moves, clear screen
    | \x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # OSC/DCS/SOS/PM/APC: window title, hyperlinks
    | \x1b[ -/]*[0-~]?                               # any other escape, and a lone ESC
    | \x9b[0-?]*[ -/]*[@-~]?                          # 8-bit CSI
    | [\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # 8-bit string commands
    """,
    re.VERBOSE,
)
# C0 and C1 controls but tab and newline, DEL, and the bidirectional marks and overrides that reorder a line
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_BLANKS = re.compile(r"\s+")


def clean(value: object, *, one_line: bool = True) -> str:
    """``value`` as text a terminal shows as it is: escape sequences and control characters removed; with
    ``one_line``, every run of white space (newlines included) one space."""
    text = _CONTROLS.sub("", _ESCAPES.sub("", "" if value is None else str(value)))
    return _BLANKS.sub(" ", text).strip() if one_line else text.replace("\t", "    ")


def fit(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` display cells (a CJK character is two), ending in "…" when cut."""
    if width is None or cell_len(text) <= width:
        return text
    return set_cell_size(text, max(width - 1, 0)).rstrip() + "…"


def safe(value: object, width: int | None = None, *, one_line: bool = True) -> str:
    """Crawled text for rich markup and table cells: cleaned (``clean``), cut to ``width`` cells, escaped."""
    return escape(fit(clean(value, one_line=one_line), width))


def plain(value: object, width: int | None = None, *, one_line: bool = True, style: str = "") -> Text:
    """Crawled text as a ``rich.text.Text``: cleaned and cut like ``safe``, never read as markup."""
    return Text(fit(clean(value, one_line=one_line), width), style=style)


def highlighted(text: str, marks: tuple[tuple[int, int], ...] | list[tuple[int, int]] = ()) -> Text:
    """A snippet on one flowing line whose ``marks`` (character spans of ``text``, the query's matches) are
    styled."""

    def flow(piece: str) -> str:
        return _BLANKS.sub(" ", clean(piece, one_line=False))

    out = Text()
    at = 0
    for start, end in sorted(marks):
        if start < at:
            continue
        out.append(flow(text[at:start]))
        out.append(flow(text[start:end]), style=MATCH_STYLE)
        at = end
    out.append(flow(text[at:]))
    return out


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` display cells (``str.ljust`` counts a CJK character as one)."""
    return text + " " * max(width - cell_len(text), 0)
