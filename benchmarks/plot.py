"""Plot a benchmark JSON: one panel per algorithm, median time per graph and tool (log scale)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def plot(doc, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    algos = sorted({r["algorithm"] for r in doc["results"]})
    graphs = [g["graph"] for g in doc["graphs"]]
    fig, axes = plt.subplots(1, len(algos), figsize=(6 * len(algos), 4.5), squeeze=False)
    for ax, algo in zip(axes[0], algos):
        rs = [r for r in doc["results"] if r["algorithm"] == algo]
        series = sorted({(r["tool"], r["variant"]) for r in rs})
        width = 0.8 / len(series)
        for i, (tool, variant) in enumerate(series):
            ys = []
            for g in graphs:
                m = [r["median_s"] * 1e3 for r in rs if r["graph"] == g and r["tool"] == tool and r["variant"] == variant]
                ys.append(m[0] if m else 0)
            ax.bar([k + i * width for k in range(len(graphs))], ys, width, label=f"{tool} ({variant})")
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(graphs))], graphs, rotation=15)
        ax.set_yscale("log")
        ax.set_ylabel("median time (ms, log scale)")
        ax.set_title(f"{algo} — {doc['engine']} engine, {doc['date'][:10]}")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


if __name__ == "__main__":
    src = Path(sys.argv[1])
    print(plot(json.loads(src.read_text()), src.with_suffix(".png")))
