"""Compile every GPU kernel in every instantiation the engine asks for, with nvcc, on a machine without a GPU.

    python tools/dev/nvcc_check.py [--arch sm_90] [--verbose]

The engine compiles ``la_graph/engines/gpu/cuda/<file>.cu`` with NVRTC on first use, instantiating each
kernel template for the values of ``TEMPLATE_PARAMETERS`` (la_graph/engines/gpu/kernels.py); a template error
in an instantiation that no test on this machine reaches would first show on the device.  This takes each file's name
expressions from kernels.py (read as text: importing the engine needs a GPU), forces each instantiation by
taking its address, and compiles with ``nvcc -std=c++17``; ``--verbose`` adds ptxas's registers and spills.
Exit status 1 if any file fails.
"""

from __future__ import annotations

import argparse
import itertools
import re
import subprocess
import sys
import tempfile
import threading
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    names_of, gpu = _kernels()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(gpu.glob("*.cu")):
            names = names_of(f.name, f.read_text())
            unit = Path(tmp) / f"{f.stem}_all.cu"
            body = "\n".join(f"    (void*)&{n}," for n in names)
            unit.write_text(f'#include "common.cuh"\n#include "{f.name}"\nvoid* all_{f.stem}[] = {{\n{body}\n}};\n')
            cmd = ["nvcc", "-std=c++17", f"-arch={args.arch}", "-c", "-I", str(gpu), str(unit), "-o", "/dev/null"]
            if args.verbose:
                cmd.insert(1, "-Xptxas=-v")
            r = subprocess.run(cmd, capture_output=True, text=True)
            ok = r.returncode == 0
            failed += not ok
            print(f"{f.name:>24}  {len(names):3d} instantiations  {'ok' if ok else 'FAILED'}", flush=True)
            if not ok or args.verbose:
                print(r.stderr.strip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
