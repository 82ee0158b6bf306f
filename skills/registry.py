"""Finds every skill, checks its manifest, and says where each one stands against the corpus' mastery.

Skills come from two places:

* folders of this package, ``skills/<folder>/SKILL.md`` (the folder name with ``_`` read as ``-``
  must equal the skill's ``name``: Python packages cannot contain hyphens);
* other installed packages, through the entry-point group ``shijie.skills``; the entry point loads to a
  folder path holding a SKILL.md, or to a skill object with a ``skill_dir`` attribute naming that folder.

A ``SKILL.md`` is an Agent Skills file: frontmatter with ``name`` (lowercase words joined by hyphens)
and ``description``, and our fields under ``metadata``::

    metadata:
      title: Operator Adaptation        # shown in lists and panels
      title_zh: 算子适配
      requires:                         # domain id -> minimum mastery (0..1) to learn it
        gpu_architecture: 0.3
      levels:                           # level -> mean mastery of the required domains it takes
        2: 0.55
        3: 0.75
      ops: [FusedAttentionBackward]     # operators it adapts
      entry: skills.operator_adaptation.skill:OperatorAdaptation   # module:object implementing it

Every problem of every manifest is collected; a broken skill is listed with its problems and never
hides the others. A third-party skill is code we do not control: whatever its entry point, constructor,
``skill_dir`` or manifest raises becomes one of its problems, never an exception in whoever lists skills. The implementation object is a ``skills.protocol.Skill`` (``learn`` builds the pack,
``invoke`` returns an ``Invocation``); one whose methods cannot take shijie's calls is broken too.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pipeline.errors import UsageError

from . import frontmatter
from .protocol import Skill, protocol_problems

ENTRY_POINT_GROUP = "shijie.skills"
NAME_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ENTRY_PATTERN = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
MAX_NAME = 64  # Agent Skills limits
MAX_DESCRIPTION = 1024
PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Manifest:
    name: str
    description: str
    title: str
    title_zh: str
    requires: dict[str, float]
    levels: dict[int, float]  # level (>= 2) -> mean required-domain mastery it takes; Lv.1 is acquisition
    ops: tuple[str, ...]
    entry: str
    folder: Path
    body: str = ""


@dataclass
class SkillEntry:
    """One discovered skill: its manifest when it parsed, and every problem found with it."""

    name: str
    origin: str
    manifest: Manifest | None = None
    problems: list[str] = field(default_factory=list)
    implementation: Skill | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Standing:
    """Where a skill stands: locked (with the shortfall per domain), learnable, or learned at a level."""

    status: str  # locked | learnable | learned
    level: int  # 0 until learned
    attainable_level: int  # the level the current mastery supports (0 while locked)
    shortfalls: dict[str, float]  # domain -> mastery still missing
    required_mastery: float  # mean mastery over the required domains


class Registry:
    def __init__(self, entries: list[SkillEntry]):
        self.entries = entries

    def names(self) -> list[str]:
        return [entry.name for entry in self.entries]

    def problems(self) -> list[str]:
        return [
            f"{entry.name} ({entry.origin}): {'; '.join(entry.problems)}" for entry in self.entries if entry.problems
        ]

    def get(self, name: str) -> SkillEntry:
        """The working skill called ``name``; a one-line error naming every problem otherwise."""
        matches = [entry for entry in self.entries if entry.name == name]
        if not matches:
            known = ", ".join(self.names()) or "none"
            raise UsageError(f"no skill named {name!r}; known skills: {known}")
        working = [entry for entry in matches if entry.ok]
        if working:
            return working[0]
        problems = "; ".join(problem for entry in matches for problem in entry.problems)
        raise UsageError(f"skill {name!r} is broken ({matches[0].origin}): {problems}")


def known_domains() -> tuple[set[str] | None, str | None]:
    """(the taxonomy's domain ids, None) or (None, why they could not be read)."""
    from pipeline.errors import DataError
    from pipeline.query import domains

    try:
        return {domain.id for domain in domains()}, None
    except DataError as exc:
        return None, str(exc)


def read_manifest(
    folder: Path, expected_name: str | None = None, domains: set[str] | None = None
) -> tuple[Manifest | None, list[str]]:
    """Parses and validates ``folder/SKILL.md``; returns (manifest or None, every problem found)."""
    path = folder / "SKILL.md"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [f"{path} does not exist"]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"cannot read {path}: {exc}"]
    try:
        block, body, first_line = frontmatter.split(text)
        data = frontmatter.parse(block, first_line)
    except frontmatter.FrontmatterError as exc:
        return None, [f"SKILL.md frontmatter: {exc}"]

    problems: list[str] = []
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append("frontmatter lacks 'name'")
        name = None
    elif not NAME_PATTERN.match(name) or len(name) > MAX_NAME:
        problems.append(
            f"name {name!r} must be lowercase letters and digits joined by single hyphens, at most {MAX_NAME} characters"
        )
    elif expected_name is not None and name != expected_name:
        problems.append(f"name {name!r} does not match its folder {folder.name!r} (expected {expected_name!r})")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append("frontmatter lacks 'description'")
    elif len(description) > MAX_DESCRIPTION:
        problems.append(f"description is longer than {MAX_DESCRIPTION} characters")

    meta = data.get("metadata")
    if not isinstance(meta, dict):
        problems.append("frontmatter lacks the 'metadata' mapping (title, requires, ops, entry)")
        meta = {}
    title = meta.get("title")
    if not isinstance(title, str) or not title:
        problems.append("metadata lacks 'title'")
    title_zh = meta.get("title_zh", title)
    if not isinstance(title_zh, str):
        problems.append("metadata.title_zh must be a string")

    requires = meta.get("requires", {})
    if not isinstance(requires, dict):
        problems.append("metadata.requires must map domain ids to a minimum mastery between 0 and 1")
        requires = {}
    for domain, minimum in requires.items():
        if domains is not None and domain not in domains:
            problems.append(f"metadata.requires names unknown domain {domain!r} (known: {', '.join(sorted(domains))})")
        if isinstance(minimum, bool) or not isinstance(minimum, (int, float)) or not 0 <= minimum <= 1:
            problems.append(f"metadata.requires.{domain} must be a number between 0 and 1, not {minimum!r}")

    levels_raw = meta.get("levels", {})
    levels: dict[int, float] = {}
    if not isinstance(levels_raw, dict):
        problems.append("metadata.levels must map levels (2, 3, ...) to the mean required mastery they take")
    else:
        for level, threshold in levels_raw.items():
            if not str(level).isdigit() or int(level) < 2:
                problems.append(f"metadata.levels key {level!r} must be a level number of 2 or more")
            elif isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
                problems.append(f"metadata.levels.{level} must be a number between 0 and 1, not {threshold!r}")
            else:
                levels[int(level)] = float(threshold)
        ordered = [levels[key] for key in sorted(levels)]
        if ordered != sorted(ordered):
            problems.append("metadata.levels thresholds must rise with the level")

    ops = meta.get("ops", [])
    if not isinstance(ops, list) or not all(isinstance(op, str) and op for op in ops):
        problems.append("metadata.ops must be a list of operator names")
        ops = []
    entry = meta.get("entry")
    if not isinstance(entry, str) or not ENTRY_PATTERN.match(entry):
        problems.append(f"metadata.entry must be 'module:object', not {entry!r}")
        entry = None

    if problems:
        return None, problems
    # with no problem found, every field above is the type it was checked to be
    name, description, title, entry = cast(str, name), cast(str, description), cast(str, title), cast(str, entry)
    return Manifest(
        name=name,
        description=description.strip(),
        title=title,
        title_zh=cast(str, title_zh) or title,
        requires={domain: float(minimum) for domain, minimum in requires.items()},
        levels=levels,
        ops=tuple(ops),
        entry=entry,
        folder=folder,
        body=body,
    ), []


