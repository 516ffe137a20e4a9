"""Tests of la_graph.io: every format, its errors, round trips, and the shared real graphs."""

from __future__ import annotations

import gzip
import os
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from la_graph.bench.graphs import read_options
from la_graph.exceptions import FileFormatError, InvalidArgumentError, InvalidGraphError
from la_graph.graph import Graph
from la_graph.io import EXTENSIONS, FORMATS, EdgeList, read_edges, write_edges

MM_PATTERN_SYM = "%%MatrixMarket matrix coordinate pattern symmetric\n"
MM_REAL = "%%MatrixMarket matrix coordinate real general\n"


def put(tmp_path, name, text, gz=False):
    """Write ``text`` (str or bytes) to ``tmp_path/name``, gzip-compressed when ``gz``."""
    data = text.encode() if isinstance(text, str) else text
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def fails(path, *needles, fmt=None):
    """Assert that reading ``path`` raises FileFormatError naming the file and every needle."""
    with pytest.raises(FileFormatError) as info:
        read_edges(path, fmt=fmt)
    msg = str(info.value)
    assert str(path) in msg, msg
    for needle in needles:
        assert needle in msg, f"{needle!r} not in {msg!r}"
    return msg


def edges(e):
    """The edge list as a sorted list of tuples, for comparisons."""
    w = [None] * len(e.u) if e.w is None else e.w.tolist()
    return sorted(zip(e.u.tolist(), e.v.tolist(), w))


# ---------------------------------------------------------------------- format choice
def test_formats_and_extensions():
    assert set(FORMATS) == {"mtx", "edgelist", "csv", "dimacs", "metis"}
    assert set(EXTENSIONS.values()) == set(FORMATS)


@pytest.mark.parametrize("name", ["g.txt", "g.el", "g.edges", "g.tsv", "G.TXT", "g.txt.gz", "g.el.GZ"])
def test_edgelist_extensions(tmp_path, name):
    p = put(tmp_path, name, "0 1\n1 2\n", gz=name.lower().endswith(".gz"))
    assert edges(read_edges(p)) == [(0, 1, None), (1, 2, None)]


def test_unknown_extension_lists_known_ones(tmp_path):
    p = put(tmp_path, "g.xyz", "0 1\n")
    fails(p, "'.xyz'", ".mtx", ".graph", "metis")
    fails(put(tmp_path, "noext", "0 1\n"), "(none)")


def test_unknown_fmt(tmp_path):
    p = put(tmp_path, "g.txt", "0 1\n")
    fails(p, "'gml'", "edgelist", "dimacs", fmt="gml")


