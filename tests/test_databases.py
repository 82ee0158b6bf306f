"""Opening databases as users have them: a mistyped path, another program's SQLite file, an old shijie
database, a read-only disk, a damaged file, a full disk. Real files, the CLI in real subprocesses; every
failure is one line, and nothing a user had is changed or lost."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
from pathlib import Path

import pytest
from conftest import run_shijie
from locations import file_size_limit, read_only_folder, remount, small_disk
from own_notes import curated_database, notes

from pipeline.store.schema import APPLICATION_ID, LAYOUT


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def companions(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name))


def one_line_error(result, *fragments: str) -> str:
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


READ_COMMANDS = [
    ["mastery"],
    ["show", "1"],
    ["search", "warp"],
    ["curate", "--dry-run"],
    ["skills", "list"],
    ["skills", "invoke", "operator-adaptation", "--op", "FusedAttentionBackward", "--device", "cpu"],
]


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_read_command_on_a_missing_database_fails_and_creates_nothing(tmp_path, command):
    typo = tmp_path / "typo.db"
    result = run_shijie(*command, "--db", str(typo))
    one_line_error(result, f"--db {typo}: no such database")
    assert list(tmp_path.iterdir()) == []  # no file, no -wal, no -shm
    as_json = run_shijie(*command, "--db", str(typo), "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["field"] == "--db"
    assert list(tmp_path.iterdir()) == []


def test_a_write_command_creates_the_database_and_stamps_it(tmp_path):
    db = tmp_path / "new.db"
    result = run_shijie("crawl", str(notes(tmp_path / "notes", 2)), "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["stored"] == 2
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LAYOUT


def foreign_with_documents(path: Path) -> Path:
    """Another program's database that happens to have a ``documents`` table of its own."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE documents (id INTEGER PRIMARY KEY, body TEXT, owner TEXT)")
        conn.executemany("INSERT INTO documents (body, owner) VALUES (?, ?)", [("invoice 1", "acme"), ("memo", "bob")])
    return path


def foreign_stamped(path: Path) -> Path:
    """An empty database stamped by another application (its own PRAGMA application_id)."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1196444237")  # 'GPKG', a GeoPackage
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["crawl", "NOTES"],
        ["score"],
        ["curate"],
        ["mark", "1", "good"],
        ["skills", "learn", "operator-adaptation"],
        ["run", "--device", "cpu", "--out", "OUT"],
        ["mastery"],
        ["show", "1"],
        ["skills", "list"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_foreign_database_is_refused_and_left_byte_for_byte(tmp_path, command):
    db = foreign_with_documents(tmp_path / "accounts.db")
    before = digest(db)
    folder = notes(tmp_path / "notes", 1)
    argv = [str(folder) if a == "NOTES" else str(tmp_path / "out") if a == "OUT" else a for a in command]
    one_line_error(run_shijie(*argv, "--db", str(db)), "another program's SQLite database", "left untouched")
    assert digest(db) == before and companions(db) == ["accounts.db"]
    with sqlite3.connect(db) as conn:  # its own table is as it was, and nothing of ours was added
        assert [name for (name,) in conn.execute("SELECT name FROM sqlite_master")] == ["documents"]


def test_a_database_stamped_by_another_application_is_refused(tmp_path):
    db = foreign_stamped(tmp_path / "map.gpkg")
    before = digest(db)
    for argv in (["crawl", str(notes(tmp_path / "notes", 1))], ["mastery"]):
        one_line_error(run_shijie(*argv, "--db", str(db)), "another program's SQLite database")
    assert digest(db) == before and companions(db) == ["map.gpkg"]


def test_a_shijie_database_from_before_the_stamp_is_recognised_and_upgraded(tmp_path):
    db = curated_database(tmp_path / "old.db", notes(tmp_path / "notes", 4))
    with sqlite3.connect(db) as conn:  # as an older shijie left it: no stamp, no archive column
        conn.execute("UPDATE documents SET text = text")  # (a write, so the layout change is real)
        conn.execute("PRAGMA application_id = 0")
        conn.execute("PRAGMA user_version = 0")
        conn.execute("ALTER TABLE documents DROP COLUMN archive")
    mastery = run_shijie("mastery", "--db", str(db), "--json")  # a read: works, changes nothing
    assert mastery.returncode == 0 and json.loads(mastery.stdout)["overall"] > 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0
    curated = run_shijie("curate", "--min-value", "0", "--db", str(db), "--json")  # a write: brings it up to date
    assert curated.returncode == 0, curated.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert "archive" in {row[1] for row in conn.execute("PRAGMA table_info(documents)")}
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 4


@pytest.mark.parametrize("pending_wal", [False, True], ids=["checkpointed", "wal-pending"])
def test_read_commands_work_where_the_database_cannot_be_written(tmp_path, pending_wal):
    db = curated_database(tmp_path / "shared.db", notes(tmp_path / "notes", 5))
    keep_open = None
    if pending_wal:  # committed writes still in the -wal file, as a crashed or running writer leaves them
        keep_open = sqlite3.connect(db)
        keep_open.execute("PRAGMA wal_autocheckpoint = 0")
        keep_open.execute("INSERT INTO labels (document_id, label, at) VALUES (1, 'good', 0)")
        keep_open.commit()
        assert Path(f"{db}-wal").stat().st_size > 0
    with read_only_folder(tmp_path, [db]) as folder:
        if keep_open is not None:
            keep_open.close()
        copy = folder / db.name
        before = {p.name: digest(p) for p in folder.iterdir()}
        mastery = run_shijie("mastery", "--db", str(copy), "--json")
        assert mastery.returncode == 0, mastery.stderr
        assert json.loads(mastery.stdout)["overall"] > 0
        for argv in (["search", "warp"], ["show", "1"], ["skills", "list"], ["curate", "--dry-run"]):
            result = run_shijie(*argv, "--db", str(copy))
            assert result.returncode == 0, (argv, result.stderr)
            assert "Traceback" not in result.stderr
        one_line_error(run_shijie("curate", "--db", str(copy)), "cannot be written here", "still work")
        assert {p.name: digest(p) for p in folder.iterdir()} == before


def damage(path: Path, *, header: bool) -> None:
    """Overwrite the file's header, or a stretch of every page past the first two, with noise."""
    data = bytearray(path.read_bytes())
    rng = random.Random(7)
    if header:
        data[:16] = b"not SQLite here!"
    else:
        for start in range(2 * 4096, len(data), 4096):
            data[start + 100 : start + 400] = bytes(rng.randrange(256) for _ in range(300))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("header", [False, True], ids=["pages", "header"])
