"""The report's words in English and Chinese: headings; the panels come from ``pipeline.panels``
(documents, mastery) and ``skills.learning.PANELS`` (learning), so the report and the terminal never differ."""

from __future__ import annotations

HEADINGS = {
    "en": {
        "title": "shijie report",
        "summary": "Summary",
        "documents": "Ranked documents",
        "value_spread": "Value of every scored document",
        "mastery": "Domain mastery",
        "skills": "Skills",
        "knowledge": "Knowledge pack",
        "graph": "Topics → passages → adaptation steps",
        "graph_cols": ("topics", "passages", "adaptation steps"),
        "invoke": "Invocation",
        "plan": "Tile plan",
        "hierarchy": "Memory hierarchy of the target and one block's budget",
        "validation": "Validation against the float64 reference",
        "benchmark": "Benchmark",
        "tflops": "backward TFLOP/s",
        "seq": "sequence length",
        "adaptation": "Adaptation list",
        "steps": "Adaptation path",
        "crawl": "Crawl",
        "timings": "stage times",
        "total": "total",
        "error_kinds": "errors: ours (PyTorch's same-dtype error in brackets, where measured)",
        "stat_fetched": "pages fetched",
        "stat_stored": "new documents",
        "stat_duplicates": "duplicate pages",
        "stat_skipped_robots": "skipped by robots.txt",
        "stat_errors": "fetch errors",
        "stat_kept": "documents kept",
        "stat_discarded": "discarded",
        "stat_validated": "{op} cases validated on {device}",
        "no_gpu": "Benchmark: not run (no GPU on this machine, or --benchmark not given).",
        "overall": "overall",
        "reasons": "reasons",
        "repeats": "repeats",
        "value": "value",
        "document": "document",
        "panel": "panel and reasons",
        "domains": "domains",
        "status": "status",
        "all_documents": "the other documents (all {n} ranked)",
        "terms": "top terms",
        "source": "source",
        "depth": "depth",
    },
    "zh": {
        "title": "视界 报告",
        "summary": "概览",
        "documents": "资料排名",
        "value_spread": "全部资料的价值分布",
        "mastery": "领域掌握度",
        "skills": "技能",
        "knowledge": "知识包",
        "graph": "主题 → 段落 → 适配步骤",
        "graph_cols": ("主题", "段落", "适配步骤"),
        "invoke": "调用",
        "plan": "分块方案",
        "hierarchy": "目标硬件的存储层次与单个线程块的预算",
        "validation": "与 float64 参考实现的误差校验",
        "benchmark": "性能测试",
        "tflops": "反向 TFLOP/s",
        "seq": "序列长度",
        "adaptation": "适配列表",
        "steps": "适配路径",
        "crawl": "爬取",
        "timings": "各阶段耗时",
        "total": "合计",
        "error_kinds": "误差：本实现（括号内为 PyTorch 同精度误差，若有测量）",
        "stat_fetched": "抓取页面",
        "stat_stored": "新资料",
        "stat_duplicates": "重复页面",
        "stat_skipped_robots": "robots.txt 跳过",
        "stat_errors": "抓取错误",
        "stat_kept": "保留资料",
        "stat_discarded": "舍弃",
        "stat_validated": "{op} 在 {device} 上通过校验的用例",
        "no_gpu": "性能测试：未运行（本机没有 GPU，或未指定 --benchmark）。",
        "overall": "总体",
        "reasons": "理由",
        "repeats": "重复于",
        "value": "价值",
        "document": "资料",
        "panel": "面板与理由",
        "domains": "领域",
        "status": "状态",
        "all_documents": "其余资料（共 {n} 篇）",
        "terms": "关键词",
        "source": "来源",
        "depth": "深度",
    },
}


def words(lang: str) -> dict:
    return HEADINGS.get(lang, HEADINGS["en"])


def document_panel(doc: dict, lang: str) -> str:
    from pipeline import panels

    return panels.document_panel(doc.get("value", 0), doc.get("relevance", "low"), doc.get("redundancy", "low"), lang)


def mastery_panel(overall: float, lang: str) -> str:
    from pipeline import panels

    return panels.mastery_panel(overall, lang)


def learning_panels(lang: str) -> list[str]:
    from skills.learning import PANELS

    return [PANELS[lang][key] for key in ("structure", "fragments", "paths")]


def acquired_panel(title: str, title_zh: str | None, level: int, lang: str) -> str:
    from skills.learning import acquired_panel as panel

    return panel(title, title_zh, level, lang)
