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
// persistent kernel, two blocks per multiprocessor (or fewer blocks) and a grid
// barrier between phases (la_grid_sync), so no host round trip per bucket or
// relaxation; bucket widths adapt to the work (a histogram of the far distances).
// (3) With positive weights, the parents in one pass after it (sssp_pred).

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
// (or that a new bucket brought in).  Phase R, in slices of a block's threads, one
// entry a thread: each one's parent becomes the candidate the last phase P found for
// it (pc); one at or past the bucket's end (thr) joins the far pile (once: farmark),
// the others (gathered in the block's shared list) relax their out-edges: d[u] min=
// d[v] + w (non-negative distances: their bits order as the values, so one integer
// atomicMin), and the first lane to flag a lowered u in this round (flag[u] = r + 1)
// appends it to the next list.  A group of gs lanes takes a near vertex's row; a row
// longer than `big` is cut into chunks of `chunk` edges (cv, cd, ck: vertex,
// distance, first edge), which every warp of the grid takes one at a time after a
// grid barrier (a hub does not hold the grid up at the next barrier).  Phase P (with
// parents): pc[u] min= v over the edges of phase R with d[v] + w == d[u] into a u
// lowered in this round (fq holds the d[v] phase R used; -1: not relaxed).
//
// An empty list ends the bucket.  The far pile's least distance m (or none: done)
// and, with target > 0, a histogram of the far distances in bins of `grain` from the
// bucket's end (each vertex counts its out-degree + 1) pick the next end: the bin of
// m ends the next bucket when target is 0 (fixed widths); otherwise the bucket takes
// bins from m's on until they hold `target` (the work it is expected to relax) or
// the histogram ends, at most `grow` times the last bucket's bins (half of them when
// the last bucket relaxed more than twice the target): wide buckets where the work is
// thin (a power-law graph's tail of leaves), narrow ones where it is dense (its core,
// where a vertex relaxed before its distance is final is relaxed again).  The far
// vertices below the new end form the next list; the others stay far, and those
// settled below the old end leave the pile.  Any sequence of ends gives the same
// distances: each bucket runs until no distance changes.
//
// st (int64): [0..2] list lengths (round r reads st[r % 3], clears st[(r + 2) % 3]),
// [3], [4] far pile lengths, [6], [7] the least far distance's bits (by bucket
// parity), [8] rounds, [9] buckets, [10] edges relaxed, [11], [12] chunk counts (by
// round parity), [13] set when a chunk list overflowed (never, with capacity for
// every long row once).  The host sets st[0], st[6], the rest 0.  hist: 2 x NF_BINS
// (by bucket parity), 0 at launch; bar: the grid barrier's count, 0 at launch.
#define NF_BINS 256
#define NF_BLOCK 512   // threads a block (the launch's)
#define NF_FAR 3
#define NF_LEAST 6
#define NF_ROUNDS 8
#define NF_BUCKETS 9
#define NF_WORK 10
#define NF_NCH 11
#define NF_OVER 13

__device__ __forceinline__ long long nf_min(long long a, long long b) { return a < b ? a : b; }
__device__ __forceinline__ long long nf_max(long long a, long long b) { return a > b ? a : b; }

template <typename IT>
__device__ __forceinline__ void nf_relax(const IT* __restrict__ indices, const double* __restrict__ w, double* d,
                                         int* flag, long long* out, unsigned long long* nout, double dv,
                                         long long p, long long end, int stride, int tag) {
  for (; p < end; p += stride) {
    const long long u = (long long)indices[p];
    const double x = dv + w[p];
    if (x < __ldcg(&d[u])) {  // any lane that lowers u flags it; its return value is not waited for
      atomicMin((long long*)&d[u], __double_as_longlong(x));
      if (atomicExch(&flag[u], tag) != tag) out[la_agg_inc(nout)] = u;
    }
  }
}

