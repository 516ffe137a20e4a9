"""Render benchmark records (JSON) into ``docs/benchmarks.md`` and PNG plots.

``la-graph bench --report benchmarks/results/*.json`` calls :func:`render`.
The page has la_graph's published speed goals (:mod:`la_graph.bench.targets`), each
evaluated from the newest run that measured la_graph and the named peer on that
graph, and per run: the machine, a table per algorithm (time per call, per
source for traversals; edges per second; la_graph's speed-up over each peer),
notes (skipped peers and graphs), and plots (time against edges, log-log, one
line per implementation; speed-up bars).  Records of the earlier scripts
(``benchmarks/run.py``, ``benchmarks/gpu.py``) are read too.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..exceptions import FileFormatError
from .cases import ALGORITHMS
from .graphs import family
from .targets import TARGETS

_PEER_ORDER = ("native[gpu]", "scipy", "igraph", "networkx", "graphblas-algorithms")


# ---------------------------------------------------------------- loading
def _upgrade(doc):
    """A record of the earlier benchmark scripts (no ``schema``) in the harness's form."""
    graphs = {g["graph"]: {k: g.get(k) for k in ("n", "nnz", "edges", "directed")} for g in doc["graphs"]}
    per_bfs = {g["graph"]: len(g.get("bfs_sources") or [0]) for g in doc["graphs"]}
    main_variant = {"parent", "fastsv", "labels", "order", "order+parent", "order+layer+parent", "membership",
                    "ecl-cc"}
    rows = []
    for r in doc["results"]:
        variant, setting = r.get("variant", ""), ""
        if "@hub" in variant:
            variant, setting = variant.replace("@hub", ""), "source hub"
        elif r["algorithm"] == "bfs":
            setting = "16 random sources" if per_bfs.get(r["graph"], 1) > 1 else "source 0"
        tool = "native[gpu]" if r["tool"] == "native" else r["tool"]
        engine = "gpu" if tool.endswith("[gpu]") else ("cpu" if tool == "la_graph[cpu]" else None)
        rows.append({"algorithm": r["algorithm"], "graph": r["graph"], "setting": setting, "impl": tool,
                     "variant": "" if variant in main_variant else variant, "engine": engine,
                     "per": per_bfs.get(r["graph"], 1) if r["algorithm"] == "bfs" and doc["engine"] == "cpu" else 1,
                     "status": "ok" if r.get("correct", True) else "wrong", "median_s": r["median_s"],
                     "min_s": r["min_s"], "repeat": r.get("repeat"),
                     "edges_per_s": (r["gteps"] * 1e9 if r.get("gteps") else None)})
    env = doc.get("environment", {})
    machine = {"cpu": env.get("machine", "?"), "cores": env.get("cpus"),
               "gpus": [env["device"]] if "device" in env else [], "versions": env}
    return {"schema": 2, "date": doc["date"], "label": f"earlier {doc['engine'].upper()} script run",
            "engines": [doc["engine"]], "machine": machine, "graphs": graphs, "results": rows,
            "notes": doc.get("notes", [])}


def is_record(doc):
    """Whether a JSON document is a benchmark record (the harness's, or an earlier script's)."""
    if not isinstance(doc, dict):
        return False
    if doc.get("schema") == 2:
        return True
    return ({"date", "engine", "graphs", "results"} <= set(doc)
            and all(isinstance(r, dict) and {"algorithm", "tool", "median_s"} <= set(r) for r in doc["results"]))


SCALING_KIND = "la_graph dask scaling"


