"""Render benchmark records (JSON) into the benchmarks page, ``docs/benchmarks.md``, and its plots.

``la-graph bench --report benchmarks/results/*.json`` calls :func:`render`.
The page has, per engine, one current table per algorithm: for each graph the
newest run that measured la_graph beside a peer (the newest run at all where
none did), la_graph's time and the peers' times *from that same run*, and the
record it comes from; then the hardware and the records, a speed-up plot per
engine, and the scaling records of the distributed engine
(:mod:`la_graph.bench.scaling`).  :func:`evaluate` checks the project's own
speed goals (:mod:`la_graph.bench.targets`) against records; the page does
not show them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..exceptions import FileFormatError
from .cases import ALGORITHMS
from .scaling import plot as plot_scaling
from .targets import TARGETS

#: where ``la-graph bench`` writes its records, and where the page says they are
RESULTS = Path("benchmarks/results")
#: the page ``la-graph bench --report`` writes by default (plots into ``docs/benchmarks/``)
PAGE = Path("docs/benchmarks.md")

_PEER_ORDER = ("ecl[gpu]", "native[gpu]", "scipy", "igraph", "networkx", "graphblas-algorithms")
_ENGINES = {"cpu": "CPU engine", "gpu": "GPU engine"}


# ---------------------------------------------------------------- loading
def is_record(doc):
    """Whether a JSON document is a benchmark record of ``la-graph bench``."""
    return isinstance(doc, dict) and doc.get("schema") == 2


SCALING_KIND = "la_graph dask scaling"


def load(paths, skip_others=False, scaling=None, skipped=None):
    """``[(path, record)]``, oldest first.

    With ``skip_others``, JSON files that are not benchmark records are left out
    (and appended to the list ``skipped`` when one is given); otherwise they are
    an error.  Scaling records of the distributed engine
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
                if skipped is not None:
                    skipped.append(Path(p))
                continue
            raise FileFormatError(f"{p} is not a benchmark record of la-graph bench")
        docs.append((Path(p), doc))
    return sorted(docs, key=lambda pd: pd[1]["date"])


def key(row):
    """An implementation's display name: ``impl`` plus ``(variant)`` when there is one."""
    return row["impl"] + (f" ({row['variant']})" if row.get("variant") else "")


def per_call_ms(row):
    """Median time per call in ms (per source for traversals from several sources)."""
    return row["median_s"] * 1e3 / max(1, row.get("per") or 1)


# ---------------------------------------------------------------- targets (the project's, not the page's)
def _find(doc, algo, graph, impl_key, setting):
    for r in doc["results"]:
        if (r["algorithm"] == algo and r["graph"] == graph and key(r) == impl_key
                and (setting is None or r.get("setting") == setting)):
            return r
    return None


def _peer_row(doc, t, peer, setting):
    """A target's peer row: ``IMPL`` of the target's algorithm, or ``ALGORITHM:IMPL`` (another algorithm's
    row on the same graph and setting, e.g. ``pagerank:la_graph[cpu]``)."""
    algo, impl = peer.split(":", 1) if ":" in peer else (t.algorithm, peer)
    return _find(doc, algo, t.graph, impl, setting)


def _quality(res, ours, peers, key, factor):
    """The target's quality clause: la_graph's ``summary[key]`` at most ``factor`` times each peer's."""
    mine = (ours.get("summary") or {}).get(key)
    theirs = {p: (r.get("summary") or {}).get(key) for p, r in peers.items()}
    if mine is None or any(v is None for v in theirs.values()):
        res.update(met=None, why=f"{key} not reported in that run")
        return
    res["quality"] = {p: mine / v if v else None for p, v in theirs.items()}
    if not all(mine <= factor * v for v in theirs.values()):
        res.update(met=False, why=f"{key} {mine} > {factor:g} × " + ", ".join(f"{p}'s {v}" for p, v in theirs.items()))


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
                peers = {p: _peer_row(doc, t, p, ours.get("setting")) for p in t.peers}
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
            if t.quality and res.get("met") is not None and not missing:
                _quality(res, ours, ok_peers, *t.quality)
        out.append(res)
    return out


# ---------------------------------------------------------------- the current rows
def _machine_kind(doc):
    """``"gpu"`` for a record made on a machine with a GPU, else ``"cpu"``."""
    return "gpu" if doc.get("machine", {}).get("gpus") else "cpu"


