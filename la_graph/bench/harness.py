"""The benchmark harness: build graphs, time every implementation interleaved, check every result.

For each graph (built once; build time recorded), each engine gets the graph
uploaded once (upload time recorded on its own: ``upload_s``) and each peer
its own input prepared once (``prepare_s``); none of that is in a timed call.
Then for each algorithm and setting (its sources) every implementation is

1. run once untimed-for-the-record (warm-up: JIT compilation, caches);
2. timed ``repeat`` times, **interleaved**: each round runs every
   implementation once, so a busy machine slows all of them alike (an
   implementation whose warm-up took longer than ``budget_s / repeat`` runs
   fewer rounds, at least one; a peer whose warm-up alone took longer than
   ``budget_s`` is not run again: that one run is its time);
3. checked: its last output goes to the algorithm's checker in
   :mod:`la_graph.verify` (an output equal to one already verified, where
   outputs are unique, counts as verified).  A wrong answer is recorded as
   ``status: "wrong"`` with the checker's message and no time.

GPU implementations (la_graph's GPU engine, the native baselines) are timed
with the device synchronised before and after each call
(:meth:`Engine.synchronize`), the graph and (where the function offers
``output="device"``) the result left on the device.

Memory beside time: one untimed call per implementation (the warm-up, or for
la_graph and the native baselines, whose warm-up compiles, one more call) is
watched: the process's peak resident size above the size at its start (Linux:
``/proc/self/clear_refs`` resets the high-water mark), and for GPU
implementations the engine's :meth:`Engine.memory_watch` (CuPy's pool
high-water mark above its start, and the device's used bytes around the call).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import cases, peers as peer_mod
from .external import SelfReported
from .graphs import build, family


@dataclass
class Impl:
    """One implementation of one algorithm on one graph and setting, ready to time."""

    impl: str
    call: object
    to_output: object
    engine: str | None = None
    variant: str = ""
    sync: object = None
    times: list = field(default_factory=list)
    warmup_s: float | None = None
    raw: object = None
    error: str | None = None
    #: la_graph's first call may compile (numba, NVRTC): its warm-up never counts as a timed run
    compiles: bool = False
    note: str | None = None
    #: the engine's memory_watch for a GPU implementation, else None
    watch: object = None
    #: what the watched call used (see the module doc)
    memory: dict = field(default_factory=dict)


def _timed(impl):
    """Seconds of one call: wall clock (the device synchronised around it), or the time a
    program that times itself reports (:class:`~la_graph.bench.external.SelfReported`)."""
    if impl.sync:
        impl.sync()
    t = time.perf_counter()
    impl.raw = impl.call()
    if impl.sync:
        impl.sync()
    t = time.perf_counter() - t
    return impl.raw.seconds if isinstance(impl.raw, SelfReported) else t


def _status_kib(field_name):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise OSError(f"no {field_name} in /proc/self/status")


@contextlib.contextmanager
def host_peak():
    """A context whose dict gets ``peak_host_growth_bytes``: the process's peak resident size in the
    block above its size at the start (Linux only; elsewhere the dict stays empty)."""
    out = {}
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")                                   # reset the high-water mark (VmHWM)
        before = _status_kib("VmRSS")
    except OSError:
        yield out
        return
    yield out
    out["peak_host_growth_bytes"] = max(0, _status_kib("VmHWM") - before) * 1024


def _watched(im):
    """One call of ``im`` with its memory watched (into ``im.memory``); returns its time."""
    with host_peak() as host, (im.watch() if im.watch else contextlib.nullcontext({})) as device:
        t = _timed(im)
    im.memory = {**host, **device}
    return t


def time_interleaved(impls, repeat, budget_s=60.0):
    """Warm up, then time every implementation in ``repeat`` interleaved rounds (see the module doc)."""
    for im in impls:
        try:
            im.warmup_s = _timed(im) if im.compiles else _watched(im)
            if im.compiles:
                _watched(im)                               # memory without the compilers' own
        except Exception as exc:  # recorded, never fatal: a peer may run out of memory
            im.error = f"{type(exc).__name__}: {exc}"
    rounds = {}
    for im in impls:
        if im.error is not None:
            continue
        if im.warmup_s > budget_s and not im.compiles:
            im.times = [im.warmup_s]  # a peer slower than the whole budget: its one run is the record
            im.note = f"one run only (it took longer than the {budget_s:g} s budget)"
            rounds[id(im)] = 0
        else:
            rounds[id(im)] = max(1, min(repeat, int(budget_s / max(im.warmup_s, 1e-9))))
    for r in range(repeat):
        for im in impls:
            if im.error is None and r < rounds[id(im)]:
                try:
                    im.times.append(_timed(im))
                except Exception as exc:
                    im.error = f"{type(exc).__name__}: {exc}"
    return impls


# ---------------------------------------------------------------- machine facts
_PACKAGES = ("numpy", "scipy", "python-graphblas", "suitesparse-graphblas", "numba", "igraph", "networkx",
             "graphblas-algorithms", "matplotlib", "cupy-cuda12x", "cupy-cuda13x", "cupy")


def _cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _gpus():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        return [line.strip() for line in out.stdout.splitlines() if line.strip()] if out.returncode == 0 else []
    except (OSError, subprocess.SubprocessError):
        return []


def _git_commit():
    try:
        root = Path(__file__).resolve().parents[2]
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out.stdout.strip() + ("+dirty" if dirty else "") if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def machine_facts():
    """CPU, cores, memory, GPUs, load, library versions: recorded with every run."""
    import la_graph

    versions = {"la_graph": la_graph.__version__, "python": platform.python_version()}
    for pkg in _PACKAGES:
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            pass
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        mem = None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "usable_cores": usable,
            "memory_gib": None if mem is None else round(mem / 2 ** 30, 1), "os": platform.platform(),
            "gpus": _gpus(), "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "git": _git_commit(), "versions": versions}


# ---------------------------------------------------------------- the run
def _engines(names, notes):
    from ..engines import get_engine

    out = {}
    for e in names:
        try:
            out[e] = get_engine(e)
        except Exception as exc:
            notes.append(f"engine {e} unavailable, skipped: {exc}")
    return out


def _upload(E, G):
    E.synchronize()
    t = time.perf_counter()
    E.matrix(G)
    if G.directed:
        E.matrix(G, transpose=True)
    E.degree(G)
    E.synchronize()
    return time.perf_counter() - t


def plan(algos, graphs=None, suites=("targets",), engines=("cpu",), scales=None):
    """``{graph name: [algorithm names]}`` in run order: the named graphs, or each suite's defaults."""
    todo = {}
    for a in algos:
        algo = cases.ALGORITHMS[a]
        names = ([cases.with_default_modifier(algo, g) for g in graphs] if graphs
                 else cases.suite_graphs(suites, algo, engines, scales))
        for g in names:
            todo.setdefault(g, []).append(a)
    return todo


