"""Conformance suite of the operator interface (la_graph.engines.base.Engine).

Every engine runs the same tests against one small, independent reference
model written here: a vector or matrix is a dense object array of values plus
a boolean ``present`` mask, and every operation is spelled out entry by entry
with GraphBLAS's rules:

* ``C<M, replace> accum= T``: where the mask allows, ``C`` becomes ``T``
  (combined with the old ``C`` by ``accum`` where both hold an entry); where it
  does not, ``C`` keeps its entry, or loses it with ``replace``.
* A semiring ``add_mult`` casts both operands to its type, multiplies, and
  reduces the products with the ``add`` monoid.  ``firsti`` is the row index of
  the first operand and ``secondi`` that of the second: ``i`` and ``j`` in
  ``mxv(A, u)`` (``u`` a column), ``0`` and ``k`` in ``vxm(u, A)`` (``u`` a row),
  ``i`` and ``k`` in ``mxm(A, B)``.
* An ``any`` op may pick any of its operands: the model keeps the set of right
  answers (:class:`Choice`) and a result passes if it is one of them.

Values are small integers and halves, so float sums are exact whatever order
an engine adds them in.  ``LA_GRAPH_TEST_SCALE=10`` runs ten times the examples.

Where GraphBLAS leaves a type open the model says what the engines do:
arithmetic on booleans (``plus_times`` of two bool matrices, a ``plus``
reduction of bools) counts as on 0/1 integers, in int64 (a result typed bool is
accepted where that is the same answer); ``div`` on bools is ``first``; integer
division by zero gives 0, or the type's max or min; float to integer casts
truncate and saturate, NaN becoming 0.

Known wrong answers of an engine each have one deterministic test marked
``xfail(strict=True)`` on that engine only (so a fix shows up as a failure to
unmark), and the randomized tests steer clear of them on that engine:

* cpu: an empty inner dimension with a mask and an accum fails
  (test_empty_inner_dimension_mask_accum).

The reference engine (numpy, la_graph.engines.reference) has none.
"""

from __future__ import annotations

import itertools
import math
import operator
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import la_graph
from la_graph import Graph, InvalidArgumentError
from la_graph.engines.base import BINARY_OPS, MONOIDS, SELECT_OPS, SEMIRINGS, UNARY_OPS

BOOL, I64, F64 = np.dtype(bool), np.dtype(np.int64), np.dtype(np.float64)
INT_MIN, INT_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
FLOATS = (-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0)

VECTOR_DTYPES = (I64, I64, F64, BOOL)   # int64 drawn most often
MATRIX_DTYPES = (BOOL, F64, I64)        # graph matrices (bool ones, float64 weights) first
ANY_DTYPES = (BOOL, I64, F64)
MASK_KINDS = ("none", "value", "structural", "value_complement", "structural_complement")
ACCUMS = (None, "min", "plus")

COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
           "le": operator.le, "gt": operator.gt, "ge": operator.ge}
ARITH = {"plus": operator.add, "minus": operator.sub, "times": operator.mul}

def examples(n):
    """``n`` hypothesis examples, times ``$LA_GRAPH_TEST_SCALE`` (default 1) for a deeper run."""
    return n * int(os.environ.get("LA_GRAPH_TEST_SCALE", "1"))


@pytest.fixture(scope="module", params=["cpu", pytest.param("gpu", marks=pytest.mark.gpu), "reference"])
def engine(request):
    """Every engine in turn (the conftest fixture's engines and the reference engine); gpu skips where it cannot run."""
    try:
        return la_graph.get_engine(request.param)
    except la_graph.EngineUnavailable as exc:
        pytest.skip(f"{request.param} engine unavailable: {exc}")


