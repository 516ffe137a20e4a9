"""Community detection by label propagation (CDLP), the LDBC Graphalytics rule, as sparse products.

Every vertex starts with its own id as label.  In each iteration every vertex
takes the label most frequent among its neighbours -- in- and out-neighbours
both on a directed graph, so a neighbour joined by edges both ways counts
twice -- the smallest such label on a tie; a vertex without neighbours keeps
its label.  All vertices update at once (synchronously), for a fixed number of
iterations (Graphalytics' ``max_iterations``).

With ``L`` the ``n x n`` one-hot label matrix (``L[u, label[u]] = n``) one
iteration is::

    C = A plus.second L   (+ A' plus.second L on a directed graph)   C[v, l] = n * count of label l
    key = C max.plus d,   d[l] = n - 1 - l                            one int64 per vertex
    label[v] = l of the best key:  l = key div n * n - key + n - 1

``key = n * count + (n - 1 - l)`` is largest for the largest count and, among
equal counts, the smallest label, so one max-plus product picks both; the
label comes back from it by integer division.  A vertex with no neighbour
gets no key and keeps its label.  ``L`` is built afresh from the labels each
iteration (the labels go to the host and back: ``n`` ids).

The labels after an iteration are a function of the labels before it, so
once nothing changes nothing ever will: the loop stops there, with the result
``max_iter`` iterations would give.  Self-loops are ignored (Graphalytics
graphs have none: a vertex is not its own neighbour); duplicate edges are one
edge (Graph merges them); weights are ignored.

The key needs ``2 n^2 < 2^63``, i.e. ``n < 2^31`` vertices.
"""

from __future__ import annotations

import numpy as np

from .. import _validation as V
from ..engines import get_engine
from ..exceptions import InvalidGraphError
from .. import verify
from ._certify import Checker, host
from ._registry import Cli, algorithm

__all__ = ["label_propagation", "MAX_N"]

#: the most vertices: ``n * count + n - 1`` with ``count <= 2 (n - 1)`` must fit in int64
MAX_N = 1 << 31


@algorithm("label_propagation",
           cli=Cli("cdlp", "communities by label propagation (LDBC Graphalytics CDLP, --max-iter rounds)",
                   options=("max_iter",)),
           checker=Checker("check_cdlp", lambda G, r, a: verify.check_cdlp(G, host(r), a["max_iter"])), bench=("cdlp",), page="algorithms/label_propagation.md",
           summary="LDBC Graphalytics CDLP: synchronous, most frequent neighbour label, ties to the smallest")
def label_propagation(G, *, max_iter=10, engine=None):
    """Community labels by synchronous label propagation (LDBC Graphalytics CDLP).

    Parameters
    ----------
    G : Graph
        Directed or undirected.  On a directed graph a vertex counts the labels
        of its in- and out-neighbours both (a neighbour linked both ways counts
        twice), as Graphalytics defines it.  Self-loops and weights are ignored.
    max_iter : int
        The number of iterations (Graphalytics' ``max_iterations``), at least
        1.  The loop stops sooner when an iteration changes no label: the
        labels are then final, and the same as after ``max_iter`` iterations.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: ``labels[v]``, a vertex id (the label that
        reached ``v``).  Equal labels mark one community.

    Notes
    -----
    NetworkX's ``label_propagation_communities`` is *not* this algorithm: it
    updates semi-synchronously (vertices of one colour of a greedy colouring at
    a time), keeps a vertex's own label on a tie when it is among the most
    frequent and otherwise takes the largest one, and runs until every label
    is among its neighbours' most frequent; ``asyn_lpa_communities`` and
    ``fast_label_propagation_communities`` update one vertex at a time in
    random order and break ties at random.  Their communities differ from
    CDLP's in general.

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 0, 1, 3, 3, 4, 2], [1, 2, 2, 4, 5, 5, 3])   # two triangles, one bridge
    >>> lg.label_propagation(G).tolist()
    [0, 0, 0, 2, 2, 2]
    >>> lg.label_propagation(lg.Graph.from_edges([0], [1], n=3), max_iter=1).tolist()   # 0 and 1 swap
    [1, 0, 2]
    """
    return propagate(G, max_iter, engine)[0]


def propagate(G, max_iter=10, engine=None):
    """:func:`label_propagation`'s labels and the iterations it ran: ``(labels, rounds)``, ``rounds`` at most
    ``max_iter`` (fewer where an iteration changed no label; that one counts)."""
    G = V.check_graph(G)
    max_iter = V.check_count(max_iter, "max_iter")
    n = G.n
    if n > MAX_N:
        raise InvalidGraphError(f"label propagation takes at most {MAX_N:,} vertices (its int64 keys hold "
                                f"n * count + label), got n = {n:,}")
    E = get_engine(engine)
    labels = E.iota(n)
    if n == 0 or G.nnz == 0:
        return E.to_numpy(labels), 0
    A = E.matrix(G)
    AT = E.matrix(G, transpose=True) if G.directed else None
    if G.self_loops:
        A = E.select(A, "offdiag")
        AT = E.select(AT, "offdiag") if AT is not None else None
    ids = np.arange(n, dtype=np.int64)
    d = E.vector_from_numpy(n - 1 - ids)         # d[l] = n - 1 - l: ties go to the smallest label
    host = ids
    for rounds in range(1, max_iter + 1):
        L = E.matrix_from_coo(ids, host, n, n, n, dtype=np.int64)        # L[u, label[u]] = n
        C = E.mxm(A, L, "plus_second")                                  # C[v, l] = n * count of l among v's neighbours
        if AT is not None:
            E.mxm(AT, L, "plus_second", out=C, accum="plus")            # ... in-neighbours too
        key = E.mxv(C, d, "max_plus")                                   # n * count + n - 1 - l, the best
        best = E.apply(E.apply(key, "div", right=n), "times", right=n)  # n * count
        new = E.apply(E.ewise_mult(best, key, "minus"), "plus", right=n - 1)   # l
        E.assign(labels, new, mask=new, structural=True)                # no neighbour: keep the label
        prev, host = host, E.to_numpy(labels)
        if np.array_equal(prev, host):
            break
    return host, rounds

