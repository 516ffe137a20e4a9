// BFS push levels on the device (the engine's fused step bfs_push).
//
// One level: every vertex u of the frontier looks at its out-edges u -> v; an
// unvisited v is claimed (atomicOr on the 32-bit word that holds its byte of the
// visited bool array, so exactly one claimer wins), gets parent u and level
// `levnum`, and joins the next frontier (a queue; slots from warp-aggregated
// atomics).  The out-edges of the next frontier are summed on the way: they
// choose between the one-block and the whole-grid kernel for the next level.
//
// State shared with the host, st[] (long long):
//   st[ST_CNT + L % 3], st[ST_EDG + L % 3]: size and out-edges of the frontier of
//     level index L (L = 0: the frontier handed in; ring of 3 slots);
//   st[ST_K]: levels done; st[ST_FOUND], st[ST_SCANNED]: vertices found, edges
//     scanned; st[ST_STOP]: 1 once a frontier is empty or over the caller's
//     limit (the caller's loop takes over); st[ST_BIG]: set by bfs_push_small
//     when it hands a level with many out-edges to bfs_push_level.
// The limit: with on_edges, a level runs while its frontier has at most `limit`
// out-edges; without, while the frontier holds at most `limit` vertices.
// Frontier of level index L: queue qa if L is even, qb if odd.
//
// bfs_push_small runs many levels in ONE block (1024 threads, __syncthreads
// between levels, no host round trip) while frontiers have at most small_edges
// out-edges: a 2000 x 2000 grid's ~4000 levels are one launch.  bfs_push_level
// is one level over the whole grid, launched back to back by the host, which reads
// st once per batch of levels; a level after a stop returns at once.

#define ST_CNT 0
#define ST_EDG 3
#define ST_K 6
#define ST_FOUND 7
#define ST_SCANNED 8
#define ST_STOP 9
#define ST_BIG 10

// Claim v (seen unvisited): true for exactly one caller.
__device__ __forceinline__ bool bfs_claim(bool* vis, long long v) {
  const unsigned long long addr = (unsigned long long)(vis + v);
  unsigned* word = (unsigned*)(addr & ~3ULL);
  const unsigned shift = (unsigned)(addr & 3ULL) * 8u;
  const unsigned old = atomicOr(word, 1u << shift);
  return ((old >> shift) & 0xffu) == 0u;
}

// The claim loop of every kernel here: scan the out-edges indices[beg, end) of
// frontier vertex u, this lane (sub of a group of gs) taking 4 consecutive edges
// at a time with their loads issued together (one memory round trip for 4 edges,
// not 4: the levels of a high-diameter graph are latency-bound).  Each unvisited
// target v is claimed; its one claimer calls enqueue(v), which puts v in the next
// frontier, gives v parent u and level levnum (par / lev / levp may be nullptr),
// and adds v's out-degree to my_edges.
template <typename IT, typename VT, typename Enqueue>
__device__ __forceinline__ void bfs_scan(const IT* __restrict__ indptr, const IT* __restrict__ indices, IT u,
                                         long long beg, long long end, long long sub, int gs, bool* vis, VT* par,
                                         VT* lev, bool* levp, long long levnum, unsigned long long& my_edges,
                                         Enqueue enqueue) {
  for (long long p0 = beg + 4 * sub; p0 < end; p0 += 4LL * gs) {
    IT v[4];
    bool fresh[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) v[r] = (p0 + r < end) ? indices[p0 + r] : (IT)-1;
#pragma unroll
    for (int r = 0; r < 4; ++r) fresh[r] = v[r] >= 0 && !vis[v[r]];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      if (fresh[r] && bfs_claim(vis, (long long)v[r])) {
        enqueue(v[r]);
        if (par != nullptr) par[v[r]] = (VT)u;
        if (lev != nullptr) lev[v[r]] = (VT)levnum;
        if (levp != nullptr) levp[v[r]] = true;
        my_edges += (unsigned long long)(indptr[v[r] + 1] - indptr[v[r]]);
      }
    }
  }
}

