"""Read and write graph files.

:func:`read_edges` turns a file into an :class:`EdgeList`;
:meth:`la_graph.Graph.from_file` builds the graph from it.  :func:`write_edges`
writes a graph back.  The format comes from the extension (after a ``.gz``,
which is read as gzip; gzip data is also recognised by its magic bytes),
unless ``fmt`` names it:

* ``"mtx"``: Matrix Market ``.mtx``; directed when ``general``, undirected
  when ``symmetric`` or ``hermitian``.
* ``"edgelist"``: whitespace (SNAP) edge lists ``.txt`` ``.el`` ``.edges``
  ``.tsv``; directed (an edge list carries no word).
* ``"csv"``: ``.csv``; directed.
* ``"dimacs"``: DIMACS shortest-path ``.gr``; directed.
* ``"metis"``: METIS ``.graph``; undirected.

Rules
-----
* **Vertex ids.**  Edge lists and CSV keep ids as written (0-based), and
  ``n = max id + 1``: a file whose ids start at 1 keeps vertex 0, isolated,
  with a :class:`~la_graph.exceptions.NumberingWarning` unless ``base=`` says
  how the file is numbered (``base=1`` shifts its ids down by one).
  Matrix Market, DIMACS and METIS are 1-based and are shifted to start at 0;
  their ``n`` is the size the header declares.  Ids must be plain decimal
  integers (no sign, no decimal point) that fit in int64.
* **Weights.**  A Matrix Market ``real``/``integer`` file, a DIMACS file, a
  METIS file with edge weights (``fmt`` 1, 11, 101, 111), and an edge list or
  CSV with a third column are weighted; the rest are unweighted.  Weights must
  be finite (NaN and infinity are rejected, naming the line).  An integer
  weight (written without a decimal point or exponent) beyond 2**53 in
  magnitude is refused: float64 would round it.
* **Edge lists and CSV.**  Tokens are separated by spaces or tabs (and commas
  in CSV); lines end in LF or CRLF; blank lines are skipped, and so are lines
  whose first token starts with ``#`` or ``%`` (comments).  The first data
  line sets the number of columns, which every line must then have: two
  (``u v``) or three (``u v w``).  A file with more columns (as SNAP's
  ``soc-sign-bitcoinotc.csv``: source, target, rating, time) must say which
  are the edge's: ``usecols=(0, 1, 2)`` (source, target, weight; two columns
  for an unweighted graph); without it the file is refused rather than read
  as ``(u, v, w)`` from whatever its first three columns hold.  A first line
  of two tokens or more, none of them a number, is a header and is skipped.
* **Matrix Market.**  ``pattern`` files are unweighted, ``real`` and
  ``integer`` ones weighted; ``complex`` and ``skew-symmetric`` files are
  rejected (a graph has one real weight per edge, and skew-symmetric weights
  would be the negatives of each other); matrices must be square.  The dense
  ``array`` format is accepted: its nonzeros are the edges, as in
  :meth:`la_graph.Graph.from_scipy`.  It needs no size limit of its own,
  since every declared entry must really be in the file.  A symmetric file
  lists each edge once (the stored triangle), and so does its
  :class:`EdgeList`.
* **DIMACS** ``.gr``: ``c`` comment lines, one ``p sp N M`` line, then ``M``
  lines ``a u v w``.
* **METIS** ``.graph``: ``%`` comments, a header ``N M [fmt [ncon]]``, then
  line ``i`` (blank when vertex ``i`` has no neighbours) lists vertex ``i``'s
  neighbours, preceded by its size (``fmt`` 1xx) and its ``ncon`` weights
  (``fmt`` x1x), each neighbour followed by the edge weight for ``fmt`` xx1.
  Every edge is listed by both ends, so there must be ``2 M`` neighbour entries.
* **Bad files** raise :class:`~la_graph.exceptions.FileFormatError` naming the
  file, the 1-based line and the rule broken.  Nothing is allocated for a size
  a header merely claims: declared counts are checked against what the file
  really holds, and a declared (or implied) vertex count is checked against
  this machine's memory before anything is built.

Speed: one tokenizer serves every format, and parsing is vectorised with
numpy: ids by an 8-bytes-at-a-time decimal parser, weights exactly by the same
parser (``m * 10**p``) or, past 15 digits, by fast_matrix_market's exact
float parser.  A 3-million-edge gzip edge list reads in under a second.
fast_matrix_market reads Matrix Market headers; its body reader is faster
still, but it accepts malformed lines silently (``2 1.5 1`` is read as
row 2, column 1, value 0.5; extra columns and junk after a number are
ignored), so bodies go through the strict tokenizer here.
"""

from __future__ import annotations

import gzip
import io
import operator
import os
import re
import stat
import warnings
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _progress, _validation as V
from .exceptions import FileFormatError, InvalidArgumentError, InvalidGraphError, NumberingWarning

__all__ = ["EdgeList", "FORMATS", "EXTENSIONS", "read_edges", "write_edges"]

#: The format names ``fmt`` may take.
FORMATS = ("mtx", "edgelist", "csv", "dimacs", "metis")

#: Extension (after stripping ``.gz``) -> format name.
EXTENSIONS = {
    ".mtx": "mtx",
    ".txt": "edgelist",
    ".el": "edgelist",
    ".edges": "edgelist",
    ".tsv": "edgelist",
    ".csv": "csv",
    ".gr": "dimacs",
    ".graph": "metis",
}

_COMMENTS = {"mtx": b"%", "edgelist": b"#%", "csv": b"#%", "dimacs": b"c", "metis": b"%"}
_CHUNK = 1 << 22  # bytes read at a time
_PAD = 8  # NUL bytes kept after the text so 8-byte windows never run off the end
_BYTES_PER_VERTEX = 16  # int64 row pointers plus int64 degrees: the least a graph needs
_MAX_NUMBER_CHARS = 64  # a weight longer than this is not a number we accept


