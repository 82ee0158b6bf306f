"""Train / dev / test by family: no family in two splits (``data/vision/splits.toml``).

A family is the splitting unit of the label files (one project: its Debian packages of several versions and
its repository are one family), so a version pair or a source copy never sits on both sides of a split and
nothing the model learns of one project's wording is tested on that project.

The assignment procedure (deterministic, decided on labels only, before any document is scored; the file's
header says the same):

1. Each family falls in a stratum: its origin (debian | github) × its character ("off" when at least half
   of its labelled documents are off-topic, else "on").
2. Within a stratum, families are taken in the order of the SHA-256 of their name (an order nobody chose).
3. Each goes to the split whose share of the stratum's labelled documents is furthest below its target
   (``TARGETS``); ties go to test, then dev, then train.
4. An assignment, once written, never changes: families that land later are placed by the same rule, in
   the same hash order among themselves, given the documents already assigned.

``assign()`` applies the rule; ``tools/make_splits.py`` writes the file; ``load_splits()`` reads it.

``test2`` is the fresh held-out split, labelled after ``test`` had been scored and reported (so ``test`` could
no longer tell whether a change generalises): families from sources used nowhere else in the labelled set,
labelled before any scoring and placed there by hand, not by the rule (``HAND_PLACED``). The rule neither
moves them nor counts their documents when it places later families; training reads only train and dev.

``test3`` is the second fresh held-out split, labelled after ``test2`` had been scored and reported (and the
Vision then tuned on train, dev, test and test2): sixteen families from sources used nowhere else in the labelled
set, labelled before any scoring and placed there by hand under the same terms as ``test2``.

``test4`` is the third fresh held-out split, labelled after ``test3`` had been scored and reported (and the Vision
then tuned on train, dev, test, test2 and test3): thirteen families from sources used nowhere else in the labelled
set (no other version, fork or mirror of them is labelled), labelled before any scoring and placed there by hand
under the same terms as ``test2``.

``test5`` is the fourth fresh held-out split, labelled after ``test4`` had been scored and reported (and the
Vision then tuned on train, dev, test, test2, test3 and test4): twenty families from sources used nowhere else in
the labelled set (no other version, fork or mirror of them is labelled), labelled before any scoring and placed
there by hand under the same terms as ``test2``.

``test6`` is the fifth fresh held-out split, labelled after ``test5`` had been scored and reported (and the
Vision then tuned on the seven splits before it), under the same terms as ``test2``.

``test7`` is the sixth fresh held-out split, labelled after ``test6`` had been scored and reported (and the
Vision then tuned on the eight splits before it), under the same terms as ``test2``.

``test8`` is the seventh fresh held-out split, labelled after ``test7`` had been scored and reported (and the
Vision then tuned on the nine splits before it), under the same terms as ``test2``.

``test9`` is the eighth fresh held-out split, labelled after ``test8`` had been scored and reported (and the
Vision then tuned on the ten splits before it), under the same terms as ``test2``.

``test10`` is the ninth fresh held-out split, labelled after ``test9`` had been scored and reported (and the
Vision then tuned on the eleven splits before it), under the same terms as ``test2``.

``test11`` is the tenth fresh held-out split, labelled after ``test10`` had been scored and reported (and the
Vision then tuned on the twelve splits before it), under the same terms as ``test2``.

``test12`` is the eleventh fresh held-out split, labelled after ``test11`` had been scored and reported (and the
Vision then tuned on the thirteen splits before it), under the same terms as ``test2``.

``test13`` is the twelfth fresh held-out split, labelled after ``test12`` had been scored and reported (and the
Vision then tuned on the fourteen splits before it), under the same terms as ``test2``.

``test14`` is the thirteenth fresh held-out split, labelled after ``test13`` had been scored and reported (and the
Vision then tuned on the fifteen splits before it), under the same terms as ``test2``.

``test15`` is the fourteenth fresh held-out split, labelled after ``test14`` had been scored and reported (and the
Vision then tuned on the sixteen splits before it), under the same terms as ``test2``.

``test16`` is the fifteenth fresh held-out split, labelled after ``test15`` had been scored and reported (and the
Vision then tuned on the seventeen splits before it), under the same terms as ``test2``.

``test17`` is the sixteenth fresh held-out split, labelled after ``test16`` had been scored and reported (and the
Vision then tuned on the eighteen splits before it), under the same terms as ``test2``.

``test18`` is the seventeenth fresh held-out split, labelled after ``test17`` had been scored and reported (and the
Vision then tuned on the nineteen splits before it), under the same terms as ``test2``.

``test19`` is the eighteenth fresh held-out split, labelled after ``test18`` had been scored and reported (and the
Vision then tuned on the twenty splits before it), under the same terms as ``test2``.

``test20`` is the nineteenth fresh held-out split, labelled after ``test19`` had been scored and reported (and the
Vision then tuned on the twenty-one splits before it), under the same terms as ``test2``.

``test21`` is the twentieth fresh held-out split, labelled after ``test20`` had been scored and reported (and the
Vision then tuned on the twenty-two splits before it), under the same terms as ``test2``.

``test22`` is the twenty-first fresh held-out split, labelled after ``test21`` had been scored and reported (and the
Vision then tuned on the twenty-three splits before it), under the same terms as ``test2``.

``test23`` is the twenty-second fresh held-out split, labelled after ``test22`` had been scored and reported (and the
Vision then tuned on the twenty-four splits before it), under the same terms as ``test2``.

``test24`` is the twenty-third fresh held-out split, labelled after ``test23`` had been scored and reported (and the
Vision then tuned on the twenty-five splits before it), under the same terms as ``test2``.

``test25`` is the twenty-fourth fresh held-out split, labelled after ``test24`` had been scored and reported (and the
Vision then tuned on the twenty-six splits before it), under the same terms as ``test2``.

``test26`` is the twenty-fifth fresh held-out split, labelled after ``test25`` had been scored and reported (and the
Vision then tuned on the twenty-seven splits before it), under the same terms as ``test2``.

``test27`` is the twenty-sixth fresh held-out split, labelled after ``test26`` had been scored and reported (and the
Vision then tuned on the twenty-eight splits before it), under the same terms as ``test2``.

``test28`` is the twenty-seventh fresh held-out split, labelled after ``test27`` had been scored and reported (and the
Vision then tuned on the twenty-nine splits before it), under the same terms as ``test2``.

``test29`` is the twenty-eighth fresh held-out split, labelled after ``test28`` had been scored and reported (and the
Vision then tuned on the thirty splits before it), under the same terms as ``test2``.

``test30`` is the twenty-ninth fresh held-out split, labelled after ``test29`` had been scored and reported (and the
Vision then tuned on the thirty-one splits before it), under the same terms as ``test2``.

``test31`` is the thirtieth fresh held-out split, labelled after ``test30`` had been scored and reported (and the
Vision then tuned on the thirty-two splits before it), under the same terms as ``test2``.

``test32`` is the thirty-first fresh held-out split, to be labelled now that ``test31`` has been scored and reported
(and the Vision tuned on the thirty-three splits before it), under the same terms as ``test2``.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

from ..errors import DataError
from ..resources import data_dir, read_data_file
from .labelled import Label

HAND_PLACED = tuple(f"test{n}" for n in range(2, 33))  # test2..test32, placed by hand outside the rule (docstring)
SPLITS = ("train", "dev", "test", *HAND_PLACED)
HELD_OUT = "test32"  # the held-out split of phase 36: training never reads it, the coordinator scores it once
TRAINING_SPLITS = tuple(s for s in SPLITS if s != HELD_OUT)  # every split scored and reported, and so tuned on
RULE_SPLITS = tuple(s for s in SPLITS if s not in HAND_PLACED)
TARGETS = {"test": 0.3, "dev": 0.2, "train": 0.5}
_TIE_ORDER = ("test", "dev", "train")


def splits_path() -> Path:
    return data_dir() / "vision" / "splits.toml"


def stratum(labels: list[Label]) -> str:
    """``<origin>-<on|off>`` of one family's labels."""
    off = sum(label.relevance == "off" for label in labels)
    return f"{labels[0].origin}-{'off' if 2 * off >= len(labels) else 'on'}"


