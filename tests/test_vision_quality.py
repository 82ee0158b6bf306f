"""Quality floors of the learned Vision on real documents nobody here wrote (the labelled set's Debian part).

The documents of a split whose texts come from Debian documentation packages (installed by .ci/run; the GitHub
cache is not there in CI) are stored in a fresh database as the crawler stores pages and scored by the Vision
(``pipeline.score.score_corpus``); the issue's figures (``pipeline.vision.evaluate``) must reach the floors.

Since phase 3 (2026-12-01) the shipped model is trained on the splits that have been looked at (phase 4: train,
dev, test and test2; tools/train_vision.py), so no split here is held out: their floors are **regression floors
on in-sample data**, not evidence of generalisation (that is the leave-families-out figures in docs/perf.md, and
test3, the held-out split the coordinator scores).
``test``'s floors are the issue's targets where the Vision meets them (traps below the median, the copy to keep
kept, off-topic pages not high/medium) and, where it does not, the figure measured at phase 3 rounded to two
digits on the lenient side, so a real regression fails, with the issue's target beside it: relevance AUC 0.995
(floor 0.99; target 0.95), Spearman 0.510 (0.50; 0.6), near-copy recall 0.923 (0.92; 0.95), false copy flags
2.4% (3%; 2%), technical pages labelled high/medium 0.737 (0.73; 0.8). The scorer of before the Vision fails
six of the eight on the same 151 documents: AUC 0.575, Spearman 0.351, traps below the median 0.742, recall
0.346, false flags 13.6%, copies to keep kept 0.400, technical high/medium 0.

``test2`` was the held-out split of phase 3 (12 sources labelled after ``test`` was looked at; docs/perf.md, "A
fresh held-out split"): its Debian part's floors were then held-out figures (AUC 0.820, Spearman 0.455, technical
high/medium 0.263, …). Since phase 4 the model is trained on it, so they are **in-sample regression floors** at
what phase 4 measured there (docs/perf.md, "The Vision, phase 4"), rounded on the lenient side: relevance AUC
0.998 (floor 0.99), Spearman 0.545 (0.54), traps below the median 1.0 (the target), near-copy recall 0.600
(0.60), false copy flags 9.8% (10%), the copy to keep kept 0.733 (0.73), technical pages high/medium 0.855
(0.85), off-topic high/medium 0% (the target, 5%). The copies figures are the redundancy stage's, unchanged by
phase 4. The scorer of before the Vision fails six of the eight there: AUC 0.424, Spearman 0.263, traps 0.259,
false flags 16.1%, copies kept 0.600, technical high/medium 0.013.

Since test2 was scored and reported it is tuning data too. The copies of phase 4 (vcopy, 2026-12-01: man pages
rendered from troff, templates as lines other pages share, translations by the words both languages write
alike, the current revision of a repository kept; docs/perf.md) were judged on it with train, dev and test: its
Debian part now measures near-copy recall 1.0 (floor: the target, 0.95), false copy flags 2.8% (3%), the copy
to keep kept 0.933 (0.93). Two floors went down with them, by what they changed and no more: Spearman 0.455 →
0.381 (0.38), because the six man pages (technical, tier B/C) are now found as the copies of their HTML twins
and valued as repeats, near 0, by design (without the labelled copies it rose, 0.446 → 0.471); relevance AUC
0.820 → 0.816 (0.81), because the man pages are read as the text a reader sees rather than their troff
requests.

``dev`` keeps its floors of phase 1: the issue's targets, two lower where dev's Debian part misses them
(technical high/medium 0.6, measured 0.722; traps 0.9, measured 1.0).
"""

from __future__ import annotations

import pytest

from pipeline.score import score_corpus
from pipeline.vision.evaluate import TARGETS, metrics, score_labelled
from pipeline.vision.labelled import load_documents, load_labels
from pipeline.vision.splits import select

FLOORS = {
    "test": {
        **TARGETS,
        "relevance_auc": (">=", 0.99),
        "spearman": (">=", 0.5),
        "copy_recall": (">=", 0.92),
        "false_flags": ("<=", 0.03),
        "technical_high_medium": (">=", 0.73),
    },
    "test2": {
        **TARGETS,
        "relevance_auc": (">=", 0.99),
        "spearman": (">=", 0.54),
        "copy_recall": (">=", 0.6),
        "false_flags": ("<=", 0.1),
        "newer_kept": (">=", 0.73),
        "technical_high_medium": (">=", 0.85),
    },
    "dev": {**TARGETS, "technical_high_medium": (">=", 0.6), "traps_below_median": (">=", 0.9)},
}
MIN_DOCUMENTS = 80  # fewer read means the Debian packages are missing: apt-get install $(tools/vision_packages.py)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=sorted(FLOORS))
def figures(request, tmp_path_factory):
    split = request.param
    labels = [label for label in select(load_labels(), split) if label.origin == "debian"]
    loaded, report = load_documents(labels)
    if report.loaded < MIN_DOCUMENTS:
        pytest.skip(
            f"only {report.summary()}: install the Debian documentation packages "
            "(apt-get install $(python3 tools/vision_packages.py))"
        )
    ids, outcomes = score_labelled(loaded, score_corpus, tmp_path_factory.mktemp(f"vision-{split}"))
    result = metrics(labels, ids, outcomes)
    print(split, report.summary(), {k: v for k, v in result.items() if isinstance(v, float)})
    return split, result


def test_the_split_holds_what_the_floors_need(figures):
    _, result = figures
    counts = result["counts"]
    assert counts["technical"] >= 40 and counts["admin"] >= 20 and counts["off"] >= 15
    assert result["traps"] >= 5 and result["copy_pairs"] >= 1


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_floor(figures, name):
    split, result = figures
    op, floor = FLOORS[split][name]
    value = result[name]
    assert value is not None and (value >= floor if op == ">=" else value <= floor), (
        f"{split}: {name} = {value}, floor {op} {floor}"
    )
