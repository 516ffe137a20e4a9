"""The built wheel holds what the package loads at run time.

* every file of the GPU engine's CUDA folder ``la_graph/engines/gpu/cuda/``
  (a folder of the package, no longer a top-level ``gpu/`` copied in), and
  nothing at the old place ``la_graph/gpu/``;
* every CUDA source the GPU engine names (string literals ending in ``.cu`` or
  ``.cuh`` in ``la_graph/engines/gpu*``, read as text: no CuPy needed) and
  every file those sources ``#include "..."``;
* the benchmark harness, ``la_graph/bench/`` with its native CUDA baselines,
  whole, importable from the wheel alone (``la-graph bench --list`` runs there).

The wheel is built from this checkout with the installed build backend
(hatchling, in the ``test`` extra): no network.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from .test_imports import MODULES, raw_imports

ROOT = Path(__file__).resolve().parents[1]
CUDA = ROOT / "la_graph" / "engines" / "gpu" / "cuda"        # where engines/gpu/kernels.py looks
CUDA_IN_WHEEL = CUDA.relative_to(ROOT).as_posix()
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_SOURCE = re.compile(r"[\w./-]+\.cuh?")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                          "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, f"building the wheel failed (hatchling: pip install -e '.[test]'):\n{run.stderr}"
    (path,) = out.glob("la_graph-*.whl")
    return path


@pytest.fixture(scope="module")
def names(wheel):
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def _files(folder):
    """Every file under ``folder``, as POSIX paths relative to the checkout (no caches)."""
    return sorted(p.relative_to(ROOT).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc"))


def engine_kernel_sources():
    """The kernel files the GPU engine names: ``.cu``/``.cuh`` string literals in ``la_graph/engines/gpu*``."""
    found = set()
    for path in sorted((ROOT / "la_graph" / "engines").glob("gpu*")):
        for src in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for node in ast.walk(ast.parse(src.read_text(), filename=str(src))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SOURCE.fullmatch(node.value):
                    found.add(node.value.removeprefix("cuda/"))
    return found


def included(sources):
    """The files the sources ``#include "..."``, transitively, relative to the CUDA folder."""
    todo, seen = list(sources), set()
    while todo:
        name = todo.pop()
        path = CUDA / name
        if name in seen or not path.is_file():
            continue
        seen.add(name)
        todo += [str(PurePosixPath(name).parent / inc) for inc in _INCLUDE.findall(path.read_text())]
    return seen - set(sources)


def test_every_cuda_file_ships_in_the_package(names):
    files = _files(CUDA)
    assert any(f.endswith(".cu") for f in files) and f"{CUDA_IN_WHEEL}/common.cuh" in files
    missing = [f for f in files if f not in names]
    assert not missing, f"CUDA files missing from the wheel: {missing}"
    stale = sorted(f for f in names if f.startswith("la_graph/gpu/"))
    assert not stale, f"the wheel still holds the old top-level gpu/ folder: {stale}"


def test_every_kernel_source_the_engine_names_ships(names):
    sources = engine_kernel_sources()
    assert "common.cuh" in sources and len(sources) >= 5, f"the scan found too few kernel sources: {sources}"
    wanted = sources | included(sources)
    missing = sorted(s for s in wanted if f"{CUDA_IN_WHEEL}/{s}" not in names)
    assert not missing, f"kernel sources the GPU engine names but the wheel lacks (at {CUDA_IN_WHEEL}/): {missing}"


def test_include_lines_are_followed():
    assert included([]) == set()
    assert _INCLUDE.findall('#include "a.cuh"\n  # include "b/c.cuh"\n#include <cstdint>\n') == ["a.cuh", "b/c.cuh"]


def test_the_benchmark_harness_ships_whole(names):
    files = _files(ROOT / "la_graph" / "bench")
    assert "la_graph/bench/native/queue_bfs.cu" in files and "la_graph/bench/native/selftest.py" in files
    missing = [f for f in files if f not in names]
    assert not missing, f"benchmark harness files missing from the wheel: {missing}"
    # and what it imports ships too: la_graph modules (in the wheel), never the checkout's benchmarks/
    outside = [f"{MODULES[m].relative_to(ROOT)}:{line}: {name}"
               for m in MODULES if m.startswith("la_graph.bench")
               for name, line in raw_imports(m, module_level=False)
               if name.split(".")[0] == "benchmarks"
               or (name.startswith("la_graph") and f"{MODULES[name].relative_to(ROOT).as_posix()}" not in names)]
    assert not outside, "the harness imports what the wheel does not hold:\n" + "\n".join(outside)
    text = "".join(MODULES[m].read_text() for m in MODULES if m.startswith("la_graph.bench"))
    assert "sys.path" not in text


def test_the_harness_runs_from_the_wheel_alone(wheel, tmp_path):
    """Unpacked (a pure wheel imports as it is), away from the checkout: every harness module imports
    from there, and ``la-graph bench --list`` runs."""
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    code = (
        "import importlib, pkgutil, sys, la_graph, la_graph.bench as b\n"
        f"assert la_graph.__file__.startswith({str(site)!r}), la_graph.__file__\n"
        "for m in pkgutil.walk_packages(b.__path__, 'la_graph.bench.'):\n"
        "    assert importlib.import_module(m.name).__file__.startswith(la_graph.__path__[0]), m.name\n"
        "assert not any(k == 'benchmarks' or k.startswith('benchmarks.') for k in sys.modules)\n"
        "from la_graph.cli import main\n"
        "sys.exit(main(['bench', '--list']))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "reachability" in run.stdout and "native" in run.stdout
