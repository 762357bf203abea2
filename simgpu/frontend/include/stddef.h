/* simgpu: <stddef.h> for NVRTC (size_t and ptrdiff_t are NVRTC built-ins; offsetof as libcu++
   defines it under NVRTC, cuda/std/__cstddef/types.h) */
#ifndef SIMGPU_STDDEF_H
#define SIMGPU_STDDEF_H
#ifndef NULL
#define NULL 0
#endif
#if !defined(offsetof)
#  define offsetof(type, member) (::size_t) ((char*) &(((type*) 0)->member) - (char*) 0)
#endif
#endif
