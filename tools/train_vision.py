"""Trains the Vision's learned parts on the labelled set and writes data/vision/model.json.

    python tools/train_vision.py [--lofo] [--tune] [--out data/vision/model.json]
    python tools/train_vision.py --lofo-only

Reads the train, dev, test and test2 to test31 splits (data/vision/splits.toml) of the labels
(data/vision/labels), the texts from Debian packages and the GitHub cache ($SHIJIE_VISION_CACHE), through the same
reading the scorer does, and refuses to train when any of those documents is missing or its bytes differ from the
labelled SHA-256: the weights would not be the ones the labels describe. It never reads test32, the held-out split
of phase 36, nor any split it does not name (``load`` refuses any split but ``TRAINING_SPLITS``): the coordinator
scores test32 once, with benchmarks/vision_eval.py.

Protocol (phase 36, 2026-12-08). test31 was scored and reported at the end of phase 35 (as test30 was at the end
of phase 34), so it is training data like the thirty-two splits before it: the shipped model is fitted on all
thirty-three (every labelled family but test32's; the value model's word inputs out-of-fold by family,
pipeline/vision/training.py), with the regularisation chosen on dev in phase 1 (``SETTINGS``: the grid below
fitted on train, scored on dev) and kept, because the out-of-fold figures over the training splits judge it
(docs/perf.md, phases 3 to 15) and an inner search over 24 settings x 13 folds would take an hour on this machine;
``--tune`` repeats the choice (fit on every training split but dev, score on dev). The relevance cuts are
calibrated on the out-of-fold relevance of all training splits' families (each family's relevance from word
models fitted without it, then moved towards the other pages of its source, pipeline/vision/neighbours.py, as
the scorer does), so they are set by as many unseen families as there are.

``--lofo-only --by-split`` leaves out one training split at a time instead (each a batch of sources labelled
together, as a held-out split is): the figures closest to a held-out report, and each split's own.
``--lofo`` / ``--lofo-only`` give the leave-families-out figures over the training splits, per origin (all, debian,
github): the families dealt into ``LOFO_FOLDS`` groups, each scored by models fitted without it (one fit per
group, not per family, to keep it to minutes), its relevance cuts calibrated on the other groups' out-of-fold
relevance: the closest thing here to a corpus nobody labelled. Judge every change by them. ``--dump FILE``
writes each document's out-of-fold relevance, cut, value and type, to study the mistakes and the trade-off
between technical pages reaching "medium" and off-topic ones.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import time
import tomllib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.profile import DEFAULT_PROFILE, load_profile
from pipeline.resources import data_dir
from pipeline.vision import training
from pipeline.vision.labelled import TYPES, labels_dir, load_documents, load_labels
from pipeline.vision.scorer import ADMIN_GATE, relevance_gate
from pipeline.vision.splits import TRAINING_SPLITS, load_splits, select
from pipeline.vision.value_model import ADMIN_TYPES, decide_type, model_path

WORD_GRID = [
    {"c_topic": c, "alpha_words": a, "c_type": t} for c, a, t in itertools.product((0.3, 1.0), (1.0, 3.0), (0.3, 1.0))
]
VALUE_ALPHAS = (10.0, 30.0, 100.0)
BLENDS = (0.5,)
# the word and value regularisation, chosen on dev in phase 1 (the grid above, fitted on train) and kept: the
# out-of-fold figures over the training splits judge them (docs/perf.md, phases 3 to 11); --tune chooses again.
# c_type since phase 6: 0.03, the best of 1, 0.3, 0.1, 0.03, 0.01, 0.003 by the type model's accuracy
# leave-families-out over the six splits (0.548 at 1.0 -> 0.575, macro-F1 0.514 -> 0.553); with it the value as
# scored, out of fold, Spearman 0.668 -> 0.673 and traps 0.992 -> 0.995, relevance unchanged. At 1.0 the six-split
# type model read a short page dense in measurements as a Q&A answer (docs/perf.md, "phase 6, merged")
# type_terms since phase 27: the type model reads the words' vector × 5 beside its structure figures
# (training.TYPE_TERMS; 0 reads the structure alone, as before)
SETTINGS = {"c_topic": 1.0, "alpha_words": 3.0, "c_type": 0.03, "type_terms": training.TYPE_TERMS}
# value alpha 100 since phase 7 (30 before): with the value's figures read against their source, each training split
# left out in turn, Spearman as scored mean 0.644 -> 0.645, worst split (test5) 0.433 -> 0.452
# value alpha 300 since phase 9 (with the relevance no longer a value input, training.VALUE_EXTRA): each training split
# left out in turn, Spearman as scored mean / worst split 0.641 / 0.440 -> 0.647 / 0.449 (alpha 100: 0.646 / 0.436;
# 1000: 0.641 / 0.442; alpha 300 with the relevance kept as an input: 0.642 / 0.454, test7 0.531 against 0.555)
# value alpha 500 since phase 13, with the words value read against its source beside the absolute one
# (training.VALUE_EXTRA, source_words_value): eleven folds, worst / mean at 400, 500, 700: 0.457 / 0.6594, 0.464 /
# 0.6589, 0.462 / 0.6579 (main at 300, without the column: 0.455 / 0.6578; the column at 300 alone: 0.454 / 0.6593;
# alpha 500 alone: 0.461 / 0.6554)
SETTINGS_VALUE_ALPHA = 500.0


def load(split: str, profile) -> list[training.Sample]:
    if split not in TRAINING_SPLITS:  # test32 is held out: the coordinator scores it once, with vision_eval
        sys.exit(f"refusing to read split {split!r}: this tool reads only {', '.join(TRAINING_SPLITS)}")
    splits = load_splits()
    labels = select(load_labels(), split, splits)
    if any(splits.get(label.family) != split for label in labels):
        sys.exit(f"refusing to train: a label selected for {split!r} belongs to another split")
    loaded, report = load_documents(labels)
    problems = report.missing + report.mismatched
    if problems:
        sys.exit(
            f"refusing to train: {len(report.missing)} {split} document(s) missing and {len(report.mismatched)} with "
            f"other bytes than labelled (first: {problems[0]}); the weights would not match the labels"
        )
    print(f"{split}: {report.summary()}", flush=True)
    return training.read_samples(loaded, profile)


def objective(q: dict) -> float:
    """One number to choose settings by: the issue's value and relevance figures, equally weighted."""
    return (q["spearman"] or 0) + (q["relevance_auc"] or 0) + (q["traps_below_median"] or 0)


