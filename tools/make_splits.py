"""Writes data/vision/splits.toml: every labelled family in train, dev or test (pipeline.vision.splits).

    python tools/make_splits.py [--check]

Families already in the file keep their split; new ones are placed by the documented rule. Families placed by
hand in test2 to test32 (the fresh held-out splits) stay there, each under the comment block that says why.
Reads labels only (relevance counts per family), never a score. ``--check`` exits 1 when a family is unassigned.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.vision.labelled import load_labels
from pipeline.vision.splits import HAND_PLACED, HELD_OUT, SPLITS, TARGETS, assign, load_splits, splits_path, stratum

HEADER = """\
# Train / dev / test of the Vision's labelled set, by family (pipeline/vision/splits.py reads this file).
# Written by tools/make_splits.py from the labels alone (relevance counts per family), before any labelled
# document was scored. The test split is looked at only to report.
#
# Procedure (deterministic):
# 1. each family falls in a stratum: origin (debian | github) x character ("off" when at least half of its
#    labelled documents are off-topic, else "on");
# 2. within a stratum, families are taken in the order of the SHA-256 of their name;
# 3. each goes to the split whose share of the stratum's labelled documents is furthest below its target
#    (test {test}, dev {dev}, train {train}), counting the family's own documents in the total; ties go to
#    test, then dev, then train;
# 4. an assignment once written never changes: families labelled later are placed by the same rule, in hash
#    order among themselves, given the documents already assigned.
# test2 to test9 are not placed by this rule: see the block above the families of each.
"""

HAND_PLACED_NOTES = {
    "test2": """
# test2: the fresh held-out split, placed by hand, not by the rule above. "test" was scored once and reported,
# so it can no longer tell whether a change to the Vision generalises. These families come from sources used
# nowhere else in the labelled set (no other version or fork of them is labelled), were labelled in one go
# before any of their documents was scored, and were all put here so that the whole fresh set is held out;
# the rule does not move them and does not count their documents when it places later families. Training
# reads only train and dev; test2 is scored once, to report.""",
    "test3": """
# test3: the second fresh held-out split, placed by hand like test2. test2 was scored and reported, and the Vision
# was then tuned on train, dev, test and test2, so none of them can tell any more whether it generalises. These
# families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them is
# labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test3; it is scored once, to report.""",
    "test4": """
# test4: the third fresh held-out split, placed by hand like test2 and test3. test3 was scored and reported, and the
# Vision was then tuned on train, dev, test, test2 and test3, so none of them can tell any more whether it
# generalises. These families come from sources used nowhere else in the labelled set (no other version, fork or
# mirror of them is labelled), were labelled in one go before any of their documents was scored, and were all put
# here; the rule neither moves them nor counts them. Training never reads test4; it is scored once, to report.""",
    "test5": """
# test5: the fourth fresh held-out split, placed by hand like test2, test3 and test4. test4 was scored and reported,
# and the Vision was then tuned on train, dev, test, test2, test3 and test4, so none of them can tell any more
# whether it generalises. These families come from sources used nowhere else in the labelled set (no other version,
# fork or mirror of them is labelled), were labelled in one go before any of their documents was scored, and were
# all put here; the rule neither moves them nor counts them. Training never reads test5; it is scored once, to
# report. (Since phase 7 it is training data: it was scored and reported at the end of phase 6.)""",
    "test6": """
# test6: the fifth fresh held-out split, placed by hand like test2 to test5. test5 was scored and reported, and the
# Vision was then tuned on the seven splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test6; it is scored once, to report. (Since phase 8 it is
# training data: it was scored and reported at the end of phase 7.)""",
    "test7": """
# test7: the sixth fresh held-out split, placed by hand like test2 to test6. test6 was scored and reported, and the
# Vision was then tuned on the eight splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test7; it is scored once, to report. (Since phase 9 it is
# training data: it was scored and reported at the end of phase 8.)""",
    "test8": """
# test8: the seventh fresh held-out split, placed by hand like test2 to test7. test7 was scored and reported, and the
# Vision was then tuned on the nine splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test8; it is scored once, to report. (Since phase 10 it
# is training data: it was scored and reported at the end of phase 9.)""",
    "test9": """
# test9: the eighth fresh held-out split, placed by hand like test2 to test8. test8 was scored and reported, and the
# Vision was then tuned on the ten splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test9; it is scored once, to report. (Since phase 12 it
# is training data: it was scored and reported at the end of phase 11.)""",
    "test10": """
# test10: the ninth fresh held-out split, placed by hand like test2 to test9. test9 was scored and reported, and the
# Vision was then tuned on the eleven splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test10; it is scored once, to report. (Since phase 14 it
# is training data: it was scored and reported at the end of phase 13.)""",
    "test11": """
# test11: the tenth fresh held-out split, placed by hand like test2 to test10. test10 was scored and reported, and
# the Vision was then tuned on the twelve splits before it, so none of them can tell any more whether it generalises.
# These families come from sources used nowhere else in the labelled set (no other version, fork or mirror of them
# is labelled), were labelled in one go before any of their documents was scored, and were all put here; the rule
# neither moves them nor counts them. Training never reads test11; it is scored once, to report. (Since phase 16 it
# is training data: it was scored and reported at the end of phase 15.)""",
}