SETTINGS = dict(deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


# ============================================================================ reference model
class Choice(frozenset):
    """Any one of these values is a right answer (what an ``any`` op may pick)."""


def choice(values):
    flat = set()
    for v in values:
        if isinstance(v, Choice):
            flat.update(v)
        else:
            flat.add(v)
    return next(iter(flat)) if len(flat) == 1 else Choice(flat)


def lifted(f):
    """Let ``f`` take Choice arguments: the result is the Choice of every combination."""
    def g(*args):
        if any(isinstance(a, Choice) for a in args):
            options = [a if isinstance(a, Choice) else (a,) for a in args]
            return choice(g(*combo) for combo in itertools.product(*options))
        return f(*args)
    return g


@lifted
def cast(v, dtype):
    """GraphBLAS typecast of one value."""
    dtype = np.dtype(dtype)
    if dtype == BOOL:
        return np.bool_(v != 0)
    if dtype.kind == "i" and isinstance(v, (float, np.floating)):   # truncate, saturate, NaN -> 0
        info = np.iinfo(dtype)
        return dtype.type(0 if math.isnan(v) else info.max if v >= info.max else info.min if v <= info.min
                          else math.trunc(v))
    if dtype.kind == "i" and isinstance(v, int):                      # integer arithmetic wraps around
        info = np.iinfo(dtype)
        v = (v - info.min) % (1 << info.bits) + info.min
    return dtype.type(v)


@lifted
def binop(op, a, b, dtype):
    """The binary op ``op`` typed for ``dtype``: both operands cast to it first."""
    dtype = np.dtype(dtype)
    a, b = cast(a, dtype), cast(b, dtype)
    if op in COMPARE:
        return np.bool_(COMPARE[op](a, b))
    if op == "first":
        return a
    if op == "second":
        return b
    if op == "any":
        return choice([a, b])
    if op == "pair":
        return cast(1, dtype)
    if op == "min":
        return min(a, b)
    if op == "max":
        return max(a, b)
    if op == "lor":
        return cast(bool(a) or bool(b), dtype)
    if op == "land":
        return cast(bool(a) and bool(b), dtype)
    x, y = a.item(), b.item()
    if dtype == BOOL:                      # bool plus = lor, minus = lxor, times = land
        x, y = int(x), int(y)
    if op in ARITH:
        return cast(ARITH[op](x, y), dtype)
    if op == "div":
        if dtype.kind == "f":
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.float64(x) / np.float64(y)
        if dtype == BOOL:                  # GrB_DIV_BOOL is first
            return a
        if y == 0:                         # 0/0 = 0, else the sign's extreme
            return cast(0 if x == 0 else INT_MAX if x > 0 else INT_MIN, dtype)
        q = abs(x) // abs(y)               # C division: truncates toward zero
        return cast(q if (x >= 0) == (y >= 0) else -q, dtype)
    raise AssertionError(f"no reference for binary op {op}")


def monoid_dtype(monoid, dtype):
    """The type ``monoid`` reduces ``dtype`` values in: lor/land are boolean; plus on bools counts in int64."""
    if monoid in ("lor", "land"):
        return BOOL
    return I64 if monoid == "plus" and np.dtype(dtype) == BOOL else np.dtype(dtype)


def identity(monoid, dtype):
    dtype = monoid_dtype(monoid, dtype)
    kind = "b" if dtype == BOOL else dtype.kind
    table = {
        "min": {"b": True, "i": INT_MAX, "f": math.inf},
        "max": {"b": False, "i": INT_MIN, "f": -math.inf},
        "plus": {"i": 0, "f": 0.0}, "times": {"b": True, "i": 1, "f": 1.0},
        "lor": {"b": False}, "land": {"b": True},
    }
    return table[monoid][kind]


def reduce_values(monoid, values, dtype):
    dtype = monoid_dtype(monoid, dtype)
    acc = cast(values[0], dtype)
    for v in values[1:]:
        acc = binop(monoid, acc, v, dtype)
    return acc


class Ref:
    """A reference vector or matrix: dense values (an object array, so an entry may be a
    :class:`Choice`) and a boolean ``present`` mask.  ``also``: other dtypes an engine's
    result may have (bool for arithmetic on bools, which the model counts in int64)."""

    def __init__(self, shape, dtype, also=()):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.also = tuple(also)
        self.present = np.zeros(self.shape, bool)
        self.val = np.empty(self.shape, object)

    def copy(self):
        r = Ref(self.shape, self.dtype, self.also)
        r.present[...] = self.present
        r.val[...] = self.val
        return r

    def keys(self):
        return [k for k in np.ndindex(*self.shape) if self.present[k]]

    def set(self, key, value):
        self.present[key] = True
        self.val[key] = value

    def __repr__(self):
        return f"Ref{self.shape}[{self.dtype}]{ {k: self.val[k] for k in self.keys()} }"


def ref_from(shape, dtype, entries):
    r = Ref(shape, dtype)
    for k, v in entries.items():
        r.set(k if isinstance(k, tuple) else (k,), cast(v, dtype))
    return r


def to_engine(E, r):
    idx = [i.astype(np.int64) for i in np.nonzero(r.present)]
    vals = np.array([r.val[k] for k in zip(*idx)], dtype=r.dtype)
    if len(r.shape) == 1:
        return E.vector_from_coo(idx[0], vals, r.shape[0], dtype=r.dtype)
    return E.matrix_from_coo(idx[0], idx[1], vals, r.shape[0], r.shape[1], dtype=r.dtype)


def to_ref(E, x):
    size = E.size(x)
    shape = (size,) if np.ndim(size) == 0 else tuple(size)
    *idx, vals = E.to_coo(x)
    r = Ref(shape, vals.dtype)
    idx = [np.asarray(i, dtype=np.int64) for i in idx]
    assert all(len(i) == len(vals) for i in idx)
    for k, key in enumerate(zip(*idx)):
        assert not r.present[key], f"to_coo lists {key} twice"
        r.set(tuple(int(i) for i in key), vals[k])
    assert E.nvals(x) == len(vals)
    return r


def same(got, exp):
    if isinstance(exp, (float, np.floating)) or isinstance(got, (float, np.floating)):
        g, e = float(got), float(exp)
        return g == e or (math.isnan(g) and math.isnan(e)) or math.isclose(g, e, rel_tol=1e-12)
    return bool(got == exp)


def assert_matches(E, got, exp, *, check_dtype=True):
    g = to_ref(E, got)
    assert g.shape == exp.shape, f"shape {g.shape}, expected {exp.shape}"
    if check_dtype:
        assert g.dtype == exp.dtype or g.dtype in exp.also, f"dtype {g.dtype}, expected {exp.dtype}"
    np.testing.assert_array_equal(g.present, exp.present, err_msg=f"structure differs: got {g}, expected {exp}")
    for key in exp.keys():
        e, v = exp.val[key], g.val[key]
        ok = any(same(v, c) for c in e) if isinstance(e, Choice) else same(v, e)
        assert ok, f"at {key}: got {v!r}, expected {e!r} (got {g}, expected {exp})"


def ref_write(out, T, mask=None, *, structural=False, complement=False, replace=False, accum=None):
    """``C<M, replace> accum= T`` (``out=None``: C starts empty, of T's dtype)."""
    C = Ref(T.shape, T.dtype, T.also) if out is None else out.copy()
    if mask is None:
        allowed = np.ones(T.shape, bool)
    else:
        allowed = mask.present.copy()
        if not structural:
            for k in mask.keys():
                allowed[k] = bool(mask.val[k] != 0)
        if complement:
            allowed = ~allowed
    result = C.copy()
    for key in np.ndindex(*T.shape):
        c, t = C.present[key], T.present[key]
        if accum is not None and c and t:
            z = binop(accum, C.val[key], T.val[key], C.dtype)
        elif t:
            z = cast(T.val[key], C.dtype)
        elif accum is not None and c:
            z = C.val[key]
        else:
            z = None
        if allowed[key] or replace:
            result.present[key] = False
            result.val[key] = None
        if allowed[key] and z is not None:
            result.set(key, z)
    return result


# ------------------------------------------------------------------ reference operations
def semiring_dtype(semiring, left, right):
    """The type a semiring computes in, for operands of dtypes ``left`` (first) and ``right`` (second).

    Arithmetic on bools counts in int64 (see :func:`bool_counted`).
    """
    add, mult = semiring.split("_", 1)
    if mult in ("firsti", "secondi"):
        return I64
    if add in ("lor", "land"):
        return BOOL
    if mult == "first":
        dtype = np.dtype(left)
    elif mult == "second":
        dtype = np.dtype(right)
    elif mult == "pair":
        dtype = I64 if add == "plus" else np.dtype(left)
    else:
        dtype = np.result_type(left, right)
    return I64 if dtype == BOOL else dtype


def bool_counted(semiring, left, right):
    """Whether the semiring's operands are bool but it counts in int64: then a bool result is
    accepted too (it is the same answer where GraphBLAS has the boolean semiring: min, max,
    times, any of first, second, pair, lor, land)."""
    add, mult = semiring.split("_", 1)
    if mult in ("firsti", "secondi") or add in ("lor", "land"):
        return False
    operands = {"first": (left,), "second": (right,), "pair": () if add == "plus" else (left,)}.get(mult, (left, right))
    return bool(operands) and all(np.dtype(d) == BOOL for d in operands)


def ref_mxm(semiring, A, B):
    add, mult = semiring.split("_", 1)
    D = semiring_dtype(semiring, A.dtype, B.dtype)
    (m, kk), n = A.shape, B.shape[1]
    C = Ref((m, n), monoid_dtype(add, D), (BOOL,) if bool_counted(semiring, A.dtype, B.dtype) else ())
    for i in range(m):
        for j in range(n):
            terms = []
            for k in range(kk):
                if A.present[i, k] and B.present[k, j]:
                    if mult == "firsti":
                        terms.append(I64.type(i))        # row index of A(i, k)
                    elif mult == "secondi":
                        terms.append(I64.type(k))        # row index of B(k, j)
                    else:
                        terms.append(binop(mult, A.val[i, k], B.val[k, j], D))
            if terms:
                C.set((i, j), reduce_values(add, terms, D))
    return C


def _reshape(r, shape):
    out = Ref(shape, r.dtype, r.also)
    out.present = r.present.reshape(shape).copy()
    out.val = r.val.reshape(shape).copy()
    return out


def ref_mxv(semiring, A, u):
    return _reshape(ref_mxm(semiring, A, _reshape(u, (u.shape[0], 1))), (A.shape[0],))   # u is a column


def ref_vxm(semiring, u, A):
    return _reshape(ref_mxm(semiring, _reshape(u, (1, u.shape[0])), A), (A.shape[1],))   # u is a row


def ewise_dtype(op, x, y):
    return BOOL if op in COMPARE else np.result_type(x, y)


def ref_ewise(kind, x, y, op):
    D = np.result_type(x.dtype, y.dtype)
    T = Ref(x.shape, ewise_dtype(op, x.dtype, y.dtype))
    for key in np.ndindex(*x.shape):
        px, py = x.present[key], y.present[key]
        if px and py:
            T.set(key, binop(op, x.val[key], y.val[key], D))
        elif kind == "add" and px:
            T.set(key, cast(x.val[key], T.dtype))
        elif kind == "add" and py:
            T.set(key, cast(y.val[key], T.dtype))
    return T


def unary(op, v, dtype):
    dtype = np.dtype(dtype)
    v = cast(v, dtype)
    if op == "identity":
        return v
    if op == "ainv":
        return v if dtype == BOOL else cast(-v, dtype)
    if op == "abs":
        return v if dtype == BOOL else cast(abs(v), dtype)
    if op == "minv":
        with np.errstate(divide="ignore"):
            return cast(np.float64(1.0) / v, dtype)
    if op == "one":
        return cast(1, dtype)
    if op == "lnot":
        return cast(v == 0, dtype)
    raise AssertionError(op)


def ref_apply(x, op, right=None):
    if right is None:
        T = Ref(x.shape, x.dtype)
        for k in x.keys():
            T.set(k, unary(op, x.val[k], x.dtype))
    else:
        T = Ref(x.shape, BOOL if op in COMPARE else x.dtype)
        for k in x.keys():
            T.set(k, binop(op, x.val[k], right, x.dtype))
    return T


def ref_select(x, op, thunk=None):
    T = Ref(x.shape, x.dtype)
    for key in x.keys():
        v = x.val[key]
        if op.startswith("value"):
            keep = COMPARE[op[5:]](cast(v, x.dtype), cast(thunk, x.dtype))
        elif op == "rowle":
            keep = key[0] <= thunk
        elif op == "rowgt":
            keep = key[0] > thunk
        else:
            d, k = key[1] - key[0], 0 if thunk is None else thunk
            keep = {"tril": d <= k, "triu": d >= k, "diag": d == k, "offdiag": d != k}[op]
        if keep:
            T.set(key, v)
    return T


def ref_reduce_rows(A, monoid):
    T = Ref((A.shape[0],), monoid_dtype(monoid, A.dtype))
    for i in range(A.shape[0]):
        vals = [A.val[i, j] for j in range(A.shape[1]) if A.present[i, j]]
        if vals:
            T.set((i,), reduce_values(monoid, vals, A.dtype))
    return T


def ref_extract(u, index):
    T = Ref((len(index),), u.dtype)
    for i, j in enumerate(index):
        if u.present[j]:
            T.set((i,), u.val[j])
    return T


def ref_build(indices, values, size, dup, dtype):
    T = Ref((size,), dtype)
    for i, v in zip(indices, values):
        v = cast(v, dtype)
        T.set((int(i),), binop(dup, T.val[i], v, dtype) if T.present[i] else v)
    return T


# ============================================================================ random inputs
def elements(dtype):
    dtype = np.dtype(dtype)
    if dtype == BOOL:
        return st.booleans()
    return st.integers(-3, 5) if dtype.kind == "i" else st.sampled_from(FLOATS)


def draw_ref(data, shape, dtype, *, fill=None):
    """A random reference object: empty, full, or (most often) of random sparsity."""
    dtype = np.dtype(dtype)
    if fill is None:
        fill = data.draw(st.sampled_from(("sparse", "sparse", "sparse", "full", "empty")), label="fill")
    n = int(np.prod(shape))
    if fill == "sparse":
        present = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="present")
    else:
        present = [fill == "full"] * n
    vals = data.draw(st.lists(elements(dtype), min_size=n, max_size=n), label="values")
    r = Ref(shape, dtype)
    r.present[...] = np.array(present, bool).reshape(r.shape)
    for key, v in zip(np.ndindex(*r.shape), vals):
        if r.present[key]:
            r.val[key] = cast(v, dtype)
    return r


def draw_size(data, hi=8, label="n"):
    return data.draw(st.integers(0, hi), label=label)


def mask_args(data, E, shape, mask_kind):
    if mask_kind == "none":
        return None, {}
    mdt = data.draw(st.sampled_from((BOOL, I64, F64)), label="mask dtype")
    M = draw_ref(data, shape, mdt)
    return M, dict(mask=to_engine(E, M), structural=mask_kind.startswith("structural"),
                   complement=mask_kind.endswith("complement"))


