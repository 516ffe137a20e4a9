// Strongly connected components on the device: the GPU engine's scc_trim, scc_fwbw,
// scc_color and scc_labels steps (la_graph/algorithms/scc.py defines them in primitives),
// all run by ONE persistent kernel, scc_grid: every block resident at once (the host
// launches at most one 1024-thread block per multiprocessor), a software grid barrier
// (la_grid_barrier, common.cuh) between sweeps, no host round trip until it returns.
// The bits of `phases` say which parts run, in this order:
//
//  SCC_TRIM      the trim, exactly the step's: live in- and out-degrees (self-loops
//                aside), then levels of a queue of the vertices with none left, each
//                trimmed vertex taking one from its neighbours' counts; at most
//                max_levels levels (scc_labels stops early and leaves the long
//                chains, a level a vertex here, to the quotient trim);
//  SCC_CONTRACT  rep[v]: the smallest id of v's component along mutual edges (u -> w
//                and w -> u, both live), by lock-free union-find; such a component lies
//                inside one SCC, so everything below works on components ("reps"):
//                a symmetric road network is one rep, a chain of 2-cycles a path of
//                reps.  Without it every live vertex is its own rep;
//  SCC_QTRIM     trim of the graph of reps by pointer jumping: a rep whose external
//                in-edges all come from one rep p has p as its only predecessor, and
//                is an SCC of its own when p is (or has none); so for the out-edges.
//                A path of reps resolves in log2(length) sweeps, not length;
//  SCC_PIVOT     the pivot: the live vertex of largest in-degree x out-degree (live
//                degrees of the trim), smallest id;
//  SCC_FWBW      the pivot's SCC: reps reached forward from the pivot's rep, then
//                backward within them; labelled with its smallest id;
//  SCC_COLOR     coloring rounds (Orzan) until every vertex is labelled: each rep
//                takes the least key of the reps that reach it, a rep whose color is
//                its own key is a root, the reps of its color that reach it backward
//                are its SCC.  Keys: 31 hashed bits over the rep id (a random order).
//
// Propagation sweeps (forward / backward reach, min color, back within a color) are
// data-driven through stamps: a rep changed in sweep t gets stamp t + 1, and in sweep
// t the members of reps stamped >= t push along their edges; a sweep that changes
// nothing ends the fixed point.  Sweeps are asynchronous (a value written in this sweep
// may be read in it): every quantity moves one way (reached false -> true, colors
// down, union-find parents toward smaller roots), so that is safe.
//
// Work units: vertex v's edges are cut into chunks of `chunk` edges (of its longer
// row); unit u < n is chunk 0 of vertex u, unit n + i the heavy item heavy[i] =
// (c << 32 | v) of a later chunk; a group of gs lanes takes a unit.  Mutable state
// written by other blocks during the launch is read around L1 (__ldcg).
//
// Labels: done[v] / lab[v] (fresh copies the engine owns).  Workspace W: SCC_W_SLOTS
// int arrays of n (DIN DOUT MARK zero at launch), col: n long long, queue: n + nheavy
// long long (the trim's), st: SCC_S_SLOTS long long (zero at launch but S_PIVOT:
// the pivot or LLONG_MAX, S_SMALL: LLONG_MAX), bar: two unsigned zeros.

#define SCC_BLOCK 1024
#define SCC_EMPTY (-1)
#define SCC_MULTI (-2)

