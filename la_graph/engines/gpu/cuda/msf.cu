// The minimum spanning forest on the device: the engine's fused steps msf_edges,
// msf_round, msf_forest and msf_labels (la_graph/algorithms/msf.py defines them
// in primitives; la_graph/engines/gpu/fused/msf.py drives these kernels).
//
// Keys: key = rank(w) * nnz + p for the CSR entry p = (r, j), r < j (distinct, so
// the forest is unique).  rank is table[p] (dense ranks of float weights), else
// w[p] - offset (integer weights), else 0 (no weights).  Kruskal's filter: an
// edge is light when key < cut; the light edges are packed first (msf_pack),
// rounds run on them until none joins two trees, and only then does one sweep of
// the CSR (msf_heavy, a round's msf_cheapest) take the heavy edges still between
// two trees.  cut = LA_LLONG_MAX packs every edge.
//
// Edges: eu, ev (IT: int or long long, the ends, relabelled to tree roots as
// rounds go) and key.  f, partner: parents and partners (VT: int or long long),
// f a star forest between rounds.  cheap: per root the smallest key of an edge
// leaving its tree, LA_LLONG_MAX where none (all LA_LLONG_MAX between rounds).
//
// One round (msf_cheapest or msf_heavy, msf_partner, msf_hook, msf_jump):
//   msf_cheapest: a = f[eu], b = f[ev]; an edge with a == b lies inside a tree
//                 and is dropped; the others are written, relabelled to (a, b),
//                 to the other edge buffer (compaction), and cheap[a], cheap[b]
//                 min= key (atomicMin);
//   msf_partner:  the edge whose key is cheap[a] (unique: keys are distinct)
//                 writes partner[a] = b, likewise for b;
//   msf_hook:     every root r with an edge hooks f[r] = partner[r] and records
//                 forest[r] = cheap[r], except the smaller root of a pair that chose
//                 the same edge (the only cycle distinct keys allow); counts hooks;
//   msf_jump:     every vertex jumps f[v] = f[f[v]] until it reaches its root (at
//                 most `steps` jumps a launch; the host launches again while a
//                 vertex is left short), and cheap is reset.
//
// Compaction: each warp stages the edges it keeps in shared memory and moves
// MSF_STAGE of them at a time to global memory, one atomicAdd on the count per
// move (a count bumped for every warp's handful of edges serializes on one
// address); the host launches these kernels with one wave of resident blocks,
// so few warps are left with a part-filled stage at the end.  The order of the
// edges in the buffers is not defined; nothing depends on it (keys identify edges).

#define MSF_BLOCK 256                     // threads a block: every kernel here is launched with 256
#define MSF_WARPS (MSF_BLOCK / 32)
#define MSF_STAGE 256                     // edges a warp stages before moving them to global memory (48 KiB a block at most)

// ---------------------------------------------------------------- helpers
// The rank of CSR entry p (see the top of the file).
__device__ __forceinline__ long long msf_rank(long long p, const double* __restrict__ w,
                                              const long long* __restrict__ table, long long offset) {
  if (table) return table[p];
  if (w) return (long long)w[p] - offset;
  return 0;
}

