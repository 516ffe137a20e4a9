"""Root pytest configuration: run the numpydoc examples of la_graph as doctests.

The GPU engine checks for CuPy and a CUDA device when it is imported, so its
doctests are collected only where that import works.
"""

collect_ignore = ["benchmarks"]  # scripts and records; the harness is la_graph.bench
collect_ignore_glob = []
try:
    import la_graph.engines.gpu  # noqa: F401
except ImportError:  # no CuPy, or CuPy without a usable device (EngineUnavailable)
    collect_ignore_glob.append("la_graph/engines/gpu*")
    collect_ignore_glob.append("la_graph/bench/native")  # the native CUDA baselines run on CuPy too
