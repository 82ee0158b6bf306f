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

import functools
import re
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
    # -- the reader's verbs: score, show, search, list, export, report, mark, curate, skills (READER) ------
    "punct.colon": (": ", "："),
    "punct.semicolon": ("; ", "；"),
    "punct.paren": (" ({text})", "（{text}）"),
    "col.id": ("id", "编号"),
    "col.value": ("value", "价值"),
    "col.relevance": ("relevance", "相关性"),
    "col.redundancy": ("redundancy", "重复"),
    "col.title": ("title", "标题"),
    "col.status": ("status", "状态"),
    "col.type": ("type", "类型"),
    "col.host": ("host", "站点"),
    "col.score": ("score", "得分"),
    "col.domains": ("domains", "领域"),
    "status.kept": ("kept", "保留"),
    "status.discarded": ("discarded", "舍弃"),
    "status.active": ("not curated yet", "未筛选"),
    "status.locked": ("locked", "未解锁"),
    "status.learnable": ("learnable", "可习得"),
    "status.learned": ("learned", "已习得"),
    "status.broken": ("broken", "已损坏"),
    "kind.article": ("article", "文章"),
    "kind.paper": ("paper", "论文"),
    "kind.vendor_guide": ("vendor guide", "厂商指南"),
    "kind.course": ("course", "课程"),
    "kind.reference": ("reference", "参考文档"),
    "kind.blog": ("blog", "博客"),
    "kind.listicle": ("listicle", "清单文"),
    "kind.navigation": ("navigation page", "导航页"),
    "label.good": ("good", "好"),
    "label.bad": ("bad", "差"),
    "part.relevance": ("relevance", "相关性"),
    "part.depth": ("depth", "深度"),
    "part.uniqueness": ("uniqueness", "独特性"),
    "part.source": ("source", "来源"),
    "score.title": ("{n} documents scored against '{topic}'", "已按“{topic}”为 {n} 篇资料评分"),
    "show.term_evidence": ("term evidence", "术语证据"),
    "show.cosine": ("cosine", "余弦相似度"),
    "show.label_model": ("label model", "标注模型"),
    "show.top_terms": ("top terms", "关键词"),
    "show.profile_terms": ("profile terms", "画像术语"),
    "show.repeats": ("repeats document {id} {url} (Jaccard {jaccard})", "重复于资料 {id} {url}（Jaccard {jaccard}）"),
    "show.repeats_nothing": ("repeats nothing ranked above it", "不重复任何排名更高的资料"),
    "show.source": ("Source", "来源"),
    "show.prior": ("prior", "先验"),
    "show.depth": ("Depth", "深度"),
    "show.type": ("Type", "类型"),
    "show.gate": ("gate", "门控"),
    "show.substance": ("substance", "实质"),
    "show.no_text": ("(no text stored for this document)", "（此资料没有保存正文）"),
    "search.none": ("no document matches {query}", "没有资料匹配 {query}"),
    "search.any": (
        "no document has every term; these have some of them",
        "没有资料包含全部词语；以下资料包含其中一部分",
    ),
    "search.more": (
        "{n} more matching document(s) not kept by curation: add --all",
        "另有 {n} 篇匹配的资料未被筛选保留：加 --all 查看",
    ),
    "search.uncurated": ("nothing curated yet: searching every crawled document", "尚未筛选：在全部已抓取资料中搜索"),
    "search.unindexed": (
        "{n} document(s) crawled since the last index are not searched (the database is read-only)",
        "{n} 篇此后抓取的资料尚未索引，未被搜索（数据库只读）",
    ),
    "list.title": ("{shown} of {total} documents", "共 {total} 篇资料，显示 {shown} 篇"),
    "list.none": ("no document matches these filters", "没有资料符合这些条件"),
    "export.wrote": ("wrote {n} documents to {path} ({format})", "已将 {n} 篇资料写入 {path}（{format}）"),
    "report.wrote": ("report: {path}", "报告：{path}"),
    "mark.done": (
        "marked {id} {label} ({good} good, {bad} bad); run shijie score to use it",
        "已将 {id} 标记为“{label}”（好 {good}，差 {bad}）；运行 shijie score 后生效",
    ),
    "curate.done": (
        "kept {kept}, discarded {discarded} (min value {min})",
        "保留 {kept}，舍弃 {discarded}（最低价值 {min}）",
    ),
    "skills.name": ("name", "名称"),
    "skills.level": ("level", "等级"),
    "skills.needs": ("needs", "还需"),
    "skills.short": ("{n} domain(s) short, see below", "{n} 个领域未达标，见下"),
    "skills.next_level": (
        "Lv.{level} at {threshold} mean required mastery (now {now})",
        "Lv.{level} 需要平均掌握度 {threshold}（当前 {now}）",
    ),
    "skills.top": ("top level", "已达最高等级"),
    "skills.ready": ("ready: shijie skills learn {name}", "可以学习：shijie skills learn {name}"),
    "skills.relearn": ("mastery now supports Lv.{level}: learn it again", "当前掌握度已支持 Lv.{level}：请重新学习"),
    "skills.locked_intro": ("{name} is locked; mastery it still needs:", "{name} 未解锁；仍需的领域掌握度："),
    "skills.shortfall": ("{domain} {have} of {need} (+{gap})", "{domain} {have}／{need}（差 {gap}）"),
    "skills.topics": ("Topics ({n} curated documents)", "主题（{n} 篇精选资料）"),
    "skills.path": ("Adaptation path", "适配路径"),
    "skills.step": ("step", "步骤"),
    "skills.sources": ("sources", "来源"),
    "skills.label": ("label", "标签"),
    "skills.documents": ("documents", "资料"),
    "skills.passages": ("passages", "段落"),
    "skills.domain": ("domain", "领域"),
    "skills.wrote": ("wrote {folder} ({n} files)", "已写入 {folder}（{n} 个文件）"),
    "invoke.adaptation": ("Adaptation list", "适配列表"),
    "invoke.adapted": ("✓ adapted", "✓ 已适配"),
    "invoke.not_adapted": ("✗ not adapted: plan only", "✗ 未适配：仅有方案"),
    "invoke.plan": ("Tile plan", "分块方案"),
    "invoke.validation": ("Validation", "校验"),
    "invoke.knowledge": ("Knowledge used", "所用知识"),
    "invoke.no_passage": ("(no passage found in the curated corpus)", "（精选语料中没有找到相关段落）"),
    "invoke.note": ("note:", "注意："),
    "invoke.validated": (
        "{op} on {device}: {passed}/{run} validation cases passed",
        "{op} 在 {device} 上：{passed}/{run} 个校验用例通过",
    ),
    # the errors a user meets most, by the English line the library writes ({…}: the parts that vary)
    "error.prefix": ("error: ", "错误："),
    "error.no_document": (
        "no document {doc} (give an id, a URL or a path; shijie list shows them)",
        "没有资料 {doc}（请给出编号、网址或路径；shijie list 可列出全部）",
    ),
    "error.not_scored": (
        "document {id} is not scored yet: run shijie score",
        "资料 {id} 尚未评分：请运行 shijie score",
    ),
    "error.no_text": (
        "document {id} has no text stored (curation purged it)",
        "资料 {id} 没有保存正文（已被筛选清除）",
    ),
    "error.range": (
        "{flag} must be between {low} and {high}, not {value}",
        "{flag} 须在 {low} 到 {high} 之间，而不是 {value}",
    ),
    "error.choice": ("{flag} must be {choices}, not {value}", "{flag} 须为 {choices}，而不是 {value}"),
    "error.query_words": ("{flag} needs at least one word to find", "{flag} 至少需要一个要查找的词"),
    "error.query_only_excluded": (
        "{flag} needs at least one word to find (-word only excludes)",
        "{flag} 至少需要一个要查找的词（-词 只用于排除）",
    ),
    "error.query_long": ("{flag} is {n} characters long; at most {max}", "{flag} 长 {n} 个字符；最多 {max} 个"),
    "error.query_terms": ("{flag} has {n} distinct terms; at most {max}", "{flag} 含 {n} 个不同的词；最多 {max} 个"),
    "error.nothing_to_score": (
        "no documents to score: crawl first (shijie crawl)",
        "没有可评分的资料：请先抓取（shijie crawl）",
    ),
    "error.nothing_to_curate": (
        "no documents to curate: crawl and score first (shijie crawl, shijie score)",
        "没有可筛选的资料：请先抓取并评分（shijie crawl、shijie score）",
    ),
    "error.unscored": (
        "{n} document(s) crawled since the last scoring: run shijie score first",
        "上次评分后新抓取了 {n} 篇资料：请先运行 shijie score",
    ),
    "error.not_learned": (
        "skill {name} is not learned yet: run `shijie skills learn {plain}` first",
        "技能 {name} 尚未习得：请先运行 `shijie skills learn {plain}`",
    ),
    "error.unknown_domain": (
        "{flag} {domain} is not a domain; domains: {domains}",
        "{flag} {domain} 不是已知领域；领域有：{domains}",
    ),
    "error.topic_and_profile": ("give --topic or --profile, not both", "--topic 与 --profile 只能给一个"),
    "error.json_needs_output": (
        "--json needs --output FILE (without it, stdout carries the export itself)",
        "--json 需要同时给出 --output 文件（否则标准输出就是导出内容本身）",
    ),
    "error.cannot_write": ("cannot write {path}: {reason}", "无法写入 {path}：{reason}"),
    "error.none_kept": (
        "curation kept no document ({n} discarded): search them with --all, or curate again with a lower --min-value",
        "筛选没有保留任何资料（已舍弃 {n} 篇）：加 --all 搜索它们，或以更低的 --min-value 重新筛选",
    ),
    # the reasons behind the figures of shijie show, by the English line scoring writes
    "reason.words": ("{n} words", "{n} 词"),
    "reason.code": ("{blocks} code blocks, {lines} code lines", "{blocks} 个代码块，{lines} 行代码"),
    "reason.numbers": ("{share} numbers and math symbols", "数字与数学符号占 {share}"),
    "reason.headings": ("{n} headings", "{n} 个标题"),
    "reason.concepts": (
        "{distinct} distinct domain concepts, {hits} concept mentions",
        "{distinct} 个不同的领域概念，共提及 {hits} 次",
    ),
    "reason.no_cue": ("no strong cue of a guide, paper, course or blog", "没有指南、论文、课程或博客的明显特征"),
    "reason.cues": ("cues: {cues}", "特征：{cues}"),
    "reason.label_lines": ("{share} of the words in short label lines", "{share} 的词位于简短的标签行"),
    "reason.link_lines": ("{share} of the words in link or label lines", "{share} 的词位于链接或标签行"),
    "reason.value": ("value {n}", "价值 {n}"),
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


