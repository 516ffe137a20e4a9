"""Fixtures every test module may use: the engines and the shared real-graph folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import la_graph

# Property tests draw the same examples on every machine: what passes here passes in CI.
# LA_GRAPH_HYPOTHESIS=explore draws new ones each run (with LA_GRAPH_TEST_SCALE for more of them).
settings.register_profile("fixed", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("LA_GRAPH_HYPOTHESIS", "fixed"))

# Dask workers in this process (the threaded clusters of the distributed engine's tests) run
# without distributed's statistical profiler: every 10 ms it walks every thread's frames, and on
# CPython 3.11 that walk can crash the interpreter while another thread's frames change (a
# segfault inside distributed/profile.py's `process` during an SPMD PageRank on CI;
# dask/distributed#5972, python/cpython#99110).  The engine's results do not depend on it.
try:
    import dask

    dask.config.set({"distributed.worker.profile.enabled": False})
except ImportError:   # the distributed engine's tests skip
    pass


def pytest_collection_modifyitems(config, items):
    """``slow`` tests (minutes: NetworkX's own test modules through the backend, the dask engine's
    collective products on every operation) run when asked for: ``LA_GRAPH_SLOW=1`` or a ``-m``
    expression that names ``slow``; the default run (README's command, CI) skips them, saying how."""
    if os.environ.get("LA_GRAPH_SLOW") or "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with LA_GRAPH_SLOW=1 (or -m slow)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Undo hypothesis' per-call settings wrapper on parametrized tests.

    hypothesis' pytest plugin (6.16x-6.170 at least) gives a parametrized
    ``@given`` test a new ``settings(parent=<its settings>)`` on every call and
    never takes it off: after ~1,000 calls of one test function (the output
    argument matrix of test_engine_ops has 540 per engine) looking a setting up
    walks a chain deeper than the recursion limit, and every later call fails
    with RecursionError.
    """
    fn = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
    before = getattr(fn, "_hypothesis_internal_use_settings", None)
    yield
    if before is not None:
        fn._hypothesis_internal_use_settings = before


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


@pytest.fixture(scope="module")
def threaded():
    """A Dask cluster of three single-threaded workers in this process (the dask engine's tests), per module.

    Its "local" exchange gives up on a silent peer after 60 s, not 600: a run whose workers diverged fails
    its test in a minute rather than holding the whole run for ten."""
    distributed = pytest.importorskip("distributed")
    from la_graph.engines.dask import exchange
    timeout, exchange.TIMEOUT = exchange.TIMEOUT, 60.0
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=False, dashboard_address=":0",
                                       silence_logs=40)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()
    exchange.TIMEOUT = timeout