def load(paths, skip_others=False, scaling=None):
    """``[(path, record)]``, oldest first; earlier script records upgraded.

    With ``skip_others``, JSON files that are not benchmark records are left out;
    otherwise they are an error.  Scaling records of the distributed engine
    (:mod:`la_graph.bench.scaling`) go to the list ``scaling`` when one is given.
    """
    docs = []
    for p in paths:
        try:
            doc = json.loads(Path(p).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:     # ValueErrors that did not name the file
            raise FileFormatError(f"{p} is not a benchmark record of la-graph bench: not JSON text ({exc})") from None
        if scaling is not None and isinstance(doc, dict) and doc.get("kind") == SCALING_KIND:
            scaling.append((Path(p), doc))
            continue
        if not is_record(doc):
            if skip_others:
                continue
            raise FileFormatError(f"{p} is not a benchmark record of la-graph bench")
        docs.append((Path(p), doc if doc.get("schema") == 2 else _upgrade(doc)))
    return sorted(docs, key=lambda pd: pd[1]["date"])


def key(row):
    """An implementation's display name: ``impl`` plus ``(variant)`` when there is one."""
    return row["impl"] + (f" ({row['variant']})" if row.get("variant") else "")


def per_call_ms(row):
    """Median time per call in ms (per source for traversals from several sources)."""
    return row["median_s"] * 1e3 / max(1, row.get("per") or 1)


# ---------------------------------------------------------------- targets
def _find(doc, algo, graph, impl_key, setting):
    for r in doc["results"]:
        if (r["algorithm"] == algo and r["graph"] == graph and key(r) == impl_key
                and (setting is None or r.get("setting") == setting)):
            return r
    return None


def evaluate(docs):
    """Per target: the newest run that measured it beside its peers, la_graph's and the peers' rows, met or not.

    A run that measured la_graph's row without the target's peers (another
    comparison on the same graph) is taken only where no run has both.
    """
    out = []
    for t in TARGETS:
        ours_key = f"la_graph[{t.engine}]"
        hit = alone = None
        # newest first; provisional runs (a loaded machine, a pipeline check) only where no other has it
        for path, doc in sorted(docs, key=lambda pd: (not pd[1].get("provisional"), pd[1]["date"]), reverse=True):
            if t.engine not in doc.get("engines", []):
                continue  # e.g. CPU-engine context timings of a GPU run, on another machine type
            ours = _find(doc, t.algorithm, t.graph, ours_key, t.setting)
            if ours is not None:
                peers = {p: _find(doc, t.algorithm, t.graph, p, ours.get("setting")) for p in t.peers}
                if t.kind in ("report", "max_ms") or all(r is not None for r in peers.values()):
                    hit = (path, doc, ours, peers)
                    break
                alone = alone or (path, doc, ours, peers)
        hit = hit or alone
        if hit is None:
            out.append({"target": t, "met": None, "why": "not measured"})
            continue
        path, doc, ours, peers = hit
        res = {"target": t, "run": path.name + (" (provisional)" if doc.get("provisional") else ""),
               "ours": ours, "peers": peers}
        if ours["status"] != "ok":
            res.update(met=False, why=f"la_graph: {ours['status']}")
        else:
            mine = per_call_ms(ours)
            ok_peers = {p: r for p, r in peers.items() if r is not None and r["status"] == "ok"}
            ratios = {p: per_call_ms(r) / mine for p, r in ok_peers.items()}
            res["ratios"] = ratios
            missing = [p for p in t.peers if p not in ok_peers]
            if t.kind == "report":
                res.update(met=None, why="")
            elif t.kind == "max_ms":
                res.update(met=mine <= t.value, why="")
            elif missing:
                res.update(met=None, why=f"{', '.join(missing)} not measured in that run")
            elif t.kind == "faster":
                res.update(met=all(x > 1 for x in ratios.values()), why="")
            elif t.kind == "within":
                res.update(met=all(1 / x <= t.value for x in ratios.values()), why="")
            elif t.kind == "speedup":
                res.update(met=all(x >= t.value for x in ratios.values()), why="")
        out.append(res)
    return out


def _ms(x):
    if x is None:
        return "—"
    return f"{x:.3g}" if x < 100 else f"{x:,.0f}"


def _cell(row):
    if row is None:
        return "—"
    if row["status"] != "ok":
        return f"**{row['status'].upper()}**"
    return _ms(per_call_ms(row))


def targets_table(evals):
    lines = ["| issue | algorithm | graph | engine | target | la_graph ms | peers ms (la_graph speed-up) | met | record |",
             "|---:|---|---|---|---|---:|---|---|---|"]
    for e in evals:
        t = e["target"]
        graph = t.graph + (f", {t.setting}" if t.setting else "")
        if "ours" not in e:
            lines.append(f"| {t.issue} | {t.algorithm} | {graph} | {t.engine} | {t.describe()} | — | — | "
                         f"not measured | — |")
            continue
        peers = "; ".join(f"{p} {_cell(r)}" + (f" ({e['ratios'][p]:.2f}×)" if p in e.get("ratios", {}) else "")
                          for p, r in e["peers"].items()) or "—"
        if t.algorithm == "mis" and e["ours"].get("summary"):
            sizes = [f"la_graph {e['ours']['summary'].get('size')}"]
            sizes += [f"{p} {r['summary'].get('size')}" for p, r in e["peers"].items()
                      if r is not None and r.get("summary")]
            peers += "; set size: " + ", ".join(sizes)
        met = {True: "**yes**", False: "**NO**", None: "—"}[e["met"]]
        if e.get("why"):
            met += f" ({e['why']})"
        lines.append(f"| {t.issue} | {t.algorithm} | {graph} | {t.engine} | {t.describe()} | "
                     f"{_cell(e['ours'])} | {peers} | {met} | `{e['run']}` |")
    return "\n".join(lines)


# ---------------------------------------------------------------- per-run tables
def _impl_order(keys):
    def rank(k):
        if k.startswith("la_graph"):
            return (0, k)
        base = k.split(" ")[0]
        return (1, _PEER_ORDER.index(base) if base in _PEER_ORDER else 99, k)
    return sorted(keys, key=rank)


def algorithm_table(doc, algo):
    rows = [r for r in doc["results"] if r["algorithm"] == algo]
    impls = _impl_order({key(r) for r in rows})
    ours = [k for k in impls if k.startswith("la_graph") and "(" not in k]
    peers = [k for k in impls if not k.startswith("la_graph")]
    cases = list(dict.fromkeys((r["graph"], r.get("setting", "")) for r in rows))
    pairs = [(o, p) for o in ours for p in peers if not (o == "la_graph[cpu]" and p.endswith("[gpu]"))]
    memory = any(r.get("memory") for r in rows)   # records since the memory column
    head = ["graph", "vertices", "edges", "setting", *[f"{k} ms" for k in impls],
            *[f"{o} Medges/s" for o in ours], *[f"{o} vs {p}" for o, p in pairs]]
    if memory:
        head += ["CSR MB", *[f"{o} peak MB" for o in ours]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 4 + "---:|" * (len(head) - 4)]
    for g, s in cases:
        by = {key(r): r for r in rows if r["graph"] == g and r.get("setting", "") == s}
        info = doc["graphs"].get(g, {})
        cells = [g, f"{info.get('n', 0):,}", f"{info.get('edges', 0):,}", s or "—"]
        cells += [_cell(by.get(k)) for k in impls]
        for o in ours:
            r = by.get(o)
            eps = r.get("edges_per_s") if r and r["status"] == "ok" else None
            cells.append("—" if not eps else f"{eps / 1e6:,.1f}")
        for o, p in pairs:
            a, b = by.get(o), by.get(p)
            ok = a and b and a["status"] == "ok" and b["status"] == "ok"
            cells.append(f"{per_call_ms(b) / per_call_ms(a):.2f}×" if ok else "—")
        if memory:
            cells.append(_mb(info.get("csr_bytes")))
            cells += [_mb(_peak(by.get(o))) for o in ours]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _peak(row):
    """A row's peak memory in the watched call: the device's for a GPU implementation, else the host's growth."""
    mem = (row or {}).get("memory") or {}
    return mem.get("peak_device_bytes", mem.get("peak_host_growth_bytes"))


def _mb(nbytes):
    return "—" if nbytes is None else f"{nbytes / 2**20:,.1f}"


def _rel(p, out):
    return Path(os.path.relpath(p, out.parent)).as_posix()


def _slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


# ---------------------------------------------------------------- plots
def plot_times(doc, algo, path):
    """Time per call against edges, log-log, one line per implementation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in doc["results"] if r["algorithm"] == algo and r["status"] == "ok"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, k in enumerate(_impl_order({key(r) for r in rows})):
        # a line joins the graphs of one family (a size ladder); other graphs are single points
        groups = {}
        for r in rows:
            if key(r) == k and r["graph"] in doc["graphs"]:
                fam = doc["graphs"][r["graph"]].get("family") or family(r["graph"])
                if fam == "real":
                    fam = r["graph"]  # different graphs: points, not a line
                groups.setdefault((fam, r.get("setting", "")), []).append(
                    (doc["graphs"][r["graph"]]["edges"], per_call_ms(r)))
        label = k
        for pts in groups.values():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=4, color=colors[i % len(colors)],
                    lw=2.2 if k.startswith("la_graph") else 1.2, label=label)
            label = None
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("edges")
    ax.set_ylabel("median time per call (ms)")
    ax.set_title(f"{ALGORITHMS[algo].title if algo in ALGORITHMS else algo} — {doc['date'][:10]}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plot_speedups(doc, path):
    """la_graph's speed-up over each peer, per algorithm and graph (bars, log scale; > 1: la_graph faster)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars = []
    for r in doc["results"]:
        if r["status"] != "ok" or r["impl"].startswith("la_graph"):
            continue
        for o in doc["results"]:
            if (o["status"] == "ok" and o["impl"].startswith("la_graph") and not o.get("variant")
                    and not (o["impl"] == "la_graph[cpu]" and r["impl"].endswith("[gpu]"))
                    and o["algorithm"] == r["algorithm"] and o["graph"] == r["graph"]
                    and o.get("setting") == r.get("setting")):
                bars.append((f"{r['algorithm']} {r['graph']} {r.get('setting') or ''}".strip(),
                             f"{o['impl']} vs {key(r)}", per_call_ms(r) / per_call_ms(o)))
    if not bars:
        return None
    labels = list(dict.fromkeys(b[0] for b in bars))
    series = _impl_order({b[1] for b in bars})
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(6.4, 0.55 * len(labels) + 2), 4.8))
    for i, s in enumerate(series):
        xs, ys = [], []
        for j, lab in enumerate(labels):
            v = [b[2] for b in bars if b[0] == lab and b[1] == s]
            if v:
                xs.append(j + i * width)
                ys.append(v[0])
        ax.bar(xs, ys, width, label=s)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))], labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("la_graph speed-up (peer time / ours)")
    ax.legend(fontsize=7)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ---------------------------------------------------------------- the page
