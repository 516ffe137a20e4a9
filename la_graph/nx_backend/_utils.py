"""Helpers shared by the backend's functions: the engine setting, the decline rules, label grouping, NetworkX's BFS
order, paths from parent vectors, result dicts and subgraphs."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from itertools import islice, repeat

import networkx as nx
import numpy as np
import scipy.sparse as sp

import la_graph

from ..graph import Graph
from ._convert import _pyval

#: NetworkX name -> ``why(arguments)``: None where la_graph gives NetworkX's answer for the call's bound
#: arguments, else why not, naming the argument (``can_run`` reports it; NetworkX then runs its own code)
DECLINES = {}


def declines(*names):
    """Register the decorated ``why(arguments)`` as the decline rule of the NetworkX functions ``names``."""
    def wrap(why):
        for name in names:
            DECLINES[name] = why
        return why
    return wrap


@contextmanager
def _no_gc():
    """The cyclic garbage collector paused while a result of many new containers is built (none cyclic): with
    the NetworkX graph's millions of objects tracked, the full collections their allocation triggers cost more
    than building them (``k_core`` of G(100k, 800k): a subgraph of 700,000 edges; 100,000 spanning edges)."""
    collect = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collect:
            gc.enable()


def _tuples(*columns):
    """``list(zip(*columns))`` built with the collector paused (the tuples of an edge list, for a generator to
    yield: built while its consumer iterates, each thousand tuples would set off a collection)."""
    with _no_gc():
        return list(zip(*columns))


def _engine():
    """``nx.config.backends.la_graph.engine``; ``None`` leaves the choice to la_graph's own configuration."""
    return getattr(getattr(nx.config.backends, "la_graph", None), "engine", None)


def _alg(name):
    f = getattr(la_graph, name, None)
    if f is None:
        raise NotImplementedError(f"la_graph.{name} is not available in this version of la_graph")
    return f


def _kept(G, name):
    """``la_graph.<name>`` of the converted graph ``G``, computed once per engine and kept on ``G`` (read-only).

    NetworkX's cache hands back the same converted graph only while the NetworkX graph is unchanged (a change
    through its API clears the cache), so an answer about it stays the answer: ``transitivity`` after
    ``triangles`` counts nothing again (graphblas-algorithms keeps its triangles the same way)."""
    key = ("result", name, _engine())
    out = G._cache.get(key)
    if out is None:
        out = np.asarray(_alg(name)(G.lagraph(), engine=_engine()))
        out.setflags(write=False)
        G._cache[key] = out
    return out


def _groups(labels, values):
    """Sets of ``values`` grouped by equal ``labels``, in increasing label order."""
    order = np.argsort(labels, kind="stable")
    lab = labels[order]
    cuts = (np.flatnonzero(lab[1:] != lab[:-1]) + 1).tolist()
    vals = values[order].tolist()            # one list sliced, not an array split in one view per group
    if not vals:
        return []
    with _no_gc():                           # R-MAT 18: 88,000 sets; the collections they set off cost 1.4 s
        return [set(vals[a:b]) for a, b in zip([0, *cuts], [*cuts, len(vals)])]


def _levels(H, sources, depth_limit=None):
    """BFS levels (hops, ``-1`` unreached) from vertex ``sources`` (an int, or several searched together)."""
    G = H.lagraph()
    srcs = np.atleast_1d(np.asarray(sources, dtype=np.int64))
    if srcs.size == 1:
        level = _alg("bfs")(G, int(srcs[0]), parent=False, engine=_engine()).level
    else:        # one search from a new vertex n with an edge to each source: one level more
        n = G.n
        rows, cols = G.edges()
        S = Graph.from_edges(np.concatenate([rows, np.full(srcs.size, n)]), np.concatenate([cols, srcs]),
                             n=n + 1, directed=True)
        level = _alg("bfs")(S, n, parent=False, engine=_engine()).level[:n]
        level = np.where(level > 0, level - 1, -1)
    if depth_limit is not None:
        level = np.where(level > depth_limit, -1, level)
    return level


