"""Seeded generators of test and benchmark graph families.

Random families (the inputs of the connected-components, BFS and spanning-forest
papers and of the Graph500 benchmark):

* :func:`rmat` -- Graph500 Kronecker / R-MAT (Chakrabarti, Zhan & Faloutsos 2004),
* :func:`uniform` -- ``m`` endpoint pairs drawn uniformly at random,
* :func:`erdos_renyi` -- G(n, p), every pair present with probability ``p``.

Regular families: :func:`grid_2d`, :func:`circulant`, :func:`hypercube`,
:func:`caveman`, :func:`connected_caveman`, :func:`path`, :func:`star`,
:func:`complete`.

Rules shared by every generator:

* The result is a :class:`~la_graph.graph.Graph` built by
  :meth:`Graph.from_edges <la_graph.graph.Graph.from_edges>`, so duplicate edges
  are merged and undirected graphs are stored symmetric.
* ``seed`` is ``None``, a non-negative int or a :class:`numpy.random.Generator`;
  one seed gives the same graph on every platform (all randomness comes from one
  ``np.random.default_rng(seed)`` stream, drawn in a fixed order and block size).
* ``weights`` is one of

  - ``None``: unweighted;
  - ``"uniform"``: floats drawn uniformly from ``[1, 100)``;
  - ``"unique"``: a random permutation of ``1.0 .. m`` (``m`` = number of
    edges), so no two edges tie -- the minimum spanning forest is unique;
  - ``(low, high)``: integers drawn uniformly from ``low .. high`` (both included),
    stored as floats.

  One weight is drawn per distinct edge (an undirected edge gets one weight for
  both directions), so undirected weighted graphs are symmetric.
* Generation is vectorized numpy; no Python loop runs per edge or per vertex.
* Bad arguments raise :class:`~la_graph.exceptions.InvalidArgumentError`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np

from ._validation import INT64_MAX, check_flag, check_host_memory, check_int, check_real
from .exceptions import InvalidArgumentError
from .graph import Graph

# the parameters and result the structured generators share, in their numpydoc sections
_WEIGHTS_SEED_RETURNS = """weights : None, "uniform", "unique" or (int, int)
        Edge weights; see the module notes.
    seed : None, int or numpy.random.Generator
        Source of randomness for the weights.

    Returns
    -------
    Graph"""


def _shared_doc(fn):
    """Fill the shared sections into ``fn``'s docstring (at its ``{weights_seed_returns}``)."""
    if fn.__doc__:                                   # None under python -OO
        fn.__doc__ = fn.__doc__.replace("{weights_seed_returns}", _WEIGHTS_SEED_RETURNS)
    return fn

__all__ = [
    "rmat",
    "uniform",
    "erdos_renyi",
    "delaunay",
    "grid_2d",
    "circulant",
    "hypercube",
    "caveman",
    "connected_caveman",
    "path",
    "star",
    "complete",
]

#: Largest vertex count a Graph accepts (``n * n`` must fit in int64).
MAX_VERTICES = math.isqrt(INT64_MAX)
#: Largest R-MAT scale / hypercube dimension (``2**31`` vertices is the last that fits a Graph).
MAX_SCALE = 31
#: Range of the ``weights="uniform"`` floats: ``[low, high)``.
UNIFORM_WEIGHT_RANGE = (1.0, 100.0)
# R-MAT edges are drawn in blocks of this many; fixed, so a seed's graph never
# depends on it being changed for speed.
_RMAT_BLOCK = 1 << 16
_WEIGHT_KINDS = ("uniform", "unique")
_MAX_EXACT_INT = 2**53


