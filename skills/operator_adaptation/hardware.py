"""Hardware profiles: what the tile planner knows of a GPU, from a shipped spec sheet or from the device itself.

A profile (``HardwareProfile``) holds SM count, warp width, threads, blocks and registers per SM, shared
memory per SM and per block, L2, HBM size and bandwidth, dense rates and matrix instructions. There is one
way from a device to its profile, ``device_profile(properties)``:

* a **shipped** profile (``data/hardware/*.toml``) when its name appears in the device's name
  ("NVIDIA H200" -> ``h200``): a spec sheet checked against the silicon (``device_mismatches``);
* otherwise a profile **built from the device's properties** (``profile_from_properties``: what
  ``torch.cuda.get_device_properties`` reports). What the properties do not say comes from
  ``ASSUMED``, each value chosen to err toward fitting fewer tiles; the profile lists those fields in
  ``assumed``. Dense rates are estimated as SMs x clock x the per-SM rate of the compute capability
  (``PER_CLOCK``), HBM bandwidth as 2 x memory clock x bus width (double data rate).

A profile is plain data and this module needs neither torch nor the rest of shijie: an exported skill
runs it as a script (``python scripts/hardware.py h200`` prints a profile; ``--device`` the local GPU's).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

try:
    from pipeline.errors import DataError, UsageError
    from pipeline.resources import data_dir
except ImportError:  # run as a script from an exported skill folder, without shijie installed

    class UsageError(Exception):  # type: ignore[no-redef]
        pass

    class DataError(Exception):  # type: ignore[no-redef]
        pass

    def data_dir() -> Path:
        # an exported skill keeps the profiles in references/hardware; a source checkout in data/hardware
        here = Path(__file__).resolve().parent
        exported, checkout = here.parent / "references", here.parent.parent / "data"
        return exported if (exported / "hardware").is_dir() else checkout


PROFILE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "full_name": str,
    "vendor": str,
    "arch": str,
    "compute_capability": str,
    "sm_count": int,
    "warp_size": int,
    "max_threads_per_sm": int,
    "max_threads_per_block": int,
    "max_blocks_per_sm": int,
    "registers_per_sm": int,
    "max_registers_per_thread": int,
    "smem_per_sm_kib": (int, float),
    "smem_per_block_kib": (int, float),
    "smem_reserved_per_block_kib": (int, float),
    "l2_mib": (int, float),
    "hbm_gib": (int, float),
    "hbm_bandwidth_gbs": (int, float),
    "mma_min_dim": int,
    "matrix_instructions": list,
    "dense_tflops": dict,
}


@dataclass(frozen=True)
class HardwareProfile:
    name: str
    full_name: str
    vendor: str
    arch: str
    compute_capability: str
    sm_count: int
    warp_size: int
    max_threads_per_sm: int
    max_threads_per_block: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_thread: int
    smem_per_sm_kib: float
    smem_per_block_kib: float
    smem_reserved_per_block_kib: float
    l2_mib: float
    hbm_gib: float
    hbm_bandwidth_gbs: float
    mma_min_dim: int
    matrix_instructions: list
    dense_tflops: dict
    source: str = ""
    assumed: tuple[str, ...] = field(default=())  # fields not read from the source: ASSUMED values or estimates

    @property
    def smem_per_sm(self) -> int:
        return int(self.smem_per_sm_kib * 1024)

    @property
    def smem_per_block(self) -> int:
        return int(self.smem_per_block_kib * 1024)

    def ridge_point(self, dtype: str) -> float:
        """FLOPs per HBM byte above which a kernel is compute-bound on this device."""
        return self.dense_tflops[dtype] * 1e12 / (self.hbm_bandwidth_gbs * 1e9)


# ------------------------------------------------------------------------------------------- shipped profiles


def profiles_dir() -> Path:
    return data_dir() / "hardware"


def shipped_profiles() -> list[str]:
    return sorted(path.stem for path in profiles_dir().glob("*.toml"))


def load_profile(name_or_path: str | os.PathLike) -> HardwareProfile:
    """A shipped profile by name (``h100``) or any profile file by path."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or path.exists()):
        path = profiles_dir() / f"{str(name_or_path).lower()}.toml"
        if not path.exists():
            raise UsageError(
                f"unknown hardware profile {str(name_or_path)!r}; shipped: {', '.join(shipped_profiles())}"
                " (or give a path to a .toml profile)"
            )
    elif not path.exists():
        raise UsageError(f"hardware profile file {path} does not exist")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"hardware profile {path} is not valid TOML: {exc}") from None
    problems = []
    for key, kind in PROFILE_FIELDS.items():
        if key not in raw:
            problems.append(f"missing {key}")
        elif not isinstance(raw[key], kind) or isinstance(raw[key], bool):
            problems.append(f"{key} has the wrong type")
    if not problems:
        missing_rates = {"bf16", "fp16", "fp32"} - set(raw["dense_tflops"])
        if missing_rates:
            problems.append(f"dense_tflops lacks {', '.join(sorted(missing_rates))}")
        for key in ("sm_count", "warp_size", "registers_per_sm", "smem_per_block_kib", "hbm_bandwidth_gbs"):
            if raw[key] <= 0:
                problems.append(f"{key} must be positive")
    if problems:
        raise DataError(f"hardware profile {path}: {'; '.join(problems)}")
    known = {key: raw[key] for key in PROFILE_FIELDS}
    return HardwareProfile(**known, source=str(path))


