#!/usr/bin/env bash
# Packs NVIDIA's CuTe DSL (nvidia-cutlass-dsl 4.8.1, Python 3.12, x86_64, CUDA 13 libraries) for the device machine,
# whose image lacks it and which cannot reach a registry: a call carries at most 64 MiB with the ~3 MB checkout,
# and the -libs-cu13 wheel alone is 92 MB. So two parts, carried by two calls on one warm machine (docs/perf.md,
# "The other route: CuTe DSL dK/dV prototype"):
#
#   part a (~50 MB): the MLIR compiler extension _cutlass_ir.cu13...so (193 MB, already stripped) as xz
#   part b (~21 MB): the three small wheels and apache-tvm-ffi's (the fast call path), libcute_dsl_runtime.so
#                    (44 MB) as xz, the cu13 wheel's small files, and setup.sh, which assembles everything into
#                    /tmp/cute/site on the device
#
#   bash tools/cute_carry.sh DEST [XZ_LEVEL]       # e.g. DEST=.kern/kcute (git-ignored), XZ_LEVEL=-9e (default)
#
# then, from the repository root, with the device tool (the second call right after the first, within the 30 s the
# machine stays warm; setup.sh says so when the machine is fresh):
#   call 1, carry DEST/a:  mkdir -p /tmp/cute && python3 -c "import lzma,shutil; shutil.copyfileobj(
#                          lzma.open('DEST/a/ir.xz'), open('/tmp/cute/ir.so','wb'), 1<<24)"
#   call 2, carry DEST/b:  . DEST/b/setup.sh && python3 benchmarks/cute_dkdv.py --check --bench --out $OUT
# setup.sh is idempotent on a warm machine: later calls carry only what changed (part b) and skip the assembly.
# -9e takes minutes on a shared 2-core machine (the compiler library dominates: 50.1 MB); -0 takes seconds but
# gives 62.7 MB, which with the checkout is just under a call's 64 MiB: use -6 or more.
set -euo pipefail
dest=${1:?usage: tools/cute_carry.sh DEST [XZ_LEVEL]}
level=${2:--9e}
version=4.8.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d "$work/whl" "nvidia-cutlass-dsl==$version" \
    "nvidia-cutlass-dsl-libs-base==$version" "nvidia-cutlass-dsl-libs-core==$version" \
    "nvidia-cutlass-dsl-libs-cu13==$version" "apache-tvm-ffi==0.1.15.post2"
mkdir -p "$dest/a" "$dest/b" "$work/cu13"
(cd "$work/cu13" && python3 -m zipfile -e "$work"/whl/nvidia_cutlass_dsl_libs_cu13-*.whl .)
ir=nvidia_cutlass_dsl/dsl_packages/cutlass/_mlir/_mlir_libs/_cutlass_ir.cu13.cpython-312-x86_64-linux-gnu.so
rt=nvidia_cutlass_dsl/cu13/lib/libcute_dsl_runtime.so
xz "$level" -T1 -c "$work/cu13/$ir" >"$dest/a/ir.xz"
xz "$level" -T1 -c "$work/cu13/$rt" >"$dest/b/rt.xz"
cp "$work"/whl/nvidia_cutlass_dsl-"$version"-*.whl "$work"/whl/nvidia_cutlass_dsl_libs_base-*.whl \
    "$work"/whl/nvidia_cutlass_dsl_libs_core-*.whl "$work"/whl/apache_tvm_ffi-*.whl "$dest/b/"
# the cu13 wheel minus its two large libraries and the aarch64/QNX stubs: headers, the version file, its metadata
(cd "$work/cu13" && tar -cf "$dest/b/cu13small.tar" nvidia_cutlass_dsl/cu13/include \
    nvidia_cutlass_dsl/dsl_packages/cutlass/_mlir/_mlir_libs/_cutlass_ir_version_cu13.py \
    nvidia_cutlass_dsl_libs_cu13-*.dist-info)
cat >"$dest/b/setup.sh" <<EOF
# sourced on the device from the repository root: assembles the CuTe DSL in /tmp/cute/site from part a
# (/tmp/cute/ir.so, unpacked by the call before) and this folder, then exports PYTHONPATH for it
S=/tmp/cute/site; B=\$(dirname "\${BASH_SOURCE[0]}")
IR=\$S/$ir
if [ ! -f "\$IR" ]; then
  test -f /tmp/cute/ir.so || { echo "no /tmp/cute/ir.so: a fresh machine; carry part a again first"; return 3; }
  mkdir -p \$S && for w in \$B/*.whl; do python3 -m zipfile -e \$w \$S || return 4; done
  tar -xf \$B/cu13small.tar -C \$S && mkdir -p \$S/nvidia_cutlass_dsl/cu13/lib || return 5
  python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'), 1<<24)" \\
    \$B/rt.xz \$S/$rt && mv /tmp/cute/ir.so "\$IR" || return 6
fi
export PYTHONPATH=\$S:\$S/nvidia_cutlass_dsl/dsl_packages\${PYTHONPATH:+:\$PYTHONPATH} PYTHONUNBUFFERED=1
python3 -c "import cutlass.cute" || return 7
EOF
du -sh "$dest/a" "$dest/b"
