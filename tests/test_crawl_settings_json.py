"""CrawlSettings is plain data; what is not data (the resolver, the progress callback) is an argument of crawl()."""

import json
import threading
from dataclasses import asdict, fields

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db


def test_settings_are_plain_data():
    settings = CrawlSettings(max_pages=7, allow_hosts=[".example.org"])
    payload = settings.to_json()
    assert payload == asdict(settings) and payload["max_pages"] == 7
    assert json.loads(json.dumps(payload)) == payload
    assert not any(callable(getattr(settings, f.name)) for f in fields(settings))


def test_callbacks_are_arguments_even_when_they_hold_locks(db_path, tmp_path):
    class Console:  # like rich's: a bound method whose object holds a lock, which deepcopy cannot copy
        def __init__(self):
            self.lock = threading.RLock()
            self.fetched = []

        def progress(self, stats):
            self.fetched.append(stats.fetched)

    note = tmp_path / "note.md"
    note.write_text("# Tiles\n\nShared memory tiles for a fused kernel.\n", encoding="utf-8")
    console = Console()
    db = open_db(db_path)
    stats = crawl(db, [str(note)], CrawlSettings(max_pages=7), on_progress=console.progress, resolver=lambda h: [])
    assert stats.stored == 1 and console.fetched[-1] == 1  # called at the end with the final stats
    stored = json.loads(db.execute("SELECT settings FROM crawl_runs").fetchone()[0])
    assert stored == CrawlSettings(max_pages=7).to_json()