enum { SCC_TRIM = 1, SCC_CONTRACT = 2, SCC_QTRIM = 4, SCC_PIVOT = 8, SCC_FWBW = 16, SCC_COLOR = 32 };
// workspace arrays; A..D are ip / op / tin / tout in the quotient trim, fst / rst / smallest after
enum { SCC_W_DIN = 0, SCC_W_DOUT, SCC_W_MARK, SCC_W_REP, SCC_W_A, SCC_W_B, SCC_W_C, SCC_W_D, SCC_W_SLOTS };
// st slots (la_graph/engines/gpu/fused/scc.py mirrors them)
enum {
  SCC_S_CNT = 0,         // 3: ring of the trim levels' item counts
  SCC_S_FLAG = 3,        // 3: ring of the sweeps' changed flags
  SCC_S_ANYDONE = 6,     // a vertex was labelled at launch
  SCC_S_TRIMMED = 7,     // vertices the trim labelled
  SCC_S_LABELLED = 8,    // vertices the other phases labelled
  SCC_S_LEFT = 9,        // live vertices after the trim (down to 0 as phases label)
  SCC_S_PSCORE = 10,     // the pivot's in x out degree
  SCC_S_PIVOT = 11,      // the pivot
  SCC_S_SMALL = 12,      // smallest id of the pivot's SCC
  SCC_S_ERROR = 13,      // a bug stopped the kernel: 1 a coloring round labelled nothing, 2 no fixed point
  SCC_S_ROUNDS = 14,     // coloring rounds
  SCC_S_SWEEPS = 15,     // propagation sweeps
  SCC_S_QTRIMMED = 16,   // vertices the quotient trim labelled
  SCC_S_FWBW = 17,       // vertices of the pivot's SCC
  SCC_S_LEVELS = 18,     // trim levels
  SCC_S_COLORED = 19,    // vertices the coloring labelled
  SCC_S_SLOTS = 24
};
enum { SCC_P_FW = 0, SCC_P_BW = 1, SCC_P_CMIN = 2, SCC_P_CBACK = 3 };

template <typename T>
__device__ __forceinline__ T scc_ld(const T* p) { return __ldcg(p); }

__device__ __forceinline__ void scc_sync(unsigned* bar) {
  if (gridDim.x == 1) {
    __syncthreads();
  } else {
    la_grid_barrier(bar, gridDim.x);
  }
}

// The block's sum (OP 0), min (1) or max (2) of v: every thread of the block calls it and
// gets the result.  sh: SCC_BLOCK long long of shared memory; blockDim.x a power of two.
template <int OP>
__device__ long long scc_block_reduce(long long v, long long* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      const long long a = sh[threadIdx.x], b = sh[threadIdx.x + s];
      sh[threadIdx.x] = OP == 0 ? a + b : (OP == 1 ? (b < a ? b : a) : (b > a ? b : a));
    }
    __syncthreads();
  }
  const long long r = sh[0];
  __syncthreads();
  return r;
}

template <typename IT>
struct SccCtx {
  const IT* indptr;
  const IT* indices;
  const IT* tptr;
  const IT* tind;
  const long long* heavy;
  long long nheavy;
  unsigned char* done;
  long long* lab;
  int* din;
  int* dout;
  int* mark;
  int* rep;   // after the contraction: v's rep, or -1 once v is labelled
  int* A;
  int* B;
  int* C;
  int* D;
  long long* col;
  long long* queue;
  long long* st;
  unsigned* bar;
  long long* sh;
  long long n;
  int gs, chunk, max_levels;
  unsigned long long seed;
  long long tid, nthreads;
  long long sw;   // sweeps so far: the same in every thread
};

// Every unit by groups of gs lanes: f(v, chunk index, lane).
template <typename IT, typename F>
__device__ __forceinline__ void scc_units(const SccCtx<IT>& g, F&& f) {
  const long long groups = g.nthreads / g.gs, total = g.n + g.nheavy;
  const int lane = (int)(g.tid & (long long)(g.gs - 1));
  for (long long u = g.tid / g.gs; u < total; u += groups) {
    long long v = u;
    int c = 0;
    if (u >= g.n) {
      const long long it = g.heavy[u - g.n];
      v = it & 0xffffffffLL;
      c = (int)(it >> 32);
    }
    f(v, c, lane);
  }
}

// Edges [lo, hi) of chunk c of row v of ptr.
template <typename IT>
__device__ __forceinline__ void scc_chunk(const IT* __restrict__ ptr, long long v, int c, int chunk, long long& lo,
                                          long long& hi) {
  const long long end = (long long)ptr[v + 1];
  lo = (long long)ptr[v] + (long long)c * chunk;
  hi = lo + chunk < end ? lo + chunk : end;
}

