"""What is measured: per algorithm, how la_graph is called, how results are checked, default graphs.

Each :class:`Algorithm` knows

* ``function``: the public la_graph function it measures (looked up at run
  time: one that has not landed yet is skipped with a note);
* ``settings(G)``: the sources it runs from (a BFS from 16 random vertices
  with out-edges on R-MAT and web graphs, from vertex 0 on grids and roads, ...);
* how la_graph is called and how each output (ours and the peers') is put in
  the form its checker in :mod:`la_graph.verify` takes, and the check itself;
* ``work(G, out)``: the edges the run covered (for edges per second);
* its default graphs per engine (:data:`SUITES`), from the issues' targets.

Outputs handed to the checkers: ``bfs`` parents (k, n); ``cc``/``scc`` labels
(n,); ``sssp`` (dist (k, n), parent (k, n) or None); ``apsp`` dist (n, n);
``msf`` (u, v, total weight); ``mis`` members; ``reachability`` bool (k, n);
``pagerank`` ranks (n,); ``tc`` the total; ``lcc`` coefficients (n,); ``bc``
centralities (n,) from the setting's sources, scaled as a sample (NetworkX);
``cdlp`` labels (n,); ``kcore`` core numbers (n,); ``hits`` (hubs, authorities); ``eigenvector``,
``katz`` centralities (n,) (a peer's exact eigenvector as ``SimpleNamespace(exact=x)``);
``closeness``/``harmonic`` the sampled vertices' values; ``ebc`` ``(u, v, score)`` in ``G.edges()``'
order; ``jaccard`` ``(u, v, score)`` of every pair with a common neighbour; ``trussness`` ``(u, v,
truss)``; ``ktruss`` ``(graph, vertices)``; ``coloring`` colours (n,); ``louvain``/``leiden`` labels
(n,) (a peer's as ``SimpleNamespace(labels=..., peer=True)``: checked well formed, not locally
optimal); ``modularity`` the value.

Settings with ``params["fixed"]`` (HITS, Katz, eigenvector and PageRank, "20 iterations") run
exactly :data:`ITERATIONS` steps (a tolerance no step meets) and are checked against the same
steps redone with scipy: the time of an iteration, compared across algorithms (issue 40).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.sparse import csgraph

from .. import verify
from .._random import sample_sources
from ..exceptions import ConvergenceError, VerificationError
from .graphs import family
from .peers import canonical, wedges


@dataclass
class Setting:
    """One configuration of an algorithm on one graph: its sources (or none)."""

    label: str = ""
    sources: list = field(default_factory=list)
    #: keyword arguments of the setting (e.g. Katz's alpha), read by la_graph's call and the peers'
    params: dict = field(default_factory=dict)
    #: la_graph alone (a setting no peer has: a fixed number of iterations)
    ours_only: bool = False


def host(x):
    """A device array (anything with ``.get()``, as CuPy arrays) or array_like -> numpy."""
    if x is None or isinstance(x, np.ndarray):
        return x
    get = getattr(x, "get", None)
    return np.asarray(get() if callable(get) and not isinstance(x, dict) else x)


def _random_sources(G, k, seed=1):
    cand = np.flatnonzero(G.out_degree > 0)
    if cand.size == 0:
        return [0] * k
    return [int(s) for s in np.random.default_rng(seed).choice(cand, k)]


def _vertex0_or_hub(G):
    """Vertex 0, or the highest-degree vertex when vertex 0 has no out-edges."""
    return 0 if G.n == 0 or G.out_degree[0] > 0 else int(np.argmax(G.out_degree))


def _reached_edges(G, reached_mask):
    """Edges out of the reached vertices (undirected edges counted once): the work of a traversal."""
    m = int(np.asarray(G.out_degree)[np.asarray(reached_mask)].sum())
    return m if G.directed else m // 2


#: families whose BFS runs from 16 random vertices (low diameter); others from vertex 0
_RANDOM_SOURCE_FAMILIES = {"rmat", "uniform", "er", "real"}
_HIGH_DIAMETER = ("usroads", "luxembourg", "rome", "delaunay", "road", "osm")


def _close(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape or not np.array_equal(np.isinf(a), np.isinf(b)):
        return False
    fin = np.isfinite(a)
    return bool(np.allclose(a[fin], b[fin], rtol=1e-9, atol=1e-9))


class Algorithm:
    name = ""
    function = ""
    title = ""
    #: "directed" / "undirected" when the algorithm needs one kind of graph
    needs = None
    #: the modifier a bare graph name gets for this algorithm (e.g. weights)
    default_modifier = None
    #: does the time per source mean anything (traversals)
    per_source = False

    def settings(self, G, name):
        return [Setting()]

    def resolve(self):
        """The la_graph function, or ``None`` if it has not landed."""
        import la_graph

        return getattr(la_graph, self.function, None)

    def ours(self, fn, G, setting, engine, device):
        raise NotImplementedError

    def ours_output(self, raw):
        return host(raw)

    def check(self, G, setting, out):
        raise NotImplementedError

    def work(self, G, setting, out):
        return G.nedges

    def summary(self, G, setting, out):
        return {}

    def same(self, out, verified):
        """Whether ``out`` equals an output already verified on the same input (outputs that are
        unique, as canonical labels or distances, need not be checked twice); False when unsure."""
        return False

    def applies(self, G):
        """``None``, or why this algorithm does not run on ``G``."""
        if self.needs == "undirected" and G.directed:
            return f"{self.name} needs an undirected graph (add :sym to the name)"
        return None


def _device_kw(fn, device):
    """``output="device"`` where the function supports it (GPU compute without the download)."""
    if device and "output" in inspect.signature(fn).parameters:
        return {"output": "device"}
    return {}


class BFS(Algorithm):
    name, function, title, per_source = "bfs", "bfs", "Breadth-first search (parents)", True

    def settings(self, G, name):
        fam = family(name)
        if fam in _RANDOM_SOURCE_FAMILIES and not any(h in name for h in _HIGH_DIAMETER):
            # and one source: vertex 0, or the hub where vertex 0 has no out-edges (R-MAT's scrambled ids
            # leave vertex 0 isolated in rmat22: a search from it timed nothing)
            one = Setting("source 0", [0]) if G.n and G.out_degree[0] > 0 else \
                Setting("hub source", [_vertex0_or_hub(G)])
            return [Setting("16 random sources", _random_sources(G, 16)), one]
        s = _vertex0_or_hub(G)
        return [Setting(f"source {s}", [s])]

    def ours(self, fn, G, setting, engine, device):
        kw = _device_kw(fn, device)
        return lambda: [fn(G, s, level=False, engine=engine, **kw) for s in setting.sources]

    def ours_output(self, raw):
        return np.vstack([host(r.parent) for r in raw])

    @staticmethod
    def _result(out):
        # parents (k, n), or levels given as SimpleNamespace(level=..., parent=None) by a peer without parents
        return out if isinstance(out, SimpleNamespace) else SimpleNamespace(level=None, parent=out)

    def check(self, G, setting, out):
        verify.check_bfs(G, setting.sources, self._result(out))

    def _reached(self, out):
        r = self._result(out)
        return (r.parent if r.parent is not None else r.level) >= 0

    def work(self, G, setting, out):
        return sum(_reached_edges(G, m) for m in self._reached(out))

    def summary(self, G, setting, out):
        return {"reached": [int(np.count_nonzero(m)) for m in self._reached(out)]}


class CC(Algorithm):
    name, function, title = "cc", "connected_components", "Connected components"

    def ours(self, fn, G, setting, engine, device):
        kw = _device_kw(fn, device)
        return lambda: fn(G, engine=engine, **kw)

    def check(self, G, setting, labels):
        verify.check_cc(G, labels)

    def summary(self, G, setting, labels):
        return {"components": int(np.unique(labels).size)}

    def same(self, labels, verified):
        return np.array_equal(np.asarray(labels), np.asarray(verified))


class SCC(CC):
    name, function, title = "scc", "strongly_connected_components", "Strongly connected components"
    default_modifier = "dir"

    def check(self, G, setting, labels):
        verify.check_scc(G, labels)


class SSSP(Algorithm):
    name, function, title, per_source = "sssp", "sssp", "Single-source shortest paths", True
    default_modifier = "w1-255"

    def settings(self, G, name):
        s = _vertex0_or_hub(G)
        return [Setting(f"source {s}", [s])]

    def ours(self, fn, G, setting, engine, device):
        return lambda: [fn(G, s, engine=engine) for s in setting.sources]

    def ours_output(self, raw):
        par = [host(r.parent) for r in raw]
        return (np.vstack([host(r.distance) for r in raw]),
                None if any(p is None for p in par) else np.vstack(par))

    def check(self, G, setting, out):
        dist, parent = out
        verify.check_sssp(G, setting.sources, dist, parent)

    def work(self, G, setting, out):
        return sum(_reached_edges(G, np.isfinite(d)) for d in out[0])

    def summary(self, G, setting, out):
        return {"reached": [int(np.count_nonzero(np.isfinite(d))) for d in out[0]]}

    def same(self, out, verified):
        return out[1] is None and _close(out[0], verified[0])


class APSP(Algorithm):
    name, function, title = "apsp", "apsp", "All-pairs shortest paths"
    #: the (n, n) result of more vertices would not fit a benchmark machine's memory
    max_n = 10_000

    def applies(self, G):
        if G.n > self.max_n:
            return f"{G.n:,} vertices > {self.max_n:,}: an n x n result"
        return None

    def ours(self, fn, G, setting, engine, device):
        kw = _device_kw(fn, device)
        return lambda: fn(G, engine=engine, **kw)

    def check(self, G, setting, D):
        # check_sssp's edge checks take (sources x edges) memory: a few sources at a time
        step = max(1, 20_000_000 // max(G.nnz, 1))
        for lo in range(0, G.n, step):
            verify.check_sssp(G, np.arange(lo, min(G.n, lo + step)), np.asarray(D)[lo:lo + step])

    def work(self, G, setting, D):
        return None

    def same(self, D, verified):
        return _close(D, verified)


class MSF(Algorithm):
    name, function, title = "msf", "minimum_spanning_forest", "Minimum spanning forest"
    needs = "undirected"
    default_modifier = "w1-999"

    def ours(self, fn, G, setting, engine, device):
        kw = _device_kw(fn, device)
        return lambda: fn(G, engine=engine, **kw)

    def ours_output(self, r):
        return host(r.u), host(r.v), float(r.total_weight)

    def check(self, G, setting, out):
        u, v, total = out
        verify.check_msf(G, (np.asarray(u), np.asarray(v)), total)

    def summary(self, G, setting, out):
        return {"forest_edges": int(len(out[0])), "total_weight": out[2]}


class MIS(Algorithm):
    name, function, title = "mis", "maximal_independent_set", "Maximal independent set"
    needs = "undirected"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, seed=0, engine=engine)

    def check(self, G, setting, members):
        verify.check_mis(G, members)

    def summary(self, G, setting, members):
        m = np.asarray(members)
        return {"size": int(np.count_nonzero(m) if m.dtype == bool else np.unique(m).size)}


class Reachability(Algorithm):
    name, function, title, per_source = "reachability", "reachability", "Multi-source reachability", True
    default_modifier = "dir"

    def settings(self, G, name):
        return [Setting(f"{k} sources", _random_sources(G, k, seed=k)) for k in (16, 64)]

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, np.asarray(setting.sources), engine=engine)

    def bfs_each(self, G, setting, engine, device):
        """The baseline of the reachability issue: one la_graph BFS per source."""
        import la_graph

        kw = _device_kw(la_graph.bfs, device)
        return (lambda: [la_graph.bfs(G, s, parent=False, engine=engine, **kw) for s in setting.sources],
                lambda raw: np.vstack([host(r.level) >= 0 for r in raw]))

    def check(self, G, setting, R):
        R = np.asarray(R, bool)
        checker = getattr(verify, "check_reachability", None)
        if checker is not None:
            checker(G, setting.sources, R)
            return
        from scipy.sparse import csgraph

        d = csgraph.shortest_path(G.to_scipy(), directed=True, unweighted=True, indices=setting.sources)
        bad = np.argwhere(np.isfinite(np.atleast_2d(d)) != R)
        if bad.size:
            i, v = bad[0]
            raise VerificationError(f"reach[{i}, {v}] = {R[i, v]}, expected {not R[i, v]}")

    def work(self, G, setting, R):
        return sum(_reached_edges(G, r) for r in np.asarray(R, bool))

    def same(self, R, verified):
        return np.array_equal(np.asarray(R, bool), np.asarray(verified, bool))


class PageRank(Algorithm):
    name, function, title = "pagerank", "pagerank", "PageRank (damping 0.85, tolerance 1e-6 as NetworkX)"

    def settings(self, G, name):
        # and a fixed number of iterations (Graphalytics' rule): the per-iteration yardstick of issue 40
        return [Setting(), Setting(f"{ITERATIONS} iterations", params={"fixed": True}, ours_only=True)]

    def ours(self, fn, G, setting, engine, device):
        if setting.params.get("fixed"):
            return lambda: fn(G, max_iter=ITERATIONS, variant="graphalytics", engine=engine)
        return lambda: fn(G, engine=engine)

    def check(self, G, setting, ranks):
        if setting.params.get("fixed"):
            verify.check_pagerank(G, np.asarray(ranks, np.float64), max_iter=ITERATIONS, variant="graphalytics")
            return
        verify.check_pagerank(G, np.asarray(ranks, np.float64))


class TC(Algorithm):
    name, function, title = "tc", "triangle_count", "Triangle counting (the total)"
    needs = "undirected"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, engine=engine)

    def ours_output(self, raw):
        return int(raw)

    def check(self, G, setting, total):
        verify.check_triangles(G, total=int(total))

    def summary(self, G, setting, total):
        return {"triangles": int(total)}

    def same(self, total, verified):
        return int(total) == int(verified)


class LCC(Algorithm):
    name, function, title = "lcc", "local_clustering_coefficient", "Local clustering coefficient"
    needs = "undirected"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, engine=engine)

    def check(self, G, setting, lcc):
        verify.check_lcc(G, np.asarray(lcc, np.float64))


class BC(Algorithm):
    name, function, title = "bc", "betweenness_centrality", "Betweenness centrality (64 sampled sources)"
    per_source = True

    def settings(self, G, name):
        cand = np.flatnonzero(G.out_degree > 0)
        k = min(64, cand.size)
        srcs = np.random.default_rng(64).choice(cand, k, replace=False) if k else np.zeros(0, np.int64)
        return [Setting(f"{k} sources", sorted(int(s) for s in srcs))]

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, sources=setting.sources, engine=engine)

    def check(self, G, setting, bc):
        verify.check_betweenness(G, np.asarray(bc, np.float64), sources=setting.sources)

    def applies(self, G):
        return None if G.nnz else "no edges"


class CDLP(Algorithm):
    name, function, title = "cdlp", "label_propagation", "Label propagation (Graphalytics CDLP, 10 iterations)"
    iterations = 10

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, max_iter=self.iterations, engine=engine)

    def check(self, G, setting, labels):
        verify.check_cdlp(G, np.asarray(labels), self.iterations)

    def summary(self, G, setting, labels):
        return {"communities": int(np.unique(np.asarray(labels)).size)}

    def same(self, labels, verified):
        return np.array_equal(np.asarray(labels), np.asarray(verified))


class KCore(CDLP):
    name, function, title = "kcore", "core_number", "Core numbers (k-core decomposition)"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, engine=engine)

    def check(self, G, setting, core):
        verify.check_core_number(G, np.asarray(core))

    def summary(self, G, setting, core):
        return {"max_core": int(np.asarray(core).max(initial=0))}


# ---------------------------------------------------------------- issue 40: centralities, truss, colouring, communities
#: the steps of the fixed-iteration settings ("20 iterations")
ITERATIONS = 20
#: a tolerance no step meets: the run takes ITERATIONS steps and ends in ConvergenceError, whose result is kept
_NO_STOP = 1e-300


def _fixed_steps(fn, G, engine, **kw):
    """``fn`` run for exactly :data:`ITERATIONS` steps: the last iterate (a step that changes nothing
    at all, an exact fixed point, ends the run early with the same answer)."""
    try:
        return fn(G, max_iter=ITERATIONS, tol=_NO_STOP, engine=engine, **kw)
    except ConvergenceError as exc:
        return exc.result


def _adjacency(G):
    """``(A, A')`` as scipy CSR float64: ``G``'s weights when it has them (the algorithms' default), else ones."""
    A = G.to_scipy().astype(np.float64).tocsr()
    if not G.weighted:
        A.data[:] = 1.0
    return A, A.T.tocsr()


def _same_vector(name, got, want, rtol=1e-9):
    got = np.asarray(got, np.float64)
    if got.shape != want.shape:
        raise VerificationError(f"{name} has shape {got.shape}, expected {want.shape}")
    bad = np.flatnonzero(~(np.abs(got - want) <= rtol * max(1.0, float(np.abs(want).max(initial=0)))))
    if bad.size:
        v = int(bad[0])
        raise VerificationError(f"{name}[{v}] = {got[v]!r}, expected {want[v]!r} after {ITERATIONS} steps")


def _sum1(x):
    x = np.asarray(x, np.float64)
    t = x.sum()
    return x / t if t > 0 else x


def _leading_eigen(M):
    """``(lambda, x)``: the largest real eigenvalue of the non-negative matrix ``M`` and its eigenvector
    (non-negative, unit L2 norm), by numpy (small) or ARPACK."""
    n = M.shape[0]
    if n <= 2000:
        w, V = np.linalg.eig(M.toarray())
        i = int(np.argmax(w.real))
        lam, x = float(w[i].real), V[:, i].real
    else:
        w, V = spla.eigs(M, k=1, which="LR", tol=1e-12, maxiter=20 * n)
        lam, x = float(w[0].real), V[:, 0].real
    x = np.abs(x)
    return lam, x / np.linalg.norm(x)


def _spectral_radius(G):
    """The largest eigenvalue of ``A`` (ARPACK to 1e-3), or the largest degree (a bound) if ARPACK fails."""
    _, AT = _adjacency(G)
    if G.n <= 2000:
        return max(0.0, float(np.linalg.eigvals(AT.toarray()).real.max(initial=0.0)))
    try:
        return max(0.0, float(spla.eigs(AT, k=1, which="LR", tol=1e-3, return_eigenvectors=False)[0].real))
    except spla.ArpackNoConvergence:
        return float(max(np.diff(AT.indptr).max(initial=0), np.diff(AT.tocsc().indptr).max(initial=0)))


def _bipartite(G):
    """Whether the undirected ``G`` is bipartite: its bipartite double cover (``(v, side)``, an edge ``u - v``
    joining ``(u, 0) - (v, 1)`` and ``(u, 1) - (v, 0)``) has twice its connected components."""
    A = G.to_scipy()
    cover = sp.bmat([[None, A], [A, None]], format="csr")
    return csgraph.connected_components(cover, directed=False)[0] == 2 * csgraph.connected_components(
        A, directed=False)[0]


#: past this many stored entries the power iterations' rows are checked by their equation (below), not by
#: the registered checkers' reference iteration or ARPACK (minutes on R-MAT 22's 64 M entries on the host)
EQUATION_MIN_NNZ = 20_000_000


def _dominant(name, M, x, tol=1e-6, steps=30):
    """``x`` is a dominant eigenvector of the non-negative operator ``M`` (to within what a power iteration
    stopped at ``tol`` leaves): non-negative, ``M x`` proportional to ``x`` (the two scaled to sum 1 differ by at
    most ``tol`` in L1 norm), and its Rayleigh quotient not below that of ``steps`` power iterations of
    ``M + I`` from all ones (which approach the largest eigenvalue from below): another eigenvector of a
    non-negative matrix fails there.  Returns ``M x``."""
    x = np.asarray(x, np.float64)
    n = M.shape[0]
    if x.shape != (n,) or not np.isfinite(x).all() or (x < 0).any() or x.sum() <= 0:
        raise VerificationError(f"{name} must be {n} finite non-negative values, not all zero")
    y = M @ x
    off = float(np.abs(_sum1(y) - _sum1(x)).sum())
    if off > tol:
        raise VerificationError(f"{name} is no eigenvector: M {name} and {name}, each scaled to sum 1, differ by "
                                f"{off:.3g} in L1 norm (allowed {tol:g})")
    z = np.ones(n) / np.sqrt(n)
    for _ in range(steps):
        z = M @ z + z
        z /= np.linalg.norm(z)
    q, qz = float(x @ y) / float(x @ x), float(z @ (M @ z))
    if q < qz * (1 - 1e-6):
        raise VerificationError(f"{name} is an eigenvector of eigenvalue {q:.6g}, below the {qz:.6g} that "
                                f"{steps} power iterations reach: not the dominant one")
    return y


class _PowerIteration(Algorithm):
    """The power iterations: to tolerance (checked by the registered checker), and :data:`ITERATIONS` steps
    (checked against the same steps in scipy; la_graph alone)."""

    def settings(self, G, name):
        return [Setting("to tolerance", params=self.params(G)),
                Setting(f"{ITERATIONS} iterations", params={**self.params(G), "fixed": True}, ours_only=True)]

    def params(self, G):
        return {}

    def call_kw(self, setting):
        return {k: v for k, v in setting.params.items() if k != "fixed"}

    def ours(self, fn, G, setting, engine, device):
        kw = self.call_kw(setting)
        if setting.params.get("fixed"):
            return lambda: _fixed_steps(fn, G, engine, **kw)
        return lambda: fn(G, engine=engine, **kw)

    def applies(self, G):
        return None if G.nnz else "no edges"


class HITS(_PowerIteration):
    name, function, title = "hits", "hits", "HITS hubs and authorities (tolerance 1e-8 as NetworkX)"

    def applies(self, G):
        if not G.directed and _bipartite(G):
            return "a bipartite undirected graph: A's largest singular value is double, the hubs not unique"
        return super().applies(G)

    def ours_output(self, raw):
        return host(raw[0]), host(raw[1])

    def check(self, G, setting, out):
        hubs, auth = out
        if not setting.params.get("fixed"):
            if G.nnz <= EQUATION_MIN_NNZ:
                verify.check_hits(G, hubs, auth)
                return
            A, AT = _adjacency(G)          # the hubs: the dominant eigenvector of A A'; the authorities: A' h
            _dominant("hubs", spla.LinearOperator(A.shape, matvec=lambda v: A @ (AT @ v), dtype=np.float64), hubs)
            off = float(np.abs(_sum1(AT @ np.asarray(hubs, np.float64)) - _sum1(auth)).sum())
            if off > 1e-6:
                raise VerificationError(f"authorities differ from A' hubs (each scaled to sum 1) by {off:.3g} "
                                        "in L1 norm")
            return
        A, AT = _adjacency(G)
        h = np.ones(G.n)
        for _ in range(ITERATIONS):
            a = AT @ h
            a = a / a.max() if a.max() > 0 else a
            h = A @ a
            h = h / h.max() if h.max() > 0 else h
        _same_vector("hubs", hubs, _sum1(h))
        _same_vector("authorities", auth, _sum1(a))


class Eigenvector(_PowerIteration):
    name, function, title = "eigenvector", "eigenvector_centrality", \
        "Eigenvector centrality (tolerance 1e-6 as NetworkX, up to 1,000 iterations)"

    def params(self, G):
        return {"max_iter": 1000}

    def call_kw(self, setting):
        kw = super().call_kw(setting)
        return {} if setting.params.get("fixed") else kw

    def ours_output(self, raw):
        return host(raw)

    def check(self, G, setting, x):
        if isinstance(x, SimpleNamespace):     # a peer's eigenvector solved to its own precision
            _, want = _leading_eigen(_adjacency(G)[1])
            got = np.asarray(x.exact, np.float64)
            bad = np.flatnonzero(~(np.abs(got - want) <= 1e-6)) if got.shape == want.shape else [0]
            if len(bad):
                v = int(bad[0])
                raise VerificationError(f"x[{v}] = {got[v] if got.shape == want.shape else got.shape!r}, "
                                        f"the leading eigenvector has {want[v]!r} (within 1e-06)")
            return
        if not setting.params.get("fixed"):
            if G.nnz <= EQUATION_MIN_NNZ:
                verify.check_eigenvector(G, x, max_iter=setting.params["max_iter"])
            else:   # NetworkX's rule stops at an L1 step below n tol (1e-6) of the unit vector: as sums to 1
                x = np.asarray(x, np.float64)
                _dominant("x", _adjacency(G)[1], x, tol=2 * G.n * 1e-6 / max(float(np.abs(x).sum()), 1e-300))
            return
        _, AT = _adjacency(G)
        y = np.ones(G.n) / G.n
        for _ in range(ITERATIONS):
            y = AT @ y + y
            y /= np.linalg.norm(y)
        _same_vector("x", x, y)


class Katz(_PowerIteration):
    name, function, title = "katz", "katz_centrality", "Katz centrality (alpha = 0.5 / largest eigenvalue)"

    def params(self, G):
        lam = _spectral_radius(G)
        # NetworkX's default 0.1 diverges once the largest eigenvalue passes 10 (R-MAT's do)
        return {"alpha": min(0.1, 0.5 / lam) if lam > 0 else 0.1}

    def ours_output(self, raw):
        return host(raw)

    #: above this many vertices the check is Katz's equation itself, not scipy's sparse LU of ``I - alpha A'``
    #: (whose fill-in on R-MAT 16 already takes minutes and gigabytes)
    solve_max_n = 5_000

    def check(self, G, setting, x):
        alpha = setting.params["alpha"]
        if not setting.params.get("fixed"):
            if G.n <= self.solve_max_n:
                verify.check_katz(G, x, alpha)
            else:
                self.check_equation(G, np.asarray(x, np.float64), alpha)
            return
        _, AT = _adjacency(G)
        y = np.zeros(G.n)
        for _ in range(ITERATIONS):
            y = alpha * (AT @ y) + 1.0
        _same_vector("x", x, y)      # the ConvergenceError's iterate: not yet normalized

    @staticmethod
    def check_equation(G, x, alpha, tol=1e-6):
        """``x`` (unit L2 norm) is a multiple ``c x*`` of the solution of ``x* = alpha A' x* + 1``: the residual
        ``x - alpha A' x`` is ``c`` at every vertex, to within what NetworkX's stopping rule leaves (a last
        step of L1 norm below ``n tol`` before normalization: ``n tol c`` after; twice that passes)."""
        _, AT = _adjacency(G)
        if x.shape != (G.n,) or not np.isfinite(x).all() or (x < 0).any():
            raise VerificationError(f"x must be {G.n} finite non-negative values")
        r = x - alpha * (AT @ x)
        c = float(np.median(r))
        off = float(np.abs(r - c).sum())
        if not (c > 0 and off <= 2 * G.n * tol * c):
            raise VerificationError(f"x is not a Katz vector for alpha = {alpha:g}: x - alpha A' x should be one "
                                    f"constant c = {c:.6g}, but differs from it by {off:.3g} in L1 norm "
                                    f"(allowed 2 n tol c = {2 * G.n * tol * c:.3g})")


class Closeness(Algorithm):
    """Closeness centrality of 1,024 sampled vertices (issue 40: "k = 1,024 sampled sources against igraph's
    exact closeness on those vertices' rows"), without Wasserman and Faust's scaling: igraph's normalized
    closeness, ``(r - 1) / sum of distances`` over the ``r`` vertices that reach the vertex."""

    name, function, title = "closeness", "closeness_centrality", \
        "Closeness centrality of 1,024 sampled vertices (wf_improved=False, igraph's normalized closeness)"
    per_source = True
    k = 1024
    #: the check redoes this many of the sampled vertices' searches (scipy Dijkstra: slow on big graphs)
    checked_rows = 64
    harmonic = False

    def settings(self, G, name):
        k = min(self.k, G.n)
        return [Setting(f"{k} sources", [int(s) for s in sample_sources(G.n, k, seed=self.k)])]

    def ours(self, fn, G, setting, engine, device):
        kw = {} if self.harmonic else {"wf_improved": False}
        return lambda: fn(G, sources=np.asarray(setting.sources, np.int64), engine=engine, **kw)

    def check(self, G, setting, values):
        values, srcs = np.asarray(values, np.float64), np.asarray(setting.sources, np.int64)
        if values.shape != srcs.shape:
            raise VerificationError(f"{values.shape} values for {srcs.size} sampled vertices")
        rows = np.unique(np.linspace(0, srcs.size - 1, min(srcs.size, self.checked_rows)).astype(np.int64))
        verify.check_closeness(G, values[rows], harmonic=self.harmonic, wf_improved=False, sources=srcs[rows])

    def work(self, G, setting, values):
        return G.nedges * len(setting.sources)

    def applies(self, G):
        return None if G.n else "no vertices"


class Harmonic(Closeness):
    name, function, title = "harmonic", "harmonic_centrality", "Harmonic centrality of 1,024 sampled vertices"
    harmonic = True


class EdgeBC(BC):
    name, function, title = "ebc", "edge_betweenness_centrality", "Edge betweenness centrality (64 sampled sources)"

    def ours_output(self, r):
        return host(r.u), host(r.v), host(r.score)

    def check(self, G, setting, out):
        u, v, score = out
        verify.check_edge_betweenness(G, SimpleNamespace(u=np.asarray(u), v=np.asarray(v), score=np.asarray(score)),
                                      sources=setting.sources)


class Jaccard(Algorithm):
    name, function, title = "jaccard", "similarity", "Jaccard similarity of every pair with a common neighbour"
    #: pairs beyond which the check looks at a sample of pairs and rows
    check_all_pairs = 2_000_000
    #: graphs with more wedges (a bound on the pairs) are not run: R-MAT 16's 621 M would give ~150 M pairs
    max_wedges = 300_000_000

    def applies(self, G):
        w = wedges(G)
        if w > self.max_wedges:
            return f"{w:,} wedges > {self.max_wedges:,}: every pair's score would not fit a benchmark run"
        return None

    def settings(self, G, name):
        return [Setting("all distance-two pairs")]

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, metric="jaccard", engine=engine)

    def ours_output(self, r):
        return host(r.u), host(r.v), host(r.score)

    def check(self, G, setting, out):
        u, v, score = out
        sample = None if len(u) <= self.check_all_pairs else 100_000
        verify.check_similarity(G, u, v, score, metric="jaccard", complete=True, sample=sample)

    def work(self, G, setting, out):
        return None

    def summary(self, G, setting, out):
        return {"pairs": int(len(out[0]))}


class Trussness(Algorithm):
    name, function, title = "trussness", "trussness", "Trussness of every edge"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, engine=engine)

    def ours_output(self, r):
        return host(r.u), host(r.v), host(r.truss)

    def check(self, G, setting, out):
        verify.check_trussness(G, *out)

    def summary(self, G, setting, out):
        return {"max_truss": int(np.asarray(out[2]).max(initial=2))}

    def same(self, out, verified):
        return all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(out, verified))


