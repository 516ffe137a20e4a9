"""Vertex similarity (Jaccard, overlap, cosine, Sorensen, Adamic-Adar, resource allocation) in ``plus.pair``.

Every score compares two neighbour sets.  ``C`` is the structure of ``G``
without its self-loops (weights, duplicate edges and explicit zeros do not
count: a stored entry is an edge), ``N(u)`` the neighbours of ``u`` -- on a
directed graph its *out*-neighbours, as cuGraph takes them (NetworkX's
link-prediction functions refuse directed graphs).  The intersections are one
masked product::

    I<M> = C plus.pair C'          I[u, v] = |N(u) & N(v)|

and ``|N(u)| = (C plus.pair 1)[u]``, the row counts.  From them, on the host:

* ``jaccard``  ``|N(u) & N(v)| / |N(u) | N(v)|``, the union ``|N(u)| + |N(v)| - I``;
* ``overlap``  ``I / min(|N(u)|, |N(v)|)``;
* ``cosine``   ``I / sqrt(|N(u)| |N(v)|)``;
* ``sorensen`` ``2 I / (|N(u)| + |N(v)|)``;

each 0 where its denominator is 0 (as NetworkX's ``jaccard_coefficient``).
The two sums over the common neighbours ``w`` weigh each by a function of its
degree ``d(w)`` (its in-degree on a directed graph: how many vertices list
``w`` as a neighbour), a diagonal ``D`` that scales the rows of ``C'``::

    I<M> = C plus.second (D plus.first C')

with ``D[w, w] = 1 / log d(w)`` for ``adamic_adar`` and ``1 / d(w)`` for
``resource_allocation``.  A common neighbour of two distinct vertices has
``d(w) >= 2``; only a pair ``(u, u)`` can meet ``d(w) = 1``, where
Adamic-Adar's ``1 / log 1`` is ``inf``.

Which pairs (the mask ``M``):

* ``pairs=`` given: their pattern, one entry per distinct pair; the scores come
  back aligned with the pairs (0 for a pair without a common neighbour).
* ``pairs=None``: every pair ``u < v`` with a common neighbour, as cuGraph's
  ``jaccard`` without ``vertex_pair`` (NetworkX's ``ebunch=None`` scores every
  non-edge, most of them 0): no mask, the strict upper triangle kept with
  ``select(triu, 1)``; sorted by ``(u, v)``.  Before the work the output's
  size is bounded by the wedges, ``sum over w of d(w) (d(w) - 1) / 2``; where
  that bound does not fit in host memory the pairs are counted exactly
  (``any_pair``, no values), and a count that does not fit either is refused
  (:class:`~la_graph.exceptions.OutOfMemory`, naming the bytes and
  ``top_k=``/``pairs=``).
* ``top_k=k``: for each vertex its ``k`` most similar other vertices (score
  descending, ties by the smaller id), among those with a common neighbour.

``pairs=None`` and ``top_k`` run over blocks of rows, ``Cb = S plus.pair C``
with ``S`` the selector of the block's rows (``S[i, r0 + i] = 1``), each block
holding about :data:`BLOCK_ENTRIES` wedges (``wedges = C plus.second d``, the
entries a row's product can have), so the ``n x n`` product is never whole.
:func:`similarity_block` computes a block's scores.  ``top_k`` is one step,
:func:`similarity_top_k`, that an engine may fuse: the CPU engine runs it as
one numba pass, each row's intersections accumulated over its wedges and cut
to its best ``k`` by a bounded heap, without the block's product on the host.
A sum's scores (Adamic-Adar, resource allocation) round in the order the
common neighbours are added, which differs between engines and blocks, so
scores equal in exact arithmetic may differ in their last bits and their ties
fall either way; the counting metrics' ties are exact.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validation as V
from .. import verify
from ..engines import get_engine
from ..exceptions import InvalidArgumentError
from ._certify import SAMPLE, Checker, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["similarity", "SimilarityResult", "similarity_block", "similarity_top_k", "METRICS", "BLOCK_ENTRIES"]

#: the metrics :func:`similarity` knows
METRICS = ("jaccard", "overlap", "cosine", "sorensen", "adamic_adar", "resource_allocation")
#: the metrics that sum a weight of each common neighbour (the others count them)
_SUMS = ("adamic_adar", "resource_allocation")
#: wedges (candidate entries of the product) in one block of rows of ``pairs=None`` and ``top_k``
BLOCK_ENTRIES = 1 << 22
#: host bytes one pair of a ``pairs=None`` result holds: ``u``, ``v`` and ``score``, and their copy while the
#: blocks are joined
PAIR_BYTES = 2 * (8 + 8 + 8)
#: outputs (pairs, or top_k rows) up to this many are checked whole by ``check=True``; larger ones at a sample
CHECK_ALL = 1 << 18


class SimilarityResult(NamedTuple):
    """Pairs of vertices and their similarity.

    Attributes
    ----------
    u, v : numpy.ndarray
        int64 vertex ids of each pair: the pairs asked for (in their order), or
        every pair ``u < v`` with a common neighbour sorted by ``(u, v)``, or
        for ``top_k`` each vertex ``u`` with its most similar ``v`` (by ``u``,
        then score descending, then ``v``).
    score : numpy.ndarray
        float64: the metric of pair ``i``.
    """

    u: np.ndarray
    v: np.ndarray
    score: np.ndarray


# ---------------------------------------------------------------------- the arguments
def _check_args(G, pairs, metric, top_k):
    G = V.check_graph(G)
    metric = V.check_choice(metric, METRICS, what="metric")
    if top_k is not None:
        top_k = V.check_count(top_k, "top_k", low=1)
        if pairs is not None:
            raise InvalidArgumentError("give pairs= (score those pairs) or top_k= (each vertex's most similar), "
                                       "not both")
    if pairs is not None:
        pairs = V.check_vertex_pairs(pairs, G.n)
    return G, pairs, metric, top_k


# ---------------------------------------------------------------------- the algebra
def _structure(E, G):
    """``(C, CT, out_degree, in_degree)``: ``G``'s structure without self-loops, its transpose (``C`` itself
    when undirected) and the row counts of each, as int64 numpy arrays."""
    C = E.select(E.matrix(G), "offdiag")
    CT = E.select(E.matrix(G, transpose=True), "offdiag") if G.directed else C
    d_out = _counts(E, C, G.n)
    d_in = _counts(E, CT, G.n) if G.directed else d_out
    return C, CT, d_out, d_in


def _counts(E, A, n):
    """The number of entries in each row of ``A`` (int64 numpy)."""
    return E.to_numpy(E.mxv(A, E.full(n, True, bool), "plus_pair"), fill=0).astype(np.int64)


def _weights(metric, d_in):
    """The weight of each common neighbour for the summing metrics (``D``'s diagonal), else None."""
    if metric not in _SUMS:
        return None
    d = d_in.astype(np.float64)
    with np.errstate(divide="ignore"):
        return 1.0 / np.log(d) if metric == "adamic_adar" else 1.0 / d


def _right(E, CT, metric, d_in):
    """The right operand of the product: ``C'`` (counting), or ``D plus.first C'`` (summing a weight of each
    common neighbour, ``D``'s diagonal: :func:`_weights`)."""
    weights = _weights(metric, d_in)
    if weights is None:
        return CT
    keep = np.flatnonzero(d_in > 0)                   # the rows of C' that hold entries
    n = d_in.size
    D = E.matrix_from_coo(keep, keep, weights[keep], n, n, dtype=np.float64)
    return E.mxm(D, CT, "plus_first")


def _scores(metric, inter, du, dv):
    """The metric from the intersections (or sums) ``inter`` and the two sets' sizes (float64 numpy)."""
    inter = np.asarray(inter, dtype=np.float64)
    if metric in _SUMS:
        return inter
    du, dv = du.astype(np.float64), dv.astype(np.float64)
    den = {"jaccard": lambda: du + dv - inter, "overlap": lambda: np.minimum(du, dv),
           "cosine": lambda: np.sqrt(du * dv), "sorensen": lambda: (du + dv) / 2.0}[metric]()
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, inter / den, 0.0)


