"""Fixtures every test module may use: the engines and the shared real-graph folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import la_graph


@pytest.fixture(scope="session", params=["cpu", pytest.param("gpu", marks=pytest.mark.gpu), "reference"])
def engine(request):
    """Each engine in turn (the Engine object; ``engine=`` keywords accept it); gpu skips where it cannot run.

    The reference engine (numpy primitives, no fused step) runs every algorithm
    test too: it shows the primitives suffice and is the oracle the others agree with.
    """
    try:
        return la_graph.get_engine(request.param)
    except la_graph.EngineUnavailable as exc:
        pytest.skip(f"{request.param} engine unavailable: {exc}")


@pytest.fixture(scope="session")
def shared_data():
    """Path of the shared real-graph folder (``$LA_GRAPH_DATA`` or ``../shared/data``); skips when absent."""
    env = os.environ.get("LA_GRAPH_DATA")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"
    if not path.is_dir():
        pytest.skip(f"shared real-graph data not found at {path} (set LA_GRAPH_DATA to its folder)")
    return path