// The chunks of v: its longer row cut in pieces of `chunk` (at least one); the host's
// heavy list holds chunks 1.. of every vertex with more than one.
template <typename IT>
__device__ __forceinline__ long long scc_nchunks(const SccCtx<IT>& g, long long v) {
  const long long a = (long long)g.indptr[v + 1] - (long long)g.indptr[v];
  const long long b = (long long)g.tptr[v + 1] - (long long)g.tptr[v];
  const long long d = a > b ? a : b;
  return d <= g.chunk ? 1 : (d + g.chunk - 1) / g.chunk;
}

// Whether sorted ind[lo, hi) holds x.
template <typename IT>
__device__ __forceinline__ bool scc_has(const IT* __restrict__ ind, long long lo, long long hi, long long x) {
  const long long end = hi;
  while (lo < hi) {
    const long long mid = (lo + hi) >> 1;
    if ((long long)ind[mid] < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < end && (long long)ind[lo] == x;
}

// A rep's key: 31 hashed bits (splitmix64's finaliser) over its id; positive, distinct.
__device__ __forceinline__ long long scc_key(long long r, unsigned long long seed) {
  unsigned long long z = (unsigned long long)r + seed;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return (long long)(((z >> 33) << 32) | (unsigned long long)r);
}

// Record x (a rep) in a predecessor / successor slot: EMPTY -> x -> MULTI.
__device__ __forceinline__ void scc_note(int* slot, int x) {
  int cur = scc_ld(slot);
  if (cur == x || cur == SCC_MULTI) return;
  if (cur == SCC_EMPTY) {
    cur = atomicCAS(slot, SCC_EMPTY, x);
    if (cur == SCC_EMPTY || cur == x) return;
  }
  if (cur != SCC_MULTI) *slot = SCC_MULTI;   // never EMPTY again: no CAS can undo it
}

// One pointer jump of rep r in the quotient trim (P: pointers, S: 1 trimmed, -1 not, 0 open).
__device__ __forceinline__ bool scc_jump(int* P, int* S, int r) {
  if (scc_ld(&S[r]) != 0) return false;
  const int p = scc_ld(&P[r]);
  const int s = scc_ld(&S[p]);
  if (s != 0) {
    S[r] = s;
    return true;
  }
  const int pp = scc_ld(&P[p]);
  if (pp == p) return false;   // p points to itself: a cycle of single predecessors
  P[r] = pp;
  return true;
}

// Union-find over par (parents point to smaller ids; roots point to themselves).
__device__ __forceinline__ int scc_find(int* par, int x) {
  for (;;) {
    const int p = scc_ld(&par[x]);
    if (p == x) return x;
    const int gp = scc_ld(&par[p]);
    if (gp == p) return p;
    par[x] = gp;   // path halving: any ancestor will do
    x = gp;
  }
}

__device__ __forceinline__ void scc_union(int* par, int a, int b) {
  a = scc_find(par, a);
  b = scc_find(par, b);
  while (a != b) {
    const int lo = a < b ? a : b, hi = a < b ? b : a;
    const int old = atomicCAS(&par[hi], hi, lo);
    if (old == hi) return;
    a = scc_find(par, lo);
    b = scc_find(par, old);
  }
}

// Trim v: label it by itself, queue its chunks at base + slots of *cnt; 1 if this call did.
template <typename IT>
__device__ __forceinline__ long long scc_trim_claim(const SccCtx<IT>& g, long long v, long long base, long long* cnt) {
  if (atomicExch(&g.mark[v], 1) != 0) return 0;
  g.lab[v] = v;
  g.done[v] = 1;
  const long long k = scc_nchunks(g, v);
  const unsigned long long at =
      k == 1 ? la_agg_inc((unsigned long long*)cnt) : atomicAdd((unsigned long long*)cnt, (unsigned long long)k);
  for (long long c = 0; c < k; ++c) g.queue[base + (long long)at + c] = (c << 32) | v;
  return 1;
}

// Take one from the counts cnt of the live neighbours, along ind[lo, hi), of trimmed v;
// trim those left at 0.  Four edges a lane at a time.
template <typename IT>
__device__ __forceinline__ long long scc_release(const SccCtx<IT>& g, const IT* __restrict__ ind, long long lo,
                                                 long long hi, int lane, long long v, int* cnt, long long base,
                                                 long long* next) {
  long long trimmed = 0;
  for (long long p = lo + lane; p < hi; p += 4LL * g.gs) {
    long long w[4];
    bool live[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const long long q = p + (long long)r * g.gs;
      w[r] = q < hi ? (long long)ind[q] : v;
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) live[r] = w[r] != v && !scc_ld(&g.done[w[r]]);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      if (live[r] && atomicSub(&cnt[w[r]], 1) == 1) trimmed += scc_trim_claim(g, w[r], base, next);
    }
  }
  return trimmed;
}

// Live neighbours of v (self-loops and labelled vertices aside) along ind[lo, hi), this lane's share.
template <typename IT>
__device__ __forceinline__ int scc_live(const SccCtx<IT>& g, const IT* __restrict__ ind, long long lo, long long hi,
                                        int lane, long long v) {
  int k = 0;
  for (long long p = lo + lane; p < hi; p += g.gs) {
    const long long w = (long long)ind[p];
    k += (w != v && !scc_ld(&g.done[w])) ? 1 : 0;
  }
  return k;
}

template <typename IT>
__device__ void scc_trim_phase(SccCtx<IT>& g) {
  bool any = false;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.done[v])) {
      any = true;
      break;
    }
  }
  if (any) g.st[SCC_S_ANYDONE] = 1;
  scc_sync(g.bar);
  if (scc_ld(&g.st[SCC_S_ANYDONE]) == 0) {
    // nothing labelled: the live degrees are the row lengths less a self-loop
    for (long long v = g.tid; v < g.n; v += g.nthreads) {
      long long lo = (long long)g.indptr[v], hi = (long long)g.indptr[v + 1];
      g.dout[v] = (int)(hi - lo - (scc_has(g.indices, lo, hi, v) ? 1 : 0));
      lo = (long long)g.tptr[v];
      hi = (long long)g.tptr[v + 1];
      g.din[v] = (int)(hi - lo - (scc_has(g.tind, lo, hi, v) ? 1 : 0));
    }
  } else {
    scc_units(g, [&](long long v, int c, int lane) {
      if (scc_ld(&g.done[v])) return;
      long long lo, hi;
      scc_chunk(g.indptr, v, c, g.chunk, lo, hi);
      int k = scc_live(g, g.indices, lo, hi, lane, v);
      if (k) atomicAdd(&g.dout[v], k);
      scc_chunk(g.tptr, v, c, g.chunk, lo, hi);
      k = scc_live(g, g.tind, lo, hi, lane, v);
      if (k) atomicAdd(&g.din[v], k);
    });
  }
  scc_sync(g.bar);
  long long trimmed = 0;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (!scc_ld(&g.done[v]) && (scc_ld(&g.din[v]) == 0 || scc_ld(&g.dout[v]) == 0))
      trimmed += scc_trim_claim(g, v, 0, &g.st[SCC_S_CNT]);
  }
  scc_sync(g.bar);
  // level L: the items [base, base + cnt[L % 3]); the next level's go to cnt[(L + 1) % 3]
  const long long groups = g.nthreads / g.gs;
  const int lane = (int)(g.tid & (long long)(g.gs - 1));
  long long base = 0;
  int L = 0;
  for (; L < g.max_levels; ++L) {
    const long long cnt = scc_ld(&g.st[SCC_S_CNT + L % 3]);
    if (cnt == 0) break;
    if (g.tid == 0) g.st[SCC_S_CNT + (L + 2) % 3] = 0;   // read by all before the last barrier
    long long* next = &g.st[SCC_S_CNT + (L + 1) % 3];
    const long long nbase = base + cnt;
    for (long long i = g.tid / g.gs; i < cnt; i += groups) {
      const long long it = scc_ld(&g.queue[base + i]);
      const long long v = it & 0xffffffffLL;
      const int c = (int)(it >> 32);
      long long lo, hi;
      scc_chunk(g.indptr, v, c, g.chunk, lo, hi);
      trimmed += scc_release(g, g.indices, lo, hi, lane, v, g.din, nbase, next);
      scc_chunk(g.tptr, v, c, g.chunk, lo, hi);
      trimmed += scc_release(g, g.tind, lo, hi, lane, v, g.dout, nbase, next);
    }
    scc_sync(g.bar);
    base = nbase;
  }
  trimmed = scc_block_reduce<0>(trimmed, g.sh);
  if (threadIdx.x == 0 && trimmed) atomicAdd((unsigned long long*)&g.st[SCC_S_TRIMMED], (unsigned long long)trimmed);
  if (g.tid == 0) g.st[SCC_S_LEVELS] = L;
}