def assign(labels: list[Label], existing: dict[str, str] | None = None) -> dict[str, str]:
    """family → split for every family of ``labels``, keeping ``existing`` assignments as they are.

    Families ``existing`` puts in a hand-placed split keep it and are left out of the rule's counts."""
    existing = dict(existing or {})
    by_family: dict[str, list[Label]] = defaultdict(list)
    for label in labels:
        by_family[label.family].append(label)
    result = {f: s for f, s in existing.items() if f in by_family}
    strata: dict[str, list[str]] = defaultdict(list)
    for family, members in by_family.items():
        if result.get(family) not in HAND_PLACED:
            strata[stratum(members)].append(family)
    for name in sorted(strata):
        families = strata[name]
        docs: Counter = Counter()
        for family in families:
            if family in result:
                docs[result[family]] += len(by_family[family])
        for family in sorted((f for f in families if f not in result), key=_hash_order):
            total = sum(docs.values()) + len(by_family[family])
            # the split furthest below its target share once this family's documents count in the total
            deficit = {s: TARGETS[s] - docs[s] / total for s in RULE_SPLITS}
            choice = max(_TIE_ORDER, key=lambda s: (round(deficit[s], 9), -_TIE_ORDER.index(s)))
            result[family] = choice
            docs[choice] += len(by_family[family])
    return result


def _hash_order(family: str) -> str:
    return hashlib.sha256(family.encode("utf-8")).hexdigest()


def load_splits(path: str | Path | None = None) -> dict[str, str]:
    """family → split, from ``splits.toml`` (``[families]`` table)."""
    path = Path(path) if path is not None else splits_path()
    raw = read_data_file(path, "splits file", fix="python tools/make_splits.py")
    families = raw.get("families")
    if not isinstance(families, dict):
        raise DataError(f"splits file {path} has no [families] table")
    for family, split in families.items():
        if split not in SPLITS:
            raise DataError(f"splits file {path}: family {family!r} is in {split!r}, not one of {', '.join(SPLITS)}")
    return dict(families)


def select(labels: list[Label], split: str | tuple[str, ...], splits: dict[str, str] | None = None) -> list[Label]:
    """The labels of the families in ``split`` (one name or several)."""
    wanted = (split,) if isinstance(split, str) else tuple(split)
    for name in wanted:
        if name not in SPLITS:
            raise DataError(f"unknown split {name!r}: one of {', '.join(SPLITS)}")
    splits = splits if splits is not None else load_splits()
    return [label for label in labels if splits.get(label.family) in wanted]


def unassigned(labels: list[Label], splits: dict[str, str]) -> list[str]:
    return sorted({label.family for label in labels if label.family not in splits})