class EdgeList(NamedTuple):
    """The edges of a graph file, as :func:`read_edges` returns them.

    Attributes
    ----------
    u, v : numpy.ndarray of int64
        Edge ``k`` goes from ``u[k]`` to ``v[k]`` (0-based vertex ids).
    w : numpy.ndarray of float64 or None
        Edge weights; ``None`` for an unweighted file.
    n : int
        Number of vertices.
    directed : bool
        The file's own word (see the module notes).
    """

    u: np.ndarray
    v: np.ndarray
    w: np.ndarray | None
    n: int
    directed: bool


# ---------------------------------------------------------------------- public API
def read_edges(path, fmt=None, progress=False, *, base=None, usecols=None):
    """Read a graph file into an :class:`EdgeList`.

    Parameters
    ----------
    path : str or os.PathLike
        The file; ``.gz`` files (and any gzip data) are decompressed.
    fmt : {"mtx", "edgelist", "csv", "dimacs", "metis"}, optional
        The format; by default taken from the extension (see :data:`EXTENSIONS`);
        standard input (``/dev/stdin``) or another pipe without one is Matrix
        Market when its first line is the ``%%MatrixMarket`` banner, else an
        edge list.
    progress : bool
        Show progress on standard error: a bar of the bytes read, then the
        time spent parsing (each once it has taken 2 seconds).
    base : {None, 0, 1}
        How an edge list or CSV numbers its vertices: ``0`` keeps the ids as
        written, ``1`` shifts them down by one (an id 0 is then an error).
        ``None`` keeps them and warns (:class:`~la_graph.exceptions.NumberingWarning`)
        when the file looks 1-based: no vertex 0 and smallest id 1.  Matrix
        Market, DIMACS and METIS number from 1 by definition: ``base`` must
        stay ``None`` for them.
    usecols : sequence of 2 or 3 ints, optional
        For an edge list or CSV: the 0-based columns holding the source, the
        target and (optionally) the weight, e.g. ``(0, 1, 2)`` for a
        ``u v w time`` file.  Needed when lines have more than three columns.

    Returns
    -------
    EdgeList
        ``(u, v, w, n, directed)``.

    Raises
    ------
    FileNotFoundError
        ``path`` does not exist.
    FileFormatError
        Unknown format, or a malformed, truncated or oversized file; the message
        names the file, the line and the rule.

    Examples
    --------
    >>> import os, tempfile
    >>> from la_graph.io import read_edges
    >>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("# a comment\\n0 1 2.5\\n1\\t3 0.5\\r\\n")
    >>> e = read_edges(path)
    >>> e.u.tolist(), e.v.tolist(), e.w.tolist(), e.n, e.directed
    ([0, 1], [1, 3], [2.5, 0.5], 4, True)
    """
    path = Path(V.check_path(path))
    # standard input (a pipe) has no extension: its format is told by its first line once read
    fmt = None if fmt is None and _is_stream(path) else _format_of(path, fmt)
    if base not in (None, 0, 1) or isinstance(base, bool):
        raise InvalidArgumentError(f"base must be None, 0 or 1, got {base!r}")
    if fmt is not None:
        usecols = _check_format_options(fmt, base, usecols)
    data = _read_bytes(path, progress)
    if fmt is None:
        fmt = _sniff(data)
        usecols = _check_format_options(fmt, base, usecols)
    buf = _Buffer.of(data, str(path), comma=fmt == "csv")
    with _progress.step(progress, f"parsing {path.name}"):
        e = _READERS[fmt](buf, _COMMENTS[fmt], *(() if usecols is None else (usecols,)))
    if fmt not in ("edgelist", "csv") or e.u.size == 0:
        return e
    smallest = int(min(e.u.min(), e.v.min()))
    if base == 1:
        if smallest == 0:
            i = int(np.argmax((e.u == 0) | (e.v == 0)))
            raise FileFormatError(f"{path}: base=1, but edge {i + 1} has vertex id 0")
        return EdgeList(e.u - 1, e.v - 1, e.w, e.n - 1, e.directed)
    if base is None and smallest == 1:
        warnings.warn(f"{path} looks 1-based (no vertex 0, smallest id 1): its ids are kept, so vertex 0 is "
                      "an extra isolated vertex; pass base=1 to number from 1 (base=0 to keep them, silently)",
                      NumberingWarning, stacklevel=3)
    return e


def _check_format_options(fmt, base, usecols):
    """``usecols`` checked for ``fmt``; ``base`` and ``usecols`` apply to edge lists and CSV only."""
    if base is not None and fmt not in ("edgelist", "csv"):
        raise InvalidArgumentError(f"base= applies to edge lists and CSV; a {fmt} file numbers its vertices itself")
    return None if usecols is None else _check_usecols(usecols, fmt)


def _is_stream(path):
    """Whether ``path`` is standard input or another pipe with no known extension (its format then sniffed)."""
    name = path.name.lower()
    if os.path.splitext(name[:-3] if name.endswith(".gz") else name)[1] in EXTENSIONS:
        return False
    text = str(path)
    if text == "/dev/stdin" or text.startswith(("/dev/fd/", "/proc/self/fd/")):
        return True
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:                 # missing: the read names it
        return False


def _sniff(data):
    """The format of a stream's (gunzipped) text: Matrix Market by its ``%%MatrixMarket`` banner, else an
    edge list (the one format without a header to know it by)."""
    return "mtx" if data[:64].lstrip().lower().startswith(b"%%matrixmarket") else "edgelist"


