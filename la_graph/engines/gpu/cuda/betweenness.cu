// Brandes' betweenness for a batch of b sources in ONE persistent launch (the engine's
// brandes_sources step): all-resident blocks (two a multiprocessor at most) crossing a grid
// barrier (la_grid_sync) between phases, so no host round trip per level.
//
// A (source i, vertex v) pair is the key v * b + i, the index of its entries in the n x b
// arrays (a vertex's b entries side by side: the hubs that most edges reach share a few cache
// lines across the sources instead of one line each): sig (float64: the path count sigma
// while the search runs forward, then, level by level on the way back, coef = 1 / sigma + T,
// the algebra's W) and lev (int32, -1 = not reached; the host sets the sources' 0), side by
// side in one 16-byte entry: sig[2 k] and lev[4 k] (lev points 8 bytes into the entries), so
// a neighbour's level test and its sigma are one memory transaction, not two.  The queue q holds every level's keys one after
// the other (the host puts the b sources' keys first: level 0 = q[0, b)); qoff[L] is where
// level L starts.
//
// Forward, level L: a group of gs lanes takes an entry (i, v) and, for every out-neighbour w
// of v, claims (i, w) when unreached (atomicCAS on lev; the winner appends it to the next
// level) and, when (i, w) is at level L + 1, adds sigma(i, v) to sigma(i, w) (atomicAdd).
// A row longer than `big` is cut into chunks of `chunk` edges instead: its entry joins the
// heavy list hq (hoff[L]: where level L's start) and its chunks the chunk list (ch_h: the
// heavy entry, ch_p: the first edge; coff[L]), which the grid's warps take after a barrier,
// so a hub does not hold a level up.  Each (i, v) is in one level only, so the lists'
// capacities are b times the graph's heavy rows and chunks (the host computes them).
//
// Backward, from the deepest level D - 1 (coef = 1 / sigma) down to level 1: for each (i, v)
// of level d, pull T = sum of coef(i, w) over the out-neighbours w of v at level d + 1 (the
// algebra's W plus.first A' under the mask of level d); delta = sigma T is added to total[v]
// (atomicAdd), and coef(i, v) = 1 / sigma + T replaces sigma (read by level d - 1 only).
// Heavy rows: the chunks' warps add partial sums into hsum (zero at launch), and a second
// phase after a barrier finishes those entries.
//
// Path counts outgrow float64 (binomial coefficients on a grid), so once a level is complete its
// counts are divided, per source, by the power of two 2^e that centres their binary exponents on 0
// (frexp's exponents x_max and x_min of the source's counts at that level, e = floor((x_max + x_min) / 2):
// the algebra's D_d of la_graph/algorithms/betweenness.py; exact, so the result is bit for bit the
// unscaled one wherever that one is finite).  Two passes over the level with a barrier between: the
// exponents' max and min per source (atomics into ex[2 i], ex[2 i + 1]), then the scaling, e kept in the
// entry's last 4 bytes (lev[4 k + 1]).  On the way back coef = (1 / sigma + T) / 2^e of its own level,
// so that the sum T of a parent's children is at the parent's scale.  A source whose counts at a
// level span more than 2^BC_SPREAD (the algebra's COUNT_SPREAD) cannot be held even so: the first
// such (source, level) is recorded in st[10..12] (st[10] = 1, st[11] = the source's row i, st[12] = the
// level), and the host raises.
//
// Counters (st, int64, 0 at launch): st[3 * slot + {0, 1, 2}] counts the entries appended to
// the queue, the heavy list and the chunk list in phase L, slot = (L + 1) % 3; block 0 clears
// slot (L + 2) % 3 in phase L (read by every block before the barrier that opened phase L - 1,
// appended to only after the barrier that closes phase L), as sssp_nearfar does.  st[9]: the
// levels D (for the host's log).  Every block tracks the same offsets; block 0 writes them.
#define BC_BLOCK 512
#define BC_SPREAD 1800

template <typename IT, typename VT>
__device__ __forceinline__ void bc_forward_edges(const IT* __restrict__ indices, int* lev, double* sig, VT* q,
                                                 unsigned long long* qcnt, long long qnext, long long b, long long i,
                                                 double sv, int l1, long long p, long long end, int stride) {
  for (; p < end; p += stride) {
    const long long k = (long long)indices[p] * b + i;
    int l = __ldcg(&lev[4 * k]);
    if (l < 0) {
      l = atomicCAS(&lev[4 * k], -1, l1);
      if (l < 0) {
        l = l1;
        q[qnext + (long long)la_agg_inc(qcnt)] = (VT)k;
      }
    }
    if (l == l1) atomicAdd(&sig[2 * k], sv);
  }
}

