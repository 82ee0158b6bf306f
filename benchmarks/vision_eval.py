"""The Vision's quality on the labelled set: the issue's metrics, per split, for a scorer.

    python benchmarks/vision_eval.py [--split train dev] [--origin debian] [--scorer baseline|vision]
                                     [--show 20] [--json FILE] [--scorer MODULE:FUNCTION]

Each split is its own corpus: its documents are read (pipeline.vision.labelled), stored in a temporary
SQLite database as the crawler stores pages, and scored there by the scorer: ``pipeline.score.score_corpus``
(the learned Vision), or any function of a database that returns scored documents, named ``module:function``
(to measure an older scorer, say a copy of the one before the Vision, importable from PYTHONPATH). Missing
texts are skipped and counted. Since phase 4 "test" and "test2" are tuning data like dev (the model is trained on
them); the held-out split is test3, scored once, for the final report, by the coordinator.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.vision.evaluate import TARGETS, meets, metrics, score_labelled
from pipeline.vision.labelled import load_documents, load_labels
from pipeline.vision.splits import SPLITS, select

ROWS = [
    ("documents", "documents scored"),
    ("relevance_auc", "relevance ROC AUC, technical vs off"),
    ("admin_auc", "relevance ROC AUC, technical vs admin"),
    ("spearman", "Spearman(value, tier) among technical"),
    ("traps_below_median", "changelog/licence/install/link list below median technical value"),
    ("copy_recall", "near-copy recall"),
    ("false_flags", "false copy flags"),
    ("newer_kept", "copy to keep kept, per pair"),
    ("technical_high_medium", "technical labelled high/medium"),
    ("admin_high_medium", "admin labelled high/medium"),
    ("off_high_medium", "off-topic labelled high/medium"),
]


def scorer_named(name: str):
    import importlib

    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function or "score_corpus")


def fmt(value) -> str:
    if value is None:
        return "—"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", nargs="+", default=["train", "dev"], choices=SPLITS)
    parser.add_argument("--origin", choices=("debian", "github"), help="only documents of this origin")
    parser.add_argument("--scorer", default="pipeline.score:score_corpus", help="module:function scoring a database")
    parser.add_argument("--show", type=int, default=0, help="list the top N by value and the worst mistakes")
    parser.add_argument("--json", type=Path, help="write the metrics here")
    args = parser.parse_args()
    labels = load_labels()
    scorer = scorer_named(args.scorer)
    results = {}
    for split in args.split:
        chosen = [label for label in select(labels, split) if args.origin in (None, label.origin)]
        loaded, report = load_documents(chosen)
        print(f"## {split} ({args.scorer}): {report.summary()}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            ids, outcomes = score_labelled(loaded, scorer, tmp)
            elapsed = time.perf_counter() - start
        result = metrics(chosen, ids, outcomes)
        result["seconds"] = round(elapsed, 1)
        results[split] = result
        if args.show:
            show(chosen, ids, outcomes, args.show)
    print()
    print("| metric | target | " + " | ".join(args.split) + " |")
    print("|---|---|" + "---|" * len(args.split))
    for key, name in ROWS:
        target = " ".join(map(str, TARGETS[key])) if key in TARGETS else ""
        cells = []
        for split in args.split:
            value = results[split].get(key)
            ok = meets(key, value)
            cells.append(fmt(value) + ("" if ok is None else " ✓" if ok else " ✗"))
        print(f"| {name} | {target} | " + " | ".join(cells) + " |")
    for split in args.split:
        r = results[split]
        print(
            f"\n{split}: counts {r['counts']}, {r['copy_pairs']} copy pairs ({r['copies_merged_by_crawl']} merged by"
            f" the crawl), median technical value {fmt(r['median_technical_value'])}, {r['seconds']} s"
        )
        for key in ("traps_above", "copies_missed", "falsely_flagged"):
            if r[key]:
                print(f"  {key}: {', '.join(r[key][:12])}{' …' if len(r[key]) > 12 else ''}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")


def show(labels, ids, outcomes, n: int) -> None:
    by_id: dict[int, list] = {}
    for label in labels:
        if label.key in ids:
            by_id.setdefault(ids[label.key], []).append(label)
    ranked = sorted(outcomes.values(), key=lambda o: (-o.value, o.id))
    print(f"\ntop {n} by value:")
    for o in ranked[:n]:
        label = by_id[o.id][0]
        print(f"  {o.value:5.1f} {o.relevance:6s} {label.relevance:9s} {label.tier} {label.type:13s} {label.key}")
    tier_points = {"A": 80, "B": 55, "C": 25}

    def error(o) -> float:
        label = by_id[o.id][0]
        expected = tier_points[label.tier] if label.relevance == "technical" else 5
        return abs(o.value - expected)

    print(f"\nworst {n} (value far from the label):")
    for o in sorted(outcomes.values(), key=lambda o: -error(o))[:n]:
        label = by_id[o.id][0]
        print(
            f"  {o.value:5.1f} {o.relevance:6s} {label.relevance:9s} {label.tier} {label.type:13s} {label.key}"
            f"  — {label.why[:70]}"
        )


if __name__ == "__main__":
    main()
