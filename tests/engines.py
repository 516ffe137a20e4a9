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
