"""Which reader fits a body: content decides, not names.

``sniff_kind(content_type, url, body)`` → html | pdf | text | markdown | atom. A body that starts ``%PDF-`` is
read as a PDF whatever it is called, and bytes declared as text (HTML, plain text, markdown) that are not text —
a magic number of a binary format, NUL bytes, or more than 5% control characters in the first 4 KB — are refused
(``UnsupportedType``). ``kind_for_path`` gives the content type to assume for a local file, from its name; the
content still decides.
"""

from __future__ import annotations

import codecs

from .document import UnsupportedType

_TYPES = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "application/atom+xml": "atom",
}
_XML_TYPES = {"application/xml", "text/xml"}


def media_type(content_type: str | None) -> tuple[str, str | None]:
    """``'text/html; charset=GBK'`` → ``('text/html', 'gbk')``."""
    if not content_type:
        return "", None
    parts = [p.strip() for p in content_type.split(";")]
    charset = None
    for param in parts[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            charset = value.strip().strip("\"'").lower() or None
    return parts[0].lower(), charset


# Magic numbers of binary formats that can start with bytes a text file could also start with are left out
# (GIF8, ID3, MZ): those files hold NULs early, which the NUL rule catches.
_BINARY_MAGIC = (
    b"\x89PNG",
    b"\xff\xd8\xff",  # JPEG
    b"PK\x03\x04",  # zip, docx, jar, epub
    b"\x1f\x8b",  # gzip
    b"\x7fELF",
    b"\xfd7zXZ\x00",
    b"7z\xbc\xaf\x27\x1c",
    b"\xca\xfe\xba\xbe",  # Mach-O / Java class
    b"\xcf\xfa\xed\xfe",
    b"\x00asm",
)
# Control characters that do not occur in text (tab, newlines, form feed, vertical tab and ESC — ISO-2022-JP — do).
_CONTROLS = bytes([*range(0x01, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])


def looks_binary(body: bytes) -> bool:
    """True when the first 4 KB are not text: a binary magic number, a NUL (no UTF-16 BOM), >5% control bytes."""
    head = body[:4096]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    if head.startswith(_BINARY_MAGIC) or b"\0" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROLS))
    return controls * 20 > len(head)


def sniff_kind(content_type: str | None, url: str, body: bytes) -> str:
    """Which reader fits: html | pdf | text | markdown | atom; raises UnsupportedType otherwise."""
    mtype, _ = media_type(content_type)
    if body.startswith(b"%PDF-"):
        return "pdf"
    head = body[:1024].lstrip().lower()
    if mtype in _TYPES:
        kind = _TYPES[mtype]
        if kind in ("html", "text", "markdown") and looks_binary(body):
            raise UnsupportedType(f"binary content served as {mtype}")
        if kind == "text" and url.lower().endswith((".md", ".markdown")):
            return "markdown"
        return kind
    if mtype in _XML_TYPES or (not mtype or mtype == "application/octet-stream"):
        if b"<feed" in head and b"http://www.w3.org/2005/atom" in body[:4096].lower():
            return "atom"
        if mtype in _XML_TYPES:
            raise UnsupportedType(f"XML that is not an Atom feed ({mtype})")
        if looks_binary(body):
            raise UnsupportedType(f"content type {mtype or 'unknown'}: binary content is not read")
        if head.startswith((b"<!doctype html", b"<html")):
            return "html"
        lower = url.lower()
        if lower.endswith((".md", ".markdown")):
            return "markdown"
        if lower.endswith(".txt"):
            return "text"
    raise UnsupportedType(f"content type {mtype or 'unknown'} is not read")


def kind_for_path(name: str) -> str | None:
    """The content type to assume for a local file, from its extension (None: not read)."""
    lower = name.lower()
    for suffixes, ctype in (
        ((".html", ".htm", ".xhtml"), "text/html"),
        ((".pdf",), "application/pdf"),
        ((".md", ".markdown"), "text/markdown"),
        ((".txt", ".text", ".rst"), "text/plain"),
        ((".atom", ".xml"), "application/atom+xml"),
    ):
        if lower.endswith(suffixes):
            return ctype
    return None