// The row of entry p: the last r in [lo, hi) with indptr[r] <= p, given indptr[lo] <= p < indptr[hi].
template <typename IT>
__device__ __forceinline__ long long msf_row_in(const IT* __restrict__ indptr, long long lo, long long hi, long long p) {
  while (hi - lo > 1) {
    const long long mid = lo + ((hi - lo) >> 1);
    if ((long long)indptr[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

// The row of entry p, given a row r at or before it (indptr[r] <= p); n rows.  Usually p
// is still in row r (one read); else a gallop over the rows after r (some may be empty)
// and a binary search.
template <typename IT>
__device__ __forceinline__ long long msf_row_from(const IT* __restrict__ indptr, long long n, long long r, long long p) {
  if ((long long)indptr[r + 1] > p) return r;
  long long lo = r + 1, step = 1, hi;  // indptr[lo] <= p
  for (;;) {
    hi = lo + step < n ? lo + step : n;  // indptr[n] = nnz > p
    if (hi == n || (long long)indptr[hi] > p) break;
    lo = hi;
    step <<= 1;
  }
  return msf_row_in(indptr, lo, hi, p);
}

// Every CSR entry p = (r, j) in chunks of `chunk` entries a warp (whatever the rows'
// lengths: R-MAT's hubs are spread over many warps); visit(ok, r, j, p) is called by all
// 32 lanes together, ok telling whether the lane holds an entry with r < j.
template <typename IT, typename F>
__device__ __forceinline__ void msf_upper_sweep(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                                long long n, int chunk, F&& visit) {
  if (n <= 0) return;
  const long long nnz = (long long)indptr[n];
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long s = warp * chunk; s < nnz; s += nwarps * chunk) {
    long long r = 0;
    if (lane == 0) r = msf_row_in(indptr, 0, n, s);
    r = __shfl_sync(0xffffffffu, r, 0);
    const long long e = s + chunk < nnz ? s + chunk : nnz;
    for (long long q = s; q < e; q += 32) {
      const long long p = q + lane;
      long long j = -1;
      if (p < e) {
        r = msf_row_from(indptr, n, r, p);
        j = (long long)indices[p];
      }
      visit(p < e && j > r, r, j, p);
    }
  }
}

// A warp's staging area: edges (a, b, k) in shared memory, `n` of them (the same in every lane).
template <typename IT>
struct MsfStage {
  IT* a;
  IT* b;
  long long* k;
  int n;
};

// Move the staged edges to out[*count ...] (one atomicAdd); all 32 lanes call it.
template <typename IT>
__device__ __forceinline__ void msf_flush(MsfStage<IT>& s, IT* __restrict__ ou, IT* __restrict__ ov,
                                          long long* __restrict__ ok, long long cap, unsigned long long* count) {
  __syncwarp();
  if (s.n == 0) return;
  const int lane = threadIdx.x & 31;
  unsigned long long start = 0;
  if (lane == 0) start = atomicAdd(count, (unsigned long long)s.n);
  start = __shfl_sync(0xffffffffu, start, 0);
  for (int t = lane; t < s.n; t += 32) {
    const unsigned long long slot = start + (unsigned long long)t;
    if (slot < (unsigned long long)cap) {
      ou[slot] = s.a[t];
      ov[slot] = s.b[t];
      ok[slot] = s.k[t];
    }
  }
  __syncwarp();
  s.n = 0;
}

// Stage edge (a, b, k) from every lane with keep set; all 32 lanes call it.
template <typename IT>
__device__ __forceinline__ void msf_stage(MsfStage<IT>& s, bool keep, IT a, IT b, long long k, IT* __restrict__ ou,
                                          IT* __restrict__ ov, long long* __restrict__ ok, long long cap,
                                          unsigned long long* count) {
  const unsigned mask = __ballot_sync(0xffffffffu, keep);
  const int add = __popc(mask);
  if (add == 0) return;
  if (s.n + add > MSF_STAGE) msf_flush(s, ou, ov, ok, cap, count);
  if (keep) {
    const int lane = threadIdx.x & 31;
    const int at = s.n + __popc(mask & ((1u << lane) - 1u));
    s.a[at] = a;
    s.b[at] = b;
    s.k[at] = k;
  }
  s.n += add;
}

// Add v of every thread of the block to *total (one atomicAdd a block); every thread calls it.
__device__ __forceinline__ void msf_block_add(unsigned long long* total, unsigned long long v) {
  __shared__ unsigned long long sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  v = la_warp_sum(v);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(&sum, v);
  __syncthreads();
  if (threadIdx.x == 0 && sum) atomicAdd(total, sum);
}

// cheap[a] min= k, reading first around L1 (most edges lose, and no atomic then)
__device__ __forceinline__ void msf_min(long long* cheap, long long a, long long k) {
  if (k < __ldcg(&cheap[a])) atomicMin(&cheap[a], k);
}

// ---------------------------------------------------------------- msf_edges: the light edges
// Every entry (r, j), r < j, with key < cut, packed as (r, j, key); *count gets how many
// there are, though only the first cap are written (the host then packs again, with room).
template <typename IT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_pack(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                                      const double* __restrict__ w, const long long* __restrict__ table,
                                                      long long offset, long long n, long long cut, int chunk,
                                                      IT* __restrict__ eu, IT* __restrict__ ev, long long* __restrict__ key,
                                                      long long cap, unsigned long long* count) {
  __shared__ IT sa[MSF_WARPS][MSF_STAGE];
  __shared__ IT sb[MSF_WARPS][MSF_STAGE];
  __shared__ long long sk[MSF_WARPS][MSF_STAGE];
  const int wid = threadIdx.x >> 5;
  MsfStage<IT> st{sa[wid], sb[wid], sk[wid], 0};
  const long long nnz = n > 0 ? (long long)indptr[n] : 0;
  msf_upper_sweep(indptr, indices, n, chunk, [&](bool ok, long long r, long long j, long long p) {
    long long k = 0;
    if (ok) {
      k = msf_rank(p, w, table, offset) * nnz + p;
      ok = k < cut;
    }
    msf_stage(st, ok, (IT)r, (IT)j, k, eu, ev, key, cap, count);
  });
  msf_flush(st, eu, ev, key, cap, count);
}

// ---------------------------------------------------------------- msf_round: the heavy edges
// The entries (r, j), r < j, between two trees (a = f[r] != b = f[j]) with key >= cut,
// packed as (a, b, key) (*count of them, at most cap written) and offered to cheap.
template <typename IT, typename VT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_heavy(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const double* __restrict__ w,
    const long long* __restrict__ table, long long offset, long long n, long long cut, int chunk,
    const VT* __restrict__ f, long long* cheap, IT* __restrict__ eu, IT* __restrict__ ev, long long* __restrict__ key,
    long long cap, unsigned long long* count) {
  __shared__ IT sa[MSF_WARPS][MSF_STAGE];
  __shared__ IT sb[MSF_WARPS][MSF_STAGE];
  __shared__ long long sk[MSF_WARPS][MSF_STAGE];
  const int wid = threadIdx.x >> 5;
  MsfStage<IT> st{sa[wid], sb[wid], sk[wid], 0};
  const long long nnz = n > 0 ? (long long)indptr[n] : 0;
  msf_upper_sweep(indptr, indices, n, chunk, [&](bool ok, long long r, long long j, long long p) {
    long long a = 0, b = 0, k = 0;
    if (ok) {
      a = (long long)f[r];
      b = (long long)f[j];
      ok = a != b;
    }
    if (ok) {
      k = msf_rank(p, w, table, offset) * nnz + p;
      ok = k >= cut;  // a light edge between two trees: none is left once the light rounds are done
    }
    if (ok) {
      msf_min(cheap, a, k);
      msf_min(cheap, b, k);
    }
    msf_stage(st, ok, (IT)a, (IT)b, k, eu, ev, key, cap, count);
  });
  msf_flush(st, eu, ev, key, cap, count);
}

// ---------------------------------------------------------------- msf_round: one round
// Edges [0, m) of (eu, ev, key) relabelled to their roots; those between two trees are
// written to (ou, ov, ok) (*count of them; room for m at least) and offered to cheap.
template <typename IT, typename VT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_cheapest(const IT* __restrict__ eu, const IT* __restrict__ ev,
                                                          const long long* __restrict__ key, long long m,
                                                          const VT* __restrict__ f, long long* cheap,
                                                          IT* __restrict__ ou, IT* __restrict__ ov,
                                                          long long* __restrict__ ok, long long cap,
                                                          unsigned long long* count) {
  __shared__ IT sa[MSF_WARPS][MSF_STAGE];
  __shared__ IT sb[MSF_WARPS][MSF_STAGE];
  __shared__ long long sk[MSF_WARPS][MSF_STAGE];
  const int wid = threadIdx.x >> 5;
  MsfStage<IT> st{sa[wid], sb[wid], sk[wid], 0};
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long base = warp * 32; base < m; base += nwarps * 32) {
    const long long i = base + lane;
    long long a = 0, b = 0, k = 0;
    bool keep = false;
    if (i < m) {
      a = (long long)f[eu[i]];
      b = (long long)f[ev[i]];
      keep = a != b;
    }
    if (keep) {
      k = key[i];
      msf_min(cheap, a, k);
      msf_min(cheap, b, k);
    }
    msf_stage(st, keep, (IT)a, (IT)b, k, ou, ov, ok, cap, count);
  }
  msf_flush(st, ou, ov, ok, cap, count);
}

// partner[a] = b for the edge whose key is cheap[a], likewise for b; the edges are
// [0, *count) (msf_cheapest's survivors, counted on the device).
template <typename IT, typename VT>
__global__ void msf_partner(const IT* __restrict__ eu, const IT* __restrict__ ev, const long long* __restrict__ key,
                            const unsigned long long* __restrict__ count, const long long* __restrict__ cheap,
                            VT* __restrict__ partner) {
  const long long m = (long long)*count;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    const long long a = (long long)eu[i];
    const long long b = (long long)ev[i];
    const long long k = key[i];
    if (cheap[a] == k) partner[a] = (VT)b;
    if (cheap[b] == k) partner[b] = (VT)a;
  }
}

template <typename VT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_hook(VT* __restrict__ f, const long long* __restrict__ cheap,
                                                      const VT* __restrict__ partner, long long* __restrict__ forest,
                                                      long long n, unsigned long long* hooked) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  unsigned long long count = 0;
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < n; r += stride) {
    const long long c = cheap[r];
    if (c == LA_LLONG_MAX) continue;
    const VT p = partner[r];
    if (cheap[p] == c && r < (long long)p) continue;  // both chose this edge: the smaller root stays a root
    f[r] = p;
    forest[r] = c;
    count += 1;
  }
  msf_block_add(hooked, count);
}

