"""What the ``skills`` commands do: list skills against mastery, learn one into a stored pack, invoke it.

Each function takes an open database and a ``Registry`` and returns data (``Learned``, an ``Invocation``,
rows); the CLI and the report render it. Learning announces its phases through ``on_phase(phase)``
(``skills.protocol.Phase``), so the CLI can show the learning panels as they happen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Unpack

from pipeline.errors import UsageError

from .protocol import InvokeOptions, Invocation, Phase
from .registry import Registry, SkillEntry, standing

if TYPE_CHECKING:
    from pipeline.store import Database


@dataclass
class Learned:
    """What learning a skill gave; ``to_json()`` is ``shijie skills learn --json`` (its keys in field order)."""

    skill: str
    title: str
    level: int
    previous_level: int = 0
    relearned: bool = False
    mastery: dict[str, Any] = field(default_factory=dict)  # the mastery it was learned at
    required_mastery: float = 0.0  # mean mastery over the skill's required domains
    pack: dict[str, Any] = field(default_factory=dict)  # topics, passages, the adaptation path (the skill's own)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Learned:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{"skill": "", "title": "", "level": 0, **{k: v for k, v in data.items() if k in names}})


def _mastery(db: Database):
    from pipeline.query import mastery

    return mastery(db)


def mastery_dict(mastery) -> dict:
    return {"overall": round(mastery.overall, 4), "domains": {k: round(v, 4) for k, v in mastery.domains.items()}}


def list_skills(db: Database, registry: Registry) -> list[dict]:
    """Every skill with its level and status; a broken one with its problems."""
    from pipeline.store import learned_levels

    mastery = _mastery(db)
    levels = learned_levels(db)
    rows = []
    for entry in registry.entries:
        if not entry.ok:
            rows.append(
                {
                    "name": entry.name,
                    "title": entry.manifest.title if entry.manifest else entry.name,
                    "level": 0,
                    "status": "broken",
                    "requires": entry.manifest.requires if entry.manifest else {},
                    "problems": entry.problems,
                    "origin": entry.origin,
                }
            )
            continue
        manifest = entry.manifest
        where = standing(manifest, mastery, levels.get(entry.name, 0))
        rows.append(
            {
                "name": entry.name,
                "title": manifest.title,
                "title_zh": manifest.title_zh,
                "level": where.level,
                "status": where.status,
                "requires": manifest.requires,
                "shortfalls": where.shortfalls,
                "required_mastery": where.required_mastery,
                "attainable_level": where.attainable_level,
                "levels": {str(level): threshold for level, threshold in sorted(manifest.levels.items())},
                "ops": list(manifest.ops),
                "origin": entry.origin,
            }
        )
    return rows


def locked_message(entry: SkillEntry, shortfalls: dict[str, float], mastery) -> str:
    parts = [
        f"{domain} {mastery.domains.get(domain, 0.0):.1%} < {entry.manifest.requires[domain]:.1%} (short {gap:.1%})"
        for domain, gap in shortfalls.items()
    ]
    return (
        f"skill {entry.name!r} is locked: domain mastery below its requirements: {'; '.join(parts)}."
        " Crawl and curate more documents in those domains, then learn again"
    )


def learn(
    db: Database, registry: Registry, name: str, on_phase: Callable[[Phase], None] = lambda phase: None
) -> Learned:
    """Builds and stores the skill's knowledge pack; refuses while the skill is locked."""
    from pipeline.store import load_pack, save_pack

    entry = registry.get(name)
    mastery = _mastery(db)
    previous = load_pack(db, entry.name)
    where = standing(entry.manifest, mastery)
    if where.shortfalls:
        raise UsageError(locked_message(entry, where.shortfalls, mastery))
    pack = entry.implementation.learn(db, entry.manifest, on_phase)
    level = where.attainable_level
    stored = save_pack(db, entry.name, level, mastery_dict(mastery), pack)
    return Learned(
        skill=entry.name,
        title=entry.manifest.title,
        level=level,
        pack=pack,
        previous_level=previous.level if previous else 0,
        relearned=previous is not None,
        mastery=stored.mastery,
        required_mastery=where.required_mastery,
    )


def stored_pack(db: Database, registry: Registry, name: str):
    """(entry, stored pack) of a learned skill; a clear error telling how to learn it otherwise."""
    from pipeline.store import load_pack

    entry = registry.get(name)
    stored = load_pack(db, entry.name)
    if stored is None:
        raise UsageError(f"skill {entry.name!r} is not learned yet: run `shijie skills learn {entry.name}` first")
    return entry, stored


def invoke(db: Database, registry: Registry, name: str, **options: Unpack[InvokeOptions]) -> Invocation:
    """Runs the learned skill ``name`` with ``options`` (``skills.protocol.InvokeOptions``)."""
    entry, stored = stored_pack(db, registry, name)
    result = entry.implementation.invoke(db, entry.manifest, stored.pack, **options)
    if not isinstance(result, Invocation):
        raise UsageError(
            f"skill {entry.name!r} is broken ({entry.origin}): invoke returned {type(result).__name__},"
            " not a skills.protocol.Invocation"
        )
    return dataclasses.replace(result, skill=entry.name, level=stored.level)
