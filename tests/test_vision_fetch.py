"""tools/fetch_vision_texts.py: the GitHub texts of the labelled set, fetched at their commits into the cache.

A loopback server stands in for raw.githubusercontent.com (same layout: <owner>/<repo>/<commit>/<path>); the
labels are built here with the SHA-256 of bytes we wrote, as the real labels carry the SHA-256 of the real files.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

from pipeline.corpus_server import serve_folder
from pipeline.vision.labelled import Label, file_of, load_documents
from tests.conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
from fetch_vision_texts import copy_all, fetch_all

COMMIT = "0123456789abcdef0123456789abcdef01234567"
GUIDE = b"# Tiling for shared memory\n\nEach block loads a tile of A and B into shared memory before the loop.\n"


def label(path: str, body: bytes) -> Label:
    return Label(
        source="gh:owner/kernels", family="owner-kernels", origin="github", root="", commit=COMMIT, path=path,
        sha256=hashlib.sha256(body).hexdigest(), relevance="technical", tier="B", type="guide", dup_of="", why="",
    )  # fmt: skip


def test_fetches_checks_and_never_writes_other_bytes(tmp_path):
    served = tmp_path / "served" / "owner" / "kernels" / COMMIT
    (served / "docs").mkdir(parents=True)
    (served / "docs" / "tiling.md").write_bytes(GUIDE)
    (served / "README.md").write_bytes(b"a newer README than the one labelled\n")
    cache = tmp_path / "cache"
    labels = [
        label("docs/tiling.md", GUIDE),
        label("README.md", b"the README as labelled\n"),  # the server has other bytes now
        label("docs/gone.md", b"deleted upstream\n"),  # 404
    ]
    with serve_folder(tmp_path / "served") as base:
        first = fetch_all(labels, base, cache, delay=0)
        assert first == {
            "cached": [],
            "fetched": [labels[0].key],
            "mismatched": [labels[1].key],
            "failed": [labels[2].key],
        }
        assert file_of(labels[0], cache).read_bytes() == GUIDE
        assert not file_of(labels[1], cache).exists() and not file_of(labels[2], cache).exists()
        assert not list(cache.rglob("*.part"))
        (served / "docs" / "tiling.md").unlink()  # a second run must not ask again for what is cached
        again = fetch_all(labels[:1], base, cache, delay=0)
    assert again["cached"] == [labels[0].key] and not again["failed"]
    loaded, report = load_documents(labels, cache)  # the loader reads what was fetched
    assert [d.label.key for d in loaded] == [labels[0].key] and report.missing == [labels[1].key, labels[2].key]


def test_the_script_says_what_it_could_not_have(tmp_path):
    (tmp_path / "served").mkdir()
    env = {**os.environ, "SHIJIE_VISION_CACHE": str(tmp_path / "cache")}
    with serve_folder(tmp_path / "served") as base:
        result = subprocess.run(
            [sys.executable, str(REPO / "tools" / "fetch_vision_texts.py"), "--split", "test", "--base", base,
             "--delay", "0"],
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
    assert result.returncode == 1
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{tmp_path / 'cache'}: 0 fetched, 0 already there, 0 with other bytes")
    assert "HTTP 404" in result.stderr


def test_reads_a_clone_whose_git_directory_is_a_checkouts(tmp_path):
    # a snapshot taken from a checkout arrives as <owner>+<repo>/repo/.git, beside bare ones as <owner>+<repo>/repo
    work = tmp_path / "clones" / "owner+kernels" / "repo"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "tiling.md").write_bytes(GUIDE)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "guide"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    wanted = label("docs/tiling.md", GUIDE)
    wanted = Label(**{**wanted.__dict__, "commit": commit})
    outcome = copy_all([wanted], tmp_path / "clones", tmp_path / "cache")
    assert outcome["fetched"] == [wanted.key] and not outcome["failed"]
    assert file_of(wanted, tmp_path / "cache").read_bytes() == GUIDE