def load_implementation(entry: str) -> tuple[Skill | None, str | None]:
    """Imports ``module:object``; a class is instantiated. Returns (skill, None) or (None, problem)."""
    module_name, _, attribute = entry.partition(":")
    try:
        target = importlib.import_module(module_name)
    except ImportError as exc:
        return None, f"code missing: cannot import {module_name!r} ({exc})"
    except Exception as exc:  # a skill's own bug must not take the registry down
        return None, f"code broken: importing {module_name!r} raised {type(exc).__name__}: {exc}"
    for part in attribute.split("."):
        if not hasattr(target, part):
            return None, f"code missing: {module_name!r} has no {attribute!r}"
        target = getattr(target, part)
    if isinstance(target, type):
        try:
            target = target()
        except Exception as exc:
            return None, f"code broken: {entry}() raised {type(exc).__name__}: {exc}"
    problems = protocol_problems(target, entry)
    if problems:
        return None, "; ".join(problems)
    return cast(Skill, target), None


def _entry_from_folder(
    folder: Path,
    origin: str,
    expected_name: str | None,
    domains,
    implementation: object | None = None,
    known_as: str | None = None,  # the entry point's name: what a skill whose manifest is broken is listed as
) -> SkillEntry:
    manifest, problems = read_manifest(folder, expected_name, domains)
    entry = SkillEntry(
        name=manifest.name if manifest else (expected_name or known_as or folder.name),
        origin=origin,
        manifest=manifest,
        problems=problems,
    )
    if manifest:
        try:
            if implementation is None:
                entry.implementation, problem = load_implementation(manifest.entry)
            else:  # an object an entry point loaded
                problem = "; ".join(protocol_problems(implementation, origin)) or None
                entry.implementation = None if problem else cast(Skill, implementation)
        except Exception as exc:  # e.g. a learn/invoke property that raises when looked at
            entry.implementation, problem = None, f"code broken: checking it raised {type(exc).__name__}: {exc}"
        if problem:
            entry.problems.append(problem)
    return entry


