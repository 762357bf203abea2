/* simgpu: <stddef.h> for NVRTC (size_t and ptrdiff_t are NVRTC built-ins) */
#ifndef SIMGPU_STDDEF_H
#define SIMGPU_STDDEF_H
#ifndef NULL
#define NULL 0
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)
typedef long max_align_t;
#endif
