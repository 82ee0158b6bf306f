import ast
import os
import re
import subprocess
import sys
import types

import pytest

from pipeline import store
from pipeline.errors import StorageError, UsageError
from pipeline.extract import Document
from pipeline.store import Frontier, open_db, resolve_path
from tests.conftest import REPO


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
    content = b"not SQLite at all" + os.urandom(4096)
    bad.write_bytes(content)
    for read_only in (False, True):
        with pytest.raises(StorageError, match="is not a SQLite database"):
            open_db(bad, read_only=read_only)
    assert bad.read_bytes() == content  # nothing lost


def test_rejects_a_missing_folder(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        open_db(tmp_path / "nope" / "x.db")


FETCH = {
    "final_url": None,
    "content_type": "text/html",
    "byte_size": 10,
    "etag": None,
    "last_modified": None,
    "depth": 0,
}


def test_a_document_is_stored_once_and_found_by_any_of_its_urls(db_path):
    db = open_db(db_path)
    page = Document(kind="html", title="Bank conflicts", text="shared memory has 32 banks")
    fetched = {**FETCH, "final_url": "https://b.example/final"}
    assert store.store_document(db, "https://a.example/x", page, **fetched) == "stored"
    assert store.store_document(db, "https://a.example/x", page, **fetched) == "unchanged"
    assert store.store_document(db, "https://mirror.example/x", page, **FETCH) == "duplicate"
    edited = Document(kind="html", title="Bank conflicts", text="shared memory has 32 banks of 4 bytes")
    assert store.store_document(db, "https://a.example/x", edited, **fetched) == "updated"
    db.conn.commit()
    doc_id = store.find_document(db, "https://a.example/x").id
    for ref in (str(doc_id), "https://b.example/final", "https://mirror.example/x"):
        assert store.find_document(db, ref) == store.DocumentRef(
            doc_id, "https://a.example/x", "Bank conflicts", "active"
        )
    assert store.find_document(db, "https://nowhere.example/") is None
    assert store.documents_total(db) == 1 and store.active_documents(db) == 1
    assert not store.has_kept_documents(db) and store.document_scores(db, doc_id) is None


def test_labels_replace_earlier_ones(db_path):
    db = open_db(db_path)
    store.store_document(db, "https://a.example/1", Document(kind="text", title="a", text="one"), **FETCH)
    store.store_document(db, "https://a.example/2", Document(kind="text", title="b", text="two"), **FETCH)
    db.conn.commit()
    store.mark_document(db, 1, "good")
    store.mark_document(db, 2, "good")
    store.mark_document(db, 1, "bad")
    assert store.document_labels(open_db(db_path)) == {1: "bad", 2: "good"}  # committed: another connection sees it
    assert store.label_counts(db) == {"bad": 1, "good": 1}


def test_frontier_seams_the_crawl_uses(db_path):
    db = open_db(db_path)
    frontier = Frontier(db)
    run = frontier.start_run(["https://a.example/"], {"delay": 0})
    frontier.set_run_seeds(run, ["https://a.example/", "https://b.example/"])
    frontier.add("file:///tmp/x.md", "", 0, None, kind="file", status="fetching")
    frontier.store_document("https://a.example/", Document(kind="text", title="a", text="one"), **FETCH)
    assert frontier.file_state("file:///tmp/x.md") == ("fetching", None, 0)  # (status, last_modified, attempts)
    assert frontier.file_state("file:///tmp/other.md") is None
    assert frontier.documents_total() == 1
    frontier.commit()
    other = open_db(db_path)
    assert store.runs.unfinished_run(other)["seeds"] == ["https://a.example/", "https://b.example/"]
    other.conn.execute("INSERT INTO discarded (url, reason, at) VALUES ('https://c.example/', 'test', 0)")
    other.conn.commit()
    frontier.reload_seen()
    assert frontier.seen == {"file:///tmp/x.md"} and frontier.discarded == {"https://c.example/"}


def test_store_exports_one_sorted_list_of_its_public_names():
    public = {
        name
        for name, value in vars(store).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType) and name not in ("TYPE_CHECKING", "Any")
    }
    assert public | {"Database"} == set(store.__all__)
    assert store.Database.__module__ == "sqlite_utils.db"  # the typed handle every stage takes


SQL = re.compile(r"\.execute(many|script)?\(|\b(SELECT|INSERT|UPDATE|DELETE)\s+[A-Za-z*(]")


def test_only_the_store_speaks_sql():
    offenders = []
    for folder in ("pipeline", "skills", "shijie"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if (REPO / "pipeline" / "store") in path.parents:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if SQL.search(line):
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert offenders == []


def test_a_query_does_not_import_numpy():
    # sqlite-utils imports numpy when it is installed; the store imports sqlite-utils only to open a database
    code = "import sys, pipeline.query, pipeline.curate; print(sorted(m for m in ('numpy', 'datasketch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip() == "[]"


def test_pipeline_modules_import_no_cycle():
    modules = {}
    for path in (REPO / "pipeline").rglob("*.py"):
        parts = path.relative_to(REPO).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], node.module or ""])
                targets = [f"{base.rstrip('.')}.{a.name}" for a in node.names] + [base.rstrip(".")]
            elif isinstance(node, ast.ImportFrom):
                targets = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            deps |= {t for t in targets if t in modules and t != name}
        graph[name] = deps
    # a package importing its own submodules is how it re-exports them, not a cycle
    graph = {n: {d for d in deps if not d.startswith(n + ".")} for n, deps in graph.items()}

    def cycle_from(start):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for dep in graph[node]:
                if dep == start:
                    return [*path, dep]
                if dep not in seen:
                    seen.add(dep)
                    stack.append((dep, [*path, dep]))
        return None

    assert [c for c in map(cycle_from, sorted(graph)) if c] == []
