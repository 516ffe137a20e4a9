"""Run every native baseline's selftest against scipy: ``python -m la_graph.bench.native.selftest`` (needs a GPU)."""

from importlib import import_module

if __name__ == "__main__":
    for name in ("queue_bfs", "harish_sssp", "blocked_fw", "boruvka"):
        print(f"{name}: {import_module(f'la_graph.bench.native.{name}').selftest()} graphs agree with scipy", flush=True)
