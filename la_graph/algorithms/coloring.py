"""Graph colouring by independent-set rounds on seeded priorities (the MIS machinery).

Every vertex gets a priority, distinct and the same on every engine:

* ``"jones_plassmann"``: a 63-bit hash of ``(seed, vertex id)``, the random
  priorities of Jones & Plassmann (1993) and of Luby's MIS
  (:func:`~la_graph.algorithms.mis.vertex_priorities`);
* ``"largest_first"``: the degree first, ties by the rank of that hash
  (``degree * n + rank``): high-degree vertices are coloured early, as in
  Welsh & Powell's order.

Colour ``c`` is then a maximal independent set of the vertices not yet
coloured, found by Luby's rounds (:func:`~la_graph.algorithms.mis.luby_round`)
with those priorities over the uncoloured vertices only: a vertex joins when
its priority beats every uncoloured candidate neighbour's.  With fixed
priorities each colour class is the greedy independent set of the priority
order among the vertices left (LAGraph's colouring by independent sets).

At most ``Δ + 1`` colours: a vertex left uncoloured by round ``c`` has a
neighbour coloured ``c`` (the class is maximal among the uncoloured), so a
vertex of degree ``d`` is coloured by round ``d`` at the latest.  Colours are
numbered from 0 with no gaps.

A vertex joins the first class that none of its higher-priority neighbours
joined (a class is the greedy independent set of the priority order among
the vertices left), so it gets the smallest colour its higher-priority
neighbours leave: the rounds colour as the sequential greedy colouring of
the vertices by descending priority does (NetworkX's ``greedy_color`` with
that order; Jones & Plassmann's observation).  NetworkX's own strategies
order the vertices otherwise, so their colourings differ.  Step an engine
may fuse: ``color_classes`` (the CPU engine runs that greedy pass, one
vertex at a time, with the same colours).
"""

from __future__ import annotations

import numpy as np

from .. import _random
from .. import _validation as V
from .. import verify
from ..engines import get_engine
from ._certify import Checker
from ._registry import Cli, algorithm
from .mis import luby_round, vertex_priorities
from .steps import step

__all__ = ["coloring", "color_classes"]

_METHODS = ("jones_plassmann", "largest_first")


def _run_coloring(args, G, engine):
    """``la-graph run coloring``: the number of colours and the largest class."""
    c = coloring(G, seed=args.seed, method=args.method or "jones_plassmann", engine=engine)
    k = int(c.max(initial=-1)) + 1
    sizes = np.bincount(c, minlength=k)
    summary = {"colors": k, "largest_class": int(sizes.max(initial=0))}
    return summary, {"color": c}, lambda: verify.check_coloring(G, c)


@algorithm("coloring",
           cli=Cli("coloring", "a proper vertex colouring, at most max degree + 1 colours (--seed, --method "
                   "jones_plassmann|largest_first)", options=("seed", "method"), defaults={"seed": 0},
                   run=_run_coloring),
           networkx=("greedy_color",),
           checker=Checker("check_coloring"), bench=("coloring",), page="algorithms/coloring.md",
           summary="independent-set rounds on seeded hash (or degree) priorities: at most Δ + 1 colours")
def coloring(G, *, seed=None, method="jones_plassmann", engine=None):
    """A proper vertex colouring of ``G`` with at most ``Δ + 1`` colours (``Δ`` its largest degree).

    Each colour class is a maximal independent set of the vertices not yet
    coloured, found by Luby's rounds on seeded priorities (see the module
    notes).

    Parameters
    ----------
    G : Graph
        Any graph, taken as undirected (a colouring constrains both ends of an
        edge whatever its direction); self-loops and weights are ignored.
    seed : int, optional
        Non-negative; the priorities hash ``(seed, vertex id)``: one seed
        gives the same colouring on every engine and run.  ``None`` draws a
        fresh seed.
    method : {"jones_plassmann", "largest_first"}
        The priorities: the seeded hash, or the degree with ties broken by it.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(n,)``: each vertex's colour, numbered from 0 without
        gaps; no edge joins two vertices of one colour.

    Raises
    ------
    InvalidArgumentError
        An unknown ``method`` or a bad ``seed``.

    Examples
    --------
    >>> import la_graph as lg
    >>> C5 = lg.generators.circulant(5, [1])          # a 5-cycle
    >>> colors = lg.coloring(C5, seed=1)
    >>> lg.verify.check_coloring(C5, colors)
    >>> int(colors.max()) + 1                        # an odd cycle needs three
    3
    >>> sorted(lg.coloring(lg.generators.complete(4), method="largest_first", seed=0).tolist())
    [0, 1, 2, 3]
    """
    G = V.check_graph(G).to_undirected()
    V.check_choice(method, set(_METHODS), what="method")
    seed = int(np.random.default_rng().integers(2**63)) if seed is None else _random.check_seed(seed)
    E = get_engine(engine)
    n = G.n
    if n == 0:
        return np.zeros(0, np.int64)
    A = E.select(E.matrix(G), "offdiag") if G.self_loops else E.matrix(G)
    if method == "jones_plassmann":
        prio = vertex_priorities(E, n, seed)
    else:
        deg = np.diff(G.indptr) - _loops(G)
        prio = E.vector_from_numpy(deg.astype(np.int64) * n + _random.vertex_ranks(n, seed))
    return E.to_numpy(color_classes(E, A, prio), consume=True).astype(np.int64, copy=False)


def _loops(G):
    """1 at each vertex with a self-loop (its loop is not an edge to colour around)."""
    rows, cols = G.edges()
    return np.bincount(rows[rows == cols], minlength=G.n) if G.self_loops else 0


@step("color_classes")
def color_classes(E, A, prio):
    """The colour of every vertex (a full int64 vector): class ``c`` a maximal independent set of the uncoloured.

    ``A`` is symmetric without self-loops, ``prio`` a full int64 vector of
    distinct non-negative priorities.  ``left`` holds the uncoloured vertices'
    priorities; each class runs Luby's rounds (:func:`luby_round`) with all of
    them candidates, so a coloured vertex is no candidate's neighbour any more.
    """
    n = E.size(prio)
    color = E.full(n, 0, dtype=np.int64)
    left = E.copy(prio)
    c = 0
    while E.nvals(left):
        members = E.vector(n, bool)
        cand = E.copy(left)
        while E.nvals(cand):
            cand = luby_round(E, A, cand, members)
        E.assign(color, c, mask=members, structural=True)
        left = E.apply(left, "identity", mask=members, structural=True, complement=True)
        c += 1
    return color