// rep[v] = v for live v (-1 for labelled ones), S_LEFT = their number; with SCC_CONTRACT,
// then rep[v] = the smallest id of v's mutual-edge component.
template <typename IT>
__device__ void scc_contract_phase(SccCtx<IT>& g, bool contract) {
  long long left = 0;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    const bool live = !scc_ld(&g.done[v]);
    g.rep[v] = live ? (int)v : -1;
    left += live ? 1 : 0;
  }
  left = scc_block_reduce<0>(left, g.sh);
  if (threadIdx.x == 0 && left) atomicAdd((unsigned long long*)&g.st[SCC_S_LEFT], (unsigned long long)left);
  scc_sync(g.bar);
  if (!contract) return;
  scc_units(g, [&](long long v, int c, int lane) {
    if (scc_ld(&g.rep[v]) < 0) return;
    long long lo, hi;
    scc_chunk(g.indptr, v, c, g.chunk, lo, hi);
    const long long tlo = (long long)g.tptr[v], thi = (long long)g.tptr[v + 1];
    for (long long p = lo + lane; p < hi; p += g.gs) {
      const long long w = (long long)g.indices[p];
      // w -> v too: w is in v's in-row
      if (w > v && scc_ld(&g.rep[w]) >= 0 && scc_has(g.tind, tlo, thi, w)) scc_union(g.rep, (int)v, (int)w);
    }
  });
  scc_sync(g.bar);
  // Flatten: rep[v] = its root.  The walk only reads: a path-halving find here would race
  // with the owners' writes (read par[x] = p and par[p] = gp, the owner of x writes the
  // root, then par[x] = gp puts back an inner node), leaving members of a component
  // pointing at a vertex that is no rep, which no phase labels: the coloring then stops
  // with vertices left and none of them reachable (uk-2007-05 on the device).  Only v's
  // thread writes rep[v], and every value it passes through is an ancestor of v.
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    int r = scc_ld(&g.rep[v]);
    if (r < 0 || r == (int)v) continue;
    for (int p = scc_ld(&g.rep[r]); p != r; p = scc_ld(&g.rep[r])) r = p;
    g.rep[v] = r;
  }
  scc_sync(g.bar);
}