FIRST_PATTERNED = 12  # from test12 on, every held-out split's block is held_out_note's pattern


def cardinal(n: int) -> str:
    """An English number word, 1 to 99 ("twenty-six"), as the blocks spell the number of splits."""
    units = "one two three four five six seven eight nine".split()
    teens = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()
    if n < 10:
        return units[n - 1]
    if n < 20:
        return teens[n - 10]
    return tens[n // 10 - 2] + (f"-{units[n % 10 - 1]}" if n % 10 else "")


def ordinal(n: int) -> str:
    """An English ordinal word, 1 to 99 ("twenty-fourth")."""
    *head, last = cardinal(n).split("-")
    irregular = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth"}
    irregular |= {"nine": "ninth", "twelve": "twelfth"}
    last = irregular.get(last) or (last[:-1] + "ieth" if last.endswith("y") else last + "th")
    return "-".join([*head, last])


def held_out_note(split: str) -> str:
    """The comment block above a fresh held-out split from test12 on, which all say the same of their own number.

    testN is the (N-1)th fresh held-out split, labelled after test(N-1) was scored and held out of phase N+4 (test12
    of phase 16, test25 of phase 29); once a later phase makes it training data, a last line says since when.
    """
    n = int(split.removeprefix("test"))
    tuned = "was then tuned" if n < 16 else "is tuned"
    text = (
        f"{split}: the {ordinal(n - 1)} fresh held-out split, placed by hand like test2 to test{n - 1}. test{n - 1} was "
        f"scored and reported, and the Vision {tuned} on the {cardinal(n + 1)} splits before it, so none of them can "
        "tell any more whether it generalises. These families come from sources used nowhere else in the labelled "
        "set (no other version, fork or mirror of them is labelled), were labelled in one go before any of their "
        "documents was scored, and were all put here; the rule neither moves them nor counts them. Training never "
        f"reads {split}; it is scored once, to report."
    )
    block = "\n" + textwrap.fill(text, width=118, initial_indent="# ", subsequent_indent="# ", break_on_hyphens=False)
    if split != HELD_OUT:
        block += (
            f"\n# (Since phase {n + 5} it is training data: it was scored and reported at the end of phase {n + 4}.)"
        )
    return block


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that every family is assigned")
    args = parser.parse_args()
    labels = load_labels()
    path = splits_path()
    existing = load_splits(path) if path.exists() else {}
    if args.check:
        missing = sorted({label.family for label in labels} - set(existing))
        if missing:
            sys.exit(f"families without a split: {', '.join(missing)} (python tools/make_splits.py)")
        print(f"all {len({label.family for label in labels})} families assigned")
        return
    result = assign(labels, existing)
    by_family = defaultdict(list)
    for label in labels:
        by_family[label.family].append(label)
    lines = [HEADER.format(**TARGETS)]
    counts: dict[str, Counter] = {s: Counter() for s in SPLITS}
    for family, members in by_family.items():
        for label in members:
            counts[result[family]][(label.origin, label.relevance)] += 1
    lines.append("# documents per split (origin, relevance) when last written:")
    for split in SPLITS:
        summary = ", ".join(f"{o} {r} {n}" for (o, r), n in sorted(counts[split].items()))
        lines.append(f"#   {split}: {sum(counts[split].values())} ({summary})")
    lines.append("\n[families]")
    noted: set[str] = set()
    for family in sorted(result, key=lambda f: (SPLITS.index(result[f]), stratum(by_family[f]), f)):
        members = by_family[family]
        if result[family] in HAND_PLACED and result[family] not in noted:
            split = result[family]
            lines.append(HAND_PLACED_NOTES.get(split) or held_out_note(split))
            noted.add(result[family])
        lines.append(f'"{family}" = "{result[family]}"  # {stratum(members)}, {len(members)} documents')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    new = sorted(set(result) - set(existing))
    print(f"wrote {path}: {len(result)} families, {len(new)} newly placed: {', '.join(new) or 'none'}")


if __name__ == "__main__":
    main()
