"""Certified answers on request: ``check=True`` on every public algorithm, ``LA_GRAPH_CHECK=1`` for a program.

:func:`certified` wraps an algorithm's public function.  The wrapper takes one
more keyword, ``check``; when it is on (``True``, or ``None`` with the
environment variable ``LA_GRAPH_CHECK`` set to ``1``, read at each call), the
algorithm's independent checker (:mod:`la_graph.verify`) runs on the result,
with the call's own arguments (sources, ``alpha``, ...), and a wrong result
raises :class:`~la_graph.exceptions.VerificationError`.  The result itself is
returned unchanged.  ``check=False`` turns checking off whatever the
environment says.

Which checker (the rule, :data:`FULL_CHECK_MAX_NNZ`):

* a graph of at most ``FULL_CHECK_MAX_NNZ`` stored entries gets the full
  checker;
* a larger one gets the checker at a sample of vertices where there is one
  (:func:`~la_graph.verify.check_bfs_sample` for BFS levels,
  :func:`~la_graph.verify.check_sssp_sample` for distances with non-negative
  weights, :func:`~la_graph.verify.check_cc_sample`,
  :func:`~la_graph.verify.check_pagerank_sample` for NetworkX's PageRank with
  the uniform jump), or a sample of :data:`SAMPLE_ROWS` rows (several sources,
  APSP, reachability) or searches (shortcuts); the full checker otherwise.

The checkers run on the host: results left on a device (``output="device"``)
are copied to the host for them.  A graph that lives on Dask workers (a
:class:`~la_graph.engines.dask.DistributedGraph`) has no host arrays: the
sampled checkers read its rows on the workers; a full check gathers it with
``G.to_graph()`` when it has at most ``FULL_CHECK_MAX_NNZ`` stored entries, and
beyond that an algorithm without a sampled checker refuses ``check`` before it
runs (:class:`~la_graph.exceptions.InvalidArgumentError`).

Only the outermost call is checked: an algorithm that calls another
(``sssp`` runs ``bfs`` on an unweighted graph) is checked once, on its own
answer.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import logging
import os
import re
import textwrap
import time
from types import SimpleNamespace

import numpy as np

from .. import _validation as V
from .. import verify
from ..exceptions import InvalidArgumentError
from ..graph import Graph

__all__ = ["certified", "check_requested", "checker_of", "ENV", "FULL_CHECK_MAX_NNZ", "SAMPLE_ROWS"]

#: the environment variable that turns checking on for every call that does not say ``check=``
ENV = "LA_GRAPH_CHECK"
#: graphs with at most this many stored entries get the full checker; larger ones the sampled one, where
#: there is one (the full checkers cost about as much as the algorithms: see docs/verify.md)
FULL_CHECK_MAX_NNZ = 1 << 25
#: rows (sources) or searches a sampled check of a multi-source result, APSP, reachability or shortcuts takes
SAMPLE_ROWS = 16
#: vertices a sampled checker looks at (its default)
SAMPLE = 4096

_ON, _OFF = {"1", "true", "yes", "on"}, {"", "0", "false", "no", "off"}
_log = logging.getLogger("la_graph")
# set while a certified call runs: the algorithms it calls are not checked again
_inside = contextvars.ContextVar("la_graph_certified_call", default=False)


def check_requested(check=None):
    """Whether a call with ``check`` checks its result: ``check`` itself, or for ``None`` the environment.

    ``LA_GRAPH_CHECK`` of ``1``, ``true``, ``yes`` or ``on`` (any case) turns
    checking on; unset, empty, ``0``, ``false``, ``no`` or ``off`` leaves it
    off; anything else is an error (a typo should not pass for "off").

    Examples
    --------
    >>> from la_graph.algorithms._certify import check_requested
    >>> check_requested(True), check_requested(False)
    (True, False)
    """
    if check is not None:
        return V.check_flag(check, "check")
    value = os.environ.get(ENV, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    raise InvalidArgumentError(f"{ENV}={os.environ[ENV]!r}: use 1 (check every result) or 0 (do not)")


# ---------------------------------------------------------------------- the results on the host
def _host(x):
    """``x`` as a numpy array (a CuPy array is copied from the GPU; None stays None)."""
    if x is None:
        return None
    return x.get() if hasattr(x, "__cuda_array_interface__") else np.asarray(x)


def _fields(result, *names):
    return SimpleNamespace(**{k: _host(getattr(result, k, None)) for k in names})


def _gathered(G):
    """A graph whose host arrays the full checkers can read: ``G``, or a Dask-held graph gathered."""
    return G.to_graph() if _distributed(G) else G


def _distributed(G):
    # a graph held on Dask workers (engines.dask.DistributedGraph) offers to_graph() in place of host arrays;
    # asked by duck type, since the engines are not imported here
    return hasattr(G, "to_graph")


def _rows(k):
    """The rows a sampled check looks at: all of ``k``, or :data:`SAMPLE_ROWS` of them drawn with seed 0."""
    if k <= SAMPLE_ROWS:
        return np.arange(k)
    return np.sort(np.random.default_rng(0).choice(k, SAMPLE_ROWS, replace=False))


def _sources(r):
    return r.source if r.source is not None else r.sources


def _nonnegative(G):
    return not G.weighted or G.weight_range()[0] >= 0


# ---------------------------------------------------------------------- each algorithm's checks
# full(G, result, a) and sample(G, result, a): ``a`` the call's arguments by name, defaults applied;
# sample_ok(G, a): whether the sampled check applies to this call
def _bfs_full(G, r, a):
    verify.check_bfs(G, _sources(r), _fields(r, "level", "parent"))


def _per_source(checker, G, r, values):
    # one sampled check per searched source: the single source's vector, or rows of a multi-source result
    values = _host(values)
    if r.source is not None:
        checker(G, r.source, values, sample=SAMPLE)
        return
    for i in _rows(len(r.sources)):
        checker(G, int(r.sources[i]), values[i], sample=SAMPLE)


def _bfs_sample(G, r, a):
    _per_source(verify.check_bfs_sample, G, r, r.level)


def _sssp_full(G, r, a):
    verify.check_sssp(G, _sources(r), _host(r.distance), _host(r.parent))


def _sssp_sample(G, r, a):
    _per_source(verify.check_sssp_sample, G, r, r.distance)


def _msf_full(G, r, a):
    verify.check_msf(G, SimpleNamespace(u=_host(r.u), v=_host(r.v), weight=_host(r.weight),
                                        total_weight=r.total_weight, labels=_host(r.labels)))


def _apsp_sample(G, D, a):
    verify.check_apsp(G, _host(D), sample=SAMPLE_ROWS)


def _reach_full(G, R, a):
    verify.check_reachability(G, a["sources"], _host(R))


def _reach_sample(G, R, a):
    verify.check_reachability(G, a["sources"], _host(R), sample=SAMPLE_ROWS)


_PR_ARGS = ("alpha", "personalization", "max_iter", "tol", "weight", "dangling", "variant")


def _pagerank_full(G, ranks, a):
    alpha, *rest = (a[k] for k in _PR_ARGS)
    verify.check_pagerank(G, _host(ranks), alpha, **dict(zip(_PR_ARGS[1:], rest)))


def _pagerank_sample_ok(G, a):
    weighted = G.weighted if a["weight"] is None else a["weight"]
    return (a["variant"] == "networkx" and a["personalization"] is None and a["dangling"] is None
            and not (weighted and G.weight_range()[0] <= 0))


def _betweenness_prepare(a):
    # seed=None draws a fresh sample inside the algorithm, which the checker could not know: draw the seed
    # here instead (a fresh random seed: the same distribution of samples)
    if a["k"] is not None and a["sources"] is None and a["seed"] is None:
        a["seed"] = int(np.random.default_rng().integers(2**63))


def _betweenness_full(G, bc, a, fn):
    sources = a["sources"]
    if sources is None and a["k"] is not None and a["k"] < G.n:
        # the algorithm module's own sampler, read off the function's module (it imports this one)
        sources = fn.__globals__["sample_sources"](G.n, int(a["k"]), a["seed"])
    verify.check_betweenness(G, _host(bc), sources=sources, normalized=a["normalized"], endpoints=a["endpoints"])


class _Spec:
    """How to check one algorithm's result: the full checker, and the sampled one where there is one."""

    def __init__(self, full, checker, *, sample=None, sampled=None, sample_ok=None, prepare=None, needs_fn=False,
                 note=""):
        self.full, self.checker, self.sample, self.sampled = full, checker, sample, sampled
        self.sample_ok = sample_ok or (lambda G, a: True)
        self.prepare, self.needs_fn, self.note = prepare, needs_fn, note