// Label live v as `label`, in the label sweeps of the phases after the trim.
template <typename IT>
__device__ __forceinline__ void scc_label(const SccCtx<IT>& g, long long v, long long label) {
  g.lab[v] = label;
  g.done[v] = 1;
  g.rep[v] = -1;
}

// Add k (this thread's labelled count) to S_LABELLED and `slot`, take it from S_LEFT.
template <typename IT>
__device__ __forceinline__ void scc_count(const SccCtx<IT>& g, long long k, int slot) {
  k = scc_block_reduce<0>(k, g.sh);
  if (threadIdx.x == 0 && k) {
    atomicAdd((unsigned long long*)&g.st[SCC_S_LABELLED], (unsigned long long)k);
    atomicAdd((unsigned long long*)&g.st[slot], (unsigned long long)k);
    atomicAdd((unsigned long long*)&g.st[SCC_S_LEFT], (unsigned long long)(-k));
  }
}

template <typename IT>
__device__ void scc_qtrim_phase(SccCtx<IT>& g) {
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) == (int)v) {
      g.A[v] = SCC_EMPTY;
      g.B[v] = SCC_EMPTY;
    }
  }
  scc_sync(g.bar);
  // A[q]: the one rep with an edge into rep q (or EMPTY / MULTI); B[r]: the one rep out of r
  scc_units(g, [&](long long v, int c, int lane) {
    const int r = scc_ld(&g.rep[v]);
    if (r < 0) return;
    long long lo, hi;
    scc_chunk(g.indptr, v, c, g.chunk, lo, hi);
    for (long long p = lo + lane; p < hi; p += g.gs) {
      const int q = scc_ld(&g.rep[(long long)g.indices[p]]);
      if (q < 0 || q == r) continue;
      scc_note(&g.B[r], q);
      scc_note(&g.A[q], r);
    }
  });
  scc_sync(g.bar);
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) == (int)v) {
      const int a = scc_ld(&g.A[v]), b = scc_ld(&g.B[v]);
      g.C[v] = a == SCC_EMPTY ? 1 : (a == SCC_MULTI ? -1 : 0);
      g.D[v] = b == SCC_EMPTY ? 1 : (b == SCC_MULTI ? -1 : 0);
    }
  }
  scc_sync(g.bar);
  // pointer jumping: a rep whose chain of only predecessors (successors) ends at a rep
  // with none is an SCC of its own; log2(n) + 2 sweeps settle every chain
  int rounds = 2;
  for (long long m = g.n; m > 1; m >>= 1) ++rounds;
  for (int k = 0; k < rounds; ++k) {
    long long* flag = &g.st[SCC_S_FLAG + g.sw % 3];
    if (g.tid == 0) g.st[SCC_S_FLAG + (g.sw + 1) % 3] = 0;
    ++g.sw;
    bool changed = false;
    for (long long v = g.tid; v < g.n; v += g.nthreads) {
      if (scc_ld(&g.rep[v]) == (int)v) {
        changed |= scc_jump(g.A, g.C, (int)v);
        changed |= scc_jump(g.B, g.D, (int)v);
      }
    }
    if (changed && scc_ld(flag) == 0) *flag = 1;
    scc_sync(g.bar);
    if (scc_ld(flag) == 0) break;
  }
  long long k = 0;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    const int r = scc_ld(&g.rep[v]);
    if (r >= 0 && (scc_ld(&g.C[r]) == 1 || scc_ld(&g.D[r]) == 1)) {
      scc_label(g, v, r);   // the rep: its component's smallest id
      ++k;
    }
  }
  scc_count(g, k, SCC_S_QTRIMMED);
  scc_sync(g.bar);
}