def _check_usecols(usecols, fmt):
    if fmt not in ("edgelist", "csv"):
        raise InvalidArgumentError(f"usecols= applies to edge lists and CSV, not to a {fmt} file")
    try:
        cols = tuple(operator.index(c) for c in usecols)
    except TypeError:
        raise InvalidArgumentError(f"usecols must be 2 or 3 column numbers (source, target[, weight]), "
                                   f"got {usecols!r}") from None
    if len(cols) not in (2, 3) or min(cols) < 0 or len(set(cols)) != len(cols):
        raise InvalidArgumentError(f"usecols must be 2 or 3 distinct column numbers >= 0 (source, target[, weight]), "
                                   f"got {usecols!r}")
    return cols


def write_edges(G, path, fmt=None):
    """Write a graph to a file that :func:`read_edges` reads back.

    Matrix Market is written by fast_matrix_market (``symmetric`` with the lower
    triangle when ``G`` is undirected, ``pattern`` when unweighted).  Edge lists
    and CSV list each edge once (``u <= v`` when undirected) after a comment
    (CSV: a header line); read an undirected one back with
    ``Graph.from_file(path, directed=False)``.  They keep no vertex count, so
    trailing isolated vertices are lost (and a graph without edges reads back
    unweighted).  DIMACS lists every arc (both ways when
    undirected; weight 1 when unweighted).  METIS needs an undirected graph
    without self-loops.  Weights are written exactly (shortest round-trip
    form; integers without a decimal point).  A ``.gz`` path is gzip-compressed.

    Parameters
    ----------
    G : la_graph.Graph
    path : str or os.PathLike
    fmt : {"mtx", "edgelist", "csv", "dimacs", "metis"}, optional
        Default: from the extension.

    Examples
    --------
    >>> import os, tempfile
    >>> from la_graph.graph import Graph
    >>> from la_graph.io import read_edges, write_edges
    >>> G = Graph.from_edges([0, 1], [1, 2], w=[0.5, 2.0])
    >>> path = os.path.join(tempfile.mkdtemp(), "g.mtx.gz")
    >>> write_edges(G, path)
    >>> e = read_edges(path)
    >>> e.u.tolist(), e.v.tolist(), e.w.tolist(), e.n, e.directed
    ([1, 2], [0, 1], [0.5, 2.0], 3, False)
    >>> Graph.from_file(path) == G
    True
    """
    V.check_graph(G)
    path = Path(V.check_path(path))
    fmt = _format_of(path, fmt)
    if fmt == "metis":
        _check_metis(G)
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    with opener(path, "wb") as f:
        _WRITERS[fmt](G, f)


# ---------------------------------------------------------------------- reading bytes
def _format_of(path, fmt):
    known = ", ".join(FORMATS)
    if fmt is not None:
        if fmt not in FORMATS:
            raise FileFormatError(f"{path}: unknown format {fmt!r}; known formats: {known}")
        return fmt
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    ext = os.path.splitext(name)[1]
    if ext not in EXTENSIONS:
        exts = " ".join(EXTENSIONS)
        raise FileFormatError(
            f"{path}: unknown extension {ext or '(none)'!r}; known extensions: {exts} "
            f"(each optionally .gz), or pass fmt= one of {known}"
        )
    return EXTENSIONS[ext]


def _physical_memory():
    """Bytes of physical memory, or None where the OS does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - non-POSIX
        return None


def _size(nbytes):
    """``nbytes`` for people: '1.5 GiB'."""
    units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    while nbytes >= 1024 and len(units) > 1:
        nbytes /= 1024
        units.pop(0)
    return f"{nbytes:,.1f} {units[0]}"


def _read_bytes(path, progress):
    """The file's text (gunzipped), ending in ``\\n``, followed by ``_PAD`` NUL bytes."""
    size = path.stat().st_size  # FileNotFoundError for a missing file
    limit = _physical_memory()
    bar = _progress.bar(progress, total=size, unit="B", unit_scale=True, unit_divisor=1024,
                        desc=f"reading {path.name}", delay=0 if size > (64 << 20) else _progress.DELAY)
    chunks, total = [], 0
    try:
        with open(path, "rb") as raw:
            # peek, not read and seek back: a pipe (standard input) cannot seek
            stream = gzip.GzipFile(fileobj=raw, mode="rb") if raw.peek(2)[:2] == b"\x1f\x8b" else raw
            seekable = raw.seekable()
            while chunk := stream.read(_CHUNK):
                chunks.append(chunk)
                total += len(chunk)
                if limit is not None and total > limit:
                    raise FileFormatError(
                        f"{path}: the text is larger than this machine's memory ({_size(limit)}); it cannot be read"
                    )
                bar.update((raw.tell() if seekable else total) - bar.n)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise FileFormatError(f"{path}: corrupt or truncated gzip data ({exc})") from exc
    finally:
        bar.close()
    if chunks and not chunks[-1].endswith(b"\n"):
        chunks.append(b"\n")
    if chunks and chunks[0].startswith(b"\xef\xbb\xbf"):  # UTF-8 byte order mark
        chunks[0] = b"   " + chunks[0][3:]
    chunks.append(bytes(_PAD))
    return b"".join(chunks)


class _Buffer(NamedTuple):
    """A file's text as numpy views: bytes ``a`` and 8-byte windows ``W`` (``W[i]`` = bytes i..i+7)."""

    data: bytes
    a: np.ndarray
    W: np.ndarray
    name: str
    comma: bool

    @classmethod
    def of(cls, data, name, comma=False):
        a = np.frombuffer(data, np.uint8)[: len(data) - _PAD]
        W = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
        nul = data.find(b"\0", 0, len(data) - _PAD)
        buf = cls(data, a, W, name, comma)
        if nul >= 0:
            raise buf.error(data.count(b"\n", 0, nul) + 1, "a NUL byte: this is not a text file")
        return buf

    def error(self, line, rule):
        where = f", line {line}" if line is not None else ""
        return FileFormatError(f"{self.name}{where}: {rule}")

    def token(self, start):
        """The text of the token at byte offset ``start`` (cut at 40 characters)."""
        end = start
        stop = min(len(self.a), start + 40)
        while end < stop and self.a[end] > 32 and not (self.comma and self.a[end] == 44):
            end += 1
        text = self.data[start:end].decode("utf-8", "replace")
        return text + ("..." if end == stop < len(self.a) else "")