# ---------------------------------------------------------------------------- random families
def rmat(
    scale,
    edge_factor=16,
    a=0.57,
    b=0.19,
    c=0.19,
    *,
    seed=None,
    directed=False,
    weights=None,
    permute=True,
    self_loops=False,
):
    """Graph500 Kronecker (R-MAT) graph with ``2**scale`` vertices.

    ``edge_factor * 2**scale`` edges are generated.  Each picks its endpoints one
    bit at a time, from the most significant: at every level it falls in the
    top-left, top-right, bottom-left or bottom-right quadrant of the adjacency
    matrix with probabilities ``a, b, c, d = 1 - a - b - c``.  The defaults are
    the Graph500 ones.  Duplicate edges are then merged, so the graph has at
    most ``edge_factor * 2**scale`` edges.

    Parameters
    ----------
    scale : int
        ``log2`` of the number of vertices, ``0 .. 31``.
    edge_factor : int
        Generated edges per vertex (Graph500: 16).
    a, b, c : float
        Quadrant probabilities; each ``>= 0`` and ``a + b + c < 1``.
    seed : None, int or numpy.random.Generator
        Source of randomness.
    directed : bool
        ``False`` (default) makes every edge two-way.
    weights : None, "uniform", "unique" or (int, int)
        Edge weights; see the module notes.
    permute : bool
        Relabel vertices by a random permutation (as Graph500 does), so that
        vertex id carries no information about degree.  With ``False`` vertex 0
        is the hub.
    self_loops : bool
        Keep generated self-loops (dropped by default).

    Returns
    -------
    Graph

    Examples
    --------
    >>> from la_graph.generators import rmat
    >>> G = rmat(10, seed=42)
    >>> G.n, G.nedges <= 16 * 1024, G.directed
    (1024, True, False)
    >>> bool(G.out_degree.max() > 10 * G.out_degree.mean())   # heavy-tailed degrees
    True
    >>> G == rmat(10, seed=42)
    True
    """
    scale = check_int(scale, "scale", 0, MAX_SCALE)
    edge_factor = check_int(edge_factor, "edge_factor", 0)
    a, b, c = (check_real(x, name, low=0.0, high=1.0) for x, name in ((a, "a"), (b, "b"), (c, "c")))
    if a + b + c >= 1.0 - 1e-12:  # tolerance: 0.6 + 0.3 + 0.1 rounds below 1
        raise InvalidArgumentError(
            f"R-MAT probabilities need a + b + c < 1 (d = 1 - a - b - c > 0), got a + b + c = {a + b + c!r}"
        )
    weights = _weight_spec(weights)
    rng = _rng(seed)
    n = 1 << scale
    _check_fits(edge_factor * n, f"rmat({scale}, {edge_factor})")
    u, v = _rmat_edges(scale, edge_factor * n, (a, a + b, a + b + c), rng)
    if not self_loops:
        keep = u != v
        u, v = u[keep], v[keep]
    if permute:
        perm = rng.permutation(n)
        u, v = perm[u], perm[v]
    return _graph(u, v, n, weights, rng, directed)


def uniform(n, m, *, seed=None, directed=False, weights=None, self_loops=False):
    """Graph of ``m`` endpoint pairs drawn uniformly at random.

    Both endpoints of each of the ``m`` draws are uniform over ``0 .. n-1``
    (the "uniform random" family of the GPU connected-components and BFS
    papers, e.g. ``n = 2**22, m = 2**25``).  Duplicate draws are merged and
    self-loops dropped (unless ``self_loops=True``), so the graph has at most
    ``m`` edges.

    Parameters
    ----------
    n : int
        Number of vertices.
    m : int
        Number of endpoint pairs drawn.
    seed : None, int or numpy.random.Generator
        Source of randomness.
    directed : bool
        ``False`` (default) makes every edge two-way.
    weights : None, "uniform", "unique" or (int, int)
        Edge weights; see the module notes.
    self_loops : bool
        Keep drawn self-loops (dropped by default).

    Returns
    -------
    Graph

    Examples
    --------
    >>> from la_graph.generators import uniform
    >>> G = uniform(1000, 4000, seed=1)
    >>> G.n, 3900 < G.nedges <= 4000
    (1000, True)
    """
    n = _count_arg(n, "n")
    m = check_int(m, "m", 0)
    self_loops = check_flag(self_loops, "self_loops")
    if n == 0 and m > 0:
        raise InvalidArgumentError(f"uniform needs n >= 1 to draw m = {m} edges, got n = 0")
    weights = _weight_spec(weights)
    _check_fits(m, f"uniform({n}, {m})")
    rng = _rng(seed)
    u = rng.integers(0, max(n, 1), size=m, dtype=np.int64)
    v = rng.integers(0, max(n, 1), size=m, dtype=np.int64)
    if not self_loops:
        keep = u != v
        u, v = u[keep], v[keep]
    return _graph(u, v, n, weights, rng, directed)


