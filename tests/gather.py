"""The cases each algorithm's test file declares for the suite-wide tests, gathered.

An algorithm's test file holds its own rows of the tests that run every algorithm:

* ``FUSED_RUNS``: step -> ``(graph kind, run(G, engine) -> {name: array})``, for tests/test_fused.py;
* ``CHECK_CASES``: public function -> ``(graph, args, keywords, corrupt(result) -> a wrong result)``, for
  tests/test_check.py.

A row belongs in the test file named after the algorithm module that owns it (``tests/test_<module>.py``
for ``la_graph.algorithms.<module>``: where the step is defined, where the function is registered);
where a module has no such file, in the test file that already tests it (every module has one today).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def gather(name):
    """``(cases, where)``: the dicts ``name`` of every ``tests/test_*.py`` that defines one, merged, and the
    file each key came from; a key declared twice raises ``ValueError``."""
    cases, where = {}, {}
    defines = re.compile(rf"^{re.escape(name)} = ", re.M)
    for path in sorted(TESTS.glob("test_*.py")):
        # only the modules that define it are imported: some skip at import (test_gpu_stress.py without a GPU)
        if not defines.search(path.read_text(encoding="utf-8")):
            continue
        module = importlib.import_module(f"{__package__}.{path.stem}")
        for key, value in getattr(module, name).items():
            if key in cases:
                raise ValueError(f"{key!r} is in {name} of both {where[key]} and tests/{path.name}")
            cases[key], where[key] = value, f"tests/{path.name}"
    return cases, where


def owner(module):
    """The test file where the rows of ``la_graph.algorithms.<module>`` belong."""
    short = module.rsplit(".", 1)[-1]
    if (TESTS / f"test_{short}.py").exists():
        return f"tests/test_{short}.py"
    return f"the test file that tests {module} (there is no tests/test_{short}.py)"
