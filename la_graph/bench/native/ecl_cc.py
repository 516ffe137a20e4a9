"""ECL-CC connected components as a native CUDA baseline (see ``ecl_cc.cu``).

    from la_graph.bench.native.ecl_cc import ecl_cc
    labels = ecl_cc(indptr_gpu, indices_gpu)   # cupy int32 in, cupy int32 out

``indptr``/``indices`` are the CSR of an undirected graph stored both ways
(``la_graph.Graph`` does so), int32 on the device.  The labels are canonical:
the smallest vertex id of each component, as ``la_graph.connected_components``
and ``la_graph.verify.check_cc`` use.  The module is compiled once, on first use.
"""

from __future__ import annotations

from pathlib import Path

SOURCE = Path(__file__).with_name("ecl_cc.cu")
THREADS = 256
_module = None
_blocks = None


def _load():
    global _module, _blocks
    if _module is None:
        import cupy as cp

        _module = cp.RawModule(code=SOURCE.read_text(), options=("--std=c++14",),
                               name_expressions=None)
        sms = cp.cuda.Device().attributes["MultiProcessorCount"]
        _blocks = sms * (2048 // THREADS)
    return _module


def _check(indptr, indices):
    import cupy as cp

    for name, a in (("indptr", indptr), ("indices", indices)):
        if not isinstance(a, cp.ndarray):
            raise TypeError(f"{name} must be a cupy array on the device, got {type(a).__name__}")
        if a.dtype != cp.int32:
            raise TypeError(f"{name} must be int32, got {a.dtype}")
        if a.ndim != 1:
            raise ValueError(f"{name} must be 1-D")
    if indptr.size < 1:
        raise ValueError("indptr needs at least one entry")
    return indptr.size - 1


def ecl_cc(indptr, indices, *, out=None, workspace=None):
    """Component labels (int32 cupy array of length n) of the graph with CSR ``indptr``, ``indices``.

    ``out`` (int32, length n) and ``workspace`` (from :func:`workspace`) may be
    passed to keep allocations out of a timed loop; results are the same.
    """
    import cupy as cp

    n = _check(indptr, indices)
    mod = _load()
    if out is None:
        out = cp.empty(n, cp.int32)
    if n == 0:
        return out
    wl, ends = workspace if workspace is not None else _workspace(n)
    ends[0] = 0
    ends[1] = n
    args_n = cp.int32(n)
    grid = (_blocks,)
    block = (THREADS,)
    mod.get_function("ecl_init")(grid, block, (args_n, indptr, indices, out, wl, ends))
    mod.get_function("ecl_compute1")(grid, block, (args_n, indptr, indices, out))
    mod.get_function("ecl_compute2")(grid, block, (args_n, indptr, indices, out, wl, ends))
    mod.get_function("ecl_compute3")(grid, block, (args_n, indptr, indices, out, wl, ends))
    mod.get_function("ecl_flatten")(grid, block, (args_n, out))
    return out


def _workspace(n):
    import cupy as cp

    return cp.empty(max(n, 1), cp.int32), cp.empty(2, cp.int32)


def workspace(n):
    """Preallocated worklist buffers for :func:`ecl_cc` on graphs of ``n`` vertices."""
    return _workspace(n)


def selftest(seed=0):
    """Compare with scipy on a few small random graphs; raises AssertionError on a mismatch."""
    import cupy as cp
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph

    rng = np.random.default_rng(seed)
    cases = [(1, 0), (5, 0), (10, 8), (1000, 600), (1000, 3000), (20000, 15000), (5000, 200000)]
    for n, m in cases:
        u, v = rng.integers(0, n, m), rng.integers(0, n, m)
        if n == 5000:  # a few hubs: exercise the warp and block kernels
            u[: m // 2] = rng.integers(0, 20, m // 2)
        A = sp.coo_matrix((np.ones(m), (u, v)), shape=(n, n)).tocsr()
        A = ((A + A.T) > 0).astype(np.int8).tocsr()
        A.setdiag(0)
        A.eliminate_zeros()
        A.sort_indices()
        got = cp.asnumpy(ecl_cc(cp.asarray(A.indptr, cp.int32), cp.asarray(A.indices, cp.int32)))
        _, lab = csgraph.connected_components(A, directed=False)
        first = np.full(lab.max() + 1 if n else 0, n, np.int64)
        np.minimum.at(first, lab, np.arange(n))
        np.testing.assert_array_equal(got, first[lab], err_msg=f"ecl_cc wrong on n={n}, m={m}")
    return len(cases)


if __name__ == "__main__":
    print(f"ecl_cc selftest: {selftest()} graphs agree with scipy")
