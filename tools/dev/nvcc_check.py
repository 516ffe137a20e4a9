"""Compile every GPU kernel in every instantiation the engine asks for, with nvcc, on a machine without a GPU.

    python tools/dev/nvcc_check.py [--arch sm_90] [--verbose] [--jobs N]

The engine compiles ``la_graph/engines/gpu/cuda/<file>.cu`` with NVRTC on first use, instantiating each
kernel template for the values of ``TEMPLATE_PARAMETERS`` (la_graph/engines/gpu/kernels.py); a template error
in an instantiation that no test on this machine reaches would first show on the device.  This takes each file's name
expressions from kernels.py (read as text: importing the engine needs a GPU), forces each instantiation by
taking its address, and compiles with ``nvcc -std=c++17`` (units of at most CHUNK instantiations, ``--jobs``
at once); ``--verbose`` adds ptxas's registers and spills.
Exit status 1 if any file fails.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _kernels():
    """kernels.py's ``instantiations`` function and ``kernel_dir()``, run from its source (its module imports
    CuPy)."""
    path = ROOT / "la_graph/engines/gpu/kernels.py"
    src = path.read_text()
    code = src[src.index("_NULL = np.uint64(0)"):src.index("def kernel_module")]
    ns = {"__file__": str(path), "np": np, "re": re, "itertools": itertools, "threading": threading, "Path": Path,
          "LaGraphError": RuntimeError, "_I32": np.dtype(np.int32), "_I64": np.dtype(np.int64),
          "_F64": np.dtype(np.float64)}
    exec(compile(code, "kernels.py", "exec"), ns)
    return ns["instantiations"], ns["kernel_dir"]()


CHUNK = 24     # instantiations per compiled unit: semiring.cu's 92 in one unit took 14 of the serial 45 s


def _units(gpu, names_of, tmp):
    """``(file, instantiation count, unit path)``: each file's instantiations forced in units of at most CHUNK."""
    for f in sorted(gpu.glob("*.cu")):
        names = names_of(f.name, f.read_text())
        for c in range(0, max(len(names), 1), CHUNK):
            body = "\n".join(f"    (void*)&{n}," for n in names[c:c + CHUNK])
            unit = Path(tmp) / f"{f.stem}_{c // CHUNK}.cu"
            unit.write_text(f'#include "common.cuh"\n#include "{f.name}"\n'
                            f'void* all_{f.stem}_{c // CHUNK}[] = {{\n{body}\n}};\n')
            yield f, len(names[c:c + CHUNK]), unit


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="nvcc processes at once (default: cores)")
    args = ap.parse_args()
    names_of, gpu = _kernels()

    def compile_unit(unit):
        cmd = ["nvcc", "-std=c++17", f"-arch={args.arch}", "-c", "-I", str(gpu), str(unit), "-o", "/dev/null"]
        if args.verbose:
            cmd.insert(1, "-Xptxas=-v")
        return subprocess.run(cmd, capture_output=True, text=True)

    with tempfile.TemporaryDirectory() as tmp:
        units = list(_units(gpu, names_of, tmp))
        with ThreadPoolExecutor(max(args.jobs, 1)) as pool:     # nvcc is a process: threads only wait on it
            runs = list(pool.map(compile_unit, [u for _, _, u in units]))
    by_file = {}
    for (f, count, _), r in zip(units, runs):
        by_file.setdefault(f.name, []).append((count, r))
    failed = 0
    for name, parts in by_file.items():
        ok = all(r.returncode == 0 for _, r in parts)
        failed += not ok
        print(f"{name:>24}  {sum(c for c, _ in parts):3d} instantiations  {'ok' if ok else 'FAILED'}")
        for _, r in parts:
            if r.returncode != 0 or args.verbose:
                print(r.stderr.strip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
