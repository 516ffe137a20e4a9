"""Louvain community detection (Blondel et al. 2008) in linear algebra, with moves that cannot oscillate.

Each *level* moves vertices between communities to raise the modularity
(:func:`louvain_move`), then aggregates every community into one vertex of the
next level's graph, ``A' = S' A S`` (two ``mxm``; a community's inner weight
becomes its self-loop), until a level gains at most ``threshold``.

**One round of local moving.**  With ``S`` the membership matrix of the
labels, ``k`` the degrees (self-loops twice), ``Sigma = S' k`` the
communities' degree sums and ``2m = 1' k``:

* ``K = A S`` (``plus.times``, ``A`` without its diagonal): ``K[i, c]`` is the
  weight from ``i`` to community ``c``;
* every neighbouring community ``c`` other than ``i``'s own ``a`` scores
  ``2m K[i, c] - gamma k_i Sigma_c`` (the columns scaled by two products with
  diagonal matrices), staying scores ``2m K[i, a] - gamma k_i (Sigma_a - k_i)``;
  the modularity gain of the move ``a -> c`` alone is ``2 (score_c - score_a) / (2m)^2``;
* the best target is the row's largest score (``reduce_rows max``; the
  smallest community id on a tie, ``min.secondi``); a vertex whose best target
  scores more than staying *gains*.

**The move rule: all at once when that is exact, thinned when not.**  Moving
every gaining vertex at once is what makes a parallel Louvain fast (few
rounds), but each gain assumed the others stay, and synchronous moves can
oscillate (two neighbours trading communities forever).  So a round:

1. *Up or down.*  In even rounds only the moves to a larger community id
   are candidates, in odd rounds only those to a smaller one (cuGraph's
   rule): two vertices never swap communities in one round.
2. *Crowding.*  Candidates draw priorities, a hash of ``(seed, level,
   round, vertex)`` (:func:`la_graph._random.vertex_priorities`: distinct,
   the same on every engine).  A candidate stays a mover when its gain
   survives the degrees of the higher-priority candidates joining its
   target (``J``) and leaving its community (``L``): ``score_c - score_a -
   gamma k_i (J + L) > 0`` -- the degree terms those moves add to its own
   (a segmented prefix sum).  The highest candidate always survives.
3. *The exact test.*  The round's modularity change with all the movers
   moved is computed exactly: the change of the inside weight
   (``1' (A S' .* S') 1`` less ``1' (A S .* S) 1``, read from the movers'
   rows alone, see :func:`_raises`), and
   ``||Sigma'||^2 - ||Sigma||^2 = sum_c d_c (2 Sigma_c + d_c)`` with ``d`` the
   movers' degrees scattered out of their communities and into their
   targets.  When ``2m d_in - gamma d(||Sigma||^2) > 0`` they all move.
4. *Otherwise Luby's rule*: only the candidates whose priority beats every
   neighbouring candidate's (``A max.second prio``), and of those only the
   first by priority among the ones leaving their community and among the
   ones joining their target.  No two movers are neighbours, so each one's
   weights to its old and new community are exact, and no two share a
   community, so the degree cross terms can only help: the gain is at least
   the sum of their own gains, positive.  The highest candidate moves.

Every round that moves raises the modularity strictly, so no partition
repeats and the moving ends.  A round looks at the vertices that gained in the
last round and the neighbours of its movers (the others' weights to their
communities did not change); when those find nothing, a round looks at every
vertex, and the moving ends only when that round finds no vertex that gains
by moving alone: a fixpoint of single moves.  (A round that finds only moves
the other way moves nothing; the next one takes them.)

After the levels the whole procedure runs again from its own result on the
original graph (the first level's moves starting from that partition) until
nothing changes, or until a pass raises the modularity by at most
``pass_threshold``; then single-vertex moves on the original graph alone
(:func:`polish`) run until nothing changes.  Either way the result is a
fixpoint of single-vertex moves on the original graph, which
``la_graph.verify.check_communities`` checks.

Every engine takes the same moves: the priorities are hashes, ties go to the
smallest id, and the sums that decide (degree sums, inside weights, ``J`` and
``L``) are exact when the weights are integers (as unweighted graphs' are);
with fractional weights, two engines that add in different orders may round
a near-tie differently.

Directed graphs are refused: use ``G.to_undirected()`` (``modularity`` itself
takes directed graphs, with Leicht & Newman's directed null model).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .. import _random
from .. import _validation as V
from ..engines import get_engine
from .. import verify
from ._certify import Checker, host
from ._registry import Cli, algorithm
from .modularity import (canonical_labels, check_community_graph, dense_ids, inside_weight, level_matrix, membership,
                         positive_total)
from .steps import step

__all__ = ["louvain", "louvain_move", "LouvainResult"]

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class LouvainResult:
    """``labels`` and, with ``dendrogram=True``, ``levels``: the labeling after each level (the last is ``labels``)."""

    labels: np.ndarray
    levels: list


def round_seed(seed, level, r):
    """The priority seed of round ``r`` of ``level``: one 64-bit word per ``(seed, level, round)``."""
    return (seed * 0x9E3779B97F4A7C15 + level * 0xBF58476D1CE4E5B9 + r * 0x94D049BB133111EB) & _MASK64


@step("louvain_move")
def louvain_move(E, A, k, labels, resolution, seed, level):
    """Local moving to its fixpoint: the labels, a full int64 vector, in place; returns ``(labels, moved)``.

    ``A`` is the level's symmetric float64 adjacency without its diagonal,
    ``k`` its degrees (a full float64 vector, self-loops counted twice),
    ``labels`` community ids in ``0 .. n-1``.  Rounds as the module docstring
    says, priorities from :func:`round_seed` of ``(seed, level, round)``,
    until no vertex gains by moving.  ``moved`` tells whether any label changed.
    """
    n = E.size(k)
    ids = np.arange(n, dtype=np.int64)
    two_m = float(E.reduce(k, "plus"))
    host = E.to_numpy(labels)
    if n == 0 or E.nvals(A) == 0 or not two_m > 0:
        return labels, False
    gamma = float(resolution)
    kh = E.to_numpy(k)
    Dk = E.matrix_from_coo(ids, ids, kh, n, n, dtype=np.float64)
    moved = False
    sigma = E.full(n, 0.0)
    E.vxm(k, membership(E, host), "plus_times", out=sigma, accum="plus")   # Sigma_c, 0 for empty communities
    active, full = np.ones(n, dtype=bool), True
    for r in itertools.count():
        S = membership(E, host)
        look = A if full else E.mxm(E.matrix_from_coo(ids[active], ids[active], 1.0, n, n, dtype=np.float64), A,
                                    "plus_times")                          # the rows of the vertices in view
        K = E.mxm(look, S, "plus_times")                                   # K[i, c]: weight from i to c
        own = E.full(n, 0.0)
        E.reduce_rows(E.ewise_mult(K, S, "first"), "plus", out=own, accum="plus")   # K[i, a]
        other = E.apply(K, "identity", mask=S, structural=True, complement=True)      # K[i, c], c != a
        Dsig = E.matrix_from_coo(ids, ids, E.to_numpy(sigma), n, n, dtype=np.float64)
        kS = E.mxm(E.mxm(Dk, E.apply(other, "one"), "plus_times"), Dsig, "plus_times")   # k_i Sigma_c
        score = E.ewise_add(E.apply(other, "times", right=two_m), E.apply(kS, "times", right=gamma), "minus")
        best = E.reduce_rows(score, "max")
        rest = E.ewise_add(E.extract(sigma, E.vector_from_numpy(host)), k, "minus")   # Sigma_a - k_i
        stay = E.ewise_add(E.apply(own, "times", right=two_m),
                           E.apply(E.ewise_mult(k, rest, "times"), "times", right=gamma), "minus")
        gain = E.ewise_mult(best, stay, "minus")
        act = E.vector_from_coo(np.flatnonzero(active), True, n, dtype=bool)
        pos = E.select(gain, "valuegt", 0.0, mask=act, structural=True)  # the active vertices that gain
        if E.nvals(pos) == 0:
            if full:
                break                                                      # no vertex gains by moving alone
            active, full = np.ones(n, dtype=bool), True                   # a full round to be sure
            continue
        # the target: the smallest community of the best score
        bi, bv = E.to_coo(best)
        at_best = E.ewise_mult(score, E.mxm(E.matrix_from_coo(bi, bi, bv, n, n, dtype=np.float64),
                                            E.apply(other, "one"), "plus_times"), "eq")
        target = E.mxv(E.select(at_best, "valueeq", True), E.full(n, 1.0), "min_secondi", mask=pos, structural=True)
        gi, tgt = E.to_coo(target)
        src = host[gi]
        up = tgt > src if r % 2 == 0 else tgt < src                        # up rounds, then down rounds
        ci, src, tgt = gi[up], src[up], tgt[up].astype(np.int64)
        active, full = np.zeros(n, dtype=bool), False
        active[gi] = True                                                  # the gainful stay in view
        if ci.size == 0:
            continue                                                       # the gainful moves go the other way
        prio = _random.vertex_priorities(n, round_seed(seed, level, r))[ci]
        g = E.to_numpy(gain, fill=0.0)[ci]
        keep = _uncrowded(g, kh[ci], src, tgt, prio, gamma)
        d = _shift(E, n, kh[ci[keep]], src[keep], tgt[keep])
        if not _raises(E, A, sigma, S, host, ci[keep], tgt[keep], d, two_m, gamma):
            keep = _independent(E, A, prio, ci, src, tgt, n)
            d = _shift(E, n, kh[ci[keep]], src[keep], tgt[keep])
        mi = ci[keep]
        host = host.copy()
        host[mi] = tgt[keep]
        sigma = E.ewise_add(sigma, d, "plus")
        near = E.vxm(E.vector_from_coo(mi, True, n, dtype=bool), A, "any_pair")   # A is symmetric: a push
        active[mi] = True
        active[E.to_coo(near)[0]] = True                                   # the movers' neighbours look again
        moved = True
    return E.vector_from_numpy(host), moved


def _after(order, group, x):
    """For each entry, the sum of ``x`` over the entries of its ``group`` that come before it in ``order``."""
    o = np.lexsort((order, group))
    xs, gs = x[o], group[o]
    run = np.cumsum(xs)
    first = np.r_[True, gs[1:] != gs[:-1]]
    base = np.maximum.accumulate(np.where(first, np.arange(xs.size), 0))
    out = np.empty_like(x)
    out[o] = run - xs - (run[base] - xs[base])
    return out


def _uncrowded(g, km, src, tgt, prio, gamma):
    """The candidates that still gain when the higher-priority candidates leaving their community and
    joining their target count in the degree sums: ``g - gamma k_i (J_i + L_i) > 0``."""
    crowd = _after(-prio, tgt, km) + _after(-prio, src, km)
    return g - gamma * (km * crowd) > 0.0


def _shift(E, n, km, src, tgt):
    """``d``: the change of the degree sums when the vertices of degrees ``km`` move from ``src`` to ``tgt``."""
    d = E.vector(n, np.float64)
    E.scatter(d, E.vector_from_numpy(np.r_[src, tgt]), E.vector_from_numpy(np.r_[-km, km]), dup="plus",
              accum="plus")
    return d


def _raises(E, A, sigma, S, host, mi, tgt, d, two_m, gamma):
    """Whether moving the vertices ``mi`` to ``tgt`` raises the modularity: ``2m d_in - gamma d(||Sigma||^2) > 0``.

    ``d_in``, the change of the weight inside communities, from the movers' rows alone: with ``AM`` their
    rows of ``A``, ``AMM`` those rows' entries between movers, ``S`` and ``S'`` the memberships before
    and after, ``d_in = 2 (x(AM, S') - x(AM, S)) - (x(AMM, S') - x(AMM, S))``, ``x(B, S) = 1' (B S .* S) 1``
    (an edge from a mover to a vertex that stays counts in both directions, one between movers once each);
    ``d(||Sigma||^2) = sum_c d_c (2 Sigma_c + d_c)``, ``d`` the change of the degree sums.
    """
    n = host.size
    new = host.copy()
    new[mi] = tgt
    S2 = membership(E, new)
    DM = E.matrix_from_coo(mi, mi, 1.0, n, n, dtype=np.float64)
    AM = E.mxm(DM, A, "plus_times")
    AMM = E.mxm(AM, DM, "plus_times")
    d_in = (2.0 * (inside_weight(E, AM, S2) - inside_weight(E, AM, S))
            - (inside_weight(E, AMM, S2) - inside_weight(E, AMM, S)))
    twice = E.ewise_add(E.apply(sigma, "times", right=2.0), d, "plus", mask=d, structural=True)
    d_sq = float(E.reduce(E.ewise_mult(d, twice, "times"), "plus"))
    return two_m * d_in - gamma * d_sq > 0.0


def _independent(E, A, prio, ci, src, tgt, n):
    """Luby's movers among the candidates ``ci``, then only those first by priority in their source and
    target: no two neighbours, no two in one community -- the round's gain is at least the sum of theirs."""
    p = E.vector_from_coo(ci, prio, n, dtype=np.int64)
    nb = E.full(n, -1, dtype=np.int64)
    E.mxv(A, p, "max_second", out=nb, mask=p, structural=True, accum="max")
    luby = prio > E.to_numpy(nb)[ci]
    q = np.where(luby, prio, -1)
    top_src = E.full(n, -1, dtype=np.int64)
    top_tgt = E.full(n, -1, dtype=np.int64)
    E.scatter(top_src, E.vector_from_numpy(src), E.vector_from_numpy(q), dup="max", accum="max")
    E.scatter(top_tgt, E.vector_from_numpy(tgt), E.vector_from_numpy(q), dup="max", accum="max")
    return luby & (E.to_numpy(top_src)[src] == prio) & (E.to_numpy(top_tgt)[tgt] == prio)


