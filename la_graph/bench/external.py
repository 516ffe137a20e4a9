"""External native peers: the ECL suite's GPU codes, fetched, built and run beside la_graph.

The ECL suite (Burtscher et al., Texas State University; BSD-3-Clause,
https://github.com/burtscher/ECL-Suite) holds the fastest published CUDA codes
for connected components (ECL-CC), maximal independent set (ECL-MIS), minimum
spanning forest (ECL-MST), strongly connected components (ECL-SCC),
all-pairs shortest paths (ECL-APSP) and graph colouring (ECL-GC).  la_graph neither ships nor commits their
code: :func:`fetch` clones the repository at a pinned commit into a folder git
ignores (:func:`home`; its ``LICENSE`` stays beside the code), :func:`build`
compiles each program with ``nvcc -O3 -arch=sm_90``, and the benchmark runs the
executables as the peer ``ecl`` (``la-graph bench --peers ecl``).

Each program reads a graph in the ECL binary CSR format (:func:`write_egr`),
runs its kernels once, prints its own GPU compute time (CUDA events, graph
already on the device) and checks its answer (ECL-CC, ECL-MIS, ECL-GC against the
input; ECL-MST and ECL-APSP against a CPU computation).  :func:`run` parses
that output into a :class:`SelfReported`: the benchmark
records the reported time, and checks the program's verdict and its summary
(component counts) against la_graph's verified answer; ECL-GC's colour count
is recorded beside la_graph's (issue 40 asks for at most 1.1 times as many).

ECL-GC (Alabandi, Powers and Burtscher, PPoPP 2020) was added without a GPU at
hand: its build and output patterns follow the program's source at the pinned
commit but have not yet run; the first GPU run should confirm them
(``python -m la_graph.bench.external build`` then ``run coloring rmat20``).
It colours an undirected graph given as symmetric CSR without self-loops
(its own check treats a loop as a clash), so directed graphs get no ECL row.

One change is made at build time: CUDA 13 removed ``cudaDeviceProp.clockRate``
and ``memoryClockRate``, which the programs print; :func:`patch` replaces them
by 0.

Command line (the folder is ``$LA_GRAPH_ECL``, else ``.ecl/`` in the checkout)::

    python -m la_graph.bench.external fetch [--source URL_OR_PATH]
    python -m la_graph.bench.external build [--arch sm_90]
    python -m la_graph.bench.external run cc GRAPH      # e.g. rmat20, usroads-48
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: the upstream repository and the commit every measurement uses
ECL_URL = "https://github.com/burtscher/ECL-Suite"
ECL_COMMIT = "b75017e983cdd457ac126c933fdb3aef992712b0"

#: algorithm -> (program, source path in the repository); the non-atomic ("baseline") versions
PROGRAMS = {
    "cc": ("ECL-CC", "src/baseline/egr-input/CC/ECL-CC_11.cu"),
    "mis": ("ECL-MIS", "src/baseline/egr-input/MIS/ECL-MIS.cu"),
    "msf": ("ECL-MST", "src/baseline/egr-input/MST/ECL-MST_10.cu"),
    "scc": ("ECL-SCC", "src/baseline/mesh-input/ECL-SCC_10.cu"),
    "apsp": ("ECL-APSP", "src/baseline/grid-input/ECL-APSP.cu"),
    "coloring": ("ECL-GC", "src/baseline/egr-input/GC/ECL-GC_12.cu"),
}

#: algorithms whose program needs an undirected (symmetric) graph: no peer row on a directed one
UNDIRECTED = ("coloring",)

#: algorithm -> whether its program reads edge weights (written as int32; 1 on an unweighted graph)
WEIGHTED = {"cc": False, "mis": False, "msf": True, "scc": False, "apsp": True, "coloring": False}

_NUMBER = r"([0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)"
#: algorithm -> (compute-time pattern, {summary key: pattern}, pattern printed when its check passed or None)
_OUTPUT = {
    "cc": (rf"compute time:\s*{_NUMBER}\s*s", {"components": r"number of connected components:\s*(\d+)"},
           r"verification passed"),
    "mis": (rf"compute time:\s*{_NUMBER}\s*s", {"size": r"elements in set:\s*(\d+)"}, None),
    "msf": (rf"Dev[+-]:\s*{_NUMBER}\s*s", {}, r"all good"),
    "scc": (rf"compute time:\s*{_NUMBER}\s*s", {"components": r"number of SCCs:\s*(\d+)"}, None),
    "apsp": (rf"FW_64 gpu comp time:\s*{_NUMBER}\s*s", {}, r"results match"),
    # ECL-GC prints "runtime:    0.001234567 s" (its three kernels, CUDA events), "result verification
    # passed" after checking that no edge joins two vertices of one colour, and "colors used: 12"
    "coloring": (rf"runtime:\s*{_NUMBER}\s*s", {"colors": r"colors used:\s*(\d+)"}, r"result verification passed"),
}

_INT32_MAX = np.iinfo(np.int32).max


def home():
    """The folder of the fetched sources and built programs: ``$LA_GRAPH_ECL``, else ``.ecl/``.

    ``.ecl/`` is beside the repository's ``.git`` when la_graph runs from a
    checkout (git ignores it), else in ``~/.cache/la_graph``.
    """
    env = os.environ.get("LA_GRAPH_ECL")
    if env:
        return Path(env)
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        return root / ".ecl"
    return Path.home() / ".cache" / "la_graph" / "ecl"


def fetch(dest=None, source=ECL_URL):
    """Clone the ECL suite at :data:`ECL_COMMIT` into ``dest/ECL-Suite``; returns that folder.

    ``source`` is the repository's URL or a local clone of it.  An existing
    clone at the pinned commit is kept.
    """
    dest = Path(dest or home())
    repo = dest / "ECL-Suite"
    if not (repo / ".git").exists():
        dest.mkdir(parents=True, exist_ok=True)
        _git("clone", "--quiet", "--no-checkout", str(source), str(repo))
    _git("-C", str(repo), "checkout", "--quiet", ECL_COMMIT)
    head = _git("-C", str(repo), "rev-parse", "HEAD").strip()
    if head != ECL_COMMIT:
        raise RuntimeError(f"{repo} is at {head}, not the pinned commit {ECL_COMMIT}")
    if not (repo / "LICENSE").is_file():
        raise RuntimeError(f"{repo} has no LICENSE: not the ECL suite?")
    return repo


def _git(*args):
    out = subprocess.run(["git", *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def patch(source):
    """The program's source with the device properties CUDA 13 removed replaced by 0.

    Only ``printf`` arguments read ``cudaDeviceProp.clockRate`` and
    ``memoryClockRate``; nothing else changes.
    """
    return re.sub(r"\bdeviceProp\.(?:clockRate|memoryClockRate)\b", "0", source)


def build(dest=None, arch="sm_90", nvcc="nvcc", algorithms=None, log=print):
    """Compile the programs (``nvcc -O3 -arch=ARCH``) into ``dest/build``; returns ``{algorithm: path}``.

    Programs already built from the same source are kept.
    """
    dest = Path(dest or home())
    repo = dest / "ECL-Suite"
    if not (repo / "LICENSE").is_file():
        raise FileNotFoundError(f"no ECL suite in {repo}: run 'python -m la_graph.bench.external fetch' first")
    out_dir = dest / "build"
    out_dir.mkdir(parents=True, exist_ok=True)
    built = {}
    for algo in algorithms or PROGRAMS:
        program, rel = PROGRAMS[algo]
        src = out_dir / f"{program}.cu"
        exe = out_dir / program
        text = patch((repo / rel).read_text())
        if not (src.is_file() and src.read_text() == text and exe.is_file()):
            src.write_text(text)
            cmd = [nvcc, "-O3", f"-arch={arch}", "-I", str(repo / "library"), "-o", str(exe), str(src)]
            log(" ".join(cmd))
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"building {program} failed:\n{done.stderr.strip()}")
        built[algo] = exe
    return built


def programs(dest=None):
    """``{algorithm: executable}`` of the programs built so far."""
    out_dir = Path(dest or home()) / "build"
    return {a: out_dir / p for a, (p, _) in PROGRAMS.items() if (out_dir / p).is_file()}


def write_egr(G, path, *, weights=False):
    """Write ``G`` in the ECL binary CSR format: int32 ``n``, ``nnz``, ``indptr``, ``indices`` (and weights).

    ``weights=True`` appends one int32 weight per stored entry: ``G``'s weights,
    which must be integers in the int32 range, or 1 on an unweighted graph.
    ECL programs take undirected graphs as symmetric CSR, as ``G`` stores them.
    """
    n, nnz = G.n, G.nnz
    if n < 1:
        raise ValueError("the ECL programs need at least one vertex")
    if nnz > _INT32_MAX or n + 1 > _INT32_MAX:
        raise ValueError(f"the ECL format holds int32 sizes: n = {n:,}, nnz = {nnz:,}")
    parts = [np.array([n, nnz], np.int32), np.asarray(G.indptr, np.int32), np.asarray(G.indices, np.int32)]
    if weights:
        if G.weighted:
            w = G.weights
            if w.size and not (np.array_equal(w, np.trunc(w)) and w.min() >= -_INT32_MAX and w.max() <= _INT32_MAX):
                raise ValueError("the ECL programs take int32 edge weights; this graph's are not all integers "
                                 "in the int32 range")
            parts.append(w.astype(np.int32))
        else:
            parts.append(np.ones(nnz, np.int32))
    with open(path, "wb") as f:
        for a in parts:
            f.write(np.ascontiguousarray(a).tobytes())
    return Path(path)


def parse(algo, stdout, returncode=0):
    """``(seconds, summary, verified)`` from a program's output; ``seconds`` None if it printed no time."""
    timing, fields, passed = _OUTPUT[algo]
    m = re.search(timing, stdout)
    seconds = float(m.group(1)) if m else None
    summary = {}
    for key, pattern in fields.items():
        f = re.search(pattern, stdout)
        if f:
            summary[key] = int(f.group(1))
    verified = (returncode == 0 and seconds is not None and "ERROR" not in stdout
                and (passed is None or re.search(passed, stdout) is not None))
    return seconds, summary, verified


