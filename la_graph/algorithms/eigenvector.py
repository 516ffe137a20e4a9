"""Eigenvector centrality by power iteration in the plus-second (plus-times when weighted) semiring.

With ``AT`` the transposed adjacency matrix (``AT[j, k]`` holds the edge
``k -> j``), one step is NetworkX's shifted power iteration

``x' = (AT plus.second x) + x``,   then   ``x' = x' / ||x'||_2``

(the ``+ x``, the identity shift, keeps the iteration from oscillating on
bipartite graphs without changing the eigenvector).  It starts from
``nstart`` normalized to sum 1 (all ones by default) and stops when
``||x' - x||_1 < n tol``; after ``max_iter`` steps,
:class:`~la_graph.exceptions.ConvergenceError`.  The answer is the left
Perron vector of ``A`` (in-edges count, as in ``networkx.eigenvector_centrality``).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import ConvergenceError, InvalidGraphError
from .. import verify
from ._certify import Checker, host
from ._registry import algorithm

__all__ = ["eigenvector_centrality", "l1_change"]


def l1_change(E, y, x):
    """``||y - x||_1`` of two full vectors: NetworkX's stopping measure of its power iterations."""
    return E.reduce(E.apply(E.ewise_add(y, x, "minus"), "abs"), "plus")


@algorithm("eigenvector_centrality", networkx=("eigenvector_centrality", "eigenvector_centrality_numpy"),
           checker=Checker("check_eigenvector", lambda G, r, a: verify.check_eigenvector(G, host(r), **{
               k: a[k] for k in ("max_iter", "tol", "nstart", "weight")})),
           bench=("eigenvector",), page="algorithms/eigenvector.md", summary="NetworkX's shifted power iteration x' = (A' plus.second x) + x, L2-normalized")
def eigenvector_centrality(G, max_iter=100, tol=1e-6, nstart=None, weight=None, *, engine=None):
    """Eigenvector centrality of every vertex (``networkx.eigenvector_centrality``'s rule).

    Parameters
    ----------
    G : Graph
        Directed (a vertex scores from its in-neighbours) or undirected.
    max_iter : int
        At least 1: the iteration limit.
    tol : float
        Positive: stop once the L1 change of a step is below ``n * tol``.
    nstart : array_like or dict, optional
        Non-negative starting values (normalized to sum 1); default all ones.
    weight : bool or None
        ``None``: ``G``'s weights when it has them; ``False``: every edge
        counts 1 (NetworkX's default ``weight=None``); ``True``: ``G`` must be
        weighted.  Weights must be non-negative.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64 centralities with unit L2 norm.

    Raises
    ------
    ConvergenceError
        ``max_iter`` steps did not meet the tolerance (``.result``: the last vector).

    Examples
    --------
    >>> import la_graph as lg
    >>> path = lg.Graph.from_edges([0, 1], [1, 2])
    >>> lg.eigenvector_centrality(path).round(4).tolist()
    [0.5, 0.7071, 0.5]
    """
    G = V.check_graph(G)
    max_iter = V.check_count(max_iter, "max_iter", low=1)
    tol = V.check_real(tol, "tol", low=0, open_low=True)
    weighted = V.uses_weights(G, weight, "eigenvector_centrality")
    n = G.n
    if n == 0:
        return np.zeros(0)
    x0 = np.ones(n) / n if nstart is None else V.check_vertex_values(nstart, n, what="nstart")
    E = get_engine(engine)
    AT = E.matrix(G, transpose=True)
    semiring = "plus_times" if weighted else "plus_second"
    x = E.vector_from_numpy(x0)
    change = float("nan")
    for _ in range(max_iter):
        y = E.ewise_add(E.mxv(AT, x, semiring), x, "plus")
        norm = math.sqrt(E.reduce(E.ewise_mult(y, y, "times"), "plus"))
        if norm == 0:     # cannot happen with a positive start: y >= x
            raise InvalidGraphError("eigenvector_centrality: the iteration reached the zero vector")
        y = E.apply(y, "times", right=1.0 / norm)
        change = l1_change(E, y, x)
        x = y
        if change < n * tol:
            return E.to_numpy(x, fill=0.0, consume=True)
    raise ConvergenceError(
        f"eigenvector_centrality did not converge in {max_iter} iterations: the last one changed the vector by "
        f"{change:.3g} in L1 norm, and the test asks for less than n*tol = {n * tol:.3g}; raise max_iter or tol",
        iterations=max_iter, error=float(change), result=E.to_numpy(x, fill=0.0, consume=True))
