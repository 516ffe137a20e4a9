"""The functions the distributed engine runs on its workers.

Each takes the name of the worker's local engine (``"cpu"``, ``"gpu"``,
``"reference"``) first and works on that engine's objects: the segments of a
vector and the blocks of a matrix.  A task never changes an object it is given
(Dask may hand one object to several tasks at once): an operation with an
output object writes into a copy, and the client rebinds its handle to the new
segment.
"""

from __future__ import annotations

import numpy as np

from .. import get_engine
from ..base import check_range


_LAYOUTS = {}


def _E(name):
    return get_engine(name)


def _xp(a):
    """The array module of ``a``: CuPy for a device array, else numpy."""
    if hasattr(a, "__cuda_array_interface__"):
        import cupy    # optional (GPU workers only): loaded where it runs
        return cupy
    return np


def _coo(E, x):
    """``E.to_coo(x)``; on a GPU worker the arrays stay on the device (``to_device_coo``)."""
    return E.to_device_coo(x) if E.name == "gpu" else E.to_coo(x)


def _dense(E, x):
    """``E.to_numpy(x)``; on a GPU worker the array stays on the device (``to_device``)."""
    return E.to_device(x) if E.name == "gpu" else E.to_numpy(x)


def _kept(layout):
    """This worker's copy of ``layout``, whose permutation tables outlive the task."""
    if layout is None:
        return None
    return _LAYOUTS.setdefault(layout, layout)


def _ids_at(layout, k, local):
    """The indices at local positions ``local`` (numpy, or CuPy on a GPU worker) of segment ``k`` of ``layout``."""
    L = _kept(layout)
    return L.index(L.bounds[k] + local)


def _segment_ids(name, layout, k):
    """The indices segment ``k`` of ``layout`` holds, in local order (on the device of a GPU worker)."""
    xp = np
    if name == "gpu":
        import cupy as xp    # optional (GPU workers only): loaded where it runs
    return _kept(layout).ids(k, xp)


def init_worker(name, threads):
    """Start the local engine on this worker; a CPU engine gets ``threads`` GraphBLAS threads."""
    E = _E(name)
    if name == "cpu" and threads:
        import graphblas as gb    # the CPU engine's backend: loaded on CPU workers only
        gb.ss.config["nthreads"] = int(threads)
    return E.name


def empty(name, shape, dtype):
    """A new empty vector (``shape == (n,)``) or matrix of the local engine."""
    E = _E(name)
    if len(shape) == 1:
        return E.vector(shape[0], dtype)
    none = np.empty(0, np.int64)
    return E.matrix_from_coo(none, none, np.empty(0, dtype), shape[0], shape[1], dtype=dtype)


def full(name, size, value, dtype):
    return _E(name).full(size, value, dtype)


def from_numpy(name, values):
    return _E(name).vector_from_numpy(values)


def from_coo(name, shape, coords, values, dup, dtype):
    """A local vector or matrix from local coordinates (``coords``: ``(idx,)`` or ``(rows, cols)``)."""
    E = _E(name)
    if len(shape) == 1:
        return E.vector_from_coo(coords[0], values, shape[0], dup=dup, dtype=dtype)
    return E.matrix_from_coo(coords[0], coords[1], values, shape[0], shape[1], dup=dup, dtype=dtype)


def iota(name, layout, k):
    """Segment ``k`` of ``[0, 1, ..., size-1]``: each entry holds its own (global) index."""
    return _E(name).vector_from_numpy(_segment_ids(name, layout, k))


def call(name, method, *args, copy_first=False, **kwargs):
    """``E.method(*args, **kwargs)`` on the local engine; ``out=`` (or, with ``copy_first``, the first
    argument: assign's target) is copied first, so no input changes."""
    E = _E(name)
    if kwargs.get("out") is not None:
        kwargs["out"] = E.copy(kwargs["out"])
    if copy_first:
        args = (E.copy(args[0]),) + args[1:]
    return getattr(E, method)(*args, **kwargs)


def _remap(E, T, layout, k):
    """``T`` with its values, local positions of segment ``k`` of ``layout``, turned into global indices."""
    if layout is None:
        return T
    coords = _coo(E, T)
    values = _ids_at(layout, k, coords[-1])
    size = E.size(T)
    if isinstance(size, tuple):
        return E.matrix_from_coo(coords[0], coords[1], values, size[0], size[1], dtype=np.int64)
    return E.vector_from_coo(coords[0], values, size, dtype=np.int64)


def product(name, method, a, b, semiring, remap, mask=None, structural=False, complement=False):
    """One block's share of ``mxv``/``vxm``/``mxm``, its positional values made global.

    ``remap`` is ``(layout, segment)`` of the dimension a positional multiply
    (``secondi`` ...) reports, or None.  The output's mask, if any, is applied
    here already, so a masked product computes only the entries it may write.
    """
    E = _E(name)
    T = getattr(E, method)(a, b, semiring, mask=mask, structural=structural, complement=complement)
    return _remap(E, T, *(remap or (None, None)))