// Every vertex jumps to its root; reached when f[p] == p (only roots point at themselves,
// and a parent only ever moves up its tree, so a stale read never stops a vertex short).
// A vertex's progress is stored at once, so the vertices below it gain from it.
template <typename VT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_jump(VT* f, long long* __restrict__ cheap, long long n, int steps,
                                                      unsigned long long* unfinished) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  bool left = false;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (cheap[v] != LA_LLONG_MAX) cheap[v] = LA_LLONG_MAX;
    VT p = f[v];
    VT g = __ldcg(&f[p]);
    int s = 0;
    while (g != p && s < steps) {
      p = g;
      f[v] = p;
      g = __ldcg(&f[p]);
      ++s;
    }
    if (g != p) left = true;
  }
  if (__syncthreads_or(left) && threadIdx.x == 0) *unfinished = 1;
}

// ---------------------------------------------------------------- msf_forest
// The CSR position key % nnz of every forest key >= 0, compacted to pos (*count of them).
template <typename IT>
__global__ void __launch_bounds__(MSF_BLOCK) msf_forest_positions(const long long* __restrict__ forest, long long n,
                                                                  long long nnz, IT* __restrict__ pos,
                                                                  unsigned long long* count) {
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  // 8 items a lane (coalesced: item t of the lane is base + 32 t + lane), one atomicAdd a warp
  for (long long base = warp * 256; base < n; base += nwarps * 256) {
    long long k[8];
    unsigned mask[8];
    unsigned total = 0;
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      const long long v = base + 32 * t + lane;
      k[t] = v < n ? forest[v] : -1;
      mask[t] = __ballot_sync(0xffffffffu, k[t] >= 0);
      total += __popc(mask[t]);
    }
    if (total == 0) continue;
    unsigned long long at = 0;
    if (lane == 0) at = atomicAdd(count, (unsigned long long)total);
    at = __shfl_sync(0xffffffffu, at, 0);
#pragma unroll
    for (int t = 0; t < 8; ++t) {
      if (k[t] >= 0) pos[at + __popc(mask[t] & ((1u << lane) - 1u))] = (IT)(k[t] % nnz);
      at += __popc(mask[t]);
    }
  }
}