// One propagation to its fixed point (see the head of the file).  FW: A[q] = reached from
// the pivot; BW: B[q] = reached back within A; CMIN: col[q] = least key reaching q, A its
// stamp; CBACK: B[q] = reaches its color's root.
template <int P, typename IT>
__device__ void scc_propagate(SccCtx<IT>& g) {
  const bool out = P == SCC_P_FW || P == SCC_P_CMIN;
  const IT* __restrict__ ptr = out ? g.indptr : g.tptr;
  const IT* __restrict__ ind = out ? g.indices : g.tind;
  int* stamp = out ? g.A : g.B;
  for (long long t = 0;; ++t) {
    if (t > g.n + 1) {   // a fixed point takes at most n + 1 sweeps: a bug, not a hang
      if (g.tid == 0) g.st[SCC_S_ERROR] = 2;
      return;
    }
    long long* flag = &g.st[SCC_S_FLAG + g.sw % 3];
    if (g.tid == 0) g.st[SCC_S_FLAG + (g.sw + 1) % 3] = 0;   // last read two barriers ago
    ++g.sw;
    bool changed = false;
    scc_units(g, [&](long long v, int c, int lane) {
      const int r = scc_ld(&g.rep[v]);
      if (r < 0 || scc_ld(&stamp[r]) < t) return;
      const long long cr = (P == SCC_P_CMIN || P == SCC_P_CBACK) ? scc_ld(&g.col[r]) : 0;
      long long lo, hi;
      scc_chunk(ptr, v, c, g.chunk, lo, hi);
      for (long long p = lo + lane; p < hi; p += 4LL * g.gs) {
        int q[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const long long e = p + (long long)i * g.gs;
          q[i] = e < hi ? scc_ld(&g.rep[(long long)ind[e]]) : -1;
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          if (q[i] < 0 || q[i] == r) continue;
          const int x = q[i];
          if (P == SCC_P_FW) {
            if (scc_ld(&g.A[x]) < 0) {
              g.A[x] = t + 1;
              changed = true;
            }
          } else if (P == SCC_P_BW) {
            if (scc_ld(&g.B[x]) < 0 && scc_ld(&g.A[x]) >= 0) {
              g.B[x] = t + 1;
              changed = true;
            }
          } else if (P == SCC_P_CMIN) {
            if (cr < scc_ld(&g.col[x]) && cr < atomicMin(&g.col[x], cr)) {
              g.A[x] = t + 1;
              changed = true;
            }
          } else {
            if (scc_ld(&g.B[x]) < 0 && scc_ld(&g.col[x]) == cr) {
              g.B[x] = t + 1;
              changed = true;
            }
          }
        }
      }
    });
    if (changed && scc_ld(flag) == 0) *flag = 1;
    scc_sync(g.bar);
    if (scc_ld(flag) == 0) return;
  }
}