def _bfs_order(H, s, depth_limit, parents=True):
    """NetworkX's BFS visiting order and tree parents from vertex ``s`` (or the sources ``s``, in order), from
    la_graph's levels.

    NetworkX appends ``v`` to level ``L + 1`` at its first in-edge ``(u, v)``
    from level ``L`` in the order (position of ``u`` in the BFS, position of
    ``v`` in ``u``'s adjacency).  la_graph's BFS gives the levels; this walks
    the adjacency entries of each level's vertices in that order (the
    entries are held in NetworkX's order, grouped by vertex, so no sort is
    needed) and keeps each next-level vertex's first entry.  Returns
    ``(order, parent, level)``: the vertices in visiting order, the parent of
    each (``-1`` for a source; ``None`` with ``parents=False``), and the levels
    of every vertex.
    """
    srcs = np.atleast_1d(np.asarray(s, dtype=np.int64))
    level = _levels(H, srcs, depth_limit)
    nlev = int(level.max(initial=0)) + 1
    ptr, dst = H._entry_ptr(), H._dst
    deg = np.diff(ptr)
    first = np.full(len(H), np.iinfo(np.int64).max)     # a vertex's first entry in its level's walk
    rank = np.full(len(H), -1) if not H._directed else None
    frontier = srcs
    order, parent = [srcs], [np.full(srcs.size, -1)]
    for L in range(nlev - 1):
        walk = frontier
        if rank is not None:
            rank[frontier] = np.arange(frontier.size)
            nxt = np.flatnonzero(level == L + 1)
            if 2 * int(deg[nxt].sum()) < int(deg[frontier].sum()):
                walk = _parents_among(frontier, nxt, rank, level == L, ptr, dst, deg)
        lo, cnt = ptr[walk], deg[walk]
        total = int(cnt.sum())
        # the entries of the walked vertices, vertex by vertex in BFS order, each in adjacency order
        ent = np.repeat(lo - (np.cumsum(cnt) - cnt), cnt) + np.arange(total)
        v = dst[ent]
        down = np.flatnonzero(level[v] == L + 1)
        v = v[down]
        np.minimum.at(first, v, down)
        keep = first[v] == down
        if parents:
            parent.append(_owner(walk, cnt, down[keep]))
        frontier = v[keep]
        order.append(frontier)
    return np.concatenate(order), np.concatenate(parent) if parents else None, level


def _parents_among(frontier, nxt, rank, in_frontier, ptr, dst, deg):
    """The vertices of ``frontier`` (in its order) that are the BFS parent of some vertex of ``nxt``: each one's
    neighbour of least ``rank`` in the frontier (an undirected graph: a vertex's entries are its in-edges too).
    Walking only these finds the same first entries as walking the whole frontier, at the cost of ``nxt``'s
    entries where the frontier has many more (a search's last levels)."""
    cnt = deg[nxt]
    ent = np.repeat(ptr[nxt] - (np.cumsum(cnt) - cnt), cnt) + np.arange(int(cnt.sum()))
    u = dst[ent]
    at = np.flatnonzero(in_frontier[u])
    best = np.full(rank.size, np.iinfo(np.int64).max)
    np.minimum.at(best, np.repeat(nxt, cnt)[at], rank[u[at]])
    is_parent = np.zeros(rank.size, bool)
    is_parent[frontier[best[nxt]]] = True
    return frontier[is_parent[frontier]]


def _owner(vertices, counts, positions):
    """The vertex among ``vertices`` (with ``counts`` consecutive entries each) whose entries hold ``positions``."""
    return vertices[np.searchsorted(np.cumsum(counts), positions, side="right")]


def _hops(parent, reached):
    """Hops from each reached vertex to the root of its tree (``parent[root] == root``), by pointer jumping."""
    p = np.where(reached, parent, np.arange(parent.size))
    d = (p != np.arange(p.size)).astype(np.int64)
    while True:
        pp = p[p]
        if np.array_equal(pp, p):
            return d
        d, p = d + d[p], pp


def _tree_paths(labels, parent, reached, keys=None, reverse=False):
    """``{label: path}`` along the parent tree (``parent[root] == root``) for the reached vertices, in the order
    of ``keys`` (vertex ids; default by hops); ``reverse`` gives paths *to* the root (single-target search)."""
    idx = np.flatnonzero(reached)
    hops = _hops(parent, reached)
    lab = labels.tolist()
    build = idx[np.argsort(hops[idx], kind="stable")]     # a parent's path before its children's
    paths = [None] * parent.size
    with _no_gc():   # n new lists: the collector passing over them made 50,000 paths 70-360 ms, not 50
        for v, p in zip(build.tolist(), parent[build].tolist()):
            if v == p:
                paths[v] = [lab[v]]
            elif reverse:
                paths[v] = [lab[v]] + paths[p]
            else:
                paths[v] = paths[p] + [lab[v]]
        keys = build if keys is None else keys
        return {lab[v]: paths[v] for v in keys.tolist()}


