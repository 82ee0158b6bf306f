"""Writes a learned skill as a self-contained Agent Skills folder that agent tools can load.

DIR/<name>/SKILL.md           the manifest (frontmatter kept) and its instructions
DIR/<name>/references/        the knowledge pack: adaptation path and topics with their sources (Markdown),
                              the pack itself (JSON), the hardware profiles
DIR/<name>/scripts/           the skill's runnable code: the NumPy reference kernel, the hardware profiles, the tile planner

Crawled text reaches the Markdown as text only (``md_text``): a title cannot close its link and open one of
its own (``Notes](https://evil.example/) [Trusted``), nor start a heading or an HTML tag; link targets are
written between angle brackets (``md_url``). Addresses are given as they outlive the run: the caller passes
``link`` (``pipeline.links.Links.stable``: a page of the embedded corpus is ``shijie-corpus:PATH``).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from pipeline.errors import UsageError

# the scripts an agent can run without shijie's database: file name in the skill folder (tile_plan.py imports
# hardware.py from beside it)
SCRIPTS = ("numpy_backward.py", "hardware.py", "tile_plan.py")


_MD_SPECIAL = re.compile(r"([\\\[\]<>])")  # what opens or closes a link, an image or an HTML tag
_MD_BLANKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def md_text(text: object) -> str:
    """Crawled text as Markdown text: one line (no heading, list or quote of its own), and every character that
    could open or close a link, an image or an HTML tag backslash-escaped (CommonMark escapes ASCII punctuation
    that way). Emphasis and code marks stay as they are: they change how text looks, never where it leads."""
    return _MD_SPECIAL.sub(r"\\\1", _MD_BLANKS.sub(" ", "" if text is None else str(text)).strip())


def md_url(url: object) -> str:
    """A link target between angle brackets, with what may not stand there percent-encoded."""
    plain = _MD_BLANKS.sub(" ", "" if url is None else str(url)).strip()
    return "<" + plain.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E").replace("\\", "%5C") + ">"


def md_link(title: object, url: object) -> str:
    return f"[{md_text(title or url)}]({md_url(url)})"


def _passages_md(passages: list[dict]) -> list[str]:
    lines = []
    for passage in passages:
        lines.append(f"- {md_link(passage['title'], passage['url'])}")
        lines.append(f"  > {md_text(passage['excerpt'])}")
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
        lines += [*_passages_md(step["passages"]), ""]
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
            f"## Topic {topic['id']}: {md_text(', '.join(topic['label']))}",
            "",
            f"Domain: {md_text(topic['domain'])}.",
            "",
            "Documents:",
            "",
        ]
        lines += [f"- {md_link(doc['title'], doc['url'])} (value {doc['value']})" for doc in topic["documents"]]
        lines += ["", "Best passages:", "", *_passages_md(topic["passages"]), ""]
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
    return "\n".join([*lines, "---"])


def export_skill(entry, stored, destination: Path, link: Callable[[str], str | None] | None = None) -> Path:
    """Writes ``destination/<name>/``; returns that folder. Refuses to overwrite a non-empty folder. ``link``
    maps each stored address to the one written (``pipeline.links.Links.stable``)."""
    from pipeline.links import map_links
    from pipeline.resources import data_dir

    pack = map_links(stored.pack, link) if link else stored.pack
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
        "",
        "A source written `shijie-corpus:PATH` is a page of the corpus shipped with shijie: the file PATH under"
        " `python -c 'from pipeline.resources import corpus_dir; print(corpus_dir())'`.",
    ]
    extra += [
        f"- `scripts/{name}`: run `python scripts/{name}`" for name in SCRIPTS if (manifest.folder / name).exists()
    ]
    extra += ["", f"Learned at Lv.{stored.level} from {pack['documents']} curated documents.", ""]
    body = manifest.body.strip("\n")
    (folder / "SKILL.md").write_text(
        spec_frontmatter(manifest, stored.level) + "\n\n" + body + "\n" + "\n".join(extra), encoding="utf-8"
    )
    (folder / "references" / "adaptation-path.md").write_text(path_markdown(manifest.title, pack), encoding="utf-8")
    (folder / "references" / "topics.md").write_text(topics_markdown(manifest.title, pack), encoding="utf-8")
    (folder / "references" / "knowledge-pack.json").write_text(
        json.dumps(
            {"skill": entry.name, "level": stored.level, "mastery": stored.mastery, **pack},
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
