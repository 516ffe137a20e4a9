// BFS levels on the device: the engine's fused steps bfs_push and bfs_pull
// (la_graph/algorithms/bfs.py; host side in la_graph/engines/gpu/fused/bfs.py).
//
// Push.  A frontier is a queue of entries (v, b, e, -), four IT each (one vector load):
// a vertex v and a piece [b, e) of its out-edges, at most `chunk` = 4 * gs of them; a
// vertex of higher degree has several entries, so a hub's edges spread over many groups.
// A group of gs lanes takes an entry, each lane 4 consecutive edges with their loads
// issued together, then the 4 claims together, then the claimed vertices' rows together:
// a level costs a few memory round trips whatever the frontier.  A target v is claimed
// by atomicOr on the 32-bit word holding its byte of the visited bool array (exactly one
// claimer wins); the winner gives v parent u and the level, and appends v's entries to
// the next queue (slots reserved once per warp).  Writing v's row bounds into its entry
// spares the next level the indptr load.
//
// bfs_push_grid runs level after level in ONE launch, a grid barrier between levels
// (la_grid_sync), no host round trip.  The host launches it in two shapes: a few blocks
// for thin levels (high-diameter graphs: thousands of levels of a few thousand edges,
// where the barrier is the cost, and fewer blocks arrive sooner), and every
// multiprocessor for wide ones; a launch returns when the frontier leaves its band
// [lo_edges, hi_edges] of out-edges, and the host starts the other shape.  The tiniest
// levels run in bfs_push_block instead: one block, the queue in shared memory,
// __syncthreads for the barrier (the host's third shape, below the few blocks).
//
// State shared with the host, st[] (long long), a ring of 3 per-level slots:
//   st[BFS_ENT + L % 3], st[BFS_CNT + L % 3], st[BFS_EDG + L % 3]: entries, vertices and
//     out-edges of the frontier of level index L (L = 0: the frontier handed in);
//   st[BFS_K]: levels done; st[BFS_FOUND], st[BFS_SCANNED], st[BFS_FOUND_IN]: vertices
//     found, edges scanned, the found vertices' in-degree sum; st[BFS_STOP]: why the last
//     launch returned (1: frontier empty or over the caller's limit, 2: above the band,
//     3: below it); st[BFS_BAR]: the grid barrier's arrival count.
// Level index L reads queue qa if L is even, qb if odd.  The slot a level fills is zero
// when it starts: level L zeroes slot (L + 2) % 3, which every block read at level L - 1
// and which level L + 1 fills.
//
// Pull.  bfs_pull_level is one level, one launch: each unvisited vertex scans its
// in-edges (a row of A') for one in the frontier (a bool array), its lane alone for the
// first 4, then its whole warp for the rest of a long row, and stops at the first.  It
// writes the next frontier's bool array whole (no clearing pass).  The host launches
// levels in batches; a level whose frontier is past the step's stopping rule returns at
// once.  Ring of 4 per-level counts st[BFS_PCNT + L % 4] (L = 0: the frontier handed in).

#define BFS_ENT 0
#define BFS_CNT 3
#define BFS_EDG 6
#define BFS_PCNT 0
#define BFS_K 9
#define BFS_FOUND 10
#define BFS_SCANNED 11
#define BFS_FOUND_IN 12
#define BFS_STOP 13
#define BFS_BAR 14

#define BFS_FULL 0xffffffffu