def erdos_renyi(n, p, *, seed=None, directed=False, weights=None):
    """Erdős–Rényi G(n, p): each pair of distinct vertices is an edge with probability ``p``.

    Undirected: each of the ``n(n-1)/2`` unordered pairs independently;
    directed: each of the ``n(n-1)`` ordered pairs.  No self-loops.  Runs in time
    and memory proportional to the number of edges (gaps between chosen pairs
    are geometric), so sparse graphs on many vertices and dense ones
    (``n = 2700, p = 0.5``) are both cheap.

    Parameters
    ----------
    n : int
        Number of vertices.
    p : float
        Edge probability in ``[0, 1]``.
    seed : None, int or numpy.random.Generator
        Source of randomness.
    directed : bool
        ``False`` (default) draws unordered pairs.
    weights : None, "uniform", "unique" or (int, int)
        Edge weights; see the module notes.

    Returns
    -------
    Graph

    Examples
    --------
    >>> from la_graph.generators import erdos_renyi
    >>> G = erdos_renyi(2700, 0.5, seed=7)
    >>> abs(G.nedges / (2700 * 2699 / 2) - 0.5) < 0.01
    True
    >>> erdos_renyi(5, 1.0).nedges
    10
    """
    n = _count_arg(n, "n")
    p = check_real(p, "p", low=0.0, high=1.0)
    weights = _weight_spec(weights)
    rng = _rng(seed)
    npairs = n * (n - 1) if directed else n * (n - 1) // 2
    _check_fits(int(npairs * p), f"erdos_renyi({n}, {p})", "edges expected")
    k = _bernoulli_indices(npairs, p, rng)
    if directed:
        u, r = np.divmod(k, n - 1)
        v = r + (r >= u)
    else:
        u, v = _unrank_pairs(k)
    return _graph(u, v, n, weights, rng, directed)


