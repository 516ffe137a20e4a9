"""GraphBLAS ops on the GPU engine's device arrays: binary and unary ops, monoid
identities, typecasts, and the plans by which a semiring runs in the CUDA kernels.

The op and monoid codes are shared with ``cuda/common.cuh`` (its ``OP_*`` and
``M_*`` enums).  Everything here works on CuPy or numpy arrays alike.
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from ...exceptions import InvalidArgumentError
from ..base import BINARY_OPS, BOOL_SEMIRINGS, MONOIDS
from .objects import _BOOL, _F64, _I64

# codes shared with cuda/common.cuh
_OPCODES = {"first": 0, "second": 1, "pair": 2, "min": 3, "max": 4, "plus": 5, "minus": 6, "times": 7,
            "div": 8, "eq": 9, "ne": 10, "lt": 11, "le": 12, "gt": 13, "ge": 14, "lor": 15, "land": 16,
            "firsti": 17, "firstj": 18, "secondi": 19, "secondj": 20, "any": 0}
_OP_TO_BOOL = 0x100
_MONOID_CODES = {"min": 0, "max": 1, "plus": 2, "times": 3, "any": 4}
_FOLD = {"min": "min", "max": "max", "plus": "plus", "times": "times", "any": "first", "lor": "lor", "land": "land"}

_POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
_MULTS = frozenset(BINARY_OPS) | frozenset(_POSITIONAL)
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
            "ge": "greater_equal"}
# bool semantics of the arithmetic ops (GraphBLAS: plus = lor, minus = lxor, times = land)
_BOOL_OP = {"plus": "lor", "minus": "ne", "times": "land", "div": "first"}
# monoids on bool values computed as 0/1 integers
_BOOL_MONOID = {"plus": "max", "times": "min", "lor": "max", "land": "min", "min": "min", "max": "max",
                "any": "any"}


# ---------------------------------------------------------------- values
def _compute_type(dtype):
    """The type a kernel computes ``dtype`` values in: double for floats, long long otherwise."""
    return _F64 if np.dtype(dtype).kind == "f" else _I64


def _cast(a, dtype):
    """GraphBLAS typecast of an array (numpy or CuPy): to bool is ``!= 0``."""
    dtype = np.dtype(dtype)
    if a.dtype == dtype:
        return a
    if dtype == _BOOL:
        return a != 0
    return a.astype(dtype)


def _scalar(value, dtype):
    """A Python/numpy scalar typecast to ``dtype`` (a numpy scalar)."""
    dtype = np.dtype(dtype)
    v = np.asarray(value)
    if v.ndim != 0:
        raise InvalidArgumentError(f"expected a scalar, got an array of shape {v.shape}")
    if dtype == _BOOL:
        return np.bool_(v != 0)
    with np.errstate(all="ignore"):
        return v.astype(dtype)[()]


def _int_limits(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def _binop(op, a, b, D):
    """Binary op ``op`` on arrays ``a``, ``b`` of dtype ``D`` (already cast): dtype bool for
    comparisons, else ``D``."""
    xp = cp.get_array_module(a) if hasattr(cp, "get_array_module") else cp
    D = np.dtype(D)
    if D == _BOOL:
        op = _BOOL_OP.get(op, op)
    if op in ("first", "any"):
        return a
    if op == "second":
        return b
    if op == "pair":
        return xp.ones(a.shape, D)
    if op in _COMPARE:
        return getattr(xp, _COMPARE[op])(a, b)
    if op == "min":
        return xp.where(b < a, b, a)
    if op == "max":
        return xp.where(b > a, b, a)
    if op in ("lor", "land"):
        r = ((a != 0) | (b != 0)) if op == "lor" else ((a != 0) & (b != 0))
        return r if D == _BOOL else r.astype(D)
    with np.errstate(all="ignore"):
        if op == "plus":
            return a + b
        if op == "minus":
            return a - b
        if op == "times":
            return a * b
        if op == "div":
            if D.kind == "f":
                return a / b
            lo, hi = _int_limits(D)
            zero = b == 0
            bs = xp.where(zero, xp.ones((), D), b)
            q = a // bs                                   # floor; make it C's truncation
            q = q + ((a % bs != 0) & ((a < 0) != (bs < 0))).astype(D)
            q = xp.where(bs == -1, (xp.zeros((), D) - a).astype(D), q)
            over = xp.where(a == 0, xp.zeros((), D), xp.where(a > 0, xp.full((), hi, D), xp.full((), lo, D)))
            return xp.where(zero, over, q).astype(D)
    raise InvalidArgumentError(f"unknown binary op {op!r}; known: {', '.join(BINARY_OPS)}")


def _unary(op, a, D):
    xp = cp.get_array_module(a) if hasattr(cp, "get_array_module") else cp
    D = np.dtype(D)
    if op == "identity":
        return a
    if op == "one":
        return xp.ones(a.shape, D)
    if op == "lnot":
        return _cast(a == 0, D)
    if D == _BOOL:
        return xp.ones(a.shape, D) if op == "minv" else a    # ainv, abs of bool: itself; minv: true
    with np.errstate(all="ignore"):
        if op == "ainv":
            return (xp.zeros((), D) - a).astype(D)
        if op == "abs":
            return xp.abs(a).astype(D)
        if op == "minv":
            if D.kind == "f":
                return (1 / a).astype(D)
            _, hi = _int_limits(D)
            return xp.where(a == 0, xp.full((), hi, D),
                            xp.where(a == 1, xp.ones((), D), xp.where(a == -1, -xp.ones((), D), xp.zeros((), D))))
    raise InvalidArgumentError(f"unknown unary op {op!r}")


def _check_op(op, known, kind):
    if not isinstance(op, str) or op not in known:
        extra = " (a binary op needs right=)" if kind == "unary op" and op in BINARY_OPS else ""
        raise InvalidArgumentError(f"unknown {kind} {op!r}{extra}; known: {', '.join(known)}")
    return op


def _identity_python(monoid, dtype):
    """The monoid's identity as a Python scalar of ``dtype``'s kind."""
    dtype = np.dtype(dtype)
    if dtype == _BOOL:
        return {"min": True, "max": False, "plus": False, "times": True, "lor": False, "land": True,
                "any": False}[monoid]
    if dtype.kind == "f":
        return {"min": float("inf"), "max": float("-inf"), "plus": 0.0, "times": 1.0, "any": 0.0}[monoid]
    lo, hi = _int_limits(dtype)
    return {"min": int(hi), "max": int(lo), "plus": 0, "times": 1, "any": 0}[monoid]


def _identity_c(mon, C):
    """Identity of kernel monoid ``mon`` in compute type ``C`` (numpy scalar)."""
    C = np.dtype(C)
    if mon == "min":
        return C.type(np.inf) if C.kind == "f" else C.type(np.iinfo(C).max)
    if mon == "max":
        return C.type(-np.inf) if C.kind == "f" else C.type(np.iinfo(C).min)
    return C.type(1) if mon == "times" else C.type(0)


# ---------------------------------------------------------------- semiring plans
def _parse_semiring(name):
    if not isinstance(name, str) or "_" not in name:
        raise InvalidArgumentError(f"semiring must be a name like 'min_second', got {name!r}")
    add, mult = name.split("_", 1)
    if add not in MONOIDS or mult not in _MULTS:
        raise InvalidArgumentError(
            f"unknown semiring {name!r}: it must be <monoid>_<op> with a monoid of {', '.join(MONOIDS)} "
            f"and an op of {', '.join(sorted(_MULTS))}")
    return add, mult


class _Plan:
    """How a semiring runs on operands of dtypes (left, right): D its type, Z the
    result's dtype, C the kernels' compute type, the kernel monoid and op code."""

    __slots__ = ("name", "D", "Z", "C", "mon", "op", "opcode", "to_bool", "need_a", "need_b")

    def __init__(self, name, left, right):
        add, mult = _parse_semiring(name)
        left, right = np.dtype(left), np.dtype(right)
        if mult in _POSITIONAL:
            D = _I64
        elif add in ("lor", "land"):
            D = _BOOL
        elif mult == "first":
            D = left
        elif mult == "second":
            D = right
        elif mult == "pair":
            D = _I64 if add == "plus" else left
        else:
            D = np.result_type(left, right)
        if D == _BOOL and add not in ("lor", "land") and mult not in BOOL_SEMIRINGS.get(add, ()):
            D = _I64                             # arithmetic on booleans counts, as GraphBLAS has no bool op
        self.name, self.D = name, np.dtype(D)
        self.Z = _BOOL if add in ("lor", "land") else self.D
        self.C = _compute_type(self.D)
        op, mon, to_bool = mult, add, False
        if self.D == _BOOL:
            op, mon = _BOOL_OP.get(op, op), _BOOL_MONOID[add]
        elif add in ("lor", "land"):             # only positional ops reach here: products become 0/1
            to_bool, mon = True, ("max" if add == "lor" else "min")
        if op == "any":
            op = "first"
        self.op, self.mon, self.to_bool = op, mon, to_bool
        self.opcode = _OPCODES[op] | (_OP_TO_BOOL if to_bool else 0)
        self.need_a = op not in ("second", "pair") + _POSITIONAL
        self.need_b = op not in ("first", "pair") + _POSITIONAL

    def operand(self, a):
        """Operand values (any dtype) cast to D, then to the compute type."""
        return _cast(_cast(a, self.D), self.C)

    def iso(self):
        """The compute-type value of an iso ``True`` operand."""
        return self.C.type(1)

    def mult_arrays(self, a, b, fi, fj, si, sj):
        """The multiply op elementwise in Python (the sparse mxm path); mirrors la_mult."""
        if self.op in _POSITIONAL:
            z = {"firsti": fi, "firstj": fj, "secondi": si, "secondj": sj}[self.op].astype(self.C)
        else:
            z = _cast(_binop(self.op, a, b, self.C), self.C)
        if self.to_bool:
            z = (z != 0).astype(self.C)
        return z


def _fold_code(op, dtype):
    """segfold op code of binary op / monoid ``op`` on values of ``dtype``."""
    op = _FOLD.get(op, op) if op in MONOIDS else op
    if np.dtype(dtype) == _BOOL:
        op = _BOOL_OP.get(op, op)
    if op == "any":
        op = "first"
    return _OPCODES[op]