# ---------------------------------------------------------------------- levels
def aggregate(E, A, k, host):
    """The next level: ``(S' A S, S' k, community of each vertex)`` of the level's partition ``host``."""
    inv, c = dense_ids(host)
    S = membership(E, inv, c)
    St = E.matrix_from_coo(inv, np.arange(inv.size), 1.0, c, inv.size, dtype=np.float64)
    A2 = E.mxm(E.mxm(St, A, "plus_times"), S, "plus_times")
    k2 = E.full(c, 0.0)
    E.vxm(k, S, "plus_times", out=k2, accum="plus")
    return A2, k2, inv


def _quality(E, A2, k2, two_m, gamma):
    """``Q`` of a partition from its aggregate ``(S' A S, S' k)``: ``trace / 2m - gamma ||S' k||^2 / (2m)^2``."""
    inside = float(E.reduce(E.select(A2, "diag"), "plus")) if E.nvals(A2) else 0.0
    return inside / two_m - gamma * float(E.reduce(E.ewise_mult(k2, k2, "times"), "plus")) / two_m ** 2


def _partition_quality(E, A, k, host, two_m, gamma):
    """``Q`` of the partition ``host`` of ``A`` (degrees ``k``): ``1' (A S .* S) 1 / 2m - gamma ||S' k||^2 / (2m)^2``."""
    S = membership(E, *dense_ids(host))
    inside = inside_weight(E, A, S)
    sig = E.vxm(k, S, "plus_times")
    return inside / two_m - gamma * float(E.reduce(E.ewise_mult(sig, sig, "times"), "plus")) / two_m ** 2


