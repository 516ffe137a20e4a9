// The core_peel step: every vertex's core number by peeling, in one persistent launch.
//
// kc_peel runs the whole decomposition with grid barriers (la_grid_sync) between its
// phases and no host round trip (in the manner of the published parallel peelings,
// PKC and ParK; our code).  deg[v] is v's degree in what is left of the graph: its
// adjacency entries to other vertices, out- plus in-entries on a directed graph (an
// edge both ways counts twice, as networkx counts it; self-loops left out), and -1
// once v is removed.  Levels k go upward:
//   collect   every live vertex of degree <= kc (the level's candidate) goes on the
//             queue; the least live degree is found on the way, so that when none
//             has kc the next collect takes that least degree (empty levels cost one
//             scan each, consecutive ones none);
//   rounds    the queue's new entries are peeled: core[v] = k, deg[v] = -1, and each
//             neighbour u of degree above k loses one (atomicSub); the one decrement
//             that takes u from k + 1 to k puts it on the queue (degrees only fall,
//             so exactly once), to be peeled in the next round of the same level.
//             A neighbour at k or below is left alone: it is on the queue already,
//             or removed.  When a round adds nothing the level is done, every live
//             degree is above k, and the next candidate is k + 1.
// The launch ends when a collect finds no live vertex.  The scans run over a list of
// the live vertices, compacted (during a collect, order kept within each warp) once
// the queue has grown by half the list's length since the last compaction.
//
// The queue holds (piece << 32 | v): a vertex whose out- and in-rows together have L
// entries has max(1, ceil(L / chunk)) entries, each a group of gs lanes takes (a hub
// spreads over the grid), so it never holds more than n + (entries / chunk).
//
// st[] (int64): KC_TAIL the queue's final length (written at the end); KC_MIN three
// slots of the least live degree (by collect number mod 3: each is reset two collects
// before its use, after its last read); KC_LIVE three slots of the compacted list's
// length (likewise, by compaction number); then the launch's levels, rounds and
// compactions; KC_ADD three slots of the entries a phase (the stretch between two
// barriers: a collect or a round) appends, by phase number mod 3, reset likewise.
// All blocks take the same branches: every decision reads values fixed before the
// last barrier.  The queue's end is one of them: each thread adds the finished
// phase's count to its own copy, never reading a shared tail, since a block already
// past the barrier appends (to the next phase's slot) while a slower one has yet to
// read (a cumulative tail read then gave blocks different ends: entries peeled by
// no block or by two, cores too high or too low; issue 37).

#define KC_BLOCK 512
#define KC_FULL 0xffffffffu
#define KC_TAIL 0
#define KC_MIN 1
#define KC_LIVE 4
#define KC_LEVELS 7
#define KC_ROUNDS 8
#define KC_COMPACTIONS 9
#define KC_ADD 10

__device__ __forceinline__ int kc_dec(int* p) { return atomicSub(p, 1); }
__device__ __forceinline__ long long kc_dec(long long* p) {
  return (long long)atomicAdd((unsigned long long*)p, ~0ULL);   // adding 2^64 - 1 subtracts 1
}

// Slots of *ctr for every lane of the warp (all 32 call it, converged): `cnt` each, one atomic
// (none where no lane asks for any).
__device__ __forceinline__ long long kc_reserve(unsigned long long* ctr, long long cnt) {
  if (!__any_sync(KC_FULL, cnt != 0)) return 0;
  const int lane = threadIdx.x & 31;
  long long x = cnt;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const long long y = __shfl_up_sync(KC_FULL, x, o);
    if (lane >= o) x += y;
  }
  const long long total = __shfl_sync(KC_FULL, x, 31);
  unsigned long long base = 0;
  if (lane == 31 && total) base = atomicAdd(ctr, (unsigned long long)total);
  base = __shfl_sync(KC_FULL, base, 31);
  return (long long)base + x - cnt;
}

// Entries of v's rows: out-row, and in-row where the graph is directed (tptr not null).
template <typename IT>
__device__ __forceinline__ long long kc_len(const IT* ptr, const IT* tptr, long long v) {
  long long L = (long long)ptr[v + 1] - (long long)ptr[v];
  if (tptr) L += (long long)tptr[v + 1] - (long long)tptr[v];
  return L;
}

