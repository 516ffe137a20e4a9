"""The package's import structure, read from the source with ``ast`` (nothing is imported).

Rules:

* no import cycle among the modules of ``la_graph`` at import time;
* no import cycle in the whole import graph either: imports inside functions count, and so does a
  module's import of a name from its own package (``from . import x`` where ``x`` is defined in the
  package's ``__init__``), which the import-time rule skips (the package is already being imported);
* the package is built in floors (:data:`LAYERS`), and no module imports one of a floor above its own,
  anywhere (functions included), except :data:`UPWARD`: ``la_graph.graph`` looking up the engine
  registry (``la_graph.engines``, which loads the engines by name, ``importlib``, never by an import
  statement);
* ``la_graph.graph`` imports no engine at import time (not even through another module);
* no engine module imports an algorithm module, anywhere (functions included);
* only the engines (``la_graph/engines/``) and the native CUDA baselines
  (``la_graph/bench/native/``) import the backends (:data:`BACKENDS`), anywhere.

What runs at import time: every import statement outside a function body
(class bodies run, ``if TYPE_CHECKING:`` blocks do not).  ``import a.b.c`` and
``from a.b.c import x`` run ``a.b.c`` and the packages on the way to it that
are not the importer's own ancestors (those are already being imported);
``from pkg import x`` imports ``pkg.x`` when that is a module, else ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "la_graph"
BACKENDS = ("graphblas", "cupy", "cupyx", "numba", "dask", "distributed", "dask_cuda")
#: where backend imports belong (the checkers' compiled references too: loops of their own, no engine code)
BACKEND_HOMES = ("la_graph.engines", "la_graph.bench.native", "la_graph._verify_kernels")


def package_modules(root=ROOT, package=PACKAGE):
    """Module name -> source path, for every module of ``package`` under ``root``."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = package_modules()


def _within(name, prefix):
    return name == prefix or name.startswith(prefix + ".")


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree, module_level):
    """The import statements of ``tree``: at module level only (outside function bodies), or all."""
    found = []

    def visit(node):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            if module_level and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if module_level and isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            visit(child)

    visit(tree)
    return found


def _absolute(module, node):
    """The module an ``ImportFrom`` names, made absolute."""
    if not node.level:
        return node.module
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def raw_imports(module, module_level=True):
    """``(imported name, line)`` of ``module``'s import statements, absolute, external ones included.

    ``from p import x`` gives ``p.x`` when that is one of our modules, else ``p``.
    """
    tree = ast.parse(MODULES[module].read_text(), filename=str(MODULES[module]))
    out = []
    for node in _statements(tree, module_level):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
            continue
        source = _absolute(module, node)
        for alias in node.names:
            sub = f"{source}.{alias.name}"
            out.append((sub if sub in MODULES else source, node.lineno))
    return out


def imports(module, module_level=True):
    """``{our module: line}`` that importing ``module`` runs (see the module docstring)."""
    out = {}
    for name, line in raw_imports(module, module_level):
        if not _within(name, PACKAGE):
            continue
        parts = name.split(".")
        for i in range(2, len(parts) + 1):       # the packages on the way, then the module itself
            target = ".".join(parts[:i])
            if target in MODULES and target != module and not _within(module, target):
                out.setdefault(target, line)
    return out


def import_graph():
    """Module -> {module it imports at import time: line}."""
    return {m: imports(m) for m in MODULES}


def _where(module, line):
    return f"{MODULES[module].relative_to(ROOT)}:{line}"


def _path(graph, start, goal_test):
    """The shortest import chain from ``start`` to a module passing ``goal_test`` (``start`` itself only
    through at least one import: a cycle), as a list of modules; None when there is none."""
    came = {start: None}
    queue = [start]
    for m in queue:
        for t in graph[m]:
            if goal_test(t):
                chain = [m]
                while came[chain[-1]] is not None:
                    chain.append(came[chain[-1]])
                return chain[::-1] + [t]
            if t not in came:
                came[t] = m
                queue.append(t)
    return None


def _describe(graph, chain):
    return " -> ".join(f"{a} ({_where(a, graph[a][b])})" for a, b in zip(chain, chain[1:])) + f" -> {chain[-1]}"


