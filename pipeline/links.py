"""What a document's address is outside one run, and which stored URLs an address a user typed can mean.

Links that outlive the run. The embedded corpus is served on 127.0.0.1 at a port each run picks, so its
documents are stored under URLs such as ``http://127.0.0.1:40951/papers/flash.html`` that lead nowhere once
the run ends. Wherever a link leaves shijie (the report, exported skills and document lists), it is written
as ``shijie-corpus:papers/flash.html`` instead: the file's path inside the corpus shipped with the package,
which ``corpus_file`` finds on any installation and ``shijie show`` accepts. This module is the one place
that decides it; every other URL is left as it is.

    links = Links(served_origins(db))          # the origins the embedded corpus was served on
    links.stable("http://127.0.0.1:40951/papers/")     # 'shijie-corpus:papers/index.html'
    links.file_uri("shijie-corpus:papers/index.html")  # 'file:///…/data/corpus/papers/index.html'

What a user types (``typed_forms``): an id, a URL in any spelling (``HTTP://Host:80/a``, with or without a
trailing slash, http for https), a path to a crawled file (relative, with ``~``, with a trailing slash), a
``file://`` URL, a ``shijie-corpus:`` reference. Each becomes the stored spellings it can stand for, most
literal first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from . import urls

SCHEME = "shijie-corpus:"


def _corpus_dir() -> Path | None:
    from .resources import corpus_dir

    try:
        return corpus_dir()
    except FileNotFoundError:
        return None


@dataclass(frozen=True)
class Links:
    """The origins (``http://127.0.0.1:PORT``) the embedded corpus was served on, in this database."""

    origins: tuple[str, ...] = ()

    def _origin(self, url: str) -> str | None:
        return next((o for o in self.origins if url == o or url.startswith(o + "/")), None)

    def stable(self, url: str | None) -> str | None:
        """``url``, or its ``shijie-corpus:`` reference when it is a page of the served corpus."""
        if not url:
            return url
        origin = self._origin(url)
        if origin is None:
            return url
        parts = urlsplit(url[len(origin) :] or "/")
        path = unquote(parts.path).lstrip("/")
        if path == "" or path.endswith("/"):
            path += "index.html"  # what the corpus server answers for a folder
        return SCHEME + path + (f"?{parts.query}" if parts.query else "")

    def served(self, reference: str) -> list[str]:
        """The URLs a ``shijie-corpus:`` reference was served as (a folder's index also as the folder)."""
        path = reference[len(SCHEME) :].lstrip("/")
        found = []
        for origin in self.origins:
            found.append(f"{origin}/{path}")
            if path == "index.html" or path.endswith("/index.html"):
                found.append(f"{origin}/{path[: -len('index.html')]}")
        return found

    def file_uri(self, url: str | None) -> str | None:
        """A ``file://`` URI of the corpus file ``url`` (served or ``shijie-corpus:``) stands for, when this
        installation has it; None otherwise."""
        stable = self.stable(url) if url else None
        if not stable or not stable.startswith(SCHEME):
            return None
        path = corpus_file(stable)
        return path.as_uri() if path else None


def corpus_file(reference: str) -> Path | None:
    """The shipped corpus file a ``shijie-corpus:`` reference names (never outside the corpus folder)."""
    folder = _corpus_dir()
    if folder is None or not reference.startswith(SCHEME):
        return None
    relative = urlsplit(reference[len(SCHEME) :]).path.lstrip("/")
    root = folder.resolve()
    candidate = (root / relative).resolve()
    if candidate != root and root not in candidate.parents:
        return None
    return candidate if candidate.is_file() else None


def _web_forms(url: str) -> list[str]:
    """A typed web URL's canonical spellings: as typed, with and without the trailing slash, http ↔ https."""
    canonical = urls.canonical(url)
    if canonical is None:
        return []
    forms = [canonical]
    parts = urlsplit(canonical)
    if parts.path.endswith("/") and parts.path != "/":
        forms.append(canonical.replace(parts.path, parts.path.rstrip("/"), 1))
    elif not parts.path.endswith("/"):
        forms.append(canonical.replace(parts.path, parts.path + "/", 1) if parts.path else canonical + "/")
    other = {"http": "https", "https": "http"}[parts.scheme]
    forms += [other + form[len(parts.scheme) :] for form in list(forms)]
    return forms


def _path_forms(typed: str, cwd: Path | None) -> list[str]:
    raw = typed[len("file://") :] if typed.startswith("file://") else typed
    path = Path(unquote(raw) if typed.startswith("file://") else raw).expanduser()
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return []
    forms = [urls.canonical(resolved.as_uri()), urls.canonical(path.absolute().as_uri())]
    return [form for form in forms if form]


def typed_forms(typed: str, links: Links, cwd: Path | None = None) -> list[str]:
    """The stored URLs ``typed`` can stand for, most literal first (``typed`` itself always first)."""
    typed = typed.strip()
    forms = [typed]
    lowered = typed.lower()
    if lowered.startswith(SCHEME):
        forms += links.served(typed)
    elif lowered.startswith(("http://", "https://")):
        forms += _web_forms(typed)
    elif lowered.startswith("file:") or "://" not in typed:
        forms += _path_forms(typed, cwd)
        if "://" not in typed and "/" in typed.strip("/") and not typed.startswith((".", "/", "~")):
            forms += _web_forms("https://" + typed)  # docs.nvidia.com/cuda/… typed without a scheme
    return list(dict.fromkeys(forms))


LINK_KEYS = ("url", "duplicate_of", "duplicate_of_url")  # the keys that hold a document's address in results
LINKS_KEYS = ("sources", "urls")  # and those that hold a list of addresses


def map_links(value: Any, stable: Callable[[str], str | None]) -> Any:
    """``value`` (JSON-like: dicts, lists) with every address under ``LINK_KEYS`` (and in the lists under
    ``LINKS_KEYS``) passed through ``stable``
    (``Links.stable``): how a knowledge pack, a report's data or an exported skill gets links that outlive
    the run."""
    if isinstance(value, dict):
        mapped: dict[str, Any] = {}
        for key, item in value.items():
            if key in LINK_KEYS and isinstance(item, str):
                mapped[key] = stable(item)
            elif key in LINKS_KEYS and isinstance(item, list):
                mapped[key] = [stable(x) if isinstance(x, str) else map_links(x, stable) for x in item]
            else:
                mapped[key] = map_links(item, stable)
        return mapped
    if isinstance(value, list):
        return [map_links(item, stable) for item in value]
    return value
