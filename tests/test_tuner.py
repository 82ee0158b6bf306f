"""The tuner as an object: explicit cache file, options fixed when it is made, picks it can show.

Launches here are real Python callables whose time a wall clock measures (the tuner's ``measure`` is the one
place that times; on a GPU it is triton's do_bench); no test asserts which candidate is faster.
"""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("triton")

from skills.operator_adaptation.tuner import TUNE_MIN_FLOPS, Tuner, TunerOptions, default_cache_path  # noqa: E402


class WallClockTuner(Tuner):
    """Times with the CPU's clock (do_bench needs a GPU)."""

    def measure(self, run) -> float:
        started = time.perf_counter()
        run()
        return (time.perf_counter() - started) * 1000


CANDIDATES = [{"BLOCK_M": 64, "num_warps": 4}, {"BLOCK_M": 128, "num_warps": 8}]
KEY = "NVIDIA H200|bfloat16|d128|causal|q4096|k4096"


def test_picks_are_timed_once_kept_in_the_cache_file_and_shown(tmp_path):
    cache = tmp_path / "picks.json"
    launched = []
    tuner = WallClockTuner(cache)
    config = tuner.pick("dq", KEY, CANDIDATES, launched.append)
    assert config in CANDIDATES and launched == CANDIDATES  # each candidate timed once
    assert tuner.pick("dq", KEY, CANDIDATES, launched.append) == config and len(launched) == 2  # remembered
    [row] = tuner.chosen_configs()
    assert row["kernel"] == "dq" and row["shape_class"] == KEY and row["config"] == config and row["ms"] >= 0
    stored = json.loads(cache.read_text())
    assert stored["chosen"]["dq"][KEY]["config"] == config
    # another tuner on the same file starts from those picks and launches nothing
    again = WallClockTuner(cache)
    assert again.pick("dq", KEY, CANDIDATES, launched.append) == config and len(launched) == 2


def test_a_cache_from_another_triton_version_is_ignored(tmp_path):
    cache = tmp_path / "picks.json"
    cache.write_text(json.dumps({"triton": "0.0.1", "chosen": {"dq": {KEY: {"config": CANDIDATES[1], "ms": 1.0}}}}))
    assert Tuner(cache).chosen_configs() == []


def test_untimed_picks_and_memory_only_tuners(tmp_path):
    launched = []
    tuner = WallClockTuner(None)  # no cache file at all
    assert tuner.pick("fwd", KEY + "|small", CANDIDATES, launched.append) == CANDIDATES[0]  # small: first, untimed
    assert tuner.pick("fwd", KEY, CANDIDATES[1:], launched.append) == CANDIDATES[1]  # one candidate: untimed
    assert launched == [] and [row["ms"] for row in tuner.chosen_configs()] == [None, None]
    unwritable = tmp_path / "file"
    unwritable.write_text("")
    WallClockTuner(unwritable / "picks.json").pick("dq", KEY, CANDIDATES, launched.append)  # read-only: no error


def test_strategies_race_as_whole_jobs_and_failures_drop_out(tmp_path):
    tuner = WallClockTuner(tmp_path / "picks.json")
    ran = []

    def works(name):
        return lambda: ({"strategy": name}, lambda: ran.append(name))

    def needs_hopper():
        raise RuntimeError("descriptor reductions need sm_90\nsecond line")

    choice = tuner.pick_strategy("bwd", KEY, {"split_dq": works("split_dq"), "fused_dq_tma": needs_hopper})
    assert choice == {"strategy": "split_dq"} and ran == ["split_dq"]
    [row] = tuner.chosen_configs()
    assert row["failed"] == {"fused_dq_tma": "descriptor reductions need sm_90"} and set(row["tried"]) == {"split_dq"}
    with pytest.raises(RuntimeError, match="sm_90"):  # the only strategy: its error is the error
        tuner.pick_strategy("bwd", KEY + "|small", {"fused_dq_tma": needs_hopper})


def test_options_are_read_once_from_the_environment(monkeypatch, tmp_path):
    environ = {"SHIJIE_ATTN_DQ": "split_dq", "SHIJIE_ATTN_TMA_LOADS": "0", "XDG_CACHE_HOME": str(tmp_path)}
    options = TunerOptions.from_environment(environ)
    assert options == TunerOptions(dq_strategy="split_dq", tma_loads=False)
    assert default_cache_path(environ) == tmp_path / "shijie" / "attention_configs.json"
    with pytest.raises(ValueError, match="SHIJIE_ATTN_DQ must be one of"):
        TunerOptions.from_environment({"SHIJIE_ATTN_DQ": "atomics"})
    with pytest.raises(ValueError, match="dq_strategy must be one of"):
        Tuner(None, dq_strategy="atomics")


def test_shape_classes_round_lengths_up_to_octaves():
    tuner = Tuner(None)
    assert tuner.shape_class("NVIDIA H200", "torch.bfloat16", 128, True, 3000, 4096, 64) == KEY
    small = tuner.shape_class("interpreter", "torch.float16", 16, False, 9, 1, 1)
    assert small == "interpreter|float16|d16|full|q16|k1|small"
    assert Tuner(None, min_flops=1).shape_class("x", "torch.float16", 16, False, 9, 1, 1).endswith("|k1")
    assert TUNE_MIN_FLOPS == 2**35
