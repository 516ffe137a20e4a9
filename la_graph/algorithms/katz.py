"""Katz centrality by power iteration in the plus-second (plus-times when weighted) semiring.

With ``AT`` the transposed adjacency matrix (``AT[j, k]`` holds the edge
``k -> j``), one step is

``x' = alpha (AT plus.second x) + beta``

from ``x = nstart`` (zeros by default), stopping when ``||x' - x||_1 < n tol``
(``networkx.katz_centrality``'s rule); then, if ``normalized``, ``x / ||x||_2``.
The series converges only when ``alpha < 1 / lambda_max`` (the largest
eigenvalue of ``A``); otherwise the iterates grow without bound and
:class:`~la_graph.exceptions.ConvergenceError` says so.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import ConvergenceError, InvalidArgumentError
from .. import verify
from ._certify import Checker, host
from ._registry import algorithm
from .eigenvector import l1_change

__all__ = ["katz_centrality"]


def _values(x, n, what, default):
    """A float64 array of ``n`` values from a scalar, array or ``{vertex: value}`` dict."""
    if x is None:
        return np.full(n, default)
    if isinstance(x, dict):
        arr = np.full(n, default)
        for key, val in x.items():
            arr[V.check_vertex(key, n, what=f"{what} key")] = V.check_real(val, f"{what}[{key}]")
        return arr
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim == 0:
        return np.full(n, float(V.check_real(float(arr), what)))
    if arr.shape != (n,) or not np.isfinite(arr).all():
        raise InvalidArgumentError(f"{what} must be a number or {n} finite numbers, got shape {arr.shape}")
    return arr


@algorithm("katz_centrality", networkx=("katz_centrality", "katz_centrality_numpy"),
           checker=Checker("check_katz", lambda G, r, a: verify.check_katz(G, host(r), a["alpha"], a["beta"], **{
               k: a[k] for k in ("max_iter", "tol", "normalized", "weight")}) if a["nstart"] is None else None),
           bench=("katz",), page="algorithms/katz.md", summary="x' = alpha (A' plus.second x) + beta to NetworkX's tolerance; L2-normalized")
def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1e-6, nstart=None, normalized=True,
                    weight=None, *, engine=None):
    """Katz centrality of every vertex (``networkx.katz_centrality``'s rule).

    Parameters
    ----------
    G : Graph
        Directed (a vertex scores from its in-neighbours) or undirected.
    alpha : float
        Attenuation; must be below ``1 / lambda_max`` for convergence.
    beta : float, array_like or dict
        The constant each vertex gets (one number, one per vertex, or
        ``{vertex: value}`` with 0 for vertices left out... as NetworkX, every
        vertex must be given when a dict: vertices not named get ``0``).
    max_iter : int
        At least 1: the iteration limit.
    tol : float
        Positive: stop once the L1 change of a step is below ``n * tol``.
    nstart : array_like or dict, optional
        Starting values (not normalized); default zeros.
    normalized : bool
        Divide the answer by its L2 norm.
    weight : bool or None
        ``None``: ``G``'s weights when it has them; ``False``: every edge
        counts 1 (NetworkX's default ``weight=None``); ``True``: ``G`` must be weighted.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64 centralities.

    Raises
    ------
    ConvergenceError
        ``max_iter`` steps did not meet the tolerance, e.g. ``alpha >= 1 / lambda_max``.

    Examples
    --------
    >>> import la_graph as lg
    >>> path = lg.Graph.from_edges([0, 1], [1, 2])
    >>> lg.katz_centrality(path).round(4).tolist()
    [0.5599, 0.6108, 0.5599]
    """
    G = V.check_graph(G)
    alpha = V.check_real(alpha, "alpha")
    max_iter = V.check_count(max_iter, "max_iter", low=1)
    tol = V.check_real(tol, "tol", low=0, open_low=True)
    weighted = V.uses_weights(G, weight, "katz_centrality")
    n = G.n
    b = _values(beta, n, "beta", 0.0 if isinstance(beta, dict) else 1.0)
    x0 = _values(nstart, n, "nstart", 0.0)
    if n == 0:
        return np.zeros(0)
    E = get_engine(engine)
    AT = E.matrix(G, transpose=True)
    semiring = "plus_times" if weighted else "plus_second"
    bv = E.vector_from_numpy(b)
    x = E.vector_from_numpy(x0)
    change = float("nan")
    for _ in range(max_iter):
        y = E.copy(bv)
        E.mxv(AT, E.apply(x, "times", right=alpha), semiring, out=y, accum="plus")
        change = l1_change(E, y, x)
        x = y
        if change < n * tol:
            out = E.to_numpy(x, fill=0.0, consume=True)
            if normalized:
                norm = math.sqrt(float(out @ out))
                if norm > 0:
                    out = out / norm
            return out
    raise ConvergenceError(
        f"katz_centrality did not converge in {max_iter} iterations (last L1 change {change:.3g}, "
        f"test: below n*tol = {n * tol:.3g}); the iteration converges only for alpha < 1/lambda_max, "
        f"lambda_max the largest eigenvalue of the adjacency matrix: lower alpha (it is {alpha}) or raise max_iter",
        iterations=max_iter, error=float(change), result=E.to_numpy(x, fill=0.0, consume=True))