class KTruss(Algorithm):
    name, function, title = "ktruss", "k_truss", "k-truss subgraph (k = 4)"
    k = 4

    def settings(self, G, name):
        return [Setting(f"k = {self.k}", params={"k": self.k})]

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, setting.params["k"], engine=engine)

    def ours_output(self, r):
        return r.graph, host(r.vertices)

    def check(self, G, setting, out):
        verify.check_k_truss(G, setting.params["k"], out[0], out[1])

    def summary(self, G, setting, out):
        return {"vertices": int(len(out[1])), "edges": int(out[0].nedges)}


class Coloring(Algorithm):
    name, function, title = "coloring", "coloring", "Vertex colouring (Jones-Plassmann, seed 0)"

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, seed=0, engine=engine)

    def check(self, G, setting, colors):
        verify.check_coloring(G, np.asarray(colors))

    def summary(self, G, setting, colors):
        c = np.asarray(colors)
        return {"colors": int(c.max(initial=-1)) + 1}


def _modularity(G, labels):
    """The modularity of ``labels`` on an undirected ``G`` (NetworkX's definition), with numpy."""
    rows, cols = G.edges()
    w = np.asarray(G.weights, np.float64) if G.weighted else np.ones(rows.size)
    k = np.bincount(rows, w, G.n) + np.bincount(rows[rows == cols], w[rows == cols], G.n)  # a loop counts twice
    two_m = float(k.sum())
    if two_m == 0:
        return 0.0
    inside = float(w[labels[rows] == labels[cols]].sum() + w[rows == cols].sum())
    sigma = np.bincount(labels, k, G.n)
    return inside / two_m - float(sigma @ sigma) / two_m ** 2


