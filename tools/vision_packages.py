"""Prints the Debian documentation packages the labelled set reads, one per line (for apt-get install).

    python3 tools/vision_packages.py [--versions]

``--versions`` prints ``package=version`` as the label files name them (the bytes they were labelled on);
without it, bare names (what .ci/run installs when a named version is no longer in the archive: documents
whose bytes then differ are skipped and counted by the loader). Reads only the label files' [source] tables.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

LABELS = Path(__file__).resolve().parent.parent / "data" / "vision" / "labels"


def packages(versions: bool) -> list[str]:
    found = {}
    for path in sorted(LABELS.glob("deb-*.toml")):
        source = tomllib.loads(path.read_text(encoding="utf-8")).get("source", {})
        name = str(source.get("id", ""))
        if name.startswith("deb:"):
            found[name[4:]] = str(source.get("version", ""))
    return [f"{p}={v}" if versions and v else p for p, v in sorted(found.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", action="store_true")
    args = parser.parse_args()
    names = packages(args.versions)
    if not names:
        sys.exit(f"no Debian label files in {LABELS}")
    print("\n".join(names))


if __name__ == "__main__":
    main()