# ---------------------------------------------------------------------- tokenizer
class _Table(NamedTuple):
    """The tokens of a file's data lines (comment and blank lines left out)."""

    start: np.ndarray  # byte offset of every token, line after line
    count: np.ndarray  # number of tokens on each data line
    line: np.ndarray  # 1-based line number of each data line
    comments: np.ndarray  # 1-based line numbers of the comment lines
    nlines: int  # lines in the file

    def drop_first(self):
        """The table without its first data line."""
        return _Table(self.start[self.count[0] :], self.count[1:], self.line[1:], self.comments, self.nlines)

    def rows(self, buf, k, what):
        """Token offsets as an (lines, k) array; every line must hold ``k`` tokens."""
        bad = np.flatnonzero(self.count != k)
        if bad.size:
            i = bad[0]
            raise buf.error(int(self.line[i]), f"expected {k} {what}, got {self.count[i]}")
        return self.start.reshape(-1, k)

    def token_lines(self):
        """The line number of every token."""
        return np.repeat(self.line, self.count)


def _tokenize(buf, comment):
    """Split the text into tokens: runs of bytes > 32 (and not ``,`` for CSV).

    A line whose first token starts with a byte of ``comment`` is a comment.
    """
    a = buf.a
    empty = np.zeros(0, np.int64)
    if a.size == 0:
        return _Table(empty, empty, empty, empty, 0)
    word = a > 32
    if buf.comma:
        word &= a != 44
    nl = a == 10
    begin = np.empty_like(word)
    begin[0] = word[0]
    np.greater(word[1:], word[:-1], out=begin[1:])
    marks = np.flatnonzero(begin | nl)  # token starts and newlines, in order
    is_nl = nl[marks]
    start = marks[~is_nl]
    nl_at = np.flatnonzero(is_nl)
    upto = nl_at - np.arange(nl_at.size)  # tokens before the end of each line (the text ends in \n)
    count = np.diff(upto, prepend=0)
    data_lines = np.flatnonzero(count)
    count = count[data_lines]
    comments = empty
    if comment and data_lines.size:
        first = upto[data_lines] - count
        is_comment = np.isin(a[start[first]], np.frombuffer(comment, np.uint8))
        if is_comment.any():
            start = start[np.repeat(~is_comment, count)]
            comments = data_lines[is_comment] + 1
            data_lines, count = data_lines[~is_comment], count[~is_comment]
    return _Table(start, count, data_lines + 1, comments, int(nl_at.size))


# ---------------------------------------------------------------------- number parsing
_U = np.uint64
_HIGH = _U(0x8080808080808080)
_LOW7 = _U(0x7F7F7F7F7F7F7F7F)
_GE_30 = _U(0x5050505050505050)  # (b & 0x7f) + 0x50 has bit 7 set iff b >= '0'
_GE_3A = _U(0x4646464646464646)  # ... + 0x46 ... iff b > '9'
_GE_21 = _U(0x5F5F5F5F5F5F5F5F)  # ... + 0x5f ... iff b > ' '
_COMMAS = _U(0x2C2C2C2C2C2C2C2C)
_ONES = _U(0x0101010101010101)
_BYTE_OF = _U(0x0001020304050607)  # (1 << 8k) * _BYTE_OF has k in its top byte
_KEEP = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)  # low k bytes
_SHIFT = np.array([0] + [8 * (8 - k) for k in range(1, 9)], dtype=np.uint64)
_ZEROS = np.array([int.from_bytes(b"0" * (8 - k) + bytes(k), "little") for k in range(9)], dtype=np.uint64)
_POW10 = np.array([10**k for k in range(16)], dtype=np.uint64)
_FLOAT10 = np.array([10.0**k for k in range(23)])  # exact powers of ten
_SPACES = _U(0x2020202020202020)
_MAX_DIGITS = 19  # every 19-digit number fits in uint64


def _eight_digits(x):
    """Value of eight ASCII digits packed little-endian in uint64 ``x`` (first digit lowest)."""
    x = ((x & _U(0x0F0F0F0F0F0F0F0F)) * _U(2561)) >> _U(8)
    x = ((x & _U(0x00FF00FF00FF00FF)) * _U(6553601)) >> _U(16)
    return ((x & _U(0x0000FFFF0000FFFF)) * _U(42949672960001)) >> _U(32)


def _scan_uints(buf, s):
    """Read the decimal digits that start each token at byte offsets ``s``, 8 bytes at a time.

    Returns ``(value, ndigits, clean)``: the digits' value (junk beyond 19 digits),
    how many there are (counting stops at 24), and whether the token ends right
    after them (``clean`` False: another character, such as ``.`` or ``x``, follows).
    """
    clean = np.ones(s.size, bool)
    todo = None  # the tokens still being read; None: all of them
    offset = s
    for window in range(3):
        x = buf.W[offset]
        y = x & _LOW7
        nondigit = (((y + _GE_30) & ~(y + _GE_3A) & ~x) & _HIGH) ^ _HIGH
        sep = ~(y + _GE_21) & ~x & _HIGH
        if buf.comma:
            z = x ^ _COMMAS
            sep |= (z - _ONES) & ~z & _HIGH
        lowest = nondigit & (~nondigit + _U(1))
        k = (((lowest >> _U(7)) * _BYTE_OF) >> _U(56)).astype(np.intp)
        more = nondigit == 0
        k[more] = 8
        dirty = ~more & ((lowest & sep) == 0)  # the first non-digit does not end the token
        digits = _eight_digits(((x & _KEEP[k]) << _SHIFT[k]) | _ZEROS[k])
        if todo is None:
            value, ndigits = digits, k
            clean &= ~dirty
        else:
            value[todo] = value[todo] * _POW10[k] + digits
            ndigits[todo] += k
            clean[todo[dirty]] = False
        if not more.any():
            break
        todo = np.flatnonzero(more) if todo is None else todo[more]
        offset = s[todo] + 8 * (window + 1)
    else:
        clean[todo] = False  # 24 digits or more: not read to the end
    return value, ndigits, clean