def multilevel(E, A, k, gamma, seed, threshold, max_level, refine=None, start=None, quality=None, Aoff=None):
    """One pass of levels over the graph ``A`` (its diagonal counted twice) of degrees ``k``, from the
    partition ``start`` (host labels; None: singletons).

    ``refine(E, Aoff, k, labels, gamma, seed, level)`` (Leiden) returns the
    refined labels to aggregate by, the level's labels then becoming the next
    level's initial partition.  ``quality``: the modularity of ``start``
    where known.  ``Aoff``: ``A`` without its diagonal, where the caller has it.
    Returns ``(labels, levels, quality)``: the final labels of the graph's
    vertices (canonical), the labeling after each level (as the level's
    community ids) and the final labels' modularity.

    A level whose moving moves nothing ends the pass at once: its partition is
    the one it started from, whose modularity is known (the last level's, or
    ``start``'s), so it gains nothing -- on a pass from a fixpoint of single
    moves (the passes' last, confirming one) the moving's full round over
    every vertex is then all the work.  Not so with ``refine``: a Leiden level
    that moves nothing, or gains at most ``threshold``, still goes on while
    its refined aggregate has fewer vertices than the level (two communities
    merge only once each is one vertex; Wiki-Vote stopped at 0.4166 against
    igraph's 0.4258 before, 0.4304 now).
    """
    n = E.size(k)
    two_m = float(E.reduce(k, "plus"))
    where = np.arange(n, dtype=np.int64)                 # each original vertex's vertex at this level
    host = np.arange(n, dtype=np.int64) if start is None else np.asarray(start, dtype=np.int64)
    levels = []
    for level in itertools.count():
        if level or Aoff is None:
            Aoff = E.select(A, "offdiag")
        before = host
        labels, moved = louvain_move(E, Aoff, k, E.vector_from_numpy(host), gamma, seed, level)
        host = E.to_numpy(labels)
        levels.append(host[where])
        if not moved and refine is None:
            break                                        # nothing moved: the level gains nothing
        if quality is None:                              # the start's modularity, needed only now
            quality = _quality(E, *aggregate(E, A, k, before)[:2], two_m, gamma)
        if refine is None:
            A2, k2, inv = aggregate(E, A, k, host)
            new = _quality(E, A2, k2, two_m, gamma)
        else:
            # the refined partition's aggregate, and the level's modularity from it: each refined community
            # lies in one community (P), so trace(S' A S) = 1' (A_R P .* P) 1, a product of the smaller graph
            A2, k2, inv = aggregate(E, A, k, E.to_numpy(refine(E, Aoff, k, labels, gamma, seed, level)))
            up = np.zeros(int(inv.max()) + 1, dtype=np.int64)
            up[inv] = host                               # each refined community's community
            new = _partition_quality(E, A2, k2, up, two_m, gamma)
        coarser = inv.max() + 1 < inv.size
        if len(levels) == max_level or (new - quality <= threshold and not (refine is not None and coarser)):
            quality = new
            break                                        # NetworkX's rule: this level gained too little
        quality = new
        if not coarser:
            break                                        # nothing to aggregate: the next level is this one
        A, k = A2, k2
        # the next level starts from this one's partition: each (refined) community in its community
        first = np.zeros(int(inv.max()) + 1, dtype=np.int64)
        first[inv] = host
        host = dense_ids(first)[0]
        where = inv[where]
    if quality is None:
        quality = _quality(E, *aggregate(E, A, k, host)[:2], two_m, gamma)
    return canonical_labels(levels[-1]), levels, quality


