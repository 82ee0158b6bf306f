"""Generic HTML pieces: escaped text, safe links, tables from dicts and lists, number formatting."""

from __future__ import annotations

import math
from urllib.parse import urlsplit

from pipeline.links import SCHEME, corpus_file

from ._svg import esc


def link(url: object, text: object | None = None) -> str:
    """An <a> only for http(s) URLs and the shipped corpus (``shijie-corpus:`` opens the corpus file of this
    installation, ``pipeline.links``); anything else (``javascript:``, ``data:``) is shown as plain text."""
    label = esc(text if text not in (None, "") else url)
    if isinstance(url, str) and urlsplit(url.strip()).scheme.lower() in ("http", "https"):
        return f'<a href="{esc(url.strip())}" rel="noopener noreferrer">{label}</a>'
    if isinstance(url, str) and url.startswith(SCHEME):
        path = corpus_file(url)
        if path is not None:
            return f'<a href="{esc(path.as_uri())}" title="{esc(url)}">{label}</a>'
    return label


def number(value: object) -> str:
    """Numbers as people read them: integers with thin grouping, tiny errors in scientific notation."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e7):
            return f"{value:.2e}"
        return f"{value:.4g}"
    return esc(value)


def cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    if value is None:
        return '<span class="muted">—</span>'
    if isinstance(value, str) and value.startswith(("http://", "https://", SCHEME)):
        return link(value)
    if isinstance(value, dict):
        return kv_table(value, compact=True)
    if isinstance(value, list):
        if value and all(isinstance(v, dict) for v in value):
            return rows_table(value)
        return ", ".join(cell(v) for v in value) or '<span class="muted">—</span>'
    return esc(value)


def kv_table(data: dict, *, compact: bool = False) -> str:
    klass = "kv compact" if compact else "kv"
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{cell(v)}</td></tr>" for k, v in data.items())
    return f'<table class="{klass}">{rows}</table>'


def rows_table(rows: list[dict], columns: list[str] | None = None, *, row_class=None) -> str:
    if columns is None:
        columns = list(dict.fromkeys(k for row in rows for k in row))
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for row in rows:
        klass = f' class="{esc(row_class(row))}"' if row_class else ""
        body.append(f"<tr{klass}>" + "".join(f"<td>{cell(row.get(c))}</td>" for c in columns) + "</tr>")
    return (
        f'<div class="scroll"><table class="rows"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
