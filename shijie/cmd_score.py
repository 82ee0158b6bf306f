"""Commands of the score and curate stages: score, show, mark, curate, search, mastery."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.choices import Label
from pipeline.curate import DEFAULT_MIN_VALUE
from pipeline.curate import curate as curate_corpus
from pipeline.errors import EmptyCorpusError, UsageError
from pipeline.profile import default_profile, load_profile, profile_from_topic
from pipeline.query import domains as list_domains
from pipeline.query import mastery as corpus_mastery
from pipeline.query import search as search_corpus
from pipeline.score import score_corpus
from pipeline.store import (
    DocumentRef,
    document_scores,
    find_document,
    has_kept_documents,
    label_counts,
    mark_document,
    open_db,
)
from shijie.options import DbOpt, JsonOpt, LangOpt, choice, output
from shijie.output import Output
from shijie.text import Lang, document_panel, level_text, mastery_panel, say

if TYPE_CHECKING:
    from pipeline.store import Database

TopicOpt = Annotated[str | None, typer.Option("--topic", help="Score against this topic instead of the default.")]
ProfileOpt = Annotated[
    str | None, typer.Option("--profile", help="Score against a profile file (TOML: text + [terms]).")
]
LimitOpt = Annotated[int, typer.Option("--limit", help="How many rows to print (JSON always has all).")]


def score(
    topic: TopicOpt = None,
    profile: ProfileOpt = None,
    limit: LimitOpt = 30,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Score every document: value 0-100, relevance, redundancy, domain coverage; prints the ranking.

    Example: shijie score --topic "fused attention backward on a new GPU"
    """
    out = output(as_json, lang)
    if topic and profile:
        raise UsageError("give --topic or --profile, not both")
    chosen = profile_from_topic(topic) if topic else load_profile(profile) if profile else default_profile()
    scored = score_corpus(open_db(db), chosen)
    out.emit([s.as_json() for s in scored])
    if not as_json:
        from rich.table import Table

        table = Table(title=f"{len(scored)} documents scored against '{chosen.name}'")
        for column in ("id", "value", "relevance", "redundancy", "title"):
            table.add_column(column)
        for s in scored[:limit]:
            table.add_row(
                str(s.id),
                str(s.value),
                level_text(s.relevance, lang),
                level_text(s.redundancy, lang) + (f" → {s.duplicate_of}" if s.duplicate_of else ""),
                s.title[:70],
            )
        out.human.print(table)


def _document(database: Database, doc: str) -> DocumentRef:
    found = find_document(database, doc)
    if found is None:
        raise UsageError(f"no document {doc!r} (give an id or a URL; shijie score lists them)")
    return found


