"""NetworkX graphs to la_graph and back: :class:`LaGraphNX` (labels plus la_graph Graphs), the dispatcher's
converters."""

from __future__ import annotations

from collections import deque
from itertools import chain
from operator import eq, itemgetter, methodcaller

import networkx as nx
import numpy as np
import scipy.sparse as sp

import la_graph

from .._validation import INT32_MAX
from ..graph import Graph

_EXACT_INT = 2**53  # integer weights up to this size are exact in float64


class LaGraphNX:
    """A NetworkX graph converted for la_graph: node labels plus la_graph :class:`Graph` objects.

    Vertex ``i`` is ``nodes[i]`` (the order of ``G.nodes``).  The adjacency
    entries are kept in NetworkX's iteration order so that BFS and Kruskal
    orders can be reproduced exactly; one la_graph ``Graph`` per weight
    attribute is built on first use (a multigraph's parallel edges give their
    smallest weight, as NetworkX's shortest-path functions take it).

    Build one with :func:`convert_from_nx` (NetworkX does this itself when a
    call is dispatched) or :meth:`from_graph`; leave with :meth:`to_networkx`.

    Examples
    --------
    >>> import networkx as nx
    >>> from la_graph.nx_backend import convert_from_nx
    >>> H = convert_from_nx(nx.Graph([("a", "b"), ("b", "c")]))
    >>> H
    LaGraphNX(Graph(n=3, edges=2, undirected), nodes=['a', 'b', 'c'])
    >>> [sorted(c) for c in nx.connected_components(H)]   # dispatched to la_graph by the graph's type
    [['a', 'b', 'c']]
    """

    __networkx_backend__ = "la_graph"

    def __init__(self, nodes, src, dst, *, directed, multigraph=False, edge_data=None, node_data=None,
                 graph_attrs=None, nx_class=None):
        self.nodes = list(nodes)
        self._src = src                      # adjacency entries in NetworkX's order
        self._dst = dst
        self._directed = bool(directed)
        # the entries that are the graph's edges, in G.edges order: an undirected edge
        # is listed from both ends, and counts from its earlier endpoint (as G.edges lists it)
        self._edges = np.arange(src.size) if directed else np.flatnonzero(src <= dst)
        self._multigraph = bool(multigraph)
        self._weights = {}                   # attribute -> float64 per edge (of _edges)
        self._int_weights = {}               # attribute -> whether every value is an int
        self._entry_weights = {}             # attribute -> float64 per adjacency entry, where read per entry
        self._edge_data = edge_data          # per entry: data dict (keydict for multigraphs), if kept
        self._node_data = node_data          # per node: data dict, if kept
        self.graph = dict(graph_attrs or {})
        self._nx_class = nx_class or ((nx.MultiDiGraph if multigraph else nx.DiGraph) if directed
                                      else (nx.MultiGraph if multigraph else nx.Graph))
        self._cache = {}                     # la_graph Graphs by weight attribute, labels, index, ranks
        self._nx_pred = None                 # a directed NetworkX graph's G._pred (its in-edge order), if converted
        self._nx_adj = None                  # the NetworkX graph's G._adj, where edge attributes may be read later
        self._identity = False               # whether the labels are 0..n-1 in order (label i is vertex i)
        self.__networkx_cache__ = {}

    @classmethod
    def from_graph(cls, G, nodes=None):
        """Wrap a la_graph :class:`Graph`; vertex ``i`` gets label ``nodes[i]`` (default ``i``).

        Examples
        --------
        >>> import la_graph as lg, networkx as nx
        >>> from la_graph.nx_backend import LaGraphNX
        >>> H = LaGraphNX.from_graph(lg.Graph.from_edges([0, 1], [1, 2], directed=True), nodes="xyz")
        >>> dict(nx.single_source_shortest_path_length(H, "x"))
        {'x': 0, 'y': 1, 'z': 2}
        """
        nodes = list(range(G.n)) if nodes is None else list(nodes)
        if len(nodes) != G.n or len(set(nodes)) != G.n:
            raise la_graph.InvalidArgumentError(f"nodes must be {G.n} distinct labels, got {len(nodes)}")
        src, dst = G.edges()
        H = cls(nodes, src.astype(np.int64), dst.astype(np.int64), directed=G.directed)
        H._identity = _is_identity(H.nodes)
        H._cache[None] = G if G.weights is None else Graph.from_edges(*G.edges(), n=G.n, directed=G.directed)
        if G.weights is not None:
            H._weights["weight"], H._int_weights["weight"] = G.weights[H._edges], False
            H._cache["weight"] = G
        return H

    # ---- the little of NetworkX's graph API the dispatcher and decorators use
    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return self._multigraph

    def __len__(self):
        return len(self.nodes)

    def number_of_nodes(self):
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node):
        if self._identity and type(node) is int:       # no {label: id} dict needed (100,000 nodes: 7 ms)
            return 0 <= node < len(self.nodes)
        try:
            return node in self.index
        except TypeError:
            return False

    def vertex(self, node):
        """The vertex id of label ``node`` (``KeyError`` if it is none)."""
        if self._identity and type(node) is int and 0 <= node < len(self.nodes):
            return node
        return self.index[node]

    def __repr__(self):
        return f"LaGraphNX({self.lagraph()!r}, nodes={_short(self.nodes)})"

    # ---- conversions
    @property
    def index(self):
        """``{label: vertex id}``."""
        if "index" not in self._cache:
            self._cache["index"] = dict(zip(self.nodes, range(len(self.nodes))))
        return self._cache["index"]

    def label_array(self):
        """The labels as an array over vertex ids: ``arange(n)`` where they are ``0..n-1`` in order (cheaper to
        index and to list than objects), else :attr:`labels`."""
        return np.arange(len(self.nodes)) if self._identity else self.labels

    def take(self, ids):
        """The labels of vertex ids ``ids`` as a list (no lookups where the labels are ``0..n-1`` in order)."""
        return ids.tolist() if self._identity else self.labels[ids].tolist()

    @property
    def labels(self):
        """The node labels as a numpy object array (``labels[i]`` is vertex ``i``)."""
        if "labels" not in self._cache:
            # element by element (fromiter): tuples stay tuples, not rows of a 2-D array
            self._cache["labels"] = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._cache["labels"]

    def weights(self, weight, default=1):
        """float64 weight of every edge (``_edges``) for attribute ``weight`` (``None``: unweighted).

        A missing attribute counts as ``default``; read from the edge data once.
        """
        if weight is None:
            return None
        if weight not in self._weights:
            if self._edge_data is not None:
                datas = self._edge_data
                if len(datas) != self._edges.size:      # an undirected edge's data from its earlier end only,
                    datas = map(datas.__getitem__, self._edges.tolist())     # each read as it is fetched
                w, is_int = _weights_from_values(_attr_values(datas, weight, default, self._multigraph), weight)
            elif self._nx_adj is not None and not self._multigraph:
                w, is_int = _weights_from_values(_adj_values(self._nx_adj, weight, default, self._dst.size), weight)
                if w.size != self._edges.size:
                    self._entry_weights[weight] = w
                    w = w[self._edges]
            else:
                raise NotImplementedError(f"edge attribute {weight!r} was not converted")
            self._weights[weight], self._int_weights[weight] = w, is_int
        return self._weights[weight]

    def int_weights(self, weight):
        """Whether NetworkX sums this attribute as Python ints (so results are ints)."""
        return weight is None or (self.weights(weight) is not None and self._int_weights[weight])

    def lagraph(self, weight=None):
        """The la_graph :class:`Graph` with ``weight`` as edge weights (``None``: unweighted; cached)."""
        if weight is None and weight not in self._cache:
            self._cache[None] = self._structure()
        if weight not in self._cache:
            w = self.weights(weight)
            if self._multigraph or not (self._directed or weight in self._entry_weights):
                e = self._edges
                self._cache[weight] = Graph.from_edges(self._src[e], self._dst[e], w, n=len(self.nodes),
                                                       directed=self._directed)
            else:   # a weight per adjacency entry: the graph straight from them, as _structure
                self._cache[weight] = self._structure(w if self._directed else self._entry_weights[weight])
        return self._cache[weight]

    def _structure(self, w=None):
        """The :class:`Graph` straight from the adjacency entries (weights ``w`` per entry, or unweighted): they
        are NetworkX's adjacency, so already every stored entry once (both ends of an undirected edge, a
        self-loop once), without duplicates and grouped by row; only the order within a row is sorted
        (``from_edges`` would symmetrize, sort and deduplicate the edges again: 60 of the 250 ms of an uncached
        call on G(100k, 800k), 90 ms with weights)."""
        n = len(self.nodes)
        ptr = self._entry_ptr()
        data = np.ones(self._dst.size, bool) if w is None else w
        if self._directed:
            S = sp.csr_array((data.copy(), self._dst.copy(), ptr.copy()), shape=(n, n))
            S.sort_indices()    # in place: on copies, the entries keep NetworkX's order
        else:                   # symmetric: the transpose (a counting sort by column) is the graph, rows sorted
            S = sp.csr_array((data, self._dst, ptr), shape=(n, n)).T.tocsr()
        indices = S.indices.astype(np.int32 if n <= INT32_MAX else np.int64, copy=False)
        weights = None if w is None else S.data.astype(np.float64, copy=False)
        return Graph(ptr.astype(np.int64), indices, weights, n, self._directed, _trusted=True)

    def reverse(self):
        """The reverse of a directed graph with its adjacency in NetworkX's ``G.pred`` order (cached; an undirected
        graph is its own reverse).  Searches on it are NetworkX's searches over predecessors."""
        if not self._directed:
            return self
        if "reverse" not in self._cache:
            if self._nx_pred is not None:            # G.pred's order: the order the edges were added
                keys, ends = [], []
                for nbrs in self._nx_pred.values():
                    keys.extend(nbrs)
                    ends.append(len(keys))
                deg = np.diff(np.array([0] + ends, dtype=np.int64))
                src = np.repeat(np.arange(len(self.nodes), dtype=np.int64), deg)
                dst = np.fromiter(map(self.index.__getitem__, keys), np.int64, len(keys))
            else:                                    # no NetworkX graph: in-edges by source order
                order = np.lexsort((self._src, self._dst))
                src, dst = self._dst[order], self._src[order]
            R = LaGraphNX(self.nodes, src, dst, directed=True, multigraph=self._multigraph, nx_class=self._nx_class)
            R._cache["index"] = self.index
            R._identity = self._identity
            self._cache["reverse"] = R
        return self._cache["reverse"]

    def _entry_ptr(self):
        """Where each vertex's adjacency entries start in ``_src``/``_dst`` (grouped by vertex; ``n + 1``)."""
        if "ptr" not in self._cache:
            n = len(self.nodes)
            self._cache["ptr"] = np.concatenate([[0], np.cumsum(np.bincount(self._src, minlength=n))])
        return self._cache["ptr"]

    def nodes_only(self):
        """A NetworkX graph of the original class with the graph's attributes and nodes (and their data), no edges."""
        H = self._nx_class()
        H.graph.update(self.graph)
        if self._node_data is not None:
            H.add_nodes_from(zip(self.nodes, self._node_data))
        else:
            H.add_nodes_from(self.nodes)
        return H

    def to_networkx(self):
        """The graph as a NetworkX graph of the original class, with its labels, weights and attributes."""
        H = self.nodes_only()
        lab, e = self.nodes, self._edges
        src, dst = self._src[e].tolist(), self._dst[e].tolist()
        if self._edge_data is not None:
            for u, v, d in zip(src, dst, map(self._edge_data.__getitem__, e.tolist())):
                if self._multigraph:
                    for k, dd in d.items():
                        H.add_edge(lab[u], lab[v], key=k, **dd)
                else:
                    H.add_edge(lab[u], lab[v], **d)
        else:
            attrs = list(self._weights.items())
            for i, (u, v) in enumerate(zip(src, dst)):
                H.add_edge(lab[u], lab[v], **{a: _pyval(w[i], self._int_weights[a]) for a, w in attrs})
        return H


