"""Graphs built on the Dask workers: edge files read in parallel chunks, R-MAT generated in place.

Both loaders hand the work out in *chunks*, one task each, spread over the
workers; a chunk's edges never travel to the client:

1. a chunk task makes its edges: :func:`read_edges` reads and parses a byte
   range of the file, :func:`rmat` draws a fixed share of the R-MAT edges;
2. the chunk's edges are routed by the engine's layout (both directions of an
   undirected edge) into one piece per block of the ``s x s`` grid, where the
   chunk was made;
3. the pieces of block ``(i, j)`` travel to the worker that holds the block and
   are built there into one local matrix: duplicate edges keep the smallest
   weight (unweighted: one entry), self-loops are kept, once.  A directed graph
   gets the blocks of its transpose built alike; an undirected one's transpose
   is the matrix itself;
4. entries, self-loops, degrees and the weights' range are counted block by
   block, and the client receives the scalars and the degree arrays (``8 n``
   bytes each).

The result is a :class:`~la_graph.engines.dask.graph.DistributedGraph`, whose
matrices are filed in its cache under the engine, so ``lg.bfs``,
``lg.connected_components``, ``lg.pagerank`` and ``lg.sssp`` (and the other
algorithms written in the operator interface alone) run on it with that engine.

Files
-----
The workers open the file themselves: ``path`` must name the same file on every
worker (a shared or replicated filesystem: NFS, Lustre, a local disk on a
one-machine cluster).  The client reads none of it.  The rules of the
whitespace edge lists are :mod:`la_graph.io`'s, applied by the same parser:
lines ``u v`` or ``u v w`` (every line with the first line's column count),
separated by spaces or tabs, LF or CRLF; blank lines and lines whose first
token starts with ``#`` or ``%`` are skipped; a first line of the file all of
whose tokens are not numbers is a header and is skipped; ids are plain decimal
integers; weights finite.  Errors name the file and the line.

Chunk rule: the file is cut every ``chunk_bytes`` bytes; a chunk begins after
the first newline at or after its start offset (the first chunk at byte 0) and
ends with the line that crosses its end offset, so every line is read by
exactly one chunk.  Compressed files cannot be cut so: a gzip file is refused
(decompress it first, or use :meth:`la_graph.Graph.from_file`).

Examples
--------
>>> import os, tempfile
>>> import la_graph as lg
>>> from distributed import Client, LocalCluster
>>> from la_graph.engines.dask import DaskEngine, read_edges
>>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
>>> client = Client(cluster)
>>> E = DaskEngine(client)
>>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
>>> with open(path, "w") as f:
...     _ = f.write("# u v w\\n0 1 2.5\\n1 2 0.5\\n2 0 1.0\\n2 3 4.0\\n")
>>> G = read_edges(E, path, chunk_bytes=16)
>>> G
DistributedGraph(n=4, edges=4, undirected, weighted, grid=2)
>>> lg.sssp(G, 0, engine=E).distance.tolist()
[0.0, 1.5, 1.0, 5.0]
>>> client.close(); cluster.close()
"""

from __future__ import annotations

import os
import time

import numpy as np

from ... import _random
from ... import _validation as V
from ... import generators as _gen
from ... import io as _io
from ...exceptions import FileFormatError, InvalidArgumentError, OutOfDeviceMemory
from .. import get_engine
from . import tasks
from .engine import DaskEngine
from .graph import from_blocks
from .layout import Layout
from .objects import DMatrix

__all__ = ["read_edges", "rmat", "lean_build_bytes", "DEFAULT_CHUNK_BYTES", "DEFAULT_CHUNK_EDGES"]

#: bytes of the file one read_edges task parses
DEFAULT_CHUNK_BYTES = 64 << 20
#: R-MAT edges one rmat task draws (part of the graph's definition: see rmat)
DEFAULT_CHUNK_EDGES = 1 << 20

_COMMENT = b"#%"
_GZIP = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_EXTEND = 1 << 16          # bytes read at a time past a chunk's end, to the line's newline
_COUNT = 1 << 24           # bytes read at a time when counting newlines (for an error's line number)
# bytes of lines parsed at once, whatever chunk_bytes is: the parser's temporaries take several times
# the text.  Not smaller: Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_ set, so every large
# numpy temporary is fresh, page-faulting memory, and there a 59 MB weighted edge list parsed in
# 1.1 s as 64 MiB slices, 1.9 s as 8 MiB ones (0.8 s and 0.6 s in a process without the setting)
_SLICE = 64 << 20


def _engine(engine):
    E = get_engine(engine if engine is not None else "dask")
    if not isinstance(E, DaskEngine):
        raise InvalidArgumentError(f"read_edges and rmat build a graph on the workers of a dask engine, got the "
                                   f"{E.name!r} engine; pass a DaskEngine (or 'dask')")
    return E


def _flag(value, what):
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(f"{what} must be True or False, got {value!r}")
    return bool(value)


