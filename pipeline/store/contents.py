"""What a database holds besides the embedded demo corpus, so ``shijie run`` never pours the demo into a
user's documents.

The demo is crawled from the embedded corpus served on 127.0.0.1 (``pipeline.crawl.crawl_embedded``); its
run records the origin it was served from (``served_origin`` in ``crawl_runs.settings``), and when a later
demo crawl is served on another port every stored URL is moved to the new origin. So a document is the
demo's when its URL, or the URL it was fetched from (``final_url``: an arXiv entry of the demo's Atom feed
is stored under its arxiv.org address), lies under the origin the demo was last served from; any other
document (a web page, a local file, another loopback site) is the user's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database


def demo_origin(db: Database) -> str | None:
    """The origin the embedded demo was last served from (``http://127.0.0.1:PORT``); None if never crawled."""
    for (settings,) in db.conn.execute("SELECT settings FROM crawl_runs ORDER BY id DESC"):
        origin = json.loads(settings or "{}").get("served_origin")
        if origin:
            return str(origin)
    return None


def non_demo_documents(db: Database) -> int:
    """How many stored documents are not the embedded demo's (0: an empty database, or the demo alone)."""
    origin = demo_origin(db)
    if origin is None:
        return db.conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    under = origin.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"
    return db.conn.execute(
        "SELECT count(*) FROM documents WHERE url NOT LIKE :under ESCAPE '\\'"
        " AND (final_url IS NULL OR final_url NOT LIKE :under ESCAPE '\\')",
        {"under": under},
    ).fetchone()[0]
