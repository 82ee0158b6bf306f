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
    "crawl.error_reason": ("errors: {reason}", "错误：{reason}"),
    "crawl.truncated": ("documents cut by a budget (kept in part)", "因预算截断的文档（保留已读部分）"),
    "crawl.cap.links_per_page": ("links beyond {n} per page (not taken)", "超出每页链接上限 {n} 的链接（未收录）"),
    "crawl.cap.frontier_per_host": (
        "links refused: {n} URLs for one host already queued",
        "被拒链接：单个站点已有 {n} 个网址（站点队列上限）",
    ),
    "crawl.cap.frontier": ("links refused: the frontier holds {n} URLs", "被拒链接：抓取队列已有 {n} 个网址（总上限）"),
    "crawl.stopped.max_pages": (
        "Stopped at --max-pages {max_pages} with {queued} URLs still queued: run the same command again to"
        " continue (each run fetches up to --max-pages).",
        "已在 --max-pages {max_pages} 处停止，仍有 {queued} 个网址在队列中：再次运行同一命令即可继续"
        "（每次运行最多抓取 --max-pages 页）。",
    ),
    # -- why an entry was given up (pipeline.crawler.ledger.ErrorReason; "HTTP 404" is shown as it is) -----
    "crawl.reason.unreachable": ("host unreachable", "无法连接主机"),
    "crawl.reason.timeout": ("timeout", "超时"),
    "crawl.reason.too slow": ("answer too slow", "响应过慢"),
    "crawl.reason.transport": ("connection broken", "连接中断"),
    "crawl.reason.too large": ("too large", "内容过大"),
    "crawl.reason.protocol": ("not an HTTP answer (protocol)", "非 HTTP 响应（协议错误）"),
    "crawl.reason.bad encoding": ("bad encoding", "编码错误"),
    "crawl.reason.redirects": ("redirects", "重定向错误"),
    "crawl.reason.unreadable": ("unreadable content", "内容无法解析"),
    "crawl.reason.extraction killed": ("extraction stopped (time or memory)", "解析超时或超内存，已终止"),
    "crawl.reason.interrupted": ("interrupted too often", "多次被中断"),
    "crawl.reason.file": ("file cannot be read", "文件无法读取"),
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
}


def say(key: str, lang: Lang | str = Lang.en, **values: object) -> str:
    """The catalogue's ``key`` in ``lang``, its ``{name}`` places filled from ``values``."""
    english, chinese = CATALOGUE[key]
    template = chinese if lang == Lang.zh else english
    return template.format(**values) if values else template


def reason_text(reason: str, lang: Lang | str = Lang.en) -> str:
    """Why a crawl gave an entry up, in words (``unreachable`` → ``host unreachable``); ``HTTP 404`` as it is."""
    key = f"crawl.reason.{reason}"
    return say(key, lang) if key in CATALOGUE else reason


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
