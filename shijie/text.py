"""Every word shijie shows in two languages, English and Chinese, in one catalogue.

The terminal and the HTML report both take their panels, headings and labels from here, so the two never
differ; ``pipeline`` and ``skills`` hold no words for people, only ids (``Level.high``, ``Phase.paths``) that
are looked up here. A catalogue entry is ``key: (English, Chinese)``; ``{name}`` marks a value filled in.

The panels, the same in the terminal and the report (tests/test_score.py holds them to these exact strings)::

    document  [Value: 92] [Relevance: high] [Redundancy: low]   【资料价值：92】【适配相关性：高】【重复内容：低】
    mastery   [Domain mastery: 23.4%]                           【当前领域掌握度：23.4%】
    learning  [Recognizing skill structure…] …                  【技能结构识别中】…
    acquired  [Operator Adaptation Lv.1 — acquired]             【算子适配 Lv.1，已习得】

    from shijie.text import Lang, say
    say("panel.mastery", Lang.zh, percent="23.4%")     # '【当前领域掌握度：23.4%】'
"""

from __future__ import annotations

from enum import StrEnum

from pipeline.choices import Level
from skills.protocol import Phase


class Lang(StrEnum):
    """The languages of ``--lang``."""

    en = "en"
    zh = "zh"


CATALOGUE: dict[str, tuple[str, str]] = {
    # -- the Vision panels ---------------------------------------------------------------------------------
    "panel.document": (
        "[Value: {value}] [Relevance: {relevance}] [Redundancy: {redundancy}]",
        "【资料价值：{value}】【适配相关性：{relevance}】【重复内容：{redundancy}】",
    ),
    "panel.mastery": ("[Domain mastery: {percent}]", "【当前领域掌握度：{percent}】"),
    "panel.structure": ("[Recognizing skill structure…]", "【技能结构识别中】"),
    "panel.fragments": ("[Organizing knowledge fragments…]", "【知识片段整理中】"),
    "panel.paths": ("[Compressing reasoning paths…]", "【推理路径压缩中】"),
    "panel.acquired": ("[{title} Lv.{level} — acquired]", "【{title} Lv.{level}，已习得】"),
    "level.high": ("high", "高"),
    "level.medium": ("medium", "中"),
    "level.low": ("low", "低"),
    # -- shijie show: the headings of the reasons behind each figure ----------------------------------------
    "show.relevance": ("Relevance", "相关性"),
    "show.redundancy": ("Redundancy", "重复"),
    "show.value": ("Value", "价值构成"),
    "show.domains": ("Domains", "领域覆盖"),
    # -- shijie skills list ---------------------------------------------------------------------------------
    "skills.title": ("Skills", "技能"),
    # -- shijie crawl's summary table -----------------------------------------------------------------------
    "crawl.title": ("crawl", "抓取"),
    "crawl.resumed": (" (resumed)", "（续传）"),
    "crawl.fetched": ("fetched", "已抓取"),
    "crawl.stored": ("stored (new documents)", "新存入文档"),
    "crawl.updated": ("updated", "已更新"),
    "crawl.duplicates": ("duplicates (same content, other URL)", "重复（同内容不同网址）"),
    "crawl.not_modified": ("not modified (304)", "未变化（304）"),
    "crawl.robots": ("skipped by robots.txt", "robots.txt 禁止"),
    "crawl.skipped": ("skipped", "跳过"),
    "crawl.retries": ("retries", "重试"),
    "crawl.errors": ("errors", "错误"),
    "crawl.queued": ("still queued", "仍在队列"),
    "crawl.documents": ("documents in the database", "数据库文档总数"),
    "crawl.elapsed": ("elapsed", "用时"),
    "crawl.rate": ("pages/s", "页/秒"),
    # -- the HTML report ------------------------------------------------------------------------------------
    "report.title": ("shijie report", "视界 报告"),
    "report.summary": ("Summary", "概览"),
    "report.documents": ("Ranked documents", "资料排名"),
    "report.value_spread": ("Value of every scored document", "全部资料的价值分布"),
    "report.mastery": ("Domain mastery", "领域掌握度"),
    "report.skills": ("Skills", "技能"),
    "report.knowledge": ("Knowledge pack", "知识包"),
    "report.graph": ("Topics → passages → adaptation steps", "主题 → 段落 → 适配步骤"),
    "report.graph_topics": ("topics", "主题"),
    "report.graph_passages": ("passages", "段落"),
    "report.graph_steps": ("adaptation steps", "适配步骤"),
    "report.invoke": ("Invocation", "调用"),
    "report.plan": ("Tile plan", "分块方案"),
    "report.hierarchy": (
        "Memory hierarchy of the target and one block's budget",
        "目标硬件的存储层次与单个线程块的预算",
    ),
    "report.validation": ("Validation against the float64 reference", "与 float64 参考实现的误差校验"),
    "report.benchmark": ("Benchmark", "性能测试"),
    "report.tflops": ("backward TFLOP/s", "反向 TFLOP/s"),
    "report.seq": ("sequence length", "序列长度"),
    "report.adaptation": ("Adaptation list", "适配列表"),
    "report.steps": ("Adaptation path", "适配路径"),
    "report.timings": ("stage times", "各阶段耗时"),
    "report.total": ("total", "合计"),
    "report.error_kinds": (
        "errors: ours (PyTorch's same-dtype error in brackets, where measured)",
        "误差：本实现（括号内为 PyTorch 同精度误差，若有测量）",
    ),
    "report.stat_fetched": ("pages fetched", "抓取页面"),
    "report.stat_stored": ("new documents", "新资料"),
    "report.stat_duplicates": ("duplicate pages", "重复页面"),
    "report.stat_skipped_robots": ("skipped by robots.txt", "robots.txt 跳过"),
    "report.stat_errors": ("fetch errors", "抓取错误"),
    "report.stat_kept": ("documents kept", "保留资料"),
    "report.stat_discarded": ("discarded", "舍弃"),
    "report.stat_validated": ("{op} cases validated on {device}", "{op} 在 {device} 上通过校验的用例"),
    "report.no_gpu": (
        "Benchmark: not run (no GPU on this machine, or --benchmark not given).",
        "性能测试：未运行（本机没有 GPU，或未指定 --benchmark）。",
    ),
    "report.overall": ("overall", "总体"),
    "report.repeats": ("repeats", "重复于"),
    "report.value": ("value", "价值"),
    "report.document": ("document", "资料"),
    "report.panel": ("panel and reasons", "面板与理由"),
    "report.domains": ("domains", "领域"),
    "report.status": ("status", "状态"),
    "report.all_documents": ("the other documents (all {n} ranked)", "其余资料（共 {n} 篇）"),
    "report.terms": ("top terms", "关键词"),
    "report.source": ("source", "来源"),
    "report.depth": ("depth", "深度"),
    # -- users' data kept safe (issue 12): curation as a state, run's database, errors, Ctrl-C -------------
    "safe.interrupted": (
        "interrupted: what was already stored is kept; to resume, run: {command}",
        "已中断：已存入的内容都在；继续请运行：{command}",
    ),
    "safe.curated": (
        "kept {kept}, discarded {discarded} (min value {min_value}); {restored} restored from an earlier curation",
        "保留 {kept} 篇，舍弃 {discarded} 篇（最低价值 {min_value}）；{restored} 篇从之前的筛选中恢复",
    ),
    "safe.dry_run": (
        "dry run, nothing changed: would keep {kept}, discard {discarded} (min value {min_value});"
        " {changes} document(s) would change",
        "试运行，未做任何改动：将保留 {kept} 篇，舍弃 {discarded} 篇（最低价值 {min_value}）；{changes} 篇的状态将改变",
    ),
    "safe.changes_more": ("… and {n} more (--json lists them all)", "……另有 {n} 篇（--json 列出全部）"),
    "safe.state_active": ("active", "未筛选"),
    "safe.state_kept": ("kept", "保留"),
    "safe.state_discarded": ("discarded", "舍弃"),
    "safe.demo_refused": (
        "{db} holds {n} document(s) that are not the embedded demo: shijie run without a seed would mix the demo"
        " into them and curate them. Run the whole job on your own sources: shijie run SEED… --db {db};"
        " or give the demo a database of its own: shijie run --db demo.db",
        "{db} 中有 {n} 篇不属于内置示例的文档：不带种子的 shijie run 会把示例混入并一起筛选。"
        "对自己的资料运行完整流程：shijie run SEED… --db {db}；或为示例另用一个数据库：shijie run --db demo.db",
    ),
    "safe.out_is_file": ("{flag} {folder} is a file; give a folder", "{flag} {folder} 是文件；请给出文件夹"),
    "safe.out_not_writable": (
        "{flag} {folder} cannot be written ({reason}): give a folder you can write to; nothing was done",
        "{flag} {folder} 无法写入（{reason}）：请给出可写的文件夹；未做任何操作",
    ),
    "safe.skill_locked": (
        "{skill} is still locked by the mastery of this corpus: not learned, not invoked (shijie skills list"
        " says what it needs)",
        "{skill} 仍因本语料的掌握度不足而锁定：未学习、未调用（shijie skills list 会说明还缺什么）",
    ),
}


