"""Benchmark graphs by name: generated families, the real graphs of the shared data folder, variants.

A name is a base graph followed by ``:``-separated modifiers::

    rmat20                 R-MAT scale 20, edge factor 16, seed 20 (Graph500 parameters), undirected
    rmat22:dir             the same generator, directed
    rmat20:w1-255          integer weights drawn uniformly from 1..255 (seeded by the name)
    usroads-48:dir         an undirected graph taken as a symmetric directed one
    uk-2007-05:sym         a directed graph symmetrized
    er2700-850k:dir:w1-1000

Bases: ``rmatS`` (``rmat(S, 16, seed=S)``), ``uniformS`` (``uniform(2**S, 8 * 2**S,
seed=1)``: the n = 4M, m = 32M graph of the GPU papers at S = 22), ``gridK``
(K x K lattice), ``delaunayN`` (Delaunay triangulation of N random points, a planar
road-like graph; ``k`` and ``M`` suffixes allowed), ``circulantN`` (offsets 1, 2, 3, 4), ``hypercubeD``,
``cavemanCxS`` and ``ccavemanCxS`` (C cliques of S vertices, disjoint /
in a ring), ``erN-M`` (Erdős–Rényi G(n, p) with p chosen for M expected
edges; ``k`` and ``M`` suffixes allowed), ``karate`` (bundled), and any file of
the data folder by the start of its name (``uk-2007-05``, ``usroads-48``,
``soc-Slashdot0902``, ``facebook``, ...).  The data folder is ``$LA_GRAPH_DATA``,
else ``../shared/data`` beside the repository.

Examples
--------
>>> from la_graph.bench.graphs import build
>>> build("grid3:w1-9")
Graph(n=9, edges=12, undirected, weighted)
>>> build("rmat8:dir").directed
True
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path

import numpy as np

from .. import data, generators as gen
from ..exceptions import InvalidArgumentError
from ..graph import Graph

_SUFFIX = {"k": 1_000, "M": 1_000_000}


def data_dir():
    """The folder of real graphs: ``$LA_GRAPH_DATA``, else ``../shared/data`` beside the repository."""
    env = os.environ.get("LA_GRAPH_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "data"


def _count(text):
    m = re.fullmatch(r"(\d+)([kM]?)", text)
    if not m:
        raise InvalidArgumentError(f"bad count {text!r} in a graph name (digits with an optional k or M)")
    return int(m.group(1)) * _SUFFIX.get(m.group(2), 1)


def _er(n, m, directed):
    pairs = n * (n - 1) if directed else n * (n - 1) // 2
    return gen.erdos_renyi(n, min(1.0, m / pairs), seed=n, directed=directed)


# pattern -> (builder(match, directed) , directed generator?)
_FAMILIES = [
    (r"rmat(\d+)", lambda m, d: gen.rmat(int(m[1]), 16, seed=int(m[1]), directed=d), True),
    (r"uniform(\d+)", lambda m, d: gen.uniform(2 ** int(m[1]), 8 * 2 ** int(m[1]), seed=1, directed=d), True),
    (r"er(\d+[kM]?)-(\d+[kM]?)", lambda m, d: _er(_count(m[1]), _count(m[2]), d), True),
    (r"grid(\d+)", lambda m, d: gen.grid_2d(int(m[1]), int(m[1])), False),
    (r"delaunay(\d+[kM]?)", lambda m, d: gen.delaunay(_count(m[1]), seed=1), False),
    (r"circulant(\d+[kM]?)", lambda m, d: gen.circulant(_count(m[1]), [1, 2, 3, 4]), False),
    (r"hypercube(\d+)", lambda m, d: gen.hypercube(int(m[1])), False),
    (r"caveman(\d+)x(\d+)", lambda m, d: gen.caveman(int(m[1]), int(m[2])), False),
    (r"ccaveman(\d+)x(\d+)", lambda m, d: gen.connected_caveman(int(m[1]), int(m[2])), False),
]


def family(name):
    """The family of a graph name: ``"rmat"``, ``"grid"``, ..., or ``"real"``."""
    base = name.split(":")[0]
    for pat, _, _ in _FAMILIES:
        if re.fullmatch(pat, base):
            return re.match(r"[a-z]+", base).group(0)
    return "real"


#: how the data folder's files that need it are read: SNAP's signed Bitcoin network lists
#: source, target, rating and time; its edges are the first three.
READ_OPTIONS = {"soc-sign-bitcoinotc": {"usecols": (0, 1, 2)}}


def read_options(path):
    """Graph.from_file keywords for a data-folder file (by its name up to the first dot)."""
    return READ_OPTIONS.get(Path(path).name.split(".")[0], {})


def find_file(base):
    """The data file for a real graph name (the file whose name starts with ``base.`` or ``base_``)."""
    root = data_dir()
    if not root.is_dir():
        raise FileNotFoundError(f"no data folder at {root} (set LA_GRAPH_DATA)")
    hits = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "README.md"
                  and (p.name.startswith(base + ".") or p.name.startswith(base + "_")))
    if not hits:
        raise FileNotFoundError(f"no graph file named {base}.* or {base}_* under {root}")
    return hits[0]


def _weighted(G, lo, hi, seed):
    rows, cols = G.edges()
    if not G.directed:
        keep = rows <= cols
        rows, cols = rows[keep], cols[keep]
    w = np.random.default_rng(seed).integers(lo, hi, size=rows.size, endpoint=True).astype(np.float64)
    return Graph.from_edges(rows, cols, w, n=G.n, directed=G.directed)


def build(name):
    """Build the graph called ``name`` (see the module docstring)."""
    base, *mods = name.split(":")
    bad = [m for m in mods if m not in ("dir", "sym") and not re.fullmatch(r"w\d+-\d+", m)]
    if bad:
        raise InvalidArgumentError(f"unknown graph modifier {bad[0]!r} in {name!r} (dir, sym, wLO-HI)")
    directed = "dir" in mods
    for pat, make, directed_gen in _FAMILIES:
        m = re.fullmatch(pat, base)
        if m:
            G = make(m, directed and directed_gen)
            break
    else:
        path = data.path(base) if base in data.names() else find_file(base)
        G = Graph.from_file(path, **read_options(path))
    if directed and not G.directed:
        G = Graph.from_scipy(G.to_scipy(), directed=True, weighted=G.weighted)
    if "sym" in mods:
        G = G.to_undirected()
    for mod in mods:
        if mod.startswith("w"):
            lo, hi = map(int, mod[1:].split("-"))
            G = _weighted(G, lo, hi, zlib.crc32(name.encode()))
    return G