class Louvain(Algorithm):
    """Communities by modularity (seed 0).  la_graph's labels are checked locally optimal (no single move
    gains); a peer's are checked well formed only (Louvain's moves of aggregated vertices leave no such
    guarantee), and every row reports its partition's modularity."""

    name, function, title = "louvain", "louvain", "Louvain communities (seed 0; modularity beside the time)"
    needs = "undirected"
    connected = False

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, seed=0, engine=engine)

    def check(self, G, setting, out):
        if isinstance(out, SimpleNamespace):
            verify.check_communities(G, out.labels, threshold=1.0, connected=self.connected and out.connected)
        else:
            verify.check_communities(G, np.asarray(out), connected=self.connected)

    def summary(self, G, setting, out):
        labels = np.asarray(out.labels if isinstance(out, SimpleNamespace) else out, np.int64)
        return {"communities": int(np.unique(labels).size), "modularity": round(_modularity(G, labels), 6)}


class Leiden(Louvain):
    name, function, title = "leiden", "leiden", "Leiden communities (seed 0; modularity beside the time)"
    connected = True


class Modularity(Algorithm):
    name, function, title = "modularity", "modularity", "Modularity of a partition (label propagation's)"
    needs = "undirected"

    def settings(self, G, name):
        import la_graph

        labels = canonical(host(la_graph.label_propagation(G, engine="cpu")))
        return [Setting("label propagation's partition", params={"communities": labels})]

    def ours(self, fn, G, setting, engine, device):
        return lambda: fn(G, setting.params["communities"], engine=engine)

    def ours_output(self, raw):
        return float(raw)

    def check(self, G, setting, q):
        verify.check_communities(G, setting.params["communities"], threshold=1.0, modularity=float(q))

    def summary(self, G, setting, q):
        return {"modularity": round(float(q), 6)}


