// Connected components by Afforest (Sutton, Ben-Nun & Barak 2018) on the device:
// the engine's fused step component_labels, on the symmetric CSR of an undirected
// graph.  f is a forest over the vertices in which every parent is smaller than its
// child (f[x] < x, a root is its own parent), so a tree's root is its smallest id.
//
//   cc_sample:    link every vertex with its r-th neighbour (launched for r = 0, 1, ...);
//   cc_compress:  f[v] = the root of v, exactly (and the int64 output where given);
//   cc_giant:     the most frequent root among blockDim.x sampled vertices, a likely
//                 giant component (one block; deterministic samples, ties to the
//                 smaller root); it also zeroes the chunk queue's count;
//   cc_link_rest: every vertex not in the giant's tree links with the rest of its
//                 row (a lane, a warp or, past `chunk` edges, chunks queued for ...);
//   cc_link_chunks: ... a block per chunk;
//   then cc_compress once more.
//
// Skipping the giant's vertices is exact whatever the giant: a vertex skipped is in
// the giant's tree when it reads f[v] == giant, and trees only merge, so an edge
// with both ends skipped joins one tree anyway, and an edge with one end skipped is
// also stored, and linked, at its other end (the CSR is symmetric).
//
// Concurrency.  A root becomes a child only by atomicCAS(f[hi], hi, lo) with
// lo < hi (the larger root hooks under the smaller); every other write stores into a
// non-root an id smaller than it of the same tree (path halving in cc_find, roots in
// cc_compress), so a non-root never becomes a root again and f[x] < x always holds.
// Plain loads may return an older value of f[x]: still an id of x's tree, smaller
// than x unless x was a root then.  Walks therefore end; a root that is stale is
// caught by the CAS, whose return value is current, and every failed CAS leaves the
// larger of the two roots being joined strictly smaller, so cc_link ends.  In
// cc_compress nothing hooks, so the roots are current and every f[v] written is v's
// root; no other thread writes f[v] there, so after the kernel f[v] is v's root.

__device__ __forceinline__ int cc_cas(int* p, int expected, int value) { return atomicCAS(p, expected, value); }
__device__ __forceinline__ long long cc_cas(long long* p, long long expected, long long value) {
  return (long long)atomicCAS((unsigned long long*)p, (unsigned long long)expected, (unsigned long long)value);
}

// The root of x, halving the path on the way (x -> its grandparent).
template <typename VT>
__device__ __forceinline__ VT cc_find(VT* f, VT x) {
  VT p = f[x];
  while (p != x) {
    const VT g = f[p];
    if (g == p) return p;
    f[x] = g;
    x = g;
    p = f[x];
  }
  return x;
}

// Join the trees of u and v: the larger root hooks under the smaller.
template <typename VT>
__device__ __forceinline__ void cc_link(VT* f, VT u, VT v) {
  VT a = cc_find(f, u);
  VT b = cc_find(f, v);
  while (a != b) {
    const VT hi = a > b ? a : b;
    const VT lo = a > b ? b : a;
    const VT old = cc_cas(&f[hi], hi, lo);
    if (old == hi) return;
    a = cc_find(f, old);     // hi had been hooked meanwhile: old is its parent, old < hi
    b = cc_find(f, lo);
  }
}

template <typename IT, typename VT>
__global__ void cc_sample(const IT* __restrict__ indptr, const IT* __restrict__ indices, VT* f, long long n, int r) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    const long long p = (long long)indptr[v] + r;
    if (p < (long long)indptr[v + 1]) cc_link(f, (VT)v, (VT)indices[p]);
  }
}

// f[v] = root of v by a walk that writes nothing else (parents finished first are
// shortcuts); out (int64, or null) gets the roots too.
template <typename VT>
__global__ void cc_compress(VT* f, long long* out, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    const VT p = f[v];
    VT x = (VT)v, y = p;
    while (y != x) {
      x = y;
      y = f[x];
    }
    if (x != p) f[v] = x;
    if (out != nullptr) out[v] = (long long)x;
  }
}