def _short(nodes, k=6):
    return repr(nodes) if len(nodes) <= k else repr(nodes[:k])[:-1] + ", ...]"


def _pick(seq, idx):
    """``[seq[i] for i in idx]`` by one C call (``itemgetter``) rather than a Python lookup per item."""
    idx = idx.tolist()
    return [seq[i] for i in idx] if len(idx) < 2 else itemgetter(*idx)(seq)


def _pyval(x, is_int):
    return int(x) if is_int else float(x)


def _attr_values(datas, attr, default, multigraph):
    """Attribute ``attr`` of each data dict (``default`` where missing; a multigraph's smallest parallel edge)."""
    if multigraph:
        return [min(d.get(attr, default) for d in kd.values()) for kd in datas]
    return list(map(methodcaller("get", attr, default), datas))


def _adj_values(adj, attr, default, count):
    """Attribute ``attr`` of every adjacency entry of NetworkX's ``G._adj``, in its order, in one pass over the
    data dicts (each edge's dict is touched where it is read, not first listed and then picked: on G(100k, 800k)
    the dicts lie all over memory and each touch is a cache miss)."""
    vals = [d.get(attr, default) for nbrs in adj.values() for d in nbrs.values()]    # faster than map() here
    if len(vals) != count:
        raise NotImplementedError("the NetworkX graph changed since it was converted")
    return vals