_SPECS = {
    "bfs": _Spec(_bfs_full, "check_bfs", sample=_bfs_sample, sampled="check_bfs_sample levels only",
                 sample_ok=lambda G, a: a["level"]),
    "connected_components": _Spec(lambda G, r, a: verify.check_cc(G, _host(r)), "check_cc",
                                  sample=lambda G, r, a: verify.check_cc_sample(G, _host(r), sample=SAMPLE),
                                  sampled="check_cc_sample"),
    "strongly_connected_components": _Spec(lambda G, r, a: verify.check_scc(G, _host(r)), "check_scc"),
    "maximal_independent_set": _Spec(lambda G, r, a: verify.check_mis(G, _host(r)), "check_mis"),
    "minimum_spanning_forest": _Spec(_msf_full, "check_msf"),
    "sssp": _Spec(_sssp_full, "check_sssp", sample=_sssp_sample,
                  sampled="check_sssp_sample distances only, if no weight is negative",
                  sample_ok=lambda G, a: _nonnegative(G)),
    "apsp": _Spec(lambda G, D, a: verify.check_apsp(G, _host(D)), "check_apsp", sample=_apsp_sample,
                  sampled=f"check_apsp on {SAMPLE_ROWS} rows drawn at random"),
    "apsp_blocks": _Spec(None, "check_apsp", sampled=f"check_apsp on {SAMPLE_ROWS} rows of each block",
                         note="Each block is checked as it is yielded."),
    "reachability": _Spec(_reach_full, "check_reachability", sample=_reach_sample,
                          sampled=f"check_reachability on {SAMPLE_ROWS} rows drawn at random"),
    "shortcut": _Spec(lambda G, H, a: verify.check_shortcut(G, H), "check_shortcut",
                      sample=lambda G, H, a: verify.check_shortcut(G, H, sample=SAMPLE_ROWS),
                      sampled=f"check_shortcut with {SAMPLE_ROWS} of its searches"),
    "pagerank": _Spec(_pagerank_full, "check_pagerank",
                      sample=lambda G, r, a: verify.check_pagerank_sample(G, _host(r), a["alpha"], tol=a["tol"],
                                                                          weight=a["weight"], sample=SAMPLE),
                      sampled="check_pagerank_sample if variant='networkx' without personalization or dangling",
                      sample_ok=_pagerank_sample_ok),
    "triangle_count": _Spec(lambda G, t, a: verify.check_triangles(G, total=t), "check_triangles"),
    "triangles": _Spec(lambda G, t, a: verify.check_triangles(G, per_vertex=_host(t)), "check_triangles"),
    "local_clustering_coefficient": _Spec(lambda G, c, a: verify.check_lcc(G, _host(c)), "check_lcc"),
    "betweenness_centrality": _Spec(_betweenness_full, "check_betweenness", prepare=_betweenness_prepare,
                                    needs_fn=True,
                                    note="With ``k`` and ``seed=None`` a seed is drawn for the checker to know "
                                         "the sample (the same distribution of samples)."),
    "label_propagation": _Spec(lambda G, r, a: verify.check_cdlp(G, _host(r), a["max_iter"]), "check_cdlp"),
    "core_number": _Spec(lambda G, r, a: verify.check_core_number(G, _host(r)), "check_core_number"),
    "louvain": _Spec(lambda G, r, a: verify.check_communities(G, _host(getattr(r, "labels", r)),
                                                              resolution=a["resolution"]), "check_communities"),
    "leiden": _Spec(lambda G, r, a: verify.check_communities(G, _host(getattr(r, "labels", r)),
                                                             resolution=a["resolution"], connected=True),
                    "check_communities"),
}


