"""HITS hubs and authorities by power iteration in the plus-second (plus-times when weighted) semiring.

With ``A`` the adjacency matrix and ``AT`` its transpose, one step is

``a = AT plus.second h``,   ``h' = A plus.second a``,   each divided by its maximum,

from ``h = nstart`` (all ones by default), stopping when ``||h' - h||_1 < tol``
(the rule of NetworkX's power-iteration HITS; ``networkx.hits`` itself takes
the leading singular vectors of ``A`` from ARPACK, the same vectors).  With
``normalized``, hubs and authorities are each divided by their sum.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import ConvergenceError
from .. import verify
from ._certify import Checker, host
from ._registry import algorithm
from .eigenvector import l1_change
from .steps import step

__all__ = ["hits", "hits_iterate"]


@algorithm("hits", networkx=("hits",), checker=Checker("check_hits", lambda G, r, a: verify.check_hits(
               G, host(r[0]), host(r[1]), normalized=a["normalized"], weight=a["weight"])),
           bench=("hits",), page="algorithms/hits.md", summary="hubs h = A a and authorities a = A' h by power iteration in plus.second")
def hits(G, max_iter=100, tol=1e-8, nstart=None, normalized=True, *, weight=None, engine=None):
    """HITS hub and authority scores of every vertex.

    Parameters
    ----------
    G : Graph
        Directed or undirected (then hubs equal authorities).
    max_iter : int
        At least 1: the iteration limit.
    tol : float
        Positive: stop once the L1 change of the max-normalized hubs is below ``tol``.
    nstart : array_like or dict, optional
        Non-negative starting hub values; default all ones.
    normalized : bool
        Divide hubs and authorities each by their sum.
    weight : bool or None
        ``None``: ``G``'s weights when it has them (``networkx.hits`` reads
        ``"weight"``); ``False``: every edge counts 1; ``True``: ``G`` must be weighted.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Hubs and authorities, float64.

    Raises
    ------
    ConvergenceError
        ``max_iter`` steps did not meet the tolerance (``.result``: the last (hubs, authorities)).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1], [1, 2, 2], directed=True)
    >>> hubs, auth = lg.hits(G)
    >>> hubs.round(4).tolist(), auth.round(4).tolist()
    ([0.618, 0.382, 0.0], [0.0, 0.382, 0.618])
    """
    G = V.check_graph(G)
    max_iter = V.check_count(max_iter, "max_iter", low=1)
    tol = V.check_real(tol, "tol", low=0, open_low=True)
    weighted = V.uses_weights(G, weight, "hits")
    n = G.n
    if n == 0:
        return np.zeros(0), np.zeros(0)
    h0 = np.ones(n) if nstart is None else V.check_vertex_values(nstart, n, what="nstart")
    E = get_engine(engine)
    h, a, iterations, change = hits_iterate(E, G, weighted, h0 / h0.max(), max_iter, tol)
    if not change < tol:
        raise ConvergenceError(
            f"hits did not converge in {max_iter} iterations: the last one changed the hubs by {change:.3g} in L1 "
            f"norm, and the test asks for less than tol = {tol:.3g}; raise max_iter or tol",
            iterations=max_iter, error=float(change), result=_finish(E, h, a, n, normalized))
    return _finish(E, h, a, n, normalized)


@step("hits_iterate")
def hits_iterate(E, G, weighted, h0, max_iter, tol):
    """The power iteration from hubs ``h0`` (numpy, maximum 1): ``(h, a, iterations, change)``.

    ``h``, ``a``: the last hubs and authorities (engine vectors, each divided
    by its maximum; absent entries are 0); ``iterations``: how many ran (at
    most ``max_iter``); ``change``: the last one's L1 change of the hubs (it
    stopped at the first below ``tol``).  ``weighted``: ``plus.times`` over
    the edge weights, else ``plus.second``.  ``G`` has a vertex.

    The CPU engine runs the whole loop as one compiled loop of two pulls, over
    the CSR of ``A'`` and of ``A``, each measuring its maximum as it writes.
    """
    A, AT = E.matrix(G), E.matrix(G, transpose=True)
    semiring = "plus_times" if weighted else "plus_second"
    h = E.vector_from_numpy(h0)
    a = None
    change = float("nan")
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        a = _scaled(E, E.mxv(AT, h, semiring))
        h_new = _scaled(E, E.mxv(A, a, semiring))
        change = l1_change(E, h_new, h)
        h = h_new
        if change < tol:
            break
    return h, a, iterations, change


def _scaled(E, x):
    """``x`` divided by its maximum (left as is when it has no positive entry: a graph without edges)."""
    top = E.reduce(x, "max") if E.nvals(x) else 0.0
    return E.apply(x, "times", right=1.0 / top) if top > 0 else x


def _finish(E, h, a, n, normalized):
    hubs, auth = E.to_numpy(h, fill=0.0), E.to_numpy(a, fill=0.0)
    if normalized:
        for x in (hubs, auth):
            total = x.sum()
            if total > 0:
                x /= total
    return hubs, auth