template <typename IT>
__device__ void scc_pivot_phase(SccCtx<IT>& g) {
  long long best = -1;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) >= 0) {
      const long long s = (long long)scc_ld(&g.din[v]) * (long long)scc_ld(&g.dout[v]);
      best = s > best ? s : best;
    }
  }
  best = scc_block_reduce<2>(best, g.sh);
  if (threadIdx.x == 0 && best >= 0) atomicMax(&g.st[SCC_S_PSCORE], best);
  scc_sync(g.bar);
  const long long top = scc_ld(&g.st[SCC_S_PSCORE]);
  long long who = LA_LLONG_MAX;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) >= 0 && (long long)scc_ld(&g.din[v]) * (long long)scc_ld(&g.dout[v]) == top) {
      who = v;   // this thread's smallest
      break;
    }
  }
  who = scc_block_reduce<1>(who, g.sh);
  if (threadIdx.x == 0 && who != LA_LLONG_MAX) atomicMin(&g.st[SCC_S_PIVOT], who);
  scc_sync(g.bar);
}

template <typename IT>
__device__ void scc_fwbw_phase(SccCtx<IT>& g) {
  const long long pivot = scc_ld(&g.st[SCC_S_PIVOT]);
  if (pivot < 0 || pivot >= g.n) return;
  const int seed = scc_ld(&g.rep[pivot]);
  if (seed < 0) return;   // labelled already: nothing to do
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) == (int)v) {
      g.A[v] = v == seed ? 0 : -1;
      g.B[v] = v == seed ? 0 : -1;
    }
  }
  scc_sync(g.bar);
  scc_propagate<SCC_P_FW>(g);
  scc_propagate<SCC_P_BW>(g);
  long long m = LA_LLONG_MAX;   // the SCC's smallest id: its smallest rep
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    if (scc_ld(&g.rep[v]) == (int)v && scc_ld(&g.B[v]) >= 0) {
      m = v;
      break;
    }
  }
  m = scc_block_reduce<1>(m, g.sh);
  if (threadIdx.x == 0 && m != LA_LLONG_MAX) atomicMin(&g.st[SCC_S_SMALL], m);
  scc_sync(g.bar);
  const long long small = scc_ld(&g.st[SCC_S_SMALL]);
  long long k = 0;
  for (long long v = g.tid; v < g.n; v += g.nthreads) {
    const int r = scc_ld(&g.rep[v]);
    if (r >= 0 && scc_ld(&g.B[r]) >= 0) {
      scc_label(g, v, small);
      ++k;
    }
  }
  scc_count(g, k, SCC_S_FWBW);
  scc_sync(g.bar);
}

