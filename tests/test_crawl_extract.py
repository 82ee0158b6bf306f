"""Extraction on bytes: HTML main text, charsets, malformed markup, PDF, markdown, arXiv Atom."""

import pytest

from pipeline.extract import Unreadable, UnsupportedType, decode, extract

PAGE = b"""<!doctype html><html><head><title>Tiling  guide</title><script>var tracker = 1;</script>
<style>p { color: red }</style></head><body>
<header><a href="/">Home</a> site banner</header>
<nav><a href="/a">Alpha</a> <a href="/b">Beta</a></nav>
<main><h1>Shared memory tiling</h1><p>Tiles are staged in
   shared memory.</p><h2>Code</h2><pre>for k in range(K):
    acc += a[i, k] * b[k, j]</pre><a href="c.html#x">next</a> <a rel="nofollow" href="/ads">ad</a></main>
<aside>Related posts</aside><footer>Copyright footer</footer></body></html>"""


def test_html_main_text_title_headings_code_and_links():
    ex = extract(PAGE, "text/html; charset=utf-8", "http://h/docs/")
    (doc,) = ex.documents
    assert doc.kind == "html" and doc.title == "Tiling guide"
    assert doc.headings == ["Shared memory tiling", "Code"]
    assert doc.code_blocks == ["for k in range(K):\n    acc += a[i, k] * b[k, j]"]
    assert "Tiles are staged in shared memory." in doc.text
    assert "```\nfor k in range(K):\n    acc += a[i, k] * b[k, j]\n```" in doc.text  # indentation kept
    for noise in ("tracker", "color", "banner", "Alpha", "Related posts", "Copyright"):
        assert noise not in doc.text
    # navigation links are still followed; nofollow links are not
    assert ex.links == ["/", "/a", "/b", "c.html#x"]


def test_meta_robots_noindex_nofollow():
    ex = extract(
        b'<html><head><meta name="robots" content="noindex, nofollow"></head><body><p>x</p>'
        b'<a href="/y">y</a></body></html>',
        "text/html",
        "http://h/",
    )
    assert ex.documents == [] and ex.links == [] and not ex.follow


def test_malformed_html_is_tolerated():
    broken = b"<html><body><div><p>unclosed <b>bold <i>both</p></div></span><table><tr><td>cell</table><p>tail"
    (doc,) = extract(broken, "text/html", "http://h/").documents
    assert "unclosed bold both" in doc.text and "cell" in doc.text and "tail" in doc.text


@pytest.mark.parametrize(
    "body, header, expected",
    [
        ('<meta charset="gbk"><p>并行计算</p>'.encode("gbk"), None, "并行计算"),
        ("<p>并行计算</p>".encode("gb18030"), "gb2312", "并行计算"),
        ("<p>Café</p>".encode("cp1252"), None, "Café"),  # not UTF-8, no declaration: windows-1252
        (b"\xef\xbb\xbf<p>Caf\xc3\xa9</p>", "iso-8859-1", "Café"),  # the BOM wins over the header
        ("<p>Ünïcödé</p>".encode(), None, "Ünïcödé"),
    ],
)
def test_charsets(body, header, expected):
    ctype = "text/html" + (f"; charset={header}" if header else "")
    (doc,) = extract(body, ctype, "http://h/").documents
    assert expected in doc.text


def test_decode_never_fails_on_garbage():
    text, encoding = decode(bytes(range(256)), "no-such-charset")
    assert encoding == "cp1252" and len(text) == 256


def test_binary_and_unknown_types_are_refused():
    with pytest.raises(UnsupportedType):
        extract(b"\x89PNG\r\n\x1a\n" + bytes(100), "image/png", "http://h/x.png")
    with pytest.raises(UnsupportedType):
        extract(bytes(range(256)), "application/octet-stream", "http://h/blob")
    with pytest.raises(UnsupportedType):
        extract(b"ab\0cd" * 100, "text/plain", "http://h/x.txt")  # NULs: binary, not text
    with pytest.raises(Unreadable):
        extract(b"%PDF-1.4 this is not really a pdf", "application/pdf", "http://h/x.pdf")


def test_markdown_and_text():
    md = b"# Occupancy\n\nIntro.\n\n## Registers\n\n```cuda\n__global__ void k() {}\n```\n"
    (doc,) = extract(md, "text/markdown", "http://h/a.md").documents
    assert (doc.kind, doc.title, doc.headings) == ("markdown", "Occupancy", ["Occupancy", "Registers"])
    assert doc.code_blocks == ["__global__ void k() {}"]
    (doc,) = extract(b"Warp divergence notes\n\nBranches split warps.", "text/plain", "http://h/a.txt").documents
    assert (doc.kind, doc.title) == ("text", "Warp divergence notes")


def make_pdf(lines: list[str]) -> bytes:
    """A minimal valid one-page PDF with the given text lines (Helvetica), xref offsets computed."""
    stream = "BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def test_pdf_text():
    (doc,) = extract(
        make_pdf(["Roofline model", "Arithmetic intensity bounds throughput."]), "application/pdf", "http://h/r.pdf"
    ).documents
    assert doc.kind == "pdf" and doc.title == "Roofline model"
    assert "Arithmetic intensity bounds throughput." in doc.text and doc.metadata["pages"] == 1


ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <opensearch:totalResults>7</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex>
  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>
  <entry><id>http://arxiv.org/abs/2307.08691v3</id><published>2023-07-17T17:50:36Z</published>
    <updated>2023-10-01T00:00:00Z</updated><title>FlashAttention-2:  Faster Attention</title>
    <summary>  We propose better work partitioning.  </summary>
    <author><name>Tri Dao</name></author><arxiv:comment>16 pages</arxiv:comment>
    <link href="http://arxiv.org/abs/2307.08691v3" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2307.08691v3" rel="related" type="application/pdf"/>
    <category term="cs.LG"/></entry>
</feed>"""


def test_arxiv_atom_entry():
    ex = extract(ATOM.encode(), "application/atom+xml; charset=UTF-8", "http://api/query")
    (doc,) = ex.documents
    assert doc.kind == "arxiv" and doc.url == "https://arxiv.org/abs/2307.08691"
    assert doc.title == "FlashAttention-2: Faster Attention"
    assert doc.text == "FlashAttention-2: Faster Attention\n\nWe propose better work partitioning."
    meta = doc.metadata
    assert (meta["arxiv_id"], meta["version"], meta["authors"]) == ("2307.08691", 3, ["Tri Dao"])
    assert meta["pdf_url"] == "http://arxiv.org/pdf/2307.08691v3" and meta["published"].startswith("2023-07-17")
    assert meta["comment"] == "16 pages" and meta["categories"] == ["cs.LG"]
    assert ex.paging == {"total_results": 7, "start_index": 0, "items_per_page": 1}


def test_atom_refuses_entities():
    evil = b"""<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1234.5678v1</id>
<title>&x;</title><summary>s</summary></entry></feed>"""
    try:
        docs = extract(evil, "application/atom+xml", "http://h/f").documents
    except Unreadable:
        return
    assert "root:" not in docs[0].text