def products(name, a_blocks, b_blocks, semiring, remaps, monoid, out, mask, accum, structural, complement,
             replace):
    """One output block of ``mxm``: ``sum_k A[i, k] B[k, j]`` over the monoid, written to ``out``."""
    E = _E(name)
    parts = [product(name, "mxm", a, b, semiring, r, mask, structural, complement)
             for a, b, r in zip(a_blocks, b_blocks, remaps)]
    return combine(name, monoid, out, mask, accum, structural, complement, replace, *parts, E=E)


def combine(name, monoid, out, mask, accum, structural, complement, replace, *parts, E=None, local=()):
    """The partial results ``parts`` of one output segment reduced by ``monoid``, written to ``out``
    with the GraphBLAS output rule (mask, accumulator, replace).

    ``local`` lists the products ``(method, a, b, semiring, remap)`` of the blocks held on
    this worker, made here (the output's mask applied) and reduced with the rest.
    """
    E = E or _E(name)
    parts = [product(name, method, a, b, semiring, remap, mask, structural, complement)
             for method, a, b, semiring, remap in local] + list(parts)
    T = parts[0]
    for p in parts[1:]:
        T = E.ewise_add(T, p, monoid)
    return write(E, T, out, mask, accum, structural, complement, replace)


def write(E, T, out, mask, accum, structural, complement, replace):
    """``out<mask, replace> accum= T`` on a copy of ``out`` (a new object when ``out`` is None)."""
    if out is None:
        if mask is None:
            return T
        return E.apply(T, "identity", mask=mask, structural=structural, complement=complement)
    out = E.copy(out)
    return E.assign(out, T, mask=mask, accum=accum, structural=structural, complement=complement,
                    replace=replace)


def reduce(name, x, monoid):
    """``(nvals, reduction)`` of one segment."""
    E = _E(name)
    value = E.reduce(x, monoid)
    return E.nvals(x), value


def nvals(name, x):
    return _E(name).nvals(x)


def to_coo(name, x, *dims, device=False):
    """``(coordinates..., values)`` of a segment or block, each coordinate in the global indexing of its
    dimension: ``dims`` holds each one's ``(layout, segment)``.  ``device``: a GPU worker's arrays stay on
    its GPU (an SPMD run sends them device to device); otherwise they come back as numpy.

    The positions are mapped back to indices here, where the part lives, by this worker's kept copy of
    the layout (on a CPU worker its tables are built once per worker process: 16 bytes an index, seconds
    for R-MAT 24's 16.8 M vertices; a GPU worker runs the layout's rounds on the device, no tables).
    Each rank of an SPMD run used to map every part itself, with fresh layouts each run, so it built the
    tables again every run: 3 s of every 3.3 s of PageRank on R-MAT 24 on 2 GPUs."""
    *coords, values = _coo(_E(name), x)
    out = (*(_ids_at(L, k, c) for c, (L, k) in zip(coords, dims)), values)
    if device or _xp(values) is np:
        return out
    return tuple(a.get() for a in out)


def isequal(name, x, y):
    return bool(_E(name).isequal(x, y))


def select_index(name, x, op, thunk, row, col, out, mask, accum, structural, complement, replace):
    """``select`` by an index rule (``rowle``, ``tril``, ...) on a segment or block, with global indices.

    ``row`` (and, for a matrix, ``col``) are ``(layout, segment)`` of the object's dimensions.
    """
    E = _E(name)
    coords = _coo(E, x)
    thunk = 0 if thunk is None else int(thunk)
    i = _ids_at(*row, coords[0])
    if op in ("rowle", "rowgt"):
        keep = i <= thunk if op == "rowle" else i > thunk
    else:
        d = _ids_at(*col, coords[1]) - i
        keep = {"tril": d <= thunk, "triu": d >= thunk, "diag": d == thunk, "offdiag": d != thunk}[op]
    shape = E.size(x)
    shape = shape if isinstance(shape, tuple) else (shape,)
    T = from_coo(name, shape, [c[keep] for c in coords[:-1]], coords[-1][keep], None, coords[-1].dtype)
    return write(E, T, out, mask, accum, structural, complement, replace)


def route(name, index, target, check):
    """Where the ids of one index segment live: for each segment ``k`` of ``target``, the
    ``(positions in this segment, local index in k)`` of the ids it holds.  ``check``: the id range.
    On a GPU worker the routing is done on the device, and its pieces are device arrays."""
    ids = _dense(_E(name), index).astype(np.int64, copy=False)
    check_range(ids, check, "index")
    seg, local = _kept(target).locate(ids)
    return split(seg, target.parts, _xp(ids).arange(ids.size, dtype=np.int64), local)


