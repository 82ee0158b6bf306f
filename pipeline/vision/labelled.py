"""The labelled set: our expert labels of real documents, and the texts they name, as a crawl would store them.

Labels live in ``data/vision/labels/*.toml`` (one file per source; format and meaning in
``data/vision/LABELS.md``). A label names its document by reference and SHA-256 of its bytes; no text is
committed. ``load_labels()`` reads and validates every file; ``load_documents()`` finds each text and turns
it into a ``pipeline.extract.Document`` through shijie's own extractor, so the scorer sees exactly what a
crawl would have stored:

    Debian   <root>/<path>, a ``.gz`` file gunzipped (root: /usr/share/doc/<package>/…)
    GitHub   $SHIJIE_VISION_CACHE/gh/<owner>/<repo>/<commit>/<path>  (default ~/.cache/shijie/vision);
             a path written ``<path>@<commit>`` is that file at an older commit of the same repository

A text that is missing (CI has no GitHub cache; a Debian package not installed), whose bytes do not match the
label's SHA-256 (another package version), or that the extractor cannot read is skipped and counted in the
``LoadReport``, never an error: the metrics then say on how many documents they stand.

The URL each document gets is what a crawler would have fetched it under: the file's ``file://`` URI for a
Debian page (a ``.gz`` file under its name without ``.gz``, as a documentation server shows it) and
``https://raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>`` for a GitHub file. The content type
comes from the file's extension (``pipeline.extract.kind_for_path``), else from its first bytes (an HTML
page), else ``text/plain``: what a raw file server sends for a source file, a licence or a notebook.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tomllib
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError
from ..extract import Document, Unreadable, UnsupportedType, extract, kind_for_path
from ..resources import data_dir

RELEVANCE = ("off", "admin", "technical")
TIERS = ("A", "B", "C")
TYPES = (
    "changelog",
    "licence",
    "install",
    "contributing",
    "link_list",
    "toc",
    "api_reference",
    "tutorial",
    "guide",
    "paper",
    "paper_summary",
    "blog",
    "qa",
    "marketing",
    "generated",
    "agent_notes",
    "readme",
    "other",
)
ORIGINS = ("debian", "github")
_DOC_KEYS = {"path", "sha256", "relevance", "tier", "type", "dup_of", "why"}


@dataclass(frozen=True)
class Label:
    source: str  # "deb:<package>" or "gh:<owner>/<repo>"
    family: str  # the splitting unit
    origin: str  # debian | github
    root: str  # Debian: the folder paths are relative to
    commit: str  # GitHub: the commit the file is read at; Debian: the package version
    path: str  # as written in the label file (GitHub: may end in @<commit>)
    sha256: str
    relevance: str
    tier: str
    type: str
    dup_of: str  # the key of the copy to keep, or ""
    why: str

    @property
    def key(self) -> str:
        return f"{self.source}:{self.path}"

    @property
    def file_path(self) -> str:
        """The path inside the source, without an @<commit> suffix."""
        return self.path.rsplit("@", 1)[0] if self.origin == "github" and "@" in self.path else self.path


@dataclass
class LoadedDocument:
    label: Label
    url: str
    content_type: str
    byte_size: int
    document: Document


@dataclass
class LoadReport:
    labelled: int = 0
    loaded: int = 0
    missing: list[str] = field(default_factory=list)
    mismatched: list[str] = field(default_factory=list)  # bytes differ from the label's SHA-256
    unreadable: list[str] = field(default_factory=list)  # the extractor refused them or found no text
    by_origin: Counter = field(default_factory=Counter)  # loaded documents per origin

    def summary(self) -> str:
        origins = ", ".join(f"{n} {o}" for o, n in sorted(self.by_origin.items()))
        return (
            f"{self.loaded} of {self.labelled} labelled documents read ({origins or 'none'}); skipped: "
            f"{len(self.missing)} missing, {len(self.mismatched)} with other bytes than labelled, "
            f"{len(self.unreadable)} unreadable"
        )


def labels_dir() -> Path:
    return data_dir() / "vision" / "labels"


def cache_dir() -> Path:
    return Path(os.environ.get("SHIJIE_VISION_CACHE") or Path.home() / ".cache" / "shijie" / "vision")


def load_labels(folder: str | Path | None = None) -> list[Label]:
    """Every label of every ``*.toml`` file in ``folder`` (default: the shipped labels), validated."""
    folder = Path(folder) if folder is not None else labels_dir()
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise DataError(f"no label files (*.toml) in {folder}")
    labels: list[Label] = []
    seen: set[str] = set()
    for path in files:
        for label in _read_file(path):
            if label.key in seen:
                raise DataError(f"label file {path.name}: {label.key} is labelled twice")
            seen.add(label.key)
            labels.append(label)
    for label in labels:
        if label.dup_of and label.dup_of not in seen:
            raise DataError(f"label {label.key}: dup_of names {label.dup_of}, which is not labelled")
    return labels


def _read_file(path: Path) -> list[Label]:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"label file {path.name} does not parse: {exc}") from None
    source = raw.get("source")
    if not isinstance(source, dict):
        raise DataError(f"label file {path.name} has no [source] table")
    for key in ("id", "family", "origin", "version"):
        if not isinstance(source.get(key), str) or not source[key].strip():
            raise DataError(f"label file {path.name}: [source] needs a non-empty string '{key}'")
    origin = source["origin"]
    if origin not in ORIGINS:
        raise DataError(f"label file {path.name}: origin must be one of {', '.join(ORIGINS)}, not {origin!r}")
    if origin == "debian" and not str(source.get("root", "")).startswith("/"):
        raise DataError(f"label file {path.name}: a Debian source needs an absolute 'root'")
    prefix = "deb:" if origin == "debian" else "gh:"
    if not source["id"].startswith(prefix):
        raise DataError(f"label file {path.name}: a {origin} source id starts with {prefix!r}")
    labels = []
    for n, doc in enumerate(raw.get("doc", []), 1):
        where = f"label file {path.name}, [[doc]] #{n}"
        if not isinstance(doc, dict) or not set(doc) >= _DOC_KEYS:
            raise DataError(f"{where} needs {', '.join(sorted(_DOC_KEYS))}")
        if not all(isinstance(doc[k], str) for k in _DOC_KEYS):
            raise DataError(f"{where}: every field is a string")
        checks = (("relevance", RELEVANCE), ("tier", TIERS), ("type", TYPES))
        for key, allowed in checks:
            if doc[key] not in allowed:
                raise DataError(f"{where} ({doc['path']}): {key} {doc[key]!r} is not one of {', '.join(allowed)}")
        if len(doc["sha256"]) != 64:
            raise DataError(f"{where} ({doc['path']}): sha256 must be 64 hex digits")
        if doc["relevance"] != "technical" and doc["tier"] != "C":
            raise DataError(f"{where} ({doc['path']}): an {doc['relevance']} document is tier C")
        commit = source["version"]
        if origin == "github" and "@" in doc["path"]:
            commit = doc["path"].rsplit("@", 1)[1]
        labels.append(
            Label(
                source=source["id"],
                family=source["family"],
                origin=origin,
                root=str(source.get("root", "")),
                commit=commit,
                path=doc["path"],
                sha256=doc["sha256"].lower(),
                relevance=doc["relevance"],
                tier=doc["tier"],
                type=doc["type"],
                dup_of=doc["dup_of"],
                why=doc["why"],
            )
        )
    return labels


def file_of(label: Label, cache: Path | None = None) -> Path:
    """Where the label's bytes are on this machine (they may be absent)."""
    if label.origin == "debian":
        return Path(label.root) / label.path
    owner_repo = label.source[len("gh:") :]
    return (cache or cache_dir()) / "gh" / owner_repo / label.commit / label.file_path


