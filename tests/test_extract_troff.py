"""A man page's troff source is read as the text a reader sees (pipeline.extract.troff), not as its requests."""

from __future__ import annotations

import gzip

from pipeline.extract import extract
from pipeline.extract.troff import is_man_page, render

# A man page of our own, in the man macros MPICH and Doxygen write: comments, font requests, tagged paragraphs,
# a no-fill synopsis, escapes, lines broken mid-sentence.
PAGE = r""".\" written for shijie's tests
.TH "Tile_copy" 3 "2026-12-01" "shijie" \" -*- nroff -*-
.SH NAME
Tile_copy \-  Copies one tile of a matrix into shared memory
.SH SYNOPSIS
.nf
int Tile_copy(const float *src, float *dst, int rows)
.fi
.SH INPUT PARAMETERS
.PD 0
.TP
.B src
- the first element of the tile (pointer)
.PD 1
.SH NOTES
The copy is
.I coalesced
when rows are a multiple of 32;
otherwise it falls back to a strided loop\&.
See \fBTile_store\fP(3) and
.BR Tile_load (3).
.SS "Thread safety"
.PP
This routine is thread\-safe\(em it holds no state.
"""


def test_a_man_page_is_recognised_by_its_first_request():
    assert is_man_page(PAGE)
    assert is_man_page('.\\" only a comment first\n.Dd December 1, 2026\n.Dt TILE 1\n')
    assert not is_man_page("A plain note.\n.TH is not the first line here\n")
    assert not is_man_page(".. directive:: reStructuredText\n")


def test_render_gives_headings_paragraphs_and_the_synopsis_as_code():
    title, text, headings, code = render(PAGE)
    assert title == "Tile_copy"
    assert headings == ["NAME", "SYNOPSIS", "INPUT PARAMETERS", "NOTES", "Thread safety"]
    assert code == ["int Tile_copy(const float *src, float *dst, int rows)"]
    lines = text.split("\n")
    assert "Tile_copy - Copies one tile of a matrix into shared memory" in lines
    assert lines[lines.index("src") + 1] == "- the first element of the tile (pointer)"  # a tag, then its body
    # fill mode joins the source lines of a paragraph into one line, fonts and escapes gone
    assert (
        "The copy is coalesced when rows are a multiple of 32; otherwise it falls back to a strided loop."
        " See Tile_store(3) and Tile_load(3)." in lines
    )
    assert "This routine is thread-safe- it holds no state." in lines
    assert not any(line.startswith(".") or "\\f" in line for line in lines)


def test_extract_reads_a_gzipped_man_page_as_rendered_text():
    body = gzip.decompress(gzip.compress(PAGE.encode()))
    doc = extract(body, "text/plain", "file:///usr/share/man/man3/Tile_copy.3").documents[0]
    assert doc.kind == "text" and doc.title == "Tile_copy"
    assert doc.metadata["markup"] == "troff"
    assert "Copies one tile of a matrix" in doc.text and ".TH" not in doc.text
    plain = extract(b"NAME\nnot troff at all\n", "text/plain", "file:///tmp/notes.txt").documents[0]
    assert "markup" not in plain.metadata


def test_an_escaped_backslash_is_printed_once_and_not_read_again():
    # One pass over the escapes: "\e" and "\\" print a backslash that no later rule re-reads, so a C string's "\n"
    # survives, and the text after an escaped backslash is text.
    page = PAGE + '.SH EXAMPLE\n.nf\nprintf("%d\\en", rows);\n.fi\nA path like C:\\\\fBdir is kept.\n'
    _title, text, _heads, _code = render(page)
    assert 'printf("%d\\n", rows);' in text
    assert "C:\\fBdir" in text


# A generator's preamble of our own, in the way Pod::Man writes one before .TH: macro definitions (one of them
# switching to no-fill), strings set under conditions, registers, a block that is never read.
PREAMBLE = r""".\" generated for shijie's tests
.de Xs \" begin an example
.ft CW
.nf
.ne \\$1
..
.de Xe \" end an example
.ft R
.fi
..
.ie n \{\
.    ds Q" ""
'br\}
.el\{\
.    ds Q"
'br\}
.nr rX 0
.if \n(.g .if rX .nr rX 1
.ie \nF \
\{\
.    nr F 2
.\}
.ig
Notes on these macros that troff never prints.
..
.if \n[.g] \{\
.  am Xe
.    ad l
.  .
.\}
.rm Q"
.IX Title "TILE_COPY 3"
"""


def test_a_generators_preamble_before_the_title_is_set_up_not_text():
    assert is_man_page(PREAMBLE + PAGE.split("\n", 1)[1])
    title, text, headings, code = render(PREAMBLE + PAGE.split("\n", 1)[1])
    assert (title, headings, code) == render(PAGE)[:1] + render(PAGE)[2:]
    assert text == render(PAGE)[1]  # nothing of the macros, the ignored block or the strings is text
    assert not is_man_page(PREAMBLE + "A note after the set-up, and no title.\n")