def current(docs, engine):
    """The page's rows of one engine: ``{algorithm: [(case, record path, record, {impl key: row})]}``.

    A case is a graph and a setting (its sources).  Its row is from the newest
    record that measured la_graph's engine there; where that run had no peer on
    the case and an earlier one did, the newest such earlier run's row follows
    it, so that every ratio on the page is of one run (peers' rows are only
    ever shown beside la_graph's of the same record).  Provisional records (a
    pipeline check on a loaded machine) are left out.  The CPU engine's rows
    come from machines without a GPU (the GPU machines' CPU engine runs on other
    cores), the GPU engine's from machines with one.
    """
    ours = f"la_graph[{engine}]"
    newest, beside = {}, {}
    for path, doc in docs:       # oldest first: a later record replaces an earlier one
        if engine not in doc.get("engines", []) or _machine_kind(doc) != engine or doc.get("provisional"):
            continue
        by_case = {}
        for r in doc["results"]:
            by_case.setdefault((r["algorithm"], r["graph"], r.get("setting", "")), {})[key(r)] = r
        for case, rows in by_case.items():
            if ours in rows:
                peers = {k: r for k, r in rows.items() if not k.startswith("la_graph")}
                newest[case] = (path, doc, {ours: rows[ours], **peers})
                if peers:
                    beside[case] = newest[case]
    out = {}
    for (algo, graph, setting), row in newest.items():
        out.setdefault(algo, []).append(((graph, setting), *row))
        earlier = beside.get((algo, graph, setting))
        if earlier is not None and earlier is not row:
            out[algo].append(((graph, setting), *earlier))
    for rows in out.values():     # by size; stable: a case's newest row stays before its earlier one
        rows.sort(key=lambda c: (c[2]["graphs"].get(c[0][0], {}).get("edges", 0), c[0]))
    order = list(ALGORITHMS)
    return dict(sorted(out.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))


def _ms(x):
    if x is None:
        return "—"
    return f"{x:.3g}" if x < 100 else f"{x:,.0f}"


#: summary values shown beside the time (the answer's quality, where implementations differ in it)
_SHOWN = {"modularity": "Q {:.4f}", "colors": "{} colours"}


def _cell(row):
    if row is None:
        return "—"
    if row["status"] != "ok":
        return f"**{row['status'].upper()}**"
    summary = row.get("summary") or {}
    shown = [fmt.format(summary[k]) for k, fmt in _SHOWN.items() if summary.get(k) is not None]
    return _ms(per_call_ms(row)) + (f" ({', '.join(shown)})" if shown else "")


def _peer_rank(k):
    base = k.split(" ")[0]
    return (_PEER_ORDER.index(base) if base in _PEER_ORDER else len(_PEER_ORDER), k)


def _peer_order(keys):
    return sorted(keys, key=_peer_rank)


def table(engine, cases, tags):
    """The Markdown table of one algorithm on one engine: la_graph, each peer (and la_graph's speed-up), the record."""
    ours = f"la_graph[{engine}]"
    peers = _peer_order({k for *_, rows in cases for k in rows if k != ours})
    head = ["graph", "vertices", "edges", "sources", "la_graph ms", "Medges/s", *[f"{p} ms" for p in peers], "record"]
    lines = ["| " + " | ".join(head) + " |", "|---|---:|---:|---|---:|---:|" + "---:|" * len(peers) + "---|"]
    last = None
    for (graph, setting), path, doc, rows in cases:
        mine = rows[ours]
        info = doc["graphs"].get(graph, {})
        eps = mine.get("edges_per_s") if mine["status"] == "ok" else None
        cells = [graph, f"{info.get('n', 0):,}", f"{info.get('edges', 0):,}", setting or "—", _cell(mine),
                 f"{eps / 1e6:,.1f}" if eps else "—"]
        for p in peers:
            r = rows.get(p)
            cell = _cell(r)
            if r is not None and r["status"] == "ok" and mine["status"] == "ok":
                cell += f" ({per_call_ms(r) / per_call_ms(mine):.2f}×)"
            cells.append(cell)
        cells.append(tags[path.name] + (" (earlier)" if (graph, setting) == last else ""))
        last = (graph, setting)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _rel(p, out):
    return Path(os.path.relpath(p, out.parent)).as_posix()


def _slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


