"""Minimum and maximum spanning trees (NetworkX's ``algorithms.tree.mst``).

Kruskal's order is NetworkX's stable sort of ``G.edges`` by weight (descending for the maximum, where
``sorted(reverse=True)`` keeps ties in their order); la_graph's spanning forest runs on the edges' ranks in
that order, which are distinct, so the forest is the one Kruskal picks.
"""

from __future__ import annotations

from operator import methodcaller

import networkx as nx
import numpy as np

from ..graph import Graph
from ._convert import _EXACT_INT, _pick
from ._utils import _alg, _engine, _no_gc, declines

__all__ = ["minimum_spanning_edges", "minimum_spanning_tree", "maximum_spanning_edges", "maximum_spanning_tree"]


def _kruskal(G, weight, ignore_nan, minimum=True):
    """Edge records ``(entry, key, data)`` of Kruskal's forest, in NetworkX's yield order."""
    src, dst = G._src, G._dst
    first = G._edges                            # G.edges order: each edge from its earlier endpoint
    data = G._edge_data
    if data is None and G._multigraph:
        raise NotImplementedError("data=False on a multigraph: the edge keys were not converted")
    if G._multigraph:                           # one record per parallel edge, in key order
        e, keys, ds = [], [], []
        for i in first.tolist():
            for k, dd in data[i].items():
                e.append(i)
                keys.append(k)
                ds.append(dd)
        e = np.array(e, dtype=np.int64)
    else:
        e, keys = first, None
        held = _held_weights(G, weight)
        if held is not None:                    # finite weights read once per graph: the forest of their ranks
            key = ("kruskal", weight, minimum)
            if key not in G._cache:
                G._cache[key] = _rank_forest(G, e, held, minimum)
            order, F = G._cache[key]
            chosen = _forest(F, order)
            picked = first[chosen]
            none = [None] * picked.size
            return list(zip(picked.tolist(), none, _pick(data, picked) if data is not None else none))
        ds = [data[i] for i in first.tolist()] if data is not None else None
    if ds is not None:
        w = np.array(list(map(methodcaller("get", weight, 1), ds)) if weight is not None else [1] * len(ds))
    else:
        w = G.weights(weight) if weight is not None else np.ones(first.size)
    if w.size and w.dtype.kind not in "biuf":
        raise NotImplementedError(f"edge attribute {weight!r} holds values that are not real numbers")
    if w.dtype.kind == "f":
        nan = np.isnan(w)
        if nan.any():
            if not ignore_nan:
                j = int(np.argmax(nan))
                edge = (G.nodes[src[e[j]]], G.nodes[dst[e[j]]]) + ((keys[j],) if keys else ()) + (ds[j],)
                raise ValueError(f"NaN found as an edge weight. Edge {edge}")
            ok = np.flatnonzero(~nan)
            w, e = w[ok], e[ok]
            keys = [keys[j] for j in ok.tolist()] if keys else keys
            ds = [ds[j] for j in ok.tolist()] if ds is not None else ds
    if not w.size:
        return []
    if w.dtype.kind in "iub" and int(np.abs(w).max()) > _EXACT_INT:
        raise NotImplementedError(f"integer weights beyond 2**53 in {weight!r} are not exact in float64")
    order, F = _rank_forest(G, e, w.astype(np.float64), minimum)
    chosen = _forest(F, order).tolist()
    return [(int(e[j]), keys[j] if keys else None, ds[j] if ds is not None else None) for j in chosen]


def _held_weights(G, weight):
    """The edges' weights as :meth:`LaGraphNX.weights` holds them (read once per graph), or None where they
    cannot be held (NaN, infinite, not numbers: NetworkX's NaN rules then apply to the values themselves)."""
    if weight is None:
        return np.ones(G._edges.size)
    try:
        return G.weights(weight)
    except NotImplementedError:
        return None


