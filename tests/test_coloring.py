"""Graph colouring: proper, at most max degree + 1 colours, the same on every engine, bad input."""

import numpy as np
import pytest

import la_graph as lg
from la_graph.verify import check_coloring

from .graphs import KARATE, SMALL, bump


@pytest.mark.parametrize("method", ["jones_plassmann", "largest_first"])
@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_graphs(engine, name, method):
    G = SMALL[name]()
    c = lg.coloring(G, seed=3, method=method, engine=engine)
    assert c.dtype == np.int64 and c.shape == (G.n,)
    check_coloring(G, c)
    assert set(c.tolist()) == set(range(int(c.max(initial=-1)) + 1))          # numbered from 0, no gaps
    np.testing.assert_array_equal(c, lg.coloring(G, seed=3, method=method, engine="cpu"))


def test_known_values(engine):
    assert sorted(lg.coloring(lg.generators.complete(6), seed=0, engine=engine).tolist()) == list(range(6))
    assert int(lg.coloring(lg.generators.circulant(7, [1]), seed=1, engine=engine).max()) == 2
    assert lg.coloring(lg.Graph.from_edges([0], [0], n=3), seed=0, engine=engine).tolist() == [0, 0, 0]


def test_checker_and_bad_input():
    G = lg.Graph.from_edges([0, 1, 2], [1, 2, 0])
    with pytest.raises(lg.VerificationError, match="both have colour 0"):
        check_coloring(G, [0, 1, 0])
    with pytest.raises(lg.VerificationError, match="more than"):
        check_coloring(lg.generators.path(3), [0, 1, 5])
    with pytest.raises(lg.InvalidArgumentError, match="method"):
        lg.coloring(G, method="dsatur")
    with pytest.raises(lg.InvalidArgumentError, match="seed"):
        lg.coloring(G, seed=-1)
    lg.coloring(lg.generators.rmat(8, 8, seed=1), seed=None, check=True)


# ---------------------------------------------------------------------- cases of the suite-wide tests
# step -> (graph kind, run(G, engine) -> {name: array compared exactly}): tests/test_fused.py runs each
# with the engines' kernels and with the step's algebra
FUSED_RUNS = {
    "color_classes": ("undirected", lambda G, E: {m: lg.coloring(G, seed=1, method=m, engine=E)
                                                  for m in ("jones_plassmann", "largest_first")}),
}

# public function -> (graph, args, keywords, corrupt(result) -> a wrong result): tests/test_check.py
# runs each with check=True
CHECK_CASES = {
    "coloring": (KARATE, (), {"seed": 0}, lambda c: bump(c, 0, -int(c[0]) + int(c[1]))),   # 0 and 1 adjacent
}