def fit_all(train, settings, profile, alpha, blend, oof=None, profile_train=None):
    oof = oof if oof is not None else training.out_of_fold(train, settings)
    if profile_train is None:
        profile_train = training.profile_scores(train, profile)
    names, x, relevance = training.value_features(train, oof, profile_train, blend)
    value = training.fit_value(names, x, train, alpha)
    models = training.fit_word_models(train, **settings)
    return models, value, relevance


def predict(models, value, samples, profile_samples, blend):
    words = training.apply_word_models(models, samples)
    _, x, relevance = training.value_features(samples, words, profile_samples, blend)
    return value.predict(x), relevance


LOFO_FOLDS = 8
ORIGINS = (None, "debian", "github")


def lofo(samples, settings, profile, alpha, blend, dump: Path | None = None, batches: list[str] | None = None) -> dict:
    """Leave-families-out figures: each family scored by models fitted without it (value, relevance and the
    relevance cuts, calibrated on the out-of-fold relevance of the families fitted on), per origin.

    With ``batches`` (each sample's split) the folds are the splits themselves: each labelling batch scored by
    models fitted on the others, as a held-out split is, and its own figures printed too (``--by-split``)."""
    from sklearn.model_selection import GroupKFold

    groups = [s.label.family for s in samples] if batches is None else list(batches)
    n_folds = LOFO_FOLDS if batches is None else len(set(batches))
    profile_all = training.profile_scores(samples, profile)
    value = np.zeros(len(samples))
    relevance = np.zeros(len(samples))
    types = np.zeros((len(samples), len(TYPES)))
    gate_types = np.zeros((len(samples), len(TYPES)))  # as the value reads them: a source copy's its content's
    medium = np.zeros(len(samples))
    high = np.zeros(len(samples))
    folds = GroupKFold(n_splits=n_folds).split(samples, groups=groups)
    for n, (rest_idx, held) in enumerate(folds, 1):
        rest = [samples[i] for i in rest_idx]
        family = ", ".join(sorted({groups[i] for i in held}))
        models, fit, rest_relevance = fit_all(rest, settings, profile, alpha, blend)
        cuts = training.calibrate(rest, rest_relevance)
        # the held-out family is scored in the corpus of all documents, as in a crawl holding it among others
        words = training.apply_word_models(models, samples)
        _, x, rel = training.value_features(samples, words, profile_all, blend)
        value[held] = fit.predict(x[held])
        relevance[held] = rel[held]
        types[held] = words["types"][held]
        gate_types[held] = training.content_types_of(samples, words["types"])[held]
        medium[held], high[held] = cuts["medium"], cuts["high"]
        print(f"  left out {n}/{n_folds}: {family} (cuts {cuts})", flush=True)
    predicted = [decide_type(row, TYPES) for row in types]  # as the scorer shows a page's type
    if dump is not None:  # every document's out-of-fold figures, to study the mistakes (never a held-out one)
        rows = [
            {
                "key": s.label.key,
                "family": s.label.family,
                "origin": s.label.origin,
                "relevance_label": s.label.relevance,
                "tier": s.label.tier,
                "type": s.label.type,
                "relevance": round(float(relevance[i]), 4),
                "medium": float(medium[i]),
                "value": round(float(value[i]), 2),
                "predicted_type": predicted[i],
            }
            for i, s in enumerate(samples)
        ]
        dump.write_text(json.dumps(rows, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    for i in np.argsort(-relevance):
        if samples[i].label.relevance == "off" and relevance[i] >= medium[i]:
            print(f"  off-topic at medium or above: {relevance[i]:.3f} (cut {medium[i]:.3f}) {samples[i].label.key}")
    # the value as the scorer gives it: x the relevance gate below the medium cut (scorer.relevance_gate), x the
    # administrative-type gate
    admin = gate_types[:, [TYPES.index(t) for t in ADMIN_TYPES if t in TYPES]].sum(axis=1)
    gated = value * relevance_gate(relevance, medium) * (1 - ADMIN_GATE * admin)
    for name in ("toc", "readme", "guide", "tutorial", "api_reference", "link_list"):
        idx = [i for i, s in enumerate(samples) if s.label.type == name]
        if idx:
            right = sum(predicted[i] == name for i in idx)
            said = sum(p == name for p in predicted)
            print(f"  type {name}: {right} of {len(idx)} recognised, {said} typed so")
    if batches is not None:  # each batch's own figures, as its held-out report would give them
        for batch in sorted(set(batches)):
            idx = [i for i, b in enumerate(batches) if b == batch]
            part = [samples[i] for i in idx]
            own = training.quality(part, gated[idx], relevance[idx]) | training.level_shares(
                part, relevance[idx], medium[idx]
            )
            print(f"  {batch}: " + ", ".join(f"{k} {v:.3f}" for k, v in own.items() if isinstance(v, float)))
    result = {}
    for origin in ORIGINS:
        idx = [i for i, s in enumerate(samples) if origin in (None, s.label.origin)]
        part = [samples[i] for i in idx]
        figures = training.quality(part, value[idx], relevance[idx])
        figures |= training.level_shares(part, relevance[idx], medium[idx])
        as_scored = training.quality(part, gated[idx], relevance[idx])
        figures |= {
            "scored_" + k: as_scored[k] for k in ("spearman", "traps_below_median", "non_technical_below_median")
        }
        figures["type_accuracy"] = float(np.mean([predicted[i] == samples[i].label.type for i in idx]))
        # pages shown administrative: of those labelled so, and of the content pages (wrongly)
        labelled_admin = [samples[i].label.type in ADMIN_TYPES for i in idx]
        said_admin = [predicted[i] in ADMIN_TYPES for i in idx]
        figures["admin_typed_recall"] = float(
            np.mean([s for s, a in zip(said_admin, labelled_admin, strict=True) if a])
        )
        figures["content_typed_admin"] = float(
            np.mean([s for s, a in zip(said_admin, labelled_admin, strict=True) if not a])
        )
        result[origin or "all"] = {k: round(v, 4) for k, v in figures.items() if isinstance(v, float)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=model_path())
    parser.add_argument("--lofo", action="store_true", help="also the leave-families-out figures (the training splits)")
    parser.add_argument(
        "--lofo-only",
        action="store_true",
        help="only the leave-families-out figures, with the shipped model's settings",
    )
    parser.add_argument("--dump", type=Path, help="with --lofo-only: write each document's out-of-fold figures")
    parser.add_argument(
        "--by-split",
        action="store_true",
        help="with --lofo-only: the folds are the training splits (each labelling batch left out in turn)",
    )
    parser.add_argument("--blend", type=float, help="with --lofo-only: another relevance blend, to compare")
    parser.add_argument("--setting", action="append", help="with --lofo-only: NAME=VALUE, another regularisation")
    parser.add_argument(
        "--tune",
        action="store_true",
        help="choose the regularisation again: fit on every training split but dev, score dev, over WORD_GRID x VALUE_ALPHAS",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    profile_file = data_dir() / "profiles" / DEFAULT_PROFILE
    profile = load_profile(profile_file)
    parts = {split: load(split, profile) for split in TRAINING_SPLITS}
    samples = [s for split in TRAINING_SPLITS for s in parts[split]]
    if args.lofo_only:
        chosen = json.loads(model_path().read_text(encoding="utf-8"))["provenance"]["settings"]
        alpha, blend = chosen.pop("value_alpha"), chosen.pop("relevance_blend")
        blend = args.blend if args.blend is not None else blend
        for item in args.setting or ():
            name, _, number = item.partition("=")
            if name == "value_alpha":
                alpha = float(number)
            elif name in chosen:
                chosen[name] = float(number)
            else:
                sys.exit(f"unknown setting {name!r}: one of value_alpha, {', '.join(chosen)}")
        batches = [split for split in TRAINING_SPLITS for _ in parts[split]] if args.by_split else None
        for origin, part in lofo(samples, chosen, profile, alpha, blend, args.dump, batches).items():
            print(origin, json.dumps(part))
        return

    settings, alpha, blend = dict(SETTINGS), SETTINGS_VALUE_ALPHA, BLENDS[0]
    tuned = None
    if args.tune:
        settings, alpha, blend, tuned = tune(
            [s for split in TRAINING_SPLITS if split != "dev" for s in parts[split]], parts["dev"], profile
        )
        print(f"chosen on dev: {settings}, value alpha {alpha}, blend {blend}")

    # the shipped model: every labelled family but test32's; the cuts on out-of-fold relevance (by family)
    models, value, oof_relevance = fit_all(samples, settings, profile, alpha, blend)
    thresholds = training.calibrate(samples, oof_relevance)
    alone = training.calibrate(samples, training.lifted(training.profile_scores(samples, profile), samples))
    thresholds |= {"profile_medium": alone["medium"], "profile_high": alone["high"]}
    provenance = {
        # only what the fit read: the label files holding a training family, and those families' splits, so
        # that a held-out split added later (test32) changes neither, and the model stays reproducible
        "labels": {p.name: training.sha256_of(p) for p in training_label_files(samples)},
        "splits": training_splits_digest(),
        "profile": training.sha256_of(profile_file),
        "documents": {split: len(parts[split]) for split in TRAINING_SPLITS},
        "settings": {**settings, "value_alpha": alpha, "relevance_blend": blend},
    }
    if tuned is not None:
        provenance["dev_when_tuned"] = tuned
    if args.lofo:
        provenance["lofo"] = lofo(samples, settings, profile, alpha, blend)
    document = training.model_document(profile, models, value, blend, thresholds, provenance)
    args.out.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(
        f"wrote {args.out} ({args.out.stat().st_size // 1024} KB: {len(models.vocab)} terms, "
        f"{len(value.names)} value features); thresholds {thresholds}; {time.perf_counter() - started:.0f} s"
    )
    print(json.dumps(provenance.get("lofo", {})))


def training_label_files(samples) -> list[Path]:
    """The label files that hold a label of ``samples`` (each file is one source)."""
    sources = {s.label.source for s in samples}
    files = []
    for path in sorted(labels_dir().glob("*.toml")):
        source = tomllib.loads(path.read_text(encoding="utf-8")).get("source") or {}
        if source.get("id") in sources:
            files.append(path)
    return files


def training_splits_digest() -> str:
    """SHA-256 of the training splits' assignments (``family = split`` lines, sorted): not of the whole file."""
    lines = sorted(f"{family} = {split}" for family, split in load_splits().items() if split in TRAINING_SPLITS)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def tune(fit_on, dev, profile):
    """The settings of WORD_GRID x VALUE_ALPHAS that score best on dev when fitted on ``fit_on``."""
    profile_fit, profile_dev = training.profile_scores(fit_on, profile), training.profile_scores(dev, profile)
    best = None
    for settings in WORD_GRID:
        oof = training.out_of_fold(fit_on, settings)
        models = training.fit_word_models(fit_on, **settings)
        for alpha, blend in itertools.product(VALUE_ALPHAS, BLENDS):
            _, value, _ = fit_all(fit_on, settings, profile, alpha, blend, oof, profile_fit)
            dev_value, dev_relevance = predict(models, value, dev, profile_dev, blend)
            q = training.quality(dev, dev_value, dev_relevance)
            print(f"  {settings} alpha {alpha} blend {blend}: {json.dumps(rounded(q))}", flush=True)
            if best is None or objective(q) > objective(best[0]):
                best = (q, settings, alpha, blend)
    q, settings, alpha, blend = best
    return settings, alpha, blend, rounded(q)


def rounded(figures: dict) -> dict:
    return {k: round(v, 4) for k, v in figures.items() if isinstance(v, float)}


if __name__ == "__main__":
    main()