_INTRO = """\
# Benchmarks

Speed is measured here, never in unit tests. This page is generated by
`la-graph bench --report benchmarks/results/*.json` from the JSON records the
benchmark harness writes (`la-graph bench ...`; how to run it, and what every
number means: `benchmarks/README.md` in the repository). Do not edit it by hand.

How it measures, in short: every graph is built once; the graph upload to an
engine and each peer's own input preparation are outside the timed calls; every
implementation gets one warm-up call, then the implementations are timed in
interleaved rounds (a busy machine slows all of them alike); the median (and
minimum) is kept; GPU calls are synchronised before and after. **Every result is
checked** with `la_graph.verify` — a wrong answer shows as **WRONG**, never as a
time. Times are per call, and per source for traversals from several sources
(BFS, SSSP, reachability: the call runs all sources). "vs peer" is the peer's
time divided by la_graph's: above 1, la_graph is faster.
"""


def _machine_line(doc):
    m = doc.get("machine", {})
    v = m.get("versions", {})
    bits = [f"CPU {m.get('cpu', '?')}, {m.get('cores', '?')} cores"]
    if m.get("gpus"):
        bits.append("GPU " + "; ".join(m["gpus"]))
    if m.get("load_average"):
        bits.append(f"load average at start {m['load_average'][0]:.1f}")
    libs = ", ".join(f"{k} {v[k]}" for k in ("la_graph", "python-graphblas", "suitesparse-graphblas", "scipy",
                                               "igraph", "networkx", "graphblas-algorithms", "cupy-cuda12x",
                                               "cupy-cuda13x") if k in v)
    if libs:
        bits.append(libs)
    if m.get("git"):
        bits.append(f"commit {m['git']}")
    return "; ".join(bits)


