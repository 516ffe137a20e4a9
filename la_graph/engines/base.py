"""The operator interface every engine implements.

Algorithms (and users writing their own) call only these methods, so the same
code runs on the CPU engine (python-graphblas / SuiteSparse:GraphBLAS) and the
GPU engine (CuPy).  Vectors and matrices are engine-native handles: treat them
as opaque and pass them back to the engine that made them.

Names follow GraphBLAS:

* **semirings** ``"<add>_<mult>"``: ``min_second``, ``min_first``, ``min_plus``,
  ``any_pair``, ``any_secondi``, ``min_secondi``, ``plus_times``, ``plus_pair``
  (and the other GraphBLAS combinations of the monoids and binary ops below).
  For ``mxv(A, u)`` the multiply sees ``(A[i, j], u[j])``; for ``vxm(u, A)`` it
  sees ``(u[k], A[k, j])``.  ``secondi`` yields the row index of its second
  operand: in ``vxm(q, A, "any_secondi")`` that is the frontier vertex ``k``,
  i.e. the BFS parent.
* **binary ops** ``min max plus minus times div first second any pair eq ne lt
  le gt ge lor land``; **monoids** ``min max plus times any lor land``.
* **unary ops** for :meth:`Engine.apply`: ``identity ainv abs minv one lnot``;
  or a binary op with a scalar ``right=`` operand (``apply(u, "plus", right=1)``).
* **select ops**: ``valueeq valuene valuelt valuele valuegt valuege`` (with a
  thunk), ``rowle rowgt`` (index <= / > thunk), ``tril triu diag offdiag``.

Every operation that produces a vector or matrix takes the GraphBLAS output
arguments:

``out``
    an existing object to write into (``None``: a new one is made; then the
    mask, if any, still applies and ``accum`` must be ``None``).
``mask``, ``structural``, ``complement``
    write only where the mask allows: a *value* mask allows where the mask
    holds a true value, a *structural* mask wherever it holds any value;
    ``complement=True`` inverts that.
``accum``
    a binary op combining old and new values where both exist (``None``: new
    values replace old ones).
``replace``
    clear entries of ``out`` that the mask does not allow.

Dtypes are numpy dtypes (``int64`` for vertex ids and levels, ``float64`` for
weights, ``bool``).  Graph matrices of unweighted graphs hold ``bool`` ones.

Nothing here is specific to an algorithm.  An engine may also *fuse* named
algebraic steps of the algorithms (``fastsv_round``, ``bfs_push``, ...): it
lists them in :attr:`Engine.fused_steps`, a mapping from the step's name to a
function ``impl(engine, *args)`` taking the step's arguments and returning what
the step's algebraic definition (in its algorithm module) returns.  Each such
step is a :class:`la_graph.algorithms.steps.Step` (made by ``@step``); calling
it runs the engine's implementation where there is one and the algebra
otherwise; a declared implementation that cannot take its arguments raises
:class:`Declined` before it changes anything, and the algebra then runs (logged
at DEBUG on the ``la_graph`` logger and counted by the profiler).
See ``docs/writing-an-engine.md``; ``docs/engines.md`` has the table of the
primitives (:data:`INTERFACE`).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from types import MappingProxyType

import numpy as np

from ..exceptions import InvalidArgumentError

SEMIRINGS = (
    "min_second", "min_first", "min_plus", "max_second", "max_first",
    "any_pair", "any_first", "any_second", "any_secondi", "any_firsti",
    "min_secondi", "min_firsti", "plus_times", "plus_pair", "plus_first", "plus_second",
    "lor_land", "max_times", "min_times", "max_plus", "plus_min",
)
BINARY_OPS = ("min", "max", "plus", "minus", "times", "div", "first", "second", "any", "pair",
              "eq", "ne", "lt", "le", "gt", "ge", "lor", "land")
MONOIDS = ("min", "max", "plus", "times", "any", "lor", "land")
UNARY_OPS = ("identity", "ainv", "abs", "minv", "one", "lnot")
SELECT_OPS = ("valueeq", "valuene", "valuelt", "valuele", "valuegt", "valuege",
              "rowle", "rowgt", "tril", "triu", "diag", "offdiag")

# GraphBLAS's semirings on bool, add -> its multiplies; other arithmetic on booleans
# (plus_*, *_plus, *_times) counts in int64, and so does the plus monoid
_BOOL_MULTS = frozenset({"first", "second", "lor", "land"})
BOOL_SEMIRINGS = {"min": _BOOL_MULTS, "max": _BOOL_MULTS, "times": _BOOL_MULTS, "plus": frozenset(),
                  "any": _BOOL_MULTS | {"pair"}}


def monoid_type(monoid, dtype):
    """The type ``monoid`` reduces ``dtype`` values in: lor/land bool, plus on bool int64, else ``dtype``."""
    if monoid in ("lor", "land"):
        return np.dtype(bool)
    return np.dtype(np.int64) if monoid == "plus" and np.dtype(dtype) == np.bool_ else np.dtype(dtype)


def check_name(name, known, kind):
    """``name``, checked to be one of ``known`` (an operator name of ``kind``: "binary op", "monoid"...)."""
    if name not in known:
        raise InvalidArgumentError(f"unknown {kind} {name!r}; known: {', '.join(known)}")
    return name


def check_range(index, size, what):
    """Raise unless every entry of the int array ``index`` is in ``0 .. size-1``."""
    if index.size and (index.min() < 0 or index.max() >= size):
        raise InvalidArgumentError(f"{what} out of range 0..{size - 1}: {index[(index < 0) | (index >= size)][:5]}")


def check_coords(rows, cols, nrows, ncols):
    """``rows`` and ``cols`` of a ``matrix_from_coo`` call as int64 arrays, checked (lengths, ranges)."""
    rows, cols = np.asarray(rows, np.int64).ravel(), np.asarray(cols, np.int64).ravel()
    if rows.shape != cols.shape:
        raise InvalidArgumentError(f"rows and cols lengths differ: {rows.size} != {cols.size}")
    check_range(rows, nrows, "row index")
    check_range(cols, ncols, "column index")
    return rows, cols


def is_scalar(u, arrays=(np.ndarray,)):
    """Whether ``assign``'s ``u`` is a scalar (a Python or numpy scalar, or a 0-d array of one of ``arrays``)
    rather than a vector or matrix, which must then be the engine's own."""
    return np.isscalar(u) or isinstance(u, arrays) and u.ndim == 0


