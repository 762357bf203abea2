"""Drive the flash_attn program (default size, as in validation/h200_2026-11-29.json) on a real GPU
under CuPy, for ncu: `SIMGPU_PROGRAMS_BACKEND=cupy PYTHONPATH=<repo> ncu ... python3 flash_attn_ncu.py`.
Checks the output against the NumPy reference."""

import os

os.environ.setdefault("SIMGPU_PROGRAMS_BACKEND", "cupy")

from programs import get_program  # noqa: E402

if __name__ == "__main__":
    for _ in range(2):
        run = get_program("flash_attn").run()
        run.verify()
    print("flash_attn verified")
