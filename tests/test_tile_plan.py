"""The tile planner: configs fit each profile's limits, l100 plans from its spec sheet, fused < unfused, and
the launch candidates of the Triton kernels come from the same model."""

from __future__ import annotations

import pytest

from pipeline.errors import UsageError
from skills.operator_adaptation import hardware
from skills.operator_adaptation import tile_plan as tp

SHIPPED = ["a100", "h100", "h200", "l100"]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("kernel", ["dkdv", "dq"])
def test_every_candidate_fits_the_profile(name, head_dim, kernel):
    profile = tp.load_profile(name)
    configs = tp.candidates(profile, head_dim, kernel)
    assert configs
    for config in configs:
        assert config.smem_bytes <= profile.smem_per_block
        assert config.registers_per_thread <= profile.max_registers_per_thread
        assert config.threads == config.num_warps * profile.warp_size <= profile.max_threads_per_block
        assert config.blocks_per_sm >= 1
        reserved = int(profile.smem_reserved_per_block_kib * 1024)
        assert config.blocks_per_sm * (config.smem_bytes + reserved) <= profile.smem_per_sm
        assert config.blocks_per_sm * config.registers_per_block <= profile.registers_per_sm
        assert config.blocks_per_sm * config.threads <= profile.max_threads_per_sm
        assert min(config.block_m, config.block_n) >= profile.mma_min_dim


def test_shared_memory_model_by_hand():
    # dkdv, BLOCK_M=32, BLOCK_N=64, D=64, bf16, 2 stages:
    # K,V resident 2*64*64*2 + 2 stages * (Q,dO 2*32*64*2 + lse,delta 2*32*4) + P tile 32*64*2
    config = tp.evaluate(tp.load_profile("h100"), "dkdv", 32, 64, 4, 2, head_dim=64)
    assert config.smem_bytes == 16384 + 2 * (8192 + 256) + 4096
    # registers: (dK,dV 2*64*64 + two score tiles 2*32*64) / 128 threads + 32 overhead = 64 + 32 + 32
    assert config.registers_per_thread == 128


def test_a_config_too_big_for_the_profile_is_rejected():
    l100 = tp.load_profile("l100")
    assert tp.evaluate(l100, "dkdv", 128, 128, 8, 4, head_dim=128) is None  # far beyond 64 KiB
    assert tp.evaluate(tp.load_profile("h100"), "dkdv", 16, 16, 8, 1, head_dim=64) is None  # idle warps


def test_l100_dry_run_plan():
    plan = tp.plan("l100", tp.Problem(batch=2, heads=8, seq=2048, head_dim=128, causal=True))
    assert plan["target"]["name"] == "l100" and plan["target"]["warp_size"] == 64
    for kernel in ("dkdv", "dq"):
        chosen = plan["kernels"][kernel]
        assert chosen["smem_bytes"] <= 64 * 1024
        assert chosen["threads"] == chosen["num_warps"] * 64
        assert chosen["block_m"] >= 32 and chosen["block_n"] >= 32  # the 32-wide matrix instructions
        assert chosen["candidates"] >= 1
    h100 = tp.plan("h100", tp.Problem(batch=2, heads=8, seq=2048, head_dim=128, causal=True))
    # the smaller shared memory window forces smaller or shallower tiles than on the H100
    l_smem = plan["kernels"]["dkdv"]["smem_bytes"]
    assert l_smem < h100["kernels"]["dkdv"]["smem_bytes"]


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("seq", [512, 4096, 16384])
def test_fused_moves_fewer_bytes_than_unfused(name, seq):
    plan = tp.plan(name, tp.Problem(batch=2, heads=16, seq=seq, head_dim=128, causal=False))
    hbm = plan["hbm"]
    assert hbm["fused_bytes"] < hbm["unfused_bytes"]
    assert hbm["fused_bytes"] <= hbm["fused_bytes_no_l2"]
    assert plan["arithmetic_intensity"]["fused"] > plan["arithmetic_intensity"]["unfused"]
    assert plan["bound"] in ("compute", "memory")