def _weights_from_values(vals, attr):
    """float64 weights from the attribute values as NetworkX reads them, and whether all are ints; declines what
    la_graph cannot hold."""
    w = np.array(vals) if vals else np.zeros(0, np.int64)
    if w.dtype.kind not in "biuf" or w.ndim != 1:
        raise NotImplementedError(f"edge attribute {attr!r} holds values that are not real numbers")
    is_int = w.dtype.kind in "biu"
    if is_int and w.size and int(np.abs(w).max()) > _EXACT_INT:
        raise NotImplementedError(f"integer weights beyond 2**53 in {attr!r} are not exact in float64")
    w = w.astype(np.float64)
    if not np.all(np.isfinite(w)):
        raise NotImplementedError(f"edge attribute {attr!r} holds NaN or infinite weights")
    return w, is_int


def convert_from_nx(graph, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                    preserve_node_attrs=False, preserve_graph_attrs=False, name=None, graph_name=None):
    """Convert a NetworkX graph to a :class:`LaGraphNX` (NetworkX's dispatcher calls this).

    ``edge_attrs`` (``{attribute: default}``) are read into float64 weights;
    the edge data dicts themselves are kept when read (for results that hand
    them back, such as ``minimum_spanning_edges``), and with
    ``preserve_node_attrs`` / ``preserve_graph_attrs`` the node data and
    ``G.graph``.  Node labels may be any hashable.

    Raises ``NotImplementedError`` (NetworkX then falls back where it may) for
    weights that are not finite real numbers.
    """
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"expected a networkx graph, got {type(graph).__name__}")
    nodes = list(graph)
    n = len(nodes)
    multigraph = graph.is_multigraph()
    # the data dicts are listed only where they are handed back; weights are read straight from the adjacency
    keep_data = bool(preserve_edge_attrs or (edge_attrs and multigraph))
    adj = graph._adj
    datas = [] if keep_data else None
    if type(adj) is dict:                       # a graph's own adjacency: the loops run in C
        deg = np.fromiter(map(len, adj.values()), np.int64, n)
        keys = None                             # read once below, by chain.from_iterable(adj.values())
        if keep_data:
            deque(map(datas.extend, map(methodcaller("values"), adj.values())), maxlen=0)
    else:                                       # a view: len() of a filtered neighbourhood may not count it
        keys, ends = [], []
        for nbrs in adj.values():
            keys.extend(nbrs)
            if keep_data:
                datas.extend(nbrs.values())
            ends.append(len(keys))
        deg = np.diff(np.array([0] + ends, dtype=np.int64))
    ptr = np.concatenate([[0], np.cumsum(deg)])
    src = np.repeat(np.arange(n, dtype=np.int64), deg)
    count = int(ptr[-1])
    identity = _is_identity(nodes)
    if identity:                                # labels 0..n-1 in order: no lookups needed
        index = None
        dst = np.fromiter(chain.from_iterable(adj.values()) if keys is None else keys, np.int64, count)
    else:
        index = dict(zip(nodes, range(n)))
        dst = _int_label_ids(nodes, adj, count) if keys is None else None
        if dst is None:
            keys = chain.from_iterable(adj.values()) if keys is None else keys
            dst = np.fromiter(map(index.__getitem__, keys), np.int64, count)
    H = LaGraphNX(
        nodes, src, dst, directed=graph.is_directed(), multigraph=multigraph,
        edge_data=datas, node_data=[graph._node[v] for v in nodes] if preserve_node_attrs else None,
        graph_attrs=graph.graph if preserve_graph_attrs else None, nx_class=graph.__class__,
    )
    if index is not None:
        H._cache["index"] = index
    H._identity = identity
    H._cache["ptr"] = ptr
    if graph.is_directed():
        H._nx_pred = graph._pred
    if edge_attrs:
        H._nx_adj = adj                         # other attributes are read from it on request
    for attr, default in (edge_attrs or {}).items():
        H.weights(attr, 1 if default is None else default)      # read now: a decline happens here
    return H


