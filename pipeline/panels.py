"""The Vision panels, en and zh, exactly as DESIGN.md writes them.

document  [Value: 92] [Relevance: high] [Redundancy: low]   【资料价值：92】【适配相关性：高】【重复内容：低】
mastery   [Domain mastery: 23.4%]                           【当前领域掌握度：23.4%】
"""

from __future__ import annotations

from .errors import UsageError

_LEVEL_ZH = {"high": "高", "medium": "中", "low": "低"}


def _check(lang: str) -> None:
    if lang not in ("en", "zh"):
        raise UsageError(f"--lang must be en or zh, not {lang!r}")


def document_panel(value: int, relevance: str, redundancy: str, lang: str = "en") -> str:
    _check(lang)
    if lang == "zh":
        return f"【资料价值：{value}】【适配相关性：{_LEVEL_ZH[relevance]}】【重复内容：{_LEVEL_ZH[redundancy]}】"
    return f"[Value: {value}] [Relevance: {relevance}] [Redundancy: {redundancy}]"


def mastery_panel(mastery: float, lang: str = "en") -> str:
    """``mastery`` is 0..1; the panel shows a percentage with one decimal."""
    _check(lang)
    percent = f"{100 * mastery:.1f}%"
    return f"【当前领域掌握度：{percent}】" if lang == "zh" else f"[Domain mastery: {percent}]"


def level_text(level: str, lang: str = "en") -> str:
    return _LEVEL_ZH.get(level, level) if lang == "zh" else level