ALGORITHMS = {a.name: a for a in (BFS(), CC(), SSSP(), APSP(), MSF(), SCC(), MIS(), Reachability(),
                                  PageRank(), TC(), LCC(), BC(), CDLP(), KCore(), HITS(), Eigenvector(), Katz(),
                                  Closeness(), Harmonic(), EdgeBC(), Jaccard(), Trussness(), KTruss(), Coloring(),
                                  Louvain(), Leiden(), Modularity())}

#: default graphs per suite, algorithm and engine: the graphs of the issues' targets, plus context
SUITES = {
    "targets": {
        "cpu": {
            "bfs": ["rmat20", "grid1000", "uk-2007-05", "usroads-48"],
            "cc": ["rmat20", "grid1000", "uk-2007-05", "usroads-48"],
            "sssp": ["rmat20:w1-255", "usroads-48:w1-255"],
            "apsp": ["er2700-850k:dir:w1-1000"],
            "msf": ["rmat20:w1-999", "uk-2007-05:sym:w1-999", "usroads-48:w1-999"],
            "scc": ["rmat20:dir", "uk-2007-05", "usroads-48:dir"],
            "mis": ["rmat14", "rmat20", "grid1000"],
            "reachability": ["uk-2007-05", "soc-Slashdot0902", "cit-HepPh", "rmat20:dir"],
            "pagerank": ["rmat20", "uk-2007-05"],
            "tc": ["rmat20", "uk-2007-05:sym"],
            "bc": ["rmat20", "uk-2007-05"],
            "lcc": ["rmat20", "uk-2007-05:sym"],
            "cdlp": ["rmat20", "uk-2007-05"],
            "kcore": ["rmat20", "uk-2007-05"],
        },
        "gpu": {
            "bfs": ["rmat22", "uniform22", "grid2000", "usroads-48"],
            "cc": ["rmat22", "uniform22", "grid2000", "usroads-48", "delaunay_n16", "luxembourg_osm"],
            "sssp": ["rmat22:w1-1000", "grid2000:w1-1000", "grid2000:w1-999", "rome99", "usroads-48:w1-1000",
                     "luxembourg_osm:w1-1000", "delaunay10k:w1-1000", "delaunay100k:w1-1000",
                     "delaunay1M:w1-1000"],
            "apsp": ["er2700-850k:dir:w1-1000", "facebook"],
            "msf": ["rmat22:w1-999", "uniform22:w1-999", "grid2000:w1-999"],
            "scc": ["rmat22:dir", "uk-2007-05", "soc-Slashdot0902"],
            "mis": ["rmat14", "rmat22", "uniform22", "grid2000"],
            "reachability": ["uk-2007-05", "soc-Slashdot0902", "cit-HepPh", "rmat22:dir"],
            "pagerank": ["rmat22", "uk-2007-05"],
            "tc": ["rmat22", "uk-2007-05:sym"],
            "bc": ["rmat22", "uk-2007-05"],
            "lcc": ["rmat22", "uk-2007-05:sym"],
            "cdlp": ["rmat22", "uk-2007-05"],
            "kcore": ["rmat22", "uk-2007-05"],
        },
    },
    # issue 40 (the breadth algorithms): CPU rows beside igraph on R-MAT 20 and the web crawl (trussness and
    # Jaccard on facebook), GPU rows on R-MAT 22 (with --engines gpu,cpu: the CPU engine's row there too,
    # for the 20x target; CPU trussness of R-MAT 22 takes hours); the 20-iteration rows of HITS, Katz and
    # eigenvector centrality beside PageRank's
    "breadth": {
        "cpu": {a: ["rmat20", "uk-2007-05"] for a in ("hits", "eigenvector", "katz", "closeness", "harmonic", "ebc",
                                                      "pagerank")}
        | {"trussness": ["facebook:sym"], "jaccard": ["facebook:sym"], "coloring": ["rmat20", "uk-2007-05:sym"]},
        "gpu": {a: ["rmat22"] for a in ("hits", "eigenvector", "katz", "closeness", "harmonic", "ebc", "trussness",
                                        "pagerank")}
        | {"jaccard": ["facebook:sym"], "coloring": ["rmat22", "uniform22"]},
    },
    # community detection beside igraph (modularity in each row's summary)
    "community": {e: {a: ["facebook:sym", "CA-GrQc:sym", "email-Eu-core:sym", "rmat15", "rmat18"]
                      for a in ("louvain", "leiden", "modularity")} for e in ("cpu", "gpu")},
    # moderate members of every generated family and the real graphs (context, not targets)
    "families": ["rmat18", "uniform18", "er20000-1M", "grid512", "circulant262144", "hypercube18",
                 "caveman4096x32", "ccaveman4096x32"],
    "real": ["uk-2007-05", "usroads-48", "soc-Slashdot0902", "cit-HepPh", "facebook", "luxembourg_osm",
             "delaunay_n16", "Email-Enron", "p2p-Gnutella31"],
}


