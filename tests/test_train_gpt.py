"""The device scripts of issue 14 at tiny sizes on the CPU (Triton's interpreter): they run end to end.

Two layers, sequence 64, three steps, SDPA and ours from the same seed and batches, ours also under
torch.compile(fullgraph=True) (aot_eager: inductor's C++ build would dominate the test's time); the device run
(8 layers, seq 2048, 300 steps) is the same script with its defaults. attention_features_device.py --smoke runs
the device check's code (validation, compile check, GQA and feature timings) at interpreter sizes.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("triton")

REPO = Path(__file__).resolve().parent.parent


def test_train_gpt_smoke(tmp_path):
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(REPO)}
    command = [
        sys.executable, str(REPO / "benchmarks" / "train_gpt.py"), "--device", "cpu", "--layers", "2", "--seq", "64",
        "--batch", "2", "--dim", "64", "--heads", "4", "--kv-heads", "1", "--steps", "3", "--warmup", "2",
        "--warmup-steps", "1", "--runs", "sdpa,ours,ours_compiled", "--compile-backend", "aot_eager",
        "--out", str(tmp_path),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    log = json.loads((tmp_path / "train_gpt.json").read_text())
    runs = {run["run"]: run for run in log["runs"]}
    assert set(runs) == {"sdpa", "ours", "ours_compiled"}
    for run in runs.values():
        assert len(run["losses"]) == len(run["step_ms"]) == 3
        assert all(5.0 < loss < 6.0 for loss in run["losses"])  # ~ln(256) = 5.55 at the start, bytes
        assert run["median_step_ms"] > 0 and run["val_loss"] > 0
    # the same seed, the same batches: the curves agree up to rounding
    assert all(abs(a - b) < 5e-3 for a, b in zip(runs["ours"]["losses"], runs["sdpa"]["losses"], strict=True))
    assert log["comparisons"]["ours vs sdpa"]["max_abs_diff"] < 5e-3
    assert log["corpus_bytes"]["train"] > 100_000  # the embedded corpus's text, not a stand-in
    svg = (tmp_path / "train_gpt_loss.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 3 and "ours_compiled" in svg


def test_device_feature_script_smoke(tmp_path):
    # the device script's own code, at interpreter sizes: validation, compile check, GQA timing, features
    env = {**os.environ, "TRITON_INTERPRET": "1", "PYTHONPATH": str(REPO)}
    command = [sys.executable, str(REPO / "benchmarks" / "attention_features_device.py"), "--smoke",
               "--validate-dtypes", "bfloat16", "--out", str(tmp_path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    log = json.loads((tmp_path / "attention_features.json").read_text())
    assert log["validate"] and all(row["ok"] for row in log["validate"])
    assert [c["graph_breaks"] for c in log["compile"]] == [0] and log["compile"][0]["ok"]
    assert {row["group"] for row in log["gqa"]} == {1, 2} and all(row["bwd_ms"] > 0 for row in log["gqa"])
    assert set(log["features"]) == {"window", "varlen", "deterministic"}
    assert "validate: 3/3 cases pass" in result.stdout