def check_output_args(E, data, call, T, mask_kind, replace, accum, give_out, *, inplace=False, check_dtype=True):
    """Run ``call`` with the GraphBLAS output arguments and compare with ``C<M, replace> accum= T``.

    A given ``out`` has the result's dtype or (less often) another one, which the result is cast to.
    """
    M, kw = mask_args(data, E, T.shape, mask_kind)
    kw.update(replace=replace, accum=accum)
    out_dtype = data.draw(st.sampled_from((T.dtype, T.dtype, *ANY_DTYPES)), label="out dtype")
    out_ref = draw_ref(data, T.shape, out_dtype) if give_out else None
    if inplace:                                    # assign / scatter: the target always exists
        if out_ref is None:
            out_ref = Ref(T.shape, T.dtype)
        w = to_engine(E, out_ref)
        got = call(w, **kw)
        assert got is w, "an in-place operation must return its target"
    else:
        out = to_engine(E, out_ref) if give_out else None
        if accum is not None and out is None:
            with pytest.raises(InvalidArgumentError, match="accum"):
                call(out=None, **kw)
            return
        got = call(out=out, **kw)
        if give_out:
            assert got is out, "with out= the result is written into out and returned"
    exp = ref_write(out_ref, T, M, structural=kw.get("structural", False),
                    complement=kw.get("complement", False), replace=replace, accum=accum)
    assert_matches(E, got, exp, check_dtype=check_dtype)


# ------------------------------------------------------------------ operation builders
# Each draws inputs, and returns (call, T): ``call(**output_args)`` runs the engine,
# ``T`` is the reference result before the output arguments apply.
def draw_inner(data, E, accum, add, hi=8, label="k"):
    """An inner dimension (or a matrix's column count for reduce_rows): not 0 where it would meet
    the cpu engine's known failure (test_empty_inner_dimension_mask_accum)."""
    return data.draw(st.integers(int(E.name == "cpu" and accum is not None and accum == add), hi), label=label)


def _draw_semiring(data, semiring, lefts, rights):
    left = data.draw(st.sampled_from(lefts), label="left dtype")
    right = data.draw(st.sampled_from(rights), label="right dtype")
    return left, right, semiring or data.draw(st.sampled_from(SEMIRINGS), label="semiring")


def build_mxv(E, data, semiring=None, accum=None):
    adt, udt, sr = _draw_semiring(data, semiring, MATRIX_DTYPES, VECTOR_DTYPES)
    m, n = draw_size(data, label="m"), draw_inner(data, E, accum, sr.split("_")[0], label="n")
    A, u = draw_ref(data, (m, n), adt), draw_ref(data, (n,), udt)
    Ae, ue = to_engine(E, A), to_engine(E, u)
    return (lambda **kw: E.mxv(Ae, ue, sr, **kw)), ref_mxv(sr, A, u)


def build_vxm(E, data, semiring=None, accum=None):
    udt, adt, sr = _draw_semiring(data, semiring, VECTOR_DTYPES, MATRIX_DTYPES)
    m, n = draw_inner(data, E, accum, sr.split("_")[0], label="m"), draw_size(data)
    u, A = draw_ref(data, (m,), udt), draw_ref(data, (m, n), adt)
    ue, Ae = to_engine(E, u), to_engine(E, A)
    return (lambda **kw: E.vxm(ue, Ae, sr, **kw)), ref_vxm(sr, u, A)


def build_mxm(E, data, semiring=None, accum=None):
    adt, bdt, sr = _draw_semiring(data, semiring, MATRIX_DTYPES, MATRIX_DTYPES)
    m, n = draw_size(data, 6, label="m"), draw_size(data, 6, label="n")
    k = draw_inner(data, E, accum, sr.split("_")[0], hi=6)
    A, B = draw_ref(data, (m, k), adt), draw_ref(data, (k, n), bdt)
    Ae, Be = to_engine(E, A), to_engine(E, B)
    return (lambda **kw: E.mxm(Ae, Be, sr, **kw)), ref_mxm(sr, A, B)


def draw_shape(data):
    if data.draw(st.booleans(), label="matrix?"):
        return (draw_size(data, 6, label="nrows"), draw_size(data, 6, label="ncols"))
    return (draw_size(data),)


def _build_ewise(E, data, kind, op=None):
    shape = draw_shape(data)
    xdt, ydt = data.draw(st.sampled_from(ANY_DTYPES), label="x dtype"), data.draw(st.sampled_from(ANY_DTYPES), label="y dtype")
    if op is None:
        op = data.draw(st.sampled_from(BINARY_OPS), label="op")
    x, y = draw_ref(data, shape, xdt), draw_ref(data, shape, ydt)
    xe, ye = to_engine(E, x), to_engine(E, y)
    fn = E.ewise_add if kind == "add" else E.ewise_mult
    return (lambda **kw: fn(xe, ye, op, **kw)), ref_ewise(kind, x, y, op)


def build_ewise_add(E, data, accum=None):
    return _build_ewise(E, data, "add")


def build_ewise_mult(E, data, accum=None):
    return _build_ewise(E, data, "mult")


def build_apply(E, data, accum=None):
    shape = draw_shape(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, shape, dt)
    xe = to_engine(E, x)
    if data.draw(st.booleans(), label="unary?"):
        op = data.draw(st.sampled_from(UNARY_OPS), label="op")
        return (lambda **kw: E.apply(xe, op, **kw)), ref_apply(x, op)
    op = data.draw(st.sampled_from([o for o in BINARY_OPS if o != "pair"]), label="op")  # pair: its own test
    right = data.draw(elements(dt), label="right")
    return (lambda **kw: E.apply(xe, op, right=right, **kw)), ref_apply(x, op, right)


