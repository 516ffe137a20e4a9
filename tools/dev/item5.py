"""Issue 18 item 5 rule on a bench record: GPU <= max(2 x CPU engine, 5 ms)."""
import json, sys
from collections import defaultdict
for f in sys.argv[1:]:
    d = json.load(open(f))
    t = defaultdict(dict)
    for r in d["results"]:
        if r.get("status") != "ok" or r["impl"] not in ("la_graph[gpu]", "la_graph[cpu]"):
            continue
        if r.get("variant"): continue
        t[(r["algorithm"], r["graph"], r["setting"])][r["engine"]] = r["median_s"] * 1e3
    ok = bad = 0
    for k, v in sorted(t.items()):
        if "gpu" in v and "cpu" in v:
            lim = max(2 * v["cpu"], 5.0)
            good = v["gpu"] <= lim
            ok += good; bad += not good
            if not good:
                print(f"  MISS {k[0]:13s} {k[1]:18s} {k[2]:20s} gpu {v['gpu']:9.2f}  cpu {v['cpu']:8.2f}  limit {lim:.2f}")
    print(f"{f}: {ok} of {ok + bad} rows meet the rule")