def test_fmt_overrides_extension(tmp_path):
    p = put(tmp_path, "g.dat", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")
    e = read_edges(p, fmt="mtx")
    assert edges(e) == [(0, 1, None)] and e.n == 2 and e.directed


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_edges(tmp_path / "nope.txt")


@pytest.mark.parametrize("path", [None, 3, ["g.txt"]])
def test_path_that_is_not_a_file_name(path):
    with pytest.raises(InvalidArgumentError, match=r"path must be a file name \(a str or os.PathLike\), got "):
        read_edges(path)                              # was pathlib's TypeError
    with pytest.raises(InvalidArgumentError, match="path must be a file name"):
        write_edges(Graph.from_edges([0], [1]), path)


def test_bytes_path(tmp_path):
    p = put(tmp_path, "g.txt", "0 1\n")
    assert edges(read_edges(str(p).encode())) == [(0, 1, None)]


def test_gzip_recognised_without_gz_extension(tmp_path):
    p = put(tmp_path, "g.txt", "0 1\n", gz=True)
    assert edges(read_edges(p)) == [(0, 1, None)]


def test_corrupt_gzip(tmp_path):
    data = gzip.compress(b"0 1\n" * 1000)
    p = put(tmp_path, "g.txt.gz", data[: len(data) // 2])
    fails(p, "gzip")


def test_progress_bar(tmp_path, capsys, monkeypatch):
    from la_graph import _progress

    monkeypatch.setattr(_progress, "DELAY", 0)        # bars appear after DELAY seconds
    p = put(tmp_path, "g.txt", "0 1\n1 2\n")
    assert edges(read_edges(p, progress=True)) == [(0, 1, None), (1, 2, None)]
    assert "reading g.txt" in capsys.readouterr().err


def test_nul_byte_is_rejected(tmp_path):
    fails(put(tmp_path, "g.txt", b"0 1\n1 2\n\0\0\0\n"), "line 3", "NUL")


# ---------------------------------------------------------------------- edge lists and CSV
def test_edgelist_comments_crlf_blank_tabs(tmp_path):
    text = "# SNAP header\r\n% another comment\r\n\r\n0\t1\r\n  2   3  \r\n\t\r\n4\t \t5\r\n# trailing comment"
    e = read_edges(put(tmp_path, "g.txt", text))
    assert edges(e) == [(0, 1, None), (2, 3, None), (4, 5, None)]
    assert e.n == 6 and e.directed and e.w is None
    assert e.u.dtype == np.int64 and e.v.dtype == np.int64


def test_edgelist_weighted(tmp_path):
    e = read_edges(put(tmp_path, "g.el", "0 1 2.5\n1 2 -3\n2 0 1e-3\n0 0 +4\n"))
    assert edges(e) == [(0, 0, 4.0), (0, 1, 2.5), (1, 2, -3.0), (2, 0, 0.001)]
    assert e.w.dtype == np.float64


def test_edgelist_one_based_ids_keep_vertex_zero(tmp_path):
    e = read_edges(put(tmp_path, "g.txt", "1 2\n2 3\n"))
    assert e.n == 4 and edges(e) == [(1, 2, None), (2, 3, None)]


def test_edgelist_extra_columns_and_header(tmp_path):
    path = put(tmp_path, "g.tsv", "from\tto\tweight\ttime\n0\t1\t5\t99.5\n1\t2\t6\t100\n")
    assert edges(read_edges(path, usecols=(0, 1, 2))) == [(0, 1, 5.0), (1, 2, 6.0)]
    with pytest.raises(FileFormatError, match="line 2: 4 columns"):
        read_edges(path)


def test_edgelist_empty(tmp_path):
    for text in ("", "# nothing\n\n", "source target\n"):
        e = read_edges(put(tmp_path, "g.txt", text))
        assert e.n == 0 and e.u.size == 0 and e.v.size == 0 and e.w is None


@pytest.mark.parametrize("name, text", [("g.txt", "notgzip"), ("g.txt", "garbage\n"), ("g.csv", "x\n")])
def test_one_word_is_no_header(tmp_path, name, text):
    """A line of one word names no source and target columns: was skipped as a header, leaving an empty graph."""
    fails(put(tmp_path, name, text), "line 1: expected 2 columns 'u v' or 3 'u v w', got 1")


def test_edgelist_large_ids(tmp_path):
    e = read_edges(put(tmp_path, "g.txt", "123456789 0\n0 99999999\n0000000000000000007 1\n"))
    assert e.u.tolist() == [123456789, 0, 7] and e.v.tolist() == [0, 99999999, 1]
    assert e.n == 123456790


def test_csv_bitcoin_like(tmp_path):
    text = "6,2,4,1289241911.72836\n6,5,-2,1289241941.53378\n1, 15 ,1,1289243140.39049\r\n"
    path = put(tmp_path, "g.csv.gz", text, gz=True)
    e = read_edges(path, usecols=(0, 1, 2))
    assert edges(e) == [(1, 15, 1.0), (6, 2, 4.0), (6, 5, -2.0)]
    assert e.n == 16 and e.directed
    # a four-column file is not guessed at: read as (u, v, w) = (id, u, v) it would be a different graph
    with pytest.raises(FileFormatError, match=r"line 1: 4 columns, .* 2 \('u v'\) or 3 .*usecols=\(0, 1, 2\)"):
        read_edges(path)
    e = read_edges(path, usecols=[1, 0])                       # other columns, unweighted
    assert edges(e) == [(2, 6, None), (5, 6, None), (15, 1, None)]
    e = read_edges(path, usecols=(0, 1, 3))
    assert e.w[0] == 1289241911.72836
    with pytest.raises(FileFormatError, match=r"usecols=\(0, 1, 4\) names column 4, but the first line has 4"):
        read_edges(path, usecols=(0, 1, 4))
    for bad in [(0,), (0, 1, 2, 3), (0, 0), (-1, 1), ("a", 1), 3]:
        with pytest.raises(InvalidArgumentError, match="usecols must be 2 or 3"):
            read_edges(path, usecols=bad)
    with pytest.raises(InvalidArgumentError, match="usecols= applies to edge lists and CSV"):
        read_edges(put(tmp_path, "g.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n"),
                   usecols=(0, 1))


def test_integer_weights_beyond_2_53_are_refused(tmp_path):
    """float64 rounds 9007199254740993 to ...992: refused, naming the line; 2**53 itself and decimals pass."""
    e = read_edges(put(tmp_path, "ok.txt", "0 1 9007199254740992\n1 2 -9007199254740992\n2 3 1e300\n"))
    assert e.w.tolist() == [2.0 ** 53, -2.0 ** 53, 1e300]
    for token in ["9007199254740993", "-9007199254740993", "123456789012345678901234"]:
        with pytest.raises(FileFormatError, match=rf"line 2: weight {token} is an integer beyond 2\*\*53"):
            read_edges(put(tmp_path, "big.txt", f"0 1 1\n1 2 {token}\n"))
    assert read_edges(put(tmp_path, "f.txt", "0 1 9007199254740993.0\n")).w[0] == 2.0 ** 53   # a decimal: rounded


def test_csv_header_skipped(tmp_path):
    e = read_edges(put(tmp_path, "g.csv", "src,dst\n0,1\n"))
    assert edges(e) == [(0, 1, None)]


@pytest.mark.parametrize(
    "text, needles",
    [
        ("0 1\n1 x\n", ["line 2", "'x'", "non-negative integer"]),
        ("0 1\nfoo bar\n", ["line 2", "'foo'"]),
        ("0 1\n-1 2\n", ["line 2", "-1", "negative"]),
        ("0 1\n1.5 2\n", ["line 2", "'1.5'"]),
        ("0 1\n\n# c\n1 2 3\n", ["line 4", "expected 2 columns", "got 3"]),
        ("0 1 1.0\n1 2\n", ["line 2", "expected 3 columns", "got 2"]),
        ("5\n", ["line 1", "expected 2 columns"]),
        ("0 1 1.0\n1 2 nan\n", ["line 2", "nan", "not finite"]),
        ("0 1 1.0\n1 2 -inf\n", ["line 2", "-inf", "not finite"]),
        ("0 1 1.0\n1 2 1e400\n", ["line 2", "1e400", "not finite"]),
        ("0 1 1.0\n1 2 abc\n", ["line 2", "'abc'", "not a number"]),
        ("0 1\n1 9223372036854775808\n", ["line 2", "9223372036854775808", "int64"]),
        ("0 1\n1 123456789012345678901234567\n", ["line 2", "int64"]),
        ("0 1\n1 0x10\n", ["line 2", "'0x10'"]),
        ("0 1\n1 2#comment\n", ["line 2", "'2#comment'"]),
    ],
)
def test_edgelist_errors(tmp_path, text, needles):
    fails(put(tmp_path, "g.txt", text), *needles)


def test_edgelist_error_lines_after_crlf_comments(tmp_path):
    fails(put(tmp_path, "g.txt.gz", "# a\r\n# b\r\n0\t1\r\n1\tq\r\n", gz=True), "line 4", "'q'")


def test_csv_errors(tmp_path):
    fails(put(tmp_path, "g.csv", "0,1,2\n1,2\n"), "line 2", "got 2")
    fails(put(tmp_path, "g.csv", "0,1\n1,a\n"), "line 2", "'a'")


def test_edgelist_huge_id_refused_by_memory(tmp_path):
    msg = fails(put(tmp_path, "g.txt", "0 1\n1 1000000000000000\n"), "line 2", "needs at least", "this machine has")
    assert "1,000,000,000,000,001 vertices" in msg


# ---------------------------------------------------------------------- Matrix Market
def test_mtx_pattern_symmetric(tmp_path):
    p = put(tmp_path, "g.mtx", MM_PATTERN_SYM + "% comment\n4 4 3\n2 1\n3 2\n4 4\n")
    e = read_edges(p)
    assert edges(e) == [(1, 0, None), (2, 1, None), (3, 3, None)]
    assert e.n == 4 and not e.directed and e.w is None


def test_mtx_real_general_crlf_comments(tmp_path):
    p = put(tmp_path, "g.mtx.gz", MM_REAL + "%c\r\n3 3 2\r\n% mid\r\n\r\n1 2 1.5\r\n 3\t1  -2e0 \r\n", gz=True)
    e = read_edges(p)
    assert edges(e) == [(0, 1, 1.5), (2, 0, -2.0)] and e.n == 3 and e.directed


def test_mtx_integer_and_hermitian(tmp_path):
    e = read_edges(put(tmp_path, "g.mtx", "%%MatrixMarket matrix coordinate integer hermitian\n2 2 1\n2 1 7\n"))
    assert edges(e) == [(1, 0, 7.0)] and not e.directed


def test_mtx_array_general_and_symmetric(tmp_path):
    e = read_edges(put(tmp_path, "g.mtx", "%%MatrixMarket matrix array real general\n2 2\n0\n2.5\n3\n0\n"))
    assert edges(e) == [(0, 1, 3.0), (1, 0, 2.5)] and e.directed  # column-major
    e = read_edges(put(tmp_path, "g.mtx", "%%MatrixMarket matrix array real symmetric\n3 3\n1\n0\n4\n0\n5\n0\n"))
    # lower triangle, column by column: (0,0)=1 (1,0)=0 (2,0)=4 (1,1)=0 (2,1)=5 (2,2)=0
    assert edges(e) == [(0, 0, 1.0), (2, 0, 4.0), (2, 1, 5.0)] and not e.directed


def test_mtx_empty(tmp_path):
    e = read_edges(put(tmp_path, "g.mtx", MM_REAL + "5 5 0\n"))
    assert e.n == 5 and e.u.size == 0 and e.w is not None and e.w.size == 0


@pytest.mark.parametrize(
    "text, needles",
    [
        ("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", ["complex"]),
        ("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n", ["skew-symmetric"]),
        (MM_REAL + "2 3 1\n1 2 1\n", ["not square", "2 x 3"]),
        (MM_REAL + "3 3 3\n1 2 1\n2 3 1\n", ["truncated", "3 entries", "has 2"]),
        (MM_REAL + "3 3 1\n1 2 1\n2 3 1\n", ["line 4", "more entries"]),
        (MM_REAL + "3 3 2\n1 2 1\n0 3 1\n", ["line 4", "row index 0", "start at 1"]),
        (MM_REAL + "3 3 2\n1 2 1\n2 4 1\n", ["line 4", "column index 4", "3 vertices"]),
        (MM_REAL + "3 3 2\n1 2 nan\n2 3 1\n", ["line 3", "nan", "not finite"]),
        (MM_REAL + "3 3 2\n1 2 1\n2 3 inf\n", ["line 4", "inf", "not finite"]),
        (MM_REAL + "3 3 2\n1 2 x\n2 3 1\n", ["line 3", "'x'"]),
        (MM_REAL + "3 3 2\n1 2\n2 3 1\n", ["line 3", "expected 3", "got 2"]),
        (MM_REAL + "3 3 2\n1 2 1 5\n2 3 1\n", ["line 3", "expected 3", "got 4"]),
        (MM_REAL + "3 3 1\n2 1.5 1\n", ["line 3", "'1.5'"]),  # fast_matrix_market alone would misread this
        (MM_REAL + "3 3 1\n-2 1 1\n", ["line 3", "-2", "negative"]),
        (MM_REAL + "3 3 1\n99999999999999999999 1 1\n", ["line 3", "int64"]),
        ("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n", ["line 3", "1.5", "integer"]),
        ("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", ["truncated", "4 entries", "has 3"]),
        ("%%MatrixMarket matrix array real general\n1 1\n1 2\n", ["line 3", "got 2"]),
        ("%%MatrixMarket matrix array pattern general\n1 1\n1\n", ["pattern"]),
        ("not a matrix market file\n1 1 1\n", ["banner"]),
        ("%%MatrixMarket vector coordinate real general\n3 1\n1 2.0\n", ["vector", "not a matrix"]),
        (MM_REAL, ["header"]),
        (MM_REAL + "3 3\n", ["header"]),
        (MM_REAL + "3 3 -1\n", ["header"]),
        (MM_REAL + "100000000000000000000 100000000000000000000 1\n1 1 1\n", ["header"]),
    ],
)
def test_mtx_errors(tmp_path, text, needles):
    fails(put(tmp_path, "g.mtx", text), *needles)


def test_mtx_claimed_entries_fail_fast(tmp_path):
    p = put(tmp_path, "g.mtx", MM_REAL + "10 10 1000000000000\n1 2 1\n")
    t = time.perf_counter()
    fails(p, "declares 1,000,000,000,000 entries", "can hold at most")
    assert time.perf_counter() - t < 1.0
    # the same inside gzip: the check uses the decompressed size
    fails(put(tmp_path, "g.mtx.gz", MM_REAL + "10 10 1000000000000\n1 2 1\n", gz=True), "can hold at most")
    # a dense array claiming 10^12 entries
    fails(put(tmp_path, "d.mtx", "%%MatrixMarket matrix array real general\n1000000 1000000\n1\n"), "can hold at most")


def test_mtx_claimed_vertices_fail_with_memory_message(tmp_path):
    p = put(tmp_path, "g.mtx", MM_PATTERN_SYM + "1000000000000 1000000000000 1\n2 1\n")
    fails(p, "1,000,000,000,000 vertices", "needs at least", "this machine has")


# ---------------------------------------------------------------------- DIMACS
DIMACS = "c road\nc more\np sp 4 3\nc mid\na 1 2 10\na 2 3 2.5\r\na 4 1 7\n"


def test_dimacs(tmp_path):
    e = read_edges(put(tmp_path, "g.gr", DIMACS))
    assert edges(e) == [(0, 1, 10.0), (1, 2, 2.5), (3, 0, 7.0)] and e.n == 4 and e.directed


@pytest.mark.parametrize(
    "text, needles",
    [
        ("c x\na 1 2 3\n", ["line 2", "p sp N M"]),
        ("p sp 3 2\na 1 2 3\n", ["truncated", "2 arcs", "has 1"]),
        ("p sp 3 1\na 1 2 3\na 2 3 1\n", ["line 3", "more arcs"]),
        ("p sp 3 2\na 1 2 3\ne 2 3 1\n", ["line 3", "'e'"]),
        ("p sp 3 2\na 1 2 3\na 2 3\n", ["line 3", "expected 4"]),
        ("p sp 3 1\na 0 2 3\n", ["line 2", "0", "start at 1"]),
        ("p sp 3 1\na 1 4 3\n", ["line 2", "4", "3 vertices"]),
        ("p sp 3 1\na 1 2 nan\n", ["line 2", "nan"]),
        ("p sp 3 1\np sp 3 1\n", ["line 2", "arc line"]),
        ("p max 3 1\na 1 2 3\n", ["line 1", "p sp N M"]),
        ("p sp 3000000000000 1\na 1 2 3\n", ["line 1", "3,000,000,000,000 vertices", "this machine has"]),
        ("p sp 3 1000000000000\na 1 2 3\n", ["truncated", "1,000,000,000,000 arcs"]),
        ("", ["p sp N M"]),
    ],
)
def test_dimacs_errors(tmp_path, text, needles):
    fails(put(tmp_path, "g.gr", text), *needles)


# ---------------------------------------------------------------------- METIS
def test_metis_unweighted_with_blank_line_and_comments(tmp_path):
    # 4 vertices, edges 1-2, 2-3; vertex 4 has an empty line
    text = "% comment\n4 2\n2\n% inside\n1 3\n2\n\n"
    e = read_edges(put(tmp_path, "g.graph", text))
    assert edges(e) == [(0, 1, None), (1, 0, None), (1, 2, None), (2, 1, None)]
    assert e.n == 4 and not e.directed


def test_metis_last_line_without_newline(tmp_path):
    e = read_edges(put(tmp_path, "g.graph", "2 1\n2\n1"))
    assert edges(e) == [(0, 1, None), (1, 0, None)]


@pytest.mark.parametrize(
    "header, lines",
    [
        ("3 2 1", ["2 5", "1 5 3 7", "2 7"]),
        ("3 2 001", ["2 5", "1 5 3 7", "2 7"]),
        ("3 2 11 2", ["9 8 2 5", "9 8 1 5 3 7", "9 8 2 7"]),
        ("3 2 111", ["4 9 2 5", "4 9 1 5 3 7", "4 9 2 7"]),
        ("3 2 101", ["4 2 5", "4 1 5 3 7", "4 2 7"]),
    ],
)
def test_metis_weighted_formats(tmp_path, header, lines):
    e = read_edges(put(tmp_path, "g.graph", header + "\n" + "\n".join(lines) + "\n"))
    assert edges(e) == [(0, 1, 5.0), (1, 0, 5.0), (1, 2, 7.0), (2, 1, 7.0)]


@pytest.mark.parametrize("header, lines", [("3 2 10", ["9 2", "9 1 3", "9 2"]), ("3 2 100", ["4 2", "4 1 3", "4 2"])])
def test_metis_vertex_weights_and_sizes_ignored(tmp_path, header, lines):
    e = read_edges(put(tmp_path, "g.graph", header + "\n" + "\n".join(lines) + "\n"))
    assert edges(e) == [(0, 1, None), (1, 0, None), (1, 2, None), (2, 1, None)] and e.w is None


@pytest.mark.parametrize(
    "text, needles",
    [
        ("3 2\n2\n1 3\n", ["truncated", "3 vertices", "2 vertex lines"]),
        ("2 1\n2\n1\n1\n", ["line 4", "more vertex lines"]),
        ("3 3\n2\n1 3\n2\n", ["declares 3 edges", "6 neighbour entries", "has 4"]),
        ("3 2 1\n2 5\n1 5 3\n2 7\n", ["line 3", "pairs", "got 3"]),
        ("3 2 11\n2 5\n1 5 3 7\n9 2 7\n", ["line 2", "got 2"]),
        ("3 2\n0\n1 3\n2\n", ["line 2", "neighbour 0", "start at 1"]),
        ("3 2\n4\n1 3\n2\n", ["line 2", "neighbour 4", "3 vertices"]),
        ("3 2 2\n2\n1 3\n2\n", ["line 1", "fmt '2'"]),
        ("3 2 1\n2 nan\n1 1 3 7\n2 7\n", ["line 2", "nan"]),
        ("3\n2\n", ["line 1", "'N M [fmt [ncon]]'"]),
        ("3 2\n2\n1 x\n2\n", ["line 3", "'x'"]),
        ("", ["no header"]),
        ("1000000000000 1\n2\n1\n", ["line 1", "1,000,000,000,000 vertices", "this machine has"]),
    ],
)
def test_metis_errors(tmp_path, text, needles):
    fails(put(tmp_path, "g.graph", text), *needles)


# ---------------------------------------------------------------------- writing and round trips
def graphs_equal_after_reading(G, path, fmt):
    """Read ``path`` back and compare with ``G`` under the rules of ``fmt``."""
    e = read_edges(path)
    assert isinstance(e, EdgeList)
    if fmt in ("edgelist", "csv"):  # no vertex count in the file: n = max id + 1
        ids = np.concatenate([e.u, e.v])
        assert e.n == (int(ids.max()) + 1 if ids.size else 0)
    else:
        assert e.n == G.n
    w = e.w
    if fmt == "dimacs" and not G.weighted:  # DIMACS always carries weights: 1 for unweighted
        assert np.all(w == 1)
        w = None
    if fmt in ("edgelist", "csv") and G.nnz == 0 and G.weighted:  # no line to show a weight column
        assert w is None
        w = np.zeros(0)
    H = Graph.from_edges(e.u, e.v, w, n=G.n, directed=G.directed)
    assert H == G, (fmt, G, H)
    if fmt in ("mtx", "metis"):
        assert Graph.from_file(path) == G  # the file's own word on directedness


@st.composite
def graphs(draw, undirected_loopless=False):
    n = draw(st.integers(1, 12))
    m = draw(st.integers(0, 30))
    ids = st.integers(0, n - 1)
    u = np.array(draw(st.lists(ids, min_size=m, max_size=m)), dtype=np.int64)
    v = np.array(draw(st.lists(ids, min_size=m, max_size=m)), dtype=np.int64)
    weights = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-10, 10).map(float), st.just(0.0))
    w = np.array(draw(st.lists(weights, min_size=m, max_size=m))) if draw(st.booleans()) else None
    directed = draw(st.booleans())
    if undirected_loopless:
        keep = u != v
        u, v, w, directed = u[keep], v[keep], (None if w is None else w[keep]), False
    return Graph.from_edges(u, v, w, n=n, directed=directed)


@pytest.mark.parametrize("fmt", ["mtx", "edgelist", "csv", "dimacs", "metis"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_round_trip_property(tmp_path, fmt, data):
    G = data.draw(graphs(undirected_loopless=fmt == "metis"))
    gz = data.draw(st.booleans())
    ext = {"mtx": ".mtx", "edgelist": ".txt", "csv": ".csv", "dimacs": ".gr", "metis": ".graph"}[fmt]
    path = tmp_path / ("g" + ext + (".gz" if gz else ""))
    write_edges(G, path)
    graphs_equal_after_reading(G, path, fmt)


HEADERS = {
    "mtx": ["", MM_REAL, MM_PATTERN_SYM + "3 3 2\n", "%%MatrixMarket matrix array real general\n2 2\n"],
    "edgelist": [""],
    "csv": ["", "a,b\n"],
    "dimacs": ["", "p sp 3 2\n"],
    "metis": ["", "3 2\n", "3 2 1\n", "3 2 11 2\n"],
}


@pytest.mark.parametrize("fmt", sorted(HEADERS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_garbage_only_raises_file_format_error(tmp_path, fmt, data):
    """Whatever the bytes, reading returns an EdgeList or raises FileFormatError: never anything else."""
    header = data.draw(st.sampled_from(HEADERS[fmt]))
    body = data.draw(st.text(alphabet="0123456789  \t\n\r\n.-+eE#%,ap\u00e9x", max_size=80))
    path = tmp_path / f"g.{fmt}"
    path.write_bytes((header + body).encode())
    try:
        e = read_edges(path, fmt=fmt)
    except FileFormatError as exc:
        assert str(path) in str(exc)
        return
    assert e.u.dtype == e.v.dtype == np.int64 and e.u.shape == e.v.shape
    assert e.w is None or (e.w.shape == e.u.shape and np.isfinite(e.w).all())
    assert e.u.size == 0 or (0 <= min(e.u.min(), e.v.min()) and max(e.u.max(), e.v.max()) < e.n)


@pytest.mark.parametrize("ext", [".mtx", ".el", ".csv", ".gr", ".graph"])
def test_write_read_karate(tmp_path, ext):
    from la_graph import data

    G = Graph.from_file(data.path("karate"))
    assert (G.n, G.nedges) == (34, 78)
    path = tmp_path / ("karate" + ext)
    write_edges(G, path)
    H = Graph.from_file(path, directed=False)
    if ext == ".gr":
        assert H.weighted and np.all(H.weights == 1)
        H = Graph.from_edges(*H.edges(), n=H.n, directed=False)
    assert H == G


def test_write_text_forms(tmp_path):
    G = Graph.from_edges([0, 1], [1, 2], w=[1.0, 0.1], directed=True)
    write_edges(G, tmp_path / "g.txt")
    assert (tmp_path / "g.txt").read_text().splitlines()[1:] == ["0 1 1.0", "1 2 0.1"]
    H = Graph.from_edges([0, 1], [1, 2], w=[3.0, -2.0])
    write_edges(H, tmp_path / "h.gr")
    arcs = ["p sp 3 4", "a 1 2 3", "a 2 1 3", "a 2 3 -2", "a 3 2 -2"]
    assert (tmp_path / "h.gr").read_text().splitlines()[1:] == arcs
    write_edges(H, tmp_path / "h.graph")
    assert (tmp_path / "h.graph").read_text().splitlines()[1:] == ["3 2 1", "2 3", "1 3 3 -2", "2 -2"]


def test_write_metis_rejects_directed_and_loops(tmp_path):
    with pytest.raises(InvalidGraphError, match="undirected"):
        write_edges(Graph.from_edges([0], [1], directed=True), tmp_path / "g.graph")
    with pytest.raises(InvalidGraphError, match="self-loops"):
        write_edges(Graph.from_edges([0, 1], [1, 1]), tmp_path / "g.graph")
    assert not (tmp_path / "g.graph").exists()


def test_write_unknown_extension(tmp_path):
    with pytest.raises(FileFormatError, match="known extensions"):
        write_edges(Graph.from_edges([0], [1]), tmp_path / "g.png")


def test_from_file_directed_override(tmp_path):
    p = put(tmp_path, "g.txt", "0 1\n1 2\n")
    assert Graph.from_file(p).directed
    G = Graph.from_file(p, directed=False)
    assert not G.directed and G.nedges == 2 and G.nnz == 4


# ---------------------------------------------------------------------- the shared real graphs
def _data_dir():
    env = os.environ.get("LA_GRAPH_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"


DATA = _data_dir()

# file, directed (README), vertices, edges as published.  Headered formats (mtx, gr, graph)
# declare n; edge lists have n = max id + 1, so there "vertices" counts the ids that occur.
# A directed file's edges are its lines; an undirected one's are Graph(directed=False).nedges.
REAL = [
    ("snap/facebook_combined.txt.gz", False, 4039, 88234),
    ("snap/email-Eu-core.txt.gz", True, 1005, 25571),
    ("snap/CA-GrQc.txt.gz", False, 5242, 14496),
    ("snap/CA-HepPh.txt.gz", False, 12008, 118521),
    ("snap/Email-Enron.txt.gz", False, 36692, 183831),
    ("snap/as-caida20071105.txt.gz", False, 26475, 53381),
    ("snap/Wiki-Vote.txt.gz", True, 7115, 103689),
    ("snap/p2p-Gnutella31.txt.gz", True, 62586, 147892),
    ("snap/soc-Slashdot0902.txt.gz", True, 82168, 948464),
    ("snap/cit-HepTh.txt.gz", True, 27770, 352807),
    ("snap/cit-HepPh.txt.gz", True, 34546, 421578),
    ("snap/soc-sign-bitcoinotc.csv.gz", True, 5881, 35592),
    ("law/uk-2007-05_100000.txt.gz", True, 100000, 3050615),
    ("dimacs/rome99.gr", True, 3353, 8870),
    ("suitesparse/usroads-48.mtx.gz", False, 126146, 161950),
    ("suitesparse/luxembourg_osm.mtx.gz", False, 114599, 119666),
    ("suitesparse/delaunay_n14.mtx.gz", False, 16384, 49122),
    ("suitesparse/delaunay_n16.mtx.gz", False, 65536, 196575),
    ("metis/delaunay_n15.graph", False, 32768, 98274),
    ("metis/rgg_n_2_15_s0.graph", False, 32768, 160240),
]


@pytest.mark.data
@pytest.mark.parametrize("name, directed, vertices, nedges", REAL, ids=[r[0] for r in REAL])
def test_real_graphs(name, directed, vertices, nedges):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared data not found: {path} (set LA_GRAPH_DATA to the data folder)")
    e = read_edges(path, **read_options(name))
    fmt = EXTENSIONS[os.path.splitext(name.removesuffix(".gz"))[1]]
    if fmt in ("edgelist", "csv"):
        ids = np.concatenate([e.u, e.v])
        assert e.n == int(ids.max()) + 1
        assert np.unique(ids).size == vertices
    else:
        assert e.n == vertices
    assert e.directed == (fmt == "dimacs" or (fmt not in ("mtx", "metis")))
    if directed:
        assert e.u.size == nedges
        assert Graph.from_file(path, directed=True, **read_options(name)).n == e.n
    else:
        G = Graph.from_file(path, directed=False, **read_options(name))
        assert (G.n, G.nedges) == (e.n, nedges)
    if name == "snap/soc-sign-bitcoinotc.csv.gz":
        assert e.w.min() == -10 and e.w.max() == 10
    if name == "dimacs/rome99.gr":
        assert e.w is not None and e.w.min() > 0


@pytest.mark.data
def test_real_graph_read_speed():
    path = DATA / "law/uk-2007-05_100000.txt.gz"
    if not path.exists():
        pytest.skip(f"shared data not found: {path} (set LA_GRAPH_DATA to the data folder)")
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        read_edges(path)
        best = min(best, time.perf_counter() - t)
    assert best < 4.0, f"reading 3 M edges took {best:.2f} s"  # about 1 s on a loaded 2-core machine
