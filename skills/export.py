"""Writes a learned skill as a self-contained Agent Skills folder that agent tools can load.

DIR/<name>/SKILL.md           the manifest (frontmatter kept) and its instructions
DIR/<name>/references/        the knowledge pack: adaptation path and topics with their sources (Markdown),
                              the pack itself (JSON), the hardware profiles
DIR/<name>/scripts/           the skill's runnable code: the NumPy reference kernel, the hardware profiles, the tile planner
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pipeline.errors import UsageError

# the scripts an agent can run without shijie's database: file name in the skill folder (tile_plan.py imports
# hardware.py from beside it)
SCRIPTS = ("numpy_backward.py", "hardware.py", "tile_plan.py")


def _passages_md(passages: list[dict]) -> list[str]:
    lines = []
    for passage in passages:
        lines.append(f"- [{passage['title'] or passage['url']}]({passage['url']})")
        lines.append(f"  > {passage['excerpt']}")
    return lines or ["- (no passage found in the curated corpus)"]


def path_markdown(title: str, pack: dict) -> str:
    lines = [f"# {title}: adaptation path", "", "Each step with the passages of the curated corpus behind it.", ""]
    for step in pack["path"]:
        lines += [
            f"## {step['step']}. {step['title']} ({step['title_zh']})",
            "",
            f"Domain: {step['domain']}. Query: `{step['query']}`.",
            "",
        ]
        lines += _passages_md(step["passages"]) + [""]
    return "\n".join(lines)


def topics_markdown(title: str, pack: dict) -> str:
    lines = [
        f"# {title}: topics of the curated corpus",
        "",
        f"{pack['documents']} curated documents, clustered by their TF-IDF vectors.",
        "",
    ]
    for topic in pack["topics"]:
        lines += [
            f"## Topic {topic['id']}: {', '.join(topic['label'])}",
            "",
            f"Domain: {topic['domain']}.",
            "",
            "Documents:",
            "",
        ]
        lines += [
            f"- [{doc['title'] or doc['url']}]({doc['url']}) (value {doc['value']})" for doc in topic["documents"]
        ]
        lines += ["", "Best passages:", ""] + _passages_md(topic["passages"]) + [""]
    return "\n".join(lines)


COMPATIBILITY = (
    "Python 3.11+ with NumPy for scripts/; the Triton kernel path needs the shijie package with "
    "torch, triton and an NVIDIA GPU"
)


def spec_frontmatter(manifest, level: int) -> str:
    """Frontmatter as the Agent Skills specification has it: metadata maps string keys to string values.

    Our own SKILL.md nests (requires: domain -> mastery); an exported skill flattens that into strings so
    that strict loaders accept it. Values are JSON strings, which YAML reads as double-quoted scalars.
    """
    metadata = {
        "title": manifest.title,
        "title_zh": manifest.title_zh,
        "level": str(level),
        "ops": " ".join(manifest.ops),
        "requires": " ".join(f"{domain}={minimum:g}" for domain, minimum in manifest.requires.items()),
        "levels": " ".join(f"{lv}={threshold:g}" for lv, threshold in sorted(manifest.levels.items())),
        "generator": "shijie skills export",
    }
    lines = [
        "---",
        f"name: {manifest.name}",
        f"description: {json.dumps(manifest.description, ensure_ascii=False)}",
        "license: MIT",
        f"compatibility: {json.dumps(COMPATIBILITY)}",
        "metadata:",
    ]
    lines += [f"  {key}: {json.dumps(value, ensure_ascii=False)}" for key, value in metadata.items()]
    return "\n".join(lines + ["---"])


def export_skill(entry, stored, destination: Path) -> Path:
    """Writes ``destination/<name>/``; returns that folder. Refuses to overwrite a non-empty folder."""
    from pipeline.resources import data_dir

    folder = Path(destination) / entry.name
    if folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{folder} already exists and is not empty; choose another DIR or remove it")
    manifest = entry.manifest
    (folder / "references").mkdir(parents=True, exist_ok=True)
    (folder / "scripts").mkdir(exist_ok=True)
    extra = [
        "",
        "## Bundled files",
        "",
        "- `references/adaptation-path.md`: the ordered adaptation path, each step with its sources",
        "- `references/topics.md`: the topics of the curated corpus and their best passages",
        "- `references/knowledge-pack.json`: the same, as data",
        "- `references/hardware/*.toml`: the hardware profiles the tile planner reads",
    ]
    extra += [
        f"- `scripts/{name}`: run `python scripts/{name}`" for name in SCRIPTS if (manifest.folder / name).exists()
    ]
    extra += ["", f"Learned at Lv.{stored.level} from {stored.pack['documents']} curated documents.", ""]
    body = manifest.body.strip("\n")
    (folder / "SKILL.md").write_text(
        spec_frontmatter(manifest, stored.level) + "\n\n" + body + "\n" + "\n".join(extra), encoding="utf-8"
    )
    (folder / "references" / "adaptation-path.md").write_text(
        path_markdown(manifest.title, stored.pack), encoding="utf-8"
    )
    (folder / "references" / "topics.md").write_text(topics_markdown(manifest.title, stored.pack), encoding="utf-8")
    (folder / "references" / "knowledge-pack.json").write_text(
        json.dumps(
            {"skill": entry.name, "level": stored.level, "mastery": stored.mastery, **stored.pack},
            ensure_ascii=False,
            indent=2,
        ),
        encoding="utf-8",
    )
    hardware = data_dir() / "hardware"
    if hardware.is_dir():
        shutil.copytree(hardware, folder / "references" / "hardware", dirs_exist_ok=True)
    for name in SCRIPTS:
        if (manifest.folder / name).exists():
            shutil.copy2(manifest.folder / name, folder / "scripts" / name)
    return folder
