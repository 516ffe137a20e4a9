"""Inputs a new user gets wrong: every one is a la_graph error naming the rule and the value."""

from __future__ import annotations

import numpy as np
import pytest

import la_graph as lg


@pytest.mark.parametrize("u, v, shown", [
    (["a"], ["b"], "'a'"),                              # strings
    (np.array([1 + 2j]), [0], "(1+2j)"),                # complex numbers
    (np.array([object()], dtype=object), [0], "object"),
    ([0.5], [1], "0.5"),                                # a fractional id
])
def test_vertex_ids_that_are_not_integers(u, v, shown):
    with pytest.raises(lg.InvalidGraphError, match="must hold integer vertex ids") as err:
        lg.Graph.from_edges(u, v)
    assert shown in str(err.value)
    assert isinstance(err.value, ValueError)           # the matching built-in too, as README says


@pytest.mark.parametrize("bad", [None, "heavy", 1 + 1j])
def test_networkx_weights_that_are_not_real_numbers(bad):
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_edge("x", "y", weight=bad)
    G.add_edge("y", "z", weight=2.0)
    with pytest.raises(lg.InvalidGraphError, match=r"edge weights must be real numbers: edge \('x', 'y'\)"):
        lg.Graph.from_networkx(G)


def test_networkx_weights_of_numpy_and_bool_types_are_numbers():
    nx = pytest.importorskip("networkx")
    G = nx.Graph()
    G.add_edge(0, 1, weight=np.float32(2.5))
    G.add_edge(1, 2, weight=np.int64(3))
    G.add_edge(2, 3)                                      # missing: 1
    H = lg.Graph.from_networkx(G)
    assert sorted(H.weights.tolist()) == [1.0, 1.0, 2.5, 2.5, 3.0, 3.0]
