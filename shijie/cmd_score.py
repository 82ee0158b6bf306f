"""Commands of the score and curate stages: score, show, mark, curate, mastery (``search`` and the other
reader's verbs are in ``cmd_read``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from pipeline.choices import Label
from pipeline.curate import DEFAULT_MIN_VALUE
from pipeline.curate import curate as curate_corpus
from pipeline.errors import UsageError
from pipeline.profile import default_profile, load_profile, profile_from_topic
from pipeline.query import mastery as corpus_mastery
from pipeline.query import resolve_document
from pipeline.score import score_corpus
from pipeline.store import (
    DocumentRef,
    document_scores,
    document_text,
    document_type,
    label_counts,
    mark_document,
    open_db,
)
from shijie import terminal
from shijie.options import DbOpt, JsonOpt, LangOpt, choice, output
from shijie.text import Lang, document_panel, say

if TYPE_CHECKING:
    from pipeline.store import Database

TopicOpt = Annotated[str | None, typer.Option("--topic", help="Score against this topic instead of the default.")]
ProfileOpt = Annotated[
    str | None, typer.Option("--profile", help="Score against a profile file (TOML: text + [terms]).")
]
LimitOpt = Annotated[int, typer.Option("--limit", help="How many rows to print (JSON always has all).")]
DocArg = Annotated[
    str,
    typer.Argument(help="Document id, URL (any spelling), path of a crawled file, or shijie-corpus: reference."),
]


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
    if limit < 0:
        raise UsageError(f"must be at least 0, not {limit}", field="limit")
    chosen = profile_from_topic(topic) if topic else load_profile(profile) if profile else default_profile()
    scored = score_corpus(open_db(db), chosen)
    out.emit([s.as_json() for s in scored])
    if not as_json:
        terminal.score_table(out.human, scored, chosen.name, limit, lang)


def _document(database: Database, doc: str) -> DocumentRef:
    found = resolve_document(database, doc)
    if found is None:
        raise UsageError(f"no document {doc!r} (give an id, a URL or a path; shijie list shows them)")
    return found


def show(
    doc: DocArg,
    text: Annotated[bool, typer.Option("--text", help="Also print the document's extracted text.")] = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Show a document's Vision panel and the reasons behind each figure; --text adds its extracted text.

    DOC is what you have at hand: its id, its URL as you typed or copied it (http or https, with or without a
    trailing slash), the path of a crawled file (relative, with ~), or a shijie-corpus: reference.

    Example: shijie show 3 --lang zh
    """
    from pipeline.links import Links
    from pipeline.store import served_origins

    out = output(as_json, lang)
    database = open_db(db, read_only=True)
    found = _document(database, doc)
    stored = document_scores(database, found.id)
    if stored is None:
        raise UsageError(f"document {found.id} is not scored yet: run shijie score")
    links = Links(tuple(served_origins(database)))
    components = stored.components
    uniqueness = components.get("uniqueness") or {}
    dup_url = uniqueness.get("duplicate_of_url")
    shown = {
        "id": found.id,
        "url": found.url,
        "link": links.stable(found.url),
        "title": found.title,
        "status": found.status,
        "type": document_type(database, found.id),
        "panel": document_panel(stored.value, stored.relevance, stored.redundancy, lang),
        "value": stored.value,
        "relevance": stored.relevance,
        "relevance_score": stored.relevance_score,
        "redundancy": stored.redundancy,
        "redundancy_score": stored.redundancy_score,
        "duplicate_of": dup_url,
        "duplicate_of_link": links.stable(dup_url),
        "duplicate_of_id": stored.duplicate_of,
        "domains": stored.domains,
        "topic": stored.topic,
        "components": components,
    }
    body = document_text(database, found.id) if text else None
    out.emit(shown | ({"text": body} if text else {}))
    if not as_json:
        terminal.document_view(out.human, shown, lang)
        if text:
            out.human.print()
            terminal.document_text(out.human, body, lang)


def mark(
    doc: DocArg,
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
    mark_document(database, found.id, label)
    counts = label_counts(database)
    out.emit({"id": found.id, "url": found.url, "label": label, "labels": counts})
    if not as_json:
        out.human.print(
            say(
                "mark.done",
                lang,
                id=found.id,
                label=say(f"label.{label}", lang),
                good=counts.get("good", 0),
                bad=counts.get("bad", 0),
            )
        )


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
            f"  {change.id:>5} {before} → {after}  {change.value:>3}  {terminal.fit(terminal.clean(change.title or change.url), 60)}"
            f"  ({change.reason})",
            markup=False,
            soft_wrap=True,
        )
    if len(result.changes) > CHANGES_SHOWN:
        out.human.print("  " + say("safe.changes_more", lang, n=len(result.changes) - CHANGES_SHOWN), markup=False)
    terminal.mastery_lines(out.human, result.mastery, lang)


def mastery(db: DbOpt = None, as_json: JsonOpt = False, lang: LangOpt = Lang.en) -> None:
    """Domain mastery of the curated corpus: overall and a bar per domain.

    Example: shijie mastery --lang zh
    """
    out = output(as_json, lang)
    m = corpus_mastery(open_db(db, read_only=True))
    payload = {"overall": m.overall, "domains": m.domains}
    out.emit(payload)
    if not as_json:
        terminal.mastery_lines(out.human, payload, lang)
