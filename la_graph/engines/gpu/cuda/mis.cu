// Luby's algorithm on the device (the engine's fused step luby;
// la_graph/algorithms/mis.py defines it in primitives, a round at a time).
//
// With fixed priorities Luby's rounds compute the greedy set: a vertex is a
// member exactly when every neighbour of higher priority is not (Blelloch,
// Fineman & Shun 2012).  So the vertices may decide in any order, and each
// launch lets a vertex see its neighbours' decisions of the same launch:
//
//   state[v]: 0 undecided (a candidate), 1 member, 2 out; all 0 at the start.
//   mis_decide: an undecided vertex with a member neighbour is out; one whose
//               higher-priority neighbours are all out joins and puts its
//               neighbours out; any other stays undecided and is appended to
//               the next launch's worklist (next, *count).
//
// An isolated vertex waits for nobody and joins in the first pass.  Any
// interleaving is safe: of two undecided neighbours only the one of higher
// priority can join (the other waits until it is out), and a vertex turns out
// only next to a member.  A: symmetric CSR without self-loops (IT: int or long
// long indices); prio: distinct priorities, read where state is 0; work: the
// vertices to look at (null: all n).  A group of gs lanes (a power of two <= 32)
// scans one vertex's row, as in semiring_mxv.

template <typename IT>
__global__ void mis_decide(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                           const long long* __restrict__ prio, unsigned char* state_,
                           const long long* __restrict__ work, long long nwork, long long* __restrict__ next,
                           unsigned long long* count, int gs) {
  volatile unsigned char* state = state_;
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / gs; i < nwork; i += ngroups) {
    const long long v = work != nullptr ? work[i] : i;
    // one read for the whole group: lanes that saw different states would part ways
    unsigned char sv = sub == 0 ? state[v] : 0;
    if (gs > 1) sv = (unsigned char)__shfl_sync(gmask, (int)sv, 0, gs);
    if (sv != 0) continue;
    const long long pv = prio[v];
    const long long start = (long long)indptr[v], end = (long long)indptr[v + 1];
    bool out = false, blocked = false;
    for (long long base = start; base < end; base += gs) {
      const long long p = base + sub;
      bool o = false, b = false;
      if (p < end) {
        const long long u = (long long)indices[p];
        const unsigned char s = state[u];
        o = s == 1;
        b = s == 0 && prio[u] > pv;
      }
      if (gs > 1) {
        o = __any_sync(gmask, o);
        b = __any_sync(gmask, b);
      }
      if (o) { out = true; break; }
      if (b) { blocked = true; break; }
    }
    if (out) {
      if (sub == 0) state[v] = 2;
    } else if (!blocked) {
      if (sub == 0) state[v] = 1;
      for (long long p = start + sub; p < end; p += gs) state[indices[p]] = 2;
    } else if (sub == 0) {
      next[atomicAdd(count, 1ULL)] = v;
    }
  }
}

// The priorities of the vertices 0..n-1 (the engine's fused step vertex_priorities):
// mix63(id ^ key), splitmix64's finalizer modulo 2**63 (la_graph/_random.py, whose
// constants the engine passes in: golden, m1, m2), one thread a vertex.
template <typename KT>
__global__ void mis_priorities(KT* __restrict__ prio, long long n, unsigned long long key,
                               unsigned long long golden, unsigned long long m1, unsigned long long m2) {
  const unsigned long long low63 = 0x7fffffffffffffffULL;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    unsigned long long z = (((unsigned long long)v ^ key) + golden) & low63;
    z = ((z ^ (z >> 30)) * m1) & low63;
    z = ((z ^ (z >> 27)) * m2) & low63;
    prio[v] = (KT)(z ^ (z >> 31));
  }
}
