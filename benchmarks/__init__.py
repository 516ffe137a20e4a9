"""la_graph's benchmarks (run with ``python -m benchmarks.run``)."""
