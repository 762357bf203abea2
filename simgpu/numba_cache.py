"""Keep numba's on-disk cache of simgpu's compiled functions in step with simgpu's source.

numba (`njit(cache=True)`) keys a cached function by the timestamp of the file that defines it,
not by the files whose functions it inlines or calls. A change to `timing/l2_merge.py` alone left
`load_lines`, which inlines its `merge_step`, running the old code from the cache (2026-11-30);
after an upgrade or a `git pull` a user would get the old answers without a sign. So on import,
simgpu hashes its own source files and, when the hash differs from the one the caches were built
with, deletes the cache files (`*.nbi`, `*.nbc`) before numba can load any of them (simgpu's
__init__ imports this module first). The next compile costs about a minute; a read-only or missing
cache directory is left as it is.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
STAMP = "simgpu_source.sha256"


def source_hash(root: Path = PACKAGE) -> str:
    """sha256 over the relative path and bytes of every .py file of the package."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_dirs(root: Path = PACKAGE) -> list[Path]:
    """Where numba keeps simgpu's caches: __pycache__ beside the sources, or NUMBA_CACHE_DIR."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return [Path(custom)]
    return sorted(p for p in root.rglob("__pycache__") if p.is_dir())


def clear_stale_caches(root: Path = PACKAGE) -> bool:
    """Delete numba's cache files if simgpu's source changed since they were written; True if it did."""
    digest = source_hash(root)
    dirs = cache_dirs(root)
    custom = os.environ.get("NUMBA_CACHE_DIR")
    stamp = (Path(custom) if custom else root / "__pycache__") / STAMP
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    for d in dirs:
        for pattern in ("*.nbi", "*.nbc"):
            for f in d.rglob(pattern):
                try:
                    f.unlink()
                except OSError:
                    pass
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
    return True


clear_stale_caches()
