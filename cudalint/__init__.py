"""cudalint: static analysis for CUDA kernels, with costs in the hardware's own units."""

__version__ = "0.1.0"