def _stable_argsort(a):
    xp = _xp(a)
    return np.argsort(a, kind="stable") if xp is np else xp.argsort(a)     # CuPy's sort is always stable


def split(seg, parts, *arrays):
    """``arrays`` split by ``seg`` into ``parts`` groups, each keeping the order it had (numpy or CuPy)."""
    xp = _xp(seg)
    if xp is np and parts < (1 << 15):
        seg = seg.astype(np.int16)                        # numpy's stable sort of int16 is a radix sort
    order = _stable_argsort(seg)
    cuts = xp.searchsorted(seg[order], xp.arange(parts + 1)).tolist()
    return tuple(tuple(a[order[cuts[k]:cuts[k + 1]]] for a in arrays) for k in range(parts))


def pick(name, pieces, k):
    return pieces[k]


def gather(name, u, request):
    """The entries of local vector ``u`` at ``request = (positions, local ids)``: ``(positions, values)``
    of the ones present."""
    E = _E(name)
    pos, local = request
    got = E.extract(u, local)
    idx, values = _coo(E, got)
    return _xp(idx).asarray(pos)[idx], values


def assemble(name, size, out, mask, accum, structural, complement, replace, *answers, local=()):
    """One output segment of ``extract`` from the ``(positions, values)`` answers of the source segments;
    ``local`` lists the ``(segment, request)`` pairs held on this worker, answered here."""
    E = _E(name)
    answers = [gather(name, u, request) for u, request in local] + list(answers)
    xp = _xp(answers[0][0])
    pos = xp.concatenate([xp.asarray(a[0]) for a in answers])
    values = xp.concatenate([xp.asarray(a[1]) for a in answers])
    T = E.vector_from_coo(pos, values, size, dtype=values.dtype)
    return write(E, T, out, mask, accum, structural, complement, replace)


#: duplicate reductions whose result does not depend on the order of the duplicates
_ORDER_FREE = frozenset({"min", "max"})


def route_values(name, index, values, layout, t, target, check, dup):
    """``scatter``'s routing of one segment ``t`` of ``index`` and ``values``: per target segment the
    ``(local index, value, original position)`` triples, the positions keeping duplicates in order
    (pairs, without them, where the duplicate reduction ``dup`` does not depend on the order)."""
    E = _E(name)
    pieces = route(name, index, target, check)
    vals = _dense(E, values)
    if dup in _ORDER_FREE:
        return tuple((local, vals[pos]) for pos, local in pieces)
    order = _segment_ids(name, layout, t)
    return tuple((local, vals[pos], order[pos]) for pos, local in pieces)


def scatter(name, w, dup, accum, *pieces, local=(), k=None):
    """``w[local] accum= dup-reduction(values)`` on a copy of segment ``w``, the pieces' values taken in
    their original order (where ``dup`` depends on it); ``local`` lists routings made on this worker, whose
    piece ``k`` is taken here."""
    E = _E(name)
    pieces = [routed[k] for routed in local] + list(pieces)
    xp = _xp(pieces[0][0])
    local = xp.concatenate([xp.asarray(p[0]) for p in pieces])
    values = xp.concatenate([xp.asarray(p[1]) for p in pieces])
    if len(pieces[0]) > 2:
        order = _stable_argsort(xp.concatenate([xp.asarray(p[2]) for p in pieces]))
        local, values = local[order], values[order]
    return E.scatter(E.copy(w), local, values, dup=dup, accum=accum)


def _check_ids(E, index, check):
    """Raise where the full int vector ``index`` holds an id outside ``0 .. check - 1`` (as :func:`route`)."""
    if E.nvals(index) and (E.reduce(index, "min") < 0 or E.reduce(index, "max") >= check):
        check_range(np.asarray(E.to_numpy(index), dtype=np.int64), check, "index")      # names the ids


def extract_one(name, u, index, check, out, mask, accum, structural, complement, replace):
    """``extract`` on an engine of one segment: the local engine's own gather, no routing."""
    E = _E(name)
    _check_ids(E, index, check)
    return write(E, E.extract(u, index), out, mask, accum, structural, complement, replace)


def scatter_one(name, w, index, values, dup, accum, check):
    """``scatter`` on an engine of one segment: the local engine's own, no routing."""
    E = _E(name)
    _check_ids(E, index, check)
    return E.scatter(E.copy(w), index, values, dup=dup, accum=accum)


def nbytes(name, x):
    """Bytes of one segment's entries (indices and values) as they travel."""
    coords = _E(name).to_coo(x)
    return int(sum(c.nbytes for c in coords))
