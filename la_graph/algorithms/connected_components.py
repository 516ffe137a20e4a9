"""Connected components by FastSV (Zhang, Azad & Buluc 2020) in the min-second semiring.

Every vertex keeps a parent ``f`` (initially itself) and a grandparent
``gp = f[f]``.  One round:

* ``mngp = min(mngp, A min.second gp)`` -- the smallest grandparent among the neighbours;
* stochastic hooking ``f[f[i]] = min(f[f[i]], mngp[i])`` (a scatter with a min reduction);
* aggressive hooking ``f = min(f, mngp)`` and shortcutting ``f = min(f, gp)``;
* ``gp = f[f]``;

until ``gp`` stops changing.  Parents only ever decrease and every root is the
smallest id of its tree, so at convergence ``f`` labels each component by its
smallest vertex id.  A directed graph gives its weakly connected components.

Two steps (:mod:`la_graph.algorithms.steps`): ``fastsv_round``, which the GPU
engine runs as CUDA kernels and the CPU engine as a product and one numba pass,
and ``component_labels``, FastSV's rounds to their fixpoint, which both engines
reach another way: Afforest's sampled union-find (Sutton, Ben-Nun & Barak 2018),
the same labels from a fraction of the edges: one sequential numba pass on the
CPU, a fixed sequence of lock-free CUDA kernels with no host round trip on the
GPU.  So ``fastsv_round`` runs on those engines only where ``component_labels``
is turned to its algebra (:func:`la_graph.algorithms.steps.algebraic`).
"""

from __future__ import annotations

from .. import _validation as V
from ..engines import get_engine
from ._certify import Checker
from ._registry import Cli, algorithm
from .steps import step

__all__ = ["connected_components", "component_labels", "fastsv_round"]


@step("fastsv_round")
def fastsv_round(E, A, f, gp, mngp):
    """One FastSV round, in place on the full int vectors ``f``, ``gp``, ``mngp``; returns ``(f, gp, changed)``.

    ``changed`` tells whether the grandparents moved (the loop's end test).
    """
    E.mxv(A, gp, "min_second", out=mngp, accum="min")      # mngp = min(mngp, A min.second gp)
    E.scatter(f, f, mngp, dup="min", accum="min")          # stochastic hooking: f[f[i]] min= mngp[i]
    E.ewise_add(f, mngp, "min", out=f)                     # aggressive hooking
    E.ewise_add(f, gp, "min", out=f)                       # shortcutting
    gp_new = E.extract(f, f)                               # grandparents f[f]
    return f, gp_new, not E.isequal(gp_new, gp)


@algorithm("connected_components",
           cli=Cli("cc", "connected components (weakly connected on a directed graph)"),
           networkx=("connected_components", "number_connected_components", "is_connected", "node_connected_component",
                     "weakly_connected_components", "number_weakly_connected_components", "is_weakly_connected", "is_tree",
                     "is_forest"), checker=Checker("check_cc", sampled="check_cc_sample"), bench=("cc",),
           page="algorithms/connected_components.md",
           summary="FastSV (min-second semiring); weak components of directed graphs; the CPU and GPU engines reach the same labels by Afforest's sampled union-find (the GPU engine in one launch sequence)")
def connected_components(G, *, engine=None, output="numpy"):
    """Label the connected components of ``G``.

    Parameters
    ----------
    G : Graph
        Undirected, or directed (then the weakly connected components).
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    output : {"numpy", "device"}
        ``"device"`` leaves the labels where the engine computed them (a CuPy
        array on the GPU engine; numpy on the CPU).

    Returns
    -------
    numpy.ndarray (or cupy.ndarray with ``output="device"`` on the GPU)
        ``labels[v]`` = the smallest vertex id in ``v``'s component (int64).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.Graph.from_edges([0, 3, 4], [1, 4, 5], n=7)
    >>> lg.connected_components(G).tolist()
    [0, 0, 2, 3, 3, 3, 6]
    """
    G = V.check_graph(G).to_undirected()
    V.check_choice(output, {"numpy", "device"}, what="output")
    E = get_engine(engine)
    f = component_labels(E, G)
    return (E.to_device if output == "device" else E.to_numpy)(f, consume=True)


@step("component_labels")
def component_labels(E, G):
    """The smallest vertex id of every vertex's component of undirected ``G``: a full int vector.

    FastSV from ``f = 0 .. n-1``: :func:`fastsv_round` until the grandparents
    stop changing.  The labels are unique, so an engine may reach them by
    another method.
    """
    A = E.matrix(G)
    f = E.iota(G.n)
    gp = E.copy(f)
    mngp = E.copy(f)
    changed = G.n > 0
    while changed:
        f, gp, changed = fastsv_round(E, A, f, gp, mngp)
    return f