# ---------------------------------------------------------------------------- regular families
@_shared_doc
def delaunay(n, *, weights=None, seed=None):
    """Delaunay triangulation of ``n`` random points in the unit square: a planar, road-like graph.

    Like road networks (and the DIMACS10 ``delaunay_nX`` graphs) it is planar, of
    small bounded-on-average degree (about 6) and of diameter about ``sqrt(n)``;
    unlike a lattice it is irregular.  The points are drawn from ``seed``, the
    weights after them.  Fewer than three points: a path.

    Parameters
    ----------
    n : int
        Number of vertices (points).
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import delaunay
    >>> G = delaunay(1000, seed=1)
    >>> G.n, 2 * G.nedges / G.n < 6
    (1000, True)
    """
    n = _count_arg(n, "n")
    _check_fits(3 * n, f"delaunay({n})", extra=64 * n)     # about 3n edges; scipy's triangulation, ~64 bytes a point
    weights = _weight_spec(weights)
    rng = _rng(seed)
    if n < 3:
        u = np.arange(max(n - 1, 0), dtype=np.int64)
        return _graph(u, u + 1, n, weights, rng)
    from scipy.spatial import Delaunay

    tri = Delaunay(rng.random((n, 2))).simplices.astype(np.int64)
    u = np.concatenate([tri[:, 0], tri[:, 1], tri[:, 0]])
    v = np.concatenate([tri[:, 1], tri[:, 2], tri[:, 2]])
    u, v = np.minimum(u, v), np.maximum(u, v)
    key = np.unique(u * n + v)                 # each inner edge is in two triangles
    return _graph(key // n, key % n, n, weights, rng)


@_shared_doc
def grid_2d(rows, cols, *, diagonal=False, periodic=False, weights=None, seed=None):
    """Two-dimensional ``rows x cols`` lattice; vertex ``(r, c)`` has id ``r * cols + c``.

    Each vertex is joined to its right and lower neighbours (4-neighbour lattice,
    ``2*rows*cols - rows - cols`` edges), as :func:`networkx.grid_2d_graph`.

    Parameters
    ----------
    rows, cols : int
        Lattice shape.
    diagonal : bool
        Also join diagonal neighbours (8-neighbour "king" lattice).
    periodic : bool or (bool, bool)
        Wrap rows and/or columns around (a torus).  As in networkx a dimension
        wraps only when it has more than 2 vertices (a wrap over 1 or 2 would
        add a self-loop or repeat an edge).
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import grid_2d
    >>> grid_2d(3, 4)
    Graph(n=12, edges=17, undirected)
    >>> grid_2d(3, 4, periodic=True).nedges   # 4-regular torus
    24
    """
    rows = _count_arg(rows, "rows")
    cols = _count_arg(cols, "cols")
    diagonal = check_flag(diagonal, "diagonal")
    n = _count_arg(rows * cols, "rows * cols")
    _check_fits((4 if diagonal else 2) * n, f"grid_2d({rows}, {cols})", extra=48 * n)   # the coordinate arrays
    if isinstance(periodic, (tuple, list)):
        if len(periodic) != 2:
            raise InvalidArgumentError(f"periodic must be a bool or a (rows, cols) pair of bools, got {periodic!r}")
        wrap_rows, wrap_cols = (bool(x) for x in periodic)
    else:
        wrap_rows = wrap_cols = bool(periodic)
    wrap_rows &= rows > 2
    wrap_cols &= cols > 2
    weights = _weight_spec(weights)
    rng = _rng(seed)
    r, c = np.divmod(np.arange(n, dtype=np.int64), max(cols, 1))
    steps = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if diagonal else [])
    us, vs = [], []
    for dr, dc in steps:
        r2, c2 = r + dr, c + dc
        keep = np.ones(n, dtype=bool)
        if wrap_rows:
            r2 %= rows
        else:
            keep &= r2 < rows
        if wrap_cols:
            c2 %= cols
        else:
            keep &= (c2 >= 0) & (c2 < cols)
        us.append((r * cols + c)[keep])
        vs.append((r2 * cols + c2)[keep])
    return _graph(np.concatenate(us), np.concatenate(vs), n, weights, rng)


@_shared_doc
def circulant(n, offsets, *, weights=None, seed=None):
    """Circulant graph: vertex ``i`` is joined to ``(i + k) % n`` and ``(i - k) % n`` for each ``k``.

    Same graph as :func:`networkx.circulant_graph`.  Offsets ``k`` and ``-k`` (mod ``n``)
    give the same edges; an offset of ``n / 2`` gives ``n / 2`` edges, any other
    distinct offset ``n``.

    Parameters
    ----------
    n : int
        Number of vertices, ``>= 1``.
    offsets : int or sequence of int
        Jumps; none may be a multiple of ``n`` (that would be a self-loop).
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import circulant
    >>> circulant(10, [1, 2])
    Graph(n=10, edges=20, undirected)
    >>> circulant(10, 5).nedges
    5
    """
    n = _count_arg(n, "n", 1)
    if isinstance(offsets, (numbers.Integral, np.integer)):
        offsets = [offsets]
    if not isinstance(offsets, Iterable) or isinstance(offsets, (str, bytes)):
        raise InvalidArgumentError(f"offsets must be an int or a sequence of ints, got {offsets!r}")
    offs = [check_int(k, "each offset") for k in offsets]
    bad = [k for k in offs if k % n == 0]
    if bad:
        raise InvalidArgumentError(f"offsets must not be multiples of n = {n} (they make self-loops), got {bad[0]}")
    _check_fits(n * len(offs), f"circulant({n}, {len(offs)} offsets)")
    weights = _weight_spec(weights)
    rng = _rng(seed)
    u = np.tile(np.arange(n, dtype=np.int64), len(offs))
    v = (u + np.repeat(np.array([k % n for k in offs], dtype=np.int64), n)) % n
    return _graph(u, v, n, weights, rng)


