"""Certified answers on request: ``check=True`` on every public algorithm, ``LA_GRAPH_CHECK=1`` for a program.

:class:`Checker`, the ``checker=`` of an algorithm's registration
(:func:`~la_graph.algorithms._registry.algorithm`), wraps its public function.  The wrapper takes one
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

__all__ = ["Checker", "check_requested", "checker_of", "host", "fields", "per_source", "searched", "nonnegative",
           "fresh_seed", "SAMPLE", "ENV", "FULL_CHECK_MAX_NNZ", "SAMPLE_ROWS"]

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
# what the registrations' check calls use (``Checker(full=..., sample=...)`` in the algorithm modules)
def host(x):
    """``x`` as a numpy array (a CuPy array is copied from the GPU; None stays None).

    Examples
    --------
    >>> from la_graph.algorithms._certify import host
    >>> host([1, 2]).tolist()
    [1, 2]
    """
    if x is None:
        return None
    return x.get() if hasattr(x, "__cuda_array_interface__") else np.asarray(x)


def fields(result, *names, **extra):
    """The attributes ``names`` of ``result`` on the host, and ``extra`` as given, as one namespace.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from la_graph.algorithms._certify import fields
    >>> fields(SimpleNamespace(level=[0, 1]), "level", "parent", total=2)
    namespace(level=array([0, 1]), parent=None, total=2)
    """
    return SimpleNamespace(**{k: host(getattr(result, k, None)) for k in names}, **extra)


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


def searched(r):
    """The source(s) of a BFS or SSSP result: its ``source``, else its ``sources``."""
    return r.source if r.source is not None else r.sources


def nonnegative(G):
    """Whether ``G`` has no negative weight (an unweighted graph has none)."""
    return not G.weighted or G.weight_range()[0] >= 0


def per_source(checker, G, r, values):
    """A sampled check per searched source: the single source's vector, or :data:`SAMPLE_ROWS` rows of a
    multi-source result (drawn with seed 0)."""
    values = host(values)
    if r.source is not None:
        checker(G, r.source, values, sample=SAMPLE)
        return
    for i in _rows(len(r.sources)):
        checker(G, int(r.sources[i]), values[i], sample=SAMPLE)


def fresh_seed():
    """A fresh random seed (for an algorithm called with ``seed=None`` whose sample the checker must know)."""
    return int(np.random.default_rng().integers(2**63))


# ---------------------------------------------------------------------- the registration's checker
class Checker:
    """How ``check=True`` checks one algorithm: the ``checker=`` of its registration.

    :func:`~la_graph.algorithms._registry.algorithm` applies it: the
    registered function takes ``check=`` (:meth:`certify`), and the checker's
    name is the registry's ``checker``.

    Parameters
    ----------
    checker : str
        The full checker, a function of :mod:`la_graph.verify` (``"check_cc"``).
    full : callable, optional
        ``full(G, result, a)`` runs it, ``a`` the call's arguments by name
        (defaults applied); default: ``verify.<checker>(G, host(result))``.
    sampled : str, optional
        The sampled checker's name in :mod:`la_graph.verify`, then how it is
        used (for the docstring: ``"check_bfs_sample levels only"``); none
        if there is none.
    sample : callable, optional
        ``sample(G, result, a)`` runs it; default:
        ``verify.<sampled>(G, host(result), sample=SAMPLE)``.
    sample_ok : callable, optional
        ``sample_ok(G, a)``: whether the sampled check fits this call
        (default: always).
    prepare : callable, optional
        ``prepare(a)`` edits the arguments before the call (a seed the
        checker must know).
    blocks : bool
        The result is an iterator of ``(rows, block)`` of all-pairs distances,
        each block checked as it comes (``full`` and ``sample`` unused).
    note : str
        A sentence added to the ``check`` parameter's docstring.

    Examples
    --------
    >>> from la_graph.algorithms._certify import Checker
    >>> Checker("check_cc", sampled="check_cc_sample").sampled
    'check_cc_sample'
    """

    def __init__(self, checker, full=None, *, sampled=None, sample=None, sample_ok=None, prepare=None,
                 blocks=False, note=""):
        self.checker, self.sampled, self.blocks, self.note = checker, sampled, blocks, note
        # the checkers are looked up at each call (verify's functions may be swapped, in tests)
        self.full = full or (lambda G, r, a: getattr(verify, checker)(G, host(r)))
        if sampled is not None and sample is None:
            sample = lambda G, r, a: getattr(verify, sampled.split()[0])(G, host(r), sample=SAMPLE)  # noqa: E731
        self.sample = sample
        self.sample_ok = sample_ok or (lambda G, a: True)
        self.prepare = prepare

    def certify(self, fn, name):
        """``fn`` taking ``check=`` (see the module docstring); called by the registration."""
        return _certify(self, fn, name)


#: algorithm name -> its :class:`Checker`, filled by the registrations (``la_graph.algorithms._registry``)
_SPECS = {}


def checker_of(name):
    """``(full checker, sampled checker or None)`` of algorithm ``name``, as the names in :mod:`la_graph.verify`.

    Examples
    --------
    >>> import la_graph
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


def _run_check(spec, name, how, G, result, a):
    t = time.perf_counter()
    if how == "sample":
        spec.sample(G, result, a)
    else:
        spec.full(_gathered(G), result, a)
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
            verify.check_apsp(H, host(block), rows=rows, sample=SAMPLE_ROWS)
        else:
            verify.check_apsp(H, host(block), rows=rows)
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


def _certify(spec, fn, name):
    """``fn`` taking ``check=``: the keyword-only parameter ``check=None`` added to its signature and to the
    docstring's Parameters section; a checked call runs ``spec`` on the result."""
    if fn.__name__ != name:
        raise ValueError(f"Checker of {name!r} on {fn.__name__}")
    if spec.sample is None and spec.sampled is not None and not spec.blocks:
        raise ValueError(f"{name}: Checker(sampled={spec.sampled!r}) without a sample call")
    _SPECS[name] = spec
    return _wrap(fn, spec, name)


def _wrap(fn, spec, name):
    sig = inspect.signature(fn)
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
            if spec.blocks:
                return _checked_blocks(iter(result), G, how)
            _run_check(spec, name, how, G, result, a)
        finally:
            _inside.reset(token)
        return result

    run.__signature__ = sig.replace(parameters=params)
    run.__doc__ = _document(fn, spec)
    run.certified = name
    return run

