"""The distributed engine: the operator interface over a Dask cluster.

A matrix is an ``s x s`` grid of blocks, each a matrix of a *local* engine (the
CPU engine by default; the GPU engine on CUDA workers) held by one Dask
worker; a vector is ``s`` segments aligned with the block rows and columns,
each held by the worker of its diagonal block.  Rows and columns are permuted
once, pseudo-randomly (:mod:`.layout`), so that hubs spread over the grid.
The algorithms run unchanged: every primitive is carried out block by block --

* ``mxv``: each block ``(i, j)`` multiplies its vector segment ``j`` (the
  output's mask applied already), and the partial results of block row ``i`` are
  reduced with the semiring's monoid where output segment ``i`` lives (``vxm``
  alike along block columns, ``mxm`` gathers row ``i`` of A and column ``j`` of
  B where output block ``(i, j)`` lives); positional multiplies (``secondi`` ...)
  report global vertex ids;
* ``ewise_*``, ``apply``, ``select``, ``assign`` and ``reduce`` segment by
  segment, where the segments live;
* ``extract`` and ``scatter`` route requested ids to the segments holding them.

Between GPU workers, each on a GPU of its own, ``mxv`` and ``vxm`` move their
vector segments and partial results over NCCL instead of through Dask
(``exchange="nccl"``, the default there; :mod:`.exchange`): one collective task
per worker and product.

Fused steps of the local engines do not run: each step runs as its algebra,
and the local engines' primitives do the work -- except in SPMD runs on CPU
workers, where BFS's search and connected components' labels have fused forms
over the ranks' own blocks (:mod:`.fused`).  CPU worker processes exchange
over TCP connections of their own (``exchange="tcp"``, their default), which
carry SPMD runs as NCCL does between GPU workers.

Driven from the client, every primitive costs a round trip through the Dask
scheduler.  :meth:`DaskEngine.run` runs the algorithm on the workers instead,
SPMD: ``E.run(lg.bfs, G, 0)`` runs ``lg.bfs`` on every worker at once, each
with an SPMD engine of its own over the same blocks and segments, which
carries each task out on the spot and moves the values it needs point to
point over the exchange (:mod:`.spmd`, :mod:`.transport`); the client receives
rank 0's result.

Objects are handles to Dask futures; operations return as soon as their tasks
are submitted, and whatever asks for a value (``nvals``, ``reduce``,
``to_numpy``...) waits for the work it depends on.  A worker lost while the
engine waits ends the computation with :class:`~la_graph.exceptions.WorkerLost`
naming the worker; a graph whose blocks do not fit the workers' memory limits
is refused with :class:`~la_graph.exceptions.OutOfMemory`, naming the bytes per
worker it needs.

Set-up, first match wins: ``use_engine("dask", client=...)``,
``use_engine("dask", address="tcp://...")``, the ``LA_GRAPH_DASK_SCHEDULER``
environment variable (a scheduler address), and finally a
:class:`distributed.LocalCluster` of up to four single-threaded worker
processes on this machine.  See ``docs/scaling.md``.

Examples
--------
>>> import la_graph as lg
>>> from distributed import Client, LocalCluster
>>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
>>> client = Client(cluster)
>>> G = lg.generators.path(6)
>>> with lg.use_engine("dask", client=client) as E:
...     E.grid
...     lg.bfs(G, 0).level.tolist()
2
[0, 1, 2, 3, 4, 5]
>>> client.close(); cluster.close()
"""


from __future__ import annotations

from ...exceptions import EngineUnavailable

try:        # the dask engine needs both: the registry turns this error into its install hint
    import dask  # noqa: F401
    import distributed  # noqa: F401
except ImportError as exc:  # pragma: no cover
    raise EngineUnavailable(f"the dask engine needs dask and distributed ({exc}); "
                            "install them with: pip install 'la_graph[dask]'") from exc

from ...exceptions import LatencyWarning  # noqa: E402 - where it lived first; la_graph.exceptions is its home
# (SCHEDULER_ENV, UNGUARDED_MAIN, client_error, Placement and OTHER_PLACEMENT: importable from here as before)
from .cluster import SCHEDULER_ENV, UNGUARDED_MAIN, client_error, local_cluster  # noqa: E402, F401
from .engine import DaskEngine  # noqa: E402
from .graph import DistributedGraph  # noqa: E402
from .layout import Layout  # noqa: E402
from .loading import read_edges, rmat  # noqa: E402
from .objects import OTHER_PLACEMENT, DMatrix, DVector, Placement  # noqa: E402, F401
from .operators import LATENCY_BOUND  # noqa: E402

__all__ = ["DaskEngine", "DVector", "DMatrix", "Layout", "local_cluster", "DistributedGraph", "read_edges", "rmat",
           "LatencyWarning", "LATENCY_BOUND"]
