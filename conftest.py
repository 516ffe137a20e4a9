"""Root pytest configuration: run the numpydoc examples of la_graph as doctests.

The GPU engine module imports CuPy and a CUDA device at import time, so its
doctests are collected only where that works.
"""

import importlib.util

collect_ignore = ["benchmarks"]
if importlib.util.find_spec("cupy") is None:
    collect_ignore.append("la_graph/engines/gpu.py")
