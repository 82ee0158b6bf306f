"""Bytes → text: which encoding a body is in.

The charset comes from the BOM, then the Content-Type header, then a ``<meta>`` declaration, then UTF-8 if the
bytes are valid UTF-8, else windows-1252 (the web's default); a declared label is used only if it names a real
text encoding (``TEXT_ENCODINGS``, the WHATWG Encoding Standard's set): ``hex``, ``rot13``, ``base64``,
``zlib``, ``idna``, ``undefined``, ``utf-7``… are ignored.
"""

from __future__ import annotations

import codecs
import re

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.I)
# What browsers actually use for these labels (WHATWG Encoding Standard), and labels Python spells otherwise.
_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-sjis": "shift_jis",
    "windows-874": "cp874",
    "windows-31j": "cp932",
    "x-mac-roman": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic",
}
# The text encodings a page may declare, by Python codec name: the WHATWG Encoding Standard's, less the
# "replacement" ones. Python's codec registry also holds bytes-to-bytes codecs (hex, base64, zlib, bz2, rot13,
# uu, quopri: LookupError when decoding to text) and codecs that fail on any input (idna, punycode, undefined:
# UnicodeError), and utf-7 (browsers refuse it: it hides markup): a label naming one of those is ignored.
TEXT_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in [
        *("utf-8", "utf-16-le", "utf-16-be", "utf-16", "cp866", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic"),
        *(f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
        *("cp874", "tis-620", *(f"cp{n}" for n in range(1250, 1259))),
        *("gb18030", "big5", "big5hkscs", "euc_jp", "iso2022_jp", "shift_jis", "cp932", "euc_kr", "cp949"),
    ]
)


def _known(label: str | None) -> str | None:
    """The Python codec for a declared ``label`` when it is a real text encoding, else None."""
    if not label:
        return None
    label = label.strip().lower()
    label = _ALIASES.get(label, label)
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):
        return None
    return name if name in TEXT_ENCODINGS else None


def decode(body: bytes, header_charset: str | None = None, sniff_meta: bool = True) -> tuple[str, str]:
    """Bytes → (text, encoding used), by BOM > header > <meta> > valid UTF-8 > windows-1252."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return body[len(bom) :].decode(name, errors="replace"), name
    encoding = _known(header_charset)
    if encoding is None and sniff_meta:
        match = _META_CHARSET.search(body[:4096])
        encoding = _known(match.group(1).decode("ascii", "ignore")) if match else None
    if encoding is not None:
        return body.decode(encoding, errors="replace"), encoding
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace"), "cp1252"