def _builtin_entries(root: Path, domains) -> list[SkillEntry]:
    entries = []
    for folder in sorted(path for path in root.iterdir() if path.is_dir() and not path.name.startswith(("_", "."))):
        if not (folder / "SKILL.md").exists() and not (folder / "__init__.py").exists():
            continue  # not a skill folder (caches, data)
        origin = f"{folder.parent.name}/{folder.name}"
        entries.append(_entry_from_folder(folder, origin, folder.name.replace("_", "-"), domains))
    return entries


def _entry_point_entries(domains) -> list[SkillEntry]:
    entries = []
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {point.name!r} ({point.value})"
        try:
            loaded = point.load()
        except Exception as exc:
            entries.append(_broken(point.name, origin, "code missing: loading the entry point raised", exc))
            continue
        try:
            entries.append(_entry_from_loaded(point.name, origin, loaded, domains))
        except Exception as exc:  # the rest of its code (manifest checks, protocol checks) failed on it
            entries.append(_broken(point.name, origin, "code broken: checking the skill raised", exc))
    return entries


def _broken(name: str, origin: str, what: str, exc: BaseException) -> SkillEntry:
    return SkillEntry(name=name, origin=origin, problems=[f"{what} {type(exc).__name__}: {exc}"])


def _entry_from_loaded(name: str, origin: str, loaded: object, domains) -> SkillEntry:
    """The skill an entry point loaded: a folder path, or a skill object (a class is instantiated) whose
    ``skill_dir`` names its folder."""
    if isinstance(loaded, (str, os.PathLike)):
        return _entry_from_folder(Path(loaded), origin, None, domains, known_as=name)
    # looked up without running it: on a class, skill_dir may be a property only an instance can read
    if inspect.getattr_static(loaded, "skill_dir", None) is None:
        return SkillEntry(
            name=name,
            origin=origin,
            problems=[
                "the entry point must load to a folder path holding SKILL.md or an object with a skill_dir attribute"
            ],
        )
    implementation: Any
    try:
        implementation = loaded() if isinstance(loaded, type) else loaded
    except Exception as exc:
        return _broken(name, origin, f"code broken: {getattr(loaded, '__name__', 'its class')}() raised", exc)
    try:
        folder = Path(implementation.skill_dir)
    except Exception as exc:
        return _broken(name, origin, "code broken: reading its skill_dir raised", exc)
    return _entry_from_folder(folder, origin, None, domains, implementation, known_as=name)


def discover(roots: list[Path] | None = None, entry_points: bool = True) -> Registry:
    """Every skill under ``roots`` (default: this package) and, if asked, from installed entry points."""
    domains, taxonomy_problem = known_domains()
    entries = []
    for root in roots if roots is not None else [PACKAGE_DIR]:
        entries.extend(_builtin_entries(Path(root), domains))
    if entry_points:
        entries.extend(_entry_point_entries(domains))
    first_seen: dict[str, SkillEntry] = {}
    for entry in entries:
        if taxonomy_problem and entry.manifest and entry.manifest.requires:
            entry.problems.append(f"cannot check its required domains: {taxonomy_problem}")
        if entry.name in first_seen:
            entry.problems.append(
                f"duplicate name: {entry.name!r} is already defined by {first_seen[entry.name].origin}"
            )
        else:
            first_seen[entry.name] = entry
    return Registry(entries)


def standing(manifest: Manifest, mastery, learned_level: int = 0) -> Standing:
    """Locked / learnable / learned, from a ``pipeline.query.Mastery`` and the stored pack's level."""
    shortfalls = {
        domain: round(minimum - mastery.domains.get(domain, 0.0), 4)
        for domain, minimum in manifest.requires.items()
        if mastery.domains.get(domain, 0.0) < minimum
    }
    required = [mastery.domains.get(domain, 0.0) for domain in manifest.requires] or [mastery.overall]
    mean = sum(required) / len(required)
    attainable = (
        0 if shortfalls else max([1] + [level for level, threshold in manifest.levels.items() if mean >= threshold])
    )
    status = "learned" if learned_level else "locked" if shortfalls else "learnable"
    return Standing(
        status=status,
        level=learned_level,
        attainable_level=attainable,
        shortfalls=shortfalls,
        required_mastery=round(mean, 4),
    )
