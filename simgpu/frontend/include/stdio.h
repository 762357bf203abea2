/* simgpu: <stdio.h> for NVRTC: device code has printf only, which NVRTC declares itself */
#ifndef SIMGPU_STDIO_H
#define SIMGPU_STDIO_H
#endif
