// Shortest paths on the device.
//
// (1) One relaxation (the engine's sssp_relax step for a single-source frontier
// vector, which the algebraic Bellman-Ford loops over), in three launches over
// the frontier's edges:
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
//
// (2) Delta-stepping from a bucket on, every bucket in ONE launch (sssp_nearfar,
// the engine's sssp_delta_stepping step): near-far (Davidson et al. 2014) in a
// persistent kernel, one block per multiprocessor and a grid barrier between
// phases (la_grid_barrier), so no host round trip per bucket or relaxation.

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

// ---------------------------------------------------------------- near-far, one launch
// Round r takes a list of vertices (in, st[r % 3] of them) whose distance changed
// (or that a new bucket brought in).  Phase R: each one's parent becomes the
// candidate the last phase P found for it (pc); one at or past the bucket's end
// (thr) joins the far pile (once: farmark), the others relax their out-edges:
// d[u] min= d[v] + w (non-negative distances: their bits order as the values, so
// one integer atomicMin), and the first lane to lower u in this round (flag[u] =
// r + 1) appends u to the next list.  Phase P (with parents): pc[u] min= v over
// the edges of phase R with d[v] + w == d[u] into a u lowered in this round (fq
// holds the d[v] phase R used; -1: not relaxed).  An empty list ends the bucket:
// the least far distance m picks the next bucket of width `width` (bounds
// computed as the algebra computes them), whose far vertices form the next list;
// the others stay far, and those already settled below the old end leave the
// pile.  m = inf: done.  st: [0..2] list lengths (round r reads st[r % 3], clears
// st[(r + 2) % 3]), [3], [4] far pile lengths, [6], [7] the least far distance's
// bits (by bucket parity), [8] rounds, [9] buckets; the host sets st[0], st[6],
// st[7], the rest 0.
//
// A group of gs lanes takes a vertex's row; a row longer than NF_BIG goes to a
// list of its block, which all the block's threads then take row by row (so a hub
// does not hold the whole grid at the next barrier).
#define NF_BIG 512
#define NF_BIGCAP 256

template <typename IT>
__device__ __forceinline__ void nf_relax(const IT* __restrict__ indices, const double* __restrict__ w, double* d,
                                         int* flag, long long* out, unsigned long long* nout, double dv,
                                         long long p, long long end, long long stride, int tag) {
  for (; p < end; p += stride) {
    const long long u = (long long)indices[p];
    const double x = dv + w[p];
    if (x < __ldcg(&d[u])) {
      atomicMin((long long*)&d[u], __double_as_longlong(x));
      if (atomicExch(&flag[u], tag) != tag) out[atomicAdd(nout, 1ULL)] = u;
    }
  }
}

template <typename IT>
__device__ __forceinline__ void nf_parent(const IT* __restrict__ indices, const double* __restrict__ w,
                                          const double* d, const int* flag, long long* pc, long long v, double dv,
                                          long long p, long long end, long long stride, int tag) {
  for (; p < end; p += stride) {
    const long long u = (long long)indices[p];
    if (__ldcg(&flag[u]) == tag && dv + w[p] == __ldcg(&d[u]) && v < __ldcg(&pc[u])) atomicMin(&pc[u], v);
  }
}

// A row longer than NF_BIG goes to the block's list (v, dv) for all its threads to take; true when it
// went (false when short, or when the list is full: then the group takes it itself).
__device__ __forceinline__ bool nf_defer(long long v, double dv, long long len, long long* big_v, double* big_d,
                                         int* nbig, int sub, unsigned gmask, int gs) {
  if (len <= NF_BIG) return false;
  int k = 0;
  if (sub == 0) {
    k = atomicAdd(nbig, 1);
    if (k < NF_BIGCAP) {
      big_v[k] = v;
      big_d[k] = dv;
    }
  }
  if (gs > 1) k = __shfl_sync(gmask, k, 0, gs);
  return k < NF_BIGCAP;
}