def test_traffic_grows_quadratically_only_when_unfused():
    small = tp.plan("h100", tp.Problem(seq=1024, causal=False))["hbm"]
    large = tp.plan("h100", tp.Problem(seq=4096, causal=False))["hbm"]
    assert large["unfused_bytes"] / small["unfused_bytes"] > 12  # ~16x: N x N matrices
    assert large["fused_bytes"] / small["fused_bytes"] == pytest.approx(4, rel=0.01)  # linear in N


def test_profile_file_path(tmp_path):
    text = (hardware.profiles_dir() / "l100.toml").read_text().replace('name = "l100"', 'name = "l200"')
    text = text.replace("smem_per_block_kib = 64 ", "smem_per_block_kib = 96 ")
    path = tmp_path / "l200.toml"
    path.write_text(text)
    plan = tp.plan(str(path))
    assert plan["target"]["name"] == "l200"
    assert plan["kernels"]["dkdv"]["smem_limit"] == 96 * 1024


def test_no_fitting_tile_is_a_clear_error():
    with pytest.raises(UsageError, match="no dkdv tile fits l100"):
        tp.plan("l100", tp.Problem(head_dim=256))


@pytest.mark.parametrize("name", SHIPPED)
def test_dq_by_atomics_trades_matmuls_for_l2_traffic(name):
    problem = tp.Problem(batch=2, heads=8, seq=2048, head_dim=64, causal=False)
    profile = tp.load_profile(name)
    dq = tp.candidates(profile, 64, "dq")[0]
    strategies = tp.dq_strategies(profile, problem, dq)
    separate, atomic = strategies["separate"], strategies["atomic"]
    assert atomic["backward_matmul_flops"] * 7 == separate["backward_matmul_flops"] * 5
    assert separate["l2_atomic_bytes"] == 0 < atomic["l2_atomic_bytes"]
    assert separate["deterministic"] and not atomic["deterministic"]
    # the dQ accumulator costs registers: the atomic dK/dV program needs more per thread than the plain one
    plain = tp.evaluate(profile, "dkdv", 64, 64, 4, 2, head_dim=64)
    with_dq = tp.evaluate(profile, "dkdv_atomic", 64, 64, 4, 2, head_dim=64)
    assert with_dq.registers_per_thread > plain.registers_per_thread


def test_the_configs_the_autotuner_chose_on_an_h200_are_candidates():
    # measured 2026-11-30 (docs/perf.md): the planner's search space must not exclude real winners
    h200 = tp.load_profile("h200")
    chosen = [
        (256, "dkdv", (16, 32, 4, 1)),
        (128, "dkdv", (32, 64, 4, 3)),
        (128, "dq", (128, 64, 8, 3)),
        (64, "dkdv", (64, 64, 4, 3)),
        (256, "dq", (64, 32, 4, 3)),
        (96, "dkdv", (16, 64, 4, 2)),
        (96, "dq", (128, 64, 8, 3)),
        (40, "dkdv", (64, 64, 4, 3)),
    ]
    for head_dim, kernel, config in chosen:
        found = {(c.block_m, c.block_n, c.num_warps, c.num_stages) for c in tp.candidates(h200, head_dim, kernel)}
        assert config in found, (head_dim, kernel, config)


def test_one_head_dim_padding_below_16():
    # the kernels pad the head dimension to a power of two of at least 16 (tl.dot); the plan counts the same
    assert [tp.padded_head_dim(d) for d in (1, 8, 16, 17, 40, 64, 96, 256)] == [16, 16, 16, 32, 64, 64, 128, 256]
    h100 = tp.load_profile("h100")
    assert tp.evaluate(h100, "dq", 64, 32, 4, 2, head_dim=8) == tp.evaluate(h100, "dq", 64, 32, 4, 2, head_dim=16)


