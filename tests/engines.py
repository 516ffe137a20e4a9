"""Engines the algorithm tests share beside the ``engine`` fixture."""

from __future__ import annotations

from types import MappingProxyType

import la_graph as lg

_made = {}


def algebra_only(name="cpu"):
    """Engine ``name`` with no fused step: every algorithm step runs as its algebra on that engine's primitives.

    Raises EngineUnavailable where the engine cannot run.
    """
    if name not in _made:
        cls = type(lg.get_engine(name))
        _made[name] = type(f"{cls.__name__}AlgebraOnly", (cls,), {"fused_steps": MappingProxyType({})})()
    return _made[name]



#: APSP on the reference engine (numpy over sorted keys, slow by design): Floyd-Warshall's
#: n pivots take about n^3 * 150 ns, n batched searches about n * m * 2 us; the tests
#: give it graphs of at most these many vertices
REFERENCE_FW_MAX_N = 128
REFERENCE_APSP_MAX_N = 1100


def too_slow_on_reference(engine, method, G):
    """Whether a test leaves APSP by ``method`` on ``G`` out on ``engine`` (the reference engine, big n)."""
    limit = REFERENCE_FW_MAX_N if method == "floyd_warshall" else REFERENCE_APSP_MAX_N
    return engine.name == "reference" and G.n > limit


def check_failing_share(monkeypatch, victim, run, want):
    """A collective product whose share on worker ``victim`` raises: ``run()`` raises that error, then gives ``want``.

    The peers of the failing share are told and do not wait; once the product works again the same
    engine answers as before.
    """
    import distributed
    import pytest

    from la_graph.engines.dask import exchange

    real = exchange.product

    def failing(name, *args):
        if distributed.get_worker().address == victim:
            raise ZeroDivisionError("injected")
        return real(name, *args)

    monkeypatch.setattr(exchange, "product", failing)
    with pytest.raises(ZeroDivisionError, match="injected"):
        run()
    monkeypatch.setattr(exchange, "product", real)
    assert run() == want
