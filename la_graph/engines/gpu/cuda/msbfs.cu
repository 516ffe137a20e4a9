// Multi-source breadth-first search, up to 64 sources at once, one bit lane a source
// (the steps reach_sweep and bfs_multi of la_graph/algorithms/reachability.py and bfs.py).
//
// Per vertex v three 64-bit words: vis[v] (the sources that have reached v) and two frontier
// words, fr[0][v] and fr[1][v], a level's frontier in one and the next level's in the other.
// One level, from the queue of the vertices found at the last one:
//
//   every warp takes a vertex u of the queue, its lanes u's edges (u, v):
//   nw = front[u] & ~vis[v]; if nw, old = atomicOr(vis[v], nw): the bits nw & ~old are
//   this thread's alone (no other thread set them), so it writes their levels and parents
//   (u: the any.secondi of the algebra) without a race, and ORs them into v's next-level
//   word; the thread whose OR finds that word empty appends v to the next queue (once a
//   level).  A warp clears front[u] when it is done with u: the word is the level after
//   next's.
//
// All levels run in one launch of a persistent kernel (every block resident: the host
// launches two blocks a multiprocessor, __launch_bounds__(MS_BLOCK, 2)) with one grid
// barrier a level: no host round trip per level, so a road network's thousand levels
// cost microseconds each.  The work of a level is its frontier's edges, never n.  The
// queues' lengths rotate over three slots: a level reads one, appends to the next, and
// clears the third (read a level ago, appended to at the next one).
//
// st (uint64): st[0..2] the queues' lengths; st[3] the grid barrier's counter; st[4] the
// number of levels that found something.

#define MS_BLOCK 512

template <typename IT>
__global__ void __launch_bounds__(MS_BLOCK, 2)
    msbfs_grid(const IT* __restrict__ indptr, const IT* __restrict__ indices, long long n,
               unsigned long long* vis, unsigned long long* fr0, unsigned long long* fr1,
               long long* qa, long long* qb, unsigned long long* st, long long* level, long long* parent) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long warp = tid >> 5, nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  const int lane = threadIdx.x & 31;
  unsigned long long* bar = st + 3;
  for (long long depth = 1;; ++depth) {
    const int c = (int)((depth - 1) & 1);
    long long* q = c ? qb : qa;
    long long* nq = c ? qa : qb;
    unsigned long long* front = c ? fr1 : fr0;
    unsigned long long* nfront = c ? fr0 : fr1;
    const int slot = (int)((depth - 1) % 3);
    unsigned long long* nlen = st + (slot + 1) % 3;
    const long long len = (long long)st[slot];   // written before the last barrier
    if (tid == 0) st[(slot + 2) % 3] = 0ULL;     // read a level ago; the next level appends to it
    for (long long e = warp; e < len; e += nwarps) {
      const long long u = q[e];
      const unsigned long long f = front[u];
      const long long end = (long long)indptr[u + 1];
      for (long long j = (long long)indptr[u] + lane; j < end; j += 32) {
        const long long v = (long long)indices[j];
        const unsigned long long nw = f & ~vis[v];
        if (nw) {
          unsigned long long mine = nw & ~atomicOr(vis + v, nw);
          if (mine) {
            if (atomicOr(nfront + v, mine) == 0ULL) nq[atomicAdd(nlen, 1ULL)] = v;
            if (level != nullptr || parent != nullptr) {
              while (mine) {
                const long long i = __ffsll((long long)mine) - 1;
                mine &= mine - 1ULL;
                if (level != nullptr) level[i * n + v] = depth;
                if (parent != nullptr) parent[i * n + v] = u;
              }
            }
          }
        }
      }
      __syncwarp();
      if (lane == 0) front[u] = 0ULL;   // every lane has read it
    }
    la_grid_sync(bar, (unsigned long long)gridDim.x * (unsigned long long)depth);
    const long long found = (long long)*nlen;
    if (tid == 0 && found) st[4] = (unsigned long long)depth;
    if (found == 0) return;
  }
}

// out[i * n + v] = bit i of vis[v], for the k rows of one batch (a bool matrix, row per source).
// (IT: the graph's index type, unused here: every kernel of the engine is a template.)
template <typename IT>
__global__ void msbfs_unpack(const unsigned long long* __restrict__ vis, long long n, int k, bool* out) {
  const long long total = (long long)k * n;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long i = t / n, v = t - i * n;
    out[t] = (vis[v] >> i) & 1ULL;
  }
}
