"""The compressed form of a discarded document: its text, headings and code in one zlib blob.

Curation never drops what a user crawled. A document it discards moves its ``text``, ``headings`` and
``code_blocks`` into ``documents.archive`` (``pack``), compressed; a later curation that keeps it again
moves them back (``unpack``). Readers of ``documents.text`` therefore see the plain text of every active or
kept document and NULL for a discarded one, as before; the few that need every document's text (scoring)
read the archive through this module.

Measured on 865 documents read from /usr/share/doc (text + headings + code 14.3 MB, 91% of the database):
zlib level 6 keeps 31% of the bytes (4.4 MB); packing all of them adds 0.8 s to that curation (docs/perf.md).
"""

from __future__ import annotations

import json
import zlib

LEVEL = 6  # zlib's default: level 9 saves ~1% more here at twice the time


def pack(text: str, headings: str | None, code_blocks: str | None) -> bytes:
    """One blob holding a document's text and its JSON-encoded headings and code blocks."""
    data = {"text": text, "headings": headings, "code_blocks": code_blocks}
    return zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), LEVEL)


def unpack(blob: bytes) -> tuple[str, str | None, str | None]:
    """(text, headings, code_blocks) as ``pack`` took them."""
    data = json.loads(zlib.decompress(blob).decode("utf-8"))
    return data["text"], data["headings"], data["code_blocks"]
