"""PageRank by power iteration in the plus-second (plus-times when weighted) semiring.

With ``AT`` the transposed adjacency matrix (``AT[j, k]`` holds the edge
``k -> j``), ``s[k]`` the out-degree of ``k`` (its out-weight when weighted),
damping ``alpha`` and the rank vector ``r``, one step is

``r'<> = c  +  AT plus.second (alpha r / s)``

where ``alpha r / s`` is an element-wise product with the vector
``alpha / s``, which has entries only where ``s > 0`` (``s`` used as a value
mask), so a *dangling* vertex (``s = 0``) sends nothing along edges; and the
constant part ``c`` is the vector the product is accumulated into:

* ``"networkx"``: ``c = (1 - alpha) p + alpha (sum of r over dangling) d``,
  ``p`` the personalization (uniform by default) and ``d`` the dangling
  distribution (``p`` by default): the dangling rank is handed out, and the
  ranks keep summing to 1.  Stop when ``||r' - r||_1 < n tol``; after
  ``max_iter`` iterations without that, :class:`~la_graph.exceptions.ConvergenceError`.
* ``"gap"`` (GAP benchmark suite): ``c = (1 - alpha) / n``; dangling rank is
  not handed out (it leaks, so the sum drops below 1).  Stop when
  ``||r' - r||_1 < tol`` or after ``max_iter`` iterations, without error.
* ``"graphalytics"`` (LDBC Graphalytics): ``c = (1 - alpha) / n + alpha
  (sum of r over dangling) / n``; exactly ``max_iter`` iterations, no test.

The sum over dangling vertices is ``r`` under the complement of ``alpha / s``'s
structure, reduced with ``plus``.  Every variant starts from ``r = 1/n``.

One step an engine may fuse (:mod:`la_graph.algorithms.steps`):
``pagerank_iterate``, the whole power iteration from ``r = 1/n`` (``s``,
``alpha / s`` and every iteration: about eight engine calls each, one of them
the ``mxv``).  The CPU engine runs it as one compiled loop, a pull over the CSR
of ``A'`` that also measures the change and sums the dangling rank in the same
pass; on facebook (4,039 vertices, 88,234 arcs, 9 iterations) 0.44 ms against
2.2 ms for the algebra back to back, 0.8 against 2.8 ms each after an igraph
run.  Its rows are the algebra's to the bit (the same sums in the same order);
the change and the dangling sum are added in another order.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import ConvergenceError, InvalidArgumentError
from .. import verify
from ._certify import Checker, SAMPLE, host
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["pagerank", "pagerank_iterate"]

VARIANTS = ("networkx", "gap", "graphalytics")


@algorithm("pagerank",
           cli=Cli("pagerank", "PageRank (--alpha, --max-iter, --tol, --variant networkx|gap|graphalytics)",
                   options=("alpha", "max_iter", "tol", "variant"),
                   defaults={"alpha": 0.85, "tol": 1e-6, "variant": "networkx"}),
           networkx=("pagerank",), checker=Checker("check_pagerank",
                           lambda G, r, a: verify.check_pagerank(G, host(r), a["alpha"], **{
                               k: a[k] for k in ("personalization", "max_iter", "tol", "weight", "dangling",
                                                 "variant")}),
                           sampled="check_pagerank_sample if variant='networkx' without personalization or dangling",
                           sample=lambda G, r, a: verify.check_pagerank_sample(G, host(r), a["alpha"], tol=a["tol"],
                                                                               weight=a["weight"], sample=SAMPLE),
                           sample_ok=lambda G, a: (
                               a["variant"] == "networkx" and a["personalization"] is None and a["dangling"] is None
                               and not ((G.weighted if a["weight"] is None else a["weight"])
                                        and G.weight_range()[0] <= 0))), bench=("pagerank",), page="algorithms/pagerank.md",
           summary="power iteration in plus.second; NetworkX's rule (personalization, dangling, weights), or GAP's or LDBC Graphalytics' exactly (`variant=`)")
def pagerank(G, alpha=0.85, *, personalization=None, max_iter=100, tol=1e-6, weight=None, dangling=None,
             variant="networkx", engine=None):
    """PageRank of every vertex, by power iteration.

    With the defaults the result is ``networkx.pagerank``'s (``alpha=0.85``,
    ``max_iter=100``, ``tol=1e-6``, the same stopping rule and the same error
    when it is not met).  ``variant`` selects the exact rule of the GAP
    benchmark suite or of LDBC Graphalytics instead.

    Parameters
    ----------
    G : Graph
        Directed, or undirected (each edge then links both ways).  A self-loop
        is an out-edge to the vertex itself.
    alpha : float
        Damping, in ``[0, 1]``: the probability of following an edge rather
        than jumping (to a vertex drawn from ``personalization``).
    personalization : array_like or dict, optional
        ``"networkx"`` only.  The jump distribution: ``n`` non-negative
        numbers, or ``{vertex: value}`` (vertices left out get 0), normalized
        to sum 1; the sum must be positive.  Default: uniform.
    max_iter : int
        At least 1.  ``"networkx"``: the iteration limit (then
        :class:`~la_graph.exceptions.ConvergenceError`); ``"gap"``: the limit
        (no error); ``"graphalytics"``: the number of iterations.
    tol : float
        Positive.  ``"networkx"`` stops once the L1 change of an iteration is
        below ``n * tol``, ``"gap"`` once it is below ``tol``; ``"graphalytics"``
        ignores it.
    weight : bool or None
        Whether edge weights make the transition probabilities (an edge
        ``k -> j`` then takes the share ``w[k, j] / sum of k's out-weights``;
        weights must be non-negative; a vertex whose out-weights sum to 0 is
        dangling).  ``None`` (default): when ``G`` has weights, as every la_graph
        algorithm uses them (and NetworkX's default ``weight="weight"``);
        ``False``: every edge counts 1 (NetworkX's ``weight=None``); ``True``:
        ``G`` must be weighted.  The GAP and Graphalytics definitions are
        unweighted: they ignore weights, and ``weight=True`` is an error there.
    dangling : array_like or dict, optional
        ``"networkx"`` only.  Where the rank of dangling vertices (no out-edge)
        goes, as ``personalization`` (normalized); default: ``personalization``.
    variant : {"networkx", "gap", "graphalytics"}
        The definition computed:

        * ``"networkx"``: ``networkx.pagerank``; dangling rank is handed out by
          ``dangling``; stop when ``sum |r' - r| < n * tol``; raise
          :class:`~la_graph.exceptions.ConvergenceError` after ``max_iter``
          iterations otherwise.
        * ``"gap"``: the GAP benchmark suite's kernel (Beamer, Asanović and
          Patterson 2015, ``pr_spmv.cc``: the Jacobi iteration, which the
          Gauss-Seidel ``pr.cc`` approximates):
          ``r'[j] = (1 - alpha) / n + alpha * sum over k -> j of r[k] / outdeg(k)``,
          no dangling term (the ranks' sum can drop below 1); stop when
          ``sum |r' - r| < tol`` or after ``max_iter`` iterations, without an
          error.  GAP's own runs use ``alpha=0.85, max_iter=20, tol=1e-4``:
          pass them to reproduce it.
        * ``"graphalytics"``: LDBC Graphalytics (specification v1.0, section
          2.3.2 "PageRank" and the pseudo-code of appendix A): the GAP step plus
          ``alpha / n * (sum of r over dangling vertices)`` on every vertex;
          exactly ``max_iter`` iterations, no convergence test.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        float64 ranks, one per vertex (empty for a graph without vertices).

    Raises
    ------
    ConvergenceError
        ``"networkx"`` only: ``max_iter`` iterations did not meet the
        tolerance; ``.result`` holds the last ranks.
    InvalidArgumentError
        An option out of range (the message names it and its value).
    InvalidGraphError
        Negative weights where weights are used; ``weight=True`` on an
        unweighted graph.

    Examples
    --------
    >>> import la_graph as lg
    >>> cycle = lg.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=True)
    >>> lg.pagerank(cycle).round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    >>> star = lg.Graph.from_edges([1, 2, 3], [0, 0, 0], directed=True)   # 0 is dangling
    >>> lg.pagerank(star).round(4).tolist()
    [0.542, 0.1527, 0.1527, 0.1527]
    >>> lg.pagerank(star, personalization={1: 1.0}).round(4).tolist()
    [0.4595, 0.5405, 0.0, 0.0]
    >>> lg.pagerank(star, variant="gap", max_iter=20, tol=1e-4).round(4).tolist()   # 0's rank leaks
    [0.1331, 0.0375, 0.0375, 0.0375]
    >>> lg.pagerank(star, variant="graphalytics", max_iter=2).round(4).tolist()
    [0.4233, 0.1922, 0.1922, 0.1922]
    """
    G = V.check_graph(G)
    V.check_choice(variant, VARIANTS, what="variant")
    alpha = V.check_real(alpha, "alpha", low=0, high=1)
    max_iter = V.check_count(max_iter, "max_iter", low=1)
    tol = V.check_real(tol, "tol", low=0, open_low=True)
    V.check_weight_flag(weight)
    n = G.n
    if variant != "networkx":
        for name, given in (("personalization", personalization), ("dangling", dangling)):
            if given is not None:
                raise InvalidArgumentError(f"{name} is not part of the {variant} PageRank definition; "
                                           "use variant='networkx'")
        if weight is True:
            raise InvalidArgumentError(f"the {variant} PageRank definition is unweighted: weight=True is not "
                                       "allowed (weights are ignored)")
        weighted = False
    else:
        weighted = V.uses_weights(G, weight, "pagerank")
    if weighted and G.nnz:
        V.check_out_weight_sums(G, "pagerank")
    p = None if personalization is None else V.check_vertex_values(personalization, n, what="personalization")
    d = None if dangling is None else V.check_vertex_values(dangling, n, what="dangling")
    if n == 0:
        return np.zeros(0)

    E = get_engine(engine)
    r, iterations, change = pagerank_iterate(E, G, weighted, alpha, p, d, variant, max_iter, tol)
    if variant == "networkx" and not change < n * tol:
        ranks = E.to_numpy(r, consume=True)
        raise ConvergenceError(
            f"pagerank did not converge in {max_iter} iterations: the last one changed the ranks by "
            f"{change:.3g} in L1 norm, and the test asks for less than n*tol = {n * tol:.3g}; "
            "raise max_iter or tol", iterations=max_iter, error=float(change), result=ranks)
    return E.to_numpy(r, consume=True)


@step("pagerank_iterate")
def pagerank_iterate(E, G, weighted, alpha, p, d, variant, max_iter, tol):
    """The power iteration of ``variant`` from ``r = 1/n`` (the module notes): ``(r, iterations, change)``.

    ``r`` is the last ranks (a full float64 vector), ``iterations`` how many
    ran, ``change`` the last one's L1 change (NaN for ``"graphalytics"``,
    which does not measure it).  ``weighted``: the edge weights make the
    transition probabilities; ``p``, ``d``: the normalized personalization and
    dangling distributions as numpy arrays, or None.  ``G`` has a vertex.

    The CPU engine runs the whole loop as one compiled pull over the CSR of
    ``A'``, in parallel over chunks of rows on large graphs.
    """
    n = G.n
    AT = E.matrix(G, transpose=True)                          # AT[j, k] holds the edge k -> j
    if weighted:
        s = E.reduce_rows(E.matrix(G), "plus")                # out-weights (no entry: no out-edge)
        semiring = "plus_times"                               # the edge's weight times alpha r[k] / s[k]
    else:
        s = E.apply(E.degree(G), "times", right=1.0)          # out-degrees, as float64
        semiring = "plus_second"                              # alpha r[k] / s[k], the edge's value unread
    # alpha / s only where s is nonzero (s as a value mask): dangling vertices have no entry
    scale = E.apply(E.apply(s, "minv", mask=s), "times", right=alpha)
    handout = variant != "gap" and E.nvals(scale) < n          # some vertex is dangling, and its rank moves
    if p is not None or d is not None:                        # the jump and dangling distributions
        pv = E.vector_from_numpy(p if p is not None else np.full(n, 1.0 / n))
        dv = pv if d is None else E.vector_from_numpy(d)

    r = E.full(n, 1.0 / n)
    t = E.vector(n, np.float64)   # scratch each iteration's intermediates are written into (no new vector each)
    change = float("nan")
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        lost = E.reduce(E.apply(r, "identity", out=t, mask=scale, structural=True, complement=True, replace=True),
                        "plus") if handout else 0.0            # the rank on dangling vertices
        if variant == "gap":
            r_new = E.full(n, (1.0 - alpha) / n)
        elif p is None and d is None:
            r_new = E.full(n, (1.0 - alpha + alpha * lost) / n)
        elif dv is pv:
            r_new = E.apply(pv, "times", right=1.0 - alpha + alpha * lost)
        else:
            r_new = E.apply(pv, "times", right=1.0 - alpha)
            E.apply(dv, "times", right=alpha * lost, out=r_new, accum="plus")
        w = E.ewise_mult(r, scale, "times", out=t)            # alpha r[k] / s[k]
        E.mxv(AT, w, semiring, out=r_new, accum="plus")        # r_new[j] += sum over k -> j
        if variant == "graphalytics":
            r = r_new
            continue
        change = E.reduce(E.apply(E.ewise_add(r_new, r, "minus", out=t), "abs", out=t), "plus")
        r = r_new
        if change < (n * tol if variant == "networkx" else tol):
            break
    return r, iterations, change
