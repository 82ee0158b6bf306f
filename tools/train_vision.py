"""Trains the Vision's learned parts on the labelled set and writes data/vision/model.json.

    python tools/train_vision.py [--lofo] [--out data/vision/model.json]

Reads the train and dev splits (data/vision/splits.toml) of the labels (data/vision/labels), the texts from
Debian packages and the GitHub cache ($SHIJIE_VISION_CACHE), through the same reading the scorer does, and
refuses to train when any of those documents is missing or its bytes differ from the labelled SHA-256: the
weights would not be the ones the labels describe. Fits on train, chooses the regularisation on dev
(pipeline/vision/training.py), writes the model with its provenance (SHA-256 of every input file) and prints
the dev figures. ``--lofo`` adds leave-one-family-out figures over train+dev: each family scored by models
fitted without it (families dealt into ``LOFO_FOLDS`` groups, each left out in turn: one fit per group, not
per family, to keep it to minutes), the closest thing here to a corpus nobody labelled. Never reads the test
split.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.profile import DEFAULT_PROFILE, load_profile
from pipeline.resources import data_dir
from pipeline.vision import training
from pipeline.vision.labelled import labels_dir, load_documents, load_labels
from pipeline.vision.splits import select, splits_path
from pipeline.vision.value_model import model_path

WORD_GRID = [
    {"c_topic": c, "alpha_words": a, "c_type": t} for c, a, t in itertools.product((0.3, 1.0), (1.0, 3.0), (0.3, 1.0))
]
VALUE_ALPHAS = (10.0, 30.0, 100.0)
BLENDS = (0.5,)


def load(split: str, profile) -> list[training.Sample]:
    labels = select(load_labels(), split)
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


def lofo(samples, settings, profile, alpha, blend) -> dict:
    from sklearn.model_selection import GroupKFold

    groups = [s.label.family for s in samples]
    profile_all = training.profile_scores(samples, profile)
    value = np.zeros(len(samples))
    relevance = np.zeros(len(samples))
    folds = GroupKFold(n_splits=LOFO_FOLDS).split(samples, groups=groups)
    for n, (rest_idx, held) in enumerate(folds, 1):
        rest = [samples[i] for i in rest_idx]
        family = ", ".join(sorted({groups[i] for i in held}))
        models, fit, _ = fit_all(rest, settings, profile, alpha, blend)
        # the held-out family is scored in the corpus of all documents, as in a crawl holding it among others
        words = training.apply_word_models(models, samples)
        _, x, rel = training.value_features(samples, words, profile_all, blend)
        value[held] = fit.predict(x[held])
        relevance[held] = rel[held]
        print(f"  left out {n}/{LOFO_FOLDS}: {family}", flush=True)
    return training.quality(samples, value, relevance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=model_path())
    parser.add_argument("--lofo", action="store_true", help="also leave-one-family-out figures on train+dev")
    parser.add_argument(
        "--lofo-only",
        action="store_true",
        help="only the leave-one-family-out figures, with the shipped model's settings",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    profile_file = data_dir() / "profiles" / DEFAULT_PROFILE
    profile = load_profile(profile_file)
    train, dev = load("train", profile), load("dev", profile)
    if args.lofo_only:
        chosen = json.loads(model_path().read_text(encoding="utf-8"))["provenance"]["settings"]
        alpha, blend = chosen.pop("value_alpha"), chosen.pop("relevance_blend")
        figures = lofo(train + dev, chosen, profile, alpha, blend)
        print(json.dumps({k: round(v, 4) for k, v in figures.items() if isinstance(v, float)}))
        return

    profile_train, profile_dev = training.profile_scores(train, profile), training.profile_scores(dev, profile)
    best = None
    for settings in WORD_GRID:
        oof = training.out_of_fold(train, settings)
        models = training.fit_word_models(train, **settings)
        for alpha, blend in itertools.product(VALUE_ALPHAS, BLENDS):
            _, value, _ = fit_all(train, settings, profile, alpha, blend, oof, profile_train)
            dev_value, dev_relevance = predict(models, value, dev, profile_dev, blend)
            q = training.quality(dev, dev_value, dev_relevance)
            print(
                f"  {settings} alpha {alpha} blend {blend}: {json.dumps({k: round(v, 3) for k, v in q.items() if isinstance(v, float)})}",
                flush=True,
            )
            if best is None or objective(q) > objective(best[0]):
                best = (q, settings, alpha, blend)
    dev_quality, settings, alpha, blend = best
    print(f"chosen on dev: {settings}, value alpha {alpha}, blend {blend}")

    models, value, train_relevance = fit_all(train, settings, profile, alpha, blend, None, profile_train)
    _, dev_relevance = predict(models, value, dev, profile_dev, blend)
    thresholds = training.calibrate(train + dev, np.concatenate([train_relevance, dev_relevance]))
    alone = training.calibrate(train + dev, np.concatenate([profile_train, profile_dev]))
    thresholds |= {"profile_medium": alone["medium"], "profile_high": alone["high"]}
    provenance = {
        "labels": {p.name: training.sha256_of(p) for p in sorted(labels_dir().glob("*.toml"))},
        "splits": training.sha256_of(splits_path()),
        "profile": training.sha256_of(profile_file),
        "documents": {"train": len(train), "dev": len(dev)},
        "settings": {**settings, "value_alpha": alpha, "relevance_blend": blend},
        "dev": {k: round(v, 4) for k, v in dev_quality.items() if isinstance(v, float)},
    }
    if args.lofo:
        provenance["lofo_train_dev"] = {
            k: round(v, 4)
            for k, v in lofo(train + dev, settings, profile, alpha, blend).items()
            if isinstance(v, float)
        }
    document = training.model_document(profile, models, value, blend, thresholds, provenance)
    args.out.write_text(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(
        f"wrote {args.out} ({args.out.stat().st_size // 1024} KB: {len(models.vocab)} terms, "
        f"{len(value.names)} value features); thresholds {thresholds}; {time.perf_counter() - started:.0f} s"
    )
    print(json.dumps(provenance["dev"]), json.dumps(provenance.get("lofo_train_dev", {})))


if __name__ == "__main__":
    main()