// ---------------------------------------------------------------- queue entries
__device__ __forceinline__ void bfs_get(const int* q, long long i, int& v, int& b, int& e) {
  const int4 x = __ldcg(reinterpret_cast<const int4*>(q) + i);   // written by other blocks: around L1
  v = x.x;
  b = x.y;
  e = x.z;
}
__device__ __forceinline__ void bfs_get(const long long* q, long long i, long long& v, long long& b, long long& e) {
  const longlong2* p = reinterpret_cast<const longlong2*>(q) + 2 * i;
  const longlong2 x = __ldcg(p), y = __ldcg(p + 1);
  v = x.x;
  b = x.y;
  e = y.x;
}
// The same from a queue in this block's shared memory (plain loads: __ldcg is for global addresses).
__device__ __forceinline__ void bfs_sget(const int* q, long long i, int& v, int& b, int& e) {
  const int4 x = reinterpret_cast<const int4*>(q)[i];
  v = x.x;
  b = x.y;
  e = x.z;
}
__device__ __forceinline__ void bfs_sget(const long long* q, long long i, long long& v, long long& b, long long& e) {
  const longlong2* p = reinterpret_cast<const longlong2*>(q) + 2 * i;
  const longlong2 x = p[0], y = p[1];
  v = x.x;
  b = x.y;
  e = y.x;
}
__device__ __forceinline__ void bfs_put(int* q, long long i, int v, int b, int e) {
  reinterpret_cast<int4*>(q)[i] = make_int4(v, b, e, 0);
}
__device__ __forceinline__ void bfs_put(long long* q, long long i, long long v, long long b, long long e) {
  longlong2* p = reinterpret_cast<longlong2*>(q) + 2 * i;
  p[0] = make_longlong2(v, b);
  p[1] = make_longlong2(e, 0);
}
// Entry i into queue q and, where i < mcap, into its mirror (a queue in shared memory; nullptr: none).
template <typename IT>
__device__ __forceinline__ void bfs_put2(IT* q, IT* mirror, unsigned long long mcap, long long i, IT v, IT b, IT e) {
  bfs_put(q, i, v, b, e);
  if (mirror != nullptr && (unsigned long long)i < mcap) bfs_put(mirror, i, v, b, e);
}

// Exclusive prefix sum over the warp (every lane calls it); *total: the warp's sum.
__device__ __forceinline__ unsigned long long bfs_warp_scan(unsigned long long x, unsigned long long* total) {
  const int lane = threadIdx.x & 31;
  unsigned long long s = x;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned long long y = __shfl_up_sync(BFS_FULL, s, o);
    if (lane >= o) s += y;
  }
  *total = __shfl_sync(BFS_FULL, s, 31);
  return s - x;
}

// The pieces after the first of rows [b, e) longer than `chunk` (one vertex per lane,
// on = false for none) as queue entries, written by the whole warp one row after another;
// slots from one atomicAdd on *ent (global or shared).  Every lane of the warp calls it.
// mirror / mcap: see bfs_put2.
template <typename IT>
__device__ __forceinline__ void bfs_enqueue_rest(IT* q, unsigned long long* ent, bool on, IT v, IT b, IT e,
                                              long long chunk, IT* mirror, unsigned long long mcap) {
  const int lane = threadIdx.x & 31;
  const long long d = (long long)e - (long long)b;
  const unsigned long long mine = (on && d > chunk) ? (unsigned long long)((d - 1) / chunk) : 0ULL;
  unsigned many = __ballot_sync(BFS_FULL, mine != 0);
  if (many == 0u) return;
  unsigned long long total;
  const unsigned long long at = bfs_warp_scan(mine, &total);
  unsigned long long base = 0;
  if (lane == 0) base = atomicAdd(ent, total);
  base = __shfl_sync(BFS_FULL, base, 0);
  while (many) {
    const int L = __ffs(many) - 1;
    many &= many - 1u;
    const unsigned long long at_l = base + __shfl_sync(BFS_FULL, at, L);
    const long long pieces = (long long)__shfl_sync(BFS_FULL, mine, L);
    const IT v_l = __shfl_sync(BFS_FULL, v, L);
    const long long b_l = (long long)__shfl_sync(BFS_FULL, b, L);
    const long long e_l = (long long)__shfl_sync(BFS_FULL, e, L);
    for (long long j = lane; j < pieces; j += 32) {
      const long long pb = b_l + (j + 1) * chunk;
      const long long pe = (pb + chunk < e_l) ? pb + chunk : e_l;
      bfs_put2(q, mirror, mcap, (long long)at_l + j, v_l, (IT)pb, (IT)pe);
    }
  }
}