def show(
    doc: Annotated[str, typer.Argument(help="Document id or URL.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Show a document's Vision panel and the reasons behind each figure.

    Example: shijie show 3 --lang zh
    """
    out = output(as_json, lang)
    database = open_db(db, read_only=True)
    found = _document(database, doc)
    doc_id, url, title, status = found.id, found.url, found.title, found.status
    stored = document_scores(database, doc_id)
    if stored is None:
        raise UsageError(f"document {doc_id} is not scored yet: run shijie score")
    value, relevance, rel_score = stored.value, stored.relevance, stored.relevance_score
    redundancy, red_score, dup = stored.redundancy, stored.redundancy_score, stored.duplicate_of
    doms, components, topic = stored.domains, stored.components, stored.topic
    panel = document_panel(value, relevance, redundancy, lang)
    dup_url = components["uniqueness"].get("duplicate_of_url")
    out.emit(
        {
            "id": doc_id,
            "url": url,
            "title": title,
            "status": status,
            "panel": panel,
            "value": value,
            "relevance": relevance,
            "relevance_score": rel_score,
            "redundancy": redundancy,
            "redundancy_score": red_score,
            "duplicate_of": dup_url,
            "duplicate_of_id": dup,
            "domains": doms,
            "topic": topic,
            "components": components,
        }
    )
    if as_json:
        return
    h = out.human
    h.print(f"{title}\n{url}  ({status})")
    h.print(panel)
    rel = components["relevance"]
    h.print(
        say("show.relevance", lang) + f" {rel_score:.2f} ({topic}): term evidence {rel['term_evidence']:.2f},"
        f" cosine {rel['cosine']:.2f}"
        + (f", label model {rel['label_model']:.2f}" if rel["label_model"] is not None else "")
    )
    if rel["top_terms"]:
        h.print("  top terms: " + ", ".join(f"{t['term']} ({t['weight']:.3f})" for t in rel["top_terms"]))
    if rel["matched_terms"]:
        h.print("  profile terms: " + ", ".join(f"{t['term']}×{t['count']}" for t in rel["matched_terms"]))
    h.print(
        say("show.redundancy", lang)
        + f" {red_score:.2f}"
        + (
            f": repeats document {dup} {dup_url} (Jaccard {components['uniqueness']['jaccard']:.2f})"
            if dup
            else ": repeats nothing ranked above it"
        )
    )
    src = components["source"]
    h.print(f"Source: {src['kind']} (prior {src['prior']:.2f}; {'; '.join(src['reasons'])})")
    h.print(f"Depth {components['depth']['score']:.2f}: " + "; ".join(components["depth"]["reasons"]))
    parts = components["value"]
    h.print(
        say("show.value", lang)
        + f" {value} = ("
        + " + ".join(
            f"{k} {parts[k]['figure']:.2f}×{parts[k]['weight']}" for k in ("relevance", "depth", "uniqueness", "source")
        )
        + f") × gate {parts['relevance_gate']:.2f} × substance {parts.get('substance', 1.0):.2f}"
    )
    titles = _domain_titles(lang)
    h.print(
        say("show.domains", lang) + ": " + ", ".join(f"{titles.get(k, k)} {v:.2f}" for k, v in doms.items() if v > 0)
    )


def mark(
    doc: Annotated[str, typer.Argument(help="Document id or URL.")],
    label: Annotated[Label, typer.Argument(parser=choice(Label, "label"), help="Whether it is worth reading.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Mark a document good or bad; the next shijie score learns from the marks.

    Example: shijie mark 3 good
    """
    out = output(as_json, lang)
    database = open_db(db)
    found = _document(database, doc)
    doc_id, url = found.id, found.url
    mark_document(database, doc_id, label)
    counts = label_counts(database)
    out.emit({"id": doc_id, "url": url, "label": label, "labels": counts})
    if not as_json:
        out.human.print(
            f"marked {doc_id} {label} ({counts.get('good', 0)} good, {counts.get('bad', 0)} bad); run shijie score to use it"
        )


def _domain_titles(lang: Lang) -> dict[str, str]:
    return {d.id: (d.title_zh if lang == Lang.zh else d.title) for d in list_domains()}


def _mastery_lines(out: Output, m: dict, lang: Lang) -> None:
    titles = _domain_titles(lang)
    out.human.print(mastery_panel(m["overall"], lang))
    width = max((len(t) for t in titles.values()), default=10)
    for domain_id, share in m["domains"].items():
        bar = "█" * round(share * 30)
        out.human.print(f"  {titles.get(domain_id, domain_id):<{width}} {bar:<30} {100 * share:5.1f}%")


CHANGES_SHOWN = 20  # lines of changes a person sees; --json lists every one


def curate(
    min_value: Annotated[
        int, typer.Option("--min-value", help="Keep documents valued at least this (0-100).")
    ] = DEFAULT_MIN_VALUE,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be kept and discarded, and change nothing.")
    ] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Keep the best scored documents (one per duplicate group), discard the rest, index for search.

    Discarding is a state, not a deletion: a discarded document keeps its text, and curating again at a lower
    --min-value keeps it again. A later crawl skips discarded URLs.

    Example: shijie curate --min-value 50 --dry-run
    """
    out = output(as_json, lang)
    database = open_db(db, read_only=True) if dry_run else open_db(db)
    result = curate_corpus(database, min_value, dry_run=dry_run)
    out.emit(result.as_json())
    if as_json:
        return
    counts = {"kept": result.kept, "discarded": result.discarded, "min_value": min_value}
    if dry_run:
        out.human.print(say("safe.dry_run", lang, changes=len(result.changes), **counts), markup=False, soft_wrap=True)
    else:
        out.human.print(say("safe.curated", lang, restored=result.restored, **counts), markup=False, soft_wrap=True)
    for change in result.changes[:CHANGES_SHOWN]:
        before, after = (say(f"safe.state_{state}", lang) for state in (change.before, change.after))
        out.human.print(
            f"  {change.id:>5} {before} → {after}  {change.value:>3}  {(change.title or change.url)[:60]}"
            f"  ({change.reason})",
            markup=False,
            soft_wrap=True,
        )
    if len(result.changes) > CHANGES_SHOWN:
        out.human.print("  " + say("safe.changes_more", lang, n=len(result.changes) - CHANGES_SHOWN), markup=False)
    _mastery_lines(out, result.mastery, lang)


def search(
    query: Annotated[str, typer.Argument(help="Words to find in the curated corpus.")],
    limit: Annotated[int, typer.Option("--limit", help="How many results.")] = 10,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Full-text search (BM25) over the curated corpus, with snippets.

    Example: shijie search "shared memory bank conflicts"
    """
    out = output(as_json, lang)
    database = open_db(db, read_only=True)
    if not has_kept_documents(database):
        raise EmptyCorpusError("nothing curated yet: run shijie score and shijie curate first")
    hits = search_corpus(database, query, limit)
    out.emit([{"id": p.document_id, "url": p.url, "title": p.title, "snippet": p.text, "score": p.score} for p in hits])
    if not as_json:
        if not hits:
            out.human.print(f"no curated document matches {query!r}")
        for p in hits:
            out.human.print(
                f"[bold]{p.document_id}[/bold] {p.title}  ({p.score:.2f})\n  {p.url}\n  {p.text}\n", markup=True
            )


def mastery(db: DbOpt = None, as_json: JsonOpt = False, lang: LangOpt = Lang.en) -> None:
    """Domain mastery of the curated corpus: overall and a bar per domain.

    Example: shijie mastery --lang zh
    """
    out = output(as_json, lang)
    m = corpus_mastery(open_db(db, read_only=True))
    payload = {"overall": m.overall, "domains": m.domains}
    out.emit(payload)
    if not as_json:
        _mastery_lines(out, payload, lang)