def scaling_section(path, doc, img_dir, out):
    """The page's lines for one scaling record of the distributed engine: times, traffic, a plot."""
    kind = "weak" if any(r.get("scaling") == "weak" for r in doc["rows"]) else "strong"
    against = sorted({re.sub(r" \([\d.]+ s\)", "", r["checked_against"]) for r in doc["rows"]
                      if r.get("checked_against")})
    checked = ("every answer compared with the CPU engine's" if all("cpu engine" in a for a in against)
               else "answers checked against " + "; ".join(against))
    lines = [f"## Distributed engine, {kind} scaling, {doc['local']} workers"
             + (" — partial (stopped before the end)" if doc.get("partial") else "") + f": `{path.name}`", "",
             f"{doc['date']}; {doc['machine']}; median ms of the timed runs, {checked} "
             f"(`python -m la_graph.bench.scaling`; see [scaling out](scaling.md))."
             + (f" {doc['note'].rstrip('.')}." if doc.get("note") else ""), ""]
    workers = sorted({r["workers"] for r in doc["rows"]})
    lines += ["| graph | algorithm | " + " | ".join(f"{w} worker{'s' * (w > 1)}" for w in workers) + " | checked |",
              "|---|---|" + "---:|" * len(workers) + "---|"]
    cells, builds, errors = {}, [], []
    for r in doc["rows"]:
        if "error" in r:
            errors.append(f"- {r['graph']}, {r['workers']} worker{'s' * (r['workers'] > 1)}, {r['algo']}: "
                          f"{r['error']}")
        elif r["algo"] == "build":
            builds.append(f"- {r['graph']} built on the workers in {r['s']:.1f} s ({r['nnz']:,} entries over "
                          f"{r['workers']} worker{'s' * (r['workers'] > 1)})")
        else:
            cells.setdefault((r["graph"] if kind == "strong" else "ladder", r["algo"]), {})[r["workers"]] = r
    for (graph, algo), by in cells.items():
        if kind == "weak":
            graph = " / ".join(by[w]["graph"] for w in workers if w in by)
        ok = all(r.get("checked") is not False for r in by.values())
        lines.append(f"| {graph} | {algo} | " + " | ".join(f"{by[w]['ms']:,.1f}" if w in by else "—" for w in workers)
                     + f" | {'yes' if ok else '**WRONG**'} |")
    split = [r for r in doc["rows"] if r.get("collectives_per_run") or r.get("inside_ms") is not None]
    if split:
        lines += ["", "Where a run's time goes (ms per run): rank 0 inside the algorithm (its result gathered; an "
                      "SPMD run's), the busiest worker's compute and exchange inside the collective products, and "
                      "what NCCL's all-gather takes for the same bytes between the same GPUs:", "",
                  "| graph | algorithm | workers | path | ms | inside | compute | exchange | NCCL floor | "
                  "GB per run |", "|---|---|---:|---|---:|---:|---:|---:|---:|---:|"]

        def ms(v):
            return "—" if v is None else f"{v:,.1f}"
        lines += [f"| {r['graph']} | {r['algo']} | {r['workers']} | {r.get('path', 'client')} | {ms(r['ms'])} | "
                  f"{ms(r.get('inside_ms'))} | {ms(r['compute_ms'])} | {ms(r['exchange_ms'])} | "
                  f"{ms(r.get('nccl_floor_ms'))} | {r['bytes_per_run'] / 1e9:.2f} |" for r in split]
    if builds or errors:
        lines += [""] + builds + errors
    if doc.get("traffic"):
        lines += ["", "One `mxv` with a full vector: bytes the workers sent each other, and the 2-D model's count:", "",
                  "| graph | workers | grid | measured MB | model MB |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {t['graph']} | {t['workers']} | {t['grid']}×{t['grid']} | {t['mxv_bytes'] / 1e6:.1f} | "
                  f"{t['model_bytes'] / 1e6:.1f} |" for t in doc["traffic"]]
    for n in doc.get("nccl_same_gpus", []):
        lines += ["", f"NCCL between the same {n['devices']} GPUs, {n['bytes'] / 1e6:.1f} MB: all-gather "
                      f"{n['allgather_ms']:.3f} ms, all-reduce {n['allreduce_ms']:.3f} ms."]
    if img_dir is not None and cells:
        from .scaling import plot
        img_dir.mkdir(parents=True, exist_ok=True)
        p = img_dir / f"{_slug(path.stem)}.png"
        plot(doc, p)
        lines += ["", f"![{kind} scaling]({_rel(p, out)})"]
    return lines + [""]


