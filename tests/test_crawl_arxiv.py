"""arXiv seeds against a fake arXiv API on loopback: paging, request spacing, version replacement."""

import json
from itertools import pairwise
from urllib.parse import parse_qs, urlsplit

from siteserver import Reply, Site

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db


def feed(entries, total, start):
    items = "".join(
        f"""<entry><id>http://arxiv.org/abs/{pid}v{version}</id><published>2024-01-0{i % 9 + 1}T00:00:00Z</published>
        <updated>2024-02-01T00:00:00Z</updated><title>Paper {pid} version {version}</title>
        <summary>Abstract of {pid}, revision {version}, about tiling attention on GPUs.</summary>
        <author><name>Author {i}</name></author><author><name>Second Author</name></author>
        <link title="pdf" href="http://arxiv.org/pdf/{pid}v{version}" rel="related" type="application/pdf"/></entry>"""
        for i, (pid, version) in enumerate(entries)
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"
      xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>query</title>
      <opensearch:totalResults>{total}</opensearch:totalResults><opensearch:startIndex>{start}</opensearch:startIndex>
      <opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>{items}</feed>""".encode()


class FakeArxiv:
    def __init__(self, papers):
        self.papers = papers  # list of (id, version)

    def __call__(self, req):
        query = parse_qs(urlsplit(req.path).query)
        start, size = int(query["start"][0]), int(query["max_results"][0])
        assert query["search_query"] == ["all:flash attention"]
        return Reply(
            body=feed(self.papers[start : start + size], len(self.papers), start),
            content_type="application/atom+xml; charset=utf-8",
        )


def test_paging_spacing_and_version_replacement(db_path, monkeypatch):
    api = FakeArxiv([("2401.00001", 1), ("2401.00002", 1), ("2401.00003", 2), ("2401.00004", 1), ("2401.00005", 1)])
    site = Site()
    site.route("/api/query", api)
    db = open_db(db_path)
    with site.serve() as base:
        monkeypatch.setenv("SHIJIE_ARXIV_API", base + "/api/query")
        settings = dict(delay=0, arxiv_page_size=2, arxiv_delay=0.4)
        stats = crawl(db, ["arxiv:all:flash attention"], CrawlSettings(**settings))
        starts = [int(parse_qs(urlsplit(r.path).query)["start"][0]) for r in site.requests]
        assert starts == [0, 2, 4]  # three pages, in order; no robots.txt asked of an API
        gaps = [b.at - a.at for a, b in pairwise(site.requests)]
        assert min(gaps) >= 0.3  # one request per arxiv_delay at most (3 s by default)
        assert stats.stored == 5
        row = db.execute("SELECT id, url, kind, title, metadata FROM documents WHERE url LIKE '%2401.00003'").fetchone()
        doc_id, url, kind, _, meta = row
        assert (url, kind) == ("https://arxiv.org/abs/2401.00003", "arxiv")
        meta = json.loads(meta)
        assert meta["arxiv_id"] == "2401.00003" and meta["version"] == 2 and len(meta["authors"]) == 2
        assert meta["pdf_url"] == "http://arxiv.org/pdf/2401.00003v2" and meta["published"].startswith("2024-01")

        # A later crawl sees v3 of one paper: the row is replaced in place, nothing is added.
        api.papers[2] = ("2401.00003", 3)
        again = crawl(db, ["arxiv:all:flash attention"], CrawlSettings(**settings, recrawl=True))
    assert again.updated == 1 and again.stored == 0
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == 5
    new_id, new_title, new_meta = db.execute(
        "SELECT id, title, metadata FROM documents WHERE url LIKE '%2401.00003'"
    ).fetchone()
    assert new_id == doc_id and json.loads(new_meta)["version"] == 3 and "version 3" in new_title


def test_an_older_version_never_replaces_a_newer_one(db_path, monkeypatch):
    site = Site()
    api = FakeArxiv([("2402.00001", 2), ("2402.00001", 1)])  # v2 on page one, a stale v1 on page two
    site.route("/api/query", api)
    db = open_db(db_path)
    with site.serve() as base:
        monkeypatch.setenv("SHIJIE_ARXIV_API", base + "/api/query")
        stats = crawl(db, ["arxiv:all:flash attention"], CrawlSettings(delay=0, arxiv_page_size=1, arxiv_delay=0.05))
    assert stats.stored == 1 and len(site.requests) == 2
    assert json.loads(db.execute("SELECT metadata FROM documents").fetchone()[0])["version"] == 2


def test_default_arxiv_pace_is_one_request_per_three_seconds():
    assert CrawlSettings().arxiv_delay >= 3.0