def polish(E, Aoff, k, labels, gamma, seed, finish=None):
    """Single-vertex moves on the graph itself (level 0), each followed by ``finish``, until nothing changes:
    ``labels`` made a fixpoint of single moves (and finished), without the levels of a pass."""
    for r in itertools.count():
        moved_to, moved = louvain_move(E, Aoff, k, E.vector_from_numpy(labels), gamma, (seed + r) & _MASK64, 0)
        if not moved:
            return labels
        new = canonical_labels(E.to_numpy(moved_to))
        labels = new if finish is None else finish(E, Aoff, new)


def optimise(G, resolution, seed, threshold, max_level, engine, refine=None, finish=None, pass_threshold=0.0):
    """Passes of levels until one changes nothing: ``(labels, the first pass's labelings, its last replaced by labels)``.

    ``finish(E, Aoff, labels)`` (Leiden: the split into connected parts) runs
    on each pass's labels; a pass that returns the labels it started from
    (finished already) ends the passes without it.  A pass that raises the
    modularity by at most ``pass_threshold`` ends them too: its labels are
    then :func:`polish`-ed, so the result is a fixpoint of single moves either way.
    """
    E = get_engine(engine)
    if not positive_total(G):
        labels = np.arange(G.n, dtype=np.int64)
        return labels, [labels]
    seed = int(np.random.default_rng().integers(2**63)) if seed is None else _random.check_seed(seed)
    A = level_matrix(E, G)
    Aoff = E.select(A, "offdiag")
    k = E.full(G.n, 0.0)
    E.reduce_rows(A, "plus", out=k, accum="plus")
    labels, levels, quality = multilevel(E, A, k, resolution, seed, threshold, max_level, refine, Aoff=Aoff)
    last = quality
    if finish is not None:
        labels, quality = finish(E, Aoff, labels), None
    for again in itertools.count(1):
        new, _, quality = multilevel(E, A, k, resolution, (seed + again) & _MASK64, threshold, None, refine,
                                     start=labels, quality=quality, Aoff=Aoff)
        gained, last = quality - last, quality
        if finish is not None and not np.array_equal(new, labels):
            new, quality = finish(E, Aoff, new), None
        if np.array_equal(new, labels):
            break
        labels = new
        if gained <= pass_threshold:                     # passes of little gain: single moves finish the work
            labels = polish(E, Aoff, k, labels, resolution, (seed - again) & _MASK64, finish)
            break
    levels = [canonical_labels(x) for x in levels]
    if levels:
        levels[-1] = labels
    return labels, levels


