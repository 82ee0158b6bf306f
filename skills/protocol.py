"""The seam between shijie and a skill: what a skill's implementation provides, and what it gives back.

A skill's ``SKILL.md`` names its implementation (``metadata.entry: module:object``); the registry loads it
and checks it against ``Skill`` (``learn`` and ``invoke`` must accept the calls below), so a skill that does
not fit is listed as broken instead of failing when it is used.

* ``learn(db, manifest, on_phase)`` builds the knowledge pack (a JSON-able dict) from the curated corpus,
  reporting each ``Phase`` as it starts; the CLI and the report show the phases as learning panels.
* ``invoke(db, manifest, pack, op=..., device=..., target=..., benchmark=..., problem=...)`` (``InvokeOptions``)
  puts the pack to work on one operator and returns an ``Invocation``: one object that ``--json``, the
  terminal and the HTML report all render.

Words for people live in ``shijie.text``; here there are only ids (``Phase.paths``, ``Device.cuda``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, Required, TypedDict, Unpack, runtime_checkable

if TYPE_CHECKING:
    from sqlite_utils import Database

    from .registry import Manifest


class Phase(StrEnum):
    """The phases of learning, in order, as ``learn`` reports them through ``on_phase``."""

    structure = "structure"  # recognizing the skill's structure
    fragments = "fragments"  # organizing knowledge fragments
    paths = "paths"  # compressing reasoning paths


class Device(StrEnum):
    """Where ``invoke`` runs its kernel: ``auto`` takes CUDA when it is usable, the CPU otherwise."""

    auto = "auto"
    cpu = "cpu"
    cuda = "cuda"


@dataclass(frozen=True)
class OpStatus:
    """One operator of the adaptation list: adapted (a kernel exists) or not (a path and sources only)."""

    op: str
    adapted: bool


@dataclass
class Invocation:
    """What invoking a skill on an operator gives back; ``to_json()`` is ``shijie skills invoke --json``.

    ``plan``, ``validation`` and ``benchmark`` are the skill's tables of figures (rendered by their keys);
    ``extras`` holds whatever else the skill reports (operator-adaptation: ``dq_strategies``,
    ``benchmark_summary``, ``tuned_configs``), serialized beside the rest and shown as plain tables.
    ``skill`` and ``level`` are filled in by ``skills.learning.invoke``.
    """

    op: str
    adapted: bool
    adaptation_list: list[OpStatus]
    knowledge: list[dict[str, Any]]  # the adaptation path's steps with the passages behind each
    device: Device | None = None  # where the kernel ran: cpu or cuda, None when nothing ran
    device_name: str | None = None  # the device as its driver names it, when a kernel ran
    target: str | None = None  # the hardware profile planned for
    plan: dict[str, Any] | None = None
    validation: list[dict[str, Any]] | None = None
    benchmark: list[dict[str, Any]] | None = None
    notes: list[str] | None = None  # remarks on the run; when nothing was adapted, the first says why
    extras: dict[str, Any] = field(default_factory=dict)
    skill: str = ""
    level: int = 0

    def checks(self) -> tuple[int, int]:
        """(validation cases passed, validation cases run)."""
        rows = [row for row in self.validation or [] if isinstance(row, dict)]
        return sum(1 for row in rows if row.get("passed")), len(rows)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "skill": self.skill,
            "level": self.level,
            "op": self.op,
            "adapted": self.adapted,
            "adaptation_list": [asdict(item) for item in self.adaptation_list],
            "device": self.device,
        }
        if self.device_name is not None:
            data["device_name"] = self.device_name
        data |= {
            "target": self.target,
            "plan": self.plan,
            "validation": self.validation,
            "benchmark": self.benchmark,
            "knowledge": self.knowledge,
        }
        if self.notes is not None:
            data["notes"] = self.notes
        return data | self.extras

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Invocation:
        """Reads ``to_json()``'s dict back; missing keys take their defaults, unknown keys become ``extras``."""
        known = ({f.name for f in fields(cls)} - {"extras"}) | {"note"}  # "note": read into notes
        device = data.get("device")
        return cls(
            op=str(data.get("op") or ""),
            adapted=bool(data.get("adapted", True)),
            adaptation_list=[
                OpStatus(str(item.get("op", "")), bool(item.get("adapted")))
                for item in data.get("adaptation_list") or []
                if isinstance(item, Mapping)
            ],
            knowledge=list(data.get("knowledge") or []),
            device=Device(device) if device else None,
            device_name=data.get("device_name"),
            target=data.get("target"),
            plan=data.get("plan"),
            validation=data.get("validation"),
            benchmark=data.get("benchmark"),
            # one key, "notes"; a result written before it had "note" as well (why nothing was adapted)
            notes=[data["note"], *(data.get("notes") or [])] if data.get("note") else data.get("notes"),
            extras={key: value for key, value in data.items() if key not in known},
            skill=str(data.get("skill") or ""),
            level=int(data.get("level") or 0),
        )


class InvokeOptions(TypedDict, total=False):
    """The options shijie passes to ``Skill.invoke`` (those of ``shijie skills invoke``); ``op`` always."""

    op: Required[str]  # the operator to adapt, e.g. FusedAttentionBackward
    device: Device
    target: str | None  # a hardware profile to plan for (h100, a .toml path), None: the skill's choice
    benchmark: bool  # measure against the vendor kernels
    problem: Any  # the problem shape to plan for (operator-adaptation: a tile_plan.Problem); a skill may ignore it


@runtime_checkable
class Skill(Protocol):
    """A skill's implementation object (``SKILL.md``'s ``metadata.entry``; a class is instantiated)."""

    def learn(self, db: Database, manifest: Manifest, on_phase: Callable[[Phase], None], /) -> dict[str, Any]:
        """The knowledge pack, built from the curated corpus; ``on_phase`` hears each phase as it starts."""
        ...

    def invoke(
        self, db: Database, manifest: Manifest, pack: dict[str, Any], /, **options: Unpack[InvokeOptions]
    ) -> Invocation:
        """Puts the pack to work on ``options["op"]``."""
        ...


def protocol_problems(implementation: object, entry: str) -> list[str]:
    """What keeps ``implementation`` from being a ``Skill``: a missing method, or one that cannot take the
    calls shijie makes (``learn(db, manifest, on_phase)``, ``invoke(db, manifest, pack, **InvokeOptions)``)."""
    missing = [name for name in ("learn", "invoke") if not callable(getattr(implementation, name, None))]
    if missing:
        return [f"code incomplete: {entry} has no {' or '.join(missing)}() method"]
    options = list(InvokeOptions.__annotations__)  # in the order they are declared
    calls: tuple[tuple[str, tuple[None, ...], dict[str, None], str], ...] = (
        ("learn", (None, None, None), {}, "learn(db, manifest, on_phase)"),
        ("invoke", (None, None, None), dict.fromkeys(options), f"invoke(db, manifest, pack, {'=, '.join(options)}=)"),
    )
    problems = []
    for name, args, kwargs, shape in calls:
        try:
            inspect.signature(getattr(implementation, name)).bind(*args, **kwargs)
        except TypeError as exc:
            problems.append(f"code incomplete: {entry}.{name} cannot be called as {shape} ({exc})")
        except ValueError:
            pass  # a builtin without a signature: it will tell when called
    return problems