// 1 where the sorted row ind[lo, hi) holds v (a self-loop), else 0.
template <typename IT>
__device__ __forceinline__ long long kc_has(const IT* ind, long long lo, long long hi, long long v) {
  const long long end = hi;
  while (lo < hi) {
    const long long mid = (lo + hi) >> 1;
    if ((long long)ind[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return (lo < end && (long long)ind[lo] == v) ? 1 : 0;
}

template <typename IT, typename VT>
__global__ void __launch_bounds__(KC_BLOCK, 2) kc_peel(
    const IT* __restrict__ ptr, const IT* __restrict__ ind, const IT* __restrict__ tptr,
    const IT* __restrict__ tind, long long n, int loops, VT* deg, VT* la, VT* lb, long long* queue,
    long long* core, long long* st, unsigned long long* bar, int gs, long long chunk) {
  __shared__ long long s_min[KC_BLOCK / 32];
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  const long long g = tid / gs, ngroups = nthreads / gs;
  const int sub = threadIdx.x & (gs - 1), lane = threadIdx.x & 31;
  unsigned long long barrier = 0;

  for (long long v = tid; v < n; v += nthreads) {   // the degrees
    const long long a = ptr[v], b = ptr[v + 1];
    long long d = b - a - (loops ? kc_has(ind, a, b, v) : 0);
    if (tptr) {
      const long long c = tptr[v], e = tptr[v + 1];
      d += e - c - (loops ? kc_has(tind, c, e, v) : 0);
    }
    deg[v] = (VT)d;
  }
  barrier += gridDim.x;
  la_grid_sync(bar, barrier);

  const VT* list = nullptr;          // the live list (null: every vertex, 0 .. n - 1)
  long long nl = n, head = 0, qe = 0, head_c = 0, kc = 0, k = 0, levels = 0, rounds = 0;
  unsigned c = 0, cc = 0, ph = 0;    // collects, compactions and appending phases so far
  for (;;) {
    // ---- collect: degree <= kc onto the queue; the least live degree; maybe compact the list
    const bool compact = head > head_c && 2 * (head - head_c) >= nl;
    VT* next = (cc & 1) ? lb : la;
    long long* least = &st[KC_MIN + c % 3];
    unsigned long long* nnext = (unsigned long long*)&st[KC_LIVE + cc % 3];
    unsigned long long* added = (unsigned long long*)&st[KC_ADD + ph % 3];   // appends go to qe + *added
    if (tid == 0) {
      st[KC_MIN + (c + 1) % 3] = LA_LLONG_MAX;
      if (compact) st[KC_LIVE + (cc + 1) % 3] = 0;
      st[KC_ADD + (ph + 1) % 3] = 0;   // phase ph - 2's count: every thread read it before the last barrier
    }
    long long mine = LA_LLONG_MAX;
    for (long long i = tid; __any_sync(KC_FULL, i < nl); i += nthreads) {   // the warp's lanes together
      long long v = 0, need = 0, keep = 0;
      if (i < nl) {
        v = list ? (long long)__ldcg(&list[i]) : i;
        const long long d = (long long)__ldcg(&deg[v]);
        if (d >= 0) {
          mine = d < mine ? d : mine;
          if (d <= kc) {
            const long long L = kc_len(ptr, tptr, v);
            need = L > chunk ? (L + chunk - 1) / chunk : 1;
          } else {
            keep = compact;
          }
        }
      }
      const long long at = qe + kc_reserve(added, need);
      for (long long p = 0; p < need; ++p) queue[at + p] = (p << 32) | v;
      if (compact) {
        const long long w = kc_reserve(nnext, keep);
        if (keep) next[w] = (VT)v;
      }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      const long long y = __shfl_xor_sync(KC_FULL, mine, o);
      mine = y < mine ? y : mine;
    }
    if (lane == 0) s_min[threadIdx.x >> 5] = mine;
    __syncthreads();
    if (threadIdx.x == 0) {
      long long m = LA_LLONG_MAX;
      for (int w = 0; w < (int)(blockDim.x >> 5); ++w) m = s_min[w] < m ? s_min[w] : m;
      if (m < LA_LLONG_MAX) atomicMin(least, m);
    }
    barrier += gridDim.x;
    la_grid_sync(bar, barrier);
    ++c;
    if (compact) {
      nl = (long long)__ldcg(&st[KC_LIVE + cc % 3]);
      list = next;
      head_c = head;
      ++cc;
    }
    qe += (long long)__ldcg(&st[KC_ADD + ph % 3]);
    ++ph;
    if (qe == head) {               // no live vertex of degree kc
      const long long m = __ldcg(least);
      if (m == LA_LLONG_MAX) break;   // none left at all
      kc = m;
      continue;
    }
    // ---- level k: rounds until the queue stops growing
    k = kc;
    ++levels;
    while (qe != head) {
      unsigned long long* added = (unsigned long long*)&st[KC_ADD + ph % 3];
      if (tid == 0) st[KC_ADD + (ph + 1) % 3] = 0;   // likewise
      for (long long f = head + g; __any_sync(KC_FULL, f < qe); f += ngroups) {
        long long p = 0, pend = 0, a = 0, na = 0, b = 0;
        if (f < qe) {
          const long long e = __ldcg(&queue[f]);
          const long long v = e & 0xffffffffLL, piece = e >> 32;
          a = (long long)ptr[v];
          na = (long long)ptr[v + 1] - a;
          long long L = na;
          if (tptr) {
            b = (long long)tptr[v];
            L += (long long)tptr[v + 1] - b;
          }
          p = piece * chunk + sub;
          pend = (piece + 1) * chunk < L ? (piece + 1) * chunk : L;
          if (piece == 0 && sub == 0) {
            core[v] = k;
            deg[v] = (VT)-1;   // no decrement can race: v has been at k or below since the last barrier
          }
        }
        for (; __any_sync(KC_FULL, p < pend); p += gs) {
          long long u = 0, need = 0;
          if (p < pend) {
            u = p < na ? (long long)ind[a + p] : (long long)tind[b + p - na];
            if ((long long)__ldcg(&deg[u]) > k && (long long)kc_dec(&deg[u]) == k + 1) {
              const long long L = kc_len(ptr, tptr, u);
              need = L > chunk ? (L + chunk - 1) / chunk : 1;
            }
          }
          const long long at = qe + kc_reserve(added, need);
          for (long long q = 0; q < need; ++q) queue[at + q] = (q << 32) | u;
        }
      }
      head = qe;
      ++rounds;
      barrier += gridDim.x;
      la_grid_sync(bar, barrier);
      qe += (long long)__ldcg(&st[KC_ADD + ph % 3]);
      ++ph;
    }
    kc = k + 1;
  }
  if (tid == 0) {
    st[KC_TAIL] = qe;
    st[KC_LEVELS] = levels;
    st[KC_ROUNDS] = rounds;
    st[KC_COMPACTIONS] = cc;
  }
}