def _check_args(threshold, max_level, pass_threshold, dendrogram):
    threshold = V.check_real(threshold, "threshold", low=0)
    max_level = None if max_level is None else V.check_count(max_level, "max_level")
    pass_threshold = V.check_real(pass_threshold, "pass_threshold", low=0)
    return threshold, max_level, pass_threshold, V.check_flag(dendrogram, "dendrogram")


@algorithm("louvain", cli=Cli("louvain", "communities by Louvain modularity optimisation (--seed)",
                              options=("seed",), defaults={"seed": 0}),
           networkx=("louvain_communities", "louvain_partitions"),
           checker=Checker("check_communities", lambda G, r, a: verify.check_communities(
               G, host(getattr(r, "labels", r)), resolution=a["resolution"])),
           bench=("louvain",), page="algorithms/louvain.md",
           summary="communities by Louvain modularity optimisation, seeded, moves that cannot oscillate")
def louvain(G, resolution=1.0, *, seed=None, threshold=1e-7, max_level=None, pass_threshold=1e-4, engine=None,
            dendrogram=False):
    """Communities of maximal modularity by the Louvain method.

    Parameters
    ----------
    G : Graph
        Undirected (a directed graph is refused: use ``G.to_undirected()``),
        weights non-negative (a negative weight is refused, naming the edge).
    resolution : float
        ``gamma > 0`` of the modularity; larger values give smaller communities.
    seed : int, optional
        The moves' random priorities; the same seed gives the same partition on
        one engine.  ``None``: a fresh seed each call.
    threshold : float
        The levels stop when one raises the modularity by at most this much
        (NetworkX's rule).
    max_level : int, optional
        The most levels of the first pass.
    pass_threshold : float
        The passes stop when one raises the modularity by at most this much
        (0: only when one changes nothing); single-vertex moves then finish,
        so the result is a fixpoint of single moves either way.
    engine : str, optional
        ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine.
    dendrogram : bool
        Also return the labeling after each level.

    Returns
    -------
    numpy.ndarray or LouvainResult
        int64 labels: each vertex's community named by its smallest vertex
        id; a graph without edges leaves every vertex alone.  With
        ``dendrogram=True`` a :class:`LouvainResult` of ``labels`` and
        ``levels`` (the labeling after each level of the first pass; the last
        one is ``labels``, after the passes from it that ran until nothing
        changed).

    Examples
    --------
    >>> import la_graph as lg
    >>> G = lg.generators.connected_caveman(4, 5)
    >>> lg.louvain(G, seed=1).tolist()
    [0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15, 15, 15, 15, 15]
    >>> round(lg.modularity(G, lg.louvain(G, seed=1)), 4)
    0.65
    """
    G, resolution = check_community_graph(G, resolution, undirected=True)
    threshold, max_level, pass_threshold, dendrogram = _check_args(threshold, max_level, pass_threshold, dendrogram)
    labels, levels = optimise(G, resolution, seed, threshold, max_level, engine, pass_threshold=pass_threshold)
    return LouvainResult(labels, levels) if dendrogram else labels
