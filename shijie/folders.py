"""Folders a command writes into (``run --out``, ``skills export DIRECTORY``), checked before any work.

A command that crawls, scores and learns for a minute must not find out at the end that it cannot write its
report. ``writable_folder`` proves the folder can be written by creating and removing a file in it (or, when
it does not exist yet, in the nearest folder above it that does, where it will be made): permission bits
alone do not say (root ignores them, a read-only mount overrides them). It creates nothing that stays.
Every failure is one ``UsageError`` line naming the flag.

    from shijie.folders import writable_folder
    out = writable_folder("shijie-report", "--out")
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pipeline.errors import UsageError
from shijie.text import Lang, say


def writable_folder(folder: str | os.PathLike[str], shown_as: str, lang: Lang = Lang.en) -> Path:
    """``folder`` once a file could be written there (or where it will be made); a one-line error otherwise."""
    path = Path(folder)
    existing = next(p for p in (path, *path.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise UsageError(say("safe.out_is_file", lang, flag=shown_as, folder=existing))
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".shijie-write-check-"):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise UsageError(say("safe.out_not_writable", lang, flag=shown_as, folder=path, reason=reason)) from None
    return path
