"""The reader's verbs: search, list (ls), export and report, each a few lines around one library call.

``search`` is ``pipeline.query.search``; ``list`` and ``export`` are ``pipeline.export.records`` with the
filters of ``pipeline.store.DocumentFilter``; ``report`` is ``shijie.report`` over what a database holds
(``shijie.job.database_result``). Nothing here writes to the database but the search index, which
``search`` brings in step with the documents when it can.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from pipeline.choices import Level, choose
from pipeline.errors import EmptyCorpusError, UsageError
from pipeline.store import SORTS, DocumentFilter, open_db, open_existing
from shijie import terminal
from shijie.options import DbOpt, JsonOpt, LangOpt, choice, output
from shijie.text import CATALOGUE, Lang, say

# Every type a document can carry: the Vision's (pipeline.vision) and the source kinds of databases scored before
# it; both are named in the catalogue, so a type a user can filter on is also one shijie can print.
DOCUMENT_TYPES = tuple(key.removeprefix("kind.") for key in CATALOGUE if key.startswith("kind."))


class Status(StrEnum):
    """A document's curation state."""

    kept = "kept"
    discarded = "discarded"
    active = "active"  # crawled, not curated yet


class Format(StrEnum):
    csv = "csv"
    jsonl = "jsonl"
    bibtex = "bibtex"


Sort = StrEnum("Sort", {key: key for key in SORTS})  # type: ignore[misc]

LimitOpt = Annotated[int, typer.Option("--limit", help="How many results (1-1000).")]
AllOpt = Annotated[bool, typer.Option("--all", help="Search every document with text, curated ones first.")]
StatusOpt = Annotated[
    list[str] | None,
    typer.Option("--status", help="Only documents in this state: kept, discarded, active (repeatable)."),
]
RelevanceOpt = Annotated[
    list[str] | None, typer.Option("--relevance", help="Only this relevance: high, medium, low (repeatable).")
]
MinValueOpt = Annotated[int | None, typer.Option("--min-value", help="Only documents valued at least this.")]
MaxValueOpt = Annotated[int | None, typer.Option("--max-value", help="Only documents valued at most this.")]
TypeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--type", help="Only this document type (tutorial, guide, paper, api_reference, changelog, …; repeatable)."
    ),
]
DomainOpt = Annotated[
    str | None,
    typer.Option("--domain", help="Only documents covering this domain (at least --min-coverage of it)."),
]
CoverageOpt = Annotated[float, typer.Option("--min-coverage", help="With --domain: the least coverage, 0-1.")]
HostOpt = Annotated[
    list[str] | None,
    typer.Option("--host", help="Only documents from this host or its subdomains (shijie-corpus: the demo)."),
]
SortOpt = Annotated[
    str,
    typer.Option(
        "--sort", help=f"Order by {', '.join(SORTS)} (scores: best first; title, id: A→Z; domain: with --domain)."
    ),
]
ReverseOpt = Annotated[bool, typer.Option("--reverse", help="The other way round.")]


def _choices(kind: type[StrEnum], values: list[str] | None, field: str) -> tuple[str, ...]:
    return tuple(str(choose(kind, value, field)) for value in values or [])


def _filter(
    status: list[str] | None,
    relevance: list[str] | None,
    min_value: int | None,
    max_value: int | None,
    types: list[str] | None,
    domain: str | None,
    min_coverage: float,
    sort: str,
    reverse: bool,
) -> DocumentFilter:
    from pipeline.query import domains

    for name, bound in (("min_value", min_value), ("max_value", max_value)):
        if bound is not None and not 0 <= bound <= 100:
            raise UsageError(f"must be between 0 and 100, not {bound}", field=name)
    if not 0 <= min_coverage <= 1:
        raise UsageError(f"must be between 0 and 1, not {min_coverage}", field="min_coverage")
    known = [d.id for d in domains()]
    if domain is not None and domain not in known:
        raise UsageError(f"{domain} is not a domain; domains: {', '.join(known)}", field="domain")
    wanted = tuple(t.strip() for t in types or [] if t.strip())
    for name in wanted:
        if name not in DOCUMENT_TYPES:
            raise UsageError(f"{name} is not a document type; types: {', '.join(DOCUMENT_TYPES)}", field="type")
    chosen = str(choose(Sort, sort, "sort"))
    if chosen == "domain" and domain is None:
        raise UsageError("domain needs --domain", field="sort")
    return DocumentFilter(
        relevance=_choices(Level, relevance, "relevance"),
        min_value=min_value,
        max_value=max_value,
        types=wanted,
        domain=domain,
        min_coverage=min_coverage if domain else 0.0,
        statuses=_choices(Status, status, "status"),
        sort=chosen,
        reverse=reverse,
    )


