"""The report's pictures, drawn as inline SVG strings by plain Python: no chart library, no JavaScript.

Every function takes plain data and returns one ``<svg>`` element. Every string that came from outside
(document titles, URLs, domain names, passage text) goes through ``esc`` before it touches the markup,
text nodes and attribute values alike: a crawled page titled ``<script>`` stays text.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

# A palette that survives grayscale printing and colour blindness (Okabe–Ito).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', sans-serif\""


def esc(value: object) -> str:
    """Text or attribute value, escaped for HTML and inline SVG alike (quotes included)."""
    return html.escape(str(value), quote=True)


def clip(text: object, limit: int) -> str:
    """Shortens a label to ``limit`` characters so it stays inside its box (before escaping)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"


def _svg_open(width: float, height: float, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="{esc(label)}" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" {FONT}>'
        f"<title>{esc(label)}</title>"
    )


def _text(
    x: float,
    y: float,
    text: object,
    *,
    size: float = 12,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
    cls: str = "",
) -> str:
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
        f'fill="{fill}"{klass}>{esc(text)}</text>'
    )


# -- mastery bars ---------------------------------------------------------------------------------------


def bar_chart(
    items: list[tuple[str, float]],
    *,
    title: str,
    overall: float | None = None,
    overall_label: str = "overall",
    width: int = 900,
) -> str:
    """Horizontal bars, one per (label, fraction 0–1), plus an optional overall bar drawn darker."""
    rows = list(items) + ([(overall_label, overall)] if overall is not None else [])
    label_w, pad, row_h = 270, 12, 30
    bar_w = width - label_w - 80
    height = pad * 2 + row_h * len(rows) + 24
    parts = [_svg_open(width, height, title)]
    # vertical grid at 25 % steps
    for step in range(5):
        x = label_w + bar_w * step / 4
        parts.append(f'<line x1="{x:.1f}" y1="{pad}" x2="{x:.1f}" y2="{height - 24}" stroke="#ddd"/>')
        parts.append(_text(x, height - 8, f"{step * 25}%", size=11, anchor="middle", fill="#666"))
    for i, (label, fraction) in enumerate(rows):
        fraction = min(1.0, max(0.0, float(fraction or 0.0)))
        y = pad + i * row_h
        is_overall = overall is not None and i == len(rows) - 1
        colour = "#333" if is_overall else PALETTE[i % len(PALETTE)]
        parts.append(
            _text(label_w - 8, y + 19, clip(label, 40), anchor="end", weight="bold" if is_overall else "normal")
        )
        parts.append(f'<rect x="{label_w}" y="{y + 5}" width="{bar_w}" height="{row_h - 10}" fill="#f1f1f1"/>')
        parts.append(
            f'<rect class="bar" x="{label_w}" y="{y + 5}" width="{max(1.0, bar_w * fraction):.1f}" '
            f'height="{row_h - 10}" fill="{colour}"/>'
        )
        parts.append(_text(label_w + bar_w + 6, y + 19, f"{fraction * 100:.1f}%", size=12))
    parts.append("</svg>")
    return "".join(parts)


# -- value histogram ------------------------------------------------------------------------------------