// Append the vertices v[r] with on[r] (r < R, per lane; rows [b[r], e[r])) to queue q as
// entries of at most `chunk` edges: the first pieces in slots from one atomicAdd on *ent
// per warp, the rest of long rows by bfs_enqueue_rest.  Every lane of the warp calls it.
// mirror / mcap: see bfs_put2.
template <int R, typename IT>
__device__ __forceinline__ void bfs_enqueue(IT* q, unsigned long long* ent, const bool (&on)[R], const IT (&v)[R],
                                            const IT (&b)[R], const IT (&e)[R], long long chunk,
                                            IT* mirror = nullptr, unsigned long long mcap = 0) {
  unsigned long long mine = 0;
  bool longer = false;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    mine += on[r] ? 1ULL : 0ULL;
    longer = longer || (on[r] && (long long)e[r] - (long long)b[r] > chunk);
  }
  if (__ballot_sync(BFS_FULL, mine != 0) == 0u) return;
  const int lane = threadIdx.x & 31;
  unsigned long long total;
  unsigned long long at = bfs_warp_scan(mine, &total);
  unsigned long long base = 0;
  if (lane == 0) base = atomicAdd(ent, total);
  at += __shfl_sync(BFS_FULL, base, 0);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (on[r]) {
      const long long end = ((long long)e[r] - (long long)b[r] > chunk) ? (long long)b[r] + chunk : (long long)e[r];
      bfs_put2(q, mirror, mcap, (long long)at, v[r], b[r], (IT)end);
      at += 1;
    }
  }
  if (__any_sync(BFS_FULL, longer)) {
#pragma unroll
    for (int r = 0; r < R; ++r) bfs_enqueue_rest<IT>(q, ent, on[r], v[r], b[r], e[r], chunk, mirror, mcap);
  }
}

// The 32-bit word holding v's byte of the visited array, and the byte's shift in it.
__device__ __forceinline__ unsigned* bfs_word(bool* vis, long long v, unsigned& shift) {
  const unsigned long long addr = (unsigned long long)(vis + v);
  shift = (unsigned)(addr & 3ULL) * 8u;
  return (unsigned*)(addr & ~3ULL);
}