def shipped_profile_for(device_name: str) -> str | None:
    """The shipped profile whose name appears in the device's name ("NVIDIA H200" -> h200), if any."""
    lowered = device_name.lower()
    return next((name for name in shipped_profiles() if name in lowered), None)


# ------------------------------------------------------------------------------------ profiles from a device

# profile field -> (torch.cuda device property, how to turn the property into the profile's unit)
DEVICE_PROPERTIES = {
    "sm_count": ("multi_processor_count", lambda value: value),
    "warp_size": ("warp_size", lambda value: value),
    "registers_per_sm": ("regs_per_multiprocessor", lambda value: value),
    "max_threads_per_sm": ("max_threads_per_multi_processor", lambda value: value),
    "smem_per_sm_kib": ("shared_memory_per_multiprocessor", lambda value: value / 1024),
    "smem_per_block_kib": ("shared_memory_per_block_optin", lambda value: value / 1024),
    "l2_mib": ("L2_cache_size", lambda value: value / (1024 * 1024)),
}

# What device properties do not report (or an older torch does not expose), for profile_from_properties. Each
# value errs toward fitting fewer tiles (CUDA C++ Programming Guide, "Technical Specifications per Compute
# Capability"): the per-block shared memory every GPU gives without opting in; 1 KiB reserved per block as on
# sm_80 and later; the fewest threads and blocks per SM of any compute capability since 7.5; registers per SM
# and per thread and threads per block as on every compute capability since 5.0.
ASSUMED = {
    "warp_size": 32,
    "max_threads_per_sm": 1024,
    "max_threads_per_block": 1024,
    "max_blocks_per_sm": 16,
    "registers_per_sm": 65536,
    "max_registers_per_thread": 255,
    "smem_per_block_kib": 48,
    "smem_reserved_per_block_kib": 1,
    "l2_mib": 0,  # no L2 assumed: re-reads are counted as HBM traffic
    "hbm_bandwidth_gbs": 500,
    "clock_ghz": 1.0,  # SM clock for the rate estimate: below every datacenter part's boost clock
    "mma_min_dim": 16,  # Triton's tl.dot takes no smaller tile edge
}
# Blocks per SM where the compute capability is known to allow more than ASSUMED's 16.
MAX_BLOCKS_PER_SM = {(7, 0): 32, (8, 0): 32, (8, 9): 24, (9, 0): 32, (10, 0): 32}
# Dense FLOPs per SM per clock: (bf16/fp16 tensor cores with fp32 accumulation, fp32 CUDA cores), from NVIDIA's
# architecture whitepapers (V100, A100, GA102, AD102, H100, B200, GB202). Where one compute capability covers
# GeForce and workstation parts, the GeForce figure (half the tensor rate); unknown capabilities take the lowest.
PER_CLOCK = {
    (7, 0): (1024, 128),
    (8, 0): (2048, 128),
    (8, 6): (512, 256),
    (8, 9): (512, 256),
    (9, 0): (4096, 256),
    (10, 0): (8192, 256),
    (12, 0): (512, 256),
}
LOWEST_PER_CLOCK = (512, 128)
FROM_PROPERTIES = "device properties"  # the source of a profile built by profile_from_properties


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "device"


