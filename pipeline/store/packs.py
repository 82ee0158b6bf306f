"""Knowledge packs: what a skill learned from the curated corpus, one row per skill in ``knowledge_packs``.

Skills never write SQL; they hand a pack (plain JSON-able dict: topics, passages, adaptation path) to
``save_pack`` and read it back with ``load_pack``. Saving again replaces the skill's pack (re-learning):
an upsert on the skill name, sqlite-utils' one-row case of what ``scores.write_scores`` does in bulk.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass(frozen=True)
class StoredPack:
    skill: str
    level: int
    built_at: float
    mastery: dict[str, Any]  # {"overall": .., "domains": {..}} at the time it was built
    pack: dict[str, Any]


def save_pack(db: Database, skill: str, level: int, mastery: dict[str, Any], pack: dict[str, Any]) -> StoredPack:
    built_at = time.time()
    db.table("knowledge_packs").upsert(
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


def load_pack(db: Database, skill: str) -> StoredPack | None:
    row = next(db.table("knowledge_packs").rows_where("skill = ?", [skill]), None)
    if row is None:
        return None
    return StoredPack(
        skill=row["skill"],
        level=row["level"],
        built_at=row["built_at"],
        mastery=json.loads(row["mastery"]),
        pack=json.loads(row["pack"]),
    )


def learned_levels(db: Database) -> dict[str, int]:
    """skill -> level of every stored pack."""
    return {row["skill"]: row["level"] for row in db.table("knowledge_packs").rows_where(select="skill, level")}
