"""The tile planner: configs fit each profile's limits, l100 plans from its spec sheet, fused < unfused."""

from __future__ import annotations

import pytest

from pipeline.errors import DataError, UsageError
from skills.operator_adaptation import tile_plan as tp

SHIPPED = ["a100", "h100", "h200", "l100"]


def test_shipped_profiles_load_with_every_field():
    assert tp.shipped_profiles() == SHIPPED
    for name in SHIPPED:
        profile = tp.load_profile(name)
        assert profile.name == name
        assert {"bf16", "fp16", "fp32"} <= set(profile.dense_tflops)
        assert profile.ridge_point("bf16") > 0


def test_l100_differs_where_it_matters():
    l100, h100 = tp.load_profile("l100"), tp.load_profile("h100")
    assert l100.warp_size == 64 and h100.warp_size == 32
    assert l100.smem_per_block < h100.smem_per_block


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


def test_unknown_profile_lists_the_shipped_ones():
    with pytest.raises(UsageError) as info:
        tp.load_profile("b300")
    message = str(info.value)
    assert "\n" not in message and all(name in message for name in SHIPPED)


def test_profile_file_path(tmp_path):
    text = (tp.profiles_dir() / "l100.toml").read_text().replace('name = "l100"', 'name = "l200"')
    text = text.replace("smem_per_block_kib = 64 ", "smem_per_block_kib = 96 ")
    path = tmp_path / "l200.toml"
    path.write_text(text)
    plan = tp.plan(str(path))
    assert plan["target"]["name"] == "l200"
    assert plan["kernels"]["dkdv"]["smem_limit"] == 96 * 1024


def test_broken_profile_names_its_problems(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nwarp_size = "wide"\n')
    with pytest.raises(DataError) as info:
        tp.load_profile(path)
    assert "missing sm_count" in str(info.value) and "warp_size has the wrong type" in str(info.value)
    (tmp_path / "garbled.toml").write_text("name = [")
    with pytest.raises(DataError):
        tp.load_profile(tmp_path / "garbled.toml")


def test_no_fitting_tile_is_a_clear_error():
    with pytest.raises(UsageError, match="no dkdv tile fits l100"):
        tp.plan("l100", tp.Problem(head_dim=256))


def test_profile_checked_against_what_a_device_reports():
    from types import SimpleNamespace

    # torch.cuda.get_device_properties(0) of the H200 this project ran on (2026-11-30)
    h200 = SimpleNamespace(
        multi_processor_count=132,
        warp_size=32,
        regs_per_multiprocessor=65536,
        max_threads_per_multi_processor=2048,
        shared_memory_per_multiprocessor=233472,
        shared_memory_per_block_optin=232448,
        L2_cache_size=62914560,
    )
    assert tp.device_mismatches(tp.load_profile("h200"), h200) == []
    mismatches = tp.device_mismatches(tp.load_profile("h100"), h200)
    assert mismatches == ["h100.l2_mib is 50, the device reports 60"]
    assert len(tp.device_mismatches(tp.load_profile("a100"), h200)) == 4  # SMs, smem per SM and block, L2


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
