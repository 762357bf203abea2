"""Device helper for ncu: launch one kernel of a validation suite once, from nvcc's cubin of the
suite's kernels.cu, with the suite's own inputs. `python suite_launch.py FOLDER NAME CUBIN`."""
import importlib.util
import sys
from pathlib import Path

import cupy as cp
import numpy as np

_path = Path(__file__).resolve().parent.parent / "step_timelines" / "cases.py"  # its suite_spec
_spec = importlib.util.spec_from_file_location("step_timelines_cases", _path)
step_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(step_cases)
suite_spec = step_cases.suite_spec

folder, name, cubin = sys.argv[1:4]
spec = suite_spec(folder, name)
kernel = cp.RawModule(path=cubin).get_function(spec["kernel"])
args = tuple(cp.asarray(a) if isinstance(a, np.ndarray) and a.ndim else a for a in spec["args"])
kernel(tuple(spec["grid"]), tuple(spec["block"]), args)
cp.cuda.runtime.deviceSynchronize()