def value_histogram(values: list[int], *, title: str, width: int = 900, height: int = 170) -> str:
    """How the documents' values (0–100) spread, in ten bins: the shape of the corpus at a glance."""
    bins = [0] * 10
    for v in values:
        bins[min(9, max(0, int(v) // 10))] += 1
    top = max(bins) or 1
    left, bottom, plot_h = 40, 28, height - 48
    bin_w = (width - left - 10) / 10
    parts = [_svg_open(width, height, title)]
    for i, count in enumerate(bins):
        h = plot_h * count / top
        x = left + i * bin_w
        parts.append(
            f'<rect class="bar" x="{x + 2:.1f}" y="{height - bottom - h:.1f}" width="{bin_w - 4:.1f}" '
            f'height="{max(h, 0.5):.1f}" fill="{PALETTE[0] if i >= 6 else "#9bb7d0"}"/>'
        )
        if count:
            parts.append(_text(x + bin_w / 2, height - bottom - h - 4, count, size=11, anchor="middle"))
        parts.append(
            _text(
                x + bin_w / 2,
                height - 10,
                f"{i * 10}–{i * 10 + 9 if i < 9 else 100}",
                size=10,
                anchor="middle",
                fill="#666",
            )
        )
    parts.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - 8}" y2="{height - bottom}" stroke="#888"/>')
    parts.append("</svg>")
    return "".join(parts)


# -- concept graph --------------------------------------------------------------------------------------


@dataclass
class GraphNode:
    key: str
    label: str
    detail: str = ""  # tooltip (SVG <title>)


@dataclass
class ConceptGraph:
    """Three columns: topics → passages → adaptation steps; edges by key."""

    topics: list[GraphNode] = field(default_factory=list)
    passages: list[GraphNode] = field(default_factory=list)
    steps: list[GraphNode] = field(default_factory=list)
    edges: list[tuple[str, str]] = field(default_factory=list)  # (from key, to key)
    hidden: dict[str, int] = field(default_factory=dict)  # column → how many nodes were left out


def concept_graph(graph: ConceptGraph, *, title: str, headings: tuple[str, str, str], width: int = 1000) -> str:
    columns = [graph.topics, graph.passages, graph.steps]
    col_x = [20, width * 0.36, width * 0.70]
    box_w = [width * 0.26, width * 0.28, width * 0.28]
    row_h, top = 34, 40
    rows = max(1, *(len(c) for c in columns))
    height = top + rows * row_h + 30
    position: dict[str, tuple[float, float, int]] = {}
    for c, nodes in enumerate(columns):
        # centre shorter columns vertically so edges fan out rather than all slope down
        offset = (rows - len(nodes)) * row_h / 2
        for r, node in enumerate(nodes):
            position[node.key] = (col_x[c], top + offset + r * row_h, c)
    parts = [_svg_open(width, height, title)]
    parts.append(
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#999"/></marker></defs>'
    )
    for c, heading in enumerate(headings):
        parts.append(_text(col_x[c] + box_w[c] / 2, 22, heading, size=13, anchor="middle", weight="bold"))
    for src, dst in graph.edges:
        if src not in position or dst not in position:
            continue
        x1, y1, c1 = position[src]
        x2, y2, _ = position[dst]
        x1 += box_w[c1]
        y1 += (row_h - 8) / 2
        y2 += (row_h - 8) / 2
        mid = (x1 + x2) / 2
        parts.append(
            f'<path class="edge" d="M {x1:.1f} {y1:.1f} C {mid:.1f} {y1:.1f}, {mid:.1f} {y2:.1f}, {x2 - 2:.1f} {y2:.1f}" '
            f'fill="none" stroke="#aaa" stroke-width="1.2" marker-end="url(#arrow)"/>'
        )
    fills = ["#dbeafe", "#fef3c7", "#dcfce7"]
    strokes = ["#0072B2", "#E69F00", "#009E73"]
    chars = [int(w / 7.2) for w in box_w]
    for key, (x, y, c) in position.items():
        node = next(n for n in columns[c] if n.key == key)
        parts.append(
            f'<g class="node"><title>{esc(node.detail or node.label)}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{box_w[c]:.1f}" height="{row_h - 8}" rx="5" '
            f'fill="{fills[c]}" stroke="{strokes[c]}"/>'
            + _text(x + 7, y + 17, clip(node.label, chars[c]), size=12)
            + "</g>"
        )
    for c, name in enumerate(("topics", "passages", "steps")):
        if graph.hidden.get(name):
            parts.append(
                _text(
                    col_x[c] + box_w[c] / 2,
                    height - 8,
                    f"+{graph.hidden[name]} more",
                    size=11,
                    anchor="middle",
                    fill="#666",
                )
            )
    parts.append("</svg>")
    return "".join(parts)


# -- memory hierarchy -----------------------------------------------------------------------------------


@dataclass
class Budget:
    label: str  # e.g. "dK/dV pass"
    fraction: float  # used / available, drawn as a bar
    text: str  # e.g. "96.0 KiB of 227.0 KiB"


@dataclass
class MemoryLevel:
    name: str  # e.g. "HBM"
    capacity: str  # e.g. "4800 GB/s"
    holds: str  # what lives there for this kernel
    budgets: list[Budget] = field(default_factory=list)


@dataclass
class Tile:
    name: str
    rows: int
    cols: int
    note: str = ""  # e.g. "x3 stages"


@dataclass
class TileGroup:
    title: str  # e.g. "dK/dV program: BLOCK_M 64, BLOCK_N 128, 8 warps"
    tiles: list[Tile] = field(default_factory=list)


def memory_hierarchy(levels: list[MemoryLevel], groups: list[TileGroup], *, title: str, width: int = 1000) -> str:
    """The memory levels top (HBM) to bottom (registers) as narrowing boxes, each with its budget bars, and
    on the right each program's tiles drawn to scale (one pixel per ``scale`` elements)."""
    bar_h, head_h, gap, top = 16, 46, 16, 12
    left_w = width * 0.58
    heights = [head_h + len(level.budgets) * (bar_h + 6) + 6 for level in levels]
    largest = max((max(t.rows, t.cols) for g in groups for t in g.tiles), default=1)
    scale = min(1.0, 60 / largest)  # the largest tile side is 60 px
    group_h = [30 + max((t.rows * scale for t in g.tiles), default=0) + 34 for g in groups]
    height = max(top + sum(heights) + gap * len(levels) + 10, top + sum(group_h) + 10)
    parts = [_svg_open(width, height, title)]
    parts.append(
        '<defs><marker id="down" viewBox="0 0 10 10" refX="5" refY="9" markerWidth="7" markerHeight="7" '
        'orient="auto"><path d="M 0 0 L 10 0 L 5 10 z" fill="#555"/></marker></defs>'
    )
    colours = ["#1f4e79", "#2e75b6", "#5b9bd5", "#9dc3e6"]
    y = top
    for i, (level, h) in enumerate(zip(levels, heights, strict=True)):
        inset = i * left_w * 0.05
        x, w = 10 + inset, left_w - 2 * inset
        ink = "#fff" if i < 3 else "#111"
        parts.append(
            f'<g class="level"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" rx="6" '
            f'fill="{colours[min(i, len(colours) - 1)]}"/>'
        )
        parts.append(_text(x + 10, y + 19, level.name, size=14, weight="bold", fill=ink))
        parts.append(_text(x + w - 10, y + 19, clip(level.capacity, 56), size=12, anchor="end", fill=ink))
        parts.append(_text(x + 10, y + 37, clip(level.holds, int(w / 6.4)), size=12, fill=ink))
        for j, budget in enumerate(level.budgets):
            by = y + head_h + j * (bar_h + 6)
            label_w = 110
            bw = w - 20 - label_w - 150
            share = min(1.0, max(0.0, budget.fraction))
            parts.append(_text(x + 10, by + 12, clip(budget.label, 16), size=11, fill=ink))
            parts.append(
                f'<rect x="{x + 10 + label_w:.1f}" y="{by:.1f}" width="{bw:.1f}" height="{bar_h - 4}" '
                f'fill="#ffffff" opacity="0.75"/>'
            )
            parts.append(
                f'<rect class="bar" x="{x + 10 + label_w:.1f}" y="{by:.1f}" width="{max(1.0, bw * share):.1f}" '
                f'height="{bar_h - 4}" fill="{"#D55E00" if share > 0.95 else "#009E73"}"/>'
            )
            parts.append(_text(x + w - 10, by + 11, clip(budget.text, 26), size=11, anchor="end", fill=ink))
        parts.append("</g>")
        if i + 1 < len(levels):
            ax = x + w / 2
            parts.append(
                f'<line x1="{ax:.1f}" y1="{y + h + 1:.1f}" x2="{ax:.1f}" y2="{y + h + gap - 2:.1f}" '
                f'stroke="#555" stroke-width="2" marker-end="url(#down)"/>'
            )
        y += h + gap
    # right: each program's tiles, to scale
    rx, gy = left_w + 36, float(top)
    for g, group in enumerate(groups):
        parts.append(_text(rx, gy + 14, clip(group.title, 62), size=10.5, weight="bold"))
        tx = rx
        for t, tile in enumerate(group.tiles):
            tw, th = max(3.0, tile.cols * scale), max(3.0, tile.rows * scale)
            parts.append(
                f'<rect class="tile" x="{tx:.1f}" y="{gy + 24:.1f}" width="{tw:.1f}" height="{th:.1f}" '
                f'fill="{PALETTE[t % len(PALETTE)]}" opacity="0.85"><title>{esc(tile.name)}: '
                f"{tile.rows} × {tile.cols} {esc(tile.note)}</title></rect>"
            )
            parts.append(_text(tx + tw / 2, gy + 24 + th + 13, clip(tile.name, 10), size=10, anchor="middle"))
            parts.append(
                _text(
                    tx + tw / 2,
                    gy + 24 + th + 25,
                    f"{tile.rows}×{tile.cols}{(' ' + tile.note) if tile.note else ''}",
                    size=9,
                    anchor="middle",
                    fill="#555",
                )
            )
            tx += tw + 22
        gy += group_h[g]
    parts.append("</svg>")
    return "".join(parts)


def _bytes(n: float) -> str:
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


human_bytes = _bytes


# -- line plot ------------------------------------------------------------------------------------------


def line_plot(
    series: dict[str, list[tuple[float, float]]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    log2_x: bool = True,
    width: int = 480,
    height: int = 300,
    highlight: str | None = None,
    y_max: float | None = None,
) -> str:
    """One line per series over a shared x axis (log2 for sequence lengths); ``highlight`` is drawn bold;
    ``y_max`` gives several plots one y scale, so they compare at a glance."""
    points = [p for pts in series.values() for p in pts if p[1] is not None]
    left, right, top, bottom = 52, 130, 28, 40
    pw, ph = width - left - right, height - top - bottom
    parts = [_svg_open(width, height, title)]
    parts.append(_text(left + pw / 2, 16, title, size=13, anchor="middle", weight="bold"))
    if not points:
        parts.append(_text(left + pw / 2, top + ph / 2, "no data", anchor="middle", fill="#666"))
        parts.append("</svg>")
        return "".join(parts)
    fx = (lambda v: math.log2(v)) if log2_x else (lambda v: v)
    xs = sorted({p[0] for p in points})
    x0, x1 = fx(xs[0]), fx(xs[-1])
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    y1 = _nice_ceiling(y_max if y_max is not None else max(p[1] for p in points))

    def px(v: float) -> float:
        return left + pw * (fx(v) - x0) / (x1 - x0)

    def py(v: float) -> float:
        return top + ph * (1 - v / y1)

    for k in range(5):
        val = y1 * k / 4
        parts.append(f'<line x1="{left}" y1="{py(val):.1f}" x2="{left + pw}" y2="{py(val):.1f}" stroke="#e5e5e5"/>')
        parts.append(_text(left - 6, py(val) + 4, f"{val:g}", size=10, anchor="end", fill="#666"))
    for v in xs:
        parts.append(_text(px(v), top + ph + 16, _seq_label(v), size=10, anchor="middle", fill="#666"))
    parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
    parts.append(_text(left + pw / 2, height - 6, x_label, size=11, anchor="middle"))
    parts.append(
        f'<text x="14" y="{top + ph / 2:.1f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + ph / 2:.1f})">{esc(y_label)}</text>'
    )
    for i, (name, pts) in enumerate(series.items()):
        pts = sorted((x, y) for x, y in pts if y is not None)
        if not pts:
            continue
        colour = PALETTE[i % len(PALETTE)]
        bold = name == highlight
        if len(pts) > 1:  # a lone point (the others skipped) is its dot alone
            path = " ".join(f"{'M' if j == 0 else 'L'} {px(x):.1f} {py(y):.1f}" for j, (x, y) in enumerate(pts))
            parts.append(
                f'<path class="series" d="{path}" fill="none" stroke="{colour}" stroke-width="{3 if bold else 1.6}"/>'
            )
        for x, y in pts:
            parts.append(
                f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="{3.2 if bold else 2.4}" fill="{colour}">'
                f"<title>{esc(name)}: {y:.1f} at {_seq_label(x)}</title></circle>"
            )
        ly = top + 8 + i * 17
        parts.append(
            f'<line x1="{left + pw + 10}" y1="{ly}" x2="{left + pw + 28}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="{3 if bold else 1.6}"/>'
        )
        parts.append(_text(left + pw + 32, ly + 4, clip(name, 14), size=11, weight="bold" if bold else "normal"))
    parts.append("</svg>")
    return "".join(parts)


def _nice_ceiling(v: float) -> float:
    if v <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(v))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def _seq_label(v: float) -> str:
    v = int(v)
    return f"{v // 1024}k" if v >= 1024 and v % 1024 == 0 else str(v)
