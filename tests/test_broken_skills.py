"""Third-party skills are code we do not control: one whose constructor raises, whose ``skill_dir`` property
raises, or whose SKILL.md is nested 3,000 levels deep is listed as broken, with the reason, and never takes
``skills list`` or ``run`` down. Installed for real: a dist-info with ``entry_points.txt`` on the path of a
real subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_shijie

from pipeline.store import open_db
from skills import frontmatter

BROKEN = """
class RaisingConstructor:
    skill_dir = "/nonexistent"

    def __init__(self):
        raise RuntimeError("constructor fails")


class RaisingSkillDir:
    @property
    def skill_dir(self):
        raise RuntimeError("no folder for you")

    def learn(self, db, manifest, on_phase):
        return {}

    def invoke(self, db, manifest, pack, **options):
        return None


DEEP = DEEP_FOLDER
"""


def deep_skill(folder: Path, levels: int = 3000) -> Path:
    folder.mkdir(parents=True)
    nested = "\n".join(" " * i + f"k{i}:" for i in range(levels)) + "\n" + " " * levels + "leaf: 1"
    (folder / "SKILL.md").write_text(f"---\nname: too-deep\ndescription: nested\nmetadata:\n{nested}\n---\nBody.\n")
    return folder


@pytest.fixture
def broken_skills_installed(tmp_path, monkeypatch) -> Path:
    site = tmp_path / "site"
    dist = site / "broken_skills-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-skills\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[shijie.skills]\n"
        "ctor-raises = broken_skills:RaisingConstructor\n"
        "dir-raises = broken_skills:RaisingSkillDir\n"
        "too-deep = broken_skills:DEEP\n"
    )
    (site / "broken_skills.py").write_text(BROKEN.replace("DEEP_FOLDER", repr(str(deep_skill(tmp_path / "deep")))))
    monkeypatch.setenv("PYTHONPATH", str(site))  # run_shijie puts the checkout before it
    return site


def test_skills_list_lists_each_broken_skill_with_its_reason(tmp_path, broken_skills_installed):
    db = tmp_path / "shijie.db"
    open_db(db).conn.close()
    result = run_shijie("skills", "list", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["operator-adaptation"]["status"] == "locked"  # the working skill is still there
    assert rows["ctor-raises"]["status"] == "broken"
    assert rows["ctor-raises"]["problems"] == [
        "code broken: RaisingConstructor() raised RuntimeError: constructor fails"
    ]
    assert rows["dir-raises"]["problems"] == [
        "code broken: reading its skill_dir raised RuntimeError: no folder for you"
    ]
    assert rows["too-deep"]["status"] == "broken"
    assert "nested deeper than 32 levels" in rows["too-deep"]["problems"][0]
    human = run_shijie("skills", "list", "--db", str(db))
    assert human.returncode == 0 and "Traceback" not in human.stderr
    assert all(name in human.stdout for name in ("ctor-raises", "dir-raises", "too-deep"))
    learn = run_shijie("skills", "learn", "dir-raises", "--db", str(db))
    assert learn.returncode == 1 and learn.stderr.startswith("error: skill 'dir-raises' is broken")


@pytest.mark.slow
def test_run_goes_on_beside_broken_skills(tmp_path, broken_skills_installed):
    result = run_shijie(
        "run", "--db", str(tmp_path / "demo.db"), "--out", str(tmp_path / "report"), "--device", "cpu", "--json"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    job = json.loads(result.stdout)
    assert job["learn"]["level"] >= 1
    assert {row["name"]: row["status"] for row in job["skills"]}["too-deep"] == "broken"


def test_frontmatter_nesting_stops_with_the_line_to_fix():
    nested = "\n".join(" " * i + f"k{i}:" for i in range(3000)) + "\n" + " " * 3000 + "leaf: 1"
    with pytest.raises(frontmatter.FrontmatterError, match=r"line 33: nested deeper than 32 levels"):
        frontmatter.parse(nested)
    with pytest.raises(frontmatter.FrontmatterError, match="inline lists nested deeper than 32 levels"):
        frontmatter.parse("ops: " + "[" * 3000 + "]" * 3000)
    shallow = "\n".join(" " * i + f"k{i}:" for i in range(10)) + "\n" + " " * 10 + "leaf: 1"
    value = frontmatter.parse(shallow)
    for i in range(10):
        value = value[f"k{i}"]
    assert value == {"leaf": 1}
