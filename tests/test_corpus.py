"""The embedded corpus (data/corpus), its taxonomy and its expert labels are well-formed.

Everything downstream (crawler tests, scoring quality tests, knowledge packs, `shijie run`) is tested on this
corpus, so a broken link, an unparsable PDF or an unlabelled page must fail here, not three stages later.
"""

from __future__ import annotations

import difflib
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import deque
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from pipeline.resources import corpus_dir, data_dir

CORPUS = corpus_dir()
LABELS = tomllib.loads((Path(__file__).parent / "data" / "corpus_labels.toml").read_text(encoding="utf-8"))
TAXONOMY = tomllib.loads((data_dir() / "taxonomy.toml").read_text(encoding="utf-8"))
BASE = "http://corpus.test/"
DOCUMENT_SUFFIXES = {".html", ".pdf", ".txt", ".md", ".xml"}
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
NON_UTF8_PAGE = "notes/legacy/streams-events-contexts.html"  # windows-1252
GBK_PAGE = "notes/zh/online-softmax-gbk.html"

SEVEN_DOMAINS = {
    "gpu_architecture": ("GPU architecture", "GPU 架构"),
    "parallel_computing": ("Parallel computing", "并行计算"),
    "compiler_optimization": ("Compiler optimization", "编译优化"),
    "numerical_analysis": ("Numerical analysis", "数值分析"),
    "model_structure": ("Deep-learning model structure", "深度学习模型结构"),
    "driver_interface": ("Hardware driver interface", "硬件驱动接口"),
    "engineering_experience": ("Engineering and debugging experience", "工程与调试经验"),
}


def rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def documents() -> list[str]:
    # robots.txt is crawl policy, not a document
    return sorted(
        rel(p) for p in CORPUS.rglob("*") if p.is_file() and p.suffix in DOCUMENT_SUFFIXES and rel(p) != "robots.txt"
    )


def html_pages() -> list[str]:
    return [d for d in documents() if d.endswith(".html")]


def soup(relpath: str) -> BeautifulSoup:
    # bytes in, so BeautifulSoup honours each page's own <meta charset> (one page is windows-1252)
    return BeautifulSoup((CORPUS / relpath).read_bytes(), "lxml")


def visible_text(relpath: str) -> str:
    page = soup(relpath)
    for tag in page(["script", "style", "nav", "header", "footer", "aside"]):
        tag.decompose()
    return " ".join(page.get_text(" ").split())


def test_corpus_has_enough_documents_of_every_kind():
    docs = documents()
    assert len(docs) >= 40
    suffixes = {Path(d).suffix for d in docs}
    assert {".html", ".pdf", ".txt", ".md", ".xml"} <= suffixes


@pytest.mark.parametrize("page", html_pages())
def test_every_internal_link_resolves_to_a_file(page):
    missing = []
    for tag in soup(page).find_all(["a", "link", "script", "img"]):
        target = tag.get("href") or tag.get("src")
        if not target or target.startswith(("mailto:", "javascript:", "#")):
            continue
        url = urlsplit(urljoin(BASE + page, target))
        if f"{url.scheme}://{url.netloc}/" != BASE:
            continue  # external links: the crawler's host allow-list drops them
        path = url.path.lstrip("/")
        if path.startswith("trap/") and path != "trap/index.html":
            continue  # the trap is dynamic: the server answers every /trap/ path with trap/index.html
        if path == "" or path.endswith("/"):
            path += "index.html"
        if not (CORPUS / path).is_file():
            missing.append(target)
    assert not missing, f"{page}: broken links {missing}"


def test_every_document_is_reachable_from_the_index_at_depths_zero_to_four():
    depth, queue = {"index.html": 0}, deque(["index.html"])
    while queue:  # breadth first, so depth is the fewest clicks from the index, as a crawler counts it
        page = queue.popleft()
        if not page.endswith(".html") or page.startswith("trap/") or not (CORPUS / page).is_file():
            continue
        for a in soup(page).find_all("a", href=True):
            url = urlsplit(urljoin(BASE + page, a["href"]))
            if f"{url.scheme}://{url.netloc}/" != BASE:
                continue
            path = url.path.lstrip("/")
            path = path + "index.html" if path == "" or path.endswith("/") else path
            if path not in depth:
                depth[path] = depth[page] + 1
                queue.append(path)
    docs = documents()
    assert set(docs) - set(depth) == set()
    assert {depth[d] for d in docs} == {0, 1, 2, 3, 4}
    assert depth["guides/hopper/appendix-d-budget-worksheet.html"] == 4


def test_pdf_parses_and_yields_text():
    from pypdf import PdfReader

    reader = PdfReader(CORPUS / "papers" / "lse-online-softmax-note.pdf")
    assert 2 <= len(reader.pages) <= 4
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "log-sum-exp" in text and "rowsum(dO * O)" in text
    assert len(text.split()) > 800