// ---------------------------------------------------------------- push
// A lane's edges [p, pend) of frontier vertex u (at most 4; none where p >= pend), the push
// of one level: their targets v[] loaded together, then claimed together (atomicOr on the
// visited words; with precheck, only targets whose visited byte reads false), then the
// winners' rows [vb, ve) (loaded beside the claims when there is no precheck: one round
// trip less a level, a wasted load per target another lane claimed).  Each winner (won[])
// gets parent u and level levnum, and is counted in cnt and edg (vertices, out-edges) and
// in_sum (its in-degree; its out-degree where indeg is null).
template <typename IT, typename VT>
__device__ __forceinline__ void bfs_claim4(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                           const long long* __restrict__ indeg, bool* vis, VT* par, VT* lev,
                                           bool* levp, long long p, long long pend, IT u, long long levnum,
                                           int precheck, IT (&v)[4], IT (&vb)[4], IT (&ve)[4], bool (&won)[4],
                                           unsigned long long& cnt, unsigned long long& edg,
                                           unsigned long long& in_sum) {
  unsigned old[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) v[r] = (p + r < pend) ? __ldg(&indices[p + r]) : (IT)-1;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    won[r] = v[r] >= 0 && !(precheck && vis[v[r]]);
    vb[r] = ve[r] = 0;
    if (!precheck && won[r]) {
      vb[r] = __ldg(&indptr[v[r]]);
      ve[r] = __ldg(&indptr[v[r] + 1]);
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    unsigned shift;
    unsigned* word = bfs_word(vis, won[r] ? (long long)v[r] : 0, shift);
    old[r] = won[r] ? atomicOr(word, 1u << shift) : 0xffffffffu;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    unsigned shift;
    bfs_word(vis, (long long)v[r], shift);
    won[r] = won[r] && ((old[r] >> shift) & 0xffu) == 0u;
    if (precheck && won[r]) {
      vb[r] = __ldg(&indptr[v[r]]);
      ve[r] = __ldg(&indptr[v[r] + 1]);
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    if (won[r]) {
      if (par != nullptr) par[v[r]] = (VT)u;
      if (lev != nullptr) lev[v[r]] = (VT)levnum;
      if (levp != nullptr) levp[v[r]] = true;
      const unsigned long long d = (unsigned long long)(ve[r] - vb[r]);
      cnt += 1;
      edg += d;
      in_sum += (indeg != nullptr) ? (unsigned long long)indeg[v[r]] : d;
    }
  }
}

// The frontier handed in (pres: a bool array, nullptr = every vertex) as queue q, and
// its sizes in slot 0 of st (zero beforehand).
template <typename IT>
__global__ void bfs_frontier(const bool* __restrict__ pres, long long n, const IT* __restrict__ indptr, IT* q,
                             long long chunk, long long* st) {
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  unsigned long long cnt = 0, edg = 0;
  for (long long base = warp * 32; base < n; base += nwarps * 32) {    // the same trips for the whole warp
    const long long x = base + lane;
    bool on[1] = {x < n && (pres == nullptr || pres[x])};
    IT v[1] = {(IT)x}, b[1] = {0}, e[1] = {0};
    if (on[0]) {
      b[0] = indptr[x];
      e[0] = indptr[x + 1];
      cnt += 1;
      edg += (unsigned long long)(e[0] - b[0]);
    }
    bfs_enqueue<1, IT>(q, (unsigned long long*)&st[BFS_ENT], on, v, b, e, chunk);
  }
  cnt = la_warp_sum(cnt);
  edg = la_warp_sum(edg);
  if (lane == 0 && cnt != 0) {
    atomicAdd((unsigned long long*)&st[BFS_CNT], cnt);
    atomicAdd((unsigned long long*)&st[BFS_EDG], edg);
  }
}

// Push levels from the frontier of level index st[BFS_K] while it is non-empty, has at
// most `limit` out-edges and stays in [lo_edges, hi_edges].  All blocks resident at once
// (the host launches at most that many).  indeg: in-degrees of a directed graph, nullptr
// for an undirected one (out-degrees serve).  par / lev / levp may be nullptr; levp: the
// levels' presence when parents are kept too.  precheck: read a target's visited byte
// before claiming it (wide levels, where most targets are visited; a thin level skips it,
// one round trip less).  bar_base: st[BFS_BAR] at launch.
template <typename IT, typename VT>
__global__ void __launch_bounds__(512, 1) bfs_push_grid(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const long long* __restrict__ indeg, IT* qa,
    IT* qb, long long cap, long long* st, bool* vis, VT* par, VT* lev, bool* levp, long long k0, long long limit,
    long long lo_edges, long long hi_edges, int precheck, int gs, unsigned long long bar_base) {
  const long long chunk = 4LL * gs;
  const int lane = threadIdx.x & 31;
  const long long sub = threadIdx.x & (gs - 1);
  const long long ngroups = (long long)gridDim.x * (blockDim.x / gs);
  const long long g = (long long)(threadIdx.x / gs) * gridDim.x + blockIdx.x;   // groups dealt round the blocks
  const bool lead = blockIdx.x == 0 && threadIdx.x == 0;
  long long P = st[BFS_K];
  unsigned long long barrier = bar_base;
  unsigned long long my_found = 0, my_in = 0, scanned = 0;
  int reason;
  for (;;) {
    const int s = (int)(P % 3);
    const IT* in = (P & 1) ? qb : qa;
    IT u, ub, ue;
    bfs_get(in, g < cap ? g : cap - 1, u, ub, ue);          // this group's first entry, with the sizes
    const long long nent = __ldcg(&st[BFS_ENT + s]);
    const long long nf = __ldcg(&st[BFS_CNT + s]);
    const long long edges = __ldcg(&st[BFS_EDG + s]);
    // the same decision in every block: nobody writes slot s during this level
    if (nf == 0 || edges > limit) { reason = 1; break; }
    if (edges > hi_edges) { reason = 2; break; }
    if (edges < lo_edges) { reason = 3; break; }
    const int o = (int)((P + 1) % 3);
    if (lead) {
      const int z = (int)((P + 2) % 3);
      st[BFS_ENT + z] = 0;
      st[BFS_CNT + z] = 0;
      st[BFS_EDG + z] = 0;
      scanned += (unsigned long long)edges;
    }
    IT* out = (P & 1) ? qa : qb;
    const long long levnum = k0 + P + 1;
    unsigned long long lvl_cnt = 0, lvl_edg = 0;
    for (long long f = g; __any_sync(BFS_FULL, f < nent); f += ngroups) {   // the same trips for the whole warp
      if (f != g) bfs_get(in, f < cap ? f : cap - 1, u, ub, ue);
      const long long p0 = (long long)ub + 4 * sub;
      const long long pend = (f < nent) ? (long long)ue : p0;      // nothing to do past the queue's end
      for (long long p = p0; __any_sync(BFS_FULL, p < pend); p += 4LL * gs) {   // once, for entries of <= chunk
        IT v[4], vb[4], ve[4];
        bool won[4];
        bfs_claim4<IT, VT>(indptr, indices, indeg, vis, par, lev, levp, p, pend, u, levnum, precheck, v, vb, ve, won,
                           lvl_cnt, lvl_edg, my_in);
        bfs_enqueue<4, IT>(out, (unsigned long long*)&st[BFS_ENT + o], won, v, vb, ve, chunk);
      }
    }
    my_found += lvl_cnt;
    lvl_cnt = la_warp_sum(lvl_cnt);
    lvl_edg = la_warp_sum(lvl_edg);
    if (lane == 0 && lvl_cnt != 0) {
      atomicAdd((unsigned long long*)&st[BFS_CNT + o], lvl_cnt);
      atomicAdd((unsigned long long*)&st[BFS_EDG + o], lvl_edg);
    }
    barrier += gridDim.x;
    la_grid_sync((unsigned long long*)&st[BFS_BAR], barrier);
    P += 1;
  }
  my_found = la_warp_sum(my_found);
  my_in = la_warp_sum(my_in);
  if (lane == 0 && my_found != 0) {
    atomicAdd((unsigned long long*)&st[BFS_FOUND], my_found);
    atomicAdd((unsigned long long*)&st[BFS_FOUND_IN], my_in);
  }
  if (lead) {
    st[BFS_K] = P;
    st[BFS_SCANNED] += (long long)scanned;
    st[BFS_STOP] = reason;
  }
}

// Push levels as bfs_push_grid does, in ONE block (the thinnest levels of high-diameter
// graphs: a level's cost there is its chain of memory round trips).  The frontier's queue
// lives in shared memory as well as in qa / qb (every entry is written to both; the first
// `scap` of a level in shared memory), its sizes in shared counters, and __syncthreads
// stands for the grid barrier: a level is the targets' loads, their claims and the
// winners' rows, no queue read, counter round trip or barrier through global memory.
// Stops (st left as bfs_push_grid leaves it, st[BFS_BAR] untouched) where the frontier is
// empty or over `limit` (1), or has more than hi_edges out-edges or more than scap entries
// (2: the host goes on with bfs_push_grid).  Dynamic shared memory: 2 * scap entries.
// 512 threads: at 1,024 (64 registers) it spilled 460 bytes a thread and measured slower
// on every graph tried (H100, 2026-11-27: grid 2000^2 17.2 -> 16.4 ms, luxembourg_osm 4.0 -> 2.9).
template <typename IT, typename VT>
__global__ void __launch_bounds__(512, 1) bfs_push_block(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const long long* __restrict__ indeg, IT* qa,
    IT* qb, long long* st, bool* vis, VT* par, VT* lev, bool* levp, long long k0, long long limit,
    long long hi_edges, int gs, long long scap) {
  extern __shared__ __align__(16) unsigned char bfs_smem[];
  __shared__ unsigned long long s_ent, s_cnt, s_edg;    // the next level's entries, vertices and out-edges
  IT* const sq0 = reinterpret_cast<IT*>(bfs_smem);
  IT* const sq1 = sq0 + 4 * scap;
  const long long chunk = 4LL * gs;
  const int lane = threadIdx.x & 31;
  const long long sub = threadIdx.x & (gs - 1);
  const long long ngroups = (long long)(blockDim.x / gs);
  const long long g = (long long)(threadIdx.x / gs);
  long long P = st[BFS_K];
  long long nent = st[BFS_ENT + P % 3], nf = st[BFS_CNT + P % 3], edges = st[BFS_EDG + P % 3];
  if (nent <= scap) {                                   // the frontier handed in, into shared memory
    const IT* in = (P & 1) ? qb : qa;
    IT* sin = (P & 1) ? sq1 : sq0;
    for (long long i = threadIdx.x; i < 4 * nent; i += blockDim.x) sin[i] = in[i];
  }
  __syncthreads();
  unsigned long long my_found = 0, my_in = 0, scanned = 0;
  int reason;
  for (;;) {
    if (nf == 0 || edges > limit) { reason = 1; break; }     // the same values in every thread
    if (edges > hi_edges || nent > scap) { reason = 2; break; }
    if (threadIdx.x == 0) {
      s_ent = 0;
      s_cnt = 0;
      s_edg = 0;
      scanned += (unsigned long long)edges;
    }
    __syncthreads();
    const IT* sin = (P & 1) ? sq1 : sq0;
    IT* sout = (P & 1) ? sq0 : sq1;
    IT* out = (P & 1) ? qa : qb;
    const long long levnum = k0 + P + 1;
    unsigned long long lvl_cnt = 0, lvl_edg = 0;
    for (long long f = g; __any_sync(BFS_FULL, f < nent); f += ngroups) {   // the same trips for the whole warp
      IT u = 0, ub = 0, ue = 0;
      if (f < nent) bfs_sget(sin, f, u, ub, ue);
      const long long p0 = (long long)ub + 4 * sub;
      const long long pend = (f < nent) ? (long long)ue : p0;
      for (long long p = p0; __any_sync(BFS_FULL, p < pend); p += 4LL * gs) {
        IT v[4], vb[4], ve[4];
        bool won[4];
        bfs_claim4<IT, VT>(indptr, indices, indeg, vis, par, lev, levp, p, pend, u, levnum, 0, v, vb, ve, won,
                           lvl_cnt, lvl_edg, my_in);
        bfs_enqueue<4, IT>(out, &s_ent, won, v, vb, ve, chunk, sout, (unsigned long long)scap);
      }
    }
    my_found += lvl_cnt;
    lvl_cnt = la_warp_sum(lvl_cnt);
    lvl_edg = la_warp_sum(lvl_edg);
    if (lane == 0 && lvl_cnt != 0) {
      atomicAdd(&s_cnt, lvl_cnt);
      atomicAdd(&s_edg, lvl_edg);
    }
    __syncthreads();                                    // the level's claims, entries and counts are in
    nent = (long long)s_ent;
    nf = (long long)s_cnt;
    edges = (long long)s_edg;
    P += 1;
    __syncthreads();                                    // read by all before thread 0 clears them
  }
  my_found = la_warp_sum(my_found);
  my_in = la_warp_sum(my_in);
  if (lane == 0 && my_found != 0) {
    atomicAdd((unsigned long long*)&st[BFS_FOUND], my_found);
    atomicAdd((unsigned long long*)&st[BFS_FOUND_IN], my_in);
  }
  if (threadIdx.x == 0) {                               // the slots as bfs_push_grid expects them at level P
    st[BFS_ENT + P % 3] = nent;
    st[BFS_CNT + P % 3] = nf;
    st[BFS_EDG + P % 3] = edges;
    st[BFS_ENT + (P + 1) % 3] = 0;
    st[BFS_CNT + (P + 1) % 3] = 0;
    st[BFS_EDG + (P + 1) % 3] = 0;
    st[BFS_K] = P;
    st[BFS_SCANNED] += (long long)scanned;
    st[BFS_STOP] = reason;
  }
}

// pres[v] = true for the vertex of each of the first nent entries of queue q.
template <typename IT>
__global__ void bfs_mark(const IT* q, long long nent, bool* pres) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nent; i += stride) pres[q[4 * i]] = true;
}

