"""shijie search: every document (curated first), phrases, prefixes, exclusion, camel case, BM25 figures that
mean something on a small corpus, bounded queries, and an index that follows the documents."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from pipeline import query
from pipeline.errors import UsageError
from pipeline.store import display_text, fts_text, open_db, parse_search
from pipeline.store.fts import CLOSE, MAX_QUERY_CHARS, OPEN
from tests.conftest import run_shijie
from tests.reader_corpus import build


@pytest.fixture(scope="module")
def curated(tmp_path_factory):
    db = tmp_path_factory.mktemp("search") / "shijie.db"
    ids = build(db)
    for args in (("score",), ("curate", "--min-value", "15")):
        result = run_shijie(*args, "--db", str(db))
        assert result.returncode == 0, result.stderr[-2000:]
    return db, ids


@pytest.fixture
def copy(curated, tmp_path):
    db, ids = curated
    target = tmp_path / "shijie.db"
    shutil.copy(db, target)
    return target, ids


def search(db, *args):
    result = run_shijie("search", *args, "--json", "--db", str(db))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def test_flash_attention_finds_both_flashattention_summaries(curated):
    db, ids = curated
    for words in ("flash attention", '"flash attention"', "FlashAttention", "flashattention"):
        hits, _ = search(db, words, "--limit", "3")
        assert {h["id"] for h in hits[:2]} == {ids["fa2"], ids["fa3"]}, (words, hits)
        assert all(h["score"] > 0 for h in hits)
    hits, _ = search(db, "flash attention")
    assert "[FlashAttention]-3" in hits[0]["snippet"] or "[FlashAttention]-2" in hits[0]["snippet"]


def test_bm25_scores_mean_something_on_a_small_corpus(curated):
    db, _ = curated
    hits, _ = search(db, "warp")  # in most documents: FTS5's own idf is clamped to 1e-6 there, every score 0.0
    assert len(hits) >= 5 and all(h["score"] > 0.05 for h in hits)
    assert hits == sorted(hits, key=lambda h: -h["score"])
    rare, _ = search(db, "TileFlow")  # a rare word weighs more than a common one
    assert rare[0]["score"] > hits[0]["score"]


def test_phrases_prefixes_exclusion_and_or(curated):
    db, ids = curated
    phrase, _ = search(db, '"bank conflicts"')
    assert ids["guide"] in {h["id"] for h in phrase}
    assert all("[bank conflict" in " ".join(h["snippet"].lower().split()) for h in phrase)
    prefix, _ = search(db, "coalesc*")
    assert [h["id"] for h in prefix] == [ids["guide"]] and "[coalescing]" in prefix[0]["snippet"].lower()
    cuda, _ = search(db, "cuda")
    assert ids["streams"] in {h["id"] for h in cuda}
    without, _ = search(db, "cuda -streams")
    assert ids["streams"] not in {h["id"] for h in without}
    excluded_phrase, _ = search(db, 'attention -"log-sum-exp"')
    assert excluded_phrase and all(h["id"] != ids["arxiv"] for h in excluded_phrase)
    either, _ = search(db, "TileFlow OR Deterministic")
    assert {h["id"] for h in either} == {ids["arxiv"], ids["journal"]} and all(h["all_terms"] for h in either)
    dotted, _ = search(db, "numba.cuda.shared.array")
    assert [h["id"] for h in dotted] == [ids["guide"]] and "[numba.cuda.shared.array]" in dotted[0]["snippet"]
    chinese, _ = search(db, "共享内存")
    assert chinese[0]["id"] == ids["zh"] and "[共享内存]" in chinese[0]["snippet"]


def test_a_query_with_no_document_having_every_word_says_so(curated):
    db, _ids = curated
    hits, _ = search(db, "TileFlow dictionaries")
    assert hits and not hits[0]["all_terms"]
    result = run_shijie("search", "TileFlow dictionaries", "--db", str(db))
    assert "no document has every term" in result.stderr


def test_curated_first_and_every_document_on_request(copy):
    db, ids = copy
    conn = sqlite3.connect(db)  # a document discarded with its text kept, as reversible curation leaves it
    conn.execute("UPDATE documents SET status = 'discarded' WHERE id = ?", (ids["fa3"],))
    conn.commit()
    conn.close()
    kept, _ = search(db, "FlashAttention")
    assert ids["fa3"] not in {h["id"] for h in kept}
    result = run_shijie("search", "FlashAttention", "--db", str(db))
    assert "1 more matching document(s) not kept by curation: add --all" in result.stderr
    everything, _ = search(db, "FlashAttention", "--all")
    assert [h["id"] for h in everything] == [ids["fa2"], ids["fa3"]]  # kept first, whatever its score
    assert [h["status"] for h in everything] == ["kept", "discarded"]
    only, _ = search(db, "FlashAttention", "--status", "discarded")
    assert [h["id"] for h in only] == [ids["fa3"]]


def test_documents_crawled_after_curation_are_found(copy):
    from pipeline.extract import Document
    from pipeline.store import store_document

    db, _ = copy
    database = open_db(db)
    doc = Document("html", "Persistent kernels with stream-K", "Persistent kernels with stream-K decomposition.")
    store_document(
        database, "https://new.example.org/streamk", doc, final_url=None, content_type="text/html",
        byte_size=10, etag=None, last_modified=None, depth=0,
    )  # fmt: skip
    database.conn.commit()
    hits, _ = search(db, "stream-K", "--all")
    assert [h["title"] for h in hits] == ["Persistent kernels with stream-K"] and hits[0]["status"] == "active"


def test_before_curation_every_crawled_document_is_searched(tmp_path):
    db = tmp_path / "fresh.db"
    ids = build(db)
    hits, _stderr = search(db, "TileFlow")
    assert [h["id"] for h in hits] == [ids["arxiv"]] and hits[0]["value"] is None
    result = run_shijie("search", "TileFlow", "--db", str(db))
    assert "nothing curated yet: searching every crawled document" in result.stderr


def test_an_index_from_before_is_rebuilt_with_every_document(copy):
    db, ids = copy
    conn = sqlite3.connect(db)  # the layout curation wrote before: kept documents only, no version column
    conn.execute("DROP TABLE documents_fts")
    conn.execute("CREATE VIRTUAL TABLE documents_fts USING fts5(title, body)")
    conn.commit()
    conn.close()
    hits, _ = search(db, "TileFlow")
    assert [h["id"] for h in hits] == [ids["arxiv"]]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--limit", "0"], "error: --limit must be between 1 and 1000, not 0"),
        (["--limit", "5000"], "error: --limit must be between 1 and 1000, not 5000"),
        (["--status", "lost"], "error: --status must be kept, discarded or active, not 'lost'"),
    ],
)
def test_bad_options_are_one_line(curated, args, line):
    db, _ = curated
    result = run_shijie("search", "warp", *args, "--db", str(db))
    assert (result.returncode, result.stderr.strip(), result.stdout) == (1, line, "")


def test_queries_are_bounded(curated):
    db, _ = curated
    result = run_shijie("search", "warp " * 800, "--db", str(db))  # 4,000 characters took 42 s
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: query is 4000 characters long; at most {MAX_QUERY_CHARS}"
    hits, _ = search(db, " ".join(["warp"] * 150))  # repeated words are one term
    assert hits
    many = " ".join(f"w{n}" for n in range(30))
    result = run_shijie("search", many, "--db", str(db))
    assert result.stderr.strip() == "error: query has 30 distinct terms; at most 24"
    for empty, line in (("-- ... !", "query needs at least one word to find"), ("-memory", "(-word only excludes)")):
        result = run_shijie("search", "--db", str(db), "--", empty)
        assert result.returncode == 1 and line in result.stderr


def test_the_query_language_in_the_library():
    parsed = parse_search('"flash attention" mem* -"shared memory" -bank cuda OR hip FlashAttention')
    assert parsed.groups == (('"flash attention"',), ('"mem" *',), ('"cuda"', '"hip"'), ('"Flash Attention"',))
    assert parsed.excluded == ('"shared memory"', '"bank"')
    assert parsed.expression() == (
        '("flash attention" AND "mem" * AND ("cuda" OR "hip") AND "Flash Attention") NOT ("shared memory" OR "bank")'
    )
    with pytest.raises(UsageError, match="needs at least one word"):
        parse_search('"" -- *')


def test_indexed_text_and_its_display_round_trip():
    indexed = fts_text("Using FlashAttention-2 with 共享内存 on GPUs")
    assert "\x02Flash Attention\x03FlashAttention-2" in indexed
    assert display_text(indexed) == "Using FlashAttention-2 with 共享内存 on GPUs"
    assert (
        display_text(fts_text("warp 内的 bank conflict 会降低吞吐。中 文"))
        == "warp 内的 bank conflict 会降低吞吐。中 文"
    )
    spaced = fts_text("内的 bank 共享")
    marked = spaced.replace("bank", f"{OPEN}bank{CLOSE}").replace(" 共 ", f" {OPEN}共 ").replace(" 享 ", f" 享{CLOSE} ")
    assert display_text(marked) == f"内的 {OPEN}bank{CLOSE} {OPEN}共享{CLOSE}"
    # a match on the camel-case parts marks the word; a snippet cut inside the parts loses nothing shown
    assert (
        display_text(f"\x02{OPEN}Flash Attention{CLOSE}\x03FlashAttention-2 is") == f"{OPEN}FlashAttention{CLOSE}-2 is"
    )
    assert display_text(f"…{OPEN}Attention{CLOSE}\x03FlashAttention rocks") == f"…{OPEN}FlashAttention{CLOSE} rocks"
    assert display_text("ends with \x02Flash Att…") == "ends with …"
    text, marks = query.marked(f"a {OPEN}warp{CLOSE} [x] b")
    assert text == "a [warp] [x] b" and marks == ((2, 8),)