def profile_from_properties(properties) -> HardwareProfile:
    """A profile of the device ``properties`` describe (``torch.cuda.get_device_properties`` or any object with
    those attribute names). Whatever they do not report comes from ``ASSUMED`` or is estimated, and is named in
    the profile's ``assumed``."""
    assumed: list[str] = ["max_registers_per_thread", "smem_reserved_per_block_kib", "mma_min_dim", "dense_tflops"]

    def reported(attribute: str, scale: float = 1.0):
        value = getattr(properties, attribute, None)
        return value * scale if value else None  # absent, None or 0: not reported

    def known(value, field_name: str):
        if value is None:
            assumed.append(field_name)
            return ASSUMED[field_name]
        return value

    name = str(getattr(properties, "name", "") or "unnamed device")
    sm_count = reported("multi_processor_count")
    if not sm_count:
        raise DataError(f"device {name!r} reports no multiprocessor count: cannot build a hardware profile")
    major, minor = int(getattr(properties, "major", 0) or 0), int(getattr(properties, "minor", 0) or 0)
    gcn_arch = str(getattr(properties, "gcnArchName", "") or "")
    amd = gcn_arch.startswith("gfx")  # ROCm builds of torch report AMD GPUs through torch.cuda
    kib = 1 / 1024
    smem_per_block = known(
        reported("shared_memory_per_block_optin", kib) or reported("shared_memory_per_block", kib),
        "smem_per_block_kib",
    )
    smem_per_sm = reported("shared_memory_per_multiprocessor", kib)
    if smem_per_sm is None:
        smem_per_sm = smem_per_block
        assumed.append("smem_per_sm_kib")
    memory_clock_khz, bus_bits = reported("memory_clock_rate"), reported("memory_bus_width")
    bandwidth = 2 * memory_clock_khz * bus_bits / 8 / 1e6 if memory_clock_khz and bus_bits else None  # GB/s
    clock_ghz = known(reported("clock_rate", 1e-6), "clock_ghz")  # reported in kHz
    tensor_per_clock, fp32_per_clock = PER_CLOCK.get((major, minor), LOWEST_PER_CLOCK)
    tensor_tflops = sm_count * clock_ghz * tensor_per_clock / 1e3
    return HardwareProfile(
        name=_slug(name),
        full_name=name,
        vendor="AMD" if amd else "NVIDIA",
        arch=gcn_arch if amd else f"sm_{major}{minor}",
        compute_capability=f"{major}.{minor}",
        sm_count=int(sm_count),
        warp_size=int(known(reported("warp_size"), "warp_size")),
        max_threads_per_sm=int(known(reported("max_threads_per_multi_processor"), "max_threads_per_sm")),
        max_threads_per_block=int(known(reported("max_threads_per_block"), "max_threads_per_block")),
        max_blocks_per_sm=int(known(MAX_BLOCKS_PER_SM.get((major, minor)), "max_blocks_per_sm")),
        registers_per_sm=int(known(reported("regs_per_multiprocessor"), "registers_per_sm")),
        max_registers_per_thread=int(ASSUMED["max_registers_per_thread"]),
        smem_per_sm_kib=smem_per_sm,
        smem_per_block_kib=smem_per_block,
        smem_reserved_per_block_kib=ASSUMED["smem_reserved_per_block_kib"],
        l2_mib=known(reported("L2_cache_size", kib * kib), "l2_mib"),
        hbm_gib=round(reported("total_memory", 2.0**-30) or 0.0, 1),
        hbm_bandwidth_gbs=round(known(bandwidth, "hbm_bandwidth_gbs"), 1),
        mma_min_dim=int(ASSUMED["mma_min_dim"]),
        matrix_instructions=["mfma (matrix cores)"] if amd else ["mma.sync (tensor cores)"],
        dense_tflops={
            "bf16": round(tensor_tflops, 1),
            "fp16": round(tensor_tflops, 1),
            "tf32": round(tensor_tflops / 2, 1),
            "fp32": round(sm_count * clock_ghz * fp32_per_clock / 1e3, 1),
        },
        source=FROM_PROPERTIES,
        assumed=tuple(assumed),
    )


def device_profile(properties) -> HardwareProfile:
    """The profile of a device: the shipped one its name matches, else one built from its properties."""
    shipped = shipped_profile_for(str(getattr(properties, "name", "")))
    return load_profile(shipped) if shipped else profile_from_properties(properties)


def device_mismatches(profile: HardwareProfile, properties) -> list[str]:
    """Where a profile disagrees with what the device reports (``torch.cuda.get_device_properties``)."""
    found = []
    for field_name, (attribute, convert) in DEVICE_PROPERTIES.items():
        reported = getattr(properties, attribute, None)
        if reported is None:
            continue
        value = convert(reported)
        if abs(value - getattr(profile, field_name)) > 1e-6 * max(1, abs(value)):
            found.append(
                f"{profile.name}.{field_name} is {getattr(profile, field_name):g}, the device reports {value:g}"
            )
    return found


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description="A hardware profile as JSON: shipped, from a file, or the local GPU.")
    parser.add_argument("profile", nargs="?", help="shipped profile name (h100, h200, a100, l100) or a .toml path")
    parser.add_argument("--device", action="store_true", help="the profile of the local CUDA device (needs torch)")
    args = parser.parse_args()
    if args.device == bool(args.profile):
        parser.error("give a profile name or --device, one of the two")
    if args.device:
        import torch

        profile = device_profile(torch.cuda.get_device_properties(0))
    else:
        profile = load_profile(args.profile)
    print(json.dumps(asdict(profile), indent=2))


if __name__ == "__main__":
    main()