// Forest edge i of the sorted positions: its row, column and weight (1.0 without weights).
template <typename IT>
__global__ void msf_forest_edges(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                 const double* __restrict__ w, const IT* __restrict__ pos, long long k, long long n,
                                 long long* __restrict__ u, long long* __restrict__ v, double* __restrict__ wt) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride) {
    const long long p = (long long)pos[i];
    u[i] = msf_row_in(indptr, 0, n, p);
    v[i] = (long long)indices[p];
    wt[i] = w ? w[p] : 1.0;
  }
}

// ---------------------------------------------------------------- msf_labels
// smallest[r] min= v for every vertex v of root r's star (smallest: n on entry).  The
// lanes of a warp with one root send one atomicMin (a giant tree would serialize them).
template <typename VT>
__global__ void msf_smallest(const VT* __restrict__ f, VT* smallest, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const int lane = threadIdx.x & 31;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    const VT r = f[v];
    const unsigned peers = __match_any_sync(__activemask(), r);
    if (lane == __ffs(peers) - 1 && (VT)v < __ldcg(&smallest[r])) atomicMin(&smallest[r], (VT)v);
  }
}

template <typename VT>
__global__ void msf_label(const VT* __restrict__ f, const VT* __restrict__ smallest, long long* __restrict__ labels,
                          long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride)
    labels[v] = (long long)smallest[f[v]];
}
