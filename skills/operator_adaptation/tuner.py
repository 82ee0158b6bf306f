"""The autotuner of the attention kernels: times candidates once per shape class and remembers the winner.

    tuner = Tuner(Path("picks.json"), dq_strategy="split_dq")   # or default_tuner(): ~/.cache, environment
    config = tuner.pick("dq", key, candidates, launch)          # launch(config) runs the kernel once
    tuner.chosen_configs()                                       # what it picked, one row per (kernel, class)

A ``Tuner`` is explicit state: its picks (in memory, and in a JSON file when it has a ``cache_path``) and its
``TunerOptions``, fixed when it is made. ``default_tuner()`` is the one the public ``attention`` uses; it reads
the environment once, when first asked for:

* ``XDG_CACHE_HOME`` (else ``~/.cache``): the cache is ``shijie/attention_configs.json`` below it; picks made
  under another Triton version are ignored.
* ``SHIJIE_ATTN_DQ``: force one dQ strategy (experiments, the CPU tests).
* ``SHIJIE_ATTN_TMA_LOADS=0``: no tensor-descriptor loads in the backward (comparisons).

Policy: a shape class (``shape_class``) is device, dtype, head_dim, causal and the sequence lengths rounded up
to powers of two; below ``min_flops`` forward FLOPs a shape is not worth timing and takes the first candidate.
A config that exceeds the device's resources drops out of the race instead of failing it.

Timing (``TimingPolicy``, issue 13: the same shape tuned in two runs had picked configs 30% apart, 177 vs 243
TFLOP/s at d128, seq 1024, causal). A race runs in four phases: (1) every candidate once, untimed: its compile
and first launch (seconds of CPU work during which the GPU idles and its clock falls: the H200 idles at 345 MHz
and runs at 1980); (2) ``warm``: sustained launches of the first candidate until the clocks are up; (3)
``rounds`` interleaved rounds, each timing every surviving candidate once (``measure``: do_bench's median over
``rep_ms``), the order rotated and reversed from round to round so that drift (clocks, temperature, a
neighbour's work) falls on all candidates alike; after the second round, candidates slower than ``prune`` x the
best leave the race; (4) a candidate's time is its fastest round (each round is already a median over many
launches; what disturbs a whole round, a neighbour's burst or a clock dip, only ever adds time, so the fastest
round is the undisturbed one: the median of five rounds was still fooled when a third of the windows were
disturbed, tests/test_tuner.py), and the winner is the earliest candidate (the planner's order) within ``tie`` of
the fastest, so that near-equal configs do not flip between runs. The old policy timed each candidate once, right after its own compile, i.e. with a cold clock that warmed
during the race: later candidates were favoured. Picks from another policy version are re-tuned.
``measure``, ``warm`` and ``sync`` are the only methods that touch the device; tests replace them with a fake
clock (tests/test_tuner.py).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# Below this many forward FLOPs (4·B·H·Nq·Nk·d) a launch takes microseconds and timing candidates would cost
# more than it could ever save: such shapes take the first planned candidate and the first strategy.
TUNE_MIN_FLOPS = 2**35
STRATEGIES = ("fused_dq_tma", "fused_dq", "split_dq")
# Picks in a cache file are kept only when made by this timing policy (1: one measurement per candidate).
POLICY_VERSION = 2


@dataclass(frozen=True)
class TimingPolicy:
    """How a race is timed (module docstring): interleaved rounds after a compile pass and a warm-up."""

    rounds: int = 5  # each surviving candidate is timed once per round; its time is its fastest round
    rep_ms: float = 20.0  # one measurement: do_bench's median over this many milliseconds of launches
    warm_ms: float = 250.0  # sustained launches before the first timed round
    prune: float = 1.3  # after round 2, candidates slower than this x the best leave the race
    tie: float = 0.03  # within this fraction of the fastest, the earliest candidate wins

    def __post_init__(self):
        if self.rounds < 1 or self.rep_ms <= 0 or self.warm_ms < 0 or self.prune < 1 or not 0 <= self.tie < 1:
            raise ValueError(f"timing policy out of range: {self}")


@dataclass(frozen=True)
class TunerOptions:
    dq_strategy: str | None = None  # one of STRATEGIES: the backward makes dQ that way, untimed
    tma_loads: bool = True  # the backward may fetch full tiles through tensor descriptors
    min_flops: int = TUNE_MIN_FLOPS
    timing: TimingPolicy = field(default_factory=TimingPolicy)

    def __post_init__(self):
        if self.dq_strategy is not None and self.dq_strategy not in STRATEGIES:
            raise ValueError(f"dq_strategy must be one of {', '.join(STRATEGIES)}, got {self.dq_strategy!r}")

    @classmethod
    def from_environment(cls, environ=os.environ) -> TunerOptions:
        forced = environ.get("SHIJIE_ATTN_DQ") or None
        if forced is not None and forced not in STRATEGIES:
            raise ValueError(f"SHIJIE_ATTN_DQ must be one of {', '.join(STRATEGIES)}, got {forced!r}")
        return cls(dq_strategy=forced, tma_loads=environ.get("SHIJIE_ATTN_TMA_LOADS", "1") != "0")


def default_cache_path(environ=os.environ) -> Path:
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "shijie" / "attention_configs.json"


def _triton_version() -> str:
    import triton

    return triton.__version__


class Tuner:
    """Picks per (kernel, shape class), kept in memory and, with a ``cache_path``, in a JSON file."""

    def __init__(self, cache_path: Path | None = None, options: TunerOptions | None = None, **option_values):
        self.cache_path = Path(cache_path) if cache_path is not None else None
        self.options = options or TunerOptions(**option_values)
        self._chosen: dict[str, dict[str, dict]] = {}  # kernel -> {shape class -> {"config": ..., "ms": ...}}
        self._loaded = False

    # ------------------------------------------------------------------------------------------- cache

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if self.cache_path is None:
            return
        try:
            stored = json.loads(self.cache_path.read_text())
        except (OSError, ValueError):
            return
        if stored.get("triton") == _triton_version() and stored.get("policy") == POLICY_VERSION:
            for name, entries in stored.get("chosen", {}).items():
                self._chosen.setdefault(name, {}).update(entries)

    def _save(self) -> None:
        if self.cache_path is None:
            return
        try:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_path.with_suffix(".tmp")
            stored = {"triton": _triton_version(), "policy": POLICY_VERSION, "chosen": self._chosen}
            tmp.write_text(json.dumps(stored, indent=1, sort_keys=True))
            tmp.replace(self.cache_path)
        except OSError:
            pass  # a read-only home only costs re-tuning next time

    def chosen_configs(self) -> list[dict]:
        """Every configuration picked so far: one dict per (kernel, shape class)."""
        self._load()
        rows = []
        for name, entries in sorted(self._chosen.items()):
            for key, entry in sorted(entries.items()):
                rows.append({"kernel": name, "shape_class": key, **entry})
        return rows

    # ------------------------------------------------------------------------------------------ policy

    def shape_class(self, device_name: str, dtype, head_dim: int, causal: bool, n_q: int, n_k: int, bh: int) -> str:
        """The key picks are kept under: sequence lengths in powers of two, so one tuning run covers a whole
        octave (batch*heads only sets the grid's depth); small problems form their own untuned class, so they
        never pin a large shape's tiles."""
        small = 4 * bh * n_q * n_k * head_dim < self.options.min_flops

        def octave(n: int) -> int:
            return 1 << (n - 1).bit_length()

        return (
            f"{device_name}|{str(dtype).removeprefix('torch.')}|d{head_dim}|{'causal' if causal else 'full'}"
            f"|q{octave(n_q)}|k{octave(n_k)}" + ("|small" if small else "")
        )

    # ------------------------------------------------------------------- the only methods that touch the device

    def measure(self, run: Callable[[], object]) -> float:
        """Milliseconds one ``run()`` takes: do_bench's median over ``rep_ms`` of launches (its own warm-up is
        short: the race warms the device once, before the first round)."""
        import triton.testing

        rep = self.options.timing.rep_ms
        return triton.testing.do_bench(run, warmup=min(5.0, rep), rep=rep, return_mode="median")

    def warm(self, run: Callable[[], object]) -> None:
        """Keeps the device busy with ``run`` for ``warm_ms``, so the first timed round sees running clocks."""
        import triton.testing

        if self.options.timing.warm_ms > 0:
            triton.testing.do_bench(run, warmup=0, rep=self.options.timing.warm_ms)

    def sync(self) -> None:
        """Waits for the device (a launch's errors surface here)."""
        import torch

        if torch.cuda.is_available():
            torch.cuda.synchronize()

    # ---------------------------------------------------------------------------------------------- racing

    def race(self, runs: list[Callable[[], object]]) -> list[dict | None]:
        """Times ``runs`` by the policy (module docstring); per run, ``{"ms", "rounds", "spread"}`` (fastest
        round, rounds timed, slowest / fastest round - 1), or None where it failed for want of resources."""
        policy = self.options.timing
        alive = []
        for i, run in enumerate(runs):  # phase 1: compile and launch each once, untimed
            try:
                run()
                self.sync()
            except Exception as error:  # a config over the device's resources fails to compile or launch
                if "resources" not in str(error).lower() and "shared memory" not in str(error).lower():
                    raise
                continue
            alive.append(i)
        if not alive:
            return [None] * len(runs)
        if len(alive) > 1:
            self.warm(runs[alive[0]])  # phase 2
        times: dict[int, list[float]] = {i: [] for i in alive}
        rounds = policy.rounds if len(alive) > 1 else 1
        for r in range(rounds):  # phase 3: interleaved rounds, rotated and reversed
            order = alive[r % len(alive) :] + alive[: r % len(alive)]
            for i in reversed(order) if r % 2 else order:
                times[i].append(self.measure(runs[i]))
            if r == 1 and len(alive) > 2:
                best = min(min(times[i]) for i in alive)
                alive = [i for i in alive if min(times[i]) <= policy.prune * best]
        return [
            {
                "ms": min(times[i]),
                "rounds": len(times[i]),
                "spread": max(times[i]) / min(times[i]) - 1 if min(times[i]) > 0 else 0.0,
            }
            if i in times
            else None
            for i in range(len(runs))
        ]

    def _winner(self, results: list[dict | None]) -> int | None:
        """Phase 4: the earliest run within ``tie`` of the fastest among those that finished every round."""
        rounds = max((r["rounds"] for r in results if r), default=0)
        finished = [(i, r["ms"]) for i, r in enumerate(results) if r and r["rounds"] == rounds]
        if not finished:
            return None
        fastest = min(ms for _, ms in finished)
        return next(i for i, ms in finished if ms <= fastest * (1 + self.options.timing.tie))

    @staticmethod
    def _entry(config: dict, results: list[dict | None], winner: int, labels: list[str]) -> dict:
        """What the cache keeps and ``chosen_configs`` shows: the pick, its time and spread, the runner-up."""
        won = results[winner]
        assert won is not None
        others = sorted((r["ms"], labels[i]) for i, r in enumerate(results) if r and i != winner)
        return {
            "config": config,
            "ms": round(won["ms"], 4),
            "rounds": won["rounds"],
            "spread": round(won["spread"], 3),
            "runner_up": {"label": others[0][1], "ms": round(others[0][0], 4)} if others else None,
        }

    def pick(self, name: str, key: str, candidates: list[dict], launch: Callable[[dict], object]) -> dict:
        """The fastest of ``candidates`` for ``launch(config)``, raced once per shape class and remembered."""
        self._load()
        entries = self._chosen.setdefault(name, {})
        if key in entries:
            return entries[key]["config"]
        if not candidates:
            raise RuntimeError(f"attention: no tile configuration of {name} fits this device ({key})")
        if len(candidates) == 1 or key.endswith("|small"):  # nothing worth timing
            entries[key] = {"config": candidates[0], "ms": None}
            return candidates[0]
        results = self.race([functools.partial(launch, config) for config in candidates])
        winner = self._winner(results)
        if winner is None:
            raise RuntimeError(f"attention: no tile configuration of {name} fits this device ({key})")
        labels = [json.dumps(c, sort_keys=True) for c in candidates]
        entries[key] = self._entry(candidates[winner], results, winner, labels)
        self._save()
        return candidates[winner]

    def pick_strategy(
        self, name: str, key: str, strategies: dict[str, Callable[[], tuple[dict, Callable[[], object]]]]
    ) -> dict:
        """The fastest of alternative ways to do one job, each ``prepare()`` -> (choice, run) tuning its own
        kernels first, then the whole jobs raced like tiles; with one alternative (or a small shape: the first)
        nothing is timed. An alternative that raises drops out (say, a Triton without descriptor reductions),
        unless it is the only one."""
        self._load()
        options = list(strategies)
        if key.endswith("|small"):
            options = options[:1]
        entries = self._chosen.setdefault(name, {})
        entry_key = key if len(options) > 1 else f"{key}|{options[0]}"
        if entry_key in entries:
            return entries[entry_key]["config"]
        prepared, failed = [], {}
        for option in options:
            try:
                prepared.append((option, *strategies[option]()))
            except Exception as error:
                if len(options) == 1:
                    raise
                failed[option] = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        if not prepared:
            raise RuntimeError(f"attention: no {name} strategy ran on this device ({key}): {failed}")
        if len(options) == 1:
            entries[entry_key] = {"config": prepared[0][1], "ms": None, "tried": {}, "failed": failed}
            return prepared[0][1]
        results = self.race([run for _, _, run in prepared])
        winner = self._winner(results)
        if winner is None:
            raise RuntimeError(f"attention: no {name} strategy ran on this device ({key}): {failed}")
        entry = self._entry(prepared[winner][1], results, winner, [option for option, _, _ in prepared])
        entry["tried"] = {option: round(r["ms"], 4) for (option, _, _), r in zip(prepared, results, strict=True) if r}
        entry["failed"] = failed
        entries[entry_key] = entry
        self._save()
        return prepared[winner][1]


_DEFAULT: Tuner | None = None


def default_tuner() -> Tuner:
    """The tuner ``attention`` uses: the user's cache file, options from the environment, read once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Tuner(default_cache_path(), TunerOptions.from_environment())
    return _DEFAULT
