"""Strongly connected components (la_graph/algorithms/scc.py): ``scc_trim``, ``scc_fwbw``, ``scc_color``
and ``scc_labels``, each one launch of the persistent kernel scc_grid (cuda/scc.cu).
"""

from __future__ import annotations

import cupy as cp
import numpy as np

from .... import _random
from ....exceptions import InvalidArgumentError, LaGraphError
from ...base import Declined
from ..kernels import _kernel, _next_pow2
from ..memory import _reserve, _wait
from ..objects import _I64, GVec
from ._common import fuses, log

# Every SCC step is one launch of the persistent kernel scc_grid, its `phases` picking the
# parts the step does; phase bits and st slots as in cuda/scc.cu.
_SCC_TRIM, _SCC_CONTRACT, _SCC_QTRIM, _SCC_PIVOT, _SCC_FWBW, _SCC_COLOR = 1, 2, 4, 8, 16, 32
_SCC_ST = {"trimmed": 7, "labelled": 8, "left": 9, "pivot": 11, "error": 13, "rounds": 14, "sweeps": 15,
           "qtrimmed": 16, "fwbw": 17, "levels": 18, "colored": 19}
_SCC_SLOTS, _SCC_W_SLOTS, _SCC_BLOCK, _SCC_W_REP = 24, 8, 1024, 3
_SCC_ST_PIVOT, _SCC_ST_SMALL = 11, 12