// Expand frontier in[0, nf) into the global queue out (slots from *cnt); thread
// `tid` of `nthreads`, a group of gs lanes per frontier vertex.  COHERENT: `in` was
// written by other blocks of this launch, read around L1 (__ldcg).
template <bool COHERENT, typename IT, typename VT>
__device__ __forceinline__ void bfs_expand(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                           const IT* in, long long nf, IT* out, unsigned long long* cnt,
                                           bool* vis, VT* par, VT* lev, bool* levp, long long levnum,
                                           long long tid, long long nthreads, int gs,
                                           unsigned long long& my_edges, unsigned long long& my_found) {
  const long long sub = tid & (gs - 1);
  const long long ngroups = nthreads / gs;
  for (long long f = tid / gs; f < nf; f += ngroups) {
    const IT u = COHERENT ? __ldcg(&in[f]) : in[f];
    const long long end = (long long)indptr[u + 1];
    bfs_scan<IT, VT>(indptr, indices, u, (long long)indptr[u], end, sub, gs, vis, par, lev, levp, levnum,
                     my_edges, [&](IT v) {
                       out[la_agg_inc(cnt)] = v;
                       my_found += 1;
                     });
  }
}

// The one-block kernel keeps each frontier that fits (SQ vertices) in shared memory
// too, as (vertex, row start, row end): the next level then reads its rows without
// the dependent loads of the queue and of indptr.  The global queue is always
// complete (a level too large for shared memory, and the host, read it).
template <typename IT>
struct BfsSmallQueue {
  static constexpr int SQ = (sizeof(IT) == 4) ? 1536 : 768;   // 2 x 3 x SQ x sizeof(IT) = 36 KB
};

template <typename IT, typename VT>
__global__ void __launch_bounds__(1024) bfs_push_small(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                                       IT* qa, IT* qb, long long* st, bool* vis, VT* par, VT* lev,
                                                       bool* levp, long long k0, long long limit, int on_edges,
                                                       long long small_edges, int gs) {
  constexpr int SQ = BfsSmallQueue<IT>::SQ;
  __shared__ IT s_v[2][SQ];
  __shared__ IT s_b[2][SQ];
  __shared__ IT s_e[2][SQ];
  __shared__ unsigned long long s_cnt[3];
  __shared__ unsigned long long s_edg[3];
  long long P = st[ST_K];
  long long nf = st[ST_CNT + P % 3];
  long long edges = st[ST_EDG + P % 3];
  unsigned long long found = 0, scanned = 0;
  bool in_shared = false;              // the first frontier is only in the global queue
  if (threadIdx.x < 3) {
    s_cnt[threadIdx.x] = 0;
    s_edg[threadIdx.x] = 0;
  }
  __syncthreads();
  const long long sub = threadIdx.x & (gs - 1);
  const long long ngroups = blockDim.x / gs;
  int reason = 0;
  for (;;) {
    if (nf == 0 || (on_edges ? edges : nf) > limit) { reason = 1; break; }
    if (edges > small_edges) { reason = 2; break; }
    const int slot = (int)((P + 1) % 3);
    // slot (P + 2) % 3 was last read before the previous __syncthreads: free to reset
    if (threadIdx.x == 0) {
      s_cnt[(P + 2) % 3] = 0;
      s_edg[(P + 2) % 3] = 0;
    }
    const int b = (int)(P & 1);
    const bool from_shared = in_shared && nf <= SQ;
    const IT* in = b ? qb : qa;
    IT* out = b ? qa : qb;
    const long long levnum = k0 + P + 1;
    unsigned long long my_edges = 0;
    for (long long f = threadIdx.x / gs; f < nf; f += ngroups) {
      IT u;
      long long beg, end;
      if (from_shared) {
        u = s_v[b][f];
        beg = (long long)s_b[b][f];
        end = (long long)s_e[b][f];
      } else {
        u = in[f];
        beg = (long long)indptr[u];
        end = (long long)indptr[u + 1];
      }
      bfs_scan<IT, VT>(indptr, indices, u, beg, end, sub, gs, vis, par, lev, levp, levnum, my_edges, [&](IT v) {
        const unsigned long long q = la_agg_inc(&s_cnt[slot]);
        const IT vb = indptr[v], ve = indptr[v + 1];
        out[q] = v;
        if (q < (unsigned long long)SQ) {
          s_v[b ^ 1][q] = v;
          s_b[b ^ 1][q] = vb;
          s_e[b ^ 1][q] = ve;
        }
      });
    }
    __syncwarp();
    my_edges = la_warp_sum(my_edges);
    if ((threadIdx.x & 31) == 0 && my_edges != 0) atomicAdd(&s_edg[slot], my_edges);
    __syncthreads();
    scanned += (unsigned long long)edges;
    P += 1;
    nf = (long long)s_cnt[slot];
    edges = (long long)s_edg[slot];
    found += (unsigned long long)nf;
    in_shared = true;
  }
  if (threadIdx.x == 0) {
    st[ST_K] = P;
    st[ST_CNT + P % 3] = nf;
    st[ST_EDG + P % 3] = edges;
    st[ST_CNT + (P + 1) % 3] = 0;
    st[ST_EDG + (P + 1) % 3] = 0;
    st[ST_FOUND] += (long long)found;
    st[ST_SCANNED] += (long long)scanned;
    if (reason == 1) st[ST_STOP] = 1;
    st[ST_BIG] = (reason == 2) ? 1 : 0;
  }
}