def _deep_stack():
    """Raise the child's stack limit to its hard limit before ``exec``.

    ECL-CC checks its labels with a recursive depth-first search from every
    vertex: on a graph whose giant component holds millions of vertices
    (R-MAT 22) the recursion overflows the usual 8 MiB stack and the program
    dies of SIGSEGV after its compute time went into a pipe buffer that is
    never flushed.
    """
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or hard > soft):
        resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))


@dataclass
class SelfReported:
    """What a program that times and checks itself printed: its compute time (seconds), its
    summary (e.g. ``{"components": 12}``), whether its own check passed, and its output's tail."""

    seconds: float
    summary: dict
    verified: bool
    log: str = ""


def run(algo, egr, *, exe=None, timeout=120):
    """Run the ECL program of ``algo`` on an ``.egr`` file; returns a :class:`SelfReported`."""
    exe = Path(exe or programs().get(algo) or "")
    if not exe.is_file():
        raise FileNotFoundError(f"{PROGRAMS[algo][0]} is not built: run 'python -m la_graph.bench.external build'")
    done = subprocess.run([str(exe), str(egr)], capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_deep_stack)
    seconds, summary, verified = parse(algo, done.stdout, done.returncode)
    if seconds is None:
        how = (f"killed by {signal.Signals(-done.returncode).name}" if done.returncode < 0
               else f"exit {done.returncode}")
        raise RuntimeError(f"{exe.name} printed no compute time ({how}): "
                           f"{(done.stderr or done.stdout).strip()[-500:]}")
    return SelfReported(seconds, summary, verified, (done.stdout + done.stderr).strip()[-2000:])