def build_select(E, data, accum=None):
    shape = draw_shape(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    ops = [o for o in SELECT_OPS if len(shape) == 2 or o.startswith(("value", "row"))]
    op = data.draw(st.sampled_from(ops), label="op")
    if op.startswith("value"):
        thunk = data.draw(elements(dt), label="thunk")
    elif op.startswith("row"):
        thunk = data.draw(st.integers(-1, 8), label="thunk")
    else:
        thunk = data.draw(st.one_of(st.none(), st.integers(-2, 2)), label="thunk")
    x = draw_ref(data, shape, dt)
    xe = to_engine(E, x)
    return (lambda **kw: E.select(xe, op, thunk, **kw)), ref_select(x, op, thunk)


def build_reduce_rows(E, data, accum=None):
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    monoid = data.draw(st.sampled_from(MONOIDS), label="monoid")
    m, n = draw_size(data, 6, label="m"), draw_inner(data, E, accum, monoid, hi=6, label="n")
    A = draw_ref(data, (m, n), dt)
    Ae = to_engine(E, A)
    return (lambda **kw: E.reduce_rows(Ae, monoid, **kw)), ref_reduce_rows(A, monoid)


def draw_index(data, E, n, *, label="index"):
    k = data.draw(st.integers(0, 8), label="index length") if n > 0 else 0
    idx = np.array(data.draw(st.lists(st.integers(0, max(n - 1, 0)), min_size=k, max_size=k), label=label), np.int64)
    as_engine = data.draw(st.booleans(), label="engine index vector?")
    return idx, (E.vector_from_numpy(idx) if as_engine else idx)


def build_extract(E, data, accum=None):
    n = draw_size(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    u = draw_ref(data, (n,), dt)
    idx, index = draw_index(data, E, n)
    ue = to_engine(E, u)
    return (lambda **kw: E.extract(ue, index, **kw)), ref_extract(u, idx)


def build_assign(E, data, accum=None):
    shape = draw_shape(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    if data.draw(st.booleans(), label="scalar?"):
        s = data.draw(elements(dt), label="scalar")
        T = Ref(shape, dt)
        for key in np.ndindex(*shape):
            T.set(key, cast(s, dt))
        return (lambda w, **kw: E.assign(w, s, **kw)), T
    u = draw_ref(data, shape, dt)
    ue = to_engine(E, u)
    return (lambda w, **kw: E.assign(w, ue, **kw)), u


BUILDERS = {
    "mxv": build_mxv, "vxm": build_vxm, "mxm": build_mxm,
    "ewise_add": build_ewise_add, "ewise_mult": build_ewise_mult, "apply": build_apply,
    "select": build_select, "reduce_rows": build_reduce_rows, "extract": build_extract,
    "assign": build_assign,
}


# ============================================================================ the reference itself
def test_reference_model_known_answers():
    """Hand-checked answers, so that the model cannot drift with the engines."""
    A = ref_from((3, 3), BOOL, {(0, 1): 1, (1, 2): 1, (2, 0): 1, (2, 1): 1})
    u = ref_from((3,), I64, {0: 10, 2: 30})
    assert ref_vxm("any_secondi", u, A).val[1] in (Choice({0, 2}),)     # parents of 1: 0 and 2
    assert ref_vxm("min_secondi", u, A).val[1] == 0
    assert ref_vxm("min_firsti", u, A).val[1] == 0                      # u is a row: its row index is 0
    assert ref_mxv("min_secondi", A, u).val[2] == 0                     # A[2, 0] u[0]: j = 0
    assert ref_mxv("min_firsti", A, u).val[1] == 1
    assert ref_mxv("plus_times", A, u).val.tolist() == [None, 30, 10]
    assert ref_mxv("plus_pair", A, u).val[1] == 1
    C = ref_write(ref_from((3,), I64, {0: 5, 1: 7}), ref_from((3,), I64, {0: 1, 2: 2}),
                  ref_from((3,), BOOL, {0: True, 1: False, 2: True}), replace=True, accum="plus")
    assert C.present.tolist() == [True, False, True] and C.val[0] == 6 and C.val[2] == 2
    assert binop("minus", True, False, BOOL) and not binop("plus", False, False, BOOL)
    assert binop("div", -7, 2, I64) == -3 and binop("lt", 1, 2, I64) is np.True_


# ============================================================================ output arguments
@pytest.mark.parametrize("give_out", [False, True], ids=["new", "out"])
@pytest.mark.parametrize("accum", ACCUMS, ids=lambda a: f"accum={a}")
@pytest.mark.parametrize("replace", [False, True], ids=["keep", "replace"])
@pytest.mark.parametrize("mask_kind", MASK_KINDS)
@pytest.mark.parametrize("op", list(BUILDERS))
@settings(max_examples=examples(4), **SETTINGS)
@given(data=st.data())
def test_output_arguments(engine, op, mask_kind, replace, accum, give_out, data):
    """Every operation x every mask kind x replace x accum x out given or not."""
    call, T = BUILDERS[op](engine, data, accum=accum)
    check_output_args(engine, data, call, T, mask_kind, replace, accum, give_out, inplace=op == "assign")


@pytest.mark.parametrize("accum", BINARY_OPS)
@settings(max_examples=examples(8), **SETTINGS)
@given(data=st.data())
def test_accumulators(engine, accum, data):
    """Every binary op as ``accum``, on a random operation into an existing ``out``, any mask kind."""
    op = data.draw(st.sampled_from(list(BUILDERS)), label="operation")
    call, T = BUILDERS[op](engine, data, accum=accum)
    mask_kind, replace = data.draw(st.sampled_from(MASK_KINDS), label="mask kind"), data.draw(st.booleans(), label="replace")
    check_output_args(engine, data, call, T, mask_kind, replace, accum, True, inplace=op == "assign")


def _draw_output_args(data):
    return (data.draw(st.sampled_from(MASK_KINDS), label="mask kind"),
            data.draw(st.booleans(), label="replace"),
            data.draw(st.sampled_from(ACCUMS), label="accum"),
            data.draw(st.booleans(), label="out given"))


# ============================================================================ semirings
@pytest.mark.parametrize("semiring", SEMIRINGS)
@pytest.mark.parametrize("kind", ["mxv", "vxm", "mxm"])
@settings(max_examples=examples(12), **SETTINGS)
@given(data=st.data())
def test_semiring(engine, kind, semiring, data):
    """Every semiring on every operand dtype, with random output arguments."""
    mask_kind, replace, accum, give_out = _draw_output_args(data)
    call, T = BUILDERS[kind](engine, data, semiring, accum=accum)
    check_output_args(engine, data, call, T, mask_kind, replace, accum, give_out)


def test_accum_equal_to_add_with_typecast(engine, request):
    """``C accum= A (+.*) u`` where accum is the semiring's add op and an operand must be typecast
    (PageRank's ``t += A' plus_times r`` with bool A and float r)."""
    E = engine
    A = E.matrix_from_coo([0, 1, 1, 2], [1, 0, 2, 1], True, 3, 3, dtype=bool)
    r = E.vector_from_numpy(np.array([1.0, 2.0, 4.0]))
    t = E.mxv(A, r, "plus_times", out=E.full(3, 10.0), accum="plus")
    assert E.to_numpy(t).tolist() == [12.0, 15.0, 12.0]
    u = E.vector_from_coo([0, 1], np.array([1, 0]), 8, dtype=np.int64)
    B = E.matrix_from_coo([0], [0], np.array([-2.0]), 8, 1, dtype=np.float64)
    w = E.vxm(u, B, "min_plus", out=E.full(1, 5.0), accum="min")
    assert E.to_numpy(w).tolist() == [-1.0]


def test_index_semirings_known_answers(engine):
    E = engine
    A = E.matrix_from_coo([0, 1, 2, 2], [1, 2, 0, 1], True, 3, 3, dtype=bool)
    q = E.vector_from_coo([0, 2], np.array([10, 30]), 3, dtype=np.int64)
    parents = E.to_coo(E.vxm(q, A, "any_secondi"))
    assert sorted(np.asarray(parents[0]).tolist()) == [0, 1]
    p = dict(zip(np.asarray(parents[0]).tolist(), np.asarray(parents[1]).tolist()))
    assert p[0] == 2 and p[1] in (0, 2)                   # the frontier vertex k of A[k, j]
    assert E.to_numpy(E.vxm(q, A, "min_secondi"), fill=-1).tolist() == [2, 0, -1]
    assert E.to_numpy(E.mxv(A, q, "min_secondi"), fill=-1).tolist() == [-1, 2, 0]   # the j of u[j]
    assert E.to_numpy(E.mxv(A, q, "min_firsti"), fill=-1).tolist() == [-1, 1, 2]


@pytest.mark.parametrize("kind", ["mxv", "vxm", "mxm"])
def test_bool_arithmetic_semirings_count(engine, kind):
    """A semiring on bool operands gives what it gives on the same 0/1 operands as int64
    (plus_times on two bool matrices counts paths)."""
    E = engine
    rows, cols = [0, 0, 1, 1, 2], [1, 2, 0, 2, 1]
    A, Ai = (E.matrix_from_coo(rows, cols, True, 3, 3, dtype=dt) for dt in (bool, np.int64))
    u, ui = (E.vector_from_coo([0, 1, 2], np.array([1, 1, 0]), 3, dtype=dt) for dt in (bool, np.int64))
    run = {"mxv": lambda M, v, sr: E.mxv(M, v, sr), "vxm": lambda M, v, sr: E.vxm(v, M, sr),
           "mxm": lambda M, v, sr: E.mxm(M, M, sr)}[kind]
    for sr in SEMIRINGS:
        if sr.startswith("any_"):
            continue
        got, exp = to_ref(E, run(A, u, sr)), to_ref(E, run(Ai, ui, sr))
        assert np.array_equal(got.present, exp.present), sr
        assert all(got.val[k] == exp.val[k] for k in exp.keys()), (sr, got, exp)
    assert E.to_numpy(E.mxm(A, A, "plus_times"), fill=0).tolist() == [[1, 1, 1], [0, 2, 1], [1, 0, 1]]


@pytest.mark.parametrize("op", ["mxv", "vxm", "reduce_rows"])
def test_empty_inner_dimension_mask_accum(engine, op, request):
    """``w<m> min= A min.second u`` (and ``u min.second A``, and the min-reduction of A's rows)
    where the inner dimension is 0: nothing comes in, ``w`` stays as it is."""
    if engine.name == "cpu" and op == "reduce_rows":     # mxv and vxm skip the library there
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=(
            "cpu engine: SuiteSparse:GraphBLAS 9.4.5 GrB_Matrix_reduce with a mask, "
            "accum equal to the add monoid and an empty inner dimension fails with GrB_DIMENSION_MISMATCH")))
    E = engine
    e = np.array([], np.int64)
    u = E.vector_from_coo(e, np.array([], float), 0, dtype=float)
    if op == "vxm":
        A = E.matrix_from_coo(e, e, np.array([], float), 0, 1, dtype=float)
        m = E.vector_from_coo(e, np.array([], bool), 1, dtype=bool)
        w = E.vxm(u, A, "min_second", out=E.full(1, 1.0), accum="min", mask=m)
        assert E.to_numpy(w).tolist() == [1.0]
        return
    A = E.matrix_from_coo(e, e, np.array([], float), 3, 0, dtype=float)
    m = E.vector_from_coo([1], True, 3, dtype=bool)
    if op == "mxv":
        w = E.mxv(A, u, "min_second", out=E.full(3, 1.0), accum="min", mask=m)
    else:
        w = E.reduce_rows(A, "min", out=E.full(3, 1.0), accum="min", mask=m)
    assert E.to_numpy(w).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("op", ["mxv", "vxm", "mxm"])
def test_empty_inner_dimension_of_iso_operands_gives_no_entries(engine, op):
    """Products over an empty inner dimension have no entries, whatever the operands' storage: SuiteSparse
    takes a 2 x 0 matrix built from a scalar value as full and iso, and its product with another was a full
    result of zeros (the dask engine's empty segments, on a grid larger than the vertices, met it)."""
    E = engine
    e = np.array([], np.int64)
    A = E.matrix_from_coo(e, e, True, 2, 0, dtype=bool)
    if op == "mxv":
        got = E.mxv(A, E.full(0, True, bool), "plus_times")
    elif op == "vxm":
        got = E.vxm(E.full(0, True, bool), E.matrix_from_coo(e, e, True, 0, 2, dtype=bool), "plus_times")
    else:
        got = E.mxm(A, E.matrix_from_coo(e, e, True, 0, 3, dtype=bool), "plus_times")
    assert E.nvals(got) == 0
    w = E.mxv(A, E.full(0, True, bool), "plus_times", out=E.full(2, 5.0), accum="plus")
    assert E.to_numpy(w).tolist() == [5.0, 5.0]


# ============================================================================ element-wise, apply, select
@pytest.mark.parametrize("op", BINARY_OPS)
@pytest.mark.parametrize("kind", ["add", "mult"])
@settings(max_examples=examples(8), **SETTINGS)
@given(data=st.data())
def test_ewise_ops(engine, kind, op, data):
    call, T = _build_ewise(engine, data, kind, op)
    check_output_args(engine, data, call, T, *_draw_output_args(data))


ISO_OUT_SCRIPT = """
import numpy as np, la_graph as lg
E = lg.get_engine({engine!r})
n = {n}
x, y = E.vector_from_numpy(np.arange(n)), E.vector_from_numpy(np.arange(n) % 7)
w = E.ewise_{kind}(x, y, "plus", out=E.full(n, 0))
junk = [np.ones(100) for _ in range(1000)]
print(np.array_equal(E.to_numpy(w), np.arange(n) + np.arange(n) % 7))
"""


@pytest.mark.parametrize("kind", ["add", "mult"])
def test_ewise_into_full_iso_out(engine, kind, request):
    """``out=`` an existing full vector holding one value everywhere (as ``full`` makes it).

    Run in a child process: on the cpu engine this writes past the end of a buffer."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    try:
        proc = subprocess.run([sys.executable, "-c", ISO_OUT_SCRIPT.format(engine=engine.name, n=4, kind=kind)],
                              capture_output=True, text=True, timeout=60, cwd=root, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("child process hung (a corrupted heap can deadlock malloc)")
    assert proc.returncode == 0, f"child process died ({proc.returncode}): {proc.stderr[-500:]}"
    assert proc.stdout.strip().endswith("True")


@pytest.mark.parametrize("op", UNARY_OPS)
@settings(max_examples=examples(10), **SETTINGS)
@given(data=st.data())
def test_apply_unary(engine, op, data):
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, draw_shape(data), dt)
    assert_matches(engine, engine.apply(to_engine(engine, x), op), ref_apply(x, op))


@pytest.mark.parametrize("op", BINARY_OPS)
@settings(max_examples=examples(8), **SETTINGS)
@given(data=st.data())
def test_apply_binary_right(engine, op, data):
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, draw_shape(data), dt)
    right = data.draw(elements(dt), label="right")
    got = engine.apply(to_engine(engine, x), op, right=right)
    assert_matches(engine, got, ref_apply(x, op, right), check_dtype=op != "pair")


@pytest.mark.parametrize("op", SELECT_OPS)
@settings(max_examples=examples(10), **SETTINGS)
@given(data=st.data())
def test_select(engine, op, data):
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    matrix = not op.startswith(("value", "row")) or data.draw(st.booleans(), label="matrix?")
    shape = (draw_size(data, 6), draw_size(data, 6)) if matrix else (draw_size(data),)
    x = draw_ref(data, shape, dt)
    if op.startswith("value"):
        thunk = data.draw(elements(dt), label="thunk")
    elif op.startswith("row"):
        thunk = data.draw(st.integers(-1, 8), label="thunk")
    else:
        thunk = data.draw(st.one_of(st.none(), st.integers(-3, 3)), label="thunk")
    assert_matches(engine, engine.select(to_engine(engine, x), op, thunk), ref_select(x, op, thunk))


# ============================================================================ reductions
@pytest.mark.parametrize("monoid", MONOIDS)
@settings(max_examples=examples(15), **SETTINGS)
@given(data=st.data())
def test_reduce(engine, monoid, data):
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, draw_shape(data), dt, fill=data.draw(st.sampled_from(("sparse", "full")), label="fill"))
    got = engine.reduce(to_engine(engine, x), monoid)
    assert isinstance(got, (bool, int, float)), f"reduce must give a Python scalar, got {type(got)}"
    vals = [x.val[k] for k in x.keys()]
    if not vals:
        if monoid != "any":
            assert same(got, identity(monoid, dt))
        return
    exp = reduce_values(monoid, vals, dt)
    assert any(same(got, c) for c in exp) if isinstance(exp, Choice) else same(got, exp), (got, exp)


@pytest.mark.parametrize("dtype", ANY_DTYPES, ids=str)
@pytest.mark.parametrize("monoid", [m for m in MONOIDS if m != "any"])
def test_reduce_empty_is_identity(engine, monoid, dtype):
    E = engine
    for x in (E.vector(0, dtype), E.vector(5, dtype), E.matrix_from_coo([], [], np.zeros(0, dtype), 3, 4, dtype=dtype)):
        got = E.reduce(x, monoid)
        assert same(got, identity(monoid, dtype)), (monoid, dtype, got)


@pytest.mark.parametrize("monoid", ["plus", "times"])
def test_reduce_bool_arithmetic(engine, monoid):
    """plus on bools counts their true values (int64); times is their logical and (bool)."""
    E = engine
    A = E.matrix_from_coo([0, 1, 1], [1, 0, 1], np.array([True, True, False]), 2, 2, dtype=bool)
    total, rows, dtype = {"plus": (2, [1, 1], I64), "times": (False, [True, False], BOOL)}[monoid]
    got = E.reduce(A, monoid)
    assert got == total and type(got) is type(total), (got, total)
    assert E.reduce(E.vector_from_coo([0, 2, 3], True, 5, dtype=bool), monoid) == {"plus": 3, "times": True}[monoid]
    r = E.to_numpy(E.reduce_rows(A, monoid))
    assert r.dtype == dtype and r.tolist() == rows


# ============================================================================ gather / scatter / build
@settings(max_examples=examples(60), **SETTINGS)
@given(data=st.data())
def test_extract_repeated_indices(engine, data):
    E = engine
    n = data.draw(st.integers(1, 8), label="n")
    u = draw_ref(data, (n,), data.draw(st.sampled_from(ANY_DTYPES), label="dtype"),
                 fill=data.draw(st.sampled_from(("sparse", "full")), label="fill"))
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=12), label="idx"), np.int64)
    idx[-1] = idx[0]                                           # at least one repeat
    index = E.vector_from_numpy(idx) if data.draw(st.booleans(), label="engine index?") else idx
    assert_matches(E, E.extract(to_engine(E, u), index), ref_extract(u, idx))


@pytest.mark.parametrize("dup", ["min", "max", "plus"])
@pytest.mark.parametrize("accum", ["min", "max", "plus"])
@settings(max_examples=examples(12), **SETTINGS)
@given(data=st.data())
def test_scatter(engine, dup, accum, data):
    E = engine
    n = data.draw(st.integers(1, 8), label="n")
    dt = data.draw(st.sampled_from((I64, F64)), label="dtype")
    w = draw_ref(data, (n,), dt, fill=data.draw(st.sampled_from(("sparse", "full", "empty")), label="fill"))
    k = data.draw(st.integers(0, 12), label="k")
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k), label="idx"), np.int64)
    vals = np.array(data.draw(st.lists(elements(dt), min_size=k, max_size=k), label="vals"), dt)
    if data.draw(st.booleans(), label="engine vectors?"):
        index, values = E.vector_from_numpy(idx), E.vector_from_numpy(vals)
    else:
        index, values = idx, vals
    we = to_engine(E, w)
    got = E.scatter(we, index, values, dup=dup, accum=accum)
    assert got is we, "scatter works in place and returns w"
    assert_matches(E, we, ref_write(w, ref_build(idx, vals, n, dup, dt), accum=accum))


@pytest.mark.parametrize("dtype", [BOOL, np.dtype(np.int32), I64, F64])
@pytest.mark.parametrize("dup", ["min", "max", "plus", "times", "lor", "first", "second"])
def test_scatter_long_runs(engine, dup, dtype):
    """Thousands of values onto a few indices (one run per tree root): each run reduced as in order."""
    E = engine
    rng = np.random.default_rng(7)
    k, n = 20_000, 5
    idx = np.where(rng.random(k) < 0.9, 2, rng.integers(0, n - 1, k)).astype(np.int64)  # index 4 never hit
    vals = (rng.random(k) < 0.5) if dtype == BOOL else rng.integers(-3, 4, k).astype(dtype)
    if dup == "times" and dtype != BOOL:
        vals = np.where(rng.random(k) < 0.99, 1, vals).astype(dtype)   # products that stay small
    w = Ref((n,), dtype)
    w.set((0,), cast(1, dtype))
    w.set((4,), cast(2, dtype))
    we = to_engine(E, w)
    E.scatter(we, E.vector_from_numpy(idx), E.vector_from_numpy(vals), dup=dup, accum="second")
    expected = ref_write(w, ref_build(idx, vals, n, dup, dtype), accum="second")
    if dtype.kind == "f" and dup in ("plus", "times"):
        got = E.to_numpy(we)
        np.testing.assert_allclose(got, expected.val.astype(float), rtol=1e-9)
    else:
        assert_matches(E, we, expected)


@pytest.mark.parametrize("dup", ["min", "max", "plus", "times"])
@settings(max_examples=examples(15), **SETTINGS)
@given(data=st.data())
def test_vector_and_matrix_from_coo_with_dup(engine, dup, data):
    E = engine
    dt = data.draw(st.sampled_from((I64, F64)), label="dtype")
    n, ncols = data.draw(st.integers(1, 6), label="n"), data.draw(st.integers(1, 6), label="ncols")
    k = data.draw(st.integers(0, 14), label="k")
    rows = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k), label="rows"), np.int64)
    cols = np.array(data.draw(st.lists(st.integers(0, ncols - 1), min_size=k, max_size=k), label="cols"), np.int64)
    vals = np.array(data.draw(st.lists(elements(dt), min_size=k, max_size=k), label="vals"), dt)
    assert_matches(E, E.vector_from_coo(rows, vals, n, dup=dup, dtype=dt), ref_build(rows, vals, n, dup, dt))
    flat = ref_build(rows * ncols + cols, vals, n * ncols, dup, dt)
    assert_matches(E, E.matrix_from_coo(rows, cols, vals, n, ncols, dup=dup, dtype=dt), _reshape(flat, (n, ncols)))
    # a scalar value: every listed index gets it, and duplicates still combine by dup
    scalar = data.draw(elements(dt), label="scalar")
    sv = np.full(k, scalar, dt)
    assert_matches(E, E.vector_from_coo(rows, dt.type(scalar).item(), n, dup=dup, dtype=dt),
                   ref_build(rows, sv, n, dup, dt))
    flat = ref_build(rows * ncols + cols, sv, n * ncols, dup, dt)
    assert_matches(E, E.matrix_from_coo(rows, cols, dt.type(scalar).item(), n, ncols, dup=dup, dtype=dt),
                   _reshape(flat, (n, ncols)))


def test_from_coo_scalar_and_dtype(engine):
    E = engine
    v = E.vector_from_coo([3, 1], 7, 5, dtype=np.int64)
    assert E.to_numpy(v, fill=0).tolist() == [0, 7, 0, 7, 0]
    M = E.matrix_from_coo([0, 2], [1, 0], True, 3, 2, dtype=bool)
    assert E.size(M) == (3, 2) and E.nvals(M) == 2
    assert E.to_numpy(M, fill=False).tolist() == [[False, True], [False, False], [True, False]]
    assert E.to_numpy(E.vector_from_coo([0, 1], [1.5, 2.5], 2)).dtype == F64


def test_from_coo_duplicates_without_dup_is_an_error(engine):
    with pytest.raises(ValueError):
        engine.vector_from_coo([0, 0], np.array([1, 2]), 3)
    with pytest.raises(ValueError):
        engine.matrix_from_coo([0, 0], [1, 1], np.array([1, 2]), 3, 3)


# ============================================================================ conversions and bookkeeping
@settings(max_examples=examples(40), **SETTINGS)
@given(data=st.data())
def test_to_numpy_to_coo_nvals_size(engine, data):
    E = engine
    shape = draw_shape(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, shape, dt)
    xe = to_engine(E, x)
    assert E.size(xe) == (shape[0] if len(shape) == 1 else shape)
    assert E.nvals(xe) == int(x.present.sum())
    assert isinstance(E.nvals(xe), int)
    fill = {BOOL: False, I64: -7, F64: -0.25}[dt]
    dense = E.to_numpy(xe, fill=fill)
    assert dense.shape == shape and dense.dtype == dt
    exp = np.full(shape, fill, dt)
    for k in x.keys():
        exp[k] = x.val[k]
    np.testing.assert_array_equal(dense, exp)
    *idx, vals = E.to_coo(xe)
    assert len(idx) == len(shape) and vals.dtype == dt
    assert all(np.issubdtype(np.asarray(i).dtype, np.integer) for i in idx)
    got = sorted(zip(*(np.asarray(i).tolist() for i in idx), vals.tolist()))
    assert got == sorted((*k, x.val[k].item()) for k in x.keys())
    if x.present.all():
        np.testing.assert_array_equal(E.to_numpy(xe), exp)
    else:
        with pytest.raises(InvalidArgumentError):
            E.to_numpy(xe)


@settings(max_examples=examples(30), **SETTINGS)
@given(data=st.data())
def test_copy_is_independent_and_isequal(engine, data):
    E = engine
    shape = draw_shape(data)
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    x = draw_ref(data, shape, dt)
    xe = to_engine(E, x)
    c = E.copy(xe)
    assert c is not xe and E.isequal(c, xe) and E.isequal(xe, to_engine(E, x))
    s = True if dt == BOOL else 4
    E.assign(c, s)                                                  # change every entry of the copy
    assert_matches(E, xe, x)
    assert E.isequal(c, xe) == bool(x.present.all() and all(x.val[k] == s for k in x.keys()))
    c2 = E.copy(xe)
    E.assign(xe, False if dt == BOOL else -3)                       # and every entry of the original
    assert_matches(E, c2, x)
    if x.keys():                                                    # one entry fewer: not equal
        y = x.copy()
        y.present[x.keys()[0]] = False
        assert not E.isequal(to_engine(E, x), to_engine(E, y))
        z = x.copy()                                                # one value changed: not equal
        k = x.keys()[0]
        z.val[k] = cast(not z.val[k] if dt == BOOL else z.val[k] + 1, dt)
        assert not E.isequal(to_engine(E, x), to_engine(E, z))


@pytest.mark.parametrize("n", [0, 1, 7])
def test_iota_full_vector_from_numpy(engine, n):
    E = engine
    i = E.iota(n)
    assert E.nvals(i) == n and E.size(i) == n
    a = E.to_numpy(i)
    assert a.dtype == I64 and a.tolist() == list(range(n))
    for value, dtype, exp_dt in [(7, None, I64), (2.5, None, F64), (True, None, BOOL), (3, np.float64, F64),
                                 (1, bool, BOOL), (-1, np.int64, I64)]:
        f = E.to_numpy(E.full(n, value, dtype))
        assert f.dtype == exp_dt and f.shape == (n,) and np.all(f == value)
    src = np.arange(n, dtype=np.float64) / 2
    v = E.vector_from_numpy(src)
    assert E.nvals(v) == n
    np.testing.assert_array_equal(E.to_numpy(v), src)
    src[:] = -1                                       # the engine holds its own copy
    np.testing.assert_array_equal(E.to_numpy(v), np.arange(n) / 2)


def test_vector_empty(engine):
    E = engine
    for dt in ANY_DTYPES:
        v = E.vector(5, dt)
        assert E.nvals(v) == 0 and E.size(v) == 5
        assert E.to_numpy(v, fill=dt.type(0)).tolist() == [0] * 5


@st.composite
def small_graphs(draw):
    n = draw(st.integers(0, 8))
    m = draw(st.integers(0, 3 * n)) if n else 0
    u = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    v = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)) if n else []
    w = draw(st.lists(st.sampled_from(FLOATS[4:]), min_size=m, max_size=m)) if draw(st.booleans()) else None
    return Graph.from_edges(np.array(u, np.int64), np.array(v, np.int64), None if w is None else np.array(w),
                            n=n, directed=draw(st.booleans()))


@settings(max_examples=examples(40), **SETTINGS)
@given(G=small_graphs())
def test_graph_matrix_and_degree(engine, G):
    E = engine
    for transpose in (False, True):
        A = E.matrix(G, transpose=transpose)
        assert E.size(A) == (G.n, G.n)
        dense = E.to_numpy(A, fill=0.0 if G.weighted else False)
        assert dense.dtype == (F64 if G.weighted else BOOL)
        exp = G.to_scipy().toarray()
        np.testing.assert_array_equal(dense.astype(float), exp.T if transpose else exp)
        assert E.matrix(G, transpose=transpose) is A or E.isequal(E.matrix(G, transpose=transpose), A)
    d = E.to_numpy(E.degree(G))
    assert d.dtype == I64
    np.testing.assert_array_equal(d, G.out_degree)
    np.testing.assert_array_equal(E.to_numpy(E.degree(G, transpose=True)), G.in_degree)


def test_hint_changes_nothing(engine):
    E = engine
    v = E.vector_from_coo([1, 3], np.array([4, 5]), 6, dtype=np.int64)
    for storage in ("dense", "sparse"):
        assert E.hint(v, storage) is v
        assert E.to_numpy(v, fill=0).tolist() == [0, 4, 0, 5, 0, 0]
    with pytest.raises(InvalidArgumentError, match="bogus"):
        E.hint(v, "bogus")
    # a matrix (the GPU engine stores small results densely; "sparse" turns one into CSR) keeps its entries
    M = E.matrix_from_coo([0, 2, 2], [1, 0, 3], np.array([1.5, 2.5, 3.5]), 3, 4, dtype=np.float64)
    P = E.mxm(M, E.matrix_from_coo([0, 1, 2, 3], [0, 1, 2, 3], True, 4, 4, dtype=bool), "plus_first")
    for storage in ("sparse", "dense", "sparse"):
        assert E.hint(P, storage) is P
        assert E.to_coo(P)[0].tolist() == [0, 2, 2] and E.to_coo(P)[2].tolist() == [1.5, 2.5, 3.5]
        assert E.to_numpy(E.mxv(P, E.full(4, 1.0), "plus_times"), fill=0).tolist() == [1.5, 0, 6.0]


# ============================================================================ the FastSV step
def fastsv_ref(A, f, gp, mngp):
    """One FastSV round from the formulas of la_graph.algorithms.connected_components (dense bool A)."""
    f, gp, mngp = f.copy(), gp.copy(), mngp.copy()
    for i in range(len(f)):
        nb = gp[A[i]]
        if nb.size:
            mngp[i] = min(mngp[i], nb.min())            # mngp = min(mngp, A min.second gp)
    parent = f.copy()
    for i in range(len(f)):
        f[parent[i]] = min(f[parent[i]], mngp[i])       # stochastic hooking
    f = np.minimum(f, mngp)                             # aggressive hooking
    f = np.minimum(f, gp)                               # shortcutting
    gp_new = f[f]
    return f, gp_new, mngp, not np.array_equal(gp_new, gp)


@pytest.mark.parametrize("how", ["algebra", "engine"])
@settings(max_examples=examples(20), **SETTINGS)
@given(G=small_graphs(), data=st.data())
def test_fastsv_round(engine, how, G, data):
    """The ``fastsv_round`` step, as its algebra of primitives and as the engine runs it (fused where it is)."""
    from la_graph.algorithms.connected_components import fastsv_round

    run = fastsv_round.algebraic if how == "algebra" else fastsv_round
    E = engine
    G = G.to_undirected()
    A = E.matrix(G)
    dense = E.to_numpy(A, fill=0.0 if G.weighted else False) != 0
    n = G.n
    if data.draw(st.booleans(), label="random forest?") and n:
        f = np.array([data.draw(st.integers(0, i), label="parent") for i in range(n)], np.int64)
    else:
        f = np.arange(n, dtype=np.int64)
    gp, mngp = f[f], f[f]
    fe, gpe, me = E.vector_from_numpy(f), E.vector_from_numpy(gp), E.vector_from_numpy(mngp)
    for _ in range(2 * n + 2):
        f, gp, mngp, changed = fastsv_ref(dense, f, gp, mngp)
        fe, gpe, changed_e = run(E, A, fe, gpe, me)
        np.testing.assert_array_equal(E.to_numpy(fe), f)
        np.testing.assert_array_equal(E.to_numpy(gpe), gp)
        np.testing.assert_array_equal(E.to_numpy(me), mngp)
        assert bool(changed_e) == changed
        if not changed:
            break
    assert not changed, "FastSV did not converge"


# ============================================================================ error paths
def _objects(E):
    u = E.vector_from_coo([0, 2], np.array([1, 2]), 3, dtype=np.int64)
    A = E.matrix_from_coo([0, 1], [1, 2], True, 3, 3, dtype=bool)
    return u, A


def test_an_operand_not_of_this_engine_is_refused_by_name(engine):
    """A numpy array, another engine's vector, or a matrix where a vector belongs: InvalidArgumentError
    naming the argument (the CPU engine used to fail with AttributeError from inside python-graphblas)."""
    E = engine
    u, A = _objects(E)
    other = la_graph.get_engine("reference" if E.name != "reference" else "cpu")
    for bad in (np.ones(3), other.vector_from_coo([0], np.array([1]), 3, dtype=np.int64)):
        calls = {"y": lambda: E.ewise_add(u, bad, "plus"), "x": lambda: E.ewise_mult(bad, u, "times"),
                 "apply": lambda: E.apply(bad, "identity"), "select": lambda: E.select(bad, "valuegt", 0),
                 "reduce": lambda: E.reduce(bad, "plus"), "mxv": lambda: E.mxv(A, bad, "plus_times"),
                 "vxm": lambda: E.vxm(bad, A, "plus_times"), "nvals": lambda: E.nvals(bad),
                 "to_numpy": lambda: E.to_numpy(bad, fill=0), "assign": lambda: E.assign(u, bad),
                 "mask": lambda: E.ewise_add(u, u, "plus", mask=bad),
                 "out": lambda: E.apply(u, "identity", out=bad)}
        for what, call in calls.items():
            with pytest.raises(InvalidArgumentError):
                call()
    with pytest.raises(InvalidArgumentError):
        E.mxv(A, A, "plus_times")                   # a matrix where the vector belongs


def test_mismatched_dimensions_are_refused(engine):
    """Operands of different lengths: InvalidArgumentError, never a result or an engine's own error."""
    E = engine
    u, A = _objects(E)
    v = E.full(4, 1, dtype=np.int64)
    for call in (lambda: E.ewise_add(u, v, "plus"), lambda: E.ewise_mult(v, u, "times"),
                 lambda: E.mxv(A, v, "plus_times"), lambda: E.vxm(v, A, "plus_times"), lambda: E.assign(u, v),
                 lambda: E.apply(u, "identity", out=v), lambda: E.select(u, "valuegt", 0, mask=v),
                 lambda: E.reduce_rows(A, "plus", out=v)):
        with pytest.raises(InvalidArgumentError):
            call()


@pytest.mark.parametrize("name", ["nosuch_second", "min_nosuch", "minsecond", "plus_bogus_times"])
def test_unknown_semiring(engine, name):
    u, A = _objects(engine)
    for call in (lambda: engine.mxv(A, u, name), lambda: engine.vxm(u, A, name), lambda: engine.mxm(A, A, name)):
        with pytest.raises(InvalidArgumentError, match=re.escape(name)):
            call()


def test_unknown_binary_op(engine):
    E = engine
    u, A = _objects(E)
    calls = [
        lambda: E.ewise_add(u, u, "bogus_op"), lambda: E.ewise_mult(A, A, "bogus_op"),
        lambda: E.apply(u, "bogus_op", right=1),
        lambda: E.mxv(A, u, "min_second", out=E.copy(u), accum="bogus_op"),
        lambda: E.assign(E.copy(u), u, accum="bogus_op"),
        lambda: E.scatter(E.iota(3), np.array([0, 1]), np.array([1, 1]), dup="bogus_op", accum="min"),
        lambda: E.scatter(E.iota(3), np.array([0, 1]), np.array([1, 1]), dup="min", accum="bogus_op"),
        lambda: E.vector_from_coo([0, 0], np.array([1, 2]), 3, dup="bogus_op"),
        lambda: E.vector_from_coo([0, 0], 1, 3, dup="bogus_op"),
        lambda: E.matrix_from_coo([0, 0], [1, 1], np.array([1, 2]), 3, 3, dup="bogus_op"),
    ]
    for call in calls:
        with pytest.raises(InvalidArgumentError, match="bogus_op"):
            call()


def test_unknown_unary_select_monoid(engine):
    E = engine
    u, A = _objects(E)
    for name, call in [("bogus_unary", lambda: E.apply(u, "bogus_unary")),
                       ("plus", lambda: E.apply(u, "plus")),             # a binary op needs right=
                       ("bogus_select", lambda: E.select(A, "bogus_select")),
                       ("bogus_monoid", lambda: E.reduce(u, "bogus_monoid")),
                       ("minus", lambda: E.reduce(A, "minus")),          # a binary op, not a monoid
                       ("bogus_monoid", lambda: E.reduce_rows(A, "bogus_monoid"))]:
        with pytest.raises(InvalidArgumentError, match=re.escape(name)):
            call()


def _all_producers(E):
    u, A = _objects(E)
    idx = np.array([0, 0, 2])
    full = E.iota(3)
    return {
        "mxv": lambda **kw: E.mxv(A, u, "min_second", **kw),
        "vxm": lambda **kw: E.vxm(u, A, "min_second", **kw),
        "mxm": lambda **kw: E.mxm(A, A, "any_pair", **kw),
        "ewise_add": lambda **kw: E.ewise_add(u, u, "plus", **kw),
        "ewise_mult": lambda **kw: E.ewise_mult(A, A, "land", **kw),
        "apply": lambda **kw: E.apply(u, "ainv", **kw),
        "apply_right": lambda **kw: E.apply(u, "plus", right=1, **kw),
        "select": lambda **kw: E.select(A, "tril", **kw),
        "reduce_rows": lambda **kw: E.reduce_rows(A, "lor", **kw),
        "extract": lambda **kw: E.extract(u, idx, **kw),
        "extract_full": lambda **kw: E.extract(full, idx, **kw),
    }


PRODUCERS = ["mxv", "vxm", "mxm", "ewise_add", "ewise_mult", "apply", "apply_right", "select",
             "reduce_rows", "extract", "extract_full"]


@pytest.mark.parametrize("op", PRODUCERS)
def test_accum_needs_out(engine, op):
    with pytest.raises(InvalidArgumentError, match="out"):
        _all_producers(engine)[op](accum="min")


@pytest.mark.parametrize("op", PRODUCERS + ["assign"])
def test_complement_needs_mask(engine, op):
    E = engine
    call = (lambda **kw: E.assign(E.iota(3), 1, **kw)) if op == "assign" else _all_producers(E)[op]
    with pytest.raises(InvalidArgumentError, match="mask"):
        call(complement=True)


def test_to_numpy_needs_fill_on_sparse(engine):
    E = engine
    u, A = _objects(E)
    for x in (u, A, E.vector(2, np.float64)):
        with pytest.raises(InvalidArgumentError, match="fill"):
            E.to_numpy(x)



def test_to_numpy_of_a_full_vector_held_as_a_bitmap_needs_no_fill():
    """CPU engine: fused steps hand vectors back as bitmaps, full ones included."""
    E = la_graph.get_engine("cpu")
    v = E.full(7, 3, np.int64)
    v.ss.config["sparsity_control"] = "bitmap"
    assert v.ss.format == "bitmap"
    np.testing.assert_array_equal(E.to_numpy(v), np.full(7, 3))


def test_reference_engine_is_primitives_only():
    """The reference engine fuses no step: every algorithm runs on it as algebra."""
    E = la_graph.get_engine("reference")
    assert E.name == "reference" and dict(E.fused_steps) == {} and E.id_dtype(10) == I64


@pytest.mark.parametrize("value, ok", [("1", True), ("0", False), ("two", False)])
def test_cpu_threads_from_the_environment(value, ok):
    """LA_GRAPH_NUM_THREADS sets SuiteSparse's and numba's threads; a bad value names the variable."""
    import subprocess
    import sys

    code = ("import la_graph as lg, graphblas, numba; lg.get_engine('cpu'); "
            "print(graphblas.ss.config['nthreads'], numba.get_num_threads())")
    env = dict(__import__("os").environ, LA_GRAPH_NUM_THREADS=value)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    if ok:
        assert out.returncode == 0 and out.stdout.split() == ["1", "1"], out.stderr
    else:
        assert out.returncode != 0 and "LA_GRAPH_NUM_THREADS must be a positive integer" in out.stderr


@settings(max_examples=examples(20), **SETTINGS)
@given(data=st.data())
def test_to_numpy_consume_gives_the_same_array(engine, data):
    """consume=True may hand over the storage instead of copying: the same values either way."""
    E = engine
    n = data.draw(st.integers(1, 9), label="n")
    dt = data.draw(st.sampled_from(ANY_DTYPES), label="dtype")
    r = draw_ref(data, (n,), dt)
    fill = {BOOL: False, I64: -1, F64: np.inf}[np.dtype(dt)]
    expected = E.to_numpy(to_engine(E, r), fill=fill)
    got = E.to_numpy(to_engine(E, r), fill=fill, consume=True)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    assert np.asarray(got).dtype == np.asarray(expected).dtype


def test_value_masked_products_that_crashed_suitesparse(engine):
    """SuiteSparse 9.4.5 segfaulted on ``out<m> += u plus.pair A`` with a full bool value mask and a sparse
    ``out`` (n = 512), and hung on a value-masked vxm of R-MAT 12: the CPU engine takes the mask's true
    entries as a structural mask instead.  Both must give the answer of the definition."""
    E = engine
    n = 512
    A = E.matrix_from_coo([326], [73], True, n, n, dtype=bool)
    m = E.vector_from_numpy(np.arange(n) % 3 != 0)
    u = E.vector_from_coo([326], np.array([1]), n, dtype=np.int64)
    for product in (lambda **kw: E.vxm(u, A, "plus_pair", **kw),
                    lambda **kw: E.mxv(E.matrix_from_coo([73], [326], True, n, n, dtype=bool), u, "plus_pair", **kw)):
        out = E.vector_from_coo([1, 2], np.array([1, 40]), n, dtype=np.int64)
        product(out=out, mask=m, accum="plus")
        got = E.to_numpy(out, fill=0)
        want = np.zeros(n, np.int64)
        want[[1, 2]] = [1, 40]
        want[73] += 1                                  # 73 % 3 != 0: allowed
        assert got.tolist() == want.tolist()
    G = la_graph.generators.rmat(12, 16, seed=1)
    A = E.matrix(G)
    rng = np.random.default_rng(0)
    iu = np.sort(rng.choice(G.n, 14, replace=False))
    mask_true = rng.random(G.n) < 0.016
    alive = E.vector_from_numpy(mask_true)
    w = E.vxm(E.vector_from_coo(iu, np.ones(14, np.int64), G.n, dtype=np.int64), A, "plus_pair", mask=alive)
    S = G.to_scipy()
    counts = np.asarray((S[iu] != 0).sum(axis=0)).ravel()
    idx, vals = (np.asarray(a) for a in E.to_coo(w))
    expect = np.flatnonzero((counts > 0) & mask_true)
    assert idx.tolist() == expect.tolist() and vals.tolist() == counts[expect].tolist()


# ============================================================================ products of larger matrices
# Rows of every length the GPU engine's row-wise kernel sorts into its bins: empty, 1 to 4 entries (a
# thread), ... 33 to 64 (16 lanes), a warp's, and longer than its long-row limit (2048, cut into pieces of
# 1024); m != n.  Values are small integers and halves, so every float sum is exact in any order.
PRODUCT_ROW_LENGTHS = (0, 0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 100, 129)
PRODUCT_LONG_ROWS = (2047, 2048, 2049, 3100, 5200)
PRODUCT_DTYPES = ((BOOL, F64), (F64, F64), (I64, I64), (F64, BOOL), (BOOL, BOOL))


def product_values(rng, dtype, k):
    dtype = np.dtype(dtype)
    if dtype == BOOL:
        return rng.random(k) < 0.8
    if dtype == I64:
        return rng.integers(-3, 6, k).astype(np.int64)
    return rng.choice(FLOATS, k)


def product_entries(rng, m, n, long_rows=PRODUCT_LONG_ROWS, lengths=PRODUCT_ROW_LENGTHS):
    """(rows, cols) of an m x n pattern with rows of every length class (and the long rows that fit)."""
    rows_len = rng.choice(lengths, m)
    longs = [L for L in long_rows if L <= n][:m]
    rows_len[rng.choice(m, len(longs), replace=False)] = longs
    rows = np.repeat(np.arange(m, dtype=np.int64), rows_len)
    cols = np.concatenate([np.sort(rng.choice(n, L, replace=False)) for L in rows_len if L] or [np.zeros(0, int)])
    return rows, cols.astype(np.int64)


def product_operands(Es, kind, adt, udt, seed, m=600, n=5200):
    """The same matrix and vectors on each engine of ``Es``: ``(A, u_full, u_sparse)`` per engine.

    mxv: A is m x n with long rows; vxm: A is n x m with long columns (long rows of its transpose).
    """
    rng = np.random.default_rng(seed)
    rows, cols = product_entries(rng, m, n)
    if kind == "vxm":
        rows, cols = cols, rows
    shape = (m, n) if kind == "mxv" else (n, m)
    vals = product_values(rng, adt, rows.size)
    k = shape[1] if kind == "mxv" else shape[0]
    uvals = product_values(rng, udt, k)
    keep = np.flatnonzero(rng.random(k) < 0.7)
    out = []
    for E in Es:
        A = E.matrix_from_coo(rows, cols, vals, *shape, dtype=adt)
        out.append((A, E.vector_from_numpy(uvals), E.vector_from_coo(keep, uvals[keep], k, dtype=udt)))
    return out, shape


def run_product(E, kind, A, u, semiring, **kw):
    return E.mxv(A, u, semiring, **kw) if kind == "mxv" else E.vxm(u, A, semiring, **kw)


def check_product_variants(E, R, kind, semiring, ops_e, ops_r, shape, seed):
    """The product of ``E`` against the reference engine ``R``: plain, masked into a new vector, and
    accumulated into a given (full, or sparse under a mask) output; an ``any`` monoid's value must lie
    between the min and the max monoid's."""
    add, mult = semiring.split("_", 1)
    rng = np.random.default_rng(seed)
    size = shape[0] if kind == "mxv" else shape[1]
    mvals = rng.integers(0, 3, size)
    variants = []
    for ui in (1, 2):                                         # full u, sparse u
        variants.append((ui, {}))
        variants.append((ui, dict(mask="value", complement=bool(ui == 2), structural=False)))
        if add != "any":
            variants.append((ui, dict(out="full", accum=str(rng.choice(["plus", "min", "second", "times"])))))
            variants.append((ui, dict(out="sparse", accum="plus", mask="value", replace=bool(ui == 1))))
    for ui, spec in variants:
        objs = []
        for Eng, ops in ((E, ops_e), (R, ops_r)):
            kw = dict(spec)
            if kw.get("mask") == "value":
                kw["mask"] = Eng.vector_from_numpy(mvals)
            T = run_product(R, kind, ops_r[0], ops_r[ui], semiring) if kw.get("out") else None
            if kw.get("out") == "full":
                zdt = np.dtype(R.to_numpy(T, fill=0).dtype)
                kw["out"] = Eng.vector_from_numpy(((np.arange(size) % 5) - 1).astype(zdt))
            elif kw.get("out") == "sparse":
                zdt = np.dtype(R.to_numpy(T, fill=0).dtype)
                idx = np.flatnonzero(np.arange(size) % 3 == 1)
                kw["out"] = Eng.vector_from_coo(idx, np.ones(idx.size, zdt), size, dtype=zdt)
            objs.append(run_product(Eng, kind, ops[0], ops[ui], semiring, **kw))
        got, want = objs
        label = f"{kind} {semiring} u={'full' if ui == 1 else 'sparse'} {spec}"
        if add != "any":
            try:
                assert_matches(E, got, to_ref(R, want))
            except AssertionError as exc:
                raise AssertionError(f"{label}: {exc}") from None
            continue
        g, w = to_ref(E, got), to_ref(R, want)
        np.testing.assert_array_equal(g.present, w.present, err_msg=label)
        kw = {"mask": R.vector_from_numpy(mvals), "complement": bool(ui == 2)} if spec else {}
        lo, hi = (to_ref(R, run_product(R, kind, ops_r[0], ops_r[ui], f"{m}_{mult}", **kw)) for m in ("min", "max"))
        for key in w.keys():
            assert lo.val[key] <= g.val[key] <= hi.val[key], (label, key, g.val[key])


@pytest.mark.parametrize("semiring", SEMIRINGS)
@pytest.mark.parametrize("kind", ["mxv", "vxm"])
def test_products_on_rows_of_every_length(engine, kind, semiring):
    """mxv / vxm of non-square matrices with empty, short, warp-long and very long rows (or, for vxm,
    columns), every semiring on several operand dtypes, full and sparse vectors, value masks, and
    accumulation into full and sparse outputs: the reference engine's answers."""
    R = la_graph.get_engine("reference")
    for k, (adt, udt) in enumerate(PRODUCT_DTYPES):
        seed = 1000 * k + SEMIRINGS.index(semiring)
        (ops_e, ops_r), shape = product_operands((engine, R), kind, adt, udt, seed)
        check_product_variants(engine, R, kind, semiring, ops_e, ops_r, shape, seed)
