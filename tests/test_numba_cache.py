"""simgpu/numba_cache.py: numba's caches are deleted when simgpu's source changes (numba keys a cached
function by its own file only, so an edit to a function it inlines would otherwise go unseen)."""

from simgpu import numba_cache


def test_a_source_change_clears_the_cache_files(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    pkg = tmp_path / "pkg"
    (pkg / "sub" / "__pycache__").mkdir(parents=True)
    (pkg / "__pycache__").mkdir()
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "b.py").write_text("y = 2\n")
    cached = [pkg / "sub" / "__pycache__" / "b.f-1.py311.nbi", pkg / "sub" / "__pycache__" / "b.f-1.py311.1.nbc"]
    other = pkg / "sub" / "__pycache__" / "b.cpython-311.pyc"
    assert numba_cache.clear_stale_caches(pkg)  # no stamp yet: cleared (nothing there), stamp written
    for f in cached + [other]:
        f.write_bytes(b"x")
    assert not numba_cache.clear_stale_caches(pkg)  # same source: caches kept
    assert all(f.exists() for f in cached)
    (pkg / "a.py").write_text("x = 3\n")  # another file than the cached function's
    assert numba_cache.clear_stale_caches(pkg)
    assert not any(f.exists() for f in cached) and other.exists()
    assert not numba_cache.clear_stale_caches(pkg)


def test_numba_cache_dir_is_honoured(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("x = 1\n")
    cache = tmp_path / "cache"
    (cache / "deep").mkdir(parents=True)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    numba_cache.clear_stale_caches(pkg)
    f = cache / "deep" / "a.f-1.py311.nbi"
    f.write_bytes(b"x")
    (pkg / "a.py").write_text("x = 2\n")
    assert numba_cache.clear_stale_caches(pkg) and not f.exists()
    assert (cache / numba_cache.STAMP).exists()