template <typename IT>
__device__ __forceinline__ void nf_parent(const IT* __restrict__ indices, const double* __restrict__ w,
                                          const double* d, const int* flag, long long* pc, long long v, double dv,
                                          long long p, long long end, int stride, int tag) {
  for (; p < end; p += stride) {
    const long long u = (long long)indices[p];
    if (__ldcg(&flag[u]) == tag && dv + w[p] == __ldcg(&d[u]) && v < __ldcg(&pc[u])) atomicMin(&pc[u], v);
  }
}

// Row [start, end) of v (longer than `big`) as chunks for the grid's warps; false when the list has no room
// (then the group relaxes the row itself, and st[NF_OVER] tells the host).
__device__ __forceinline__ bool nf_chunks(long long v, double dv, long long start, long long end, long long* cv,
                                          double* cd, long long* ck, long long cap, long long* st,
                                          unsigned long long* nch, int chunk, int sub, unsigned gmask, int gs) {
  const long long nc = (end - start + chunk - 1) / chunk;
  long long base = 0;
  if (sub == 0) base = (long long)atomicAdd(nch, (unsigned long long)nc);
  if (gs > 1) base = __shfl_sync(gmask, base, 0, gs);
  if (base + nc > cap) {
    if (sub == 0) st[NF_OVER] = 1;
    return false;
  }
  for (long long k = sub; k < nc; k += gs) {
    cv[base + k] = v;
    cd[base + k] = dv;
    ck[base + k] = start + k * chunk;
  }
  return true;
}

// The least bin j with hist[0..j] summing to >= target, else NF_BINS - 1 (by the block's first warp:
// each lane sums 8 bins, a scan over the lanes, then the lane that crosses the target reads its bins again).
__device__ __forceinline__ int nf_pick(const unsigned long long* hist, unsigned long long target) {
  const int lane = threadIdx.x & 31;
  const unsigned long long* mine = hist + lane * (NF_BINS / 32);
  unsigned long long sum = 0;
#pragma unroll
  for (int k = 0; k < NF_BINS / 32; ++k) sum += __ldcg(&mine[k]);
  unsigned long long inc = sum;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned long long t = __shfl_up_sync(0xffffffffu, inc, off);
    if (lane >= off) inc += t;
  }
  const unsigned hit = __ballot_sync(0xffffffffu, inc >= target);
  if (!hit) return NF_BINS - 1;
  const int owner = __ffs(hit) - 1;
  int j = NF_BINS / 32 - 1;
  if (lane == owner) {
    unsigned long long c = inc - sum;
    for (int k = 0; k < NF_BINS / 32; ++k) {
      c += __ldcg(&mine[k]);
      if (c >= target) {
        j = k;
        break;
      }
    }
  }
  return owner * (NF_BINS / 32) + __shfl_sync(0xffffffffu, j, owner);
}