def test_a_damaged_database_is_one_line_and_left_as_it_was(tmp_path, header):
    db = curated_database(tmp_path / "damaged.db", notes(tmp_path / "notes", 30))
    damage(db, header=header)
    before = digest(db)
    expected = "is not a SQLite database" if header else "is damaged"
    for argv in (["mastery"], ["search", "warp"], ["score"], ["curate"]):
        line = one_line_error(run_shijie(*argv, "--db", str(db)), expected)
        assert "left untouched" in line or "changed nothing" in line
        assert digest(db) == before
    as_json = run_shijie("mastery", "--db", str(db), "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["kind"] == "storage"


def count_documents(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute("SELECT count(*) FROM documents").fetchone()[0]


def test_a_full_disk_is_one_line_and_keeps_what_was_stored(tmp_path):
    folder = notes(tmp_path / "notes", 200)
    with small_disk(tmp_path, 1200 * 1024) as disk:  # room for the first documents (and the WAL), not for all
        db = disk / "shijie.db"
        first = run_shijie("crawl", str(folder), "--max-pages", "20", "--db", str(db))
        assert first.returncode == 0, first.stderr
        assert count_documents(db) == 20
        one_line_error(run_shijie("crawl", str(folder), "--db", str(db)), "the disk is full", "is kept")
        assert count_documents(db) >= 20  # nothing stored before is lost; the database is whole
        remount(disk, 16 * 1024 * 1024)  # the user frees space and runs the same command again
        again = run_shijie("crawl", str(folder), "--db", str(db), "--json")
        assert again.returncode == 0, again.stderr
        assert count_documents(db) == 200


def test_a_file_size_limit_is_one_line_and_keeps_what_was_stored(tmp_path):
    # the same without privileges: RLIMIT_FSIZE makes every write past the limit fail (EFBIG: an I/O error)
    folder = notes(tmp_path / "notes", 200)
    db = tmp_path / "limited.db"
    first = run_shijie("crawl", str(folder), "--max-pages", "20", "--db", str(db))
    assert first.returncode == 0, first.stderr
    size = max(os.path.getsize(db), os.path.getsize(f"{db}-wal") if Path(f"{db}-wal").exists() else 0)
    limited = run_shijie("crawl", str(folder), "--db", str(db), preexec_fn=file_size_limit(size + 64 * 1024))
    one_line_error(limited, "could not be written", "is kept")
    assert count_documents(db) >= 20
    again = run_shijie("crawl", str(folder), "--db", str(db))
    assert again.returncode == 0, again.stderr
    assert count_documents(db) == 200
