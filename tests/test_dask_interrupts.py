"""Ctrl-C during a dask-engine computation (issue 37): control comes back at once, the LocalCluster's
workers neither die nor hang, and the next call on the same engine works.

Run as a user runs it: a script in a process of its own, the engine's LocalCluster of worker processes,
and SIGINT sent to the whole process group, as a terminal's Ctrl-C does (the workers keep SIGINT
blocked: the script alone is interrupted).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")        # (distributed needs it)

ROOT = Path(__file__).resolve().parents[1]

#: a BFS over a 20,000-vertex path: a level per vertex, each a Dask round trip (milliseconds): a minute or more
SCRIPT = """
import time
import la_graph as lg

if __name__ == "__main__":
    E = lg.get_engine("dask")
    print(lg.bfs(lg.generators.path(3), 0, engine=E).level.tolist(), flush=True)      # the cluster is up
    G = lg.generators.path(20000)
    print("started", flush=True)
    t = time.perf_counter()
    try:
        lg.bfs(G, 0, engine=E)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {time.perf_counter() - t:.2f} s", flush=True)
    print("next", lg.bfs(lg.generators.path(4), 0, engine=E).level.tolist(), flush=True)
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups (POSIX)")
def test_ctrl_c_returns_at_once_and_the_next_call_works(tmp_path):
    script = tmp_path / "long_bfs.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "LA_GRAPH_ENGINE": "cpu", "PYTHONWARNINGS": "ignore"}
    env.pop("LA_GRAPH_DASK_SCHEDULER", None)                       # the engine's own LocalCluster
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, start_new_session=True)         # a group of its own, as a terminal's job
    try:
        assert p.stdout.readline().strip() == "[0, 1, 2]"
        assert p.stdout.readline().strip() == "started"
        workers, deadline = [], time.monotonic() + 10   # on a loaded machine the list can lag the cluster's start
        while not workers and time.monotonic() < deadline:
            workers = psutil.Process(p.pid).children(recursive=True)
            time.sleep(0.1)
        assert workers, f"the engine started no worker processes (process {p.pid}, alive: {p.poll() is None})"
        time.sleep(1.5)                                            # well into the search
        sent = time.perf_counter()
        os.killpg(p.pid, signal.SIGINT)                            # Ctrl-C: the whole group
        out, err = p.communicate(timeout=60)
        took = time.perf_counter() - sent
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    lines = out.splitlines()
    assert lines[0].startswith("interrupted after"), (out, err)
    assert float(lines[0].split()[2]) < 1.5 + 5, lines[0]             # the search stopped at once
    assert lines[1] == "next [0, 1, 2, 3]", (out, err)
    assert p.returncode == 0, err
    assert took < 30, f"{took:.1f} s from Ctrl-C to the script's end"
    assert "KeyboardInterrupt" not in err, err                     # no worker saw it
    gone, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive, f"worker processes left running: {[w.pid for w in alive]}"
