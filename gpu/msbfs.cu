// Multi-source breadth-first search, up to 64 sources at once, one bit lane a source
// (the steps reach_sweep and bfs_multi of la_graph/algorithms/reachability.py and bfs.py).
//
// Per vertex v three 64-bit words: vis[v] (the sources that have reached v), front[v]
// (those for which v is in the current frontier; read only for the vertices of the
// current queue) and next[v] (those reaching v at the level being built).  One level:
//
//   A  every warp takes a vertex u of the queue, its lanes u's edges (u, v):
//      nw = front[u] & ~vis[v]; if nw, old = atomicOr(next[v], nw): the thread whose OR
//      finds next[v] == 0 appends v to the next queue (once a level), and the bits
//      nw & ~old are its own (no other thread set them), so it writes their levels
//      and parents (u: the any.secondi of the algebra) without a race.
//   B  for v in the next queue: vis[v] |= next[v]; front[v] = next[v]; next[v] = 0.
//
// All levels run in one launch of a persistent kernel (every block resident: the host
// launches two blocks a multiprocessor, __launch_bounds__(MS_BLOCK, 2)) with a grid
// barrier after each phase: no host round trip per level, so a road network's
// thousand levels cost microseconds each.  The work of a level is its frontier's edges
// and the vertices it finds, never n.
//
// st (uint64): st[0], st[1] the lengths of queues qa, qb; st[2] the grid barrier's
// counter; st[3] the number of levels that found something.

#define MS_BLOCK 512

template <typename IT>
__global__ void __launch_bounds__(MS_BLOCK, 2)
    msbfs_grid(const IT* __restrict__ indptr, const IT* __restrict__ indices, long long n,
               unsigned long long* vis, unsigned long long* front, unsigned long long* next,
               long long* qa, long long* qb, unsigned long long* st, long long* level, long long* parent) {
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const long long warp = tid >> 5, nwarps = nthreads >> 5;
  const int lane = threadIdx.x & 31;
  unsigned long long* bar = st + 2;
  unsigned long long crossings = 0;
  long long depth = 0;
  int cur = 0;
  while (true) {
    long long* q = cur ? qb : qa;
    long long* nq = cur ? qa : qb;
    unsigned long long* nlen = st + (1 - cur);
    const long long len = (long long)st[cur];   // written before the last barrier
    ++depth;
    // A: expand the frontier
    for (long long e = warp; e < len; e += nwarps) {
      const long long u = q[e];
      const unsigned long long f = front[u];
      const long long end = (long long)indptr[u + 1];
      for (long long j = (long long)indptr[u] + lane; j < end; j += 32) {
        const long long v = (long long)indices[j];
        const unsigned long long nw = f & ~vis[v];
        if (nw) {
          const unsigned long long old = atomicOr(next + v, nw);
          if (old == 0ULL) nq[atomicAdd(nlen, 1ULL)] = v;
          if (level != nullptr || parent != nullptr) {
            unsigned long long mine = nw & ~old;
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
    la_grid_sync(bar, (unsigned long long)gridDim.x * ++crossings);
    // B: the level's finds join the visited sets and become the frontier
    const long long found = (long long)*nlen;
    for (long long e = tid; e < found; e += nthreads) {
      const long long v = nq[e];
      const unsigned long long w = next[v];
      next[v] = 0ULL;
      vis[v] |= w;
      front[v] = w;
    }
    if (tid == 0) {
      st[cur] = 0ULL;   // the queue just read: the next level appends to it
      if (found) st[3] = (unsigned long long)depth;
    }
    la_grid_sync(bar, (unsigned long long)gridDim.x * ++crossings);
    if (found == 0) return;
    cur ^= 1;
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