class Inputs:
    """The ``.egr`` files of one graph, written on first use into a temporary folder removed with this object."""

    def __init__(self, G):
        self.G = G
        self._dir = tempfile.TemporaryDirectory(prefix="la_graph-ecl-")
        self._files = {}

    def path(self, weights):
        if weights not in self._files:
            self._files[weights] = write_egr(self.G, Path(self._dir.name) / f"graph{'-w' if weights else ''}.egr",
                                             weights=weights)
        return self._files[weights]


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m la_graph.bench.external", description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default=None, help="the folder (default: $LA_GRAPH_ECL, else .ecl/)")
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="clone the ECL suite at the pinned commit")
    f.add_argument("--source", default=ECL_URL, help="its URL or a local clone")
    b = sub.add_parser("build", help="compile the programs with nvcc")
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--nvcc", default=shutil.which("nvcc") or "nvcc")
    r = sub.add_parser("run", help="run one program on a benchmark graph")
    r.add_argument("algorithm", choices=sorted(PROGRAMS))
    r.add_argument("graph", help="a benchmark graph name (la_graph.bench.graphs)")
    args = p.parse_args(argv)
    try:
        _command(args)
    except (RuntimeError, FileNotFoundError, ValueError, subprocess.SubprocessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _command(args):
    if args.cmd == "fetch":
        print(fetch(args.dir, args.source))
    elif args.cmd == "build":
        for algo, exe in build(args.dir, args.arch, args.nvcc).items():
            print(f"{algo}: {exe}")
    else:
        from .graphs import build as build_graph

        inputs = Inputs(build_graph(args.graph))
        exe = programs(args.dir).get(args.algorithm)
        r = run(args.algorithm, inputs.path(WEIGHTED[args.algorithm]), exe=exe)
        print(f"{PROGRAMS[args.algorithm][0]}: {r.seconds * 1e3:.3f} ms, {r.summary}, "
              f"{'verified' if r.verified else 'NOT verified'}")


if __name__ == "__main__":
    sys.exit(main())
