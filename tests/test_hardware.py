"""Hardware profiles: shipped spec sheets load and validate, a device's properties make a profile, and a device
finds its profile (shipped by name, else built from what it reports)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pipeline.errors import DataError, UsageError
from skills.operator_adaptation import hardware, tile_plan

SHIPPED = ["a100", "h100", "h200", "l100"]

# torch.cuda.get_device_properties(0) of the H200 this project ran on (2026-11-30); name and capability as torch names them
H200_PROPERTIES = {
    "name": "NVIDIA H200",
    "major": 9,
    "minor": 0,
    "multi_processor_count": 132,
    "warp_size": 32,
    "regs_per_multiprocessor": 65536,
    "max_threads_per_multi_processor": 2048,
    "shared_memory_per_multiprocessor": 233472,
    "shared_memory_per_block_optin": 232448,
    "L2_cache_size": 62914560,
}


def test_shipped_profiles_load_with_every_field():
    assert hardware.shipped_profiles() == SHIPPED
    for name in SHIPPED:
        profile = hardware.load_profile(name)
        assert profile.name == name
        assert {"bf16", "fp16", "fp32"} <= set(profile.dense_tflops)
        assert profile.ridge_point("bf16") > 0


def test_l100_differs_where_it_matters():
    l100, h100 = hardware.load_profile("l100"), hardware.load_profile("h100")
    assert l100.warp_size == 64 and h100.warp_size == 32
    assert l100.smem_per_block < h100.smem_per_block


def test_unknown_profile_lists_the_shipped_ones():
    with pytest.raises(UsageError) as info:
        hardware.load_profile("b300")
    message = str(info.value)
    assert "\n" not in message and all(name in message for name in SHIPPED)


def test_broken_profile_names_its_problems(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nwarp_size = "wide"\n')
    with pytest.raises(DataError) as info:
        hardware.load_profile(path)
    assert "missing sm_count" in str(info.value) and "warp_size has the wrong type" in str(info.value)
    (tmp_path / "garbled.toml").write_text("name = [")
    with pytest.raises(DataError):
        hardware.load_profile(tmp_path / "garbled.toml")


def test_profile_checked_against_what_a_device_reports():
    h200 = SimpleNamespace(**H200_PROPERTIES)
    assert hardware.device_mismatches(hardware.load_profile("h200"), h200) == []
    mismatches = hardware.device_mismatches(hardware.load_profile("h100"), h200)
    assert mismatches == ["h100.l2_mib is 50, the device reports 60"]
    assert len(hardware.device_mismatches(hardware.load_profile("a100"), h200)) == 4  # SMs, smem per SM and block, L2


def test_a_device_finds_its_shipped_profile_by_name():
    assert hardware.shipped_profile_for("NVIDIA H200") == "h200"
    assert hardware.shipped_profile_for("NVIDIA A100-SXM4-80GB") == "a100"
    assert hardware.shipped_profile_for("NVIDIA GeForce RTX 4090") is None
    profile = hardware.device_profile(SimpleNamespace(**H200_PROPERTIES))
    assert profile.name == "h200" and profile.source.endswith("h200.toml") and profile.assumed == ()


def test_an_unknown_device_gets_a_profile_from_its_properties():
    # an RTX 4090 as torch reports it (compute capability 8.9); no shipped profile matches
    rtx = SimpleNamespace(
        name="NVIDIA GeForce RTX 4090",
        major=8,
        minor=9,
        multi_processor_count=128,
        warp_size=32,
        regs_per_multiprocessor=65536,
        max_threads_per_multi_processor=1536,
        shared_memory_per_multiprocessor=102400,
        shared_memory_per_block_optin=101376,
        L2_cache_size=72 * 2**20,
        total_memory=24 * 2**30,
        clock_rate=2520000,  # kHz
        memory_clock_rate=10501000,  # kHz
        memory_bus_width=384,
    )
    profile = hardware.device_profile(rtx)
    assert profile.source == hardware.FROM_PROPERTIES and profile.name == "nvidia-geforce-rtx-4090"
    assert (profile.sm_count, profile.smem_per_block, profile.max_blocks_per_sm) == (128, 101376, 24)
    assert profile.l2_mib == 72 and profile.hbm_gib == 24 and profile.compute_capability == "8.9"
    assert profile.hbm_bandwidth_gbs == pytest.approx(1008, rel=0.01)  # 2 x 10.5 GHz x 384 bit / 8
    assert profile.dense_tflops["bf16"] == pytest.approx(128 * 2.52 * 512 / 1000, rel=0.01)  # 165 TFLOP/s
    assert "dense_tflops" in profile.assumed and "registers_per_sm" not in profile.assumed
    # it plans like a shipped profile: the tile planner and the launcher's candidates work from it
    assert tile_plan.plan(profile, tile_plan.Problem(head_dim=64))["kernels"]["dkdv"]["smem_bytes"] <= 101376
    assert tile_plan.launch_candidates(profile, "dkdv", 64, preferred=((32, 64, 4, 2),))[0] == (32, 64, 4, 2)


def test_what_a_device_does_not_report_is_assumed_conservatively():
    bare = SimpleNamespace(name="Some GPU", major=7, minor=5, multi_processor_count=40, shared_memory_per_block=49152)
    profile = hardware.profile_from_properties(bare)
    assert profile.smem_per_block_kib == 48 and profile.smem_per_sm_kib == 48  # no opt-in window known
    assert profile.max_blocks_per_sm == 16 and profile.max_threads_per_sm == 1024 and profile.l2_mib == 0
    for name in ("max_threads_per_sm", "registers_per_sm", "smem_per_sm_kib", "l2_mib", "hbm_bandwidth_gbs"):
        assert name in profile.assumed
    assert tile_plan.candidates(profile, 64, "dq")  # small, but a plan
    with pytest.raises(DataError, match="no multiprocessor count"):
        hardware.profile_from_properties(SimpleNamespace(name="broken"))
