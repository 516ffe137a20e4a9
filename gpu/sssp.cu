// One shortest-path relaxation on the device (the engine's sssp_relax step for a
// single-source frontier vector), in three launches over the frontier's edges:
//
//   sssp_relax:  for every edge u -> v of the frontier (u = fr[i], with the
//                distance fq[i] it entered the frontier with): x = fq[i] + w;
//                d[v] min= x (a CAS loop: weights may be negative); the first
//                lane to flag v appends it to the next frontier (nxt, *count);
//   sssp_parent: pc[v] min= u over the frontier edges with fq[i] + w == d[v]
//                into a flagged v (the smallest frontier vertex giving the new
//                distance, as the primitives version picks it);
//   sssp_finish: for each new frontier vertex: parent[v] = pc[v] (when kept)
//                and its value nq[k] = d[v].
//
// A group of gs lanes shares one frontier vertex's row.  The engine gives d and
// parent fresh copies and fresh zeroed scratch (flag, pc) before the launches.

template <typename IT>
__global__ void sssp_relax(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                           const double* __restrict__ w, const long long* __restrict__ fr,
                           const double* __restrict__ fq, long long nf, double* d, int* flag,
                           long long* nxt, unsigned long long* count, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = tid / gs; i < nf; i += ngroups) {
    const long long u = fr[i];
    const double du = fq[i];
    const long long end = (long long)indptr[u + 1];
    for (long long p = (long long)indptr[u] + sub; p < end; p += gs) {
      const long long v = (long long)indices[p];
      const double x = du + w[p];
      if (x < d[v]) {
        la_atomic_min(&d[v], x);
        if (atomicExch(&flag[v], 1) == 0) nxt[atomicAdd(count, 1ULL)] = v;
      }
    }
  }
}

template <typename IT>
__global__ void sssp_parent(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                            const double* __restrict__ w, const long long* __restrict__ fr,
                            const double* __restrict__ fq, long long nf, const double* __restrict__ d,
                            const int* __restrict__ flag, long long* pc, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = tid / gs; i < nf; i += ngroups) {
    const long long u = fr[i];
    const double du = fq[i];
    const long long end = (long long)indptr[u + 1];
    for (long long p = (long long)indptr[u] + sub; p < end; p += gs) {
      const long long v = (long long)indices[p];
      if (flag[v] && du + w[p] == d[v] && u < pc[v]) la_atomic_min(&pc[v], u);
    }
  }
}

template <typename PT>
__global__ void sssp_finish(const long long* __restrict__ nxt, long long m, const double* __restrict__ d,
                            const PT* __restrict__ pc, PT* parent, int keep_parent, double* __restrict__ nq) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < m; k += stride) {
    const long long v = nxt[k];
    nq[k] = d[v];
    if (keep_parent) parent[v] = pc[v];
  }
}