@_shared_doc
def hypercube(dim, *, weights=None, seed=None):
    """The ``dim``-dimensional hypercube: ``2**dim`` vertices, ids differing in one bit are joined.

    It has ``dim * 2**(dim-1)`` edges and diameter ``dim``.

    Parameters
    ----------
    dim : int
        Dimension, ``0 .. 31``.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import hypercube
    >>> hypercube(4)
    Graph(n=16, edges=32, undirected)
    """
    dim = check_int(dim, "dim", 0, MAX_SCALE)
    weights = _weight_spec(weights)
    rng = _rng(seed)
    n = 1 << dim
    half = np.arange(n // 2, dtype=np.int64)
    us = []
    for bit in range(dim):
        # the ids with a 0 at ``bit``: insert a 0 bit into 0 .. n/2 - 1
        low = half & ((1 << bit) - 1)
        us.append(((half >> bit) << (bit + 1)) | low)
    u = np.concatenate(us) if us else half[:0]
    v = u | np.repeat(np.int64(1) << np.arange(dim, dtype=np.int64), n // 2)
    return _graph(u, v, n, weights, rng)


@_shared_doc
def caveman(n_caves, cave_size, *, weights=None, seed=None):
    """``n_caves`` disjoint cliques of ``cave_size`` vertices (as :func:`networkx.caveman_graph`).

    Cave ``i`` holds vertices ``i*cave_size .. (i+1)*cave_size - 1``; there are
    ``n_caves`` connected components and ``n_caves * cave_size*(cave_size-1)/2`` edges.

    Parameters
    ----------
    n_caves : int
        Number of cliques.
    cave_size : int
        Vertices per clique.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import caveman
    >>> caveman(3, 4)
    Graph(n=12, edges=18, undirected)
    """
    u, v, n = _caves(n_caves, cave_size, 1)
    weights = _weight_spec(weights)
    return _graph(u, v, n, weights, _rng(seed))


@_shared_doc
def connected_caveman(n_caves, cave_size, *, weights=None, seed=None):
    """A ring of cliques, exactly as :func:`networkx.connected_caveman_graph`.

    Start from :func:`caveman`; in each cave, whose first vertex is ``s``, the
    edge ``(s, s+1)`` is replaced by ``(s, s-1)``, which joins it to the last
    vertex of the previous cave (cave 0 to the last cave).  Vertex ids equal
    networkx's node labels.  With two or more caves there are
    ``n_caves * cave_size*(cave_size-1)/2`` edges and one component.

    Parameters
    ----------
    n_caves : int
        Number of cliques.
    cave_size : int
        Vertices per clique, ``>= 2``.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import connected_caveman
    >>> connected_caveman(3, 4)
    Graph(n=12, edges=18, undirected)
    """
    u, v, n = _caves(n_caves, cave_size, 2)
    weights = _weight_spec(weights)
    # drop (s, s+1) of each cave, then add (s, s-1 mod n): networkx's order of operations
    keep = (v - u != 1) | (u % cave_size != 0)
    starts = np.arange(0, n, cave_size, dtype=np.int64)
    u = np.concatenate([u[keep], starts])
    v = np.concatenate([v[keep], (starts - 1) % max(n, 1)])
    return _graph(u, v, n, weights, _rng(seed))


@_shared_doc
def path(n, *, weights=None, seed=None):
    """Path ``0 - 1 - ... - n-1`` (``n - 1`` edges).

    Parameters
    ----------
    n : int
        Number of vertices.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import path
    >>> path(5)
    Graph(n=5, edges=4, undirected)
    """
    n = _count_arg(n, "n")
    weights = _weight_spec(weights)
    u = np.arange(max(n - 1, 0), dtype=np.int64)
    return _graph(u, u + 1, n, weights, _rng(seed))


@_shared_doc
def star(n, *, weights=None, seed=None):
    """Star on ``n`` vertices: hub 0 joined to ``1 .. n-1``.

    Note that :func:`networkx.star_graph(k) <networkx.star_graph>` has ``k + 1``
    vertices; ``star(n)`` has ``n``.

    Parameters
    ----------
    n : int
        Number of vertices.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import star
    >>> G = star(5)
    >>> G.nedges, G.out_degree.tolist()
    (4, [4, 1, 1, 1, 1])
    """
    n = _count_arg(n, "n")
    weights = _weight_spec(weights)
    v = np.arange(1, max(n, 1), dtype=np.int64)
    return _graph(np.zeros_like(v), v, n, weights, _rng(seed))


@_shared_doc
def complete(n, *, weights=None, seed=None):
    """Complete graph on ``n`` vertices (``n(n-1)/2`` edges, no self-loops).

    Parameters
    ----------
    n : int
        Number of vertices.
    {weights_seed_returns}

    Examples
    --------
    >>> from la_graph.generators import complete
    >>> complete(6)
    Graph(n=6, edges=15, undirected)
    """
    n = _count_arg(n, "n")
    weights = _weight_spec(weights)
    _check_fits(n * (n - 1) // 2, f"complete({n})", extra=n * n)      # triu_indices makes an n x n mask
    u, v = np.triu_indices(n, 1)
    return _graph(u, v, n, weights, _rng(seed))


# ---------------------------------------------------------------------------- building blocks
def _graph(u, v, n, weights, rng, directed=False):
    """The Graph of edges ``u[k] -> v[k]`` (two-way unless ``directed``).

    With weights, edges are first made canonical (``u <= v`` when undirected)
    and distinct, sorted, then one weight is drawn per edge in that order --
    so weights are symmetric and "unique" is a permutation of ``1 .. nedges``.
    """
    w = None
    if weights is not None:
        if not directed:
            u, v = np.minimum(u, v), np.maximum(u, v)
        key = np.sort(u.astype(np.int64) * n + v)  # (np.unique hashes: much slower)
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]
        u, v = np.divmod(key, max(n, 1))
        w = _draw_weights(weights, key.size, rng)
    return Graph.from_edges(u, v, w, n=n, directed=directed)


def _draw_weights(spec, m, rng):
    if spec == "uniform":
        return rng.uniform(*UNIFORM_WEIGHT_RANGE, size=m)
    if spec == "unique":
        return rng.permutation(m).astype(np.float64) + 1.0
    low, high = spec
    return rng.integers(low, high, size=m, dtype=np.int64, endpoint=True).astype(np.float64)


def _rmat_edges(scale, m, thresholds, rng):
    """``m`` R-MAT edges as two uint32 arrays, before loop removal and permutation.

    Per level one 32-bit uniform ``r`` picks the quadrant
    ``q = (r >= a) + (r >= a+b) + (r >= a+b+c)`` (0: top-left, 1: top-right,
    2: bottom-left, 3: bottom-right); ``q >> 1`` is the row bit, ``q & 1`` the
    column bit.  Edges are drawn in blocks of :data:`_RMAT_BLOCK`, levels
    vectorized within a block.
    """
    t1, t2, t3 = (np.uint32(min(int(t * 2.0**32), 2**32 - 1)) for t in thresholds)
    u = np.zeros(m, dtype=np.uint32)
    v = np.zeros(m, dtype=np.uint32)
    for start in range(0, m, _RMAT_BLOCK):
        stop = min(start + _RMAT_BLOCK, m)
        r = rng.integers(0, 2**32, size=(scale, stop - start), dtype=np.uint32)
        q = (r >= t1).view(np.uint8)
        q += (r >= t2).view(np.uint8)
        q += (r >= t3).view(np.uint8)
        row_bits, col_bits = q >> 1, q & 1
        ub, vb = u[start:stop], v[start:stop]
        for level in range(scale):
            ub <<= 1
            ub |= row_bits[level]
            vb <<= 1
            vb |= col_bits[level]
    return u, v


def _bernoulli_indices(npairs, p, rng, batch=None):
    """Sorted int64 indices of ``0 .. npairs-1``, each chosen independently with probability ``p``.

    Gaps between chosen indices are geometric(p), drawn in batches (default: a
    little more than the expected count, so one batch nearly always suffices).
    The gaps form one sequential stream, so the result does not depend on ``batch``.
    """
    if npairs == 0 or p == 0.0:
        return np.zeros(0, dtype=np.int64)
    if p == 1.0:
        return np.arange(npairs, dtype=np.int64)
    if batch is None:
        mean = npairs * p
        batch = int(mean + 6.0 * math.sqrt(mean * (1.0 - p)) + 64)
    parts, base = [], 0  # base: first index the next gap counts from
    while True:
        # uint64: a huge gap (tiny p) cannot wrap before it passes npairs
        idx = np.cumsum(rng.geometric(p, size=batch).astype(np.uint64)) + np.uint64(base) - np.uint64(1)
        past = idx >= np.uint64(npairs)
        if past.any():
            parts.append(idx[: int(np.argmax(past))])
            break
        parts.append(idx)
        base = int(idx[-1]) + 1
    return np.concatenate(parts).astype(np.int64)


def _unrank_pairs(k):
    """Pairs ``(i, j)``, ``j < i``, of lower-triangle ranks ``k = i*(i-1)/2 + j``."""
    i = np.floor((1.0 + np.sqrt(1.0 + 8.0 * k.astype(np.float64))) / 2.0).astype(np.int64)
    i -= i * (i - 1) // 2 > k  # undo float rounding either way
    i += (i + 1) * i // 2 <= k
    return i, k - i * (i - 1) // 2


def _caves(n_caves, cave_size, min_size):
    """Edges ``u < v`` of ``n_caves`` disjoint cliques of ``cave_size``, and ``n``."""
    n_caves = _count_arg(n_caves, "n_caves")
    cave_size = check_int(cave_size, "cave_size", min_size)
    n = _count_arg(n_caves * cave_size, "n_caves * cave_size")
    _check_fits(n_caves * (cave_size * (cave_size - 1) // 2), f"{n_caves} caves of {cave_size} vertices",
                extra=cave_size * cave_size)
    iu, ju = np.triu_indices(cave_size, 1)
    first = np.arange(0, n, cave_size, dtype=np.int64)[:, None]
    return (first + iu).ravel(), (first + ju).ravel(), n


# ---------------------------------------------------------------------------- argument checks
#: bytes of memory an edge takes while a generator builds its graph (both directions' endpoints, the CSR)
EDGE_BYTES = 64


def _check_fits(edges, what, kind="edges", extra=0):
    """OutOfMemory, naming the bytes, unless ``edges`` edges (and ``extra`` bytes) fit in memory."""
    check_host_memory(EDGE_BYTES * edges + extra, f"{what} ({edges:,} {kind})",
                      "generate a smaller graph")


def _count_arg(value, name, lo=0):
    """A vertex count: an integer in ``lo .. MAX_VERTICES``."""
    return check_int(value, name, lo, MAX_VERTICES)


def _weight_spec(weights):
    """Validate ``weights``; return ``None``, ``"uniform"``, ``"unique"`` or ``(low, high)`` ints."""
    if weights is None or (isinstance(weights, str) and weights in _WEIGHT_KINDS):
        return weights
    if (
        isinstance(weights, (tuple, list))
        and len(weights) == 2
        and all(isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in weights)
    ):
        low, high = int(weights[0]), int(weights[1])
        if low > high:
            raise InvalidArgumentError(f"weights (low, high) needs low <= high, got {weights!r}")
        if max(abs(low), abs(high)) > _MAX_EXACT_INT:
            raise InvalidArgumentError(
                f"weights (low, high) must lie within +-2**53 (exact as floats), got {weights!r}"
            )
        return low, high
    raise InvalidArgumentError(
        f"weights must be None, 'uniform', 'unique' or a (low, high) pair of integers, got {weights!r}"
    )


def _rng(seed):
    """``np.random.default_rng(seed)`` for None, a non-negative int or a Generator (passed through)."""
    if isinstance(seed, (bool, np.bool_)):
        raise InvalidArgumentError(f"seed must be None, a non-negative int or a numpy Generator, got {seed!r}")
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"seed must be None, a non-negative int or a numpy Generator, got {seed!r}"
        ) from None
