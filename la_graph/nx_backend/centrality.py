"""Centralities: betweenness, eigenvector, Katz, closeness, harmonic (NetworkX's ``algorithms.centrality``)."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np

import la_graph

from ._utils import _alg, _by_node, _engine, _node_array, _plain_call, declines

__all__ = ["degree_centrality", "in_degree_centrality", "out_degree_centrality", "eigenvector_centrality_numpy",
           "katz_centrality_numpy", "betweenness_centrality", "edge_betweenness_centrality", "eigenvector_centrality",
           "katz_centrality", "closeness_centrality", "harmonic_centrality"]


def _sources(G, k, seed):
    """The sample of ``k`` sources drawn exactly as NetworkX draws it (``seed.sample(list(G), k)`` from the random
    state NetworkX hands over), as vertex ids; None for every node."""
    if k is None or k == len(G):
        return None
    sources = [G.index[v] for v in (seed or random).sample(list(G.nodes), k)]
    if not sources:                  # NetworkX's scaling divides by the sample's size
        raise ZeroDivisionError("betweenness from a sample of k = 0 sources")
    return sources


def _path_graph(G, weight):
    """The graph whose shortest paths count: hops (``weight=None``) or positive weights (Dijkstra)."""
    if weight is None:
        return G.lagraph(), False
    graph = G.lagraph(weight)
    if graph.nnz and graph.weight_range().min <= 0:
        raise NotImplementedError(f"weight {weight!r}: zero or negative weights are not supported")
    return graph, True


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    """Shortest-path betweenness by la_graph's batched Brandes (by hops, or Dijkstra's paths with ``weight``);
    ``k`` sources drawn exactly as NetworkX draws them, so the same sample."""
    sources = _sources(G, k, seed)
    if len(G) == 0:
        return {}
    graph, weighted = _path_graph(G, weight)
    bc = _alg("betweenness_centrality")(graph, normalized=normalized, endpoints=endpoints, sources=sources,
                                        weight=weighted, engine=_engine())
    return _by_node(G, bc)


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    """Edge betweenness ``{(u, v): score}`` in ``G.edges`` order by la_graph's batched Brandes (by hops, or by
    ``weight``); ``k`` sources drawn as NetworkX draws them."""
    sources = _sources(G, k, seed)
    n = len(G)
    if n == 0:
        return {}
    graph, weighted = _path_graph(G, weight)
    r = _alg("edge_betweenness_centrality")(graph, normalized=normalized, sources=sources, weight=weighted,
                                            engine=_engine())
    key = np.asarray(r.u, dtype=np.int64) * n + np.asarray(r.v, dtype=np.int64)
    order = np.argsort(key)
    key, score = key[order], np.asarray(r.score, dtype=np.float64)[order]
    e = G._edges                     # G.edges order; an undirected edge from its earlier end (u <= v)
    a, b = G._src[e], G._dst[e]
    q = a * n + b
    at = np.minimum(np.searchsorted(key, q), max(key.size - 1, 0))
    vals = np.where((key[at] == q) if key.size else False, score[at] if key.size else 0.0, 0.0)
    lab = G.nodes
    return {(lab[u], lab[v]): x for u, v, x in zip(a.tolist(), b.tolist(), vals.tolist())}


def eigenvector_centrality(G, max_iter=100, tol=1.0e-6, nstart=None, weight=None):
    """Eigenvector centrality as ``{node: value}`` by la_graph's power iteration (NetworkX's rule)."""
    if max_iter < 1:                 # NetworkX's loop never runs, so it has not converged
        raise nx.PowerIterationFailedConvergence(max_iter)
    graph = _plain_call(G, "eigenvector_centrality", weight)
    start = _node_array(G, nstart, 0.0)
    if start is not None and not start.sum() > 0:
        raise NotImplementedError("a zero nstart is left to NetworkX")
    try:
        x = _alg("eigenvector_centrality")(graph, max_iter, tol, start, weight is not None, engine=_engine())
    except la_graph.ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return _by_node(G, x)


def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1.0e-6, nstart=None, normalized=True, weight=None):
    """Katz centrality as ``{node: value}`` by la_graph's power iteration (NetworkX's rule)."""
    if max_iter < 1:                 # NetworkX's loop never runs, so it has not converged
        raise nx.PowerIterationFailedConvergence(max_iter)
    graph = _plain_call(G, "katz_centrality", weight)
    b = _node_array(G, beta, 0.0) if isinstance(beta, dict) else beta
    if not isinstance(b, (int, float, np.ndarray)):
        raise NotImplementedError("beta must be a number or a dict over every node")
    try:
        x = _alg("katz_centrality")(graph, alpha, b, max_iter, tol, _node_array(G, nstart, 0.0), normalized,
                                    weight is not None, engine=_engine())
    except la_graph.ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return _by_node(G, x)


#: the power iterations standing in for NetworkX's exact (ARPACK, dense solve) answers: to the last digits
_EXACT_TOL, _EXACT_ITER = 1e-15, 100_000


def eigenvector_centrality_numpy(G, weight=None, max_iter=50, tol=0):
    """The leading eigenvector (unit length, positive) by la_graph's power iteration run to full precision;
    NetworkX's ``AmbiguousSolution`` for a graph that is not (strongly) connected."""
    if len(G) == 0:
        raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
    if len(G) < 3:                   # ARPACK's eigs needs k = 1 < n - 1
        raise TypeError("Cannot use scipy.linalg.eig for sparse A with k >= N - 1.")
    name = "strongly_connected_components" if G.is_directed() else "connected_components"
    if np.unique(_alg(name)(G.lagraph(), engine=_engine())).size != 1:
        raise nx.AmbiguousSolution("`eigenvector_centrality_numpy` does not give consistent results for "
                                   "disconnected graphs")
    graph = _plain_call(G, "eigenvector_centrality_numpy", weight)
    try:
        x = _alg("eigenvector_centrality")(graph, _EXACT_ITER, _EXACT_TOL, None, weight is not None,
                                           engine=_engine())
    except la_graph.ConvergenceError:
        raise NotImplementedError("the power iteration did not reach full precision") from None
    return _by_node(G, x / np.linalg.norm(x))