def _merge_into_targets(suite):
    """The targets suite holds every issue's target graphs: ``suite``'s too (no repeats)."""
    for engine, by in SUITES[suite].items():
        for algo, names in by.items():
            have = SUITES["targets"][engine].setdefault(algo, [])
            have += [g for g in names if g not in have]


_merge_into_targets("breadth")

#: R-MAT scales of the size ladder (``--suite ladder``; ``--scales`` overrides)
LADDER_SCALES = {"cpu": range(16, 22), "gpu": range(16, 24)}


def with_default_modifier(algo, name):
    """``name`` with the algorithm's default modifier when the name has none of its kind.

    >>> with_default_modifier(ALGORITHMS["sssp"], "rmat18")
    'rmat18:w1-255'
    >>> with_default_modifier(ALGORITHMS["sssp"], "rmat18:w1-9")
    'rmat18:w1-9'
    >>> with_default_modifier(ALGORITHMS["scc"], "uk-2007-05")
    'uk-2007-05'
    """
    mod = algo.default_modifier
    if mod is None:
        return name
    mods = name.split(":")[1:]
    if mod.startswith("w"):
        return name if any(m.startswith("w") for m in mods) else f"{name}:{mod}"
    # "dir": only generated families have a directed generator; files keep their own direction
    if "dir" in mods or "sym" in mods or family(name) in ("real", "grid", "circulant", "hypercube",
                                                           "caveman", "ccaveman"):
        return name
    return f"{name}:{mod}"


def suite_graphs(suites, algo, engines, scales=None):
    """The graph names an algorithm runs on for the chosen suites and engines (in order, no repeats)."""
    names = []
    for suite in suites:
        if isinstance(SUITES.get(suite), dict):       # per engine and algorithm: targets, breadth, community
            for e in engines:
                names += SUITES[suite][e].get(algo.name, [])
        elif suite == "ladder":
            sc = scales if scales is not None else sorted({s for e in engines for s in LADDER_SCALES[e]})
            names += [with_default_modifier(algo, f"rmat{s}") for s in sc]
        else:
            names += [with_default_modifier(algo, g) for g in SUITES[suite]]
    return list(dict.fromkeys(names))
