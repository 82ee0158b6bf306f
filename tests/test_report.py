"""The HTML report: self-contained, every crawled string escaped, and rendering in real headless Chromium."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from shijie.report import build_report, write_report
from shijie.report.browser import Chromium, find_chromium

EVIL = "<script>document.title='pwned';window.__pwned=1</script>"
EVIL_ATTR = '"><img src=x onerror="window.__pwned=2">'


def sample_results(lang: str = "en") -> dict:
    """Results shaped exactly like the stages' --json outputs, with hostile strings wherever a crawled page
    could put one (title, URL, domain name, passage text)."""
    hopper = "http://127.0.0.1:8000/guides/hopper.html"
    # the same passages back a topic and a path step, as in a real pack (the graph's bridges)
    hopper_passage = {
        "document_id": 1,
        "url": hopper,
        "title": "Hopper tuning guide",
        "excerpt": "228 KiB of shared memory per SM",
        "score": 3.1,
    }
    evil_passage = {"document_id": 2, "url": "http://x/2", "title": EVIL, "excerpt": EVIL, "score": 1.0}
    return {
        "lang": lang,
        "generated_at": "2026-11-30 05:40 UTC",
        "db": "/tmp/shijie.db",
        "device": "cpu",
        "timings": {"crawl": 3.2, "score": 1.1, "curate": 0.4},
        "crawl": {"fetched": 40, "stored": 35, "skipped_robots": 2, "errors": 1, "duplicates": 3, "elapsed_s": 3.2},
        "documents": [
            {
                "id": 1,
                "url": hopper,
                "title": "Hopper tuning guide",
                "value": 92,
                "relevance": "high",
                "relevance_score": 0.81,
                "redundancy": "low",
                "redundancy_score": 0.05,
                "duplicate_of": None,
                "domains": {"gpu_architecture": 0.8, "parallel_computing": 0.4},
                "status": "kept",
                "components": {
                    "value": {
                        "base": 34.1,
                        "contributions": [
                            {"feature": "relevance", "value": 0.81, "points": 16.2},
                            {"feature": "code_blocks", "value": 12, "points": 9.5},
                        ],
                        "rest": 32.2,
                        "raw": 92.0,
                        "model": 92,
                        "marks": 0.0,
                        "relevance_gate": 1.0,
                        "admin_gate": 1.0,
                        "copy": 0.0,
                        "total": 92,
                    },
                    "relevance": {
                        "score": 0.81,
                        "profile_score": 0.7,
                        "term_evidence": 1.2,
                        "cosine": 0.3,
                        "learned_topic": 0.92,
                        "matched_terms": [{"term": "tensor core", "count": 9, "weight": 3.0}],
                    },
                    "type": {"type": "guide", "probabilities": {"guide": 0.8}, "admin": False},
                    "uniqueness": {"jaccard": 0.05, "duplicate_of": None, "duplicate_of_url": None},
                },
            },
            {
                "id": 2,
                "url": "javascript:window.__pwned=3",
                "title": EVIL,
                "value": 61,
                "relevance": "low",
                "relevance_score": 0.2,
                "redundancy": "high",
                "redundancy_score": 0.9,
                "duplicate_of": hopper,
                "domains": {EVIL: 0.3},
                "status": "discarded",
                "components": {
                    "uniqueness": {
                        "redundancy": 0.9,
                        "jaccard": 0.93,
                        "signal": "text",
                        "duplicate_of": 1,
                        "duplicate_of_url": hopper,
                        "because": {"rule": "version", "versions": [EVIL, EVIL_ATTR]},
                    },
                    "type": {"type": EVIL, "probabilities": {EVIL: 0.9}},
                },
            },
            {
                "id": 3,
                "url": "http://127.0.0.1:8000/a" + EVIL_ATTR,
                "title": EVIL_ATTR,
                "value": 35,
                "relevance": "medium",
                "relevance_score": 0.3,
                "redundancy": "low",
                "redundancy_score": 0.1,
                "duplicate_of": None,
                "domains": {},
                "status": "kept",
            },
        ],
        "curate": {"kept": 2, "discarded": 1, "mastery": {"overall": 0.234, "domains": {}}},
        "mastery": {
            "overall": 0.234,
            "domains": {"gpu_architecture": 0.41, "parallel_computing": 0.3, "numerical_analysis": 0.2, EVIL: 0.3},
        },
        "domain_titles": {"gpu_architecture": {"en": "GPU architecture", "zh": "GPU 架构"}},
        "skills": [
            {
                "name": "operator-adaptation",
                "title": "Operator Adaptation",
                "title_zh": "算子适配",
                "level": 1,
                "status": "learned",
                "requires": {"gpu_architecture": 0.2},
            }
        ],
        "learn": {
            "skill": "operator-adaptation",
            "title": "Operator Adaptation",
            "level": 1,
            "pack": {
                "documents": 3,
                "topics": [
                    {
                        "id": 1,
                        "label": ["shared memory", "tiles"],
                        "domain": "gpu_architecture",
                        "documents": [{"id": 1, "url": hopper, "title": "Hopper tuning guide", "value": 92}],
                        "passages": [hopper_passage],
                    },
                    {
                        "id": 2,
                        "label": [EVIL],
                        "domain": EVIL,
                        "documents": [],
                        "passages": [evil_passage],
                    },
                ],
                "path": [
                    {
                        "step": 1,
                        "id": "profile",
                        "title": "Read the hardware profile",
                        "title_zh": "读取硬件参数",
                        "domain": "gpu_architecture",
                        "query": "shared memory per SM",
                        "passages": [hopper_passage],
                    },
                    {
                        "step": 2,
                        "id": "tiles",
                        "title": EVIL_ATTR,
                        "title_zh": EVIL_ATTR,
                        "domain": "parallel_computing",
                        "query": EVIL,
                        "passages": [evil_passage],
                    },
                ],
            },
        },
        "invoke": {
            "skill": "operator-adaptation",
            "level": 1,
            "op": "FusedAttentionBackward",
            "device": "cpu",
            "device_name": "CPU (NumPy)",
            "target": "h100",
            "adaptation_list": [
                {"op": "FusedAttentionBackward", "adapted": True},
                {"op": "FusedAttentionForward", "adapted": True},
                {"op": EVIL, "adapted": False},
            ],
            "plan": {
                "target": {
                    "name": "h100",
                    "full_name": "NVIDIA H100 SXM5 80GB",
                    "smem_per_block_kib": 227,
                    "registers_per_sm": 65536,
                    "hbm_bandwidth_gbs": 3350,
                },
                "problem": {"batch": 4, "heads": 16, "seq": 4096, "head_dim": 128, "causal": True, "dtype": "bf16"},
                "kernels": {
                    "dkdv": {
                        "kernel": "dkdv",
                        "block_m": 64,
                        "block_n": 128,
                        "num_warps": 8,
                        "num_stages": 3,
                        "smem_bytes": 181760,
                        "smem_limit": 232448,
                        "registers_per_thread": 224,
                        "register_limit": 255,
                        "blocks_per_sm": 1,
                        "occupancy": 0.125,
                    },
                    "dq": {
                        "kernel": "dq",
                        "block_m": 128,
                        "block_n": 32,
                        "num_warps": 8,
                        "num_stages": 2,
                        "smem_bytes": 107520,
                        "smem_limit": 232448,
                        "registers_per_thread": 128,
                        "register_limit": 255,
                        "blocks_per_sm": 2,
                        "occupancy": 0.25,
                    },
                },
                "hbm": {
                    "fused_bytes": 877658112,
                    "unfused_bytes": 15435038720,
                    "l2_bytes": 52428800,
                    "l2_working_set_bytes": 10747904,
                    "rereads_in_l2": True,
                },
                "flops": 687362539520,
                "ridge_point": 295.3,
                "bound": "compute",
            },
            "validation": [
                # the NumPy path's rows (numpy_backward.validate + the skill's errors/error_kind)
                {
                    "impl": "numpy-tiled",
                    "batch": 2,
                    "heads": 3,
                    "seq": 77,
                    "head_dim": 40,
                    "causal": True,
                    "dtype": "float32",
                    "block_m": 64,
                    "block_n": 64,
                    "rel_err": {"out": 1.1e-7, "dq": 2.0e-7, "dk": 1.7e-7, "dv": 9.0e-8},
                    "errors": {"out": 1.1e-7, "dq": 2.0e-7, "dk": 1.7e-7, "dv": 9.0e-8},
                    "error_kind": "relative vs float64",
                    "tolerance": 1e-4,
                    "passed": True,
                },
                {
                    "impl": "numpy-tiled",
                    "batch": 1,
                    "heads": 2,
                    "seq": 129,
                    "head_dim": 64,
                    "causal": False,
                    "dtype": "float32",
                    "rel_err": {"out": 1.0e-7, "dq": 3.0e-2, "dk": 1.0e-7, "dv": 1.0e-7},
                    "errors": {"out": 1.0e-7, "dq": 3.0e-2, "dk": 1.0e-7, "dv": 1.0e-7},
                    "error_kind": "relative vs float64",
                    "tolerance": 1e-4,
                    "passed": False,
                },
                # the Triton path's rows (kernel_check.check_case + the skill's additions)
                {
                    "batch": 2,
                    "heads": 4,
                    "seq_q": 2048,
                    "head_dim": 128,
                    "causal": True,
                    "seq_k": 2048,
                    "layout": "bhsd",
                    "dtype": "bfloat16",
                    "device": "cuda",
                    "seed": None,
                    "out_err": 4e-3,
                    "out_torch_err": 8e-3,
                    "out_nonfinite": 0,
                    "dq_err": 1.1e-2,
                    "dq_torch_err": 2.2e-2,
                    "dq_nonfinite": 0,
                    "dk_err": 1.5e-2,
                    "dk_torch_err": 2.4e-2,
                    "dk_nonfinite": 0,
                    "dv_err": 9e-3,
                    "dv_torch_err": 1.6e-2,
                    "dv_nonfinite": 0,
                    "ok": True,
                    "impl": "triton",
                    "seq": 2048,
                    "errors": {"out": 4e-3, "dq": 1.1e-2, "dk": 1.5e-2, "dv": 9e-3},
                    "error_kind": "max abs vs float64 (PyTorch same-dtype in torch_err)",
                    "passed": True,
                },
            ],
            # the rows of skills/operator_adaptation/benchmark.py: one per (shape, implementation)
            "benchmark": [
                {
                    "head_dim": d,
                    "causal": causal,
                    "seq": s,
                    "batch": 16384 // s,
                    "heads": 2048 // d,
                    "impl": impl,
                    "ms": 1.0,
                    "tflops": None if impl == "math" and s > 1024 else t * f,
                    "peak_extra_gib": 0.1,
                    "note": "skipped: too big" if impl == "math" and s > 1024 else "",
                }
                for d in (64, 128)
                for causal in (False, True)
                for s, t in ((1024, 200.0), (2048, 260.0), (4096, 300.0))
                for impl, f in (("ours", 1.2), ("cudnn", 1.1), ("sdpa_flash", 0.7), ("math", 0.1))
            ],
            "tuned_configs": [{"kernel": "dkdv", "shape_class": EVIL, "BLOCK_M": 64, "BLOCK_N": 128}],
            "dq_strategies": {"separate pass": {"matmuls": 7}, "atomics": {"matmuls": 5}},
            "knowledge": [
                {
                    "step": 1,
                    "id": "tiles",
                    "title": "Choose the tiles",
                    "title_zh": "选择分块",
                    "passages": [{"document_id": 1, "url": hopper, "title": EVIL, "excerpt": EVIL}],
                }
            ],
        },
    }


# -- the HTML itself ---------------------------------------------------------------------------------------


def test_report_has_every_section_and_no_script():
    page = build_report(sample_results())
    for section in ("summary", "documents", "mastery", "skills", "knowledge", "invoke"):
        assert f'<section id="{section}">' in page
    assert "[Value: 92] [Relevance: high] [Redundancy: low]" in page
    assert "[Domain mastery: 23.4%]" in page
    assert "[Operator Adaptation Lv.1 — acquired]" in page
    assert "✓ FusedAttentionBackward" in page and "✗ &lt;script&gt;" in page
    assert "<td>B2 H3 N77 D40</td>" in page and "<td>3.0e-02</td>" in page
    assert "<td>1.1e-02 (2.2e-02)</td>" in page  # ours next to PyTorch's own error
    assert "relative vs float64; max abs vs float64" in page
    assert page.count("<svg") >= 5  # histogram, mastery, concept graph, memory hierarchy, TFLOP/s plot
    assert "<script" not in page.lower()
    assert "Content-Security-Policy" in page


def test_report_escapes_crawled_strings_everywhere():
    page = build_report(sample_results())
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;" in page
    assert "onerror=" not in page.replace("onerror=&quot;", "")  # only ever as escaped text
    assert 'href="javascript:' not in page  # non-http links are shown, never linked
    assert "<img" not in page


def test_report_is_self_contained():
    page = build_report(sample_results())
    # nothing is fetched at view time: no external stylesheet, script, image or font
    assert not re.search(r"<(link|script|img|iframe)\b", page)
    assert "url(" not in page.replace("url(#", "")  # only in-document SVG references


SHOWN = {  # what the page must say, in which language
    "documents show the reasons behind their panels": (
        "en",
        [
            "Type: guide (guide 80%)",
            "terms found: tensor core ×9",
            "Value 92: 34.1 an average labelled document",
            "+16.2 relevance to the topic (0.81)",
            "repeats document 1 http://127.0.0.1:8000/guides/hopper.html: 90% of its text is there",
            "that copy is the one to keep: it is the newer version",
        ],
    ),
    "other invoke results are shown, not dropped": (
        "en",
        ["<h3>tuned configs</h3>", "<td>dkdv</td>", "<h3>dq strategies</h3>", "separate pass"],
    ),
    "zh panels": (
        "zh",
        [
            "【资料价值：92】【适配相关性：高】【重复内容：低】",
            "【当前领域掌握度：23.4%】",
            "【算子适配 Lv.1，已习得】",
            "GPU 架构",
            "选择分块",
        ],
    ),
}


@pytest.mark.parametrize(("lang", "fragments"), SHOWN.values(), ids=SHOWN.keys())
def test_page_shows(lang, fragments):
    page = build_report(sample_results(lang))
    missing = [fragment for fragment in fragments if fragment not in page]
    assert not missing


def test_failed_validation_row_is_marked():
    page = build_report(sample_results())
    assert page.count('<tr class="fail">') == 1


def test_missing_parts_leave_sections_out():
    results = sample_results()
    for key in ("learn", "skills", "invoke"):
        results.pop(key)
    page = build_report(results)
    assert '<section id="invoke">' not in page and '<section id="knowledge">' not in page
    assert '<section id="mastery">' in page


def test_benchmark_plots_and_pivot():
    page = build_report(sample_results())
    for title in ("head_dim 64, non-causal", "head_dim 64, causal", "head_dim 128, non-causal", "head_dim 128, causal"):
        assert f'aria-label="{title}"' in page
    assert "<th>ours / best other</th>" in page and "<td>1.09</td>" in page  # 1.2 / 1.1
    assert "math at head_dim 128, causal, seq 4096: skipped: too big" in page


def test_no_benchmark_says_so():
    results = sample_results()
    results["invoke"]["benchmark"] = None
    page = build_report(results)
    assert "Benchmark: not run" in page


def test_write_report_is_atomic_and_rewrites(tmp_path: Path):
    path = write_report(sample_results(), tmp_path / "out")
    assert path.name == "report.html" and path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    results = sample_results()
    results["documents"][0]["title"] = "Second run"
    write_report(results, tmp_path / "out")
    assert "Second run" in path.read_text(encoding="utf-8")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["report.html"]


# -- in real headless Chromium -------------------------------------------------------------------------

CHART_GEOMETRY = """
Array.from(document.querySelectorAll('svg.chart')).map(svg => {
  const box = svg.getBoundingClientRect();
  const bars = Array.from(svg.querySelectorAll('.bar, .series, .tile, .node rect')).map(e => e.getBBox());
  return {label: svg.getAttribute('aria-label'), w: box.width, h: box.height,
          marks: bars.length, drawn: bars.filter(b => b.width > 0 && b.height > 0).length};
})
"""

SCRIPT_RAN = """({title: document.title, pwned: window.__pwned === undefined ? null : window.__pwned,
  scripts: document.scripts.length, imgs: document.images.length,
  handlers: Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes).some(
    a => a.name.startsWith('on'))).length,
  text: document.body.innerText})"""


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip("chromium is not installed (apt-get install chromium); the browser checks need it")
    with Chromium(width=1280, height=1000) as chromium:
        yield chromium


@pytest.mark.browser
def test_report_loads_without_console_errors_and_charts_render(browser, tmp_path: Path):
    path = write_report(sample_results(), tmp_path)
    result = browser.open(path)
    assert result.errors == []
    charts = browser.evaluate(CHART_GEOMETRY)
    assert len(charts) >= 5
    for chart in charts:
        assert chart["w"] > 100 and chart["h"] > 50, chart
        assert chart["marks"] > 0 and chart["drawn"] == chart["marks"], chart


@pytest.mark.browser
def test_crawled_script_does_not_run(browser, tmp_path: Path):
    path = write_report(sample_results(), tmp_path)
    browser.open(path)
    state = browser.evaluate(SCRIPT_RAN)
    assert state["title"] == "shijie report"
    assert state["pwned"] is None
    assert state["scripts"] == 0 and state["imgs"] == 0 and state["handlers"] == 0
    assert "<script>document.title='pwned'" in state["text"]  # shown as text, as it was crawled


@pytest.mark.browser
def test_browser_checks_catch_a_page_that_misbehaves(browser, tmp_path: Path):
    # the same checks on an unescaped page must fail: proof that the two tests above can fail
    bad = tmp_path / "bad.html"
    bad.write_text(
        f"<html><head><title>x</title></head><body>{EVIL}<script>console.error('boom')</script></body></html>",
        encoding="utf-8",
    )
    result = browser.open(bad)
    assert any("boom" in e for e in result.errors)
    state = browser.evaluate(SCRIPT_RAN)
    assert state["title"] == "pwned" and state["pwned"] == 1 and state["scripts"] == 2


@pytest.mark.browser
def test_screenshot(browser, tmp_path: Path):
    path = write_report(sample_results(), tmp_path)
    browser.open(path)
    shot = browser.screenshot(tmp_path / "report.png", full_page=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width == 1280 and height > 2000  # the whole page, not just the window
    assert len(data) > 50_000  # charts and text, not a blank page


def test_sample_results_are_not_mutated_by_rendering():
    results = sample_results()
    before = copy.deepcopy(results)
    build_report(results)
    assert results == before


def test_the_report_and_run_json_share_one_result_object():
    # RunResult (with Invocation and Learned inside) is what run_job returns, what the terminal and the report
    # render, and what `shijie run --json` prints: reading its JSON back gives the same object and report
    from shijie.job import RunResult
    from skills.protocol import Invocation

    results = sample_results("zh")
    run = RunResult.from_json(results)
    assert build_report(run) == build_report(results)
    assert RunResult.from_json(run.to_json()) == run
    invocation = run.invoke
    assert invocation.extras.keys() == {"tuned_configs", "dq_strategies"}  # the skill's own figures, kept
    assert invocation.checks() == (2, 3)
    as_json = invocation.to_json()
    assert {key: value for key, value in as_json.items() if key != "adapted"} == results["invoke"]
    assert Invocation.from_json(as_json) == invocation
    assert run.acquired().title_zh == "算子适配"  # the learned skill, completed by its skills-list row