def similarity_block(E, C, R, rows, metric, d_out, *, upper):
    """The scores of the block of rows ``rows`` (consecutive, int64) against every other vertex (numpy arrays).

    ``R`` is the right operand (:func:`_right`: ``C'``, or ``D plus.first C'``
    for the summing metrics).  Returns ``(i, j, score)`` as numpy arrays,
    ``i`` the rows' global ids; ``upper``: only ``j > i`` (``pairs=None``),
    else every ``j != i`` (``top_k``).  The entries come in no set order.
    """
    n = E.size(C)[0]
    r0, b = int(rows[0]), int(rows.size)
    if b == n:
        Cb = C
    else:                                              # the block's rows: the selector S[i, r0 + i] = 1
        S = E.matrix_from_coo(np.arange(b), rows, True, b, n, dtype=bool)
        Cb = E.mxm(S, C, "any_pair")
    semiring = "plus_second" if metric in _SUMS else "plus_pair"
    P = E.mxm(Cb, R, semiring)
    # the block's row i is vertex r0 + i: j > r0 + i is j - i >= r0 + 1; j != r0 + i is j - i != r0
    P = E.select(P, "triu", r0 + 1) if upper else E.select(P, "offdiag", r0)
    i, j, x = E.to_coo(P)
    i = np.asarray(i, np.int64) + r0
    j = np.asarray(j, np.int64)
    return i, j, _scores(metric, x, d_out[i], d_out[j])