// splitmix64's finalizer: the sample picks
__device__ __forceinline__ unsigned long long cc_mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One block of blockDim.x <= 1024 threads (a multiple of 32), n > 0, f compressed:
// state[1] = the root most frequent among the roots of blockDim.x vertices picked by
// a fixed hash (ties to the smaller root); state[0] = 0 (the chunk queue's count).
template <typename VT>
__global__ void __launch_bounds__(1024) cc_giant(const VT* __restrict__ f, long long n, long long* state) {
  __shared__ long long roots[1024];
  __shared__ long long warp_count[32], warp_root[32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nt = blockDim.x;
  const unsigned long long pick = cc_mix(0x9e3779b97f4a7c15ULL * (unsigned long long)(t + 1)) % (unsigned long long)n;
  const long long mine = (long long)f[pick];
  roots[t] = mine;
  __syncthreads();
  long long count = 0;
  for (int s = 0; s < nt; ++s) count += roots[s] == mine;
  long long root = mine;
  for (int off = 16; off > 0; off >>= 1) {       // the most frequent, then the smallest
    const long long c = __shfl_xor_sync(0xffffffffu, count, off);
    const long long r = __shfl_xor_sync(0xffffffffu, root, off);
    if (c > count || (c == count && r < root)) { count = c; root = r; }
  }
  if (lane == 0) { warp_count[warp] = count; warp_root[warp] = root; }
  __syncthreads();
  if (t == 0) {
    for (int w = 1; w < (nt + 31) / 32; ++w) {
      if (warp_count[w] > count || (warp_count[w] == count && warp_root[w] < root)) {
        count = warp_count[w];
        root = warp_root[w];
      }
    }
    state[0] = 0;
    state[1] = root;
  }
}

// Rows of at most this many edges a lane links alone; longer ones its warp together.
#define CC_LANE_EDGES 8

// Every vertex v whose parent is not the giant (state[1]) links with its neighbours
// from position k of its row on.  A warp takes 32 consecutive vertices: short rows a
// lane each, then the longer ones one after another by the whole warp; rows of more
// than `chunk` edges go to the queue (pairs vertex, first position; state[0] counts
// them) in pieces of `chunk` edges, for cc_link_chunks.  Launched with a whole
// number of warps per block.
template <typename IT, typename VT>
__global__ void cc_link_rest(const IT* __restrict__ indptr, const IT* __restrict__ indices, VT* f, long long n,
                             int k, long long* state, long long* queue, long long chunk) {
  const VT giant = (VT)state[1];
  const int lane = threadIdx.x & 31;
  const long long step = (long long)gridDim.x * blockDim.x;
  for (long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) & ~31LL; base < n; base += step) {
    const long long v = base + lane;
    long long beg = 0, end = 0;
    if (v < n && f[v] != giant) {
      beg = (long long)indptr[v] + k;
      end = (long long)indptr[v + 1];
    }
    const long long len = end - beg;
    if (len > 0 && len <= CC_LANE_EDGES) {
      for (long long p = beg; p < end; ++p) cc_link(f, (VT)v, (VT)indices[p]);
    }
    unsigned rows = __ballot_sync(0xffffffffu, len > CC_LANE_EDGES && len <= chunk);
    while (rows) {
      const int src = __ffs(rows) - 1;
      rows &= rows - 1;
      const long long w = __shfl_sync(0xffffffffu, v, src);
      const long long wb = __shfl_sync(0xffffffffu, beg, src);
      const long long we = __shfl_sync(0xffffffffu, end, src);
      for (long long p = wb + lane; p < we; p += 32) cc_link(f, (VT)w, (VT)indices[p]);
    }
    if (len > chunk) {
      const long long pieces = (len + chunk - 1) / chunk;
      const long long at = (long long)atomicAdd((unsigned long long*)state, (unsigned long long)pieces);
      for (long long c = 0; c < pieces; ++c) {
        queue[2 * (at + c)] = v;
        queue[2 * (at + c) + 1] = beg + c * chunk;
      }
    }
  }
}

// The queued pieces of long rows (state[0] of them, written by cc_link_rest), a block each.
template <typename IT, typename VT>
__global__ void cc_link_chunks(const IT* __restrict__ indptr, const IT* __restrict__ indices, VT* f,
                               const long long* __restrict__ state, const long long* __restrict__ queue,
                               long long chunk) {
  const long long items = state[0];
  for (long long i = blockIdx.x; i < items; i += gridDim.x) {
    const long long v = queue[2 * i], beg = queue[2 * i + 1];
    const long long stop = (long long)indptr[v + 1];
    const long long end = beg + chunk < stop ? beg + chunk : stop;
    for (long long p = beg + threadIdx.x; p < end; p += blockDim.x) cc_link(f, (VT)v, (VT)indices[p]);
  }
}
