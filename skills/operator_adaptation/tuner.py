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
``measure`` is the one place that times (``triton.testing.do_bench``, median), and a config that exceeds the
device's resources drops out of the race instead of failing it.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Below this many forward FLOPs (4·B·H·Nq·Nk·d) a launch takes microseconds and timing candidates would cost
# more than it could ever save: such shapes take the first planned candidate and the first strategy.
TUNE_MIN_FLOPS = 2**35
STRATEGIES = ("fused_dq_tma", "fused_dq", "split_dq")


@dataclass(frozen=True)
class TunerOptions:
    dq_strategy: str | None = None  # one of STRATEGIES: the backward makes dQ that way, untimed
    tma_loads: bool = True  # the backward may fetch full tiles through tensor descriptors
    min_flops: int = TUNE_MIN_FLOPS

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
        if stored.get("triton") == _triton_version():
            for name, entries in stored.get("chosen", {}).items():
                self._chosen.setdefault(name, {}).update(entries)

    def _save(self) -> None:
        if self.cache_path is None:
            return
        try:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"triton": _triton_version(), "chosen": self._chosen}, indent=1, sort_keys=True))
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
        octave = lambda n: 1 << (n - 1).bit_length()
        return (
            f"{device_name}|{str(dtype).removeprefix('torch.')}|d{head_dim}|{'causal' if causal else 'full'}"
            f"|q{octave(n_q)}|k{octave(n_k)}" + ("|small" if small else "")
        )

    def measure(self, run: Callable[[], object]) -> float:
        """Milliseconds one ``run()`` takes: the median of triton's do_bench after warm-up."""
        import triton.testing

        return triton.testing.do_bench(run, warmup=10, rep=30, return_mode="median")

    def pick(self, name: str, key: str, candidates: list[dict], launch: Callable[[dict], object]) -> dict:
        """The fastest of ``candidates`` for ``launch(config)``, timed once per shape class and remembered."""
        self._load()
        entries = self._chosen.setdefault(name, {})
        if key in entries:
            return entries[key]["config"]
        if not candidates:
            raise RuntimeError(f"attention: no tile configuration of {name} fits this device ({key})")
        if len(candidates) == 1 or key.endswith("|small"):  # nothing worth timing
            entries[key] = {"config": candidates[0], "ms": None}
            return candidates[0]
        best, best_ms = None, float("inf")
        for config in candidates:
            try:
                ms = self.measure(functools.partial(launch, config))
            except Exception as error:  # a config over the device's resources fails to compile or launch
                if "resources" not in str(error).lower() and "shared memory" not in str(error).lower():
                    raise
                continue
            if ms < best_ms:
                best, best_ms = config, ms
        if best is None:
            raise RuntimeError(f"attention: no tile configuration of {name} fits this device ({key})")
        entries[key] = {"config": best, "ms": round(best_ms, 4)}
        self._save()
        return best

    def pick_strategy(
        self, name: str, key: str, strategies: dict[str, Callable[[], tuple[dict, Callable[[], object]]]]
    ) -> dict:
        """The fastest of alternative ways to do one job, each ``prepare()`` -> (choice, run) tuning its own
        kernels first; with one alternative (or a small shape: the first) nothing is timed. An alternative
        that raises drops out (say, a Triton without descriptor reductions), unless it is the only one."""
        self._load()
        options = list(strategies)
        if key.endswith("|small"):
            options = options[:1]
        entries = self._chosen.setdefault(name, {})
        entry_key = key if len(options) > 1 else f"{key}|{options[0]}"
        if entry_key in entries:
            return entries[entry_key]["config"]
        timed, failed = [], {}
        for option in options:
            try:
                choice, run = strategies[option]()
            except Exception as error:
                if len(options) == 1:
                    raise
                failed[option] = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
                continue
            ms = self.measure(run) if len(options) > 1 else None
            timed.append((ms or 0.0, choice))
        if not timed:
            raise RuntimeError(f"attention: no {name} strategy ran on this device ({key}): {failed}")
        ms, best = min(timed, key=lambda item: item[0])
        entries[entry_key] = {
            "config": best,
            "ms": round(ms, 4) if ms else None,
            "tried": {c["strategy"]: round(t, 4) for t, c in timed},
            "failed": failed,
        }
        if timed[0][0]:
            self._save()
        return best


_DEFAULT: Tuner | None = None


def default_tuner() -> Tuner:
    """The tuner ``attention`` uses: the user's cache file, options from the environment, read once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Tuner(default_cache_path(), TunerOptions.from_environment())
    return _DEFAULT
