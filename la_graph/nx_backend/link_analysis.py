"""PageRank and HITS (NetworkX's ``algorithms.link_analysis``)."""

from __future__ import annotations

import networkx as nx

import la_graph

from ._utils import (
    _alg,
    _by_node,
    _engine,
    _node_array,
    _per_node,
    _plain_call,
    declines,
)

__all__ = ["pagerank", "hits"]


def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
             dangling=None):
    """PageRank as ``{node: rank}`` by la_graph's power iteration with NetworkX's rule (``variant="networkx"``)."""
    if len(G) == 0:
        return {}
    if max_iter < 1:                 # NetworkX's loop never runs, so it has not converged
        raise nx.PowerIterationFailedConvergence(max_iter)
    p = _per_node(G, personalization)
    if p is not None and p.sum() == 0:
        raise ZeroDivisionError("the personalization vector sums to 0")
    graph = G.lagraph(weight)
    try:
        r = _alg("pagerank")(graph, alpha, personalization=p, max_iter=max_iter, tol=tol,
                             weight=weight is not None, dangling=_per_node(G, dangling), engine=_engine())
    except la_graph.ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    except la_graph.InvalidGraphError as exc:        # e.g. negative weights: NetworkX's own code decides
        raise NotImplementedError(str(exc)) from None
    return _by_node(G, r)


def hits(G, max_iter=100, tol=1.0e-8, nstart=None, normalized=True):
    """HITS ``(hubs, authorities)`` as two ``{node: value}`` dicts (``networkx.hits`` reads ``"weight"``)."""
    if max_iter < 1:                 # NetworkX's loop never runs, so it has not converged
        raise nx.PowerIterationFailedConvergence(max_iter)
    graph = _plain_call(G, "hits", "weight")
    start = _node_array(G, nstart, 0.0)
    if graph.nnz == 0 or (start is not None and not start.sum() > 0):
        raise NotImplementedError("hits without edges is left to NetworkX")
    try:
        h, a = _alg("hits")(graph, max_iter, tol, start, normalized, engine=_engine())
    except la_graph.ConvergenceError:
        raise nx.PowerIterationFailedConvergence(max_iter) from None
    return _by_node(G, h), _by_node(G, a)


@declines("pagerank")
def _pagerank_declines(a):
    G = a.get("G")
    if a.get("nstart") is not None:
        return "nstart (a starting vector) is not supported"
    if G is not None and G.is_multigraph() and a.get("weight", "weight") is not None:
        return "weight on a multigraph: NetworkX sums the weights of parallel edges; la_graph keeps the smallest"
    return None


@declines("hits")
def _hits_declines(a):
    G = a.get("G")
    if G is not None and (len(G) == 0 or G.is_multigraph()):
        return "an empty or multigraph G: NetworkX's own conventions there (its errors, summed parallel weights)"
    return None
