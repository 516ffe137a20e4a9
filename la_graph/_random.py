"""Counter-based random vertex priorities, identical on every engine and platform.

``splitmix64`` (Steele, Lea & Flood 2014) of ``(seed, vertex id)`` in ``uint64``
arithmetic (which wraps modulo 2**64, as the C reference does), and
:func:`mix63`, the same finalizer modulo 2**63, whose values are non-negative
int64 priorities.  Both are written for any array module with NumPy's integer
semantics (``xp``): NumPy on the host, CuPy on the device (the GPU engine's
``vertex_priorities`` step), with the same bits.
"""

from __future__ import annotations

import numbers

import numpy as np

from .exceptions import InvalidArgumentError

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def splitmix64(x):
    """The splitmix64 finalizer of ``x + golden`` (a numpy or CuPy uint64 array), elementwise."""
    with np.errstate(over="ignore"):
        z = (x.astype(np.uint64, copy=False) if hasattr(x, "__cuda_array_interface__")
             else np.asarray(x, dtype=np.uint64)) + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


_MASK63 = np.uint64((1 << 63) - 1)


def mix63(x, xp=np):
    """splitmix64's finalizer modulo 2**63: a bijection of ``0 .. 2**63 - 1`` (uint64 array of ``xp``).

    Every stage is one-to-one modulo 2**63 -- adding a constant, ``z ^ (z >> k)``,
    multiplying by an odd constant -- so distinct inputs give distinct outputs.
    """
    with np.errstate(over="ignore"):
        z = (xp.asarray(x, dtype=np.uint64) + _GOLDEN) & _MASK63
        z = ((z ^ (z >> np.uint64(30))) * _M1) & _MASK63
        z = ((z ^ (z >> np.uint64(27))) * _M2) & _MASK63
        return z ^ (z >> np.uint64(31))


def vertex_priorities(n, seed, xp=np):
    """Distinct non-negative int64 priorities of the vertices ``0..n-1``: ``mix63(id ^ key(seed))``.

    ``key(seed)`` is splitmix64 of the seed cut to 63 bits, so ``id ^ key`` is
    one-to-one on vertex ids and :func:`mix63` keeps it so: no two vertices tie,
    and ranking them needs no sort.
    """
    return mix63(xp.arange(n, dtype=np.uint64) ^ np.uint64(priority_key(seed)), xp).view(np.int64)


def priority_key(seed):
    """``key(seed)`` of :func:`vertex_priorities`: splitmix64 of the seed cut to 63 bits (an int)."""
    return int(splitmix64(np.uint64(seed))) & int(_MASK63)


def check_seed(seed):
    """Return ``seed`` as a Python int if it is an integer in ``0 .. 2**64 - 1``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (numbers.Integral, np.integer)):
        raise InvalidArgumentError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError(f"seed must be in 0..2**64-1, got {seed}")
    return seed


def vertex_ranks(n, seed):
    """A permutation of ``0..n-1``: the rank of each vertex's hash, int64.

    The hashes never tie: ``id ^ splitmix64(seed)`` is one-to-one and so is
    splitmix64 (a bijection of 64-bit words), so the order is total.
    """
    h = splitmix64(np.arange(n, dtype=np.uint64) ^ splitmix64(np.uint64(seed)))
    order = np.argsort(h)
    ranks = np.empty(n, dtype=np.int64)
    ranks[order] = np.arange(n, dtype=np.int64)
    return ranks


def sample_sources(n, k, seed=None):
    """``k`` distinct vertices of ``0..n-1`` drawn with ``seed``, sorted (int64).

    numpy's ``default_rng(seed).choice(n, k, replace=False)``: the sample
    depends on ``seed`` only, so every engine -- and a checker redrawing the
    sample of a call it verifies -- gets the same vertices.  Betweenness
    centrality's ``k`` sampled sources (also
    ``la_graph.algorithms.betweenness.sample_sources``).

    Examples
    --------
    >>> from la_graph._random import sample_sources
    >>> sample_sources(10, 3, seed=1).tolist()
    [3, 4, 7]
    """
    seed = None if seed is None else check_seed(seed)
    return np.sort(np.random.default_rng(seed).choice(n, k, replace=False)).astype(np.int64)