# ---------------------------------------------------------------------- reading files
def read_edges(engine, path, *, directed=False, weighted=None, n=None, base=0, chunk_bytes=DEFAULT_CHUNK_BYTES):
    """Read a whitespace edge list on the workers, in parallel chunks, into a distributed graph.

    The workers read and parse byte ranges of the file and build the graph's
    blocks where they live (see the module docstring for the file rules and
    the chunk rule); the client receives only counts and the degree arrays.

    Parameters
    ----------
    engine : DaskEngine or "dask"
        The engine whose workers read the file and hold the graph.
    path : str or os.PathLike
        An uncompressed edge list (``u v`` or ``u v w`` lines), readable under
        this path by every worker (a shared filesystem); a relative path is
        made absolute on the client.
    directed : bool
        ``False`` (default) stores every edge in both directions.
    weighted : bool or None
        ``None`` (default): weighted when the lines have a third column;
        ``False`` ignores a third column; ``True`` requires one.
    n : int, optional
        Number of vertices (every id must be below it); default ``1 + the
        largest id`` (found by the workers: only that number reaches the client).
    base : {0, 1}
        ``1``: the file numbers vertices from 1 (ids are shifted down; an id 0
        is an error).
    chunk_bytes : int
        Bytes of the file per task (default 64 MiB); each task needs a few
        times that in memory while it parses.

    Returns
    -------
    DistributedGraph
        Duplicate edges merged (a weighted duplicate keeps the smallest
        weight), self-loops kept: the graph ``Graph.from_file(path, directed)``
        would build.

    Raises
    ------
    FileNotFoundError
        A worker cannot find ``path``.
    InvalidArgumentError
        A gzip file (it cannot be read in chunks), or a bad argument.
    FileFormatError
        A malformed line; the message names the file and the line.

    Notes
    -----
    Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_`` set, which
    makes every large numpy temporary fresh, page-faulting memory: parsing ran
    about 3 times slower in such workers than with the variable unset (a
    cluster's ``distributed.nanny.pre-spawn-environ`` setting).

    Examples
    --------
    See the module docstring.
    """
    E = _engine(engine)
    path = os.path.abspath(os.fsdecode(os.fspath(path)))
    directed = _flag(directed, "directed")
    if weighted is not None:
        weighted = _flag(weighted, "weighted")
    if base not in (0, 1) or isinstance(base, bool):
        raise InvalidArgumentError(f"base must be 0 or 1, got {base!r}")
    if n is not None:
        n = V.check_int(n, "n", 0, _gen.MAX_VERTICES)
    chunk_bytes = V.check_int(chunk_bytes, "chunk_bytes", 1)
    if path.lower().endswith(".gz"):
        raise InvalidArgumentError(_gzip_message(path))
    p = E.placement
    size, head, columns, header = E._gather([E._submit(p.workers[0], _probe, path, weighted)])[0]
    if head == _GZIP:
        raise InvalidArgumentError(_gzip_message(path))
    nchunks = max(1, -(-size // chunk_bytes))
    where = [p.workers[c % len(p.workers)] for c in range(nchunks)]
    use_weights = columns == 3 if weighted is None else weighted
    parsed = [E._submit(where[c], _parse_chunk, path, c * chunk_bytes, min(size, (c + 1) * chunk_bytes), size,
                  columns, header, base, n, use_weights) for c in range(nchunks)]
    infos = E._gather([E._submit(w, _chunk_info, f) for w, f in zip(where, parsed)])
    if n is None:
        n = 1 + max((top for _, top in infos), default=-1)
        if n > _gen.MAX_VERTICES:
            raise FileFormatError(f"{path}: vertex id {n - 1} implies n = {n:,} vertices, more than a graph can "
                                  f"have (n * n must fit in int64)")
    edges = sum(m for m, _ in infos)
    return _build(E, parsed, where, n, directed, use_weights, edges)     # (it frees ``parsed``)


def _gzip_message(path):
    return (f"{path} is gzip-compressed: a compressed file cannot be split into byte ranges, and read_edges "
            "reads a file in chunks on the workers; decompress it first (gunzip), or read it on one machine "
            "with la_graph.Graph.from_file")


# ---------------------------------------------------------------------- generating R-MAT
def rmat(engine, scale, edge_factor=16, *, a=0.57, b=0.19, c=0.19, seed=0, directed=False, weights=None,
         self_loops=False, chunk_edges=DEFAULT_CHUNK_EDGES, method="auto"):
    """A Graph500 R-MAT graph with ``2**scale`` vertices, generated on the workers.

    ``edge_factor * 2**scale`` edges are drawn as :func:`la_graph.generators.rmat`
    draws them (one quadrant per level with probabilities ``a, b, c, d``), in
    chunks of ``chunk_edges``: chunk ``k`` draws from a numpy Generator seeded
    with ``(seed, k)``, so the graph depends on the arguments and not on the
    number of workers.  Vertex ids are scrambled by a seeded pseudo-random
    permutation (a Feistel bijection), so the hubs are not the low ids; generated
    self-loops are dropped (unless ``self_loops``) and duplicates merged.
    Each worker builds the pieces of its chunks and the blocks are assembled
    where they live, as in :func:`read_edges`.  The graph differs from
    ``la_graph.generators.rmat`` with the same seed (which draws one stream).

    Parameters
    ----------
    engine : DaskEngine or "dask"
    scale : int
        ``log2`` of the number of vertices, ``0 .. 31``.
    edge_factor : int
        Edges drawn per vertex (Graph500: 16).
    a, b, c : float
        Quadrant probabilities; ``a + b + c < 1``.
    seed : int
        A non-negative integer.
    directed : bool
        ``False`` (default) makes every edge two-way.
    weights : None, "uniform" or (int, int)
        ``"uniform"``: floats in ``[1, 100)``; ``(low, high)``: integers in
        ``low .. high``.  A weight is a hash of ``(seed, edge)``, so duplicates
        of an edge (and, undirected, its two directions) get the same weight.
        ``"unique"`` (a permutation of ``1 .. m``) needs a global ranking of
        the edges and is not offered here.
    self_loops : bool
        Keep generated self-loops.
    chunk_edges : int
        Edges per task; part of the graph's definition (another value draws
        another graph).  ``method="replicated"`` draws the same graph whatever it
        is: there it is the edges a worker draws at a time and the entries it
        sorts at a time, its scratch (a few hundred bytes each); on GPUs, larger
        chunks take fewer kernel launches (``2**24`` for graphs of billions of edges).
    method : {"auto", "chunks", "replicated"}
        ``"chunks"``: as above, each chunk drawn once and its edges sent to their
        blocks' workers.  ``"replicated"``: *every* worker draws every edge, on its
        own device (GPU workers draw on the GPU), and keeps those of its own
        blocks -- no edge travels, at the price of drawing the graph once per
        worker.  Its draws are a counter-based hash of ``(seed, edge number,
        level)``, so it makes another graph than ``"chunks"`` (the same on CPU
        and GPU workers, for any number of them and any ``chunk_edges``).  Each
        worker builds its blocks in place (the *lean build*: every edge drawn
        twice, once to count each row's entries and once to put them in place),
        with about its blocks' final size plus ``chunk_edges`` times a few hundred
        bytes of scratch; see :func:`lean_build_bytes` for the memory model (R-MAT
        26 fits one 80 GB GPU) and the check that refuses a build that cannot
        fit.  ``"auto"``: ``"replicated"`` on GPU workers, ``"chunks"`` otherwise.

    Returns
    -------
    DistributedGraph
        With ``method="replicated"``, ``G.build_stats`` holds each worker's
        build: ``{worker: {"blocks", "rows", "drawn_entries", "entries",
        "model_peak_bytes", "model_resident_bytes", "count_s", "fill_s",
        "sort_s", "blocks_s"[, "peak_device_bytes", "device_used_growth_bytes"]}}``
        (the last two on GPU workers: CuPy's pool high-water mark during the build).

    Raises
    ------
    OutOfDeviceMemory
        ``method="replicated"`` on GPU workers: a worker's blocks do not fit its
        free device memory (the message names the bytes needed and free).

    Examples
    --------
    >>> import la_graph as lg
    >>> from distributed import Client, LocalCluster
    >>> from la_graph.engines.dask import DaskEngine, rmat
    >>> cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    >>> client = Client(cluster)
    >>> E = DaskEngine(client)
    >>> G = rmat(E, 10, seed=7, weights=(1, 9), chunk_edges=4096)
    >>> G.n, G.nedges <= 16 * 1024, G.weight_range()[:2]
    (1024, True, (1.0, 9.0))
    >>> H = G.to_graph()
    >>> H == rmat(E, 10, seed=7, weights=(1, 9), chunk_edges=4096).to_graph()
    True
    >>> client.close(); cluster.close()
    """
    E = _engine(engine)
    scale = V.check_int(scale, "scale", 0, _gen.MAX_SCALE)
    edge_factor = V.check_int(edge_factor, "edge_factor", 0)
    a, b, c = (V.check_real(x, name, low=0.0, high=1.0) for x, name in ((a, "a"), (b, "b"), (c, "c")))
    if a + b + c >= 1.0 - 1e-12:
        raise InvalidArgumentError(
            f"R-MAT probabilities need a + b + c < 1 (d = 1 - a - b - c > 0), got a + b + c = {a + b + c!r}")
    seed = _random.check_seed(seed)
    directed, self_loops = _flag(directed, "directed"), _flag(self_loops, "self_loops")
    if isinstance(weights, str) and weights == "unique":
        raise InvalidArgumentError("weights='unique' (a permutation of 1..m) needs a global ranking of the "
                                   "distinct edges, which the workers do not have; use 'uniform' or a "
                                   "(low, high) range")
    weights = _gen._weight_spec(weights)
    chunk_edges = V.check_int(chunk_edges, "chunk_edges", 1)
    if method not in ("auto", "chunks", "replicated"):
        raise InvalidArgumentError(f"method must be 'auto', 'chunks' or 'replicated', got {method!r}")
    if method == "auto":
        method = "replicated" if E.local == "gpu" else "chunks"
    n = 1 << scale
    m = edge_factor * n
    if method == "replicated":
        return _replicated(E, scale, m, (a, a + b, a + b + c), seed, directed, weights, self_loops, chunk_edges)
    nchunks = max(1, -(-m // chunk_edges))
    p = E.placement
    where = [p.workers[k % len(p.workers)] for k in range(nchunks)]
    scramble = _scramble_key(seed)
    chunks = [E._submit(where[k], _rmat_chunk, scale, min(chunk_edges, m - k * chunk_edges), (a, a + b, a + b + c),
                   seed, k, scramble, directed, weights, self_loops) for k in range(nchunks)]
    return _build(E, chunks, where, n, directed, weights is not None, m)


def _replicated(E, scale, m, thresholds, seed, directed, weights, self_loops, chunk_edges):
    """rmat(method="replicated"): each worker draws all ``m`` edges and builds its own blocks."""
    p = E.placement
    s, n = p.s, 1 << scale
    if E.local != "gpu":             # GPU workers hold the blocks on their devices and check those themselves
        E._check_memory(n, m * (1 if directed else 2), 8 if weights is not None else 1)
    L = E.layout(n)
    made = {}
    for w in p.workers:
        mine = [(i, j) for i in range(s) for j in range(s) if p.block(i, j) == w]
        made[w] = E._submit(w, _rmat_own_blocks, scale, m, thresholds, seed, _scramble_key(seed), directed, weights,
                            self_loops, L, s, mine, chunk_edges)

    def blocks(which):
        return DMatrix((n, n), [[E._submit(p.block(i, j), tasks.pick, made[p.block(i, j)], (which, i, j))
                                 for j in range(s)] for i in range(s)], p)

    A = blocks("A")
    AT = blocks("AT") if directed else A
    stats = [E._submit(w, tasks.pick, made[w], "stats") for w in p.workers]
    made.clear()
    G = from_blocks(E, A, AT, n, directed, weights is not None)
    G.build_stats = dict(zip(p.workers, E._gather(stats)))
    return G


# ---------------------------------------------------------------------- chunks to blocks
def _build(E, chunks, where, n, directed, weighted, edges):
    """The DistributedGraph of the edge chunks ``chunks`` (futures of ``(u, v, w, ...)`` on ``where``)."""
    p = E.placement
    s, L = p.s, E.layout(n)
    E._check_memory(n, edges * (1 if directed else 2), 8 if weighted else 1)
    routed = [E._submit(w, _route, f, L, s, directed, weighted) for w, f in zip(where, chunks)]
    chunks.clear()                          # each chunk's edges are freed once routed
    pieces = [[E._submit(w, tasks.pick, r, b) for b in range(s * s)] for w, r in zip(where, routed)]
    routed.clear()
    lengths = L.lengths()

    def blocks(transpose):
        return DMatrix((n, n), [[E._submit(p.block(i, j), _build_block, (int(lengths[i]), int(lengths[j])),
                                           weighted, transpose,
                                           *[pc[(j * s + i) if transpose else (i * s + j)] for pc in pieces])
                                 for j in range(s)] for i in range(s)], p)

    A = blocks(False)
    AT = blocks(True) if directed else A
    pieces.clear()
    return from_blocks(E, A, AT, n, directed, weighted)


# ---------------------------------------------------------------------- on the workers
def _probe(name, path, weighted):
    """``(size, first two bytes, columns, header)`` of the file, as a worker sees it.

    ``columns``: the token count of the first data line (0: no data line), which
    every line must have; ``header``: the byte offset of the first data line's
    first token when that line is a header (no token is a number: it is
    skipped), else None.
    """
    size = os.stat(path).st_size
    with open(path, "rb") as f:
        head = f.read(2)
        if head == _GZIP:
            return size, head, 0, None
        f.seek(0)
        offset, header = 0, None
        for number, line in enumerate(f, 1):
            if number == 1 and line.startswith(_BOM):
                line = b"   " + line[3:]
            try:
                buf = _io._Buffer.of(line.rstrip(b"\n") + b"\n" + bytes(_io._PAD), path)
            except FileFormatError as exc:
                raise _renumber(exc, path, number) from None
            tab = _io._tokenize(buf, _COMMENT)
            if tab.line.size:
                if header is None and _io._is_header(buf, tab):
                    header = offset + int(tab.start[0])
                else:
                    return size, head, _check_columns(path, number, int(tab.count[0]), weighted), header
            offset += len(line)
    return size, head, 0, header


def _check_columns(path, line, k, weighted):
    if k not in (2, 3):
        raise FileFormatError(f"{path}, line {line}: {k} columns: an edge list has 2 ('u v') or 3 ('u v w')")
    if weighted and k == 2:
        raise FileFormatError(f"{path}, line {line}: weighted=True, but the lines have 2 columns ('u v'): "
                              "no weights")
    return k


def _read_range(path, start, end, size):
    """``(text, offset)``: the lines of chunk ``[start, end)`` (see the chunk rule) and where they begin."""
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
        begin = start
        if start > 0:
            i = data.find(b"\n")
            if i < 0:                              # inside a line an earlier chunk reads
                return b"", end
            begin = start + i + 1
        parts = [memoryview(data)[begin - start:]]
        if end < size:
            while more := f.read(_EXTEND):         # to the first newline at or after ``end``, included
                k = more.find(b"\n")
                if k >= 0:
                    parts.append(more[:k + 1])
                    break
                parts.append(more)
    return b"".join(parts), begin


def _parse_chunk(name, path, start, end, size, columns, header, base, n, weights):
    """Chunk ``[start, end)`` of the file parsed: ``(u, v, w)``, ``w`` None unless ``weights``.

    ``columns`` and ``header`` are :func:`_probe`'s.
    """
    text, begin = _read_range(path, start, end, size)
    parts, at = [], 0
    while at < len(text):                       # a slice of lines at a time
        stop = len(text) if len(text) - at <= _SLICE else (text.find(b"\n", at + _SLICE) + 1 or len(text))
        try:
            parts.append(_parse_text(text[at:stop], path, begin + at, columns, header, base, n, weights))
        except FileFormatError as exc:
            raise _renumber(exc, path, _newlines_before(path, begin) + text.count(b"\n", 0, at) + 1) from None
        at = stop
    if len(parts) == 1:
        return parts[0]
    empty = np.zeros(0, np.int64)
    u = np.concatenate([empty] + [q[0] for q in parts])
    v = np.concatenate([empty] + [q[1] for q in parts])
    w = np.concatenate([np.zeros(0)] + [q[2] for q in parts if q[2] is not None]) if weights else None
    return u, v, w


def _parse_text(text, path, begin, columns, header, base, n, weights):
    empty = np.zeros(0, np.int64)
    if begin == 0 and text.startswith(_BOM):
        text = b"   " + text[3:]
    if text and not text.endswith(b"\n"):
        text += b"\n"
    buf = _io._Buffer.of(text + bytes(_io._PAD), path)
    tab = _io._tokenize(buf, _COMMENT)
    if header is not None and tab.line.size and begin + int(tab.start[0]) == header:
        tab = tab.drop_first()
    if tab.line.size == 0 or columns == 0:
        return empty, empty, None
    S = tab.rows(buf, columns, "columns (as on the first line)")
    declared = "read_edges(n=...)"
    u = _io._parse_ids(buf, S[:, 0], tab.line, base=base, n=n, declared=declared)
    v = _io._parse_ids(buf, S[:, 1], tab.line, base=base, n=n, declared=declared)
    w = _io._parse_weights(buf, S[:, 2], tab.line) if weights else None
    return u, v, w


def _renumber(exc, path, first):
    """``exc`` with the line number of a text whose line 1 is the file's line ``first`` made the file's."""
    msg, prefix = str(exc), f"{path}, line "
    if not msg.startswith(prefix):
        return exc
    rel, rest = msg[len(prefix):].split(":", 1)
    return FileFormatError(f"{prefix}{first - 1 + int(rel)}:{rest}")


def _newlines_before(path, offset):
    count = 0
    with open(path, "rb") as f:
        while offset > 0:
            block = f.read(min(_COUNT, offset))
            if not block:
                break
            count += block.count(b"\n")
            offset -= len(block)
    return count


def _chunk_info(name, parsed):
    """``(edges, largest id)`` of a parsed chunk (-1: none)."""
    u, v, _ = parsed
    return int(u.size), (int(max(u.max(), v.max())) if u.size else -1)


def _rmat_chunk(name, scale, count, thresholds, seed, k, scramble, directed, weights, self_loops):
    """Chunk ``k`` of R-MAT's edges: ``count`` drawn from ``default_rng((seed, k))``, ids scrambled, weighted."""
    rng = np.random.default_rng([seed, k])
    u, v = _gen._rmat_edges(scale, count, thresholds, rng)
    u, v = u.astype(np.int64), v.astype(np.int64)
    if not self_loops:
        keep = u != v
        u, v = u[keep], v[keep]
    n = 1 << scale
    P = Layout(n, 2, scramble)
    u, v = P.position(u), P.position(v)
    w = None if weights is None else _edge_weights(u, v, n, directed, weights, seed)
    return u, v, w


def _hashed_rmat_edges(xp, scale, first, count, thresholds, seed):
    """R-MAT edges ``first .. first + count - 1`` as uint64 arrays ``(u, v)`` of ``xp`` (numpy or CuPy):
    level ``l`` of edge ``e`` picks its quadrant with the top 32 bits of
    ``splitmix64((e * 64 + l) ^ key(seed))`` against the thresholds ``a, a+b, a+b+c``."""
    t1, t2, t3 = (np.uint64(min(int(t * 2.0**32), 2**32 - 1)) for t in thresholds)
    key = np.uint64(int(_random.splitmix64(np.uint64(seed) ^ np.uint64(0x2A7B1E5))))
    e = (xp.arange(count, dtype=np.uint64) + np.uint64(first)) << np.uint64(6)
    u = xp.zeros(count, np.uint64)
    v = xp.zeros(count, np.uint64)
    for level in range(scale):
        r = _random.splitmix64((e + np.uint64(level)) ^ key) >> np.uint64(32)
        q = (r >= t1).astype(np.uint64) + (r >= t2) + (r >= t3)
        u = (u << np.uint64(1)) | (q >> np.uint64(1))
        v = (v << np.uint64(1)) | (q & np.uint64(1))
    return u, v


def _rmat_own_blocks(name, scale, m, thresholds, seed, scramble, directed, weights, self_loops, layout, s, mine,
                     chunk_edges):
    """This worker's blocks of the replicated R-MAT (:func:`rmat`), built in place by the lean build (see
    :func:`lean_build_bytes`); ``{("A", i, j): block, ("AT", i, j): ..., "stats": {...}}``."""
    E = get_engine(name)
    with E.memory_watch() as watch:
        out = _lean_build(E, name, scale, m, thresholds, seed, scramble, directed, weights, self_loops,
                          tasks._kept(layout), s, mine, chunk_edges)
    out["stats"].update(watch)
    return out


def _array_module(name):
    """The array module of a local engine's data: CuPy for the GPU engine, numpy otherwise."""
    if name == "gpu":
        import cupy    # optional (GPU workers only): loaded where it runs
        return cupy
    return np


def _device_free(name):
    """``(free bytes, device label)`` of a GPU worker's device (CuPy's cached blocks released first); None on
    host engines, whose memory the client checks against the workers' limits."""
    if name != "gpu":
        return None
    import cupy     # GPU workers only: the GPU engine's modules load where they run

    from ..gpu.memory import free_device_bytes
    return free_device_bytes(), f"GPU {cupy.cuda.runtime.getDevice()}"


def _check_room(name, model, what):
    """Refuse, with the bytes needed, a lean build whose model peak exceeds the device's free memory."""
    room = _device_free(name)
    if room is not None and model["peak"] > room[0]:
        raise OutOfDeviceMemory(
            f"{what} needs about {model['peak']:,} bytes of GPU memory at its peak ({model['resident']:,} for the "
            f"finished blocks, the rest the build's arrays and scratch), but only {room[0]:,} bytes are free on "
            f"{room[1]}; use more GPU workers (each then holds a smaller share of the graph), a smaller "
            f"chunk_edges (less scratch), or a smaller graph")


def _row_runs(xp, rows):
    """``(order, sorted rows, run heads, run starts)``: ``rows`` sorted, and the runs of equal rows in them."""
    order = xp.argsort(rows)
    r = rows[order]
    head = xp.ones(r.size, dtype=bool)
    head[1:] = r[1:] != r[:-1]
    return order, r, head, head.nonzero()[0]


def _run_lengths(xp, starts, size):
    return xp.diff(xp.concatenate([starts, xp.asarray([size], dtype=starts.dtype)]))


def _cuts(xp, indptr, budget):
    """Row boundaries (host int64, from 0 to the last row) of ranges of about ``budget`` entries and at most
    ``budget`` rows (a row longer than the budget is a range of its own)."""
    rows, total = indptr.size - 1, int(indptr[-1])
    at = xp.searchsorted(indptr, xp.arange(0, total, budget, dtype=np.int64), side="right") - 1
    at = at.get() if hasattr(at, "get") else at
    return np.unique(np.concatenate([at, np.arange(0, rows, budget, dtype=np.int64), [rows]]))


def _range_rows(xp, ptr, size):
    """Local row of each of ``size`` entries of a CSR range whose offsets (from 0) are ``ptr``."""
    return xp.searchsorted(ptr, xp.arange(size, dtype=np.int64), side="right") - 1


def _lean_build(E, name, scale, m, thresholds, seed, scramble, directed, weights, self_loops, layout, s, mine,
                chunk_edges):
    """The lean block build (:func:`lean_build_bytes`): count, fill, sort and merge, blocks."""
    xp = _array_module(name)
    n = 1 << scale
    P = Layout(n, 2, scramble)
    targets = [("A", i, j) for i, j in mine] + ([("AT", i, j) for i, j in mine] if directed else [])
    lengths = layout.lengths()
    shapes = [(int(lengths[i]), int(lengths[j])) for _, i, j in targets]
    rowoff = np.zeros(len(targets) + 1, np.int64)
    rowoff[1:] = np.cumsum([r for r, _ in shapes])
    R = int(rowoff[-1])
    if max((c for _, c in shapes), default=0) > 1 << 31:
        raise InvalidArgumentError("the lean build keeps column ids in 32 bits: a block has more than 2**31 columns")
    tables = {}                         # per kind, (su * s + sv) -> the target holding such an entry, or -1
    for which in ("A", "AT") if directed else ("A",):
        table = np.full(s * s, -1, np.int64)
        for t, (w, i, j) in enumerate(targets):
            if w == which:
                table[i * s + j if which == "A" else j * s + i] = t      # AT (i, j) holds A's entries of (j, i)
        tables[which] = xp.asarray(table)
    offsets = xp.asarray(rowoff[:-1])
    budget = max(1, min(chunk_edges, 1 << 30))         # entries (and rows) of a range being sorted
    what = (f"rmat(scale={scale}): the lean build of {len(targets)} block{'s' * (len(targets) != 1)} "
            f"({R:,} rows) on this worker")
    # up front: the graph's entries shared evenly over the blocks (before merging duplicates)
    drawn = m * (1 if directed else 2) * len(targets) // (s * s)
    _check_room(name, lean_build_bytes(R, drawn, drawn, len(targets), weights is not None, chunk_edges), what)

    def entries(first, count):
        """Combined rows and local columns of this worker's entries among edges ``first .. first+count-1``."""
        u, v = _hashed_rmat_edges(xp, scale, first, count, thresholds, seed)
        if not self_loops:
            keep = u != v
            u, v = u[keep], v[keep]
        u, v = P.position(u.astype(np.int64)), P.position(v.astype(np.int64))
        if not directed:
            off = u != v
            u, v = xp.concatenate([u, v[off]]), xp.concatenate([v, u[off]])
        su, lu = layout.locate(u)
        sv, lv = layout.locate(v)
        del u, v
        block = su * s + sv
        del su, sv
        rows, cols = [], []
        for which, table in tables.items():
            t = table[block]
            sel = (t >= 0).nonzero()[0]
            r, c = (lu, lv) if which == "A" else (lv, lu)
            rows.append(offsets[t[sel]] + r[sel])
            cols.append(c[sel].astype(np.int32))
        return xp.concatenate(rows), xp.concatenate(cols)

    clock = {}
    t0 = time.perf_counter()
    # 1. count each row's entries, chunk by chunk
    counts = xp.zeros(R, np.int64)
    for first in range(0, m if targets else 0, chunk_edges):
        rows, _ = entries(first, min(chunk_edges, m - first))
        _, r, _, starts = _row_runs(xp, rows)
        counts[r[starts]] += _run_lengths(xp, starts, r.size)
        del rows, r, starts
    indptr = xp.zeros(R + 1, np.int64)
    xp.cumsum(counts, out=indptr[1:])
    del counts
    drawn = int(indptr[-1])
    E.synchronize()
    clock["count_s"] = time.perf_counter() - t0
    _check_room(name, lean_build_bytes(R, drawn, drawn, len(targets), weights is not None, chunk_edges), what)
    # 2. draw again and put each entry's column in place: a cursor per row
    t0 = time.perf_counter()
    cols_of = xp.empty(drawn, np.int32)
    cursor = indptr[:-1].copy()
    for first in range(0, m if targets else 0, chunk_edges):
        rows, cols = entries(first, min(chunk_edges, m - first))
        order, r, head, starts = _row_runs(xp, rows)
        del rows
        rank = xp.arange(r.size, dtype=np.int64) - starts[xp.cumsum(head, dtype=np.int64) - 1]
        cols_of[cursor[r] + rank] = cols[order]
        cursor[r[starts]] += _run_lengths(xp, starts, r.size)
        del order, r, head, starts, rank, cols
    del cursor
    E.synchronize()
    clock["fill_s"] = time.perf_counter() - t0
    # 3. sort each row's columns and merge duplicates, a range of rows at a time, compacting in place
    t0 = time.perf_counter()
    cuts = _cuts(xp, indptr, budget)
    old = indptr[xp.asarray(cuts)]
    old = old.get() if hasattr(old, "get") else old
    kept = 0
    for k in range(cuts.size - 1):
        r0, r1, a, b = int(cuts[k]), int(cuts[k + 1]), int(old[k]), int(old[k + 1])
        ptr = indptr[r0:r1 + 1].copy()       # indptr[r0] is already the new offset: the old one is a
        ptr[0] = a
        ptr -= a
        keys = (_range_rows(xp, ptr, b - a) << 32) | cols_of[a:b].astype(np.int64)
        del ptr
        keys.sort()
        if keys.size:
            first = xp.ones(keys.size, dtype=bool)
            first[1:] = keys[1:] != keys[:-1]
            keys = keys[first]
            del first
        cols_of[kept:kept + keys.size] = (keys & 0xFFFFFFFF).astype(np.int32)   # never past what is read
        if keys.size:
            xp.cumsum(xp.bincount(keys >> 32, minlength=r1 - r0), out=indptr[r0 + 1:r1 + 1])
            indptr[r0 + 1:r1 + 1] += kept
        else:
            indptr[r0 + 1:r1 + 1] = kept
        kept += int(keys.size)
        del keys
    E.synchronize()
    clock["sort_s"] = time.perf_counter() - t0
    # 4. the blocks: each its rows' offsets and columns, copied to the local engine's types; weights hashed
    t0 = time.perf_counter()
    out = {}
    for t, (which, i, j) in enumerate(targets):
        r0, r1 = int(rowoff[t]), int(rowoff[t + 1])
        a, b = int(indptr[r0]), int(indptr[r1])
        ptr = indptr[r0:r1 + 1] - a
        cols = cols_of[a:b]
        values = True
        if weights is not None:
            values = _block_weights(xp, ptr, cols, layout, i, j, which == "AT", n, directed, weights, seed, budget)
        out[which, i, j] = E._matrix_from_csr(ptr, cols, values, *shapes[t],
                                              dtype=bool if weights is None else np.float64)
        del ptr, cols, values
    del cols_of, indptr
    E.synchronize()
    clock["blocks_s"] = time.perf_counter() - t0
    model = lean_build_bytes(R, drawn, kept, len(targets), weights is not None, chunk_edges)
    out["stats"] = {"blocks": len(targets), "rows": R, "drawn_entries": drawn, "entries": kept,
                    "model_peak_bytes": model["peak"], "model_resident_bytes": model["resident"], **clock}
    return out


def _block_weights(xp, ptr, cols, layout, i, j, transpose, n, directed, spec, seed, budget):
    """The weights of block ``(i, j)``'s entries (CSR ``ptr``, ``cols``), hashed from the vertex ids of their
    ends as :func:`_edge_weights` hashes them when the edges are drawn, a range of rows at a time.
    ``transpose``: an AT block, whose entry ``(r, c)`` is the edge ``c -> r``."""
    w = xp.empty(cols.size, np.float64)
    cuts = _cuts(xp, ptr, budget)
    bounds = ptr[xp.asarray(cuts)]
    bounds = bounds.get() if hasattr(bounds, "get") else bounds
    base_r, base_c = int(layout.bounds[i]), int(layout.bounds[j])
    for k in range(cuts.size - 1):
        r0, a, b = int(cuts[k]), int(bounds[k]), int(bounds[k + 1])
        if a == b:
            continue
        rows = _range_rows(xp, ptr[r0:int(cuts[k + 1]) + 1] - a, b - a) + (base_r + r0)
        ru = layout.index(rows)
        cv = layout.index(cols[a:b].astype(np.int64) + base_c)
        u, v = (cv, ru) if transpose else (ru, cv)
        w[a:b] = _edge_weights(u, v, n, directed, spec, seed)
    return w


#: scratch bytes of the lean build (measured with tracemalloc on numpy, about 165 / 20 / 250, with room for
#: CuPy's sort buffers): per edge of a chunk being drawn, routed and grouped by row (passes 1 and 2) ...
DRAW_SCRATCH = 200
#: ... per entry of a range of rows being sorted (pass 3), and per entry of a range being weighted (pass 4)
SORT_SCRATCH = 40
WEIGHT_SCRATCH = 300
_INT32_MAX = 2**31 - 1


def lean_build_bytes(rows, drawn, entries, blocks, weighted, chunk_edges):
    """Device bytes of the lean build of one worker's blocks: ``{"peak", "resident", <pass>: bytes}``.

    The replicated :func:`rmat` builds each worker's blocks in place, in four passes over all
    of them at once (their rows stacked: ``rows`` in all):

    1. *count*: every edge is drawn, chunk by chunk (``chunk_edges`` at a time: the counter
       hash makes any chunk reproducible), routed to its block, and each row's entries counted
       (``8 rows`` bytes of counts);
    2. *fill*: the counts' prefix sum is the row offsets (int64); every edge is drawn again
       and its column written in place behind a cursor per row (``4 drawn`` bytes of int32
       columns, ``8 rows`` of cursors);
    3. *sort*: a range of rows at a time (about ``chunk_edges`` entries), the keys
       ``row << 32 | column`` sorted and duplicates dropped, the columns compacted in place
       and the offsets rewritten (``drawn`` entries become ``entries``);
    4. *blocks*: each block's offsets and columns copied into the local engine's index type
       (int32 where a block's entries and sides fit, else int64: the GPU engine's rule) and,
       weighted, its weights hashed from its entries' vertex ids a range at a time.

    Peak per pass (``c = chunk_edges``; ``it`` the index bytes, ``w`` 8 if weighted else 0)::

        count   8 rows + DRAW_SCRATCH c
        fill    16 rows + 4 drawn + DRAW_SCRATCH c
        sort    8 rows + 4 drawn + SORT_SCRATCH c
        blocks  8 rows + 4 drawn + resident + 8 rows / blocks + (WEIGHT_SCRATCH c if weighted)
        resident = it (rows + blocks) + (it + w) entries

    The peak is the blocks pass: the finished blocks plus ``4 drawn + 8 rows`` (the columns as
    drawn and the row offsets), and the weights' scratch.  The R-MAT of the Graph500 (edge
    factor 16, undirected: ``drawn = 2 m`` shared over the grid's blocks; ``entries`` from
    the share of duplicates, measured up to scale 24 -- 0.947 of ``drawn`` at 21, 0.970 at
    24 -- and extrapolated: 0.979 at 26, 0.986 at 28, 0.988 at 29), ``chunk_edges = 2**24``,
    GB (1e9 bytes) on the busiest worker, unweighted / weighted::

        graph   GPUs  grid  blocks  index   resident       peak
        rmat26   1     1      1     int32    8.7 / 25.5   18.3 / 40.2
        rmat26   2     2      2     int32    4.5 / 12.9    9.6 / 23.0
        rmat26   4     2      1     int32    2.2 /  6.4    6.0 / 14.2
        rmat28   1     1      1     int64   69.9 / 138   109  / 181
        rmat28   2     2      2     int32   18.0 / 51.9   38.4 / 77.3
        rmat28   4     2      1     int32    9.0 / 25.9   19.7 / 41.7
        rmat29   4     2      1     int64   36.1 / 70.0   57.6 / 96.6
        rmat29   4     4      4     int32   19.1 / 53.1   41.7 / 80.7
        rmat29   8     4      2     int32    9.6 / 26.5   21.4 / 43.4

    (The old build kept its pieces as int64 COO and sorted them: about 70 GB for R-MAT 26
    on one GPU.)  On 80 GB H100s, then, R-MAT 26 fits one GPU (weighted too), R-MAT 28 four,
    and R-MAT 29 four unweighted, best on a 4 x 4 grid (``DaskEngine(grid=4)``), whose blocks
    stay under 2**31 entries and keep int32 indices; the algorithms need room beside it.
    Before pass 1 a GPU worker checks the model, with its blocks' even share of the drawn
    entries, against its free device memory, and after pass 1 again with the exact counts:
    a build that cannot fit is refused with :class:`~la_graph.exceptions.OutOfDeviceMemory`
    naming the bytes (host workers are checked by the client against their memory limits).

    Examples
    --------
    >>> b = lean_build_bytes(1 << 26, 1 << 31, 2_102_000_000, 1, False, 1 << 24)
    >>> round(b["resident"] / 1e9, 1), round(b["peak"] / 1e9, 1)
    (8.7, 18.3)
    """
    w = 8 if weighted else 0
    it = 4 if entries / max(blocks, 1) <= _INT32_MAX else 8
    resident = it * (rows + blocks) + (it + w) * entries
    out = {"count": 8 * rows + DRAW_SCRATCH * chunk_edges,
           "fill": 16 * rows + 4 * drawn + DRAW_SCRATCH * chunk_edges,
           "sort": 8 * rows + 4 * drawn + SORT_SCRATCH * chunk_edges,
           "blocks": 8 * rows + 4 * drawn + resident + 8 * rows // max(blocks, 1)
           + (WEIGHT_SCRATCH * chunk_edges if weighted else 0)}
    out["peak"], out["resident"] = max(out.values()), resident
    return {k: int(v) for k, v in out.items()}


def _scramble_key(seed):
    """The seed of the layout whose permutation scrambles R-MAT's vertex ids (not the engine's own)."""
    return int(_random.splitmix64(np.uint64(seed) ^ np.uint64(0x5EED5CA1AB1E)))


def _edge_weights(u, v, n, directed, spec, seed):
    """A weight per edge from a hash of ``(seed, edge)``: equal for duplicates and for both directions."""
    lo, hi = (u, v) if directed else ((u < v) * u + (u >= v) * v, (u < v) * v + (u >= v) * u)  # numpy or CuPy
    with np.errstate(over="ignore"):
        key = lo.astype(np.uint64) * np.uint64(n) + hi.astype(np.uint64)
        h = _random.splitmix64(key ^ _random.splitmix64(np.uint64(seed)))
    if spec == "uniform":
        low, high = _gen.UNIFORM_WEIGHT_RANGE
        return low + (high - low) * ((h >> np.uint64(11)).astype(np.float64) * 2.0 ** -53)
    low, high = spec
    return (low + (h % np.uint64(high - low + 1)).astype(np.int64)).astype(np.float64)


def _route(name, chunk, layout, s, directed, weighted):
    """A chunk's edges split by block: ``s * s`` pieces ``(local rows, local cols[, weights])``.

    Undirected: every edge also as ``v -> u`` (a self-loop once).  Local ids are
    int32 where the segments allow.
    """
    u, v, w = chunk[:3]
    if weighted and w is None:                 # a chunk without lines
        w = np.zeros(u.size)
    narrow = np.int32 if layout.size <= np.iinfo(np.int32).max else np.int64
    su, lu = _locate(layout, u, narrow)
    sv, lv = _locate(layout, v, narrow)
    if not directed:
        off = u != v
        su, sv = np.concatenate([su, sv[off]]), np.concatenate([sv, su[off]])
        lu, lv = np.concatenate([lu, lv[off]]), np.concatenate([lv, lu[off]])
        if weighted:
            w = np.concatenate([w, w[off]])
    kind = np.uint8 if s * s <= 1 << 8 else np.uint16 if s * s <= 1 << 16 else np.uint32
    key = su.astype(kind) * kind(s) + sv                   # a radix sort in split
    return tasks.split(key, s * s, lu, lv, *((w,) if weighted else ()))


def _locate(layout, ids, dtype):
    """``(segment, local index)`` of ``ids`` (uint8/uint16 segments, ``dtype`` local indices), through the
    worker's copy of ``layout`` (whose permutation tables are built once and kept)."""
    seg, local = tasks._kept(layout).locate(ids)
    return seg.astype(np.uint8 if layout.parts <= 256 else np.uint16), local.astype(dtype, copy=False)


def _build_block(name, shape, weighted, transpose, *pieces):
    """Block of ``shape`` from its pieces (``transpose``: rows and columns swapped); duplicates keep the min."""
    E = get_engine(name)
    rows = np.concatenate([p[0] for p in pieces]).astype(np.int64)
    cols = np.concatenate([p[1] for p in pieces]).astype(np.int64)
    if transpose:
        rows, cols = cols, rows
    if weighted:
        w = np.concatenate([p[2] for p in pieces])
        return E.matrix_from_coo(rows, cols, w, shape[0], shape[1], dup="min", dtype=np.float64)
    return E.matrix_from_coo(rows, cols, True, shape[0], shape[1], dtype=bool)

