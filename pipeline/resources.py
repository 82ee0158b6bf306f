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


def read_data_file(path: str | Path, what: str, fix: str = "") -> dict:
    """A shipped or user-given TOML or JSON data file (by its suffix), parsed; a missing or unparsable file is a
    ``DataError`` naming ``what`` it is ("profile file", "Vision model"), with ``fix`` (how to make one) after a
    colon when it is missing."""
    import json
    import tomllib

    from .errors import DataError

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        raw = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except FileNotFoundError:
        raise DataError(f"{what} {path} does not exist" + (f": {fix}" if fix else "")) from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{what} {path} does not parse: {exc}") from None
    if not isinstance(raw, dict):
        raise DataError(f"{what} {path} does not hold a table")
    return raw