def _scc_graph(E, G):
    """``(indptr, indices, tptr, tind, heavy, nheavy, gs, chunk)`` of ``G`` for scc_grid (cached on the graph).

    A group of ``gs`` lanes (four edges a lane at a time) takes a unit: a chunk of at
    most ``chunk`` edges of a vertex's rows.  ``heavy`` lists ``c << 32 | v`` for the
    chunks ``c >= 1`` of every vertex whose longer row has more than ``chunk`` edges.
    """
    key = E._graph_key("scc")
    c = G._engine_cache.get(key)
    if c is None:
        indptr, indices, _ = E._csr(E.matrix(G))
        tptr, tind, _ = E._csr(E.matrix(G, transpose=True))
        if indices.dtype != tind.dtype:
            raise Declined("the scc kernel takes a graph and its transpose of one index width")
        n = G.n
        gs = _next_pow2(indices.size / max(n, 1) / 4)
        chunk = 16 * gs
        d = cp.maximum(indptr[1:] - indptr[:-1], tptr[1:] - tptr[:-1]).astype(_I64)
        more = cp.maximum((d + chunk - 1) // chunk - 1, 0)          # chunks after the first
        nheavy = int(more.sum())                                     # one wait, once per graph
        heavy = cp.zeros(1, _I64)
        if nheavy:
            ends = cp.cumsum(more)
            i = cp.arange(nheavy, dtype=_I64)
            v = cp.searchsorted(ends, i, side="right").astype(_I64)
            heavy = ((i - (ends[v] - more[v]) + 1) << 32) | v
        c = G._engine_cache[key] = (indptr, indices, tptr, tind, heavy, nheavy, gs, chunk)
    return c


def _scc_reps(rep, done):
    """What is wrong with the kernel's ``rep`` (after a launch that ran the contraction) against ``done``.

    Every unlabelled vertex must point at an unlabelled rep (a vertex that points at
    itself); a labelled one at -1.  Returns a short text: the counts of unlabelled
    vertices, of those whose rep is -1, is labelled or is no rep, and of labelled ones
    with a rep (one wait).
    """
    live = ~done
    r = cp.where((rep >= 0) & (rep < rep.size), rep, 0)
    orphan = live & (rep >= 0) & (rep[r] != rep)
    k = [int(x) for x in cp.asnumpy(cp.stack([live.sum(), (live & (rep < 0)).sum(), (orphan & done[r]).sum(),
                                               (orphan & ~done[r]).sum(), (done & (rep >= 0)).sum()]))]
    return (f"{k[0]} unlabelled, of them {k[1]} with rep -1, {k[2]} with a labelled rep, {k[3]} with a rep that is "
            f"no rep; {k[4]} labelled with a rep")


def _scc_run(E, G, labels, phases, *, pivot=-1, seed=0, max_levels=2**30, keep=None):
    """One scc_grid launch over ``labels`` (which take its fresh arrays); returns its st counters (one wait).

    Declined where the kernel cannot take ``labels``; None (nothing launched) when every
    vertex is labelled already.  ``keep``: a dict that receives ``phases`` (as run),
    ``blocks``, the counters and ``rep`` (the kernel's reps, meaningful after the
    contraction ran), before an error is raised (a caller diagnosing a failed launch reads them).
    """
    if not isinstance(labels, GVec) or labels.dtype != _I64 or labels.size != G.n:
        raise Declined("the scc kernel takes labels as an int64 gpu-engine vector of n entries")
    n = G.n
    if n >= 2**31:
        raise Declined("the scc kernel numbers vertices in int32")
    if labels.pres is None or n == 0:
        return None                                                  # every vertex is labelled
    indptr, indices, tptr, tind, heavy, nheavy, gs, chunk = _scc_graph(E, G)
    if E.SCC_CONTRACT_EDGES < 0 or (indices.size > E.SCC_CONTRACT_EDGES and indices.size >= E.SCC_CONTRACT_DEGREE * n):
        phases &= ~(_SCC_CONTRACT | _SCC_QTRIM)                      # big and dense: not worth an edge pass
    _reserve((4 * _SCC_W_SLOTS + 25) * n + 8 * nheavy + 1024, "the strongly connected components' state")
    # fresh arrays: the engine never writes into arrays a vector holds (copies share them)
    done, lab = labels.pres.copy(), labels.val.copy()
    W = cp.empty(_SCC_W_SLOTS * n, cp.int32)
    W[:3 * n] = 0                                                    # in-, out-degrees, trim marks
    col = cp.empty(n, _I64)
    queue = cp.empty(n + nheavy if phases & _SCC_TRIM else 1, _I64)
    init = np.zeros(_SCC_SLOTS, np.int64)
    init[_SCC_ST_PIVOT] = pivot if pivot >= 0 else np.iinfo(np.int64).max
    init[_SCC_ST_SMALL] = np.iinfo(np.int64).max
    st = cp.asarray(init)
    bar = cp.zeros(2, cp.uint32)
    # SCC_UNITS_PER_GROUP units a group; one block a multiprocessor at most (all resident: grid barriers)
    blocks = max(1, min(E._sms, -(-(n + nheavy) * gs // (E.SCC_UNITS_PER_GROUP * _SCC_BLOCK))))
    _kernel("scc.cu", "scc_grid", indices.dtype)(
        (blocks,), (_SCC_BLOCK,),
        (indptr, indices, tptr, tind, heavy, np.int64(nheavy), done, lab, W, col, queue, st, bar, np.int64(n),
         np.int32(phases), np.int32(gs), np.int32(chunk), np.uint64(_random.priority_key(seed)),
         np.int32(min(max_levels, 2**30))))
    labels.val, labels.pres = lab, done
    _wait()                                                          # Ctrl-C can interrupt the wait; a read cannot
    s = cp.asnumpy(st)
    counts = {k: int(s[i]) for k, i in _SCC_ST.items()}
    log.debug("scc_grid phases %d on %d blocks: %s", phases, blocks, counts)
    if keep is not None:
        keep.update(phases=phases, blocks=blocks, counts=counts, rep=W[_SCC_W_REP * n:(_SCC_W_REP + 1) * n])
    if counts["error"]:
        why = "a coloring round labelled nothing" if counts["error"] == 1 else "a propagation found no fixed point"
        reps = _scc_reps(W[_SCC_W_REP * n:(_SCC_W_REP + 1) * n], done) if phases & ~_SCC_TRIM else ""
        raise LaGraphError(f"the scc kernel stopped: {why} (a bug in cuda/scc.cu); phases {phases}, {blocks} blocks, "
                           f"gs {gs}, chunk {chunk}, counters {counts}; {reps}")
    return counts


@fuses
def scc_trim(E, G, labels):
    counts = _scc_run(E, G, labels, _SCC_TRIM)
    return 0 if counts is None else counts["trimmed"]


@fuses
def scc_fwbw(E, G, pivot, labels):
    # the pivot's SCC by reach over mutual-edge components (one launch); the pivot is unlabelled
    if not 0 <= int(pivot) < G.n:
        raise InvalidArgumentError(f"scc_fwbw: pivot {pivot} is not a vertex of the {G.n}-vertex graph")
    counts = _scc_run(E, G, labels, _SCC_CONTRACT | _SCC_FWBW, pivot=int(pivot))
    return 0 if counts is None else counts["fwbw"]


@fuses
def scc_color(E, G, seed, labels):
    # the step's result (every vertex left gets its SCC's smallest id) by the quotient trim and
    # coloring rounds over mutual-edge components, keys hashed from `seed`, in one launch
    counts = _scc_run(E, G, labels, _SCC_CONTRACT | _SCC_QTRIM | _SCC_COLOR, seed=seed)
    return 0 if counts is None else counts["labelled"]


@fuses
def scc_labels(E, G, labels):
    # all of it in one launch: trim (at most SCC_TRIM_LEVELS levels), contraction, quotient
    # trim, the pivot's SCC, coloring
    _scc_run(E, G, labels, _SCC_TRIM | _SCC_CONTRACT | _SCC_QTRIM | _SCC_PIVOT | _SCC_FWBW | _SCC_COLOR,
             max_levels=E.SCC_TRIM_LEVELS)
    return labels