# ---------------------------------------------------------------- plots
def speedup_bars(engine, by_algo):
    """``[(case label, series, la_graph's speed-up)]``: every peer's time over la_graph's on the engine's rows."""
    ours = f"la_graph[{engine}]"
    bars = []
    for algo, cases in by_algo.items():
        for (graph, setting), _, _, rows in cases:
            mine = rows[ours]
            for k, r in rows.items():
                if k != ours and r["status"] == "ok" and mine["status"] == "ok":
                    bars.append((f"{algo} {graph} {setting}".strip(), f"vs {k}", per_call_ms(r) / per_call_ms(mine)))
    return bars


def plot_speedups(bars, path, title=""):
    """la_graph's speed-up over each peer, per algorithm and graph (bars, log scale; > 1: la_graph faster)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(dict.fromkeys(b[0] for b in bars))
    series = sorted({b[1] for b in bars}, key=lambda s: _peer_rank(s.removeprefix("vs ")))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(6.4, 0.3 * len(labels) + 2), 5.2))
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
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))], labels, rotation=70, ha="right", fontsize=6)
    ax.set_ylabel("la_graph speed-up (peer time / ours)")
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


# ---------------------------------------------------------------- the page
_INTRO = """\
# Benchmarks

la_graph is measured against the tools people use — scipy, igraph, NetworkX,
graphblas-algorithms, and on the GPU the ECL suite (the fastest published CUDA
codes) and our own CUDA baselines — **in one run on one machine**, and every
answer is checked with `la_graph.verify`: a wrong answer shows as **WRONG**,
never as a time.

How to read the tables: times are the median milliseconds of one call, **per
source** for traversals from several sources (BFS, SSSP, reachability: one
call runs them all). Each peer's cell shows its time and, in brackets, la_graph's
speed-up over it (the peer's time divided by la_graph's: above 1, la_graph is
faster). `Medges/s` is the edges la_graph's call covered per second (for
traversals, TEPS). Each row comes from the newest run that measured la_graph
on that graph, and the peers' times are from **the same run**; where that run
had no peer and an earlier one did, the earlier run's row follows, marked
"earlier". The last column names the run; the runs are listed, with their
machines, at the end of each engine's section.

