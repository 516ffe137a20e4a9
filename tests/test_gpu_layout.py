"""The GPU engine's files follow its layout: one fused-step module and one CUDA source per algorithm module.

* ``la_graph/engines/gpu/fused/<name>.py`` runs steps that ``la_graph/algorithms/<name>.py``
  declares (``@step("...")``), and every ``@fuses`` function is one of them;
* ``la_graph/engines/gpu/cuda/<name>.cu`` is named after a fused module, or is one of the shared
  sources, and each fused module launches kernels only from its own source or a shared one.

Read as text (importing the engine needs CuPy and a device): these run on every machine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GPU = ROOT / "la_graph" / "engines" / "gpu"
ALGORITHMS = ROOT / "la_graph" / "algorithms"
#: sources more than one module uses: every file (common.cuh), the primitives (semiring.cu, select.cu),
#: the multi-source search of bfs and reachability (msbfs.cu)
SHARED = {"common.cuh", "semiring.cu", "select.cu", "msbfs.cu"}
#: a second source of one algorithm, named after its method
EXTRA = {"fastsv.cu": "connected_components"}

_FUSES = re.compile(r"^@fuses\s*\ndef (\w+)\(", re.M)
_STEP = re.compile(r"""^@step\(\s*["'](\w+)["']""", re.M)
_KERNEL = re.compile(r"""_kernel\(\s*["']([\w.]+)["']""")


def _modules():
    return sorted(p for p in (GPU / "fused").glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.stem)
def test_fused_module_runs_steps_of_its_algorithm(path):
    algorithm = ALGORITHMS / path.name
    assert algorithm.is_file(), f"fused/{path.name} is named after no algorithm module (la_graph/algorithms/)"
    fused = _FUSES.findall(path.read_text())
    assert fused, f"fused/{path.name} fuses no step"
    declared = set(_STEP.findall(algorithm.read_text()))
    assert set(fused) <= declared, f"fused/{path.name} fuses {sorted(set(fused) - declared)}, which " \
                                   f"la_graph/algorithms/{path.name} does not declare"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.stem)
def test_fused_module_launches_its_own_kernels(path):
    own = {f"{path.stem}.cu"} | {f for f, a in EXTRA.items() if a == path.stem}
    for name in set(_KERNEL.findall(path.read_text())):
        assert name in own | SHARED, f"fused/{path.name} launches kernels of {name}"
        assert (GPU / "cuda" / name).is_file(), f"fused/{path.name} names cuda/{name}, which is not there"


def test_every_cuda_source_belongs_somewhere():
    sources = {p.name for p in (GPU / "cuda").iterdir() if p.suffix in (".cu", ".cuh")}
    assert SHARED <= sources and set(EXTRA) <= sources
    modules = {p.stem for p in _modules()}
    stray = sorted(s for s in sources - SHARED - set(EXTRA) if Path(s).stem not in modules)
    assert not stray, f"CUDA sources named after no fused module (nor shared): {stray}"
    old = sorted(p.name for p in (ROOT / "gpu").glob("*.cu*"))
    assert not old, f"CUDA sources in the old top-level gpu/ folder: {old}; they live in la_graph/engines/gpu/cuda/"


def test_the_package_imports_every_module():
    """fused/__init__.py imports every module of its folder by discovery (no list to keep), the private
    ``_*`` ones aside: a module it skipped would never register its steps."""
    init = (GPU / "fused" / "__init__.py").read_text()
    assert re.search(r"pkgutil\.iter_modules\(__path__\)", init) and "importlib.import_module" in init
