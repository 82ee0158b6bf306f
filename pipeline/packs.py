"""Knowledge packs: what a skill learned from the curated corpus, one row per skill in ``knowledge_packs``.

Skills never write SQL; they hand a pack (plain JSON-able dict: topics, passages, adaptation path) to
``save_pack`` and read it back with ``load_pack``. Saving again replaces the skill's pack (re-learning).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class StoredPack:
    skill: str
    level: int
    built_at: float
    mastery: dict  # {"overall": .., "domains": {..}} at the time it was built
    pack: dict


def save_pack(db, skill: str, level: int, mastery: dict, pack: dict) -> StoredPack:
    built_at = time.time()
    db["knowledge_packs"].upsert(
        {
            "skill": skill,
            "level": level,
            "built_at": built_at,
            "mastery": json.dumps(mastery, ensure_ascii=False),
            "pack": json.dumps(pack, ensure_ascii=False),
        },
        pk="skill",
    )
    return StoredPack(skill=skill, level=level, built_at=built_at, mastery=mastery, pack=pack)


def load_pack(db, skill: str) -> StoredPack | None:
    rows = list(db.query("SELECT * FROM knowledge_packs WHERE skill = ?", [skill]))
    if not rows:
        return None
    row = rows[0]
    return StoredPack(
        skill=row["skill"],
        level=row["level"],
        built_at=row["built_at"],
        mastery=json.loads(row["mastery"]),
        pack=json.loads(row["pack"]),
    )


def learned_levels(db) -> dict[str, int]:
    """skill -> level of every stored pack."""
    return {row["skill"]: row["level"] for row in db.query("SELECT skill, level FROM knowledge_packs")}