def _rank_forest(G, e, w, minimum):
    """Kruskal's order of the edges ``e`` (NetworkX's stable sort by ``w``) and the graph of their ranks."""
    order = np.argsort(w if minimum else -w, kind="stable")           # NetworkX's sorted(): stable
    rank = np.empty(w.size, np.float64)
    rank[order] = np.arange(1, w.size + 1)
    # distinct weights (the ranks): the minimum spanning forest is unique and is Kruskal's
    return order, Graph.from_edges(G._src[e], G._dst[e], rank, n=len(G), directed=False)


def _forest(F, order):
    """Positions (into ``order``'s edges) of the minimum spanning forest of the rank graph ``F``, in Kruskal's
    order."""
    msf = _alg("minimum_spanning_forest")(F, engine=_engine())
    return order[np.sort(np.asarray(msf.weight, dtype=np.float64)).astype(np.int64) - 1]


def _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, minimum):
    if G.is_directed():              # NetworkX's @not_implemented_for("directed"), which its
        raise nx.NetworkXNotImplemented("not implemented for directed type")   # spanning trees meet here
    if algorithm not in ("kruskal", "prim", "boruvka"):
        raise ValueError(f"{algorithm} is not a valid choice for an algorithm.")
    with _no_gc():               # 100,000 edge tuples of G(100k, 800k): 0.7 s of collections otherwise
        recs = _kruskal(G, weight, ignore_nan, minimum)
        e = np.fromiter((r[0] for r in recs), np.int64, len(recs))
        cols = [G.take(G._src[e]), G.take(G._dst[e])]
        if G._multigraph and keys:
            cols.append([r[1] for r in recs])
        if data:
            cols.append([r[2] for r in recs])
        return iter(list(zip(*cols)))


def minimum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True, ignore_nan=False):
    """Kruskal's minimum spanning forest edges, in NetworkX's order, with NetworkX's edge tuples.

    Computed when called (so that a decline reaches NetworkX's dispatcher), yielded lazily.
    """
    if algorithm in ("prim", "boruvka"):
        raise NotImplementedError(f"algorithm={algorithm!r}: only Kruskal's order is reproduced")
    return _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, True)


def maximum_spanning_edges(G, algorithm="kruskal", weight="weight", keys=True, data=True, ignore_nan=False):
    """Kruskal's maximum spanning forest edges, in NetworkX's order, with NetworkX's edge tuples."""
    if algorithm in ("prim", "boruvka"):
        raise NotImplementedError(f"algorithm={algorithm!r}: only Kruskal's order is reproduced")
    return _spanning_edges(G, algorithm, weight, keys, data, ignore_nan, False)


def _spanning_tree(G, weight, algorithm, ignore_nan, minimum):
    if algorithm in ("prim", "boruvka"):     # the same forest when it is unique: distinct weights
        w = G.weights(weight) if weight is not None else np.ones(G._edges.size)
        if G._multigraph or np.unique(w).size != w.size:
            raise NotImplementedError(f"algorithm={algorithm!r} with tied weights (or a multigraph) may pick "
                                      "another tree than Kruskal's")
    edges = _spanning_edges(G, algorithm, weight, True, True, ignore_nan, minimum)
    T = G.nodes_only()
    T.add_edges_from(edges)
    return T


def minimum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    """The minimum spanning forest as a NetworkX graph of ``G``'s class (Kruskal's, as NetworkX builds it; Prim's
    and Borůvka's only where the forest is unique: distinct weights)."""
    return _spanning_tree(G, weight, algorithm, ignore_nan, True)


def maximum_spanning_tree(G, weight="weight", algorithm="kruskal", ignore_nan=False):
    """The maximum spanning forest as a NetworkX graph of ``G``'s class (as :func:`minimum_spanning_tree`)."""
    return _spanning_tree(G, weight, algorithm, ignore_nan, False)


@declines("minimum_spanning_edges", "maximum_spanning_edges")
def _mst_declines(a):
    if a.get("algorithm", "kruskal") != "kruskal":
        return "only algorithm='kruskal' gives NetworkX's order of the edges"
    return None
