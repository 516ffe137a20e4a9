"""Benchmark suite: la_graph against its peers, same machine, same run, checked results, JSON out.

Run it with ``la-graph bench`` (see ``benchmarks/README.md``); render records
into ``docs/benchmarks.md`` with ``la-graph bench --report FILES``.
:mod:`~la_graph.bench.graphs` names the graphs, :mod:`~la_graph.bench.cases`
the algorithms and their default graphs, :mod:`~la_graph.bench.peers` the
tools compared, :mod:`~la_graph.bench.harness` times and checks,
:mod:`~la_graph.bench.targets` holds the issues' targets and
:mod:`~la_graph.bench.report` writes the page and plots.
"""