template <typename IT>
__device__ void scc_color_phase(SccCtx<IT>& g) {
  for (;;) {
    const long long before = scc_ld(&g.st[SCC_S_LEFT]);
    if (before <= 0) return;
    for (long long v = g.tid; v < g.n; v += g.nthreads) {
      if (scc_ld(&g.rep[v]) == (int)v) {
        g.col[v] = scc_key(v, g.seed);
        g.A[v] = 0;
        g.B[v] = -1;
      }
    }
    scc_sync(g.bar);
    scc_propagate<SCC_P_CMIN>(g);
    for (long long v = g.tid; v < g.n; v += g.nthreads) {   // the roots
      if (scc_ld(&g.rep[v]) == (int)v && scc_ld(&g.col[v]) == scc_key(v, g.seed)) {
        g.B[v] = 0;
        g.C[v] = (int)v;
      }
    }
    scc_sync(g.bar);
    scc_propagate<SCC_P_CBACK>(g);
    for (long long v = g.tid; v < g.n; v += g.nthreads) {   // each SCC's smallest rep, at its root
      if (scc_ld(&g.rep[v]) == (int)v && scc_ld(&g.B[v]) >= 0) {
        const long long root = scc_ld(&g.col[v]) & 0xffffffffLL;
        if ((int)v < scc_ld(&g.C[root])) atomicMin(&g.C[root], (int)v);
      }
    }
    scc_sync(g.bar);
    long long k = 0;
    for (long long v = g.tid; v < g.n; v += g.nthreads) {
      const int r = scc_ld(&g.rep[v]);
      if (r >= 0 && scc_ld(&g.B[r]) >= 0) {
        scc_label(g, v, scc_ld(&g.C[scc_ld(&g.col[r]) & 0xffffffffLL]));
        ++k;
      }
    }
    scc_count(g, k, SCC_S_COLORED);
    if (g.tid == 0) atomicAdd((unsigned long long*)&g.st[SCC_S_ROUNDS], 1ULL);
    scc_sync(g.bar);
    if (scc_ld(&g.st[SCC_S_LEFT]) == before) {   // no root labelled: cannot happen
      if (g.tid == 0) g.st[SCC_S_ERROR] = 1;
      return;
    }
  }
}

template <typename IT>
__global__ void __launch_bounds__(SCC_BLOCK, 1) scc_grid(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const IT* __restrict__ tptr,
    const IT* __restrict__ tind, const long long* __restrict__ heavy, long long nheavy, bool* done, long long* lab,
    int* W, long long* col, long long* queue, long long* st, unsigned* bar, long long n, int phases, int gs,
    int chunk, unsigned long long seed, int max_levels) {
  __shared__ long long sh[SCC_BLOCK];
  SccCtx<IT> g;
  g.indptr = indptr;
  g.indices = indices;
  g.tptr = tptr;
  g.tind = tind;
  g.heavy = heavy;
  g.nheavy = nheavy;
  g.done = (unsigned char*)done;
  g.lab = lab;
  g.din = W + SCC_W_DIN * n;
  g.dout = W + SCC_W_DOUT * n;
  g.mark = W + SCC_W_MARK * n;
  g.rep = W + SCC_W_REP * n;
  g.A = W + SCC_W_A * n;
  g.B = W + SCC_W_B * n;
  g.C = W + SCC_W_C * n;
  g.D = W + SCC_W_D * n;
  g.col = col;
  g.queue = queue;
  g.st = st;
  g.bar = bar;
  g.sh = sh;
  g.n = n;
  g.gs = gs;
  g.chunk = chunk;
  g.max_levels = max_levels;
  g.seed = seed;
  g.tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  g.nthreads = (long long)gridDim.x * blockDim.x;
  g.sw = 0;
  if (phases & SCC_TRIM) scc_trim_phase(g);
  if (phases & ~SCC_TRIM) {
    scc_contract_phase(g, (phases & SCC_CONTRACT) != 0);
    if ((phases & SCC_QTRIM) && scc_ld(&g.st[SCC_S_LEFT]) > 0) scc_qtrim_phase(g);
    if ((phases & SCC_PIVOT) && scc_ld(&g.st[SCC_S_LEFT]) > 0) scc_pivot_phase(g);
    if ((phases & SCC_FWBW) && scc_ld(&g.st[SCC_S_LEFT]) > 0) scc_fwbw_phase(g);
    if (phases & SCC_COLOR) scc_color_phase(g);
  }
  if (g.tid == 0) g.st[SCC_S_SWEEPS] = g.sw;
}