def _parse_ids(buf, s, lines, *, base=0, n=None, what="vertex id", declared=""):
    """Vertex ids at byte offsets ``s`` as 0-based int64; errors name ``lines[i]``.

    ``base`` is the first id of the format (1-based ids are shifted down); ``n``,
    when given, is the declared vertex count they must not exceed.
    """
    value, ndigits, ok = _scan_uints(buf, s)
    ok &= (ndigits > 0) & (ndigits <= _MAX_DIGITS) & (value <= _U(V.INT64_MAX))
    if not ok.all():
        i = int(np.argmin(ok))
        tok = buf.token(int(s[i]))
        if tok.isdigit():
            rule = f"{what} {tok} does not fit in int64 (at most {_MAX_DIGITS} digits)"
        elif tok.startswith("-") and tok[1:].isdigit():
            rule = f"{what} {tok} is negative"
        else:
            rule = f"{what} {tok!r} is not a non-negative integer"
        raise buf.error(int(lines[i]), rule)
    ids = value.view(np.int64)
    if base:
        bad = np.flatnonzero(ids < base)
        if bad.size:
            i = bad[0]
            raise buf.error(int(lines[i]), f"{what} {ids[i]} is out of range: ids in this format start at {base}")
        ids = ids - base
    if n is not None:
        bad = np.flatnonzero(ids >= n)
        if bad.size:
            i = bad[0]
            raise buf.error(int(lines[i]), f"{what} {ids[i] + base} is out of range: {declared} declares {n} vertices")
    return ids


def _parse_weights(buf, s, lines, what="weight"):
    """Finite float64 numbers at byte offsets ``s``; errors name ``lines[i]``.

    Decimals ``[-]digits[.digits][e[+-]digits]`` are checked and converted here:
    exactly in numpy when they have at most 15 digits and a power of ten within
    10**22 (``m * 10**p`` with both exact is correctly rounded), by
    fast_matrix_market's exact parser when longer.  Anything else (``+1``,
    ``inf``, ``nan``, ...) goes through numpy's string cast, whose errors
    name the line.
    """
    a = buf.a
    negative = a[s] == ord("-")
    digits = s + negative
    p = digits  # where each token's next part starts
    mant, ndig, done = _scan_uints(buf, p)
    p = p + ndig
    scale = np.zeros(s.size, np.int64)  # the number is mant * 10**scale
    i = np.flatnonzero(~done & (a[p] == ord(".")))
    if i.size:
        frac, nfrac, done[i] = _scan_uints(buf, p[i] + 1)
        mant[i] = mant[i] * _POW10[np.minimum(nfrac, 15)] + frac  # junk past 15 digits: not used
        ndig[i] += nfrac
        scale[i] -= nfrac
        p[i] += 1 + nfrac
    i = np.flatnonzero(~done & ((a[p] | 0x20) == ord("e")))
    if i.size:
        q = p[i] + 1
        minus = a[q] == ord("-")
        q += minus | (a[q] == ord("+"))
        e, ne, done[i] = _scan_uints(buf, q)
        done[i] &= (ne > 0) & (ne <= 4)
        scale[i] += np.where(minus, -1, 1) * np.minimum(e, _U(9999)).astype(np.int64)
        p[i] = q + ne
    done &= ndig > 0
    integer = done & (p == digits + ndig)       # no decimal point, no exponent
    big = np.flatnonzero(integer & ((ndig > 19) | (mant > _U(1 << 53))))
    fast = done & (ndig <= 15) & (np.abs(scale) <= 22)
    w = mant.astype(np.float64)
    up = np.flatnonzero(fast & (scale > 0))
    w[up] *= _FLOAT10[scale[up]]
    down = np.flatnonzero(fast & (scale < 0))
    w[down] /= _FLOAT10[-scale[down]]
    long = np.flatnonzero(done & ~fast & (p - digits <= 24))
    if long.size:
        w[long] = _exact_floats(buf, digits[long], p[long] - digits[long])
        fast[long] = True
    np.negative(w, out=w, where=negative)
    other = np.flatnonzero(~fast)
    if other.size:
        w[other] = _cast_floats(buf, s[other], lines[other], what)
        for i in other[np.abs(w[other]) > 2.0**53]:     # long integers the digit scanner gave up on
            if re.fullmatch(r"[-+]?[0-9]+", buf.token(int(s[i]))):
                big = np.append(big, i)
                break
    if big.size:
        i = big.min()                                   # the first such line
        raise buf.error(int(lines[i]), f"{what} {buf.token(int(s[i]))} is an integer beyond 2**53 in magnitude, "
                                       "which float64 weights would round")
    bad = np.flatnonzero(~np.isfinite(w))
    if bad.size:
        i = bad[0]
        raise buf.error(int(lines[i]), f"{what} {buf.token(int(s[i]))} is not finite")
    return w


