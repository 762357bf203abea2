"""Kernel source -> PTX -> parsed module."""