template <typename IT, typename VT>
__global__ void bfs_push_level(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                               const IT* in, IT* out, long long* st, bool* vis, VT* par, VT* lev, bool* levp,
                               long long P, long long levnum, long long limit, int on_edges, int gs) {
  if (((volatile long long*)st)[ST_STOP] != 0) return;
  const long long nf = st[ST_CNT + P % 3];
  const long long edges = st[ST_EDG + P % 3];
  if (nf == 0 || (on_edges ? edges : nf) > limit) {  // every block decides alike; block 0 records it
    if (blockIdx.x == 0 && threadIdx.x == 0) st[ST_STOP] = 1;
    return;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    st[ST_K] = P + 1;
    st[ST_SCANNED] += edges;
    st[ST_CNT + (P + 2) % 3] = 0;  // the next level's output slot
    st[ST_EDG + (P + 2) % 3] = 0;
  }
  unsigned long long my_edges = 0, my_found = 0;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  bfs_expand<false, IT, VT>(indptr, indices, in, nf, out, (unsigned long long*)&st[ST_CNT + (P + 1) % 3], vis,
                            par, lev, levp, levnum, tid, nthreads, gs, my_edges, my_found);
  __syncwarp();
  my_edges = la_warp_sum(my_edges);
  my_found = la_warp_sum(my_found);
  if ((threadIdx.x & 31) == 0) {
    if (my_edges != 0) atomicAdd((unsigned long long*)&st[ST_EDG + (P + 1) % 3], my_edges);
    if (my_found != 0) atomicAdd((unsigned long long*)&st[ST_FOUND], my_found);
  }
}

// ---------------------------------------------------------------- persistent whole-grid kernel
// bfs_push_grid runs every level in ONE launch over the whole GPU: one block per
// multiprocessor (the host launches at most that many, so all blocks are resident
// at once), a software grid barrier between levels (la_grid_barrier, common.cuh).
// Data other blocks wrote in the previous level (the queue, st) is read around L1
// (__ldcg / volatile).  The engine's default.
template <typename IT, typename VT>
__global__ void __launch_bounds__(512) bfs_push_grid(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                                     IT* qa, IT* qb, long long* st, bool* vis, VT* par, VT* lev,
                                                     bool* levp, long long k0, long long limit, int on_edges, int gs,
                                                     unsigned* bar) {
  long long P = __ldcg(&st[ST_K]);
  unsigned long long found = 0, scanned = 0;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  for (;;) {
    const long long nf = __ldcg(&st[ST_CNT + P % 3]);
    const long long edges = __ldcg(&st[ST_EDG + P % 3]);
    if (nf == 0 || (on_edges ? edges : nf) > limit) break;      // the same decision in every block
    if (blockIdx.x == 0 && threadIdx.x == 0) {                     // read by nobody since the last barrier
      st[ST_CNT + (P + 2) % 3] = 0;
      st[ST_EDG + (P + 2) % 3] = 0;
    }
    const IT* in = (P & 1) ? qb : qa;
    IT* out = (P & 1) ? qa : qb;
    const long long levnum = k0 + P + 1;
    unsigned long long my_edges = 0, my_found = 0;       // found: counted from the queue, after the barrier
    bfs_expand<true, IT, VT>(indptr, indices, in, nf, out, (unsigned long long*)&st[ST_CNT + (P + 1) % 3], vis,
                             par, lev, levp, levnum, tid, nthreads, gs, my_edges, my_found);
    __syncwarp();
    my_edges = la_warp_sum(my_edges);
    if ((threadIdx.x & 31) == 0 && my_edges != 0)
      atomicAdd((unsigned long long*)&st[ST_EDG + (P + 1) % 3], my_edges);
    la_grid_barrier(bar, gridDim.x);
    scanned += (unsigned long long)edges;
    P += 1;
    found += (unsigned long long)__ldcg(&st[ST_CNT + P % 3]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    st[ST_K] = P;
    st[ST_FOUND] += (long long)found;
    st[ST_SCANNED] += (long long)scanned;
    st[ST_STOP] = 1;
  }
}
