// One round of Luby's maximal independent set on the device (the engine's fused
// step luby_round; la_graph/algorithms/mis.py defines it in primitives).
//
// A: the symmetric CSR without self-loops (IT: int or long long indices);
// prio: every vertex's priority (distinct long long, >= 0), read only where the
// vertex is a candidate; cand[v]: v is a candidate.  A group of gs lanes (a
// power of two <= 32) works on one vertex, as in semiring_mxv.
//
//   mis_join:   a candidate joins (join[v] = 1) when no candidate neighbour has
//               a higher priority; the scan of its row stops at the first that
//               has (the algebra's best = A max.second cand; cand > best);
//   mis_remove: every joiner becomes a member (mval, and mpres unless the member
//               vector is full) and stops being a candidate, and so does every
//               neighbour of it (A any.pair new): cand = 0.

template <typename IT>
__global__ void mis_join(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                         const long long* __restrict__ prio, const bool* __restrict__ cand,
                         bool* __restrict__ join, long long n, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long v = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / gs; v < n; v += ngroups) {
    if (!cand[v]) continue;  // join[] starts all 0
    const long long pv = prio[v];
    const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
    bool beaten = false;
    for (long long base = start; base < end; base += gs) {
      const long long p = base + sub;
      if (p < end) {
        const long long u = (long long)indices[p];
        beaten = cand[u] && prio[u] > pv;
      }
      if (gs == 1) {
        if (beaten) break;
      } else if (__any_sync(gmask, beaten)) {
        beaten = true;
        break;
      }
    }
    if (sub == 0 && !beaten) join[v] = true;
  }
}

template <typename IT>
__global__ void mis_remove(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                           const bool* __restrict__ join, bool* cand, bool* __restrict__ mval,
                           bool* __restrict__ mpres, long long n, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long v = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / gs; v < n; v += ngroups) {
    if (!join[v]) continue;
    if (sub == 0) {
      cand[v] = false;
      mval[v] = true;
      if (mpres != nullptr) mpres[v] = true;
    }
    const long long end = (long long)indptr[v + 1];
    for (long long p = (long long)indptr[v] + sub; p < end; p += gs) cand[indices[p]] = false;
  }
}