def katz_centrality_numpy(G, alpha=0.1, beta=1.0, normalized=True, weight=None):
    """Katz centrality by la_graph's power iteration run to full precision (NetworkX solves the linear
    system; past ``alpha >= 1 / lambda_max``, where the iteration diverges, la_graph declines)."""
    if len(G) == 0:
        return {}
    if len(G) == 1:                  # NetworkX's sum() over the 0-d solution
        raise TypeError("iteration over a 0-d array")
    if isinstance(beta, dict):
        if set(beta) != set(G.nodes):
            raise nx.NetworkXError("beta dictionary must have a value for every node")
        b = _node_array(G, beta, 0.0)
    else:
        try:
            b = float(beta)
        except (TypeError, ValueError):
            raise nx.NetworkXError("beta must be a number") from None
    graph = _plain_call(G, "katz_centrality_numpy", weight)
    try:
        x = _alg("katz_centrality")(graph, alpha, b, _EXACT_ITER, _EXACT_TOL, None, normalized,
                                    weight is not None, engine=_engine())
    except la_graph.ConvergenceError:
        raise NotImplementedError("alpha past 1 / lambda_max: the power iteration diverges") from None
    return _by_node(G, x)


def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """Closeness as ``{node: value}``, or one node's value with ``u``; distances *to* each node."""
    graph = _plain_call(G, "closeness_centrality", distance)
    sources = None if u is None else [G.index[u]]
    c = _alg("closeness_centrality")(graph, wf_improved=wf_improved, distance=distance is not None,
                                     sources=sources, engine=_engine())
    return float(c[0]) if u is not None else _by_node(G, c)


def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """Harmonic centrality as ``{node: value}`` over ``nbunch`` (default every node), all sources."""
    if sources is not None:
        raise NotImplementedError("harmonic_centrality with sources= is left to NetworkX")
    graph = _plain_call(G, "harmonic_centrality", distance)
    nodes = list(G.nodes) if nbunch is None else [v for v in G.nodes if v in set(nbunch)]
    h = _alg("harmonic_centrality")(graph, distance=distance is not None,
                                    sources=[G.index[v] for v in nodes], engine=_engine())
    return dict(zip(nodes, h.tolist()))


@declines("eigenvector_centrality", "katz_centrality", "closeness_centrality", "harmonic_centrality",
          "eigenvector_centrality_numpy", "katz_centrality_numpy")
def _centrality_declines(a):
    G = a.get("G")
    if G is not None and (len(G) == 0 or G.is_multigraph()):
        return "an empty or multigraph G: NetworkX's own conventions there (its errors, summed parallel weights)"
    return None


@declines("edge_betweenness_centrality")
def _edge_betweenness_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX keys the scores by parallel edge; la_graph merges them"
    return None


def _degree_centrality(G, direction):
    n = len(G)
    if n <= 1:
        return {v: 1 for v in G.nodes}
    d = _alg("degree")(G.lagraph(), direction=direction, engine=_engine())
    return _by_node(G, d * (1.0 / (n - 1.0)))


def degree_centrality(G):
    """Each node's degree over ``n - 1`` (in plus out if directed; an undirected self-loop counts twice)."""
    return _degree_centrality(G, "all")


def in_degree_centrality(G):
    """Each node's in-degree over ``n - 1``."""
    return _degree_centrality(G, "in")


def out_degree_centrality(G):
    """Each node's out-degree over ``n - 1``."""
    return _degree_centrality(G, "out")


@declines("degree_centrality", "in_degree_centrality", "out_degree_centrality")
def _degree_declines(a):
    G = a.get("G")
    if G is not None and G.is_multigraph():
        return "a multigraph G: NetworkX counts parallel edges; la_graph's graph merges them"
    return None
