"""The Vision's reasons in words: a scored document's ``components`` turned into the lines ``shijie show`` and
the HTML report print, in English or Chinese (the words are shijie.text's ``why.*``, ``feature.*``, ``cue.*``
and ``kind.*`` entries).

``reasons(shown, lang)`` takes what ``shijie show --json`` gives (``components``, the figures, the topic, the
copy's address) and returns ``Line``s, each a heading and a text. The text quotes crawled material (terms,
addresses), so a renderer escapes it (``terminal.safe``, ``html.escape``); the headings are ours.

    Type        guide (guide 81%, tutorial 12%)
    Relevance 0.83 to operator-adaptation: topic profile 0.74 (topic terms 1.20, TF-IDF cosine 0.31); learned
                topic model 0.93, blended half and half
      terms found   shared memory ×12, warp ×30 (sense 0.91), thread ×8 (general term, counts 100%)
      senses        kernel read in the GPU-kernel sense (0.91)
    Redundancy  0.00: repeats no copy preferred over it
    Value 87    34.1 an average labelled document
                +16.2 topic terms present (4.04) …
                = 90.2, kept within 0–100: 90; your marks +0.0; × relevance gate 1.00; × administrative … 1.00
    Form        2737 words; 79% explanatory prose, 22% code (2 blocks); 14 headings; 40 measurements, 70 math

Components written before the Vision (``source``, ``depth.reasons``) have none of these keys: a document
scored by an older shijie shows its figures only, until the next ``shijie score``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shijie.text import CATALOGUE, Lang, say

TERMS_SHOWN = 6
_COUNTED = ("cue_", "distinct_", "head_", "file_")  # features that count words: 0 reads "none"
CONTRIBUTIONS_SHOWN = 8
_FILE_KINDS = {
    "changelog": "changelog",
    "licence": "licence",
    "install": "install",
    "contributing": "contributing",
    "readme": "readme",
    "agent": "agent_notes",
    "index": "toc",
    "source": "generated",
}


@dataclass(frozen=True)
class Line:
    heading: str  # ours, in the language asked for
    text: str  # may quote crawled text: escape it where it is printed as markup
    indent: int = 0


def kind_words(kind: str | None, lang: Lang | str) -> str:
    key = f"kind.{kind}"
    return say(key, lang) if key in CATALOGUE else str(kind or "-")


def feature_words(name: str, lang: Lang | str) -> str:
    """What a value feature measures, in words (``feature.NAME``, or its family's template)."""
    key = f"feature.{name}"
    if key in CATALOGUE:
        return say(key, lang)
    if name.startswith("type:"):
        return say("feature.type:", lang, type=kind_words(name[5:], lang))
    if name.startswith("file_") and name[5:] in _FILE_KINDS:
        return say("feature.file_", lang, kind=kind_words(_FILE_KINDS[name[5:]], lang))
    for prefix in ("cue_", "distinct_", "head_"):
        cue = f"cue.{name[len(prefix) :]}"
        if name.startswith(prefix) and cue in CATALOGUE:
            return say(f"feature.{prefix}", lang, cue=say(cue, lang))
    return name


def _pct(share: float) -> str:
    return f"{100 * share:.0f}%"


def _signed(points: float) -> str:
    return f"{points:+.1f}".replace("-", "−")


def reasons(shown: dict[str, Any], lang: Lang | str = Lang.en) -> list[Line]:
    """The lines behind a document's panel; see the module docstring."""
    c = shown.get("components") or {}
    lines: list[Line] = []
    raw_type = c.get("type")
    kind: dict[str, Any] = raw_type if isinstance(raw_type, dict) else {}
    if kind.get("type"):
        probabilities = ", ".join(
            f"{kind_words(t, lang)} {_pct(p)}"
            for t, p in sorted((kind.get("probabilities") or {}).items(), key=lambda item: -item[1])[:3]
        )
        text = say("why.type", lang, type=kind_words(kind["type"], lang), probabilities=probabilities)
        if kind.get("admin"):
            text += say("punct.semicolon", lang) + say("why.type_admin", lang)
        lines.append(Line(say("show.type_heading", lang), text))
    lines += _relevance(shown, c.get("relevance") or {}, lang)
    lines += _redundancy(shown, c.get("uniqueness") or {}, lang)
    lines += _value(shown, c.get("value") or {}, c.get("words") or {}, lang)
    form = c.get("form") or {}
    if form:
        lines.append(
            Line(
                say("show.form", lang),
                say(
                    "why.form",
                    lang,
                    words=form.get("words", 0),
                    prose=_pct(form.get("prose_share", 0.0)),
                    code=_pct(form.get("code_share", 0.0)),
                    blocks=form.get("code_blocks", 0),
                    headings=form.get("headings", 0),
                    measurements=form.get("measurements", 0),
                    math=form.get("math", 0),
                ),
            )
        )
    return lines


def _relevance(shown: dict[str, Any], rel: dict[str, Any], lang: Lang | str) -> list[Line]:
    score = f"{shown.get('relevance_score', 0.0):.2f}"
    heading = (
        f"{say('show.relevance', lang)} {say('why.relevance', lang, score=score, topic=shown.get('topic') or '-')}"
    )
    if "profile_score" not in rel:
        return [Line(heading, "")]
    parts = [
        say(
            "why.profile",
            lang,
            score=f"{rel['profile_score']:.2f}",
            evidence=f"{rel.get('term_evidence', 0.0):.2f}",
            cosine=f"{rel.get('cosine', 0.0):.2f}",
        )
    ]
    if rel.get("evidence_domain"):
        parts.append(say("why.domain", lang, domain=_domain_title(rel["evidence_domain"], lang)))
    if rel.get("learned_topic") is not None and rel.get("learned_weight", 1.0) < 0.995:  # topic.learned_weight
        parts.append(say("why.learned_sense", lang, p=f"{rel['learned_topic']:.2f}", w=f"{rel['learned_weight']:.2f}"))
    elif rel.get("learned_topic") is not None and rel.get("learned_foreign_weight", 1.0) < 0.995:  # foreign_weight
        w = f"{rel['learned_foreign_weight']:.2f}"
        parts.append(say("why.learned_foreign", lang, p=f"{rel['learned_topic']:.2f}", w=w))
    elif rel.get("learned_topic") is not None:
        parts.append(say("why.learned", lang, p=f"{rel['learned_topic']:.2f}"))
    elif rel.get("learned_for"):
        parts.append(say("why.learned_off", lang, name=rel["learned_for"]))
    if rel.get("source_neighbours") is not None:  # the source's other pages (pipeline/vision/neighbours.py)
        parts.append(
            say("why.source", lang, m=f"{rel['source_neighbours']:.2f}", d=f"{rel.get('source_lift', 0.0):+.2f}")
        )
    if rel.get("record") and rel.get("record_share") is not None:  # a project's record (neighbours.is_record)
        parts.append(say("why.record", lang, share=_pct(rel["record_share"])))
    if rel.get("label_model") is not None:
        parts.append(say("why.marks", lang, p=f"{rel['label_model']:.2f}"))
    semicolon = say("punct.semicolon", lang)
    lines = [Line(heading, semicolon.join(parts))]
    terms = []
    for t in (rel.get("matched_terms") or [])[:TERMS_SHOWN]:
        note = []
        if "sense" in t:
            note.append(say("why.term_sense", lang, f=f"{t['sense']:.2f}"))
        if "general" in t:
            note.append(say("why.term_general", lang, f=_pct(t["general"])))
        if t.get("weight", 0) < 0:  # a profile's negative term: the other field's word (rendering's, phase 5)
            note.append(say("why.term_against", lang))
        terms.append(f"{t['term']} ×{t['count']}" + (say("punct.paren", lang, text=", ".join(note)) if note else ""))
    if terms:
        lines.append(Line(say("why.terms", lang), ", ".join(terms), 1))
    senses = []
    for term, factor in sorted((rel.get("senses") or {}).items(), key=lambda item: -item[1]):
        key = "why.sense_ours" if factor >= 0.75 else "why.sense_other" if factor < 0.5 else "why.sense_unsure"
        senses.append(say(key, lang, term=term, f=f"{factor:.2f}"))
    if senses:
        lines.append(Line(say("why.senses", lang), semicolon.join(senses), 1))
    learned = [f"{t['term']} {t['weight']:+.2f}" for t in (rel.get("learned_terms") or [])[:TERMS_SHOWN]]
    if learned:
        lines.append(Line(say("why.topic_words", lang), ", ".join(learned), 1))
    return lines


def _redundancy(shown: dict[str, Any], uniqueness: dict[str, Any], lang: Lang | str) -> list[Line]:
    heading = f"{say('show.redundancy', lang)} {shown.get('redundancy_score', 0.0):.2f}"
    copy_id = shown.get("duplicate_of_id")
    if not copy_id:
        return [Line(heading, say("why.repeats_nothing", lang))]
    signal_key = f"why.signal.{uniqueness.get('signal') or 'text'}"
    figures = dict(
        id=copy_id,
        url=shown.get("duplicate_of_link") or shown.get("duplicate_of") or "",
        share=_pct(uniqueness.get("redundancy", shown.get("redundancy_score", 0.0))),
        jaccard=f"{uniqueness.get('jaccard', 0.0):.2f}",
        signal=say(signal_key, lang) if signal_key in CATALOGUE else uniqueness.get("signal", ""),
    )
    if shown.get("redundancy") == "high":
        lines = [Line(heading, say("why.repeats", lang, **figures))]
    else:
        lines = [Line(heading, say("why.repeats_some", lang, cut=_pct(0.5), **figures))]
    because = uniqueness.get("because") or {}
    rule = because.get("rule")
    if rule and f"why.rule.{rule}" in CATALOGUE:
        pair = (
            because.get("versions")
            or because.get("dates")
            or because.get("sizes")
            or because.get("languages")
            or because.get("revisions")
            or because.get("precisions")
            or because.get("names")
        )
        a, b = (pair or ["", ""])[:2]
        lines.append(Line("", say("why.kept_because", lang, why=say(f"why.rule.{rule}", lang, a=a, b=b)), 1))
    return lines


def _value(shown: dict[str, Any], value: dict[str, Any], words: dict[str, Any], lang: Lang | str) -> list[Line]:
    heading = f"{say('show.value', lang)} {shown.get('value', 0)}"
    if "base" not in value:
        return [Line(heading, "")]
    lines = [Line(heading, say("why.value_base", lang, points=f"{value['base']:.1f}"))]
    contributions = value.get("contributions") or []
    for part in contributions[:CONTRIBUTIONS_SHOWN]:
        figure = (
            say("why.none", lang)
            if part["value"] == 0 and part["feature"].startswith(_COUNTED)
            else f"{part['value']:g}"
        )
        text = f"{_signed(part['points'])} {feature_words(part['feature'], lang)} ({figure})"
        lines.append(Line("", text, 1))
    rest = value.get("rest", 0.0)
    if rest:
        lines.append(Line("", say("why.value_rest", lang, points=_signed(rest)), 1))
    lines.append(
        Line(
            "",
            say(
                "why.value_end",
                lang,
                raw=f"{value.get('raw', 0.0):.1f}",
                model=value.get("model", "-"),
                marks=_signed(value.get("marks", 0.0)),
                gate=f"{value.get('relevance_gate', 1.0):.2f}",
                admin=f"{value.get('admin_gate', 1.0):.2f}",
            ),
            1,
        )
    )
    if value.get("translation_of") is not None:
        lines.append(
            Line(
                "", say("why.value_translation", lang, id=value["translation_of"], own=f"{value.get('own', 0):.0f}"), 1
            )
        )
    if value.get("included_from") is not None:
        lines.append(
            Line("", say("why.value_included", lang, id=value["included_from"], own=f"{value.get('own', 0):.0f}"), 1)
        )
    moved = [f"{t['term']} {t['weight']:+.2f}" for t in (words.get("terms") or [])[:TERMS_SHOWN]]
    if moved and words.get("used", True):
        lines.append(Line(say("why.value_words", lang), ", ".join(moved), 1))
    return lines


def _domain_title(name: str, lang: Lang | str) -> str:
    """A profile domain's title: the taxonomy's, in ``lang``, where the name is one of its seven domains."""
    from pipeline.taxonomy import load_taxonomy

    for domain in load_taxonomy():
        if domain.id == name:
            return domain.title_zh if lang == Lang.zh else domain.title
    return name.replace("_", " ")