def _dist_values(d, is_int):
    return d.astype(np.int64).tolist() if is_int else d.tolist()


def _by_node(G, values):
    """``{node: value}`` in the order of ``G.nodes``."""
    return dict(zip(G.nodes, values.tolist()))


def _per_node(G, d):
    """A ``{node: value}`` dict as an array over vertex ids (nodes left out get 0), or None."""
    if d is None:
        return None
    out = np.zeros(len(G))
    for v, x in d.items():
        if v in G.index:
            out[G.index[v]] = x
    return out


def _some_nodes(G, nodes, values, single):
    """NetworkX's answer for ``nodes``: one value for a single node, else a dict over those nodes."""
    try:
        one = nodes in G.index
    except TypeError:                # an unhashable container of nodes
        one = False
    if one:
        return single(values[G.index[nodes]])
    if nodes is None:
        return {v: single(x) for v, x in zip(G.nodes, values.tolist())}
    return {v: single(values[G.index[v]]) for v in dict.fromkeys(_nbunch(G, nodes))}


def _nbunch(G, nodes):
    """The nodes of the container ``nodes`` that are in ``G``, in its order, with the errors of NetworkX's
    ``G.nbunch_iter(nodes)`` (``nodes`` not iterable, an unhashable member)."""
    try:
        it = iter(nodes)
    except TypeError:
        raise nx.NetworkXError(f"Node {nodes} is not in the graph.") from None
    wanted = []
    for v in it:
        try:
            if v in G.index:
                wanted.append(v)
        except TypeError:
            raise nx.NetworkXError(f"Node {v} in sequence nbunch is not a valid node.") from None
    return wanted


_SELF_LOOPS = ("Input graph has self loops which is not permitted; "
               "Consider using G.remove_edges_from(nx.selfloop_edges(G)).")


def _nx_subgraph(G, keep_node, keep_entry):
    """A NetworkX graph of ``G``'s class holding the nodes where ``keep_node`` (over vertex ids) and the adjacency
    entries where ``keep_entry``, in ``G``'s order, with their data: what ``G.subgraph(nodes).copy()`` gives."""
    with _no_gc():
        return _nx_subgraph_built(G, keep_node, keep_entry)


def _nx_subgraph_built(G, keep_node, keep_entry):
    H = G._nx_class()
    H.graph.update(G.graph)
    lab = G.nodes
    ids = np.flatnonzero(keep_node)
    plain = (not G._multigraph and type(H._adj) is dict and type(H._node) is dict
             and H.adjlist_inner_dict_factory is dict and H.node_attr_dict_factory is dict)
    if plain:                                           # NetworkX's own dicts: written straight in
        e = G._edges[keep_entry[G._edges]]              # the edges, as NetworkX's copy() first adds each
        if G._edge_data is not None:
            datas = list(map(dict, map(G._edge_data.__getitem__, e.tolist())))     # each copied as fetched
        else:
            datas = _data_dicts(G, np.flatnonzero(keep_entry[G._edges]))
        labs = G.take(ids)
        nd = map(G._node_data.__getitem__, ids.tolist()) if G._node_data is not None else repeat((), ids.size)
        H._node.update(zip(labs, map(dict, nd)))
        _add_edges_in_order(H, G, ids, labs, G._src[e], G._dst[e], datas)
        return H
    ids = ids.tolist()
    if G._node_data is not None:
        H.add_nodes_from((lab[i], dict(G._node_data[i])) for i in ids)
    else:
        H.add_nodes_from(lab[i] for i in ids)
    if G._edge_data is not None:                        # every entry, as NetworkX's copy() adds them
        ent = np.flatnonzero(keep_entry).tolist()
        src, dst = G._src[ent].tolist(), G._dst[ent].tolist()
        datas = map(G._edge_data.__getitem__, ent)
        if G._multigraph:
            for u, v, kd in zip(src, dst, datas):
                for key, d in kd.items():
                    H.add_edge(lab[u], lab[v], key=key, **d)
        else:
            H.add_edges_from((lab[u], lab[v], dict(d)) for u, v, d in zip(src, dst, datas))
    else:                                               # the edges and the weights read so far
        e = G._edges[keep_entry[G._edges]]
        at = np.flatnonzero(keep_entry[G._edges])
        attrs = list(G._weights.items())
        for i, (u, v) in zip(at.tolist(), zip(G._src[e].tolist(), G._dst[e].tolist())):
            H.add_edge(lab[u], lab[v], **{a: _pyval(w[i], G._int_weights[a]) for a, w in attrs})
    return H