def check_output_args(out, mask, accum, complement):
    """The rules on the output arguments that hold for every engine (``accum`` needs ``out`` ...)."""
    if accum is not None:
        check_name(accum, BINARY_OPS, "binary op")
        if out is None:
            raise InvalidArgumentError("accum needs out=")
    if complement and mask is None:
        raise InvalidArgumentError("complement=True needs a mask")


class Declined(Exception):
    """Raised by a fused step that cannot take its arguments, before it changes anything.

    The algebraic step then runs instead; the fallback is logged and counted by
    the profiler, never silent.  The message says why.
    """


class Engine(ABC):
    """The operator interface; see the module docstring for the conventions."""

    #: the name the registry knows this engine by ("cpu", "gpu", "dask", "reference")
    name: str = ""

    #: step name -> ``impl(engine, *args)``: the algebraic steps this engine runs as
    #: one kernel (see the module docstring); empty: every step runs as algebra
    fused_steps: Mapping[str, Callable] = MappingProxyType({})

    #: BFS push levels over at most this many edges are left to the ``bfs_push``
    #: step in one call (an engine whose per-call cost is high fuses more)
    bfs_fuse_edges: int = 0

    #: whether this engine's vectors and matrices live in host memory (the APSP memory
    #: check then counts an engine's n x n matrix against host RAM, beside its numpy copy)
    objects_on_host = True

    #: whether vertex-id vectors (parents) are int32 where ``n`` allows: half the
    #: memory traffic for a GPU; a GraphBLAS engine holds int64 anyway, so int64
    #: spares it a conversion of every result
    narrow_ids: bool = True

    @property
    def cache_key(self):
        """What a graph's cache of engine objects (``G._engine_cache``) files this engine's objects under."""
        return self.name

    def id_dtype(self, n):
        """The dtype for vectors of vertex ids of an ``n``-vertex graph."""
        return np.dtype(np.int32 if self.narrow_ids and n <= np.iinfo(np.int32).max else np.int64)

    # ---------------------------------------------------------------- graphs
    @abstractmethod
    def matrix(self, G, *, transpose=False):
        """The adjacency matrix of Graph ``G`` on this engine (cached on ``G``)."""

    @abstractmethod
    def degree(self, G, *, transpose=False):
        """Out-degrees (in-degrees with ``transpose``) of ``G`` as a full int64 vector (cached)."""

    # ---------------------------------------------------------------- building
    @abstractmethod
    def vector(self, size, dtype):
        """An empty vector of ``size`` entries."""

    @abstractmethod
    def full(self, size, value, dtype=None):
        """A vector with every entry set to ``value``."""

    @abstractmethod
    def iota(self, size):
        """The full int64 vector ``[0, 1, ..., size-1]``."""

    @abstractmethod
    def vector_from_numpy(self, values):
        """A full vector holding a dense numpy array."""

    @abstractmethod
    def vector_from_coo(self, indices, values, size, *, dup=None, dtype=None):
        """A vector with ``w[indices[k]] = values[k]``; duplicates combined by the binary op ``dup``.

        ``values`` may be a scalar (every listed index gets it).  With ``dup=None``
        duplicate indices are an error.
        """

    @abstractmethod
    def matrix_from_coo(self, rows, cols, values, nrows, ncols, *, dup=None, dtype=None):
        """A matrix with ``C[rows[k], cols[k]] = values[k]`` (``values`` may be a scalar)."""

    def _matrix_from_csr(self, indptr, indices, values, nrows, ncols, *, dtype):
        """A matrix of CSR arrays whose rows hold sorted, distinct column indices (trusted: not checked).

        ``values`` is an array of one value per entry or a scalar for every entry.  The
        arrays are numpy arrays, or a device engine's own; the engine copies the index
        arrays into its own types and may keep an array of values as it is given.  This
        default builds the matrix from COO; engines that store CSR take the arrays as they are.
        """
        indptr = np.asarray(indptr)
        rows = np.repeat(np.arange(nrows, dtype=np.int64), np.diff(indptr))
        return self.matrix_from_coo(rows, np.asarray(indices, np.int64), values, nrows, ncols, dtype=dtype)

    @abstractmethod
    def to_numpy(self, x, fill=None, *, consume=False):
        """A dense numpy copy of vector or matrix ``x``; missing entries become ``fill``.

        ``fill=None`` on an object with missing entries is an error.
        ``consume=True`` says ``x`` is not used again: an engine may hand over
        its storage instead of copying it (``x`` is then left empty).
        """

    def to_device(self, x, fill=None, *, consume=False):
        """Like :meth:`to_numpy`, but the array stays where the engine computes.

        The GPU engine returns a CuPy array (no copy to the host), for users who
        chain more GPU work; the CPU engine returns numpy, as :meth:`to_numpy`.
        """
        return self.to_numpy(x, fill, consume=consume)

    @abstractmethod
    def to_coo(self, x):
        """``(indices, values)`` of a vector, ``(rows, cols, values)`` of a matrix, as numpy."""

    @abstractmethod
    def copy(self, x):
        """An independent copy."""

    @abstractmethod
    def nvals(self, x):
        """Number of stored entries (a Python int)."""

    @abstractmethod
    def size(self, x):
        """Length of a vector; ``(nrows, ncols)`` of a matrix."""

    @abstractmethod
    def isequal(self, x, y):
        """Whether ``x`` and ``y`` have the same structure and values."""

    def hint(self, x, storage):
        """Storage hint, ``"sparse"`` or ``"dense"``: how ``x`` is about to be used; returns ``x``.

        Results never depend on it.  ``"dense"`` suits vectors that fill up or are
        read at random (visited sets, a pulled frontier); ``"sparse"`` suits short
        frontiers that are scanned.  The CPU engine sets SuiteSparse's sparsity
        control (bitmap or sparse); the default checks ``storage`` and does nothing.
        """
        if storage not in ("sparse", "dense"):
            raise InvalidArgumentError(f"storage hint must be 'sparse' or 'dense', got {storage!r}")
        return x

    # ---------------------------------------------------------------- operations
    @abstractmethod
    def mxv(self, A, u, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``w = A (+.*) u``."""

    @abstractmethod
    def vxm(self, u, A, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``w = u' (+.*) A``."""

    @abstractmethod
    def mxm(self, A, B, semiring, *, out=None, mask=None, accum=None,
            structural=False, complement=False, replace=False):
        """``C = A (+.*) B``."""

    @abstractmethod
    def ewise_add(self, x, y, op, *, out=None, mask=None, accum=None,
                  structural=False, complement=False, replace=False):
        """Union of structures; ``op`` where both have an entry."""

    @abstractmethod
    def ewise_mult(self, x, y, op, *, out=None, mask=None, accum=None,
                   structural=False, complement=False, replace=False):
        """Intersection of structures, combined by ``op``."""

    @abstractmethod
    def apply(self, x, op, *, right=None, out=None, mask=None, accum=None,
              structural=False, complement=False, replace=False):
        """``op(x)`` entrywise; with ``right=`` a binary op bound to that scalar."""

    @abstractmethod
    def select(self, x, op, thunk=None, *, out=None, mask=None, accum=None,
               structural=False, complement=False, replace=False):
        """The entries of ``x`` that ``op`` (with ``thunk``) keeps."""

    @abstractmethod
    def reduce(self, x, monoid):
        """Reduce every entry of ``x`` to a Python scalar (the monoid's identity if empty)."""

    @abstractmethod
    def reduce_rows(self, A, monoid, *, out=None, mask=None, accum=None,
                    structural=False, complement=False, replace=False):
        """Reduce each row of matrix ``A`` to a vector."""

    @abstractmethod
    def extract(self, u, index, *, out=None, mask=None, accum=None,
                structural=False, complement=False, replace=False):
        """Gather: ``w[i] = u[index[i]]``; ``index`` is a full int vector of this engine or a numpy array."""

    @abstractmethod
    def assign(self, w, u, *, mask=None, accum=None, structural=False, complement=False, replace=False):
        """``w<mask> accum= u`` in place (``u`` a vector/matrix of ``w``'s shape, or a scalar); returns ``w``."""

    @abstractmethod
    def scatter(self, w, index, values, *, dup="min", accum="min"):
        """``w[index[k]] accum= dup-reduction of values[k]`` in place; returns ``w``.

        ``index`` and ``values`` are full vectors of one length (or numpy arrays).
        """

    def synchronize(self):
        """Wait until all work queued on the engine's device has finished (benchmark timing).

        A no-op on engines that run synchronously, as the CPU one does.
        """

    @contextlib.contextmanager
    def memory_watch(self):
        """A context whose dict is filled, on exit, with the device memory the block used.

        Device engines report ``peak_device_bytes`` (the most memory of their own
        allocator in use at once beyond what was in use at the start) and
        ``device_used_growth_bytes``; engines on host memory leave it empty (the
        process's peak resident size says it: the benchmark measures that).
        """
        yield {}


#: the methods of the operator interface (what the profiler times on every engine)
INTERFACE = tuple(name for name, value in vars(Engine).items()
                  if callable(value) and not name.startswith("_") and name not in ("synchronize", "id_dtype", "memory_watch"))
