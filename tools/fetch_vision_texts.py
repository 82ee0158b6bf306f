"""Fills the GitHub part of the Vision's text cache, so that anyone can retrain and evaluate the model.

    python tools/fetch_vision_texts.py [--split train dev test] [--base URL] [--delay 0.25]

The labels name each GitHub document by repository, commit, path and SHA-256 (data/vision/labels); the texts are
never committed. This downloads each one at its commit from ``--base`` (raw.githubusercontent.com) into the cache
the loader reads (``$SHIJIE_VISION_CACHE``, default ~/.cache/shijie/vision: ``gh/<owner>/<repo>/<commit>/<path>``),
one request at a time with ``--delay`` seconds between them and shijie's User-Agent. A file already cached with
the labelled bytes is not fetched again; bytes that differ from the label are not written (the label describes
other bytes: the weights would not be the ones it describes); a failed request is reported. It prints one line per
problem and a summary, and exits 1 when any labelled file could not be had. Debian texts come from the packages
(``apt-get install $(python3 tools/vision_packages.py)``), not from here.
"""

from __future__ import annotations

import argparse
import hashlib
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
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".part")
            partial.write_bytes(response.content)
            partial.replace(target)  # a cache file is whole or absent
            outcome["fetched"].append(label.key)
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", nargs="+", default=list(SPLITS), choices=SPLITS)
    parser.add_argument("--base", default=RAW, help="where raw files are served: BASE/<owner>/<repo>/<commit>/<path>")
    parser.add_argument("--delay", type=float, default=0.25, help="seconds between two requests")
    args = parser.parse_args()
    every = load_labels()
    labels = [label for split in args.split for label in select(every, split)]
    cache = cache_dir()
    outcome = fetch_all(labels, args.base, cache, args.delay)
    print(
        f"{cache}: {len(outcome['fetched'])} fetched, {len(outcome['cached'])} already there, "
        f"{len(outcome['mismatched'])} with other bytes than labelled, {len(outcome['failed'])} failed"
    )
    sys.exit(1 if outcome["mismatched"] or outcome["failed"] else 0)


if __name__ == "__main__":
    main()