def search(
    query: Annotated[
        str,
        typer.Argument(
            help='Words to find, all required: "a phrase", prefix*, -excluded, a OR b (at most 1000 characters).'
        ),
    ],
    limit: LimitOpt = 10,
    every: AllOpt = False,
    status: StatusOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Full-text search (BM25) with snippets: the curated documents, or every document with --all or --status.

    Every word is required (when no document has them all, documents with some of them are shown, and said so).
    "flash attention" in quotes is a phrase; mem* is a prefix; -memory or -"shared memory" excludes; cuda OR hip
    takes either. A camel-case word matches its parts: FlashAttention finds "flash attention" and back. Scores
    are BM25 (a title weighs five times its body); before anything is curated, every crawled document is searched.

    Example: shijie search '"shared memory" bank -tutorial' --all --limit 5
    """
    from pipeline.links import Links
    from pipeline.query import search as search_corpus
    from pipeline.store import served_origins, status_counts, unindexed_documents

    out = output(as_json, lang)
    database = open_existing(db)  # search keeps its index in step where the database can be written
    statuses = list(_choices(Status, status, "status")) or None
    if statuses is None and not every:
        counts = status_counts(database)
        if counts.get(Status.kept):
            statuses = [Status.kept]
        elif counts.get(Status.discarded):  # curated, and nothing kept: say so rather than search the rest
            n = counts[Status.discarded]
            raise EmptyCorpusError(
                f"curation kept no document ({n} discarded): search them with --all, or curate again with a lower"
                " --min-value"
            )
        elif not as_json:
            out.err.print(say("search.uncurated", lang))
    hits = search_corpus(database, query, limit, statuses)
    links = Links(tuple(served_origins(database)))
    out.emit(
        [
            {
                "id": p.document_id,
                "url": p.url,
                "link": links.stable(p.url),
                "title": p.title,
                "status": p.status,
                "value": p.value,
                "snippet": p.text,
                "score": p.score,
                "all_terms": p.all_terms,
            }
            for p in hits
        ]
    )
    if as_json:
        return
    if hits and not hits[0].all_terms:
        out.err.print(say("search.any", lang))
    terminal.search_hits(out.human, hits, lang, links.stable)
    if not hits:
        out.human.print(say("search.none", lang, query=terminal.safe(repr(query))))
    if statuses == [Status.kept] and len(hits) < limit:
        others = [h for h in search_corpus(database, query, limit, [Status.discarded, Status.active])]
        if others:
            out.err.print(say("search.more", lang, n=len(others)))
    missing = unindexed_documents(database)
    if missing:
        out.err.print(say("search.unindexed", lang, n=missing))


def list_(
    relevance: RelevanceOpt = None,
    min_value: MinValueOpt = None,
    max_value: MaxValueOpt = None,
    type_: TypeOpt = None,
    domain: DomainOpt = None,
    min_coverage: CoverageOpt = 0.2,
    status: StatusOpt = None,
    host: HostOpt = None,
    sort: SortOpt = "value",
    reverse: ReverseOpt = False,
    limit: Annotated[int, typer.Option("--limit", help="How many rows to print, 0 for all (JSON: all).")] = 50,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Browse the documents: filter by relevance, value, type, domain, state and host; sort by any figure.

    shijie ls is the same command. A document's type is the one scoring recognised (paper, course, blog, …).

    Example: shijie list --relevance high --min-value 60 --type paper --sort value --limit 20
    """
    from pipeline.export import public, records

    if limit < 0:
        raise UsageError(f"must be at least 0, not {limit}", field="limit")
    out = output(as_json, lang)
    where = _filter(status, relevance, min_value, max_value, type_, domain, min_coverage, sort, reverse)
    found, total = records(open_db(db, read_only=True), where, host or (), None if as_json or limit == 0 else limit)
    out.emit([public(item) for item in found])
    if as_json:
        return
    if not found:
        out.human.print(say("list.none", lang))
        return
    terminal.documents_table(out.human, found, total, lang)


def _writable(path: Path) -> None:
    """A one-line error before any work when ``path`` cannot be written."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a file name", field="output")
    if not folder.is_dir():
        raise UsageError(f"{path}: folder {folder} does not exist", field="output")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write {path}: permission denied", field="output")


def export(
    format_: Annotated[
        Format, typer.Option("--format", parser=choice(Format, "--format"), help="csv, jsonl or bibtex.")
    ] = Format.csv,
    output_file: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (default: stdout).")
    ] = None,
    relevance: RelevanceOpt = None,
    min_value: MinValueOpt = None,
    max_value: MaxValueOpt = None,
    type_: TypeOpt = None,
    domain: DomainOpt = None,
    min_coverage: CoverageOpt = 0.2,
    status: StatusOpt = None,
    host: HostOpt = None,
    sort: SortOpt = "value",
    reverse: ReverseOpt = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Export the documents list selects as CSV, JSON Lines or BibTeX (arXiv papers with their eprint ids).

    Links are written as they outlive the run: a page of the embedded corpus as shijie-corpus:PATH, the path of
    its file in the installed package. With --json, a summary goes to stdout (needs --output).

    Example: shijie export --format bibtex --type paper -o papers.bib
    """
    from pipeline.export import WRITERS, records

    if as_json and output_file is None:
        raise UsageError("--json needs --output FILE (without it, stdout carries the export itself)")
    if output_file is not None:
        _writable(output_file)
    out = output(as_json, lang)
    where = _filter(status, relevance, min_value, max_value, type_, domain, min_coverage, sort, reverse)
    found, _ = records(open_db(db, read_only=True), where, host or ())
    text = WRITERS[format_](found)
    if output_file is None:
        typer.echo(text, nl=False)
        return
    tmp = output_file.with_name(output_file.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, output_file)  # a reader never sees half a file
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {output_file}: {exc.strerror or exc}") from None
    out.emit({"format": format_, "path": str(output_file), "documents": len(found)})
    if not as_json:
        out.err.print(
            say("export.wrote", lang, n=len(found), path=terminal.safe(output_file), format=format_), soft_wrap=True
        )


def report(
    out_dir: Annotated[
        str, typer.Option("--out", help="Folder for report.html (created if needed).")
    ] = "shijie-report",
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Write the HTML report of a database: documents and their reasons, mastery, skills, the knowledge pack.

    Works on any shijie database (run, crawl + score + curate, or an old one); it runs nothing, it shows what
    is stored. Links to pages of the embedded corpus open its files in the installed package.

    Example: shijie report --db shijie.db --out shijie-report --lang zh
    """
    from pipeline.links import Links
    from pipeline.store import served_origins
    from shijie.job import database_result, with_stable_links
    from shijie.report import write_report

    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{out_dir} is a file; give a folder for the report", field="out")
    out = output(as_json, lang)
    results = database_result(db, lang)
    links = Links(tuple(served_origins(open_db(db, read_only=True))))
    try:
        path = write_report(with_stable_links(results, links), folder)
    except OSError as exc:
        raise UsageError(f"cannot write {folder}: {exc.strerror or exc}", field="out") from None
    out.emit({"report": str(path), "documents": len(results.documents)})
    if not as_json:
        out.human.print(say("report.wrote", lang, path=terminal.safe(path)), soft_wrap=True)
