import os
import sqlite3

import pytest

from pipeline.errors import UsageError
from pipeline.store import open_db, resolve_path


def test_creates_schema_in_wal_mode(db_path):
    db = open_db(db_path)
    assert {"frontier", "documents", "scores", "knowledge_packs"} <= set(db.table_names())
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_path_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("SHIJIE_DB", str(tmp_path / "env.db"))
    assert resolve_path(None) == tmp_path / "env.db"
    assert resolve_path(tmp_path / "arg.db") == tmp_path / "arg.db"
    monkeypatch.delenv("SHIJIE_DB")
    assert resolve_path(None).name == "shijie.db" and not resolve_path(None).is_absolute()


def test_rejects_a_file_that_is_not_a_database(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_bytes(os.urandom(4096))
    with pytest.raises(UsageError, match="not a shijie database"):
        open_db(bad)
    assert len(bad.read_bytes()) == 4096  # nothing lost


def test_rejects_a_missing_folder(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        open_db(tmp_path / "nope" / "x.db")