def checker_of(name):
    """``(full checker, sampled checker or None)`` of algorithm ``name``, as the names in :mod:`la_graph.verify`.

    Examples
    --------
    >>> from la_graph.algorithms._certify import checker_of
    >>> checker_of("connected_components")
    ('check_cc', 'check_cc_sample')
    """
    spec = _SPECS[name]
    return spec.checker, None if spec.sampled is None else spec.sampled.split()[0]


# ---------------------------------------------------------------------- the wrapper
def _plan(spec, G, a, name):
    """``"full"`` or ``"sample"``: which check this call gets (the rule of the module docstring), decided
    before the algorithm runs, so that a check that cannot be done is refused before the work."""
    if not isinstance(G, Graph):
        return None                                   # the algorithm refuses it itself
    big = G.nnz > FULL_CHECK_MAX_NNZ
    if big and spec.sampled is not None and spec.sample_ok(G, a):
        return "sample"
    if big and _distributed(G):
        raise InvalidArgumentError(
            f"{name}(check=True): {G!r} lives on Dask workers and has more than FULL_CHECK_MAX_NNZ = "
            f"{FULL_CHECK_MAX_NNZ:,} stored entries to gather for {spec.checker}, and no sampled checker fits "
            f"this call; check a smaller graph, or pass check=False")
    return "full"


