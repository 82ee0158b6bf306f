"""shijie list (ls) filters and sorts the documents; shijie export writes them as CSV, JSON Lines and BibTeX."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from pipeline.export import latex
from tests.conftest import run_shijie
from tests.reader_corpus import HOSTILE_FORMULA, build_curated


@pytest.fixture(scope="module")
def curated(tmp_path_factory):
    db = tmp_path_factory.mktemp("list") / "shijie.db"
    return db, build_curated(db)


def listed(db, *args):
    result = run_shijie("list", *args, "--json", "--db", str(db))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_list_every_document_best_first_with_its_state(curated):
    db, ids = curated
    rows = listed(db)
    assert len(rows) == len(ids)
    values = [row["value"] for row in rows]
    assert values == sorted(values, reverse=True)
    assert {row["status"] for row in rows} == {"kept", "discarded"}
    assert listed(db, "--sort", "value", "--reverse")[0]["id"] == ids["python"]
    assert [row["id"] for row in listed(db, "--sort", "id")] == sorted(ids.values())
    titles = [row["title"].lower() for row in listed(db, "--sort", "title")]
    assert titles == sorted(titles)


def test_list_filters(curated):
    db, ids = curated
    # curation (--min-value 15) discarded exactly the documents valued below 15: the off-topic page, not the best
    below = {row["id"] for row in listed(db) if row["value"] < 15}
    assert {row["id"] for row in listed(db, "--status", "discarded")} == below
    assert ids["python"] in below and ids["arxiv"] not in below and ids["guide"] not in below
    papers = listed(db, "--type", "paper")
    assert {ids["arxiv"], ids["journal"]} <= {row["id"] for row in papers}
    assert all(row["type"] == "paper" for row in papers)
    high = listed(db, "--relevance", "high")
    assert high and all(row["relevance"] == "high" for row in high)
    # a repeated option is an OR: exactly the rows of either level (whether any page sits at medium is the model's)
    both = listed(db, "--relevance", "high", "--relevance", "medium")
    either = {row["id"] for row in listed(db) if row["relevance"] in ("high", "medium")}
    assert {row["id"] for row in both} == either and set(either) >= {row["id"] for row in high}
    assert {row["id"] for row in listed(db, "--relevance", "low", "--relevance", "high")} > {row["id"] for row in high}
    band = listed(db, "--min-value", "40", "--max-value", "60")
    assert band and all(40 <= row["value"] <= 60 for row in band)
    assert {row["id"] for row in listed(db, "--host", "arxiv.org")} == {ids["arxiv"], ids["journal"]}
    assert {row["id"] for row in listed(db, "--host", "example.com")} == {ids["guide"], ids["streams"]}
    gpu = listed(db, "--domain", "gpu_architecture", "--sort", "domain")
    shares = [row["domains"]["gpu_architecture"] for row in gpu]
    assert gpu and min(shares) >= 0.2 and shares == sorted(shares, reverse=True)
    ls = run_shijie("ls", "--status", "discarded", "--json", "--db", str(db))
    assert {row["id"] for row in json.loads(ls.stdout)} == below


def test_list_prints_a_table(curated):
    db, _ = curated
    result = run_shijie("list", "--limit", "3", "--db", str(db))
    assert result.returncode == 0 and "3 of 13 documents" in result.stdout and "TileFlow" in result.stdout
    none = run_shijie("list", "--min-value", "100", "--db", str(db))
    assert none.stdout.strip() == "no document matches these filters"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--relevance", "huge"], "error: --relevance must be high, medium or low, not 'huge'"),
        (["--min-value", "101"], "error: --min-value must be between 0 and 100, not 101"),
        (["--domain", "cooking"], "error: --domain cooking is not a domain; domains: gpu_architecture, "),
        (["--type", "recipe"], "error: --type recipe is not a document type; types: article, paper, "),
        (["--sort", "colour"], "error: --sort must be value, relevance, redundancy, title, id, "),
        (["--sort", "domain"], "error: --sort domain needs --domain"),
        (["--limit", "-1"], "error: --limit must be at least 0, not -1"),
    ],
)
def test_list_bad_options_are_one_line(curated, args, line):
    db, _ = curated
    result = run_shijie("list", *args, "--db", str(db))
    assert result.returncode == 1 and result.stderr.startswith(line) and result.stderr.count("\n") == 1


def test_export_csv_and_jsonl(curated, tmp_path):
    db, ids = curated
    result = run_shijie("export", "--format", "csv", "--status", "kept", "--db", str(db))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    kept = {str(row["id"]) for row in listed(db, "--status", "kept")}
    assert {row["id"] for row in rows} == kept and str(ids["python"]) not in kept
    assert rows[0]["id"] == str(ids["arxiv"])
    every = list(csv.DictReader(io.StringIO(run_shijie("export", "--format", "csv", "--db", str(db)).stdout)))
    assert len(every) == len(ids)
    formula = next(row for row in every if row["id"] == str(ids["formula"]))
    assert formula["title"] == "'" + HOSTILE_FORMULA  # a spreadsheet shows it, never runs it
    assert json.loads(rows[0]["domains"])["gpu_architecture"] >= 0
    target = tmp_path / "all.jsonl"
    result = run_shijie("export", "--format", "jsonl", "-o", str(target), "--json", "--db", str(db))
    assert json.loads(result.stdout) == {"format": "jsonl", "path": str(target), "documents": len(ids)}
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [row["id"] for row in listed(db)]
    assert lines[0]["arxiv_id"] == "2401.01234" and lines[0]["authors"] == ["Ines Albrecht", "Tomasz Wierzbicki"]


def test_export_bibtex_papers_with_their_arxiv_ids(curated):
    db, ids = curated
    result = run_shijie("export", "--format", "bibtex", "--db", str(db))
    assert result.returncode == 0, result.stderr
    entries = re.split(r"\n(?=@)", result.stdout.strip())
    assert len(entries) == len(ids)
    tileflow = next(e for e in entries if "2401.01234" in e)
    assert tileflow.startswith("@misc{albrecht2024tileflow,")
    for field in (
        "eprint = {2401.01234}",
        "archivePrefix = {arXiv}",
        "primaryClass = {cs.DC}",
        "author = {Ines Albrecht and Tomasz Wierzbicki}",
        "year = {2024}",
        "url = {https://arxiv.org/abs/2401.01234}",
    ):
        assert field in tileflow
    journal = next(e for e in entries if "2403.04567" in e)
    assert journal.startswith("@article{") and "journal = {Proc. MLSys 2024}" in journal
    assert r"Without Atomics \& \{Braces\}" in journal  # a title cannot close its field
    for entry in entries:
        assert entry.count("{") - entry.count(r"\{") == entry.count("}") - entry.count(r"\}")
    assert latex("50% of a_b {x} \\ ~ ^ # $ &") == r"50\% of a\_b \{x\} \textbackslash{} \~{} \^{} \# \$ \&"


def test_export_errors_before_any_work(curated, tmp_path):
    db, _ = curated
    missing = tmp_path / "no-such-folder" / "out.csv"
    result = run_shijie("export", "-o", str(missing), "--db", str(db))
    assert (result.returncode, result.stderr.strip()) == (
        1,
        f"error: --output {missing}: folder {missing.parent} does not exist",
    )
    result = run_shijie("export", "--json", "--db", str(db))  # under --json, the error is the JSON on stdout
    assert result.returncode == 1 and result.stderr == ""
    assert json.loads(result.stdout)["error"].startswith("--json needs --output")
    result = run_shijie("export", "--format", "xml", "--db", str(db))
    assert result.stderr.strip() == "error: --format must be csv, jsonl or bibtex, not 'xml'"
