// Greedy colouring in priority order on the device (the engine's fused step
// color_classes; la_graph/algorithms/coloring.py defines it as independent-set
// rounds, one colour class at a time).
//
// With fixed priorities the rounds colour as the sequential greedy pass by
// descending priority does: each vertex takes the smallest colour none of its
// higher-priority neighbours holds (Jones & Plassmann).  So a vertex may decide
// as soon as every higher-priority neighbour has its colour, in any order:
//
//   color[v]: -1 until v is coloured, then its final colour (written once).
//   color_first_fit: an uncoloured vertex scans its row from resume[v]; at the
//               first uncoloured neighbour of higher priority it stops, keeps
//               that place in resume[v] (the entries before it are settled:
//               coloured, or of lower priority) and is appended to the next
//               launch's worklist (next, *count).  Otherwise it takes the first
//               colour left free by its coloured neighbours, 64 colours a scan.
//
// A lower-priority neighbour waits for v, so every coloured neighbour v sees
// holds its final colour and outranks v.  A: symmetric CSR without self-loops
// (IT: int or long long indices); prio: distinct priorities; work: the vertices
// to look at (null: all n).  A group of gs lanes (a power of two <= 32) scans
// one vertex's row, as in mis_decide.

template <typename IT>
__global__ void color_first_fit(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                                const long long* __restrict__ prio, long long* color_,
                                long long* __restrict__ resume, const long long* __restrict__ work,
                                long long nwork, long long* __restrict__ next, unsigned long long* count,
                                int gs) {
  volatile long long* color = color_;
  const int lane = threadIdx.x & 31;
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / gs; i < nwork; i += ngroups) {
    const long long v = work != nullptr ? work[i] : i;
    const long long pv = prio[v];
    const long long first = (long long)indptr[v], end = (long long)indptr[v + 1];
    long long stop = -1;
    for (long long base = resume[v]; base < end; base += gs) {
      const long long p = base + sub;
      bool b = false;
      if (p < end) {
        const long long u = (long long)indices[p];
        b = color[u] < 0 && prio[u] > pv;
      }
      const unsigned hit = __ballot_sync(gmask, b) & gmask;
      if (hit) {
        stop = base + (__ffs(hit) - 1 - (lane & ~(gs - 1)));
        break;
      }
    }
    if (stop >= 0) {
      if (sub == 0) {
        resume[v] = stop;
        next[atomicAdd(count, 1ULL)] = v;
      }
      continue;
    }
    long long c = 0;
    for (long long cbase = 0;; cbase += 64) {
      unsigned long long taken = 0;
      for (long long p = first + sub; p < end; p += gs) {
        const long long cu = color[indices[p]];
        if (cu >= cbase && cu < cbase + 64) taken |= 1ULL << (cu - cbase);
      }
      for (int off = gs >> 1; off > 0; off >>= 1) taken |= __shfl_xor_sync(gmask, taken, off, gs);
      if (~taken) {
        c = cbase + __ffsll((long long)~taken) - 1;
        break;
      }
    }
    if (sub == 0) color[v] = c;
  }
}