template <typename IT>
__global__ void __launch_bounds__(512, 2) sssp_nearfar(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                                       const double* __restrict__ w, double* d, long long* pv,
                                                       long long* pc, int* flag, int* farmark, long long* la,
                                                       long long* lb, double* fq, long long* fa, long long* fb,
                                                       long long* st, double thr, double width, int gs,
                                                       unsigned* bar) {
  __shared__ long long big_v[NF_BIGCAP];
  __shared__ double big_d[NF_BIGCAP];
  __shared__ int nbig;
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const long long ngroups = nthreads / gs;
  const bool keep = pv != nullptr;
  int fcur = 0;
  long long r = 0, nb = 0;
  for (;;) {
    const long long nin = __ldcg(&st[r % 3]);
    if (tid == 0) st[(r + 2) % 3] = 0;  // round r - 1's length: every block has read it
    const long long* in = (r & 1) ? lb : la;
    long long* out = (r & 1) ? la : lb;
    unsigned long long* nout = (unsigned long long*)&st[(r + 1) % 3];
    if (nin == 0) {  // the bucket is settled: the next one is the far pile's least
      const long long* fin = fcur ? fb : fa;
      long long* fout = fcur ? fa : fb;
      const long long nfar = __ldcg(&st[3 + fcur]);
      long long* least = &st[6 + (nb & 1)];
      if (tid == 0) {
        st[3 + (fcur ^ 1)] = 0;
        st[6 + ((nb + 1) & 1)] = 0x7ff0000000000000LL;
      }
      for (long long i = tid; i < nfar; i += nthreads) {
        const double x = __ldcg(&d[__ldcg(&fin[i])]);
        if (x >= thr) atomicMin(least, __double_as_longlong(x));
      }
      la_grid_barrier(bar, gridDim.x);
      const double m = __longlong_as_double(__ldcg(least));
      if (!(m < __longlong_as_double(0x7ff0000000000000LL))) break;  // the same in every block
      double b = floor(m / width);
      while (b * width > m) b -= 1;
      while ((b + 1) * width <= m) b += 1;
      const double lo = thr;
      thr = (b + 1) * width;
      for (long long i = tid; i < nfar; i += nthreads) {
        const long long v = __ldcg(&fin[i]);
        const double x = __ldcg(&d[v]);
        if (x < thr) {
          farmark[v] = 0;
          if (x >= lo) out[atomicAdd(nout, 1ULL)] = v;
        } else {
          fout[atomicAdd((unsigned long long*)&st[3 + (fcur ^ 1)], 1ULL)] = v;
        }
      }
      la_grid_barrier(bar, gridDim.x);
      fcur ^= 1;
      nb += 1;
      r += 1;
      continue;
    }
    const int tag = (int)(r + 1);
    long long* far = fcur ? fb : fa;
    if (threadIdx.x == 0) nbig = 0;
    __syncthreads();
    for (long long i = tid / gs; i < nin; i += ngroups) {
      const long long v = __ldcg(&in[i]);
      double dv = 0;
      if (sub == 0) {
        if (keep) {
          const long long c = __ldcg(&pc[v]);
          if (c != LA_LLONG_MAX) {
            pv[v] = c;
            pc[v] = LA_LLONG_MAX;
          }
        }
        dv = __ldcg(&d[v]);  // one read for the group: d[v] may drop meanwhile
      }
      if (gs > 1) dv = __shfl_sync(gmask, dv, 0, gs);
      if (dv >= thr) {
        if (sub == 0) {
          fq[i] = -1.0;
          if (atomicExch(&farmark[v], 1) == 0) far[atomicAdd((unsigned long long*)&st[3 + fcur], 1ULL)] = v;
        }
        continue;
      }
      if (sub == 0) fq[i] = dv;
      const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
      if (nf_defer(v, dv, end - start, big_v, big_d, &nbig, sub, gmask, gs)) continue;
      nf_relax(indices, w, d, flag, out, nout, dv, start + sub, end, gs, tag);
    }
    __syncthreads();
    for (int j = 0; j < min(nbig, NF_BIGCAP); ++j) {
      const long long v = big_v[j];
      nf_relax(indices, w, d, flag, out, nout, big_d[j], (long long)indptr[v] + threadIdx.x,
               (long long)indptr[v + 1], blockDim.x, tag);
    }
    la_grid_barrier(bar, gridDim.x);
    if (keep) {
      if (threadIdx.x == 0) nbig = 0;
      __syncthreads();
      for (long long i = tid / gs; i < nin; i += ngroups) {
        const double dv = __ldcg(&fq[i]);
        if (dv < 0) continue;
        const long long v = __ldcg(&in[i]);
        const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
        if (nf_defer(v, dv, end - start, big_v, big_d, &nbig, sub, gmask, gs)) continue;
        nf_parent(indices, w, d, flag, pc, v, dv, start + sub, end, gs, tag);
      }
      __syncthreads();
      for (int j = 0; j < min(nbig, NF_BIGCAP); ++j) {
        const long long v = big_v[j];
        nf_parent(indices, w, d, flag, pc, v, big_d[j], (long long)indptr[v] + threadIdx.x,
                  (long long)indptr[v + 1], blockDim.x, tag);
      }
      la_grid_barrier(bar, gridDim.x);
    }
    r += 1;
  }
  if (tid == 0) {
    st[8] = r;
    st[9] = nb;
  }
}

// ---------------------------------------------------------------- parents after the search
// With every weight positive a shortest-path tree needs no record of the search:
// pc[v] = the smallest u with d[u] + w(u, v) == d[v] and d[u] < d[v] (so the
// parents strictly decrease d: no cycle), one pass over the edges of the reached
// vertices after sssp_nearfar has run without its parent phase.  A group of gs
// lanes takes a row.  (A weight below half an ulp of a distance can leave v with
// no such u; the engine checks for that and then runs the search with parents.)
template <typename IT>
__global__ void sssp_pred(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                          const double* __restrict__ w, const double* __restrict__ d, long long* pc, long long n,
                          int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / gs; u < n; u += ngroups) {
    const double du = d[u];
    if (!(du < __longlong_as_double(0x7ff0000000000000LL))) continue;
    const long long end = (long long)indptr[u + 1];
    for (long long p = (long long)indptr[u] + sub; p < end; p += gs) {
      const long long v = (long long)indices[p];
      const double dv = d[v];
      if (du < dv && du + w[p] == dv && u < pc[v]) atomicMin(&pc[v], u);
    }
  }
}
