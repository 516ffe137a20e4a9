"""la_graph's benchmark assets: native GPU baselines (``native/``) and committed results (``results/``).

The harness itself is ``la_graph.bench`` (run it with ``la-graph bench``; see README.md here).
"""
