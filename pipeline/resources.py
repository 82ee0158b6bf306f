"""Where shijie's shipped data lives: ``data/`` in a source checkout, ``pipeline/_data`` in a wheel."""

from __future__ import annotations

from pathlib import Path


def data_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "data"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("shijie's data folder is missing from this installation")


def corpus_dir() -> Path:
    return data_dir() / "corpus"