def test_arxiv_feed_has_the_api_format_two_versions_and_an_irrelevant_paper():
    root = ET.parse(CORPUS / "feeds" / "arxiv-gpu-attention.xml").getroot()
    assert root.tag == f"{ATOM}feed"
    entries = root.findall(f"{ATOM}entry")
    assert int(root.findtext(f"{OPENSEARCH}totalResults")) == len(entries) >= 8
    assert root.findtext(f"{OPENSEARCH}startIndex") == "0"
    assert root.findtext(f"{OPENSEARCH}itemsPerPage") is not None
    ids = []
    for entry in entries:
        abs_url = entry.findtext(f"{ATOM}id")
        match = re.fullmatch(r"http://arxiv\.org/abs/(\d{4}\.\d{5})(v\d+)", abs_url)
        assert match, abs_url
        ids.append(match.groups())
        for field in ("updated", "published", "title", "summary"):
            assert entry.findtext(f"{ATOM}{field}").strip()
        assert entry.find(f"{ATOM}author/{ATOM}name") is not None
        links = entry.findall(f"{ATOM}link")
        assert any(link.get("rel") == "alternate" and link.get("href") == abs_url for link in links)
        assert any(link.get("title") == "pdf" for link in links)
        assert entry.find(f"{ARXIV}primary_category").get("term")
    versions = {}
    for base, version in ids:
        versions.setdefault(base, set()).add(version)
    assert any(len(v) == 2 for v in versions.values()), "one paper must appear as v1 and v2"
    assert set(versions) == set(LABELS["arxiv"]), "every arXiv paper is labelled, by id without version"
    for base, label in LABELS["arxiv"].items():
        assert versions[base] == set(label["versions"])
    assert any(label["kind"] == "irrelevant" for label in LABELS["arxiv"].values())


def test_every_document_is_labelled_and_every_label_exists():
    labelled = set(LABELS["docs"])
    excluded = set(LABELS["excluded"])
    assert labelled.isdisjoint(excluded)
    assert set(documents()) == labelled | excluded
    for path, label in LABELS["docs"].items():
        assert label["relevance"] in {"high", "medium", "low"}, path
        assert label["tier"] in {"deep", "solid", "shallow", "irrelevant", "navigation"}, path
        assert set(label["domains"]) <= set(SEVEN_DOMAINS), path
        assert set(label.get("touches", [])) <= set(SEVEN_DOMAINS) - set(label["domains"]), path
        if "duplicate_of" in label:
            assert label["duplicate_of"] in labelled, path


def test_label_lists_refer_to_labelled_documents():
    docs = LABELS["docs"]
    top = LABELS["expected_top"]
    assert 8 <= len(top) <= 12 and len(set(top)) == len(top)
    assert all(docs[p]["relevance"] != "low" and docs[p]["tier"] in {"deep", "solid"} for p in top)
    pairs = LABELS["duplicate_pairs"] + LABELS["exact_duplicate_pairs"] + LABELS["paraphrase_pairs"]
    assert all(a in docs and b in docs for a, b in pairs)
    # the labelled quality range exists: deep guides, irrelevant pages, shallow listicles
    kinds = [label["kind"] for label in docs.values()]
    assert kinds.count("irrelevant") >= 5 and kinds.count("listicle") + kinds.count("marketing") >= 3


def test_exact_duplicate_is_the_same_bytes_under_two_urls():
    for copy, original in LABELS["exact_duplicate_pairs"]:
        assert copy != original
        assert (CORPUS / copy).read_bytes() == (CORPUS / original).read_bytes()


@pytest.mark.parametrize("copy,original", LABELS["duplicate_pairs"])
def test_near_duplicates_share_at_least_ninety_percent_of_their_text(copy, original):
    a, b = visible_text(copy).split(), visible_text(original).split()
    assert difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def test_taxonomy_has_the_seven_domains_with_rich_concept_lists():
    domains = TAXONOMY["domains"]
    assert set(domains) == set(SEVEN_DOMAINS)
    for domain_id, (title, title_zh) in SEVEN_DOMAINS.items():
        domain = domains[domain_id]
        assert (domain["title"], domain["title_zh"]) == (title, title_zh)
        concepts = domain["concepts"]
        assert 40 <= len(concepts) <= 70, domain_id
        assert len(set(concepts)) == len(concepts), domain_id
        assert all(c == c.lower() and c.strip() == c and c for c in concepts), domain_id
        weights = domain.get("weights", {})
        assert set(weights) <= set(concepts) and all(w > 0 for w in weights.values()), domain_id


def test_every_domain_has_pages_of_every_depth():
    for domain_id in SEVEN_DOMAINS:
        tiers = [
            label["tier"]
            for label in LABELS["docs"].values()
            if domain_id in label["domains"] or domain_id in label.get("touches", [])
        ]
        assert len(tiers) >= 3 and {"deep", "solid", "shallow"} <= set(tiers), domain_id


def test_non_utf8_pages_declare_their_encoding_and_are_not_utf8():
    raw = (CORPUS / NON_UTF8_PAGE).read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert b"charset=windows-1252" in raw
    assert "José Müller" in raw.decode("cp1252")
    assert "José Müller" in visible_text(NON_UTF8_PAGE)

    raw = (CORPUS / GBK_PAGE).read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert b"charset=gbk" in raw
    assert "在线 softmax" in raw.decode("gbk") and "在线 softmax" in visible_text(GBK_PAGE)


def test_special_pages_chinese_script_title_robots_and_trap():
    zh = visible_text("notes/zh/shared-memory-tiling.html")
    assert len(re.findall(r"[\u4e00-\u9fff]", zh)) > 500

    raw = (CORPUS / "blog/2026/static-profiler-reports.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in raw.split("</title>")[0]
    assert "<script>" in soup("blog/2026/static-profiler-reports.html").title.get_text()

    from protego import Protego

    robots = Protego.parse((CORPUS / "robots.txt").read_text())
    assert not robots.can_fetch(BASE + "private/roadmap-2027.html", "shijie")
    assert robots.can_fetch(BASE + "guides/index.html", "shijie")
    assert robots.crawl_delay("shijie") == pytest.approx(0.05)

    trap_links = [a["href"] for a in soup("trap/index.html").find_all("a", href=True)]
    deeper = [
        h
        for h in trap_links
        if not h.startswith(("/", "..", "http")) and urljoin(BASE + "trap/x/", h).startswith(BASE + "trap/x/")
    ]
    assert len(deeper) >= 3, "relative links from a trap page must lead to ever deeper URLs"