def url_of(label: Label) -> str:
    """The URL a crawler would have stored the document under."""
    if label.origin == "debian":
        path = Path(label.root) / label.path
        if path.suffix == ".gz":
            path = path.with_suffix("")
        return path.as_uri()
    owner_repo = label.source[len("gh:") :]
    return f"https://raw.githubusercontent.com/{owner_repo}/{label.commit}/{label.file_path}"


def content_type_for(url: str, body: bytes) -> str:
    ctype = kind_for_path(url.rsplit("/", 1)[-1])
    if ctype == "application/atom+xml":  # an XML file that is no feed reads as text
        ctype = None
    if ctype is None:
        head = body[:1024].lstrip().lower()
        ctype = "text/html" if head.startswith((b"<!doctype html", b"<html")) else "text/plain"
    return f"{ctype}; charset=utf-8" if ctype.startswith("text/") and _is_utf8(body) else ctype


def _is_utf8(body: bytes) -> bool:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def read_bytes(label: Label, cache: Path | None = None) -> bytes | None:
    """The document's bytes (gunzipped where stored as .gz), or None when it is not on this machine."""
    path = file_of(label, cache)
    try:
        raw = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError, PermissionError, IsADirectoryError):
        return None
    return raw


def _gunzip(raw: bytes) -> bytes | None:
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error):
        return None


def load_documents(labels: list[Label], cache: Path | None = None) -> tuple[list[LoadedDocument], LoadReport]:
    """Reads, checks and extracts every labelled document that is on this machine; counts the rest."""
    report = LoadReport(labelled=len(labels))
    loaded: list[LoadedDocument] = []
    for label in labels:
        raw = read_bytes(label, cache)
        if raw is None:
            report.missing.append(label.key)
            continue
        if hashlib.sha256(raw).hexdigest() != label.sha256:
            report.mismatched.append(label.key)
            continue
        body = _gunzip(raw) if label.path.endswith(".gz") else raw
        if body is None:
            report.unreadable.append(label.key)
            continue
        url = url_of(label)
        ctype = content_type_for(url, body)
        try:
            extraction = extract(body, ctype, url)
        except (UnsupportedType, Unreadable):
            report.unreadable.append(label.key)
            continue
        documents = [d for d in extraction.documents if d.text.strip()]
        if not documents:
            report.unreadable.append(label.key)
            continue
        loaded.append(LoadedDocument(label, url, ctype, len(body), documents[0]))
        report.loaded += 1
        report.by_origin[label.origin] += 1
    return loaded, report
