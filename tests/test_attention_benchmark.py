"""The benchmark's bookkeeping (grid, FLOP count, skips, summary, table); the timing itself needs a GPU."""

import pytest

pytest.importorskip("torch")

from skills.operator_adaptation import benchmark


def test_standard_grid_keeps_tokens_and_hidden_size_fixed():
    grid = benchmark.STANDARD_GRID
    assert len(grid) == 20
    assert {(p.head_dim, p.causal) for p in grid} == {(64, False), (64, True), (128, False), (128, True)}
    assert all(p.batch * p.seq == 16384 and p.heads * p.head_dim == 2048 for p in grid)


def test_flops_as_flashattention_counts_them():
    full = benchmark.Point(128, False, 4096, 4, 16)
    causal = benchmark.Point(128, True, 4096, 4, 16)
    assert benchmark.backward_flops(full) == 2.5 * 4 * 4 * 16 * 4096**2 * 128
    assert benchmark.backward_flops(causal) == benchmark.backward_flops(full) / 2


def test_math_and_flex_skipped_with_a_reason():
    big = benchmark.Point(64, False, 16384, 1, 32)
    assert "materialize" in benchmark._skip_reason("math", big)
    assert benchmark._skip_reason("math", benchmark.Point(128, False, 2048, 8, 16)) is None
    assert "2048 and 8192" in benchmark._skip_reason("flex", big)
    assert benchmark._skip_reason("ours", big) is None


def _row(impl, tflops, seq=1024, note=""):
    return {
        "head_dim": 64,
        "causal": False,
        "seq": seq,
        "batch": 16384 // seq,
        "heads": 32,
        "impl": impl,
        "ms": 1.0 if tflops else None,
        "tflops": tflops,
        "peak_extra_gib": 0.25 if tflops else None,
        "note": note,
    }


def test_summary_geomean_and_where_ours_is_behind():
    rows = [
        _row("ours", 200.0),
        _row("cudnn", 400.0),
        _row("ours", 400.0, 2048),
        _row("cudnn", 200.0, 2048),
        _row("math", None, 2048, "skipped: too big"),
    ]
    s = benchmark.summary(rows)
    assert s["points"] == 2 and s["geomean_vs_baseline"] == pytest.approx(1.0)
    assert s["ours_behind"] == ["d64 full 1024: cudnn 400 > ours 200"]
    table = benchmark.format_table(rows)
    assert "geomean ours / cuDNN over 2 points: 1.000x" in table
    assert "math: skipped: too big" in table


def test_implementations_chosen_by_environment():
    assert benchmark.selected_implementations({}) == benchmark.IMPLEMENTATIONS
    picked = benchmark.selected_implementations({"SHIJIE_BENCH_IMPLS": "cudnn, ours,flex"})
    assert picked == ("ours", "cudnn", "flex")  # the standard order, whatever the order asked
    with pytest.raises(ValueError, match="unknown fa3, triton; known: ours, ours_hopper"):
        benchmark.selected_implementations({"SHIJIE_BENCH_IMPLS": "ours,triton,fa3"})


def test_hopper_and_fa4_rows_say_why_they_did_not_run_here():
    p = benchmark.Point(128, True, 2048, 8, 16)
    assert "needs an sm90 device" in benchmark._skip_reason("ours_hopper", p, device="cpu")
    if benchmark._fa4_module() is None:  # flash-attn-4 is not a dependency: on this machine it is absent
        assert "flash-attn-4" in benchmark._skip_reason("fa4", p, device="cpu")


def test_our_own_paths_are_summarised_but_not_counted_as_competitors():
    rows = [
        _row("ours", 300.0),
        _row("ours_portable", 250.0),
        _row("ours_hopper", 320.0),
        _row("cudnn", 400.0),
        _row("flex", 280.0),
    ]
    s = benchmark.summary(rows)
    assert s["ours_behind"] == ["d64 full 1024: cudnn 400 > ours 300"]  # not ours_hopper's 320
    assert s["geomean_by_impl"] == {"ours": 0.75, "ours_hopper": 0.8, "ours_portable": 0.625, "flex": 0.7}
    assert "geomean / cuDNN where both ran: ours_hopper 0.800x, ours_portable 0.625x, flex 0.700x" in (
        benchmark.format_table(rows)
    )