def translate(line: str, lang: Lang | str = Lang.en) -> str:
    """A line the library wrote in English (an error, a reason behind a score), in ``lang``: the catalogue's
    ``error.*`` and ``reason.*`` entries are the English lines with ``{…}`` where they vary, so a line that
    matches one is written with its Chinese template and the same parts; any other line stays English."""
    if lang != Lang.zh:
        return line
    for pattern, chinese in _patterns():
        found = pattern.fullmatch(line)
        if found:
            return chinese.format(**found.groupdict())
    return line


@functools.cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    compiled = []
    for key, (english, chinese) in CATALOGUE.items():
        if key.startswith(("error.", "reason.")) and "{" in english:
            regex = re.sub(r"\\\{(\w+)\\\}", lambda m: f"(?P<{m.group(1)}>.+?)", re.escape(english))
            compiled.append((re.compile(regex, re.S), chinese))
    # the most specific template first: more literal text left once the parts are taken out
    compiled.sort(key=lambda pair: -len(re.sub(r"\(\?P<\w+>\.\+\?\)", "", pair[0].pattern)))
    return compiled


def lang_in(argv: list[str]) -> Lang:
    """The ``--lang`` an argument list asks for (for lines written before or after a command parsed it)."""
    for n, arg in enumerate(argv):
        value = (
            arg.split("=", 1)[1]
            if arg.startswith("--lang=")
            else argv[n + 1]
            if arg == "--lang" and n + 1 < len(argv)
            else None
        )
        if value == Lang.zh:
            return Lang.zh
    return Lang.en


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
