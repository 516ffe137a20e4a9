"""Native CUDA baselines the GPU engine is measured against (loaded with cupy.RawModule)."""
