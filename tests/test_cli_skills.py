"""``shijie skills`` as users run it, before any corpus: clear refusals, JSON shapes, the tile plan alone."""

from __future__ import annotations

import json

import pytest
from conftest import run_shijie

from pipeline.errors import UsageError
from pipeline.store import open_db


@pytest.fixture(autouse=True)
def empty_database(db_path):
    """A shijie database with no documents yet (read commands never create one)."""
    open_db(db_path).conn.close()


def test_list_on_an_empty_database_shows_the_skill_locked_with_every_shortfall(cli):
    rows = cli.json("skills", "list")
    (row,) = [row for row in rows if row["name"] == "operator-adaptation"]
    assert {"name", "title", "level", "status", "requires"} <= set(row)
    assert row["status"] == "locked" and row["level"] == 0
    assert row["shortfalls"] == row["requires"]  # nothing mastered: every requirement is short by all of it
    human = cli("skills", "list").stdout
    assert "operator-adaptation" in human and "locked" in human
    assert "gpu_architecture 0.0% of 25.0% (+25.0%)" in human


def test_list_in_chinese(cli):
    assert "算子适配" in cli("skills", "list", "--lang", "zh").stdout


def test_learn_while_locked_is_one_clear_line(db_path):
    result = run_shijie("skills", "learn", "operator-adaptation", "--db", str(db_path))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: skill 'operator-adaptation' is locked")
    assert "gpu_architecture 0.0% < 25.0%" in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_invoke_before_learning_says_how_to_learn(cli):
    with pytest.raises(UsageError, match=r"run `shijie skills learn operator-adaptation` first"):
        cli("skills", "invoke", "operator-adaptation", "--op", "FusedAttentionBackward", "--json")


def test_unknown_skill(cli):
    with pytest.raises(UsageError, match="no skill named 'telepathy'; known skills: operator-adaptation"):
        cli("skills", "learn", "telepathy")


def test_export_before_learning_is_refused(cli, tmp_path):
    with pytest.raises(UsageError, match="not learned yet"):
        cli("skills", "export", "operator-adaptation", str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_tile_plan_script_runs_alone():
    # the planner is also a script an exported skill ships: JSON on stdout from a profile name
    import subprocess
    import sys

    from skills.operator_adaptation import tile_plan

    result = subprocess.run(
        [sys.executable, tile_plan.__file__, "l100", "--head-dim", "64"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    assert plan["target"]["warp_size"] == 64 and plan["problem"]["head_dim"] == 64


def test_a_broken_third_party_skill_is_listed_beside_the_working_one(cli, tmp_path, monkeypatch):
    site = tmp_path / "site"
    dist = site / "broken_skill-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-skill\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[shijie.skills]\nbroken-skill = no_such_module_anywhere:SKILL\n")
    monkeypatch.syspath_prepend(str(site))
    rows = {row["name"]: row for row in cli.json("skills", "list")}
    assert rows["operator-adaptation"]["status"] == "locked"
    assert rows["broken-skill"]["status"] == "broken"
    assert "code missing" in rows["broken-skill"]["problems"][0]
    human = cli("skills", "list").stdout
    assert "broken-skill" in human and "broken" in human
    with pytest.raises(UsageError, match="skill 'broken-skill' is broken"):
        cli("skills", "learn", "broken-skill")
