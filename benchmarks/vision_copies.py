"""The Vision's copies stage alone, on the labelled splits: recall, false flags and the copy kept, per split, per
origin and per mechanism.

    python benchmarks/vision_copies.py [--split train dev test test2 ... test31] [--full] [--list] [--json FILE]

Each split is its own corpus, stored as the crawler stores pages (``pipeline.vision.evaluate.store_labelled``).
By default only what the copies stage needs runs (the reading pass for the line counts and dates, then
``copies.Signer`` and ``copies.measure``, as ``pipeline.vision.scorer.score_rows`` calls them); ``--full`` runs
the whole scorer instead (slower, the same redundancy). The figures are ``evaluate.metrics``' own: a copy
found is flagged "high" and points into its copy group; a false flag is a document without ``dup_of`` flagged
"high"; the copy to keep is kept when it is not flagged itself.

Mechanisms, read from the two labelled paths of a pair (not from what the stage did):

    translation   one path marks a language the other does not (``docs/zh/…``, ``.zh.md``, ``.en.md``,
                  ``japanese/``, ``README-Chinese.md``)
    man/HTML twin one side is a man page (``man/manN/…``) or a plain README beside an HTML page
    source copy   a Sphinx ``_sources`` file, a Debian ``changelog.gz`` beside its page, a notebook or
                  Markdown file beside its rendered twin
    version pair  the same page at an older commit (``path@commit``) or in an older package version
    mirror        anything else: the same file at two places
The mean redundancy of a mechanism's pairs (found or not; a pair the crawl merged counts 1) is its margin:
a change that moves pairs towards the cut shows there before any pair falls under it. The last table says how
many labelled pairs the general path alone reaches (``general_reach``: shingle containment at the cut, no rule):
the rest are found only through rules written for their kinds, and it estimates the recall left on a corpus
whose copies are of kinds no rule reads yet.
False flags are split by the flagged document and the one it was flagged against: ``template`` when both
live in one place (a repository, a package: pages built from one template), ``cross-place`` otherwise.

The splits are the thirty-three this tool knows (train, dev, test and test2 to test31: all scored and reported, tuning
data now); it never reads another (a held-out split is scored once, by the coordinator).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from pipeline import redundancy
from pipeline.vision import copies
from pipeline.vision.evaluate import Outcome, copy_groups, store_labelled
from pipeline.vision.labelled import Label, load_documents, load_labels, url_of
from pipeline.vision.preference import _marks
from pipeline.vision.splits import TRAINING_SPLITS, select

SPLITS = TRAINING_SPLITS  # never any other: a held-out split is scored by the coordinator
MECHANISMS = ("version pair", "source copy", "man/HTML twin", "mirror", "translation")


def mechanism(copy: Label, keep_key: str) -> str:
    keep_path = keep_key.split(":", 2)[-1] if keep_key.startswith(("deb:", "gh:")) else keep_key
    a, b = copy.file_path, keep_path.rsplit("@", 1)[0]
    if _marks(a) != _marks(b):  # Doxygen's hashed folders (html/de/dc0/) mark none
        return "translation"
    if "/man/" in f"/{a}" or "/man/" in f"/{b}" or (a.endswith("README") and b.endswith(".html")):
        return "man/HTML twin"
    if "_sources/" in a or a.endswith(("changelog.gz", ".ipynb")) or (a.endswith(".md") and b.endswith(".html")):
        return "source copy"
    if "@" in copy.path or copy.source != keep_key.rsplit(":", 1)[0]:
        return "version pair"
    return "mirror"


def general_reach(copy: copies.CopyInfo, keep: copies.CopyInfo) -> float:
    """How far the general path alone (shingle Jaccard and containment, no rule that reads names, folders,
    revisions or markup) carries a labelled pair: the copy's containment in the page kept, 0 where the two are
    held apart as pages of one template (``siblings``, ``cousins``, ``renamed_code``) under their ``sibling_cut``.
    A pair at ``HIGH_REDUNDANCY`` or more reaches the cut with every rule of the stage gone (the stage may still
    keep the wrong page or hold the two apart for what this reading skips: a stub, a series, a template's output);
    the pairs under it are found only by rules written for their kind, and a copy of a kind no rule reads yet (a
    fresh corpus's) is found only if it sits above the cut. Either text missing reads 0."""
    if copy.text is None or keep.text is None:
        return 0.0
    jaccard = copy.text.minhash.jaccard(keep.text.minhash)
    template = (
        copies.siblings(copy.url, keep.url)
        or copies.cousins(copy.url, keep.url)
        or copies.renamed_code(copy.url, keep.url)
    )
    if template and jaccard < copies.sibling_cut(copy.url, keep.url):
        return 0.0
    return redundancy.containment(jaccard, copy.text.size, keep.text.size)


def copy_stage(db, rules: dict[int, str] | None = None, infos_out: dict | None = None) -> list[Outcome]:
    """The redundancy of every document, as the scorer computes it (its copies stage, nothing else); ``rules``
    gets, for each document found a copy, the preference rule that made the other one the copy to keep, and
    ``infos_out`` each document's ``CopyInfo`` (for ``general_reach``)."""
    from pipeline.profile import default_profile
    from pipeline.score import BATCH
    from pipeline.store.documents import scoring_rows
    from pipeline.taxonomy import load_taxonomy
    from pipeline.vision.reading import Reader
    from pipeline.vision.scorer import copy_infos
    from pipeline.vision.topic import TopicMatcher

    reader = Reader(TopicMatcher(default_profile()), load_taxonomy())
    lines = copies.LineCounts()
    newest = {}
    for row in scoring_rows(db, BATCH):
        reading, _ = reader.read(row)
        lines.add(reading.line_hashes, reading.url, copies.foreign_text(reading.url, reading.kind, row[4] or ""))
        newest[reading.id] = reading.newest_date
    infos = copy_infos(lines, scoring_rows(db, BATCH), newest)
    if infos_out is not None:
        infos_out.update((info.id, info) for info in infos)
    found = copies.measure(infos)
    out = []
    for info in infos:
        c = found.get(info.id, copies.NO_COPY)
        if rules is not None and c.because:
            rules[info.id] = c.because.get("rule", "")
        out.append(
            Outcome(
                info.id,
                0.0,
                "low",
                0.0,
                "high" if c.score >= copies.HIGH_REDUNDANCY else "low",
                c.score,
                c.duplicate_of,
            )
        )
    return out


def analyse(
    labels: list[Label],
    ids: dict[str, int],
    outcomes: dict[int, Outcome],
    listing: bool,
    rules: dict[int, str],
    infos: dict[int, copies.CopyInfo] | None = None,
) -> dict:
    present = [label for label in labels if label.key in ids and ids[label.key] in outcomes]
    key_of: dict[int | None, str] = {}
    for label in present:
        key_of.setdefault(ids[label.key], label.key)
    groups = copy_groups(labels)
    members: dict[int, set[int]] = defaultdict(set)
    for key, group in groups.items():
        if key in ids:
            members[group].add(ids[key])
    cells: dict[tuple[str, str], Counter] = defaultdict(Counter)  # (origin, mechanism) → found/pairs/kept
    margins: dict[tuple[str, str], float] = defaultdict(float)  # (origin, mechanism) → summed redundancy
    lines = []
    for label in present:
        if not (label.dup_of and label.dup_of in ids):
            continue
        mech = mechanism(label, label.dup_of)
        copy_id, keep_id = ids[label.key], ids[label.dup_of]
        for cell in ((label.origin, mech), ("all", mech), (label.origin, "all"), ("all", "all")):
            cells[cell]["pairs"] += 1
        if copy_id == keep_id:  # merged by the crawl: found, and no pair left to keep right (as evaluate counts)
            hit, kept = True, None
        else:
            o = outcomes[copy_id]
            hit = o.redundancy == "high" and o.duplicate_of in members[groups[label.key]] - {copy_id}
            kept = outcomes[keep_id].redundancy != "high"
        score = 1.0 if copy_id == keep_id else outcomes[copy_id].redundancy_score
        # the general path's reach, read only from the copies stage's own run (``--full`` reads no ``infos``)
        reach = None if infos is None else 1.0 if copy_id == keep_id else general_reach(infos[copy_id], infos[keep_id])
        for cell in ((label.origin, mech), ("all", mech), (label.origin, "all"), ("all", "all")):
            cells[cell]["found"] += hit
            if reach is not None:
                cells[cell]["general"] += reach >= copies.HIGH_REDUNDANCY  # at the cut, every rule gone
                cells[cell]["rule_only"] += hit and reach < copies.HIGH_REDUNDANCY  # found, under the cut
            margins[cell] += score  # the margin: how far above the cut the pairs sit, found or not
            if hit and copy_id in rules:
                cells[cell][f"rule:{rules[copy_id]}"] += 1  # which preference rule chose the copy to keep
            if kept is not None:
                cells[cell]["distinct"] += 1
                cells[cell]["kept"] += kept
        if not hit or kept is False:
            why = []
            if not hit:
                o = outcomes[copy_id]
                why.append(f"missed (score {o.redundancy_score:.2f}, of {key_of.get(o.duplicate_of, '-')})")
            if not kept:
                k = outcomes[keep_id]
                why.append(f"keep flagged ({k.redundancy_score:.2f} of {key_of.get(k.duplicate_of, '-')})")
            lines.append(f"  [{mech}] {label.key} -> {label.dup_of}: {'; '.join(why)}")
    singles = [label for label in present if not label.dup_of]
    for label in singles:
        o = outcomes[ids[label.key]]
        for origin in (label.origin, "all"):
            cells[(origin, "stay")]["n"] += 1
        if o.redundancy == "high":
            other = key_of.get(o.duplicate_of, "-")
            same = copies.neighbourhood(_url(label)) == copies.neighbourhood(_url_of_key(other, present))
            kind = "template" if same else "cross-place"
            for origin in (label.origin, "all"):
                cells[(origin, "stay")]["flagged"] += 1
                cells[(origin, "stay")][kind] += 1
            lines.append(f"  [false flag, {kind}] {label.key} ({o.redundancy_score:.2f} of {other})")
    if listing:
        print("\n".join(sorted(lines)))
    return {f"{o}|{m}": {**c, "score": round(margins[(o, m)], 4)} for (o, m), c in sorted(cells.items())}


def _url(label: Label) -> str:
    return url_of(label)


def _url_of_key(key: str, present: list[Label]) -> str:
    for label in present:
        if label.key == key:
            return _url(label)
    return ""


def table(results: dict[str, dict]) -> None:
    print("\n| split | origin | near-copy recall | false flags (template, cross-place) | copy to keep kept |")
    print("|---|---|---:|---:|---:|")
    for split, r in results.items():
        for origin in ("all", "debian", "github"):
            c, s = r.get(f"{origin}|all", {}), r.get(f"{origin}|stay", {})
            if not s:
                continue
            pairs = c.get("pairs", 0)
            rec = f"{c.get('found', 0)}/{pairs} = {c.get('found', 0) / pairs:.3f}" if pairs else "—"
            kept = f"{c.get('kept', 0) / c['distinct']:.3f}" if c.get("distinct") else "—"
            ff = f"{s.get('flagged', 0)}/{s['n']} = {100 * s.get('flagged', 0) / s['n']:.1f}%"
            print(f"| {split} | {origin} | {rec} | {ff} ({s.get('template', 0)}, {s.get('cross-place', 0)}) | {kept} |")
    print(
        "\n| split | mechanism | pairs | found | mean redundancy | copy to keep kept (of pairs not merged by the crawl) |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for split, r in results.items():
        for mech in MECHANISMS:
            c = r.get(f"all|{mech}")
            if c:
                kept = f"{c.get('kept', 0)}/{c.get('distinct', 0)}"
                mean = c.get("score", 0.0) / c["pairs"]
                print(f"| {split} | {mech} | {c['pairs']} | {c.get('found', 0)} | {mean:.3f} | {kept} |")


def rule_table(results: dict[str, dict]) -> None:
    """Which preference rule chose the copy to keep, per mechanism, over the pairs found (all splits)."""
    tally: dict[str, Counter] = defaultdict(Counter)
    for r in results.values():
        for mech in MECHANISMS:
            for key, n in r.get(f"all|{mech}", {}).items():
                if key.startswith("rule:"):
                    tally[mech][key[5:]] += n
    if not tally:
        return
    print("\n| mechanism | the rule that chose the copy to keep (pairs found, all splits) |")
    print("|---|---|")
    for mech in MECHANISMS:
        if tally[mech]:
            print(f"| {mech} | {', '.join(f'{rule} {n}' for rule, n in tally[mech].most_common())} |")


def general_table(results: dict[str, dict]) -> None:
    """The general path's reach (``general_reach``) beside what the stage found, per mechanism over all splits and
    per split: what recall would stay on copies of kinds no rule reads, the rules' share of the recall."""
    results = {split: r for split, r in results.items() if "general" in r.get("all|all", {})}
    if not results:
        return
    print("\n| mechanism | pairs | found | the general path alone reaches | found only through a rule |")
    print("|---|---:|---:|---:|---:|")
    for mech in (*MECHANISMS, "all"):
        c: Counter = Counter()
        for r in results.values():
            c.update(r.get(f"all|{mech}", {}))
        if c["pairs"]:
            print(f"| {mech} | {c['pairs']} | {c['found']} | {c['general']} | {c['rule_only']} |")
    shares = [
        (r["all|all"].get("general", 0) / r["all|all"]["pairs"], split)
        for split, r in results.items()
        if r.get("all|all", {}).get("pairs")
    ]
    low = min(shares)
    print(
        f"\nThe general path alone, per split: min {low[0]:.3f} ({low[1]}) / mean "
        f"{sum(x for x, _ in shares) / len(shares):.4f} (the stage: the recall above)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", nargs="+", default=list(SPLITS), choices=SPLITS)
    parser.add_argument("--full", action="store_true", help="run the whole scorer, not only its copies stage")
    parser.add_argument("--list", action="store_true", help="list every miss and false flag")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    labels = load_labels()
    results = {}
    for split in args.split:
        chosen = select(labels, split)
        loaded, report = load_documents(chosen)
        print(f"## {split}: {report.summary()}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            from pipeline.store import open_db

            db = open_db(Path(tmp) / "labelled.db")
            ids = store_labelled(db, loaded)
            start = time.perf_counter()
            rules: dict[int, str] = {}  # filled by the copies stage alone (--full reads no rules)
            infos: dict[int, copies.CopyInfo] = {}
            if args.full:
                from pipeline.score import score_corpus

                outcomes = {o.id: o for o in map(Outcome.of, score_corpus(db))}
            else:
                outcomes = {o.id: o for o in copy_stage(db, rules, infos)}
            db.conn.close()
        print(f"   scored in {time.perf_counter() - start:.1f} s", flush=True)
        results[split] = analyse(chosen, ids, outcomes, args.list, rules, infos or None)
    table(results)
    rule_table(results)
    general_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")


if __name__ == "__main__":
    np.seterr(over="ignore")
    main()
