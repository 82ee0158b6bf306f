"""Places a user's files can live that the tests must reproduce for real: a read-only folder, a full disk.

    with read_only_folder(tmp_path, [db]) as folder:   # copies of the files, in a folder nobody can write
        run_shijie("mastery", "--db", str(folder / db.name))
    with small_disk(tmp_path, 600_000) as folder:       # a tmpfs of that size: writes past it fail with ENOSPC
        ...
    run_shijie(..., preexec_fn=file_size_limit(300_000))  # RLIMIT_FSIZE: writes past it fail with EFBIG

Permission bits stop an ordinary user, not root (who can write anywhere but on a read-only mount), so as
root the read-only folder is a tmpfs remounted read-only, and as anyone else a folder with its write bits
cleared. A tmpfs needs the right to mount (root with CAP_SYS_ADMIN, as in CI's containers here); where it
cannot be mounted, the test that needs it is skipped and says why. ``file_size_limit`` needs no privilege.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount_tmpfs(target: Path, size: int) -> None:
    target.mkdir(parents=True)
    try:
        result = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)], capture_output=True, text=True
        )
    except FileNotFoundError:
        pytest.skip("no mount command here")
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({result.stderr.strip() or result.returncode})")


def _unmount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True)


@contextmanager
def read_only_folder(tmp_path: Path, files: list[Path]) -> Iterator[Path]:
    """A folder holding copies of ``files`` (with their -wal/-shm companions when present) that neither this
    process nor its children can write to."""
    folder = tmp_path / f"read-only-{uuid.uuid4().hex[:8]}"
    mounted = os.geteuid() == 0
    if mounted:
        _mount_tmpfs(folder, 16 * 1024 * 1024)
    else:
        folder.mkdir()
    try:
        for path in files:
            for companion in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                if companion.exists():
                    shutil.copy2(companion, folder / companion.name)
        if mounted:
            result = subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True, text=True)
            if result.returncode != 0:
                pytest.skip(f"cannot remount a tmpfs read-only here ({result.stderr.strip()})")
        else:
            for child in folder.iterdir():
                child.chmod(0o444)
            folder.chmod(0o555)
        yield folder
    finally:
        if mounted:
            _unmount(folder)
        else:
            folder.chmod(0o755)


@contextmanager
def small_disk(tmp_path: Path, size: int) -> Iterator[Path]:
    """A folder on a tmpfs of ``size`` bytes: a real full disk (ENOSPC) once it is used up. ``grow(n)``
    is what a user freeing space amounts to: ``remount(folder, n)``."""
    folder = tmp_path / f"small-disk-{uuid.uuid4().hex[:8]}"
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    _mount_tmpfs(folder, size)
    try:
        yield folder
    finally:
        _unmount(folder)


def remount(folder: Path, size: int) -> None:
    subprocess.run(["mount", "-o", f"remount,size={size}", str(folder)], check=True, capture_output=True)


def file_size_limit(limit: int) -> Callable[[], None]:
    """A ``preexec_fn`` capping every file the child writes at ``limit`` bytes (Python ignores SIGXFSZ, so a
    write past it fails with EFBIG, which SQLite reports as an I/O error)."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply
