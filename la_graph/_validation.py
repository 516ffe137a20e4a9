"""The one place that checks inputs.

Public functions call these first; engines and algorithms may then assume
well-formed data.  Messages are short, state the rule and the value.
"""

from __future__ import annotations

import math
import numbers
import os

import numpy as np

from .exceptions import InvalidArgumentError, InvalidGraphError, InvalidSourceError, OutOfMemory

INT32_MAX = np.iinfo(np.int32).max
INT64_MAX = np.iinfo(np.int64).max


#: the class :func:`check_graph` accepts: :class:`la_graph.Graph`, named by :mod:`la_graph.graph` as it defines
#: it (:func:`accept_graph_class`), because this floor module imports nothing of la_graph above it; no Graph
#: exists before that, so the empty tuple (nothing is a Graph) is never wrong
_GRAPH = ()


def accept_graph_class(cls):
    """Make :func:`check_graph` accept instances of ``cls`` (and its subclasses); called once, by
    :mod:`la_graph.graph` for :class:`~la_graph.Graph`."""
    global _GRAPH
    _GRAPH = cls


#: the package of an object passed for a Graph -> how to make one of it
_CONVERTERS = {"networkx": "Graph.from_networkx(G) converts it (or call NetworkX's own function with "
                           "backend='la_graph')",
               "scipy": "Graph.from_scipy(A) converts a sparse adjacency matrix"}


def check_graph(G, *, undirected=False, weighted=None, name="G"):
    """Return ``G`` if it is a :class:`~la_graph.Graph` meeting the rules asked for.

    Parameters
    ----------
    undirected : bool
        The algorithm is defined on undirected graphs only.
    weighted : bool or None
        ``True``: the algorithm needs edge weights.
    """
    if not isinstance(G, _GRAPH):
        where = type(G).__module__.split(".")[0]
        how = _CONVERTERS.get(where)
        got = type(G).__name__ if how is None else f"{where}.{type(G).__name__}"
        raise InvalidGraphError(f"{name} must be a la_graph.Graph, got {got}; " + (how or (
            "build one with Graph.from_edges, Graph.from_scipy, Graph.from_networkx or Graph.from_file")))
    if undirected and G.directed:
        raise InvalidGraphError(
            "this algorithm needs an undirected graph, got a directed one; "
            "use Graph.from_edges(..., directed=False) or G.to_undirected()"
        )
    if weighted and not G.weighted:
        raise InvalidGraphError("this algorithm needs edge weights, got an unweighted graph")
    return G


def check_vertex(s, n, *, what="source"):
    """Return ``s`` as a Python int if it is an integer vertex id in ``0..n-1``."""
    if type(s) is int and 0 <= s < n:   # the common case, without the ABC checks (~1 us)
        return s
    if isinstance(s, (bool, np.bool_)) or not isinstance(s, (numbers.Integral, np.integer)):
        raise InvalidSourceError(f"{what} must be an integer vertex id, got {s!r}")
    s = int(s)
    if not 0 <= s < n:
        if n == 0:
            raise InvalidSourceError(f"{what} {s} is out of range: the graph has no vertices")
        raise InvalidSourceError(f"{what} {s} is out of range 0..{n - 1}")
    return s


def check_vertices(sources, n, *, what="sources"):
    """Return ``sources`` as a 1-D int64 array of vertex ids in ``0..n-1``."""
    arr = np.asarray(sources)
    if arr.ndim != 1:
        raise InvalidSourceError(f"{what} must be a 1-D list of vertex ids, got shape {arr.shape}")
    if arr.size == 0:
        raise InvalidSourceError(f"{what} must name at least one vertex")
    if arr.dtype.kind not in "iu":
        # accept an object/float array whose entries are all integers
        for s in arr.tolist():
            check_vertex(s, n, what=what[:-1] if what.endswith("s") else what)
        arr = arr.astype(np.int64)
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        s = int(arr[bad[0]])
        raise InvalidSourceError(
            f"{what}[{bad[0]}] = {s} is out of range 0..{n - 1}"
            if n
            else f"{what}[{bad[0]}] = {s} is out of range: the graph has no vertices"
        )
    return arr.astype(np.int64, copy=False)


def check_choice(value, choices, *, what):
    """Return ``value`` if it is one of ``choices`` (an unhashable value, a list say, is none of them)."""
    try:
        found = value in choices
    except TypeError:   # `[1] in {"a"}`: unhashable
        found = False
    if not found:
        raise InvalidArgumentError(f"{what} must be one of {sorted(choices)}, got {value!r}")
    return value


def check_real(value, what, *, low=None, high=None, open_low=False):
    """Return ``value`` as a float if it is a finite real number in ``[low, high]``.

    ``open_low=True`` excludes ``low`` itself (``tol > 0``).  Booleans are not numbers here.
    """
    x = None
    if not isinstance(value, (bool, np.bool_)) and isinstance(value, (numbers.Real, np.integer, np.floating)):
        try:
            x = float(value)
        except (OverflowError, ValueError, TypeError):
            x = None
    if x is None or not math.isfinite(x):
        raise InvalidArgumentError(f"{what} must be a finite real number, got {value!r}")
    if low is not None and (x <= low if open_low else x < low):
        raise InvalidArgumentError(f"{what} must be {'>' if open_low else '>='} {low}, got {value!r}")
    if high is not None and x > high:
        raise InvalidArgumentError(f"{what} must be <= {high}, got {value!r}")
    return x


def check_bucket_width(delta, n, wmax):
    """Return ``delta`` if delta-stepping's buckets of width ``delta`` can be numbered in float64.

    A distance is at most ``(n - 1) * wmax``; its bucket number, distance / ``delta``, must
    stay below 2**52, where consecutive numbers are still distinct floats (past it bucket
    ``b`` and ``b + 1`` share their bounds and the search never leaves the bucket).
    """
    low = wmax * (max(n - 1, 1) / 2**52)
    if delta < low:
        raise InvalidArgumentError(
            f"delta must be at least (n - 1) * the largest weight / 2**52 = {low:.3g} (smaller buckets cannot "
            f"be numbered in float64), got {delta!r}")
    return delta


def check_weight_flag(weight):
    """Return ``weight`` if it is ``None`` (``G``'s weights if it has them), ``True`` or ``False``."""
    if not (weight is None or weight is True or weight is False):
        raise InvalidArgumentError(f"weight must be None (G's weights if it has them), True or False, got "
                                   f"{weight!r}; la_graph graphs carry one weight per edge (weight=False is "
                                   "NetworkX's weight=None)")
    return weight


def uses_weights(G, weight, what):
    """Whether ``what`` reads ``G``'s weights under ``weight`` (:func:`check_weight_flag`); negative ones refused.

    ``True`` needs a weighted ``G``; ``None`` uses the weights ``G`` has; ``False`` counts every edge 1.
    """
    check_weight_flag(weight)
    if weight is True:
        check_graph(G, weighted=True)
    weighted = G.weighted and weight is not False
    if weighted and G.nnz and G.weight_range().min < 0:
        u, v, w = G.negative_weight_edge()
        raise InvalidGraphError(f"{what} needs non-negative edge weights, got {w!r} on edge {u} -> {v}; "
                                "pass weight=False to ignore the weights")
    return weighted


def check_out_weight_sums(G, what):
    """Raise InvalidGraphError where a vertex's out-weights could sum past float64's largest value, or
    a positive weight is so small (subnormal, below ``1 / 1.8e308``) that a sum of it has no reciprocal.

    ``what`` (an algorithm dividing each edge's weight by its source's out-weight sum) would
    read an infinite sum as "every out-edge weighs 0".  The test is the bound ``largest weight
    * out-degree``, which needs only the weights' range and the degrees (a distributed graph has
    both on the client).
    """
    wmax, wpos = G.weight_range().max, G.weight_range().min_positive
    big = np.finfo(np.float64).max
    if 0 < wpos < 1 / big:           # an out-weight sum this small has no float64 reciprocal (inf, then NaN ranks)
        raise InvalidGraphError(f"{what} divides each edge's weight by its source's out-weight sum, and a weight of "
                                f"{wpos!r} is below 1 / float64's largest value ({1 / big:.4g}): a sum that small "
                                "has no float64 reciprocal; rescale the weights")
    if wmax * max(int(G.out_degree.max(initial=0)), 1) < big:
        return
    v = int(np.argmax(G.out_degree >= big / wmax))
    raise InvalidGraphError(f"{what} divides each edge's weight by its source's out-weight sum, and vertex {v}'s "
                            f"{int(G.out_degree[v])} out-edges with weights up to {wmax:.4g} may sum past "
                            f"float64's largest value ({big:.4g}); rescale the weights")


def check_int(value, what, low=None, high=None):
    """Return ``value`` as a Python int if it is an integer (not a bool) in ``low .. high`` (None: no bound)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise InvalidArgumentError(f"{what} must be an integer, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        allowed = f">= {low}" if high is None else f"<= {high}" if low is None else f"in {low}..{high}"
        raise InvalidArgumentError(f"{what} must be an integer {allowed}, got {value}")
    return value


def check_count(value, what, *, low=1):
    """Return ``value`` as a Python int if it is an integer ``>= low`` (an iteration count)."""
    value = check_int(value, what)
    if value < low:
        raise InvalidArgumentError(f"{what} must be at least {low}, got {value}")
    return value


def check_flag(value, what):
    """Return ``value`` as a bool if it is ``True`` or ``False`` (numpy's bools too, not 0 or 1)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{what} must be True or False, got {value!r}")
    return bool(value)


def check_distinct(ids, *, what="sources"):
    """Return the 1-D int array ``ids`` if no id is repeated; else name the first repeat and its first place."""
    order = np.argsort(ids, kind="stable")
    same = np.flatnonzero(ids[order][1:] == ids[order][:-1])
    if same.size:
        again = int(order[same + 1].min())                 # the first position that repeats an earlier id
        first = int(np.flatnonzero(ids == ids[again])[0])
        raise InvalidSourceError(f"{what} must be distinct: {what}[{again}] = {int(ids[again])} repeats "
                                 f"{what}[{first}]")
    return ids


def check_vertex_values(values, n, *, what):
    """A distribution over the ``n`` vertices, normalized to sum 1: a float64 array of shape ``(n,)``.

    ``values`` is an array of ``n`` non-negative finite numbers, or a dict
    ``{vertex id: value}`` (vertices not named get 0), as NetworkX takes a
    personalization.  The sum must be positive (unless ``n == 0``).
    """
    if isinstance(values, dict):
        arr = np.zeros(n)
        for key, x in values.items():
            v = check_vertex(key, n, what=f"{what} key")
            arr[v] = check_real(x, f"{what}[{v}]", low=0)
    else:
        try:
            arr = np.asarray(values)
        except Exception as exc:
            raise InvalidArgumentError(f"{what} must be an array of {n} numbers or a dict "
                                       f"{{vertex: value}}, got {type(values).__name__}") from exc
        if arr.dtype.kind not in "iuf" or arr.ndim != 1:
            raise InvalidArgumentError(f"{what} must be a 1-D array of numbers or a dict {{vertex: value}}, got "
                                       f"{'dtype ' + str(arr.dtype) if arr.ndim == 1 else f'shape {arr.shape}'}")
        if arr.shape != (n,):
            raise InvalidArgumentError(f"{what} must have one value per vertex ({n}), got {arr.size}")
        arr = arr.astype(np.float64)
        bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0))
        if bad.size:
            v = int(bad[0])
            raise InvalidArgumentError(f"{what} must be non-negative and finite, got {what}[{v}] = {float(arr[v])!r}")
    top = float(arr.max()) if n else 0.0
    if n and not top > 0:
        raise InvalidArgumentError(f"{what} must have a positive sum, got {float(arr.sum())!r}")
    arr = arr / top if n else arr               # scaled first: a sum of huge values would overflow
    return arr / arr.sum() if n else arr


def check_edge_arrays(u, v, w=None, n=None, *, xp=np):
    """Validate edge-list arrays; return ``(u, v, w, n)`` as int64/int64/float64 arrays and int.

    Rules: ``u`` and ``v`` are 1-D integer arrays of one length, ids are ``>= 0``
    and ``< n`` when ``n`` is given (else ``n = max id + 1``), weights are finite
    real numbers, one per edge.  ``xp`` is the array module the arrays live in
    (NumPy; the GPU engine passes CuPy and validates on the device).
    """
    u = _as_index_array(u, "u", xp)
    v = _as_index_array(v, "v", xp)
    if u.shape != v.shape:
        raise InvalidGraphError(f"u and v must have the same length, got {u.size} and {v.size}")
    if n is not None:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer)):
            raise InvalidGraphError(f"n must be a non-negative integer, got {n!r}")
        n = int(n)
        if n < 0:
            raise InvalidGraphError(f"n must be a non-negative integer, got {n}")
    for name, arr in (("u", u), ("v", v)):
        if arr.size == 0:
            continue
        lo = int(arr.min())
        if lo < 0:
            i = int(xp.argmax(arr < 0))
            raise InvalidGraphError(f"vertex ids must be >= 0, got {name}[{i}] = {lo}")
        if n is not None:
            hi = int(arr.max())
            if hi >= n:
                i = int(xp.argmax(arr >= n))
                raise InvalidGraphError(
                    f"vertex ids must be < n = {n}, got {name}[{i}] = {int(arr[i])}"
                )
    if n is None:
        n = max(int(u.max()), int(v.max())) + 1 if u.size else 0
    if n > INT64_MAX // max(n, 1):
        raise InvalidGraphError(f"n = {n} is too large: n*n must fit in int64")
    if w is not None:
        w = xp.asarray(w)
        if w.dtype.kind not in "iufb":
            raise InvalidGraphError(f"weights must be real numbers, got dtype {w.dtype}")
        if w.dtype.kind in "iu" and w.size:                # weights are float64: integers beyond 2**53 round
            big = ((w > 2**53) | (w < -(2**53))) if w.dtype.kind == "i" else w > 2**53
            if bool(big.any()):
                i = int(xp.argmax(big.reshape(-1)))
                raise InvalidGraphError(f"integer weights must be at most 2**53 in magnitude (weights are float64, "
                                        f"which rounds larger ones), got w[{i}] = {int(w.reshape(-1)[i])}")
        w = w.astype(np.float64, copy=False).reshape(-1) if w.ndim else xp.full(u.size, float(w), np.float64)
        if w.shape != u.shape:
            raise InvalidGraphError(f"w must have one weight per edge: {w.size} weights for {u.size} edges")
        bad = ~xp.isfinite(w)
        if bool(bad.any()):
            i = int(xp.argmax(bad))
            raise InvalidGraphError(f"weights must be finite, got w[{i}] = {float(w[i])}")
    return u, v, w, n


def _as_index_array(a, name, xp=np):
    try:
        arr = xp.asarray(a)
    except (ValueError, TypeError) as exc:                # ragged lists: [[0], [1, 2]]
        raise InvalidGraphError(f"{name} must be a 1-D array of integer vertex ids, got {_show(a)}") from exc
    if arr.ndim != 1:
        arr = arr.reshape(-1) if arr.ndim == 0 else arr
        if arr.ndim != 1:
            raise InvalidGraphError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        if arr.dtype.kind == "f" and bool(xp.all(xp.isfinite(arr) & (arr == xp.round(arr)))):
            big = xp.abs(arr) >= 2.0**63                  # astype would wrap these to -2**63
            if bool(big.any()):
                raise InvalidGraphError(f"vertex id {float(arr[int(xp.argmax(big))])!r} does not fit in int64")
            return arr.astype(np.int64)
        if arr.dtype.kind == "b":
            raise InvalidGraphError(f"{name} must hold integer vertex ids, got booleans")
        values = arr.tolist()
        if arr.dtype.kind != "f":                     # strings, objects, complex numbers
            raise InvalidGraphError(f"{name} must hold integer vertex ids, got {values[0]!r} "
                                    f"(an array of dtype {arr.dtype})")
        bad = next((x for x in values if not float(x).is_integer()), values[0])
        raise InvalidGraphError(f"{name} must hold integer vertex ids, got {bad!r}")
    if arr.dtype.kind == "u" and arr.size and int(arr.max()) > INT64_MAX:
        raise InvalidGraphError(f"vertex id {int(arr.max())} does not fit in int64")
    return arr.astype(np.int64, copy=False)


def _show(x, limit=60):
    """``repr(x)``, cut to ``limit`` characters."""
    r = repr(x)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def check_path(path):
    """Return ``path`` (bytes decoded) if it is a file name: a str or an os.PathLike."""
    if isinstance(path, bytes):
        return os.fsdecode(path)
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"path must be a file name (a str or os.PathLike), got {_show(path)}")
    return path


def check_networkx_graph(G, weight):
    """Return ``G`` if it looks like a NetworkX graph and ``weight`` can name an edge attribute."""
    if not all(hasattr(G, a) for a in ("nodes", "edges", "is_directed")):
        raise InvalidGraphError(f"expected a NetworkX graph, got {type(G).__name__}")
    if weight is not None:
        try:
            hash(weight)
        except TypeError:
            raise InvalidArgumentError(f"weight must be an edge attribute name or None, got {_show(weight)}") from None
    return G


def check_labels(nodes, n):
    """Return ``nodes`` as a list of ``n`` distinct hashable labels, one per vertex."""
    try:
        labels = list(nodes)
    except TypeError:
        raise InvalidArgumentError(f"nodes must be a sequence of {n} labels, got {type(nodes).__name__}") from None
    if len(labels) != n:
        raise InvalidArgumentError(f"nodes must give {n} labels, got {len(labels)}")
    seen = {}
    for i, x in enumerate(labels):
        try:
            j = seen.setdefault(x, i)
        except TypeError:
            raise InvalidArgumentError(f"nodes must be hashable labels, got nodes[{i}] = {_show(x)}") from None
        if j != i:
            raise InvalidArgumentError(f"nodes must be distinct: nodes[{i}] = {_show(x)} repeats nodes[{j}]")
    return labels


def check_square_sparse(A):
    """Return ``A`` as a scipy COO array if it is a square sparse or dense real matrix.

    Stored entries of a sparse input are edges (explicit zeros included, as in
    scipy.sparse.csgraph); nonzeros of a dense input are edges.
    """
    import scipy.sparse as sp

    if not sp.issparse(A):
        if type(A).__module__.startswith("cupy"):
            A = A.get()
        try:
            A = np.asarray(A)
        except Exception as exc:  # pragma: no cover - exotic objects
            raise InvalidGraphError(
                f"expected a scipy sparse matrix or 2-D array, got {type(A).__name__}"
            ) from exc
        if A.ndim != 2:
            raise InvalidGraphError(f"adjacency matrix must be 2-D, got {A.ndim}-D")
    if A.shape[0] != A.shape[1]:
        raise InvalidGraphError(f"adjacency matrix must be square, got shape {A.shape[0]}x{A.shape[1]}")
    if A.dtype.kind not in "iufb":
        raise InvalidGraphError(f"adjacency matrix must hold real numbers, got dtype {A.dtype}")
    return sp.coo_array(A)


def available_host_bytes():
    """Bytes of host memory available to a new allocation (Linux MemAvailable), or None if unknown."""
    try:   # one raw read (a text-mode line loop cost ~25 us, a tenth of a small multi-source search)
        fd = os.open("/proc/meminfo", os.O_RDONLY)
        try:
            data = os.read(fd, 1 << 14)
        finally:
            os.close(fd)
        at = data.index(b"MemAvailable:") + len(b"MemAvailable:")
        return int(data[at:data.index(b"kB", at)]) * 1024
    except (OSError, ValueError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_host_memory(need, what, hint):
    """Raise OutOfMemory (naming the bytes needed and available, and ``hint``) unless ``need`` bytes fit."""
    avail = available_host_bytes()
    if avail is not None and need > avail:
        raise OutOfMemory(f"{what} needs {need:,} bytes of memory, but only {avail:,} bytes are available; {hint}")


def source_batch(k, n, result_bytes, work_bytes, what):
    """How many of ``k`` sources a search over ``n`` vertices takes at once.

    Its ``k x n`` results (``result_bytes`` a source and vertex) must fit in
    host memory, else OutOfMemory naming the bytes and how many sources would
    fit.  The engine's working copies (``work_bytes`` a source and vertex) are
    bounded by searching the sources in batches: all ``k`` at once when
    everything fits (or the free memory is unknown).
    """
    avail = available_host_bytes()
    result, work = k * n * result_bytes, k * n * work_bytes
    if avail is None or result + work <= avail or k == 0:
        return max(k, 1)
    batch = (avail - result) // max(n * work_bytes, 1) if result < avail else 0
    if batch < 1:   # not even the results and one source's working copies fit
        fit = max(1, avail // max(n * (result_bytes + work_bytes), 1))
        raise OutOfMemory(f"{what} from {k:,} sources over {n:,} vertices needs {result + n * work_bytes:,} bytes "
                          f"of memory, but only {avail:,} bytes are available; search at most {fit:,} sources "
                          "at a time")
    return int(batch)


# ---------------------------------------------------------------------- pairs of vertices (similarity)
def check_vertex_pairs(pairs, n, *, what="pairs"):
    """``(u, v)``: ``pairs`` as two int64 arrays of vertex ids in ``0..n-1`` (possibly empty).

    ``pairs`` is an ``(m, 2)`` array-like (a list of ``(u, v)`` tuples), or a
    tuple ``(u, v)`` of two 1-D numpy arrays of one length.  Integral floats
    are taken as ids; a vertex out of range is an InvalidSourceError naming
    the pair and the vertex.
    """
    if isinstance(pairs, tuple) and len(pairs) == 2 and all(isinstance(p, np.ndarray) for p in pairs):
        u, v = pairs
        if u.ndim != 1 or v.ndim != 1 or u.shape != v.shape:
            raise InvalidArgumentError(f"{what}=(u, v) must be two 1-D arrays of one length, got shapes "
                                       f"{u.shape} and {v.shape}")
        arr = np.stack([u, v], axis=1) if u.size else np.zeros((0, 2), np.int64)
    else:
        try:
            arr = np.asarray(pairs)
        except (ValueError, TypeError):                 # ragged: [(0, 1), (2,)]
            raise InvalidArgumentError(f"{what} must be an (m, 2) array of vertex ids, got {_show(pairs)}") from None
        if arr.size == 0:
            arr = np.zeros((0, 2), np.int64)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise InvalidArgumentError(f"{what} must be an (m, 2) array of vertex ids (or a tuple (u, v) of two 1-D "
                                       f"numpy arrays), got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        ok = arr.dtype.kind == "f" and bool(np.all(np.isfinite(arr) & (arr == np.round(arr)) & (np.abs(arr) < 2.0**63)))
        if not ok:
            values = arr.ravel().tolist()
            bad = next((k for k, x in enumerate(values) if isinstance(x, bool) or not isinstance(x, (int, float))
                        or not float(x).is_integer() or abs(x) >= 2.0**63), 0)
            i, j = divmod(bad, 2)
            raise InvalidArgumentError(f"{what} must hold integer vertex ids, got {what}[{i}][{j}] = "
                                       f"{_show(values[bad])}")
    if arr.size and arr.dtype.kind == "u" and int(arr.max()) > INT64_MAX:    # named as given, not wrapped
        i, j = (int(x) for x in np.unravel_index(int(np.argmax(arr)), arr.shape))
        raise InvalidSourceError(f"{what}[{i}] = ({int(arr[i, 0])}, {int(arr[i, 1])}) names vertex "
                                 f"{int(arr[i, j])}, not in 0..{n - 1}")
    out = arr.astype(np.int64) if arr.size else np.zeros((0, 2), np.int64)
    bad = np.flatnonzero(((out < 0) | (out >= n)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        a, b = int(out[i, 0]), int(out[i, 1])
        x = a if not 0 <= a < n else b
        where = "the graph has no vertices" if n == 0 else f"not in 0..{n - 1}"
        raise InvalidSourceError(f"{what}[{i}] = ({a}, {b}) names vertex {x}, {where}")
    return np.ascontiguousarray(out[:, 0]), np.ascontiguousarray(out[:, 1])
