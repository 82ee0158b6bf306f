"""Fills the GitHub part of the Vision's text cache, so that anyone can retrain and evaluate the model.

    python tools/fetch_vision_texts.py [--split train dev test] [--base URL] [--delay 0.25]
    python tools/fetch_vision_texts.py --git DIR    # from local clones: DIR/<owner>+<repo>[/repo] (git dirs)

The labels name each GitHub document by repository, commit, path and SHA-256 (data/vision/labels); the texts are
never committed. This downloads each one at its commit from ``--base`` (raw.githubusercontent.com) into the cache
the loader reads (``$SHIJIE_VISION_CACHE``, default ~/.cache/shijie/vision: ``gh/<owner>/<repo>/<commit>/<path>``),
one request at a time with ``--delay`` seconds between them and shijie's User-Agent. A file already cached with
the labelled bytes is not fetched again; bytes that differ from the label are not written (the label describes
other bytes: the weights would not be the ones it describes); a failed request is reported. It prints one line per
problem and a summary, and exits 1 when any labelled file could not be had. Debian texts come from the packages
(``apt-get install $(python3 tools/vision_packages.py)``), not from here. With ``--git DIR`` nothing goes over the
network: each file is read at its commit from a clone (bare or not) of its repository under DIR, named
``<owner>+<repo>`` (its git directory there or in its ``repo`` sub-folder, bare or as ``.git`` of a checkout), for
machines that reach no raw file host.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.fetch import USER_AGENT
from pipeline.vision.labelled import Label, cache_dir, file_of, load_labels
from pipeline.vision.splits import SPLITS, select

RAW = "https://raw.githubusercontent.com"


def fetch_all(labels: list[Label], base: str, cache: Path, delay: float) -> dict[str, list[str]]:
    """Fetches every GitHub label's file not yet cached with its labelled bytes; returns keys by outcome."""
    import httpx

    outcome: dict[str, list[str]] = {"cached": [], "fetched": [], "mismatched": [], "failed": []}
    wanted = [label for label in labels if label.origin == "github"]
    with httpx.Client(headers={"User-Agent": USER_AGENT}, timeout=30, follow_redirects=True) as client:
        for n, label in enumerate(wanted):
            target = file_of(label, cache)
            if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == label.sha256:
                outcome["cached"].append(label.key)
                continue
            if n and delay:
                time.sleep(delay)
            url = f"{base.rstrip('/')}/{label.source.removeprefix('gh:')}/{label.commit}/{label.file_path}"
            try:
                response = client.get(url)
            except httpx.HTTPError as exc:
                print(f"{label.key}: {url}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
                outcome["failed"].append(label.key)
                continue
            if response.status_code != 200:
                print(f"{label.key}: {url}: HTTP {response.status_code}", file=sys.stderr)
                outcome["failed"].append(label.key)
                continue
            if hashlib.sha256(response.content).hexdigest() != label.sha256:
                print(f"{label.key}: {url}: other bytes than labelled (not written)", file=sys.stderr)
                outcome["mismatched"].append(label.key)
                continue
            _store(target, response.content)
            outcome["fetched"].append(label.key)
    return outcome


def _store(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(data)
    partial.replace(target)  # a cache file is whole or absent


def _git_dir(clones: Path, source: str) -> Path | None:
    """The git directory of ``gh:owner/repo`` under ``clones``, or None when there is no clone.

    A bare clone is the folder itself or its ``repo`` sub-folder; a clone with a work tree keeps it in ``.git`` of
    either (a snapshot taken from a checkout arrives as ``repo/.git``).
    """
    base = clones / source.removeprefix("gh:").replace("/", "+")
    for candidate in (base / "repo", base / "repo" / ".git", base / ".git", base):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def copy_all(labels: list[Label], clones: Path, cache: Path) -> dict[str, list[str]]:
    """Copies every GitHub label's file, at its commit, out of a local clone; returns keys by outcome."""
    outcome: dict[str, list[str]] = {"cached": [], "fetched": [], "mismatched": [], "failed": []}
    for label in (label for label in labels if label.origin == "github"):
        target = file_of(label, cache)
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == label.sha256:
            outcome["cached"].append(label.key)
            continue
        git_dir = _git_dir(clones, label.source)
        if git_dir is None:
            print(f"{label.key}: no clone of {label.source} under {clones}", file=sys.stderr)
            outcome["failed"].append(label.key)
            continue
        shown = subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"{label.commit}:{label.file_path}"], capture_output=True
        )
        if shown.returncode != 0:
            error = shown.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["git show failed"]
            print(f"{label.key}: {git_dir}: {error[0]}", file=sys.stderr)
            outcome["failed"].append(label.key)
            continue
        if hashlib.sha256(shown.stdout).hexdigest() != label.sha256:
            print(f"{label.key}: {git_dir}: other bytes than labelled (not written)", file=sys.stderr)
            outcome["mismatched"].append(label.key)
            continue
        _store(target, shown.stdout)
        outcome["fetched"].append(label.key)
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", nargs="+", default=list(SPLITS), choices=SPLITS)
    parser.add_argument("--base", default=RAW, help="where raw files are served: BASE/<owner>/<repo>/<commit>/<path>")
    parser.add_argument("--delay", type=float, default=0.25, help="seconds between two requests")
    parser.add_argument("--git", type=Path, metavar="DIR", help="read from local clones DIR/<owner>+<repo> instead")
    args = parser.parse_args()
    every = load_labels()
    labels = [label for split in args.split for label in select(every, split)]
    cache = cache_dir()
    outcome = copy_all(labels, args.git, cache) if args.git else fetch_all(labels, args.base, cache, args.delay)
    print(
        f"{cache}: {len(outcome['fetched'])} fetched, {len(outcome['cached'])} already there, "
        f"{len(outcome['mismatched'])} with other bytes than labelled, {len(outcome['failed'])} failed"
    )
    sys.exit(1 if outcome["mismatched"] or outcome["failed"] else 0)


if __name__ == "__main__":
    main()
