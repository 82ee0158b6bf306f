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
    # the Vision's document types (pipeline.vision.labelled.TYPES): what ``show`` and ``list --type`` name
    "kind.changelog": ("changelog", "更新日志"),
    "kind.licence": ("licence", "许可证"),
    "kind.install": ("install/build page", "安装/构建说明"),
    "kind.contributing": ("contributing/governance page", "贡献/治理说明"),
    "kind.link_list": ("link list", "链接列表"),
    "kind.toc": ("table of contents", "目录页"),
    "kind.api_reference": ("API reference", "API 参考"),
    "kind.tutorial": ("tutorial", "教程"),
    "kind.guide": ("guide", "指南"),
    "kind.paper_summary": ("paper summary", "论文笔记"),
    "kind.qa": ("Q&A / FAQ", "问答"),
    "kind.marketing": ("marketing", "营销"),
    "kind.generated": ("generated copy or index", "自动生成的副本或索引"),
    "kind.agent_notes": ("notes for AI agents", "AI 代理说明"),
    "kind.readme": ("README", "项目自述"),
    "kind.other": ("other", "其他"),
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
    # -- shijie show: the Vision's reasons in words (shijie/explain.py) -------------------------------------
    "why.type": ("{type} ({probabilities})", "{type}（{probabilities}）"),
    "why.type_admin": (
        "administrative: about a project, not teaching its substance",
        "事务性：介绍项目而非讲解技术内容",
    ),
    "why.relevance": ("{score} to {topic}", "{score}（对“{topic}”）"),
    "why.none": ("none", "无"),
    "why.profile": (
        "topic profile {score} (topic terms {evidence}, TF-IDF cosine {cosine})",
        "主题画像 {score}（主题术语 {evidence}，TF-IDF 余弦 {cosine}）",
    ),
    "why.learned": ("learned topic model {p}, blended half and half", "习得的主题模型 {p}，二者各占一半"),
    "why.learned_sense": (
        "learned topic model {p}, counted ×{w}: its topic words read mostly in another sense",
        "习得的主题模型 {p}，按 ×{w} 计：其主题词多为另一词义",
    ),
    "why.learned_foreign": (
        "learned topic model {p}, counted ×{w}: its topic words are all another field's",
        "习得的主题模型 {p}，按 ×{w} 计：其主题词都属另一领域",
    ),
    "why.domain": ("the topic terms weighed within {domain} alone", "主题术语只在“{domain}”一域内计"),
    "why.learned_off": (
        "the learned topic model applies to the default topic ({name}) only: the profile alone decides",
        "习得的主题模型只适用于默认主题（{name}）：此处仅由主题画像决定",
    ),
    "why.marks": ("your marks' model {p} (half of the relevance)", "你的标注模型 {p}（占相关性一半）"),
    "why.source": (
        "nine in ten of the other pages of its source read {m} or more: {d} towards that",
        "同一来源的其他页面九成在 {m} 以上：向其靠拢 {d}",
    ),
    "why.record": (
        "a project's record (a changelog's or a licence's file): {share} of it counts, apart from its source",
        "项目记录（更新日志或许可证文件）：只计 {share}，不与来源的其他页面相比",
    ),
    "why.terms": ("terms found", "找到的术语"),
    "why.term_sense": ("sense {f}", "词义 {f}"),
    "why.term_general": ("general term, counts {f}", "通用术语，计 {f}"),
    "why.term_against": ("another field's term, counts against", "他领域术语，反向计分"),
    "why.senses": ("senses", "词义"),
    "why.sense_ours": ("{term} read in the GPU-kernel sense ({f})", "“{term}”按 GPU 内核含义理解（{f}）"),
    "why.sense_other": ("{term} read in another sense ({f})", "“{term}”按其他含义理解（{f}）"),
    "why.sense_unsure": ("{term} without telling context ({f})", "“{term}”缺少可判断的上下文（{f}）"),
    "why.topic_words": ("words the topic model weighs most", "主题模型最看重的词"),
    "why.value_base": ("{points} an average labelled document", "{points} 已标注资料的平均值"),
    "why.value_rest": ("{points} the other features together", "{points} 其余特征合计"),
    "why.value_end": (
        "= {raw}, on the 0–100 scale {model}; your marks {marks}; × relevance gate {gate};"
        " × administrative-type gate {admin} (a repeat keeps its content's value: its redundancy is its own figure)",
        "= {raw}，折算到 0–100 为 {model}；你的标注 {marks}；× 相关性门控 {gate}；× 事务性类型门控 {admin}（重复副本保留其内容的价值：重复度另计）",
    ),
    "why.value_translation": (
        "a translation of document {id}: at least its original's value (its own words, another language's, read {own})",
        "资料 {id} 的译本：价值不低于原文（其自身为另一种语言的文字，读得 {own}）",
    ),
    "why.value_included": (
        "a page that only includes document {id}: at least that document's value (its own text, the directive and"
        " a few words, read {own})",
        "仅包含资料 {id} 的页面：价值不低于被包含的资料（其自身文字仅为包含指令与寥寥数语，读得 {own}）",
    ),
    "why.value_words": ("words that move its value", "影响价值的词"),
    "why.repeats": (
        "repeats document {id} {url}: {share} of its text is there (Jaccard {jaccard}; found by {signal})",
        "重复资料 {id} {url}：其 {share} 的内容已在那里（Jaccard {jaccard}；依据：{signal}）",
    ),
    "why.repeats_some": (
        "closest copy kept instead: document {id} {url}, {share} of its text (below the {cut} that makes a repeat)",
        "最接近的保留副本：资料 {id} {url}，含其 {share} 的内容（低于判为重复的 {cut}）",
    ),
    "why.repeats_nothing": ("repeats no copy preferred over it", "不重复任何更应保留的副本"),
    "why.kept_because": ("that copy is the one to keep: {why}", "保留那一份的原因：{why}"),
    "why.signal.text": ("text shingles", "文本片段"),
    "why.signal.code": ("shared code blocks", "相同的代码块"),
    "why.signal.contained": ("its text inside the other's", "其文本包含于对方之中"),
    "why.signal.revision": (
        "the same file at another revision or version, still sharing a large part of its text",
        "同一文件的另一修订或版本，仍共有其大部分内容",
    ),
    "why.signal.history": (
        "the same file of its repository at another commit: one file's older state, however rewritten",
        "同一仓库文件在另一提交下的状态：同一文件的旧版本，无论改写多少",
    ),
    "why.signal.moved": (
        "the page at a past commit, its text now under another path of the current tree",
        "过去提交中的页面，其文本现位于当前目录树的另一路径下",
    ),
    "why.signal.generated": (
        "the same file's preprocessed or expanded form, as their names say",
        "同一文件经预处理或展开后的形式（由文件名可知）",
    ),
    "why.signal.program": (
        "the same program written in another language: the names of its calls, constants and messages",
        "以另一种语言写成的同一程序：其调用、常量与消息中的名称相同",
    ),
    "why.signal.renumbered": (
        "the same text as the first file of its numbered series, renamed with its number",
        "与其编号系列中第一个文件相同的文本，仅随编号改名",
    ),
    "why.signal.instance": (
        "the same lines as another unit instantiated from one template, but for their constants",
        "与同一模板实例化出的另一编译单元行行相同，仅常量不同",
    ),
    "why.signal.swapped": (
        "the same lines as that page of its folder, but for one name swapped throughout",
        "与同一文件夹中的该页面行行相同，仅通篇替换了一个名称",
    ),
    "why.signal.substituted": (
        "the same lines as that file of its folder, but for what their names differ in, changed wherever it stands",
        "与同一文件夹中的该文件行行相同，仅把两者文件名的不同之处在各处替换",
    ),
    "why.signal.source": ("the crawler named it the source of that page", "抓取器标明它是该页面的源文件"),
    "why.signal.included": (
        "its page shows that file's text: its own only names it (include directives, front matter that renders it)",
        "其页面显示的是该文件的内容：它自身只是指向该文件（包含指令，或渲染该文件的前置元数据）",
    ),
    "why.signal.translation": (
        "the same page in another language: the names, identifiers and numbers both write alike",
        "同一页面的另一种语言：两者共有的名称、标识符与数字",
    ),
    "why.rule.rendered": ("it is the rendered page, this one its source copy", "它是渲染后的页面，本篇是其源文件副本"),
    "why.rule.original": (
        "it is the original, this one a translation (marked {b})",
        "它是原文，本篇是译文（标记为 {b}）",
    ),
    "why.rule.generated": (
        "it is the original, this one a form a machine made of it (an export, a preprocessed or expanded form)",
        "它是原件，本篇是机器由其生成的形式（导出、预处理或展开后的形式）",
    ),
    "why.rule.program": (
        "it is the program in its first language ({a}), this one the same program in another ({b})",
        "它是该程序的首要语言版本（{a}），本篇是同一程序的另一种语言版本（{b}）",
    ),
    "why.rule.series": (
        "it is the first file of its numbered series, this one the same text renamed",
        "它是编号系列中的第一个文件，本篇是改名后的同一文本",
    ),
    "why.rule.current": (
        "it is read at the repository's current revision ({a}), this one at a past commit ({b})",
        "它取自仓库的当前版本（{a}），本篇取自过去的提交（{b}）",
    ),
    "why.rule.instance": (
        "it is the fullest unit instantiated from their template (else the first by name), this one another",
        "它是由同一模板实例化出的最完整的编译单元（同样完整时取名称在前者），本篇是另一个",
    ),
    "why.rule.package": (
        "it is the same upload record in the package whose name sorts first ({a} before {b})",
        "它是同一份上传记录中包名排序在前的软件包所装的一份（{a} 先于 {b}）",
    ),
    "why.rule.version": ("it is the newer version ({a} after {b})", "它是更新的版本（{a} 晚于 {b}）"),
    "why.rule.general": (
        "it is the general page ({a}), this one its variant for one case ({b})",
        "它是通用页面（{a}），本篇是其针对某一情形的变体（{b}）",
    ),
    "why.rule.solution": (
        "it is the solution ({a}), this one the exercise it completes ({b})",
        "它是习题的解答（{a}），本篇是该解答所补全的习题（{b}）",
    ),
    "why.rule.date": ("it shows a newer date ({a} after {b})", "它的日期更新（{a} 晚于 {b}）"),
    "why.rule.precision": (
        "it is the same routine's page or source file in the precision kept first ({a} before {b}: double, double"
        " complex, single, complex, half)",
        "它是同一例程页面或源文件中优先保留的精度版本（{a} 先于 {b}：双精度、双精度复数、单精度、复数、半精度）",
    ),
    "why.rule.complete": (
        "it is more complete ({a} distinct passages against {b})",
        "它更完整（{a} 个不同片段，本篇 {b} 个）",
    ),
    "why.rule.html": ("it is the HTML page of the same text", "它是同一内容的 HTML 页面"),
    "why.rule.id": ("alike in every way: the one stored first", "各方面相同：取先存入的一份"),
    "why.form": (
        "{words} words; {prose} explanatory prose, {code} code ({blocks} blocks); {headings} headings;"
        " {measurements} measurements, {math} math",
        "{words} 词；说明性文字 {prose}，代码 {code}（{blocks} 块）；{headings} 个标题；{measurements} 处测量数据，{math} 处数学",
    ),
    "show.type_heading": ("Type", "类型"),
    "show.form": ("Form", "形式"),
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
    # the value model's features (pipeline.vision.value_model), by name: what each contribution measures
    "feature.log_words": ("length (log of words)", "篇幅（词数的对数）"),
    "feature.long_text": ("length, saturating at 3000 words", "篇幅（3000 词后饱和）"),
    "feature.short_text": ("a short text (under 150 words)", "短文本（不足 150 词）"),
    "feature.prose_share": ("share of words in explanatory paragraphs", "说明性段落的词占比"),
    "feature.sentence_length": ("words per sentence", "平均句长"),
    "feature.code_share": ("share of lines that are code", "代码行占比"),
    "feature.code_blocks": ("code blocks", "代码块数"),
    "feature.headings": ("headings per 1000 words", "每千词标题数"),
    "feature.list_share": ("share of lines in lists", "列表行占比"),
    "feature.link_share": ("share of lines with links", "含链接的行占比"),
    "feature.table_share": ("share of lines in tables", "表格行占比"),
    "feature.shell_share": ("share of lines that are shell commands", "命令行占比"),
    "feature.signature_share": ("share of lines that are API signatures", "API 签名行占比"),
    "feature.rst_share": ("share of lines of reStructuredText markup", "reStructuredText 标记行占比"),
    "feature.question_share": ("share of lines that are questions", "问句行占比"),
    "feature.version_lines": ("version and date lines per 1000 words", "每千词版本与日期行数"),
    "feature.label_share": (
        "share of words in short label lines (menus, link lists)",
        "短标签行（菜单、链接列表）的词占比",
    ),
    "feature.named_item_share": (
        "share of lines that open with a name (entries of an index)",
        "以名称开头的行占比（索引条目）",
    ),
    "feature.short_section_share": ("share of sections under 40 words", "不足 40 词的小节占比"),
    "feature.index_then_prose": (
        "an index opening followed by prose (a guide behind a table of contents)",
        "开头是索引、其后是正文（目录之后的指南）",
    ),
    "feature.numbers": ("numbers per 1000 words", "每千词数字数"),
    "feature.measurements": (
        "measurements with units (GB/s, TFLOPS, ms, x) per 1000 words",
        "每千词带单位的测量值（GB/s、TFLOPS、ms、倍）",
    ),
    "feature.dates": ("dates per 1000 words", "每千词日期数"),
    "feature.math": ("math per 1000 words", "每千词数学式"),
    "feature.exclaims": ("exclamation marks per 1000 words", "每千词感叹号数"),
    "feature.badges": ("README badges", "README 徽章"),
    "feature.cjk_share": ("share of Chinese characters", "中文字符占比"),
    "feature.title_markup": ("a title made of markup", "由标记符号构成的标题"),
    "feature.source_copy": ("a Sphinx or markdown source copy", "Sphinx 或 Markdown 源文件副本"),
    "feature.kernel_code": (
        "kernel names in code (tiles, shared memory, warps, tl.dot) × share of code lines",
        "代码中的内核名称（分块、共享内存、warp、tl.dot）× 代码行占比",
    ),
    "feature.test_share": (
        "share of lines that check a result (assertions, test macros)",
        "检查结果的代码行占比（断言、测试宏）",
    ),
    "feature.code_prose_turns": (
        "turns between code and prose lines (code explained as it goes)",
        "代码行与文字说明行之间的交替次数（边写代码边讲解）",
    ),
    "feature.device_code": (
        "share of lines that run on the device (kernels, device functions, offload regions)",
        "在设备上运行的代码行占比（内核、设备函数、卸载区域）",
    ),
    "feature.relevance": ("relevance to the topic", "与主题的相关性"),
    "feature.words_value": ("what its words suggest", "其用词所示的价值"),
    "feature.source_words_value": (
        "what its words suggest, against its source's other pages",
        "其用词所示的价值（相对于同一来源的其他页面）",
    ),
    "feature.term_evidence": ("topic terms present", "出现的主题术语"),
    "feature.distinct_concepts": ("distinct domain concepts", "不同的领域概念"),
    "feature.concept_mentions": ("domain concept mentions", "领域概念提及次数"),
    "feature.cue_": ("{cue} per 1000 words", "每千词{cue}"),
    "feature.distinct_": ("distinct {cue}", "不同的{cue}"),
    "feature.head_": ("{cue} in headings", "标题中的{cue}"),
    "feature.file_": ("file name of a {kind}", "文件名像{kind}"),
    "feature.type:": ("document type {type}", "文档类型：{type}"),
    "cue.explain": ("explanation (because, so that, note that …)", "解释性用语（因为、以便、注意……）"),
    "cue.licence": ("licence wording", "许可证用语"),
    "cue.changelog": ("release-note wording", "发布说明用语"),
    "cue.install": ("install and build wording", "安装与构建用语"),
    "cue.contributing": ("contribution and conduct wording", "贡献与行为准则用语"),
    "cue.agent": ("instructions for AI agents", "给 AI 代理的指令"),
    "cue.marketing": ("marketing and advertising wording", "营销与广告用语"),
    "cue.paper": ("paper wording (abstract, et al., references)", "论文用语（摘要、等人、参考文献）"),
    "cue.summary": ("paper-summary wording", "论文笔记用语"),
    "cue.tutorial": ("tutorial wording (step, let's, we will)", "教程用语（步骤、我们来、接下来）"),
    "cue.api": ("API reference wording (parameters, returns)", "API 参考用语（参数、返回值）"),
    "cue.qa": ("question-and-answer wording", "问答用语"),
    "cue.readme": ("README wording (quick start, usage, license)", "README 用语（快速开始、用法、许可证）"),
    "cue.links": ("link-list wording", "链接列表用语"),
    "cue.index": ("index and contents wording", "索引与目录用语"),
    "cue.blog": ("first-person blog wording", "第一人称博客用语"),
    "cue.measure": ("measurement wording (benchmark, speedup, bandwidth)", "测量用语（基准、加速比、带宽）"),
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