template <typename IT>
__global__ void __launch_bounds__(NF_BLOCK, 2) sssp_nearfar(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const double* __restrict__ w, double* d,
    long long* pv, long long* pc, int* flag, int* farmark, long long* la, long long* lb, double* fq, long long* fa,
    long long* fb, long long* cv, double* cd, long long* ck, long long chunk_cap, unsigned long long* hist,
    long long* st, unsigned long long* bar, double thr, double grain, long long target, int grow, long long big,
    int chunk, int gs) {
  __shared__ unsigned long long s_hist[NF_BINS];
  __shared__ unsigned long long s_work;
  __shared__ int s_pick;
  __shared__ long long s_v[NF_BLOCK];   // a slice's near vertices and their distances
  __shared__ double s_d[NF_BLOCK];
  __shared__ int s_n[2];                // their count, by slice parity
  const int sub = threadIdx.x & (gs - 1);
  const int lane = threadIdx.x & 31;
  const unsigned gmask = la_group_mask(gs);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const long long ngroups = nthreads / gs, warp = tid >> 5, nwarps = nthreads >> 5;
  const bool keep = pv != nullptr;
  const double inf = __longlong_as_double(0x7ff0000000000000LL);
  unsigned long long barrier = 0;
  int fcur = 0;
  long long r = 0, nb = 0;
  long long bins = 1;      // the last bucket's width in bins (adaptive widths)
  long long seen = 0;      // st[NF_WORK] at the last bucket's start
  unsigned slice = 0;      // slices of lists this block has taken
  if (threadIdx.x == 0) {
    s_work = 0;
    s_n[0] = s_n[1] = 0;
  }
  __syncthreads();
  for (;;) {
    const long long nin = __ldcg(&st[r % 3]);
    if (tid == 0) {
      st[(r + 2) % 3] = 0;               // round r - 1's length: every block has read it
      st[NF_NCH + ((r + 1) & 1)] = 0;    // round r - 1's chunk count: likewise
    }
    const long long* in = (r & 1) ? lb : la;
    long long* out = (r & 1) ? la : lb;
    unsigned long long* nout = (unsigned long long*)&st[(r + 1) % 3];
    if (nin == 0) {  // the bucket is settled: the next one starts at the far pile's least
      if (threadIdx.x == 0 && s_work) {   // the block's relaxed edges (its last barrier ordered them)
        atomicAdd((unsigned long long*)&st[NF_WORK], s_work);
        s_work = 0;
      }
      const long long* fin = fcur ? fb : fa;
      long long* fout = fcur ? fa : fb;
      const long long nfar = __ldcg(&st[NF_FAR + fcur]);
      long long* least = &st[NF_LEAST + (nb & 1)];
      unsigned long long* gh = hist + (nb & 1) * NF_BINS;
      if (tid == 0) {
        st[NF_FAR + (fcur ^ 1)] = 0;
        st[NF_LEAST + ((nb + 1) & 1)] = 0x7ff0000000000000LL;
      }
      if (target > 0) {
        if (blockIdx.x == 0)
          for (int i = threadIdx.x; i < NF_BINS; i += blockDim.x) hist[((nb + 1) & 1) * NF_BINS + i] = 0;
        for (int i = threadIdx.x; i < NF_BINS; i += blockDim.x) s_hist[i] = 0;
        __syncthreads();
      }
      double mine = inf;
      for (long long i = tid; i < nfar; i += nthreads) {
        const long long v = __ldcg(&fin[i]);
        const double x = __ldcg(&d[v]);
        if (x >= thr) {
          mine = fmin(mine, x);
          if (target > 0) {
            const double q = (x - thr) / grain;
            if (q < NF_BINS) atomicAdd(&s_hist[(int)q], (unsigned long long)(indptr[v + 1] - indptr[v]) + 1ULL);
          }
        }
      }
#pragma unroll
      for (int off = 16; off > 0; off >>= 1) mine = fmin(mine, __shfl_xor_sync(0xffffffffu, mine, off));
      if (lane == 0 && mine < inf) atomicMin(least, __double_as_longlong(mine));
      if (target > 0) {
        __syncthreads();
        for (int i = threadIdx.x; i < NF_BINS; i += blockDim.x)
          if (s_hist[i]) atomicAdd(&gh[i], s_hist[i]);
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
      const double m = __longlong_as_double(__ldcg(least));
      if (!(m < inf)) break;  // the same in every block
      const double lo = thr;
      // the end of m's bin: past m whatever the rounding (m's successor where lo + grain rounds to lo)
      double first = floor((m - lo) / grain);
      if (!(first >= 0)) first = 0;
      thr = lo + (first + 1) * grain;
      if (!(thr > m)) thr = lo + (first + 2) * grain;
      if (!(thr > m)) thr = __longlong_as_double(__double_as_longlong(m) + 1);
      const long long work = __ldcg(&st[NF_WORK]);
      if (target > 0 && first < NF_BINS) {  // the same inputs in every block: the same end
        if (threadIdx.x < 32) {
          const int j = nf_pick(gh, (unsigned long long)target);
          if (lane == 0) s_pick = j;
        }
        __syncthreads();
        const long long f = (long long)first;
        const long long most = work - seen > 2 * target ? nf_max(bins / 2, 1LL) : grow * bins;
        const long long j = nf_min(nf_max((long long)s_pick, f), f + most - 1);
        thr = fmax(thr, lo + (double)(j + 1) * grain);
        bins = j - f + 1;
      }
      seen = work;
      for (long long i = tid; i < nfar; i += nthreads) {
        const long long v = __ldcg(&fin[i]);
        const double x = __ldcg(&d[v]);
        if (x < thr) {
          farmark[v] = 0;
          if (x >= lo) out[la_agg_inc(nout)] = v;
        } else {
          fout[la_agg_inc((unsigned long long*)&st[NF_FAR + (fcur ^ 1)])] = v;
        }
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
      fcur ^= 1;
      nb += 1;
      r += 1;
      continue;
    }
    const int tag = (int)(r + 1);
    long long* far = fcur ? fb : fa;
    unsigned long long* nfar = (unsigned long long*)&st[NF_FAR + fcur];
    unsigned long long* nch = (unsigned long long*)&st[NF_NCH + (r & 1)];
    for (long long base = (long long)blockIdx.x * blockDim.x; base < nin; base += nthreads, ++slice) {
      // a slice of the list, one entry a thread: far ones join the pile, near ones the block's list
      const long long i = base + threadIdx.x;
      long long v = 0;
      double dv = 0;
      bool near = false;
      if (i < nin) {
        v = __ldcg(&in[i]);
        if (keep) {
          const long long c = __ldcg(&pc[v]);
          if (c != LA_LLONG_MAX) {
            pv[v] = c;
            pc[v] = LA_LLONG_MAX;
          }
        }
        dv = __ldcg(&d[v]);  // d[v] may drop meanwhile: then v is in the next list too
        near = dv < thr;
        if (keep) fq[i] = near ? dv : -1.0;
        if (!near && atomicExch(&farmark[v], 1) == 0) far[la_agg_inc(nfar)] = v;
      }
      int* count = &s_n[slice & 1];
      const unsigned ball = __ballot_sync(0xffffffffu, near);
      int k = 0;
      if (lane == 0 && ball) k = atomicAdd(count, __popc(ball));
      k = __shfl_sync(0xffffffffu, k, 0) + __popc(ball & ((1u << lane) - 1u));
      if (near) {
        s_v[k] = v;
        s_d[k] = dv;
      }
      __syncthreads();
      const int nn = *count;
      if (threadIdx.x == 0) s_n[(slice + 1) & 1] = 0;  // the next slice's count: read last in the one before
      // the near ones' rows: a group of gs lanes each, the long ones as chunks for the grid's warps
      for (int j = threadIdx.x / gs; j < nn; j += blockDim.x / gs) {
        const long long u = s_v[j];
        const double du = s_d[j];
        const long long start = (long long)indptr[u], end = (long long)indptr[u + 1];
        if (sub == 0) atomicAdd(&s_work, (unsigned long long)(end - start));
        if (end - start > big && nf_chunks(u, du, start, end, cv, cd, ck, chunk_cap, st, nch, chunk, sub, gmask, gs))
          continue;
        nf_relax(indices, w, d, flag, out, nout, du, start + sub, end, gs, tag);
      }
      __syncthreads();
    }
    barrier += gridDim.x;
    la_grid_sync(bar, barrier);
    const long long nc = chunk_cap ? nf_min(__ldcg((long long*)nch), chunk_cap) : 0;  // the same in every block
    for (long long c = warp; c < nc; c += nwarps) {
      const long long v = __ldcg(&cv[c]), p = __ldcg(&ck[c]);
      nf_relax(indices, w, d, flag, out, nout, __ldcg(&cd[c]), p + lane, nf_min(p + chunk, (long long)indptr[v + 1]), 32,
               tag);
    }
    if (nc > 0) {
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
    }
    if (keep) {
      for (long long i = tid / gs; i < nin; i += ngroups) {
        const double dv = __ldcg(&fq[i]);
        if (dv < 0) continue;
        const long long v = __ldcg(&in[i]);
        const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
        if (end - start > big) continue;  // its chunks, below
        nf_parent(indices, w, d, flag, pc, v, dv, start + sub, end, gs, tag);
      }
      for (long long c = warp; c < nc; c += nwarps) {
        const long long v = __ldcg(&cv[c]), p = __ldcg(&ck[c]);
        nf_parent(indices, w, d, flag, pc, v, __ldcg(&cd[c]), p + lane, nf_min(p + chunk, (long long)indptr[v + 1]), 32,
                  tag);
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
    }
    r += 1;
  }
  if (tid == 0) {
    st[NF_ROUNDS] = r;
    st[NF_BUCKETS] = nb;
  }
}

// ---------------------------------------------------------------- parents after the search
// With every weight positive a shortest-path tree needs no record of the search:
// pc[v] = the smallest u with d[u] + w(u, v) == d[v] and d[u] < d[v] (so the
// parents strictly decrease d: no cycle), one pass after sssp_nearfar has run
// without its parent phase.  pull = 0: over the out-edges of the reached vertices
// (u's row: pc[v] min= u for each tight edge); pull = 1 (a symmetric matrix, rows
// sorted): over the in-edges of each reached v (v's row), stopping at the first tight
// one, the smallest u.  A group of gs lanes takes a row of at most `big` edges; the
// longer rows come as chunks (crow, cfirst: row, first edge; `chunk` edges each, the
// graph's static list), one a warp, so that a hub does not hold up the launch.  (A
// weight below half an ulp of a distance can leave v with no such u; the engine
// checks for that and then runs the search with parents.)
template <typename IT>
__device__ __forceinline__ void pred_scan(const IT* __restrict__ indices, const double* __restrict__ w,
                                          const double* __restrict__ d, long long* pc, long long row, double dr,
                                          long long p, long long end, int lanes, unsigned mask, int pull) {
  const int sub = threadIdx.x & (lanes - 1);
  for (; p < end; p += lanes) {  // the same trip count in the group's lanes
    const long long q = p + sub;
    bool hit = false;
    long long col = 0;
    if (q < end) {
      col = (long long)indices[q];
      const double dc = d[col];
      if (pull) {
        hit = dc < dr && dc + w[q] == dr;
      } else if (dr < dc && dr + w[q] == dc && row < pc[col]) {
        atomicMin(&pc[col], row);
      }
    }
    if (pull) {
      const unsigned b = __ballot_sync(mask, hit);
      if (b) {
        if ((int)(threadIdx.x & 31) == __ffs(b) - 1 && col < pc[row]) atomicMin(&pc[row], col);
        break;
      }
    }
  }
}

template <typename IT>
__global__ void sssp_pred(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                          const double* __restrict__ w, const double* __restrict__ d, long long* pc, long long n,
                          const long long* __restrict__ crow, const long long* __restrict__ cfirst, long long nchunks,
                          int chunk, long long big, int pull, int gs) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const unsigned gmask = la_group_mask(gs);
  // pull: rows of unreached v and of the source (d 0: no u below it) have nothing to find
  for (long long v = tid / gs; v < n; v += nthreads / gs) {
    const double dv = d[v];
    const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
    if (dv < __longlong_as_double(0x7ff0000000000000LL) && (!pull || dv > 0) && end - start <= big)
      pred_scan(indices, w, d, pc, v, dv, start, end, gs, gmask, pull);
  }
  for (long long c = tid >> 5; c < nchunks; c += nthreads >> 5) {
    const long long v = crow[c], p = cfirst[c];
    const double dv = d[v];
    if (dv < __longlong_as_double(0x7ff0000000000000LL) && (!pull || dv > 0))
      pred_scan(indices, w, d, pc, v, dv, p, nf_min(p + chunk, (long long)indptr[v + 1]), 32, 0xffffffffu, pull);
  }
}
