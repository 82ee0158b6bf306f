"""Skill discovery: manifests validated, every problem reported, broken skills never hide good ones."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pipeline.errors import UsageError
from skills import frontmatter
from skills.registry import Manifest, discover, read_manifest, standing

GOOD_CODE = """
class Skill:
    def learn(self, db, manifest, on_phase):
        return {"documents": 0}

    def invoke(self, db, manifest, pack, **options):
        return {"op": options.get("op")}
"""


def manifest_text(name, entry, requires="gpu_architecture: 0.2", extra=""):
    return textwrap.dedent(f"""\
        ---
        name: {name}
        description: A test skill that does nothing useful.
        metadata:
          title: Test Skill
          title_zh: 测试技能
          requires:
            {requires}
          levels:
            2: 0.5
            3: 0.7
          ops: [OpA, OpB]
          entry: {entry}
        {extra}---
        # Body
        """)


@pytest.fixture
def make_skill(tmp_path, monkeypatch):
    code_dir = tmp_path / "code"
    code_dir.mkdir()
    monkeypatch.syspath_prepend(str(code_dir))
    counter = iter(range(1000))

    def make(root: Path, folder: str, text: str | None = None, code: str | None = GOOD_CODE, name=None) -> Path:
        module = f"regtest_{next(counter)}_{tmp_path.name.replace('-', '_')}"
        if code is not None:
            (code_dir / f"{module}.py").write_text(code)
        skill = root / folder
        skill.mkdir(parents=True)
        if text is None:
            text = manifest_text(name or folder.replace("_", "-"), f"{module}:Skill")
        (skill / "SKILL.md").write_text(text.replace("MODULE", module))
        return skill

    return make


def test_builtin_operator_adaptation_is_found_and_valid():
    registry = discover(entry_points=False)
    entry = registry.get("operator-adaptation")
    assert entry.ok, entry.problems
    manifest = entry.manifest
    assert manifest.title == "Operator Adaptation" and manifest.title_zh == "算子适配"
    assert manifest.ops == ("FusedAttentionBackward", "FusedAttentionForward")
    assert manifest.levels[2] < manifest.levels[3]
    assert all(0 < minimum <= 1 for minimum in manifest.requires.values())
    assert callable(entry.implementation.learn) and callable(entry.implementation.invoke)


def test_good_skill_from_a_folder(tmp_path, make_skill):
    make_skill(tmp_path / "skills", "my_skill")
    registry = discover([tmp_path / "skills"], entry_points=False)
    entry = registry.get("my-skill")
    assert entry.ok
    assert entry.manifest.requires == {"gpu_architecture": 0.2}
    assert entry.manifest.levels == {2: 0.5, 3: 0.7}
    assert entry.manifest.body.strip() == "# Body"
    assert registry.problems() == []


def test_every_problem_of_a_manifest_is_reported_at_once(tmp_path, make_skill):
    bad = textwrap.dedent("""\
        ---
        name: Bad_Name
        metadata:
          requires:
            astrology: 0.5
            gpu_architecture: 1.5
          levels:
            2: 0.9
            3: 0.4
          entry: not an entry
        ---
        """)
    make_skill(tmp_path / "skills", "bad", bad)
    registry = discover([tmp_path / "skills"], entry_points=False)
    (entry,) = registry.entries
    assert not entry.ok
    problems = " | ".join(entry.problems)
    for expected in (
        "name 'Bad_Name' must be lowercase",
        "lacks 'description'",
        "lacks 'title'",
        "unknown domain 'astrology'",
        "gpu_architecture must be a number between 0 and 1",
        "thresholds must rise",
        "metadata.entry must be 'module:object'",
    ):
        assert expected in problems
    with pytest.raises(UsageError) as info:
        registry.get("bad")
    assert "\n" not in str(info.value) and "astrology" in str(info.value) and "description" in str(info.value)


def test_a_broken_skill_never_hides_the_others(tmp_path, make_skill):
    root = tmp_path / "skills"
    make_skill(root, "alpha")
    make_skill(root, "beta", "no frontmatter here\n")
    make_skill(root, "gamma", code=None)  # manifest fine, code missing
    make_skill(root, "delta", code="class Skill:\n    def learn(self, db, m, p):\n        return {}\n")
    make_skill(root, "epsilon", name="something-else")
    registry = discover([root], entry_points=False)
    by_name = {entry.name: entry for entry in registry.entries}
    assert by_name["alpha"].ok
    assert "must start with a '---' line" in by_name["beta"].problems[0]
    assert "code missing: cannot import" in by_name["gamma"].problems[0]
    assert "has no invoke() method" in by_name["delta"].problems[0]
    assert "does not match its folder 'epsilon'" in by_name["epsilon"].problems[0]
    assert len(registry.problems()) == 4
    assert registry.get("alpha").implementation.learn(None, None, None) == {"documents": 0}


def test_implementations_are_checked_against_the_skill_protocol(tmp_path, make_skill):
    from skills.operator_adaptation.skill import OperatorAdaptation
    from skills.protocol import Skill, protocol_problems

    assert isinstance(OperatorAdaptation(), Skill) and protocol_problems(OperatorAdaptation(), "builtin") == []
    root = tmp_path / "skills"
    narrow = "class Skill:\n    def learn(self, db, manifest, on_phase):\n        return {}\n"
    make_skill(root, "narrow", code=narrow + "\n    def invoke(self, db, manifest, pack, op):\n        return None\n")
    make_skill(root, "greedy", code=narrow.replace("on_phase)", "on_phase, extra)") + "    invoke = learn\n")
    by_name = {entry.name: entry for entry in discover([root], entry_points=False).entries}
    (problem,) = by_name["narrow"].problems
    assert "Skill.invoke cannot be called as invoke(db, manifest, pack, op=, device=" in problem
    assert "unexpected keyword argument 'device'" in problem
    learn_problem, invoke_problem = by_name["greedy"].problems[0].split("; ")
    assert "Skill.learn cannot be called as learn(db, manifest, on_phase)" in learn_problem
    assert "Skill.invoke cannot be called" in invoke_problem
    assert by_name["narrow"].implementation is None


def test_invoke_must_give_back_an_invocation(tmp_path, make_skill):
    # GOOD_CODE's invoke returns a bare dict: the skill is reported as broken when used, in one line
    from pipeline.store import open_db, save_pack
    from skills.learning import invoke

    make_skill(tmp_path / "skills", "dicty")
    registry = discover([tmp_path / "skills"], entry_points=False)
    db = open_db(tmp_path / "shijie.db")
    save_pack(db, "dicty", 1, {"overall": 0.0, "domains": {}}, {"documents": 0})
    with pytest.raises(
        UsageError, match=r"skill 'dicty' is broken .*invoke returned dict, not a skills.protocol.Invocation"
    ):
        invoke(db, registry, "dicty", op="OpA")


def test_missing_code_object(tmp_path, make_skill):
    make_skill(tmp_path / "skills", "lonely", code="x = 1\n")
    (entry,) = discover([tmp_path / "skills"], entry_points=False).entries
    assert entry.problems == [f"code missing: {entry.manifest.entry.split(':')[0]!r} has no 'Skill'"]


def test_code_that_raises_on_import_is_reported_not_raised(tmp_path, make_skill):
    make_skill(tmp_path / "skills", "explosive", code="raise RuntimeError('boom')\n")
    (entry,) = discover([tmp_path / "skills"], entry_points=False).entries
    assert "RuntimeError: boom" in entry.problems[0]


def test_duplicate_names(tmp_path, make_skill):
    make_skill(tmp_path / "one", "twin")
    make_skill(tmp_path / "two", "twin")
    registry = discover([tmp_path / "one", tmp_path / "two"], entry_points=False)
    first, second = registry.entries
    assert first.ok
    assert second.problems == [f"duplicate name: 'twin' is already defined by {first.origin}"]
    assert registry.get("twin") is first


def test_unknown_skill_names_the_known_ones(tmp_path, make_skill):
    make_skill(tmp_path / "skills", "known")
    with pytest.raises(UsageError, match="no skill named 'unknown'; known skills: known"):
        discover([tmp_path / "skills"], entry_points=False).get("unknown")


def test_third_party_skills_through_entry_points(tmp_path, make_skill, monkeypatch):
    # a real installed distribution: a .dist-info folder on sys.path with entry_points.txt
    site = tmp_path / "site"
    site.mkdir()
    folder_skill = make_skill(tmp_path / "elsewhere", "folder_skill")
    object_skill = make_skill(tmp_path / "elsewhere", "object_skill")
    (site / "thirdparty_skills.py").write_text(
        textwrap.dedent(f"""\
        FOLDER = {str(folder_skill)!r}
        NUMBER = 42

        class ObjectSkill:
            skill_dir = {str(object_skill)!r}

            def learn(self, db, manifest, on_phase):
                return {{"from": "object"}}

            def invoke(self, db, manifest, pack, **options):
                return {{}}
        """)
    )
    dist = site / "thirdparty_skills-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-skills\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[shijie.skills]\nfolder = thirdparty_skills:FOLDER\nobject = thirdparty_skills:ObjectSkill\n"
        "gone = thirdparty_missing_module:SKILL\nodd = thirdparty_skills:NUMBER\n"
    )
    monkeypatch.syspath_prepend(str(site))
    registry = discover([], entry_points=True)
    by_name = {entry.name: entry for entry in registry.entries}
    assert by_name["folder-skill"].ok and "entry point 'folder'" in by_name["folder-skill"].origin
    assert by_name["object-skill"].ok
    assert by_name["object-skill"].implementation.learn(None, None, None) == {"from": "object"}
    assert "code missing" in by_name["gone"].problems[0]
    assert "must load to a folder path" in by_name["odd"].problems[0]
    # the builtin skill comes first, so a third party cannot take its name
    assert discover(entry_points=True).get("operator-adaptation").origin == "skills/operator_adaptation"


class _Mastery:
    def __init__(self, domains):
        self.domains = domains
        self.overall = sum(domains.values()) / 7


def _manifest(**requires):
    return Manifest(
        name="x",
        description="d",
        title="X",
        title_zh="X",
        requires=requires,
        levels={2: 0.5, 3: 0.7},
        ops=(),
        entry="m:o",
        folder=Path("."),
    )


def test_standing_locked_learnable_learned_and_levels():
    manifest = _manifest(gpu_architecture=0.4, numerical_analysis=0.3)
    locked = standing(manifest, _Mastery({"gpu_architecture": 0.1, "numerical_analysis": 0.35}))
    assert locked.status == "locked" and locked.attainable_level == 0
    assert locked.shortfalls == {"gpu_architecture": pytest.approx(0.3)}
    learnable = standing(manifest, _Mastery({"gpu_architecture": 0.45, "numerical_analysis": 0.35}))
    assert learnable.status == "learnable" and learnable.attainable_level == 1
    assert standing(manifest, _Mastery({"gpu_architecture": 0.6, "numerical_analysis": 0.5})).attainable_level == 2
    top = standing(manifest, _Mastery({"gpu_architecture": 0.9, "numerical_analysis": 0.8}), learned_level=3)
    assert (top.status, top.level, top.attainable_level) == ("learned", 3, 3)


def test_read_manifest_of_a_missing_folder(tmp_path):
    manifest, problems = read_manifest(tmp_path / "nothing")
    assert manifest is None and "does not exist" in problems[0]


# -- frontmatter --------------------------------------------------------------------------------------


def test_frontmatter_subset():
    text = textwrap.dedent("""\
        name: demo   # a comment
        description: "Quoted: with colon # not a comment"
        flag: true
        nothing:
        count: 3
        ratio: 0.25
        tags: [a, 'b, c', 3]
        steps:
          - first
          - "second"
        nested:
          inner:
            deep: C#
          folded: >
            one
            two
        """)
    assert frontmatter.parse(text) == {
        "name": "demo",
        "description": "Quoted: with colon # not a comment",
        "flag": True,
        "nothing": None,
        "count": 3,
        "ratio": 0.25,
        "tags": ["a", "b, c", 3],
        "steps": ["first", "second"],
        "nested": {"inner": {"deep": "C#"}, "folded": "one two"},
    }


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: 1\na: 2", "line 2: key 'a' appears twice"),
        ("a: 1\n  b: 2", "line 2: unexpected indentation"),
        ("just words", "line 1: expected 'key: value'"),
        ("a: [1, 2", "line 1: inline list is not closed"),
        ("a: 'open", "line 1: unterminated string"),
        ("a: {b: 1}", "inline mappings are not supported"),
        ("a:\n\t- b", "tabs"),
    ],
)
def test_frontmatter_errors_name_the_line(text, message):
    with pytest.raises(frontmatter.FrontmatterError, match=message.replace("[", r"\[").replace("{", r"\{")):
        frontmatter.parse(text)


def test_split_requires_both_fences():
    with pytest.raises(frontmatter.FrontmatterError, match="no closing"):
        frontmatter.split("---\nname: x\n")
    block, body, _ = frontmatter.split("---\nname: x\n---\nbody\n")
    assert block == "name: x" and body == "body"
