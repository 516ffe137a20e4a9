"""Compiled loop of the CPU engine's connected-components step (numba).

:func:`fastsv_hook` is the part of the step ``fastsv_round`` (written in
primitives in ``la_graph/algorithms/connected_components.py``) after its
``mngp`` product (in primitives a scatter, two element-wise minimums, a gather
and a comparison).
"""

from __future__ import annotations

import numba


@numba.njit(cache=True, nogil=True)
def fastsv_hook(f, gp, mngp):
    """FastSV's hooking, shortcutting and grandparent update, in place; returns whether ``gp`` changed.

    Stochastic hooking ``f[f[i]] = min(f[f[i]], mngp[i])`` (indices from ``f``
    as it was before the round), aggressive hooking ``f = min(f, mngp)``,
    shortcutting ``f = min(f, gp)``, then ``gp = f[f]``.
    """
    n = f.size
    before = f.copy()
    for i in range(n):
        p = before[i]
        if mngp[i] < f[p]:
            f[p] = mngp[i]
    for i in range(n):
        m = mngp[i] if mngp[i] < gp[i] else gp[i]
        if m < f[i]:
            f[i] = m
    changed = False
    for i in range(n):
        g = f[f[i]]
        if g != gp[i]:
            changed = True
            gp[i] = g
    return changed