def _run_check(spec, name, how, G, result, a, fn):
    t = time.perf_counter()
    if how == "sample":
        spec.sample(G, result, a)
    else:
        H = _gathered(G)
        if spec.needs_fn:
            spec.full(H, result, a, fn)
        else:
            spec.full(H, result, a)
    _log.debug("%s: %s check %.3f s", name, how, time.perf_counter() - t)


def _checked_blocks(blocks, G, how):
    """apsp_blocks' iterator, each block checked as it comes (its searches not checked again inside)."""
    H = G if how == "sample" else _gathered(G)
    while True:
        token = _inside.set(True)
        try:
            rows, block = next(blocks)
        except StopIteration:
            return
        finally:
            _inside.reset(token)
        if how == "sample":
            verify.check_apsp(H, _host(block), rows=rows, sample=SAMPLE_ROWS)
        else:
            verify.check_apsp(H, _host(block), rows=rows)
        yield rows, block


def _document(fn, spec):
    """``fn``'s docstring with the ``check`` parameter at the end of its Parameters section."""
    doc = fn.__doc__ or ""
    m = re.search(r"\n( *)Parameters\n\1-+\n", doc)
    if m is None:
        raise ValueError(f"{fn.__qualname__}'s docstring has no Parameters section for check=")
    indent = m.group(1)
    text = f"Check the result with :func:`~la_graph.verify.{spec.checker}`"
    if spec.sampled is not None:
        checker, _, how = spec.sampled.partition(" ")
        text += (f" (on a graph of more than ``FULL_CHECK_MAX_NNZ`` stored entries: "
                 f":func:`~la_graph.verify.{checker}`{', ' + how if how else ''})")
    text += (" and raise :class:`~la_graph.exceptions.VerificationError` if it is wrong.  Default: the "
             "``LA_GRAPH_CHECK`` environment variable (``1``: check); ``False`` overrides it.  See "
             "\"check=True\" in ``docs/verify.md``." + (f"  {spec.note}" if spec.note else ""))
    entry = indent + "check : bool, optional\n" + textwrap.fill(
        text, 100, initial_indent=indent + "    ", subsequent_indent=indent + "    ", break_on_hyphens=False)
    after = re.compile(r"\n" + indent + r"[A-Z][A-Za-z ]+\n" + indent + r"-+\n").search(doc, m.end())
    cut = after.start() if after else len(doc.rstrip())
    return doc[:cut].rstrip("\n ") + "\n" + entry + "\n" + doc[cut:]


def certified(name):
    """Decorator: the public algorithm ``name`` takes ``check=`` (see the module docstring).

    Adds the keyword-only parameter ``check=None`` to the signature and to the
    docstring's Parameters section, and on a checked call runs the checker of
    ``name`` on the result.  ``name`` is the function's own name.
    """
    spec = _SPECS[name]

    def wrap(fn):
        sig = inspect.signature(fn)
        if fn.__name__ != name:
            raise ValueError(f"certified({name!r}) on {fn.__name__}")
        params = list(sig.parameters.values())
        at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
        params.insert(at, inspect.Parameter("check", inspect.Parameter.KEYWORD_ONLY, default=None))

        @functools.wraps(fn)
        def run(*args, check=None, **kwargs):
            call = run.__wrapped__                    # looked up per call: a test may swap in a wrong algorithm
            if _inside.get() or not check_requested(check):
                return call(*args, **kwargs)
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError:
                return call(*args, **kwargs)          # the algorithm's own error for a wrong call
            bound.apply_defaults()
            a = bound.arguments
            if spec.prepare is not None:
                spec.prepare(a)
            G = a["G"]
            how = _plan(spec, G, a, name)
            token = _inside.set(True)
            try:
                result = call(*bound.args, **bound.kwargs)
                if name == "apsp_blocks":
                    return _checked_blocks(iter(result), G, how)
                _run_check(spec, name, how, G, result, a, fn)
            finally:
                _inside.reset(token)
            return result

        run.__signature__ = sig.replace(parameters=params)
        run.__doc__ = _document(fn, spec)
        run.certified = name
        return run

    return wrap
