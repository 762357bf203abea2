/* simgpu: <assert.h> for NVRTC: a failed device assert() stops the kernel, as CUDA's does */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
#endif