def cycles(graph):
    """One cycle (a list of modules, first == last) per strongly connected group of modules."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def connect(v):                               # Tarjan; the graph has ~100 nodes
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph[v]:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    out = []
    for group in groups:
        inside = {m: {t: ln for t, ln in graph[m].items() if t in group} for m in group}
        start = group[0]
        out.append(_path(inside, start, lambda t, s=start: t == s) or [start, start])
    return out


def test_the_walker_sees_the_package():
    graph = import_graph()
    assert {"la_graph", "la_graph.graph", "la_graph.engines", "la_graph.algorithms", "la_graph.bench"} <= set(graph)
    assert "la_graph.graph" in graph["la_graph"]                       # __init__ imports Graph
    assert "la_graph._validation" in graph["la_graph.graph"]          # from . import _validation as V


def test_cycles_are_found():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}, "e": {"e": 5}}
    assert sorted(cycles(graph)) == [["a", "b", "c", "a"], ["e", "e"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles at import time:\n" + "\n".join(_describe(graph, c) for c in found)


def test_graph_imports_no_engine():
    graph = import_graph()
    chain = _path(graph, "la_graph.graph", lambda t: _within(t, "la_graph.engines"))
    assert chain is None, "importing la_graph.graph imports an engine: " + _describe(graph, chain)


def test_engines_import_no_algorithm():
    bad = [f"{_where(m, line)}: imports {name}"
           for m in MODULES if _within(m, "la_graph.engines")
           for name, line in raw_imports(m, module_level=False) if _within(name, "la_graph.algorithms")]
    assert not bad, "engine modules importing algorithms (functions included):\n" + "\n".join(bad)


def test_only_engines_import_backends():
    bad = [f"{_where(m, line)}: imports {name}"
           for m in MODULES if not any(_within(m, home) for home in BACKEND_HOMES)
           for name, line in raw_imports(m, module_level=False) if name.split(".")[0] in BACKENDS]
    assert not bad, (f"imports of {', '.join(BACKENDS)} outside {' and '.join(BACKEND_HOMES)} "
                     "(functions included):\n" + "\n".join(bad))


# -------------------------------------------------------------------- the whole import graph, by floors
#: the floors, lowest first: a module belongs to the floor of its longest listed prefix
LAYERS = (
    # 0. imports nothing of la_graph but another of these
    ("la_graph.exceptions", "la_graph._validation", "la_graph._keys", "la_graph._random", "la_graph._progress"),
    # 1. the graph container, its files and generators, the bundled data, the profiler
    ("la_graph.graph", "la_graph.io", "la_graph.generators", "la_graph.data", "la_graph.profile"),
    # 2. the engines: they take Graphs (the dask engine's DistributedGraph is one, its loaders read files with io)
    ("la_graph.engines",),
    # 3. the result checkers (the algorithms' check=True calls them; no engine)
    ("la_graph.verify", "la_graph._verify_kernels"),
    # 4. the algorithms, on the engines' operator interface
    ("la_graph.algorithms",),
    # 5. what users run: the package's front, the command line, the NetworkX backend, benchmarks, examples
    ("la_graph", "la_graph.cli", "la_graph.nx_backend", "la_graph.bench", "la_graph.examples"),
)
#: the imports allowed to point to a higher floor, each (importer, imported) with why
UPWARD = {
    # Graph.from_cupy / from_graphblas / to_graphblas hand their work to the engine that owns those objects
    # (the bodies are la_graph.engines.{cpu,gpu}.interop): the registry, looked up when called
    ("la_graph.graph", "la_graph.engines"),
}


def full_imports(module):
    """``{our module: line}`` that ``module`` imports anywhere (functions included), with the packages on the
    way, and its own ancestor package where it imports a name defined there (``from . import x``)."""
    out = {}
    for name, line in raw_imports(module, module_level=False):
        if not _within(name, PACKAGE):
            continue
        parts = name.split(".")
        for i in range(2, len(parts) + 1):
            target = ".".join(parts[:i])
            if target in MODULES and target != module and (not _within(module, target) or i == len(parts)):
                out.setdefault(target, line)
    return out


def full_graph():
    """Module -> {module it imports anywhere: line} (see :func:`full_imports`)."""
    return {m: full_imports(m) for m in MODULES}


def layer(module):
    """The index in :data:`LAYERS` of ``module``'s floor (its longest listed prefix); None if unlisted."""
    best = None
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if _within(module, p) and (best is None or len(p) > len(best[1])):
                best = (i, p)
    return None if best is None else best[0]


def test_the_whole_graph_counts_imports_in_functions_and_from_the_own_package():
    graph = full_graph()
    assert "la_graph.engines" in graph["la_graph.graph"]              # Graph.from_cupy's registry lookup
    assert "la_graph.engines" not in import_graph()["la_graph.graph"]
    assert "la_graph.engines.dask" not in graph["la_graph.engines.dask.spmd"]   # spmd builds on objects/operators


def test_no_import_cycle_anywhere():
    graph = full_graph()
    found = cycles(graph)
    assert not found, "import cycles (imports inside functions included):\n" + "\n".join(
        _describe(graph, c) for c in found)


def test_every_module_has_a_floor():
    assert [m for m in MODULES if layer(m) is None] == []


def test_no_import_goes_up_a_floor():
    graph = full_graph()
    bad = [f"{_where(m, line)}: {m} (floor {layer(m)}) imports {t} (floor {layer(t)})"
           for m, targets in graph.items() for t, line in targets.items()
           if layer(t) > layer(m) and (m, t) not in UPWARD]
    assert not bad, "imports of a higher floor (see LAYERS):\n" + "\n".join(bad)


def test_the_allowed_upward_imports_are_still_needed():
    graph = full_graph()
    assert [(m, t) for m, t in sorted(UPWARD) if t not in graph[m]] == []

