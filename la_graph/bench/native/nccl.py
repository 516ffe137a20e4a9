"""What NCCL takes to move a vector exchange's bytes between the GPUs of one host.

The distributed engine moves vector segments and partial results between its
workers through Dask; :func:`exchange_ms` times NCCL's all-gather and
all-reduce of the same number of bytes between the same GPUs (one process
driving every GPU, CuPy's ``cupy.cuda.nccl``), the yardstick issue 23 asks the
engine's exchange to be set against.  NVLink multicast stays off
(``NCCL_NVLS_ENABLE=0``).

Run ``python -m la_graph.bench.native.nccl BYTES``.
"""

from __future__ import annotations

import os
import sys
import time


def exchange_ms(nbytes, devices=None, repeat=20):
    """Median ms of an all-gather (each GPU contributes ``nbytes / p``) and an all-reduce of ``nbytes``.

    ``nbytes`` may be a list of sizes: then a list of results, measured over one set of communicators.
    """
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    import cupy as cp
    from cupy.cuda import nccl
    devices = list(range(cp.cuda.runtime.getDeviceCount())) if devices is None else list(devices)
    p = len(devices)
    comms = nccl.NcclCommunicator.initAll(devices)
    many = isinstance(nbytes, (list, tuple))
    out = []
    for size in nbytes if many else [nbytes]:
        count = max(1, int(size) // 8 // p) * p
        bufs = []
        for d in devices:
            with cp.cuda.Device(d):
                bufs.append((cp.ones(count, cp.float64), cp.empty(count, cp.float64)))

        def timed(op):
            times = []
            for _ in range(repeat + 2):
                for d in devices:
                    cp.cuda.Device(d).synchronize()
                t = time.perf_counter()
                nccl.groupStart()
                for k, d in enumerate(devices):
                    with cp.cuda.Device(d):
                        send, recv = bufs[k]
                        stream = cp.cuda.get_current_stream().ptr
                        if op == "allgather":
                            comms[k].allGather(send.data.ptr, recv.data.ptr, count // p, nccl.NCCL_FLOAT64, stream)
                        else:
                            comms[k].allReduce(send.data.ptr, recv.data.ptr, count, nccl.NCCL_FLOAT64,
                                               nccl.NCCL_SUM, stream)
                nccl.groupEnd()
                for d in devices:
                    cp.cuda.Device(d).synchronize()
                times.append((time.perf_counter() - t) * 1e3)
            times = sorted(times[2:])
            return times[len(times) // 2]

        out.append({"devices": p, "bytes": count * 8, "allgather_ms": timed("allgather"),
                    "allreduce_ms": timed("allreduce")})
        del bufs
    return out if many else out[0]


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["8000000"]:
        print(exchange_ms(int(float(arg))))