def _exact_floats(buf, s, length):
    """Convert checked decimal tokens of at most 24 characters with fast_matrix_market.

    Its parser is exact and fast but lenient about what follows a number, so it
    only ever sees tokens already checked: laid out one per 32-byte line.
    """
    import fast_matrix_market as fmm

    rows = np.empty((s.size, 4), np.uint64)
    last = buf.W.size - 1
    for j in range(3):
        keep = _KEEP[np.clip(length - 8 * j, 0, 8)]
        rows[:, j] = (buf.W[np.minimum(s + 8 * j, last)] & keep) | (_SPACES & ~keep)
    rows[:, 3] = _U(int.from_bytes(b" " * 7 + b"\n", "little"))
    header = f"%%MatrixMarket matrix array real general\n{s.size} 1\n".encode()
    return fmm.read_array(io.BytesIO(header + rows.tobytes())).ravel()


def _cast_floats(buf, s, lines, what):
    """Parse tokens as floats with numpy's string cast (the syntax of Python's ``float``)."""
    padded = np.frombuffer(buf.data, np.uint8)
    alive = np.ones(s.size, bool)
    columns = []
    for k in range(_MAX_NUMBER_CHARS + 1):
        c = np.take(padded, s + k, mode="clip")
        alive &= (c > 32) & ((c != 44) | (not buf.comma))
        if not alive.any():
            break
        if k == _MAX_NUMBER_CHARS:
            i = int(np.argmax(alive))
            raise buf.error(int(lines[i]), f"{what} {buf.token(int(s[i]))!r} is longer than {k} characters")
        columns.append(np.where(alive, c, 0).astype(np.uint8))
    text = np.stack(columns, axis=1).view(f"S{len(columns)}").ravel()
    try:
        return text.astype(np.float64)
    except ValueError:
        pass
    for lo in range(0, text.size, 4096):  # find the culprit: a chunk at a time, then one by one
        try:
            text[lo : lo + 4096].astype(np.float64)
            continue
        except ValueError:
            pass
        for i in range(lo, min(lo + 4096, text.size)):
            try:
                text[i : i + 1].astype(np.float64)
            except ValueError:
                t = text[i].decode("utf-8", "replace")
                raise buf.error(int(lines[i]), f"{what} {t!r} is not a number") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _check_vertices(buf, n, line, why):
    """Refuse a vertex count this machine cannot hold, before anything is allocated."""
    if n > V.INT64_MAX:
        raise buf.error(line, f"{why} n = {n} vertices, which does not fit in int64")
    have = _physical_memory()
    need = _BYTES_PER_VERTEX * (n + 1)
    if have is not None and need > have:
        raise buf.error(
            line,
            f"{why} n = {n:,} vertices; a graph that size needs at least {_size(need)} of memory "
            f"({_BYTES_PER_VERTEX} bytes a vertex), but this machine has {_size(have)}",
        )


def _check_declared(buf, declared, found, line_of_extra, what, header_line):
    """Declared entry count vs the entries found: too few is truncation, too many is an error."""
    if found < declared:
        raise buf.error(
            None,
            f"truncated file: the header (line {header_line}) declares {declared:,} {what}, the file has {found:,}",
        )
    if found > declared:
        raise buf.error(line_of_extra(), f"more {what} than the {declared:,} the header (line {header_line}) declares")


def _is_header(buf, tab):
    """Whether the first data line is a header: two tokens or more (a source and a target column's
    names), none of which starts like a number.  One token is no header: a file of one word is not an
    empty edge list."""
    if tab.count[0] < 2:
        return False
    lead = buf.a[tab.start[: tab.count[0]]]
    return not np.isin(lead, np.frombuffer(b"0123456789+-.", np.uint8)).any()


# ---------------------------------------------------------------------- readers
def _read_edgelist(buf, comment, usecols=None):
    tab = _tokenize(buf, comment)
    if tab.line.size and _is_header(buf, tab):
        tab = tab.drop_first()
    if tab.line.size == 0:
        empty = np.zeros(0, np.int64)
        return EdgeList(empty, empty.copy(), None, 0, True)
    k = int(tab.count[0])
    if usecols is None:
        if k < 2:
            raise buf.error(int(tab.line[0]), "expected 2 columns 'u v' or 3 'u v w', got 1")
        if k > 3:
            raise buf.error(int(tab.line[0]), f"{k} columns, and an edge list has 2 ('u v') or 3 ('u v w'): "
                                              f"pass usecols= to name the source, target and weight columns "
                                              f"(e.g. usecols=(0, 1, 2))")
        usecols = tuple(range(k))
    elif max(usecols) >= k:
        raise buf.error(int(tab.line[0]), f"usecols={usecols} names column {max(usecols)}, but the first line "
                                          f"has {k} columns (numbered from 0)")
    S = tab.rows(buf, k, "columns (as on the first line)")
    u = _parse_ids(buf, S[:, usecols[0]], tab.line)
    v = _parse_ids(buf, S[:, usecols[1]], tab.line)
    w = _parse_weights(buf, S[:, usecols[2]], tab.line) if len(usecols) == 3 else None
    n = int(max(u.max(), v.max())) + 1
    i = int(np.argmax(np.maximum(u, v)))
    _check_vertices(buf, n, int(tab.line[i]), f"vertex id {n - 1} implies")
    return EdgeList(u, v, w, n, True)


