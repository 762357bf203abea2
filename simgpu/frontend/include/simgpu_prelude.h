/* simgpu: included before every CUDA C source NVRTC compiles (--pre-include), as nvcc includes
   cuda_runtime.h and, through it, the C headers that give kernels INFINITY, INT_MIN, FLT_MAX and
   the fixed-width integer types without an #include of their own. Macros and typedefs only. */
#include <math.h>
#include <limits.h>
#include <float.h>
#include <stdint.h>
#include <stddef.h>