def run(algos, *, graphs=None, suites=("targets",), engines=("cpu",), peers=None, repeat=5, scales=None,
        budget_s=60.0, label="", command="", progress=True, log=print, checkpoint=None):
    """Run the benchmark; return the JSON-able record (see ``benchmarks/README.md`` for its fields)."""
    from tqdm.auto import tqdm

    started = dt.datetime.now(dt.timezone.utc)
    notes = []
    facts = machine_facts()
    engs = _engines(engines, notes)
    tools, peer_info = [], {}
    for tool in (peer_mod.TOOLS if peers is None else peers):
        if tool in peer_mod.GPU_TOOLS and "gpu" not in engs:
            if peers is not None:
                notes.append(f"{tool}: skipped (GPU baselines run only with --engines gpu)")
            continue
        ok, why = peer_mod.available(tool)
        if ok:
            tools.append(tool)
            peer_info[tool] = peer_mod.version(tool)
        else:
            notes.append(f"{tool}: skipped ({why})")
            peer_info[tool] = f"skipped: {why}"
    live = []
    for a in algos:
        if cases.ALGORITHMS[a].resolve() is None:
            notes.append(f"{a}: la_graph.{cases.ALGORITHMS[a].function} is not available yet, skipped")
        else:
            live.append(a)
    todo = plan(live, graphs, suites, list(engs), scales)
    graph_info, rows = {}, []
    bar = tqdm(total=sum(len(v) for v in todo.values()), disable=not progress, unit="case", file=sys.stderr)
    say = bar.write if progress else log

    def record(partial=False):
        facts["load_average_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
        doc = {"schema": 2, "date": started.isoformat(timespec="seconds"), "label": label, "command": command,
               "seconds": (dt.datetime.now(dt.timezone.utc) - started).total_seconds(),
               "engines": list(engs), "peers": peer_info, "repeat": repeat, "machine": facts,
               "timing": "median and min of interleaved repeats after one warm-up; wall clock, GPU calls "
                         "synchronised before and after; graph upload and peer input preparation not included",
               "graphs": graph_info, "results": rows, "notes": list(dict.fromkeys(notes))}
        if partial:
            doc["partial"] = True
        return doc

    for name, names in todo.items():
        bar.set_description(name)
        t = time.perf_counter()
        try:
            G = build(name)
        except (FileNotFoundError, MemoryError) as exc:
            notes.append(f"{name}: skipped ({exc})")
            say(f"{name}: skipped ({exc})")
            bar.update(len(names))
            continue
        info = {"n": G.n, "nnz": G.nnz, "edges": G.nedges, "directed": G.directed, "weighted": G.weighted,
                "family": family(name), "build_s": time.perf_counter() - t, "upload_s": {}, "prepare_s": {},
                "csr_bytes": G.indptr.nbytes + G.indices.nbytes + (G.weights.nbytes if G.weighted else 0)}
        graph_info[name] = info
        say(f"{name}: {G!r}, built in {info['build_s']:.1f} s")
        for e, E in engs.items():
            try:
                info["upload_s"][e] = _upload(E, G)
            except Exception as exc:
                info["upload_s"][e] = None
                notes.append(f"{name}: upload to the {e} engine failed: {type(exc).__name__}: {exc}")
        prepared = {}

        def prepared_for(tool):
            if tool not in prepared:
                t0 = time.perf_counter()
                try:
                    prepared[tool] = peer_mod.prepare(tool, G)
                    info["prepare_s"][tool] = time.perf_counter() - t0
                except Exception as exc:
                    prepared[tool] = None
                    notes.append(f"{name}: {tool} could not take the graph: {type(exc).__name__}: {exc}")
            return prepared[tool]

        for a in names:
            algo = cases.ALGORITHMS[a]
            why = algo.applies(G)
            if why:
                notes.append(f"{name}: {a} skipped ({why})")
                bar.update()
                continue
            fn = algo.resolve()
            for setting in algo.settings(G, name):
                impls = []
                for e, E in engs.items():
                    device = e == "gpu"
                    sync = E.synchronize if device else None
                    watch = E.memory_watch if device else None
                    impls.append(Impl(f"la_graph[{e}]", algo.ours(fn, G, setting, e, device), algo.ours_output,
                                      engine=e, sync=sync, compiles=True, watch=watch))
                    if a == "reachability":
                        call, out = algo.bfs_each(G, setting, e, device)
                        impls.append(Impl(f"la_graph[{e}]", call, out, engine=e, variant="bfs per source",
                                          sync=sync, compiles=True))
                for tool in ([] if setting.ours_only else tools):
                    skip = peer_mod.skip_reason(tool, a, G)
                    if skip:
                        notes.append(f"{name}: {a}: {skip}")
                        continue
                    P = prepared_for(tool)
                    made = None if P is None else peer_mod.peer_call(tool, a, P, G, setting.sources, setting.params)
                    if made is None:
                        continue
                    gpu = tool in peer_mod.GPU_TOOLS
                    sync = engs["gpu"].synchronize if tool == "native" else None
                    impls.append(Impl(tool + ("[gpu]" if gpu else ""), made[0], made[1],
                                      engine="gpu" if gpu else None, sync=sync, compiles=tool == "native",
                                      watch=engs["gpu"].memory_watch if tool == "native" else None))
                time_interleaved(impls, repeat, budget_s)
                rows += _record(algo, G, name, setting, impls, say)
                if checkpoint is not None:  # after every row: a run stopped midway keeps what it measured
                    checkpoint(record(partial=True))
            bar.update()
        del G, prepared
        gc.collect()
    bar.close()
    return record()


def _record(algo, G, name, setting, impls, say):
    rows, verified = [], None
    per = max(1, len(setting.sources)) if algo.per_source else 1
    for im in impls:
        row = {"algorithm": algo.name, "graph": name, "setting": setting.label, "impl": im.impl,
               "variant": im.variant, "engine": im.engine, "per": per}
        if im.error is not None:
            row.update(status="error", note=im.error)
        else:
            try:
                out = im.to_output(im.raw)
                if isinstance(out, SelfReported):
                    _check_reported(algo, G, setting, out, verified)
                elif verified is None or not algo.same(out, verified):
                    algo.check(G, setting, out)
                    verified = out if verified is None else verified
                work = algo.work(G, setting, out)
                med = statistics.median(im.times)
                summary = out.summary if isinstance(out, SelfReported) else algo.summary(G, setting, out)
                row.update(status="ok", median_s=med, min_s=min(im.times), times_s=im.times,
                           repeat=len(im.times), warmup_s=im.warmup_s, work_edges=work,
                           edges_per_s=None if work is None else work / med, summary=summary, memory=im.memory)
                if im.note:
                    row["note"] = im.note
            except (AssertionError, ValueError, IndexError, TypeError) as exc:
                row.update(status="wrong", note=f"{type(exc).__name__}: {exc}")
        im.raw = None
        rows.append(row)
        tag = f"{im.impl}{' (' + im.variant + ')' if im.variant else ''}"
        if row["status"] == "ok":
            say(f"  {algo.name:12s} {setting.label:18s} {tag:34s} {row['median_s'] * 1e3:11.3f} ms"
                f"  (min {row['min_s'] * 1e3:.3f}, n={row['repeat']})")
        else:
            say(f"  {algo.name:12s} {setting.label:18s} {tag:34s} {row['status'].upper()}: {row['note']}")
    return rows


#: summary entries a self-checking program must report as la_graph's verified answer has them
_MUST_AGREE = ("components",)


def _check_reported(algo, G, setting, out, verified):
    """A self-timed program's answer: its own check passed, and its counts agree with the verified answer."""
    if not out.verified:
        raise AssertionError(f"its own check failed: {out.log[-300:]}")
    if verified is not None:
        ours = algo.summary(G, setting, verified)
        for key in _MUST_AGREE:
            if key in out.summary and key in ours and out.summary[key] != ours[key]:
                raise AssertionError(f"{key} = {out.summary[key]}, la_graph's verified answer has {ours[key]}")


def free_path(path):
    """``path``, or where a file is there already, the first free one of ``<stem>-2<suffix>``, ``-3``, ...

    Records are never overwritten: two runs in the same minute get two names.
    """
    path = Path(path)
    free, n = path, 1
    while free.exists():
        n += 1
        free = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return free


def write(doc, out):
    """Write the record as JSON (parents created)."""
    import json

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, default=_json_default))
    return out


def _json_default(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")
