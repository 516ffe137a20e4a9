"""Native CUDA baselines the GPU engine is measured against (loaded with ``cupy.RawModule``).

Written from the research seeds' descriptions (``/work/shared/seeds``):

=============  =====================  ==============================================
algorithm      module / kernel file   after
=============  =====================  ==============================================
``bfs``        ``queue_bfs``          the IIT report's queue BFS (atomic claim + atomicAdd queue)
``sssp``       ``harish_sssp``        Harish & Narayanan SSSP, corrected (IIT report 4.2)
``apsp``       ``blocked_fw``         blocked Floyd–Warshall (Katz & Kider; IIT report 5.3)
``msf``        ``boruvka``            Borůvka over an edge list (CMU 15-618 report)
=============  =====================  ==============================================

``la_graph.bench`` uses :func:`prepare` (device copies of a graph, outside the timed
region) and :data:`ALGORITHMS` (``algo -> case(prepared, G, sources)`` returning
``(call, to_output)``, or ``None`` where the baseline does not apply).  Each module has a
``selftest()`` against scipy: ``python -m la_graph.bench.native.selftest`` on a GPU machine.
The published best codes (ECL-CC, ECL-MIS, ECL-MST, ECL-SCC, ECL-APSP) are not ours to
ship: the peer ``ecl`` fetches, builds and runs them (:mod:`la_graph.bench.external`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ._loader import HERE, THREADS, blocks, load  # noqa: F401 - la_graph.bench.native.load ... as before
from .blocked_fw import blocked_fw
from .boruvka import boruvka
from .harish_sssp import harish_sssp
from .queue_bfs import queue_bfs


class Prepared:
    """Device copies of a ``la_graph.Graph`` for the baselines, made on first use (int32 CSR)."""

    def __init__(self, G):
        if max(G.n, G.nnz) >= 2**31:
            raise ValueError(f"native baselines take int32 graphs; n={G.n}, nnz={G.nnz}")
        self.G = G

    @cached_property
    def csr(self):
        import cupy as cp

        return (cp.asarray(np.asarray(self.G.indptr, np.int32)), cp.asarray(np.asarray(self.G.indices, np.int32)))

    @cached_property
    def weights(self):
        """float64 edge weights in CSR order (1.0 when unweighted)."""
        import cupy as cp

        w = self.G.weights if self.G.weighted else np.ones(self.G.nnz)
        return cp.asarray(np.asarray(w, np.float64))

    @cached_property
    def edge_list(self):
        """Host ``(u, v, w)`` with ``u < v`` (one entry per undirected edge, sorted by u) and device
        ``(eu int32, ev int32, ew float32)``."""
        import cupy as cp

        rows, cols = self.G.edges()
        keep = rows < cols
        w = self.G.weights[keep] if self.G.weighted else np.ones(int(keep.sum()))
        host = (rows[keep].astype(np.int64), cols[keep].astype(np.int64), np.asarray(w, np.float64))
        dev = (cp.asarray(host[0], cp.int32), cp.asarray(host[1], cp.int32), cp.asarray(host[2], cp.float32))
        return host, dev


def prepare(G):
    return Prepared(G)


def _bfs(P, G, sources):
    indptr, indices = P.csr
    return (lambda: [queue_bfs(indptr, indices, s)[1] for s in sources],
            lambda r: np.vstack([p.get().astype(np.int64) for p in r]))


def _sssp(P, G, sources):
    if G.weighted and float(G.weights.min(initial=0.0)) < 0:
        return None
    indptr, indices = P.csr
    w = P.weights
    return (lambda: [harish_sssp(indptr, indices, w, s) for s in sources],
            lambda r: (np.vstack([d.get() for d in r]), None))


def _apsp(P, G, sources):
    if G.weighted and float(G.weights.min(initial=0.0)) < 0:
        return None
    indptr, indices = P.csr
    w = P.weights if G.weighted else None
    return (lambda: blocked_fw(indptr, indices, w, G.n), lambda D: D.get()[: G.n, : G.n].astype(np.float64))


def _msf(P, G, sources):
    if G.directed:
        return None
    (hu, hv, hw), (eu, ev, ew) = P.edge_list

    def out(mask):
        m = mask.get().astype(bool)
        return hu[m], hv[m], float(hw[m].sum())

    return (lambda: boruvka(eu, ev, ew, G.n), out)


ALGORITHMS = {"bfs": _bfs, "sssp": _sssp, "apsp": _apsp, "msf": _msf}
