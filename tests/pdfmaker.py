"""PDFs built byte by byte for the tests: small valid ones, and the hostile shapes a crawler meets on the web.

Nothing here is a real document: every byte is written below (xref offsets computed), so the tests can build
a 400-page text bomb or a parser trap in a few kilobytes instead of committing one.

    text_pdf([["Roofline model", "..."], ["page two"]])   one content stream per page
    shared_stream_pdf(pages=400, lines=40_000)            every page draws the same huge content stream
    nested_arrays_pdf(depth=20_000)                       a content stream of nested arrays (RecursionError)
    objstm_assert_pdf()                                   an xref stream pointing into a stream that is not
                                                          an object stream (an assertion inside pypdf)
    operators_pdf(megabytes=30)                           a content stream of path operators and no text:
                                                          seconds of parsing before any text comes out
"""

from __future__ import annotations

import struct
import zlib

FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def assemble(objects: list[str | bytes], *, version: str = "1.4", info: int | None = None) -> bytes:
    """Objects numbered from 1 (object 1 is the catalog), an xref table with computed offsets, a trailer."""
    out, offsets = f"%PDF-{version}\n".encode(), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + (body.encode() if isinstance(body, str) else body) + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    extra = f" /Info {info} 0 R" if info else ""
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{extra} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def stream(data: bytes, compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        return f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data + b"\nendstream"
    return f"<< /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def _page(contents: int, font: int) -> str:
    return (
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {contents} 0 R"
        f" /Resources << /Font << /F1 {font} 0 R >> >> >>"
    )


def _text_ops(lines: list[str]) -> bytes:
    return ("BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET").encode()


def text_pdf(pages: list[list[str]]) -> bytes:
    """One page per list of lines, each page with its own content stream."""
    n = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objects: list[str | bytes] = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {n} >>",
        FONT,
    ]
    for i, lines in enumerate(pages):
        objects += [_page(5 + 2 * i, 3), stream(_text_ops(lines))]
    return assemble(objects)


def shared_stream_pdf(pages: int, lines: int, line: str = "A" * 60) -> bytes:
    """``pages`` pages that all draw one compressed content stream of ``lines`` lines: a few kilobytes on the
    wire, ``pages x lines x len(line)`` characters of text (400 x 40,000 x 60 ≈ 1 GB from ~70 KB)."""
    data = b"BT /F1 12 Tf 72 720 Td 14 TL " + (f"({line}) Tj T* ".encode()) * lines + b"ET"
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objects: list[str | bytes] = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>",
        stream(data, compress=True),
        FONT,
    ]
    objects += [_page(3, 4) for _ in range(pages)]
    return assemble(objects)


def nested_arrays_pdf(depth: int = 20_000) -> bytes:
    """A page whose content stream opens ``depth`` arrays: pypdf's recursive reader overflows the stack."""
    data = b"BT /F1 12 Tf " + b"[" * depth + b"(x)" + b"]" * depth + b" TJ ET"
    objects: list[str | bytes] = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        _page(4, 5),
        stream(data),
        FONT,
    ]
    return assemble(objects)


def objstm_assert_pdf() -> bytes:
    """PDF 1.5 with a cross-reference stream that puts the catalog inside object 2, which is a stream but not an
    object stream (/Type /XObject): pypdf asserts the type and raises AssertionError."""
    out = b"%PDF-1.5\n"
    offset_2 = len(out)
    data = b"1 0 << /Type /Catalog >>"
    out += f"2 0 obj\n<< /Type /XObject /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream\nendobj\n"
    offset_3 = len(out)
    rows = b"".join(
        bytes([kind]) + struct.pack(">H", field) + bytes([gen])
        for kind, field, gen in ((0, 0, 255), (2, 2, 0), (1, offset_2, 0), (1, offset_3, 0))
    )
    out += f"3 0 obj\n<< /Type /XRef /Size 4 /W [1 2 1] /Root 1 0 R /Length {len(rows)} >>\nstream\n".encode()
    out += rows + b"\nendstream\nendobj\n" + f"startxref\n{offset_3}\n%%EOF\n".encode()
    return out


def operators_pdf(megabytes: int = 30) -> bytes:
    """One page whose content stream is ``megabytes`` MB of path operators and no text, compressed to a few
    tens of kilobytes: pypdf parses all of it before any text could come out."""
    data = b"0 0 m 1 1 l S\n" * (megabytes * 1024 * 1024 // 14)
    objects: list[str | bytes] = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        _page(4, 5),
        stream(data, compress=True),
        FONT,
    ]
    return assemble(objects)