// ---------------------------------------------------------------- pull
// Pull level index P (to level number levnum): every unvisited vertex v looks for an
// in-neighbour in frontier fcur (nullptr: every vertex); the first found is its parent.
// fnext[v] is written for every v.  A level whose frontier (level index P - 1's) is empty,
// or smaller than the one before and at most min_frontier, returns at once and raises
// st[BFS_STOP]; so does every launch after it.
template <typename IT, typename VT>
__global__ void bfs_pull_level(const IT* __restrict__ tptr, const IT* __restrict__ tind,
                               const bool* __restrict__ fcur, bool* fnext, long long n, long long* st, bool* vis,
                               VT* par, VT* lev, bool* levp, long long P, long long levnum, long long min_frontier) {
  if (st[BFS_STOP] != 0) return;
  if (P > 0) {   // the step's stopping rule, on the frontier this level would expand
    const long long m = st[BFS_PCNT + P % 4], last = st[BFS_PCNT + (P - 1) % 4];
    if (m == 0 || (m < last && m <= min_frontier)) {   // the same decision in every block
      if (blockIdx.x == 0 && threadIdx.x == 0) st[BFS_STOP] = 1;
      return;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    st[BFS_K] = P + 1;
    st[BFS_PCNT + (P + 2) % 4] = 0;              // level P + 1's count; nobody reads it in this launch
  }
  const int lane = threadIdx.x & 31;
  const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  unsigned long long cnt = 0, fin = 0;
  for (long long base = warp * 32; base < n; base += nwarps * 32) {   // the same trips for the whole warp
    const long long v = base + lane;
    const bool open = v < n && !vis[v];
    IT b = 0, e = 0;
    if (open) {
      b = tptr[v];
      e = tptr[v + 1];
    }
    bool found = false;
    IT parent = 0;
    IT w[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) w[r] = (open && (long long)b + r < (long long)e) ? tind[b + r] : (IT)-1;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const bool hit = w[r] >= 0 && (fcur == nullptr || fcur[w[r]]);
      if (hit && !found) {
        found = true;
        parent = w[r];
      }
    }
    unsigned rows = __ballot_sync(BFS_FULL, open && !found && (long long)e - (long long)b > 4);
    while (rows) {                                // the rest of each long row, by the whole warp
      const int L = __ffs(rows) - 1;
      rows &= rows - 1u;
      const long long rb = (long long)__shfl_sync(BFS_FULL, b, L) + 4;
      const long long re = (long long)__shfl_sync(BFS_FULL, e, L);
      for (long long p = rb; p < re; p += 32) {
        const IT x = (p + lane < re) ? tind[p + lane] : (IT)-1;
        const unsigned hits = __ballot_sync(BFS_FULL, x >= 0 && (fcur == nullptr || fcur[x]));
        if (hits != 0u) {                           // the same for the whole warp
          const IT first = __shfl_sync(BFS_FULL, x, __ffs(hits) - 1);
          if (lane == L) {
            found = true;
            parent = first;
          }
          break;
        }
      }
    }
    if (v < n) fnext[v] = found;
    if (found) {
      vis[v] = true;
      if (par != nullptr) par[v] = (VT)parent;
      if (lev != nullptr) lev[v] = (VT)levnum;
      if (levp != nullptr) levp[v] = true;
      cnt += 1;
      fin += (unsigned long long)(e - b);
    }
  }
  cnt = la_warp_sum(cnt);
  fin = la_warp_sum(fin);
  if (lane == 0 && cnt != 0) {
    atomicAdd((unsigned long long*)&st[BFS_PCNT + (P + 1) % 4], cnt);
    atomicAdd((unsigned long long*)&st[BFS_FOUND], cnt);
    atomicAdd((unsigned long long*)&st[BFS_FOUND_IN], fin);
  }
}