Reproduce or extend: `la-graph bench` (see the [command line](cli.md)) writes a
JSON record into `{results}/`; `la-graph bench --report {results}/*.json`
writes this page from the records, and its plots. Do not edit it by hand.
"""


def _hardware(doc):
    """The machine in a few words: CPU, cores, memory, GPUs."""
    m = doc.get("machine", {})
    text = f"CPU {m.get('cpu', '?')}, {m.get('cores', '?')} cores"
    if m.get("memory_gib"):
        text += f", {m['memory_gib']:.0f} GiB"
    gpus = [g.split(",")[0] for g in m.get("gpus") or ()]
    if gpus:
        text += ", GPU " + (f"{len(gpus)} × {gpus[0]}" if len(set(gpus)) == 1 and len(gpus) > 1 else "; ".join(gpus))
    return text


def _machine_line(doc):
    m = doc.get("machine", {})
    v = m.get("versions", {})
    bits = [_hardware(doc)]
    libs = ", ".join(f"{k} {v[k]}" for k in ("python-graphblas", "suitesparse-graphblas", "scipy", "igraph",
                                               "networkx", "graphblas-algorithms", "cupy-cuda12x", "cupy-cuda13x")
                     if k in v)
    if libs:
        bits.append(libs)
    if m.get("git"):
        bits.append(f"commit {m['git']}")
    return "; ".join(bits)


def _scaling_pick(scaling):
    """The distributed engine's current scaling records: per worker kind and scaling kind, the complete
    record reaching the most workers, then with the most measured rows (the newest of equals): a small
    machine's record never hides a larger one's."""
    best = {}
    for path, doc in scaling:
        if doc.get("partial"):
            continue
        kind = "weak" if any(r.get("scaling") == "weak" for r in doc["rows"]) else "strong"
        rows = [r for r in doc["rows"] if r.get("algo") != "build" and "error" not in r]
        rank = (max((r["workers"] for r in rows), default=0),
                len({(r["graph"], r["algo"], r["workers"]) for r in rows}), doc["date"])
        k = (doc["local"], kind)
        if k not in best or rank > best[k][0]:
            best[k] = (rank, path, doc)
    return [(p, d) for _, p, d in sorted(best.values(), key=lambda b: (b[2]["local"] != "cpu", b[1].name))]


def scaling_line(path, doc):
    """The page's line for one scaling record of the distributed engine: its name, kind, machine and checks
    (its tables and plot are read in docs/scaling.md, which cites it)."""
    kind = "weak" if any(r.get("scaling") == "weak" for r in doc["rows"]) else "strong"
    rows = [r for r in doc["rows"] if r["algo"] != "build" and "error" not in r]
    wrong = sum(r.get("checked") is False for r in rows)
    checked = sum(r.get("checked") is True for r in rows)
    errors = [r for r in doc["rows"] if "error" in r]
    workers = sorted({r["workers"] for r in rows})
    verdict = (f"**WRONG** on {wrong} of {len(rows)} runs" if wrong
               else f"{len(rows)} runs, every answer checked" if checked == len(rows)
               else f"{len(rows)} runs, {checked} answers checked")
    failed = f"; {len(errors)} runs failed" if errors else ""
    return (f"- `{path.name}`: {doc['local'].upper()} workers, {kind} scaling over "
            f"{', '.join(map(str, workers))} workers; {doc['date']}; {doc['machine']}; {verdict}{failed}")


def _scaling_png(path, img_dir):
    return img_dir / f"{_slug(path.stem)}.png"


def render(paths, out=PAGE, img_dir=None, plots=True, skip_others=False, skipped=None):
    """Write the page (and, with ``plots``, its plots into ``img_dir``, default ``<out stem>/`` beside it).

    ``skip_others`` and ``skipped`` as :func:`load`'s; an error when no file is a record.
    The page's text does not depend on ``plots``: it names the plots either way.
    Returns the page's path.
    """
    scaling = []
    docs = load(paths, skip_others, scaling, skipped)
    if not docs and not scaling:
        raise FileFormatError(f"none of {', '.join(map(str, paths)) or 'no files'} is a benchmark record "
                              "of la-graph bench")
    out = Path(out)
    img_dir = Path(img_dir) if img_dir else out.with_suffix("")
    parts = [_INTRO.format(results=RESULTS.as_posix())]
    figures = []       # (plot function, its arguments) to draw once the page's text is known
    for engine, name in _ENGINES.items():
        by_algo = current(docs, engine)
        if not by_algo:
            continue
        used = list(dict.fromkeys(path for cases in by_algo.values() for _, path, _, _ in cases))
        used.sort(key=lambda p: next(d["date"] for q, d in docs if q == p))
        tags = {p.name: f"{engine[0]}{i}" for i, p in enumerate(used, 1)}
        machines = sorted({_hardware(d) for p, d in docs if p in used})
        parts += [f"## {name}", "", "Measured on: " + "; ".join(machines) + ".", ""]
        if engine == "gpu":
            parts += ["la_graph's GPU calls are timed with the device synchronised before and after, the graph (and, "
                      "where the function offers it, the result) on the device; the ECL programs report their own "
                      "kernel time; scipy and the other CPU peers run on the same host's cores.", ""]
        for algo, cases in by_algo.items():
            title = ALGORITHMS[algo].title if algo in ALGORITHMS else algo
            parts += [f"### {title}", "", table(engine, cases, tags), ""]
        bars = speedup_bars(engine, by_algo)
        if bars:
            p = img_dir / f"{engine}-speedup.png"
            figures.append((plot_speedups, (bars, p, f"{name}: la_graph's speed-up over each peer")))
            parts += [f"![{name}: la_graph's speed-up over each peer]({_rel(p, out)})", ""]
        parts += [f"### {name}: the runs", "", "| run | record | date | machine | command |", "|---|---|---|---|---|"]
        for p in used:
            d = next(d for q, d in docs if q == p)
            cmd = (d.get("command") or "").replace("|", "\\|")
            parts.append(f"| {tags[p.name]} | `{p.name}` | {d['date'][:10]} | {_machine_line(d)} | "
                         + (f"`{cmd}`" if cmd else "—") + " |")
        parts.append("")
    picked = _scaling_pick(scaling)
    if picked:
        # docs/scaling.md shows and reads these records' tables and plots; this page lists the records
        parts += ["## Distributed engine", "",
                  "Strong and weak scaling of the Dask engine (`python -m la_graph.bench.scaling`): the tables, "
                  "their plots and what they show are in [scaling out](scaling.md#measured). The current records:",
                  ""]
        for path, doc in picked:
            parts.append(scaling_line(path, doc))
            if any(r["algo"] != "build" and "error" not in r for r in doc["rows"]):
                figures.append((plot_scaling, (doc, _scaling_png(path, img_dir))))
        parts.append("")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(parts).rstrip() + "\n")
    if plots and figures:
        img_dir.mkdir(parents=True, exist_ok=True)
        for fn, args in figures:
            fn(*args)
    return out
