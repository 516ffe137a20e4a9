"""The dask engine's connection and cluster start: an address that is no scheduler, an unguarded script,
and the hint on latency-bound algorithms (issue 37)."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
import time
import warnings

import pytest

import la_graph as lg

dask = pytest.importorskip("dask")
pytest.importorskip("distributed")

from la_graph.algorithms import steps  # noqa: E402
from la_graph.engines.dask import LATENCY_BOUND, DaskEngine, LatencyWarning  # noqa: E402
from la_graph.engines.dask.operators import _LatencyNotes  # noqa: E402


def _refused(address):
    """The EngineUnavailable of connecting to ``address``, and the seconds it took (connect timeout 1 s)."""
    t = time.perf_counter()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(lg.EngineUnavailable) as info:
            DaskEngine(address=address).client
    return str(info.value), time.perf_counter() - t


def test_an_http_server_is_no_scheduler():
    """The dashboard's 8787 for the scheduler's 8786, or any HTTP server: Client(address) hung for good."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"tcp://127.0.0.1:{server.server_address[1]}"
        text, seconds = _refused(address)
    finally:
        server.shutdown()
        server.server_close()
    assert seconds < 8
    assert repr(address) in text and "not a Dask scheduler" in text and "8786" in text


def test_a_silent_listener_is_no_scheduler():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        text, seconds = _refused(f"tcp://127.0.0.1:{s.getsockname()[1]}")
    assert seconds < 8 and "sent no Dask handshake" in text


def test_other_bytes_are_no_scheduler():
    """A server that answers first with other bytes: distributed's frame reader tried to allocate 3 EiB."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()

        def answer():
            c, _ = s.accept()
            c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            time.sleep(2)
            c.close()

        threading.Thread(target=answer, daemon=True).start()
        text, seconds = _refused(f"tcp://127.0.0.1:{s.getsockname()[1]}")
    assert seconds < 8 and "not Dask's protocol" in text and "EiB" not in text


def test_unguarded_script_is_refused(tmp_path):
    """A script that starts the LocalCluster from its top level without the main guard: one clear error,
    raised before any worker process starts (was 337 lines of 'Nanny failed to start')."""
    script = tmp_path / "unguarded.py"
    script.write_text("import la_graph as lg\nlg.bfs(lg.generators.path(3), 0, engine='dask')\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert 'if __name__ == "__main__":' in r.stderr and "EngineUnavailable" in r.stderr
    assert "Nanny" not in r.stderr


def test_latency_bound_steps_are_steps():
    assert set(LATENCY_BOUND) <= set(steps.STEPS)


def test_latency_warning_lives_with_the_other_exceptions():
    assert LatencyWarning is lg.exceptions.LatencyWarning is lg.LatencyWarning     # the dask engine re-exports it


def test_latency_warning_once_per_algorithm(monkeypatch):
    notes = _LatencyNotes()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert notes.get("sssp_relax") is None and notes.get("sssp_batch") is None
            assert notes.get("fastsv_round") is None        # cc: a few rounds, no hint
    assert [str(w.message).split()[0] for w in caught] == ["sssp"]
    assert caught[0].category is LatencyWarning and "cpu engine" in str(caught[0].message)
    assert len(notes) == 0 and dict(notes) == {}