def _is_identity(nodes):
    """Whether the labels are the ints ``0..n-1`` in order (not merely equal to them: ``True`` or ``1.0`` for
    ``1`` must come back as given)."""
    return all(map(eq, nodes, range(len(nodes)))) and set(map(type, nodes)) <= {int}


def _int_label_ids(nodes, adj, count):
    """The vertex ids of the entries of NetworkX's ``adj`` where every label is an ``int`` (not ``0..n-1`` in
    order), without a dict lookup per entry: the keys read as int64 and looked up in a table over the label range
    (or by binary search where the labels are spread wide).  None where the labels are not all ints that int64
    holds, or a key is not one (a ``True`` for the node ``1``)."""
    if set(map(type, nodes)) != {int}:
        return None
    try:
        lab = np.array(nodes, dtype=np.int64)
        keys = np.fromiter(chain.from_iterable(adj.values()), np.int64, count)
    except (OverflowError, TypeError, ValueError):
        return None
    lo, hi = int(lab.min()), int(lab.max())
    if hi - lo <= 4 * lab.size + 1024:          # a table over the label range
        table = np.empty(hi - lo + 1, np.int64)
        table[lab - lo] = np.arange(lab.size)
        return table[keys - lo]
    order = np.argsort(lab, kind="stable")
    return order[np.searchsorted(lab[order], keys)]


def convert_to_nx(obj, *, name=None):
    """Results are already NetworkX's types; a :class:`LaGraphNX` becomes a NetworkX graph."""
    if isinstance(obj, LaGraphNX):
        return obj.to_networkx()
    return obj
