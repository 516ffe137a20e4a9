"""The algorithm registry: one entry per public algorithm, written beside its function.

Everything around an algorithm -- the ``la-graph run`` subcommand, the NetworkX
backend's functions, the ``check=True`` checker, the benchmark case, the docs
page -- is read from here, so adding an algorithm is its module, its tests and
its docs page, not a dozen hand-kept lists.  Register a public function with
:func:`algorithm`, above its other decorators::

    @algorithm("connected_components",
               cli=Cli("cc", "connected components (weakly connected on a directed graph)"),
               networkx=("connected_components",), checker=Checker("check_cc", sampled="check_cc_sample"),
               bench=("cc",), page="algorithms/connected_components.md",
               summary="FastSV (min-second semiring); weak components of directed graphs")
    def connected_components(G, *, engine=None, output="numpy"):
        ...

What reads the registry (and what checks the lists that must stay literal):

* ``la_graph/cli.py``: ``la-graph run ALGO`` for every :class:`Cli`, its help
  text, which of run's options it reads (the others are refused) and their
  defaults.  Its runner is ``Cli(run=...)`` (a callable ``run(args, G,
  engine) -> (summary, arrays, check)``), else the one ``la_graph/cli.py``
  writes for it (``_RUNNERS``: the algorithms of 0.1), else the plain runner:
  call the function with the options it reads, print the top vertex of the
  result and check it with the registered checker.
* ``la_graph/nx_backend/``: ``_NEEDS`` (the NetworkX name -> the la_graph
  function that backs it).  ``_la_graph_nx.FUNCTIONS`` stays a literal tuple
  (NetworkX imports that package while it is itself imported, so it imports
  nothing); ``tests/test_registry.py`` checks it against :func:`networkx_functions`.
* ``la_graph/algorithms/_certify.py``: ``check=True``.  The registration's
  ``checker=`` is a :class:`~la_graph.algorithms._certify.Checker` (which
  :mod:`la_graph.verify` function checks the result, how it is called with the
  call's arguments, the sampled checker for large graphs); :func:`algorithm`
  applies it, so the registered function takes ``check=``, and the registry
  keeps its name (``checker``).
* ``la_graph/bench/cases.py``: ``bench`` names the benchmark cases of
  ``cases.ALGORITHMS`` that run the algorithm (checked by the test).
* the docs: ``page`` is the algorithm's page under ``docs/`` (its first
  heading is its title) and ``summary`` says what the algorithm does in a
  line; ``python tests/test_registry.py --write`` writes the CLI table of
  ``docs/cli.md``, the fused-step table of ``docs/writing-an-engine.md``,
  the function table of ``docs/networkx.md``, the "Algorithms:" section of
  ``mkdocs.yml``'s nav and ``docs/index.md``'s list of algorithm pages from
  them (each page once, in the order of the pages' titles; the test checks they
  are current).

This module is a floor: it imports nothing of la_graph, so every algorithm
module can import it (the ``checker`` is applied by duck type: its ``certify``).

Examples
--------
>>> import la_graph as lg
>>> from la_graph.algorithms import _registry as R
>>> R.REGISTRY["bfs"].function is lg.bfs
True
>>> R.cli_commands()["cc"].name
'connected_components'
>>> R.networkx_functions()["clustering"]
'local_clustering_coefficient'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Algorithm", "Cli", "algorithm", "REGISTRY", "ENGINE_DOC", "ENGINES", "RUN_OPTIONS",
           "registered", "cli_commands", "networkx_functions"]

#: the engines every algorithm runs on (``la_graph.engines.available_engines`` lists those installed)
ENGINES = ("cpu", "gpu", "dask", "reference")
#: the one text of every public algorithm's ``engine`` parameter (numpydoc; ``tests/test_registry.py``
#: checks each registered function's docstring says exactly this)
ENGINE_DOC = """engine : str, optional
    ``"cpu"``, ``"gpu"``, ``"dask"`` or ``"reference"``; default: the current engine."""
#: the options of ``la-graph run`` that only some algorithms read (argparse ``dest`` names)
RUN_OPTIONS = ("source", "sources", "method", "delta", "seed", "alpha", "max_iter", "tol", "variant", "k",
               "metric", "top_k")


@dataclass(frozen=True)
class Cli:
    """An algorithm's ``la-graph run`` subcommand.

    Parameters
    ----------
    name : str
        The ``ALGO`` word (``"cc"``).
    help : str
        One line for ``la-graph run --help``.
    options : tuple of str
        Which of :data:`RUN_OPTIONS` it reads; ``la-graph run`` refuses the others.
    defaults : dict
        Values filled in for options it reads that were not given.
    run : callable, optional
        ``run(args, G, engine) -> (summary dict, result arrays dict, check callable)``; default: the
        runner ``la_graph.cli`` has for ``name``, else its plain runner (the function called with
        ``options``, its result summarised by its top vertex and checked by the registered checker).

    Examples
    --------
    >>> Cli("mis", "a maximal independent set (--seed)", options=("seed",), defaults={"seed": 0}).options
    ('seed',)
    """

    name: str
    help: str
    options: tuple = ()
    defaults: dict = field(default_factory=dict)
    run: Callable | None = None

    def __post_init__(self):
        unknown = sorted(set(self.options) - set(RUN_OPTIONS)) + sorted(set(self.defaults) - set(self.options))
        if unknown:
            raise ValueError(f"Cli({self.name!r}): {unknown} are not options it reads (of {RUN_OPTIONS})")


@dataclass(frozen=True)
class Algorithm:
    """One registered public algorithm (see the module docstring for who reads what).

    Attributes
    ----------
    name : str
        The public function's name (``la_graph.<name>``).
    function : callable
        The public function (as decorated: ``check=`` included).
    module : str
        Its module.
    cli : Cli or None
        Its ``la-graph run`` subcommand, if it has one.
    networkx : tuple of str
        The NetworkX functions the backend implements with it.
    checker : str or None
        The :mod:`la_graph.verify` function ``check=True`` runs.
    bench : tuple of str
        Its benchmark cases (keys of ``la_graph.bench.cases.ALGORITHMS``).
    page : str or None
        Its page, relative to ``docs/``.
    summary : str or None
        What it does, in a line (README.md's table, docs/index.md's list).
    """

    name: str
    function: Callable
    module: str
    cli: Cli | None = None
    networkx: tuple = ()
    checker: str | None = None
    bench: tuple = ()
    page: str | None = None
    summary: str | None = None


#: public name -> :class:`Algorithm`, filled as the algorithm modules are imported (``import la_graph``)
REGISTRY: dict[str, Algorithm] = {}


def algorithm(name, *, cli=None, networkx=(), checker=None, bench=(), page=None, summary=None):
    """Decorator: register the public algorithm ``name`` (the function's own name).

    Returns the function, taking ``check=`` if ``checker`` is given (a
    :class:`~la_graph.algorithms._certify.Checker`: its ``certify`` wraps
    it).  Registering a name twice, or under another name than the
    function's, or a CLI word or NetworkX function that another algorithm
    has, raises ``ValueError`` at import.

    Examples
    --------
    >>> from la_graph.algorithms._registry import algorithm, REGISTRY
    >>> @algorithm("my_degree")
    ... def my_degree(G, *, engine=None):
    ...     return G.n
    >>> REGISTRY["my_degree"].module == __name__
    True
    >>> del REGISTRY["my_degree"]
    """
    networkx = tuple(networkx)
    bench = tuple(bench)
    if checker is not None and not callable(getattr(checker, "certify", None)):
        raise ValueError(f"algorithm({name!r}, checker={checker!r}): a la_graph.algorithms._certify.Checker")

    def wrap(fn):
        if getattr(fn, "__name__", None) != name:
            raise ValueError(f"algorithm({name!r}) on {getattr(fn, '__name__', fn)!r}")
        if name in REGISTRY:
            raise ValueError(f"algorithm {name!r} is registered twice ({REGISTRY[name].module})")
        for other in REGISTRY.values():
            if cli is not None and other.cli is not None and other.cli.name == cli.name:
                raise ValueError(f"la-graph run {cli.name}: both {other.name} and {name}")
            if set(networkx) & set(other.networkx):
                raise ValueError(f"NetworkX {sorted(set(networkx) & set(other.networkx))}: both {other.name} "
                                 f"and {name}")
        if checker is not None:
            fn = checker.certify(fn, name)
        REGISTRY[name] = Algorithm(name, fn, fn.__module__, cli, networkx,
                                   None if checker is None else checker.checker, bench, page, summary)
        return fn

    return wrap


def registered():
    """The registered algorithms, by name.

    Examples
    --------
    >>> import la_graph
    >>> [a.name for a in registered()][:3]
    ['apsp', 'apsp_blocks', 'betweenness_centrality']
    """
    return tuple(REGISTRY[k] for k in sorted(REGISTRY))


def cli_commands():
    """``la-graph run`` ALGO -> :class:`Algorithm`, by ALGO.

    Examples
    --------
    >>> import la_graph
    >>> list(cli_commands())[:4]
    ['apsp', 'bc', 'bfs', 'cc']
    """
    found = {a.cli.name: a for a in REGISTRY.values() if a.cli is not None}
    return {k: found[k] for k in sorted(found)}


def networkx_functions():
    """NetworkX function name -> the name of the la_graph algorithm behind it, by NetworkX name.

    Examples
    --------
    >>> import la_graph
    >>> networkx_functions()["bfs_edges"]
    'bfs'
    """
    found = {nx: a.name for a in REGISTRY.values() for nx in a.networkx}
    return {k: found[k] for k in sorted(found)}