// sum of coef(i, w) over the edges [p, end) of a row whose out-neighbours w are at level l1
template <typename IT>
__device__ __forceinline__ double bc_pull(const IT* __restrict__ indices, const int* lev, const double* sig,
                                          long long b, long long i, int l1, long long p, long long end, int stride) {
  double t = 0.0;
  for (; p < end; p += stride) {
    const long long k = (long long)indices[p] * b + i;
    if (__ldcg(&lev[4 * k]) == l1) t += __ldcg(&sig[2 * k]);
  }
  return t;
}

// (i, v) of level d with its sum T over the children: delta to total[v], coef over sigma (at the
// scale of level d - 1: divided by 2^e of level d, kept in lev[4 key + 1])
__device__ __forceinline__ void bc_finish(double* sig, const int* lev, double* total, long long key, long long v,
                                          double t, bool keep_coef) {
  const double s = __ldcg(&sig[2 * key]);
  if (keep_coef) sig[2 * key] = scalbn(1.0 / s + t, -__ldcg(&lev[4 * key + 1]));
  if (t != 0.0) atomicAdd(&total[v], s * t);
}

template <typename IT, typename VT>
__global__ void __launch_bounds__(BC_BLOCK, 2) bc_batch(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, long long n, long long b, int* lev, double* sig,
    VT* q, long long* qoff, long long* hoff, long long* coff, VT* hq, double* hsum, long long* ch_h, long long* ch_p,
    double* total, long long* st, unsigned long long* bar, long long big, int chunk, int gs, int* ex) {
  const int sub = threadIdx.x & (gs - 1);
  const int lane = threadIdx.x & 31;
  const unsigned gmask = la_group_mask(gs);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const long long ngroups = nthreads / gs, warp = tid >> 5, nwarps = nthreads >> 5;
  const bool lead = tid == 0;
  unsigned long long barrier = 0;
  long long qlo = 0, qhi = b, hbase = 0, cbase = 0;
  int L = 0;
  if (lead) qoff[0] = hoff[0] = coff[0] = 0;
  // ---------------------------------------------------------------- forward
  for (;;) {
    long long* cnt = st + 3 * ((L + 1) % 3);
    if (lead) {
      long long* old = st + 3 * ((L + 2) % 3);
      old[0] = old[1] = old[2] = 0;
    }
    for (long long i = tid; i < b; i += nthreads) {  // the last level's exponents were read before the barrier
      ex[2 * i] = -2147483647 - 1;
      ex[2 * i + 1] = 2147483647;
    }
    for (long long e = qlo + tid / gs; e < qhi; e += ngroups) {
      const long long key = (long long)__ldcg(&q[e]);
      const long long v = key / b, i = key - v * b;
      const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
      if (end - start > big) {  // a hub: its entry and chunks for the grid's warps
        const long long nc = (end - start + chunk - 1) / chunk;
        long long h = 0, c0 = 0;
        if (sub == 0) {
          h = hbase + (long long)atomicAdd((unsigned long long*)&cnt[1], 1ULL);
          c0 = cbase + (long long)atomicAdd((unsigned long long*)&cnt[2], (unsigned long long)nc);
          hq[h] = (VT)key;
        }
        if (gs > 1) {
          h = __shfl_sync(gmask, h, 0, gs);
          c0 = __shfl_sync(gmask, c0, 0, gs);
        }
        for (long long c = sub; c < nc; c += gs) {
          ch_h[c0 + c] = h;
          ch_p[c0 + c] = start + c * chunk;
        }
        continue;
      }
      bc_forward_edges(indices, lev, sig, q, (unsigned long long*)&cnt[0], qhi, b, i, __ldcg(&sig[2 * key]), L + 1,
                       start + sub, end, gs);
    }
    barrier += gridDim.x;
    la_grid_sync(bar, barrier);
    const long long nh = __ldcg(&cnt[1]), nc = __ldcg(&cnt[2]);  // final: phase L's chunks append queue entries only
    if (nc > 0) {
      for (long long c = cbase + warp; c < cbase + nc; c += nwarps) {
        const long long key = (long long)__ldcg(&hq[__ldcg(&ch_h[c])]), p = __ldcg(&ch_p[c]);
        const long long v = key / b, i = key - v * b;
        const long long end = p + chunk < (long long)indptr[v + 1] ? p + chunk : (long long)indptr[v + 1];
        bc_forward_edges(indices, lev, sig, q, (unsigned long long*)&cnt[0], qhi, b, i, __ldcg(&sig[2 * key]), L + 1,
                         p + lane, end, 32);
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
    }
    const long long nq = __ldcg(&cnt[0]);
    if (nq > 0) {  // level L + 1 = q[qhi, qhi + nq) is complete: scale its counts, per source
      for (long long e = qhi + tid; e < qhi + nq; e += nthreads) {
        const long long key = (long long)__ldcg(&q[e]), i = key % b;
        int x;
        frexp(__ldcg(&sig[2 * key]), &x);
        atomicMax(&ex[2 * i], x);
        atomicMin(&ex[2 * i + 1], x);
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
      for (long long e = qhi + tid; e < qhi + nq; e += nthreads) {
        const long long key = (long long)__ldcg(&q[e]), i = key % b;
        const int hi = __ldcg(&ex[2 * i]), lo = __ldcg(&ex[2 * i + 1]), x = (hi + lo) >> 1;
        if (hi - lo > BC_SPREAD &&
            atomicCAS((unsigned long long*)&st[10], 0ULL, 1ULL) == 0ULL) {
          st[11] = i;
          st[12] = L + 1;
        }
        sig[2 * key] = scalbn(__ldcg(&sig[2 * key]), -x);
        lev[4 * key + 1] = x;
      }
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
    }
    hbase += nh;
    cbase += nc;
    L += 1;
    if (lead) {
      qoff[L] = qhi;
      hoff[L] = hbase;
      coff[L] = cbase;
    }
    qlo = qhi;
    qhi += nq;
    if (nq == 0) break;  // levels 0 .. L - 1 (the same in every block)
  }
  const int D = L;
  if (lead) st[9] = D;
  if (D < 3) return;  // no vertex strictly between a source and a target
  barrier += gridDim.x;
  la_grid_sync(bar, barrier);  // the offsets block 0 wrote
  // ---------------------------------------------------------------- backward
  {  // the deepest level: coef = 1 / sigma
    const long long lo = __ldcg(&qoff[D - 1]), hi = __ldcg(&qoff[D]);
    for (long long e = lo + tid; e < hi; e += nthreads) {
      const long long key = (long long)__ldcg(&q[e]);
      sig[2 * key] = scalbn(1.0 / __ldcg(&sig[2 * key]), -__ldcg(&lev[4 * key + 1]));
    }
  }
  for (int d = D - 2; d >= 1; --d) {
    barrier += gridDim.x;
    la_grid_sync(bar, barrier);
    const long long lo = __ldcg(&qoff[d]), hi = __ldcg(&qoff[d + 1]);
    for (long long e = lo + tid / gs; e < hi; e += ngroups) {
      const long long key = (long long)__ldcg(&q[e]);
      const long long v = key / b, i = key - v * b;
      const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
      if (end - start > big) continue;  // its chunks, below
      double t = bc_pull(indices, lev, sig, b, i, d + 1, start + sub, end, gs);
      for (int off = gs >> 1; off > 0; off >>= 1) t += __shfl_xor_sync(gmask, t, off);
      if (sub == 0) bc_finish(sig, lev, total, key, v, t, d > 1);
    }
    const long long c_lo = __ldcg(&coff[d]), c_hi = __ldcg(&coff[d + 1]);
    for (long long c = c_lo + warp; c < c_hi; c += nwarps) {
      const long long h = __ldcg(&ch_h[c]), p = __ldcg(&ch_p[c]);
      const long long key = (long long)__ldcg(&hq[h]);
      const long long v = key / b, i = key - v * b;
      const long long end = p + chunk < (long long)indptr[v + 1] ? p + chunk : (long long)indptr[v + 1];
      double t = bc_pull(indices, lev, sig, b, i, d + 1, p + lane, end, 32);
      for (int off = 16; off > 0; off >>= 1) t += __shfl_xor_sync(0xffffffffu, t, off);
      if (lane == 0 && t != 0.0) atomicAdd(&hsum[h], t);
    }
    const long long h_lo = __ldcg(&hoff[d]), h_hi = __ldcg(&hoff[d + 1]);
    if (h_hi > h_lo) {  // the hubs of level d, once their chunks are summed
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
      for (long long h = h_lo + tid; h < h_hi; h += nthreads) {
        const long long key = (long long)__ldcg(&hq[h]);
        bc_finish(sig, lev, total, key, key / b, __ldcg(&hsum[h]), d > 1);
      }
    }
  }
}