def _blocks(E, C, d_out, d_in, n):
    """Consecutive blocks of rows, each of about :data:`BLOCK_ENTRIES` wedges (at least one row)."""
    wedges = E.to_numpy(E.mxv(C, E.vector_from_numpy(d_in), "plus_second"), fill=0).astype(np.int64)
    if n == 0:
        return
    ends = np.cumsum(wedges)
    start = 0
    while start < n:
        # the rows whose wedges, with those before them in the block, stay within the budget
        base = ends[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(ends, base + BLOCK_ENTRIES, side="right")))
        yield np.arange(start, min(stop, n), dtype=np.int64)
        start = stop


def _pairs_scores(E, G, C, CT, d_out, d_in, metric, pu, pv):
    """The scores of the pairs ``(pu, pv)``: one product masked by their pattern."""
    n = G.n
    if pu.size == 0:
        return np.zeros(0)
    key = np.unique(pu * n + pv)
    M = E.matrix_from_coo(key // n, key % n, True, n, n, dtype=bool)
    R = _right(E, CT, metric, d_in)
    semiring = "plus_second" if metric in _SUMS else "plus_pair"
    i, j, x = E.to_coo(E.mxm(C, R, semiring, mask=M, structural=True))
    got = np.asarray(i, np.int64) * n + np.asarray(j, np.int64)
    order = np.argsort(got, kind="stable")
    got, x = got[order], np.asarray(x)[order]
    want = pu * n + pv
    at = np.minimum(np.searchsorted(got, want), max(got.size - 1, 0))
    found = got[at] == want if got.size else np.zeros(want.size, bool)
    inter = np.where(found, x[at] if got.size else 0.0, 0.0)
    return _scores(metric, inter, d_out[pu], d_out[pv])


def _count_pairs(E, C, CT, blocks):
    """The number of pairs ``u < v`` with a common neighbour: the blocks' patterns counted (``any_pair``)."""
    n = E.size(C)[0]
    total = 0
    for rows in blocks:
        r0, b = int(rows[0]), int(rows.size)
        Cb = C if b == n else E.mxm(E.matrix_from_coo(np.arange(b), rows, True, b, n, dtype=bool), C, "any_pair")
        total += E.nvals(E.select(E.mxm(Cb, CT, "any_pair"), "triu", r0 + 1))
    return total


def _guard_all_pairs(E, G, C, CT, d_in, blocks):
    """Refuse (OutOfMemory) a ``pairs=None`` result that would not fit in host memory: the wedge bound
    first, the exact count where the bound does not fit."""
    n = G.n
    bound = min(int((d_in * (d_in - 1) // 2).sum()), n * (n - 1) // 2)
    avail = V.available_host_bytes()
    if avail is None or bound * PAIR_BYTES <= avail:
        return
    count = _count_pairs(E, C, CT, blocks)
    V.check_host_memory(count * PAIR_BYTES, f"similarity of every pair with a common neighbour ({count:,} "
                        "pairs)", "pass top_k=10 for each vertex's 10 most similar, or pairs= for the pairs "
                        "you need")


@step("similarity_top_k")
def similarity_top_k(E, G, metric, k):
    """Each vertex's ``k`` most similar others: ``(u, v, score)`` numpy arrays, by ``u``, score descending, ``v``.

    The blocks of rows of :func:`similarity_block` (every ``j != i``), each
    row cut to its best ``k`` on the host.
    """
    C, CT, d_out, d_in = _structure(E, G)
    R = _right(E, CT, metric, d_in)
    parts = []
    for rows in _blocks(E, C, d_out, d_in, G.n):
        parts.append(_top_k(*similarity_block(E, C, R, rows, metric, d_out, upper=False), k))
    return _join(parts)


def _top_k(i, j, s, k):
    """Of the entries ``(i, j, s)``, each row's ``k`` best (score descending, then ``j``), sorted that way."""
    order = np.lexsort((j, -s, i))
    i, j, s = i[order], j[order], s[order]
    first = np.searchsorted(i, i, side="left")         # where each entry's row starts
    keep = np.arange(i.size) - first < k
    return i[keep], j[keep], s[keep]


def _sorted(i, j, s, n):
    """The entries sorted by ``(i, j)``."""
    key = i * n + j
    if key.size > 1 and not bool(np.all(key[1:] > key[:-1])):
        order = np.argsort(key, kind="stable")
        i, j, s = i[order], j[order], s[order]
    return i, j, s


def _join(parts):
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    return tuple(np.concatenate(p) for p in zip(*parts))


def _checked(G, r, a, sample=None):
    """check=True: :func:`~la_graph.verify.check_similarity` with the call's arguments."""
    u, v, s = host(r.u), host(r.v), host(r.score)
    if sample is None and u.size > CHECK_ALL:
        sample = SAMPLE
    verify.check_similarity(G, u, v, s, metric=a["metric"], complete=a["pairs"] is None and a["top_k"] is None,
                            top_k=a["top_k"], sample=sample)


def _run_similarity(args, G, engine):
    """``la-graph run similarity``: how many pairs, the highest score and its pair."""
    r = similarity(G, metric=args.metric, top_k=args.top_k, engine=engine)
    summary = {"metric": args.metric, "pairs": int(r.u.size)}
    if r.u.size:
        best = int(np.lexsort((r.v, r.u, -r.score))[0])
        summary.update(max_score=float(r.score[best]), max_pair=[int(r.u[best]), int(r.v[best])])
    check = lambda: verify.check_similarity(G, r.u, r.v, r.score, metric=args.metric,
                                            complete=args.top_k is None, top_k=args.top_k)
    return summary, r._asdict(), check


@algorithm("similarity",
           networkx=("jaccard_coefficient", "adamic_adar_index", "resource_allocation_index"),
           cli=Cli("similarity", "neighbour-set similarity of every pair with a common neighbour (--metric, "
                                 "--top-k: each vertex's most similar)", options=("metric", "top_k"),
                   defaults={"metric": "jaccard"}, run=_run_similarity),
           checker=Checker("check_similarity", _checked, sampled="check_similarity at a sample of pairs and rows",
                           sample=lambda G, r, a: _checked(G, r, a, sample=SAMPLE)),
           bench=("jaccard",), page="algorithms/similarity.md",
           summary="Jaccard, overlap, cosine, Sorensen, Adamic-Adar and resource allocation from masked "
                   "`C plus.pair C'` (given pairs, every pair with a common neighbour, or each vertex's top k)")
def similarity(G, pairs=None, *, metric="jaccard", top_k=None, engine=None):
    """Neighbour-set similarity of pairs of vertices (NetworkX's ``jaccard_coefficient`` and kin).

    Parameters
    ----------
    G : Graph
        Any graph.  Only its structure counts: self-loops, weights and
        duplicate edges do not.  On a directed graph ``N(u)`` is ``u``'s
        out-neighbours (as cuGraph; NetworkX refuses directed graphs).
    pairs : array_like, optional
        The pairs to score: an ``(m, 2)`` array of vertex ids (a list of
        ``(u, v)`` tuples), or a tuple ``(u, v)`` of two 1-D numpy arrays.
        Default: every pair ``u < v`` with a common neighbour.
    metric : str
        ``"jaccard"`` (default) ``|N(u) & N(v)| / |N(u) | N(v)|``,
        ``"overlap"`` ``|N(u) & N(v)| / min(|N(u)|, |N(v)|)``, ``"cosine"``
        ``|N(u) & N(v)| / sqrt(|N(u)| |N(v)|)``, ``"sorensen"``
        ``2 |N(u) & N(v)| / (|N(u)| + |N(v)|)`` (0 where the denominator is
        0); ``"adamic_adar"``: the sum of ``1 / log d(w)`` and
        ``"resource_allocation"`` of ``1 / d(w)`` over the common neighbours
        ``w`` (``d(w)`` the in-degree on a directed graph).
    top_k : int, optional
        Instead of ``pairs``: each vertex's ``top_k`` most similar other
        vertices, score descending, ties to the smaller id, among those that
        share a neighbour with it (fewer where there are fewer).  The sums'
        scores round in the order they add, which engines differ in: their
        ties to rounding may fall either way.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    SimilarityResult
        ``(u, v, score)``: int64, int64, float64 arrays; the pairs given, in
        their order; or every pair ``u < v`` with a common neighbour, sorted by
        ``(u, v)``; or for ``top_k`` each vertex's best, by ``u`` then score
        descending then ``v``.

    Raises
    ------
    InvalidArgumentError
        An unknown metric, ``top_k < 1``, ``pairs`` and ``top_k`` together, or
        ``pairs`` of the wrong shape or not integers.
    InvalidSourceError
        A pair names a vertex not in the graph.
    OutOfMemory
        ``pairs=None`` and the pairs with a common neighbour do not fit in host
        memory (use ``top_k`` or ``pairs``).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1, 1, 2], [1, 2, 2, 3, 3])   # two triangles sharing the edge 1 - 2
    >>> lg.similarity(G, [(0, 3), (1, 2)]).score.tolist()
    [1.0, 0.5]
    >>> r = lg.similarity(G)
    >>> list(zip(r.u.tolist(), r.v.tolist(), r.score.round(3).tolist()))
    [(0, 1, 0.25), (0, 2, 0.25), (0, 3, 1.0), (1, 2, 0.5), (1, 3, 0.25), (2, 3, 0.25)]
    >>> lg.similarity(G, top_k=1, metric="overlap").v.tolist()
    [3, 2, 1, 0]
    """
    G, pairs, metric, top_k = _check_args(G, pairs, metric, top_k)
    n = G.n
    E = get_engine(engine)
    if top_k is not None:
        V.check_host_memory(PAIR_BYTES * n * min(top_k, max(n - 1, 0)), f"the {top_k} most similar of {n:,} "
                            "vertices", "pass a smaller top_k")
        return SimilarityResult(*similarity_top_k(E, G, metric, min(top_k, max(n - 1, 1))))
    C, CT, d_out, d_in = _structure(E, G)
    if pairs is not None:
        pu, pv = pairs
        return SimilarityResult(pu, pv, _pairs_scores(E, G, C, CT, d_out, d_in, metric, pu, pv))
    blocks = list(_blocks(E, C, d_out, d_in, n))
    _guard_all_pairs(E, G, C, CT, d_in, blocks)
    R = _right(E, CT, metric, d_in)
    parts = [_sorted(*similarity_block(E, C, R, rows, metric, d_out, upper=True), n) for rows in blocks]
    return SimilarityResult(*_join(parts))