def test_forward_is_planned_as_dq_but_counted_with_its_own_live_values():
    # fit and rank: the dq model (conservative); spill guard: the forward keeps O and one score tile
    h200 = tp.load_profile("h200")
    assert [c.as_dict() | {"kernel": "-"} for c in tp.candidates(h200, 64, "fwd")] == [
        c.as_dict() | {"kernel": "-"} for c in tp.candidates(h200, 64, "dq")
    ]
    assert tp.live_values("fwd", 128, 64, 64) == 128 * 64 + 128 * 64
    assert tp.live_values("dq", 128, 64, 64) == 128 * 64 + 2 * 128 * 64
    # (128, 64, 4, 3) keeps 128 values per thread in the forward: a candidate; the dq count (192) would drop it
    assert (128, 64, 4, 3) in tp.launch_candidates(h200, "fwd", 64, preferred=((128, 64, 4, 3),))
    assert (128, 64, 4, 3) not in tp.launch_candidates(h200, "dq", 64, preferred=((128, 64, 4, 3),))


def test_launch_candidates_nest_fit_and_end_with_the_plans_choice():
    l100 = tp.load_profile("l100")
    preferred = ((16, 32, 4, 2), (32, 64, 4, 1), (64, 32, 4, 1), (128, 128, 8, 3))
    tiles = tp.launch_candidates(l100, "dkdv", 128, preferred=preferred)
    # 16-wide tiles are below the l100's 32-wide matrix instructions, 64x32 does not nest in a dK/dV program,
    # 128x128 is far beyond its 64 KiB: only 32x64 stays, then the plan's own first nesting choice
    assert tiles[0] == (32, 64, 4, 1)
    plan_first = next(c for c in tp.candidates(l100, 128, "dkdv") if tp.nests("dkdv", c.block_m, c.block_n))
    assert tiles[-1] == (plan_first.block_m, plan_first.block_n, plan_first.num_warps, plan_first.num_stages)
    assert all(tp.nests("dkdv", bm, bn) for bm, bn, _, _ in tiles)
    with pytest.raises(UsageError, match="kernel must be one of"):
        tp.launch_candidates(l100, "bwd", 128)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("window", [(-1, -1), (0, 0), (3, -1), (-1, 2), (4, 7), (100, 100)])
def test_visible_pairs_count_the_mask_exactly(causal, window):
    # the closed form against counting the (query, key) pairs one by one, FlashAttention's window semantics
    problem = tp.Problem(causal=causal, window=window)
    left, right = window
    if causal:
        right = 0 if right < 0 else min(right, 0)
    for n in (1, 2, 5, 17, 64):
        brute = sum(
            1 for i in range(n) for j in range(n) if (right < 0 or j - i <= right) and (left < 0 or i - j <= left)
        )
        assert problem.visible_pairs(n) == brute


def test_gqa_window_and_packing_change_the_plan_as_they_change_the_work():
    h100 = tp.load_profile("h100")
    base = tp.plan(h100, tp.Problem(batch=2, heads=16, seq=4096, head_dim=128))
    gqa = tp.plan(h100, tp.Problem(batch=2, heads=16, seq=4096, head_dim=128, kv_heads=4))
    assert gqa["flops"] == base["flops"]  # the same products per query head
    assert gqa["hbm"]["fused_bytes"] < base["hbm"]["fused_bytes"]  # K, V, dK, dV once per group of 4
    assert gqa["work"]["dkdv_programs"] * 4 == base["work"]["dkdv_programs"]
    window = tp.plan(h100, tp.Problem(batch=2, heads=16, seq=4096, head_dim=128, window=(511, -1)))
    assert abs(window["flops"] / base["flops"] - 0.25) < 0.02  # ~512 keys per query, against causal's ~2048
    packed = tp.plan(h100, tp.Problem(heads=16, head_dim=128, seqlens=(4096, 1024, 512, 512)))
    assert packed["problem"]["batch"] == 4 and packed["work"]["varlen"]["total_tokens"] == 6144
    assert packed["flops"] < base["flops"] and packed["work"]["varlen"]["padding_work_avoided"] > 0.5
    with pytest.raises(UsageError, match="must divide"):
        tp.Problem(heads=16, kv_heads=3)