def _read_mtx(buf, comment):
    import fast_matrix_market as fmm

    try:
        h = fmm.read_header(io.BytesIO(buf.data))
    except (ValueError, OverflowError, RuntimeError) as exc:
        raise buf.error(None, f"bad Matrix Market header: {exc}") from None
    if h.object != "matrix":
        raise buf.error(None, f"a Matrix Market {h.object} is not a matrix: an adjacency matrix must be")
    if h.field == "complex":
        raise buf.error(None, "complex Matrix Market files are not supported: an edge has one real weight")
    if h.symmetry == "skew-symmetric":
        raise buf.error(
            None,
            "skew-symmetric Matrix Market files are not supported: the two directions of an edge "
            "would have weights of opposite sign",
        )
    if h.nrows != h.ncols:
        raise buf.error(None, f"the matrix is not square ({h.nrows} x {h.ncols}): an adjacency matrix must be")
    n = int(h.nrows)
    dense = h.format == "array"
    if dense and h.field == "pattern":
        raise buf.error(None, "a Matrix Market array cannot be of field pattern")
    symmetric = h.symmetry != "general"
    declared = (n * (n + 1) // 2 if symmetric else n * n) if dense else int(h.nnz)
    k = 1 if dense else (2 if h.field == "pattern" else 3)
    room = len(buf.a) // (2 * k)  # every entry takes k numbers and k separators
    if declared > room:
        raise buf.error(
            None,
            f"the header declares {declared:,} entries, but the file ({len(buf.a):,} bytes) can hold "
            f"at most {room:,} ({2 * k} bytes an entry): it is truncated or its header is wrong",
        )
    _check_vertices(buf, n, None, "the header declares")
    tab = _tokenize(buf, comment)
    header_line = int(tab.line[0])
    body = tab.drop_first()
    _check_declared(buf, declared, body.line.size, lambda: int(body.line[declared]), "entries", header_line)
    S = body.rows(buf, k, "numbers in an entry" if k > 1 else "number in an array entry")
    if dense:
        vals = _parse_weights(buf, S[:, 0], body.line, "value")
        _check_integers(buf, h, vals, body.line)
        pos = np.flatnonzero(vals)
        if symmetric:  # column j holds rows j..n-1
            col_start = np.cumsum(np.arange(n, 0, -1)) - np.arange(n, 0, -1)
            v = np.searchsorted(col_start, pos, side="right") - 1
            u = v + (pos - col_start[v])
        else:
            v, u = np.divmod(pos, max(n, 1))
        return EdgeList(u.astype(np.int64), v.astype(np.int64), vals[pos], n, not symmetric)
    u = _parse_ids(buf, S[:, 0], body.line, base=1, n=n, what="row index", declared="the header")
    v = _parse_ids(buf, S[:, 1], body.line, base=1, n=n, what="column index", declared="the header")
    w = None
    if h.field != "pattern":
        w = _parse_weights(buf, S[:, 2], body.line, "value")
        _check_integers(buf, h, w, body.line)
    return EdgeList(u, v, w, n, not symmetric)


def _check_integers(buf, h, w, lines):
    if "integer" in h.field:
        bad = np.flatnonzero(w != np.round(w))
        if bad.size:
            raise buf.error(int(lines[bad[0]]), f"value {w[bad[0]]} in an integer Matrix Market file")


def _read_dimacs(buf, comment):
    tab = _tokenize(buf, comment)
    if tab.line.size == 0:
        raise buf.error(None, "no 'p sp N M' line")
    hdr = int(tab.line[0])
    first = [buf.token(int(s)) for s in tab.start[: min(2, tab.count[0])]]
    if tab.count[0] != 4 or first != ["p", "sp"]:
        raise buf.error(hdr, "expected the problem line 'p sp N M' before any arc")
    n, m = (int(x) for x in _parse_ids(buf, tab.start[2:4], [hdr, hdr], what="count"))
    _check_vertices(buf, n, hdr, "the problem line declares")
    body = tab.drop_first()
    S = body.rows(buf, 4, "fields in an arc line 'a u v w'")
    bad = np.flatnonzero((buf.a[S[:, 0]] != ord("a")) | (buf.a[S[:, 0] + 1] > 32))
    if bad.size:
        i = bad[0]
        raise buf.error(int(body.line[i]), f"expected an arc line 'a u v w', got {buf.token(int(S[i, 0]))!r} first")
    _check_declared(buf, m, body.line.size, lambda: int(body.line[m]), "arcs", hdr)
    u = _parse_ids(buf, S[:, 1], body.line, base=1, n=n, declared="the problem line")
    v = _parse_ids(buf, S[:, 2], body.line, base=1, n=n, declared="the problem line")
    w = _parse_weights(buf, S[:, 3], body.line)
    return EdgeList(u, v, w, n, True)


def _read_metis(buf, comment):
    tab = _tokenize(buf, comment)
    if tab.line.size == 0:
        raise buf.error(None, "no header line 'N M [fmt [ncon]]'")
    hdr, k = int(tab.line[0]), int(tab.count[0])
    if not 2 <= k <= 4:
        raise buf.error(hdr, f"the header must be 'N M [fmt [ncon]]', got {k} numbers")
    n, m = (int(x) for x in _parse_ids(buf, tab.start[:2], [hdr, hdr], what="count"))
    code = buf.token(int(tab.start[2])) if k >= 3 else "0"
    if len(code) > 3 or set(code) - {"0", "1"}:
        raise buf.error(hdr, f"fmt {code!r} is not one of 0, 1, 10, 11, 100, 101, 110, 111")
    has_size, has_vwgt, has_ewgt = (c == "1" for c in code.zfill(3))
    ncon = int(_parse_ids(buf, tab.start[3:4], [hdr], what="ncon")[0]) if k == 4 else 1
    _check_vertices(buf, n, hdr, "the header declares")
    body = tab.drop_first()
    # vertex i is the i-th line after the header, comment lines not counted, blank lines counted
    later_comments = tab.comments[tab.comments > hdr]
    vertex = body.line - hdr - 1 - np.searchsorted(later_comments, body.line)
    extra = np.flatnonzero(vertex >= n)
    if extra.size:
        raise buf.error(int(body.line[extra[0]]), f"more vertex lines than the {n:,} the header declares")
    have = tab.nlines - hdr - later_comments.size
    if have < n:
        raise buf.error(
            None, f"truncated file: the header (line {hdr}) declares {n:,} vertices, the file has {have:,} vertex lines"
        )
    skip = int(has_size) + ncon * int(has_vwgt)
    per = 2 if has_ewgt else 1
    rest = body.count - skip
    bad = np.flatnonzero((rest < 0) | (rest % per != 0))
    if bad.size:
        i = bad[0]
        want = f"{skip} vertex size/weight values, then " if skip else ""
        want += "pairs 'neighbour weight'" if has_ewgt else "neighbours"
        raise buf.error(int(body.line[i]), f"expected {want} (fmt {code}), got {body.count[i]} numbers")
    lines = body.token_lines()
    pos = np.arange(body.start.size) - np.repeat(np.cumsum(body.count) - body.count, body.count)
    if skip:
        _parse_ids(buf, body.start[pos < skip], lines[pos < skip], what="vertex size/weight")
    nb = (pos >= skip) & ((pos - skip) % per == 0)
    found = int(np.count_nonzero(nb))
    if found != 2 * m:
        raise buf.error(
            None,
            f"the header (line {hdr}) declares {m:,} edges, so {2 * m:,} neighbour entries "
            f"(each edge is listed by both ends), but the file has {found:,}",
        )
    u = np.repeat(vertex, rest // per).astype(np.int64)
    v = _parse_ids(buf, body.start[nb], lines[nb], base=1, n=n, what="neighbour", declared="the header")
    w = None
    if has_ewgt:
        wt = (pos >= skip) & ~nb
        w = _parse_weights(buf, body.start[wt], lines[wt], "edge weight")
    return EdgeList(u, v, w, n, False)


_READERS = {
    "mtx": _read_mtx,
    "edgelist": _read_edgelist,
    "csv": _read_edgelist,
    "dimacs": _read_dimacs,
    "metis": _read_metis,
}


# ---------------------------------------------------------------------- writers
def _weight_strings(w):
    """Weights as Python numbers that print exactly: ints when all are integral."""
    if np.all(w == np.round(w)) and np.all(np.abs(w) < 2**53):
        return w.astype(np.int64).tolist()
    return w.tolist()  # str(float) is the shortest string that reads back the same


def _write_rows(f, columns, sep):
    m = len(columns[0])
    for i in range(0, m, 1 << 18):
        rows = zip(*(c[i : i + (1 << 18)] for c in columns))
        f.write(("".join(sep.join(map(str, r)) + "\n" for r in rows)).encode())


def _one_way(G):
    """Each edge once: all entries when directed, ``u <= v`` when undirected."""
    u, v = G.edges()
    w = G.weights
    if not G.directed:
        keep = u <= v
        u, v, w = u[keep], v[keep], (None if w is None else w[keep])
    return u, v, w


def _write_mtx(G, f):
    import fast_matrix_market as fmm
    import scipy.sparse as sp

    u, v = G.edges()
    w = G.weights if G.weighted else np.ones(u.size)
    if not G.directed:
        keep = u >= v  # the lower triangle
        u, v, w = u[keep], v[keep], w[keep]
    comment = f" written by la_graph: {G!r}"
    field = "real" if G.weighted else "pattern"
    symmetry = "general" if G.directed else "symmetric"
    if u.size == 0:  # fast_matrix_market marks "pattern" by empty data, so it cannot tell here
        f.write(f"%%MatrixMarket matrix coordinate {field} {symmetry}\n%{comment}\n{G.n} {G.n} 0\n".encode())
        return
    A = sp.coo_array((w, (u.astype(np.int64), v.astype(np.int64))), shape=(G.n, G.n))
    fmm.mmwrite(f, A, comment=comment, field=field, symmetry=symmetry)


def _write_table(G, f, sep):
    """An edge list (``sep=" "``, after a comment) or CSV (``sep=","``, after a header line)."""
    u, v, w = _one_way(G)
    if sep == ",":
        f.write(b"source,target" + (b",weight\n" if w is not None else b"\n"))
    else:
        kind = "directed" if G.directed else "undirected, each edge once"
        f.write(f"# la_graph edge list: n={G.n} edges={u.size} ({kind})\n".encode())
    cols = [u.tolist(), v.tolist()] + ([] if w is None else [_weight_strings(w)])
    _write_rows(f, cols, sep)


def _write_dimacs(G, f):
    u, v = G.edges()
    w = G.weights if G.weighted else np.ones(u.size)
    f.write(f"c written by la_graph: {G!r}\np sp {G.n} {u.size}\n".encode())
    _write_rows(f, [["a"] * u.size, (u + 1).tolist(), (v + 1).tolist(), _weight_strings(w)], " ")


def _check_metis(G):
    if G.directed:
        raise InvalidGraphError("METIS files hold undirected graphs; write G.to_undirected() instead")
    if G.self_loops:
        raise InvalidGraphError(f"METIS files cannot hold self-loops; the graph has {G.self_loops}")


def _write_metis(G, f):
    f.write(f"% written by la_graph: {G!r}\n{G.n} {G.nedges}{' 1' if G.weighted else ''}\n".encode())
    entries = (G.indices + 1).tolist()
    if G.weighted:
        entries = [f"{a} {b}" for a, b in zip(entries, _weight_strings(G.weights))]
    else:
        entries = list(map(str, entries))
    ptr = G.indptr.tolist()
    for i in range(0, G.n, 1 << 16):
        rows = range(i, min(G.n, i + (1 << 16)))
        f.write("".join(" ".join(entries[ptr[r] : ptr[r + 1]]) + "\n" for r in rows).encode())


_WRITERS = {
    "mtx": _write_mtx,
    "edgelist": lambda G, f: _write_table(G, f, " "),
    "csv": lambda G, f: _write_table(G, f, ","),
    "dimacs": _write_dimacs,
    "metis": _write_metis,
}