def render(paths, out="docs/benchmarks.md", img_dir=None, plots=True, skip_others=False):
    """Write the page (and the plots into ``img_dir``, default ``<out stem>/`` beside it); return its path."""
    scaling = []
    docs = load(paths, skip_others, scaling)
    out = Path(out)
    img_dir = Path(img_dir) if img_dir else out.with_suffix("")
    evals = evaluate(docs)
    measured = [e for e in evals if e["met"] is not None]
    met = sum(1 for e in measured if e["met"])
    parts = [_INTRO, "## Targets",
             f"la_graph's published speed goals (the first column names the project issue that set each one; "
             f"`la_graph/bench/targets.py` lists them), each measured side by side with its named peer in one "
             f"run (the newest run "
             f"that has it; a provisional run — a pipeline check on a loaded machine — only where no other run "
             f"has it). **{met} of {len(measured)} decided targets are met**; "
             f"{sum(1 for e in evals if 'ours' not in e)} are not measured yet (their algorithm has not "
             f"landed, or their run — e.g. the GPU one — has not been made). CPU targets are for the 2-core "
             f"CI machine type, GPU targets for one H100.", "", targets_table(evals), ""]
    for path, doc in reversed(docs):
        title = ((doc.get("label") or "run") + (" — provisional" if doc.get("provisional") else "")
                 + (" — partial (stopped before the end)" if doc.get("partial") else ""))
        parts += [f"## {title}: `{path.name}`", "",
                  f"{doc['date']}, engines {', '.join(doc.get('engines', []))}; {_machine_line(doc)}.", ""]
        if doc.get("command"):
            parts += [f"Command: `{doc['command']}`", ""]
        algos = list(dict.fromkeys(r["algorithm"] for r in doc["results"]))
        for algo in algos:
            title = ALGORITHMS[algo].title if algo in ALGORITHMS else algo
            parts += [f"### {title} (`{algo}`)", "", algorithm_table(doc, algo), ""]
            if plots:
                img_dir.mkdir(parents=True, exist_ok=True)
                p = plot_times(doc, algo, img_dir / f"{_slug(path.stem)}-{algo}.png")
                if p:
                    parts += [f"![{algo}: time against edges]({_rel(p, out)})", ""]
        if plots and doc["results"]:
            p = plot_speedups(doc, img_dir / f"{_slug(path.stem)}-speedup.png")
            if p:
                parts += [f"![speed-up of la_graph over each peer]({_rel(p, out)})", ""]
        if doc.get("notes"):
            parts += ["Notes:", "", *[f"* {n}" for n in dict.fromkeys(doc["notes"])], ""]
    for path, doc in sorted(scaling, key=lambda pd: pd[1]["date"], reverse=True):
        parts += scaling_section(path, doc, img_dir if plots else None, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(parts).rstrip() + "\n")
    return out