def say(key: str, lang: Lang | str = Lang.en, **values: object) -> str:
    """The catalogue's ``key`` in ``lang``, its ``{name}`` places filled from ``values``."""
    english, chinese = CATALOGUE[key]
    template = chinese if lang == Lang.zh else english
    return template.format(**values) if values else template


def words(section: str, lang: Lang | str = Lang.en) -> dict[str, str]:
    """Every entry of one section (``report``), keyed without the section's prefix."""
    prefix = section + "."
    return {key[len(prefix) :]: say(key, lang) for key in CATALOGUE if key.startswith(prefix)}


# -- the panels -----------------------------------------------------------------------------------------


def level_text(level: Level | str, lang: Lang | str = Lang.en) -> str:
    """``high`` / ``高``; a word the catalogue does not know is shown as it is."""
    key = f"level.{level}"
    return say(key, lang) if key in CATALOGUE else str(level)


def document_panel(value: int, relevance: Level | str, redundancy: Level | str, lang: Lang | str = Lang.en) -> str:
    return say(
        "panel.document",
        lang,
        value=value,
        relevance=level_text(relevance, lang),
        redundancy=level_text(redundancy, lang),
    )


def mastery_panel(mastery: float, lang: Lang | str = Lang.en) -> str:
    """``mastery`` is 0..1; the panel shows a percentage with one decimal."""
    return say("panel.mastery", lang, percent=f"{100 * mastery:.1f}%")


def learning_panel(phase: Phase, lang: Lang | str = Lang.en) -> str:
    return say(f"panel.{Phase(phase)}", lang)


def acquired_panel(title: str, title_zh: str | None, level: int, lang: Lang | str = Lang.en) -> str:
    """``[Operator Adaptation Lv.1 — acquired]``; the zh panel falls back to the English title."""
    return say("panel.acquired", lang, title=(title_zh or title) if lang == Lang.zh else title, level=level)
