"""simgpu: run real CUDA kernels on a simulated NVIDIA GPU."""