def _data_dicts(G, at):
    """A new data dict for each of the converted graph's edges ``at``, holding the attributes read from it (what
    NetworkX's ``copy()`` gives such an edge): each attribute's values listed at once, then one small dict per
    edge (a dict comprehension per edge cost 150 ms of k_core's 800 on G(100k, 800k); no attribute: ``{}``)."""
    cols = [(a, (w[at].astype(np.int64) if G._int_weights[a] else w[at].astype(np.float64)).tolist())
            for a, w in G._weights.items()]
    if not cols:
        return [{} for _ in range(at.size)]
    if len(cols) == 1:
        (a, col), = cols
        return [{a: x} for x in col]
    names = [a for a, _ in cols]
    return [dict(zip(names, vals)) for vals in zip(*(col for _, col in cols))]


def _add_edges_in_order(H, G, ids, labs, u, v, datas):
    """Give the new graph ``H`` its adjacency: the nodes ``ids`` (vertex ids, increasing; labels ``labs``) and
    the edges ``(u[i], v[i])`` with data ``datas[i]``, as ``H.add_edges_from`` would, written straight into its
    dicts: each node's neighbours in the order of the edges that first name them (an undirected edge once, one
    data dict for both ends).  Each node's dict is made from its run of the sorted entries in one C call."""
    k, n = u.size, len(G)
    if H.is_directed():
        sides = ((H._succ, u, v, np.ones(k, np.int64)), (H._pred, v, u, np.ones(k, np.int64)))
    else:                                               # each edge from both ends, a self-loop once
        loop = u == v
        keep = np.ones((k, 2), bool)
        keep[:, 1] = ~loop
        keep = keep.ravel()
        sides = ((H._adj, np.column_stack([u, v]).ravel()[keep], np.column_stack([v, u]).ravel()[keep],
                  2 - loop.astype(np.int64)),)
    vals = np.empty(len(datas), dtype=object)
    vals[:] = datas
    for adj, a, b, per_edge in sides:
        # the entries listed edge by edge, grouped by their node ``a`` in that order: the transpose of the
        # (edge x node) matrix, a stable counting sort in scipy (a lexsort of 1.4 M entries took 150 ms)
        by_edge = sp.csr_array((b, a, np.concatenate([[0], np.cumsum(per_edge)])), shape=(k, n))
        by_node = by_edge.T.tocsr()
        at, nbr = by_node.indices, by_node.data
        counts = np.diff(by_node.indptr)[ids].tolist()
        # each entry's data dict picked by a take of an object array (one C loop: a list's ``__getitem__``
        # mapped over the positions as a list cost 80 ms more of k_core's 750 on G(100k, 800k))
        run = zip(G.take(nbr), vals[at])
        adj.update(zip(labs, map(dict, map(islice, repeat(run), counts))))


def _induced(G, ids):
    """The subgraph of ``G`` induced by vertex ids ``ids``, as NetworkX's ``G.subgraph(nodes).copy()``."""
    keep = np.zeros(len(G), bool)
    keep[ids] = True
    return _nx_subgraph(G, keep, keep[G._src] & keep[G._dst])


def _plain_call(G, name, weight=None):
    """The la_graph graph for a centrality call, or NotImplementedError (NetworkX's own code then runs) where
    NetworkX's conventions are not la_graph's: multigraphs, empty graphs (NetworkX raises its own errors there)."""
    if G._multigraph or len(G) == 0:
        raise NotImplementedError(f"{name}: multigraphs and empty graphs are left to NetworkX")
    graph = G.lagraph(weight)
    if weight is not None and graph.nnz and graph.weight_range().min < 0:
        raise NotImplementedError(f"{name}: negative weights are left to NetworkX")
    return graph


def _node_array(G, d, default):
    """``{node: value}`` over every node as an array (NotImplementedError if a node is missing), or None."""
    if d is None:
        return None
    if not isinstance(d, dict) or set(d) != set(G.nodes):
        raise NotImplementedError("per-node values must name every node")
    return np.array([float(d[v]) for v in G.nodes])
