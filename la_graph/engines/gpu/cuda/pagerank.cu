// PageRank's power iteration (the engine's fused step pagerank_iterate): a pull over
// the CSR of A' (row j lists the k of the edges k -> j), two launches an iteration.
//
//   pr_rows:  every row j: acc = sum over its entries of w[k] (times the entry's
//             weight when weighted), x = c[j] + acc the new rank; in the same pass
//             the row's |x - r[j]| (the L1 change), r[j] = x, the next iteration's
//             w[j] = x * scale[j] (scale = alpha / s where the out-degree or out-weight
//             s is nonzero, else 0) and, where s[j] == 0 (dangling), x into the
//             dangling rank.  Each block leaves its partial sums of change and
//             dangling rank in `part`.
//   pr_total: finishes the long rows (their pieces' sums, as semiring_rows_long),
//             then adds every block's partials in a fixed order (a block a slice,
//             the last block to arrive adding the slices' sums): the totals, the
//             iteration count and the convergence flag go to `st`.  No host read.
//
// Rows are laid out by the engine's row plan of A' (the one its mxv uses, cached
// with the matrix; cuda/semiring.cu describes the table): bin 0 the rows longer than
// a limit, cut into pieces of `piece` entries, a warp each; bins 1..6 the others,
// 32, 16, ..., 1 lanes a row.  Without a plan (small matrices) every row has `gs`
// lanes.  PR_BLOCK must be semiring_rows' block (the plan counts its blocks so).
//
// Once `st[PR_DONE]` is set every later launch returns at once: the host may launch
// a batch of iterations and read `st` once after it, and the ranks are those of the
// iteration that met the test, exactly.  The first launch pair (`first`) starts the
// iteration: r = r0 everywhere, its w and dangling rank; it is no iteration.
//
// The constants c[j] are the algebra's (la_graph/algorithms/pagerank.py), from the
// previous pass's dangling rank `lost`:
//   PR_GAP      (1 - alpha) / n
//   PR_UNIFORM  (1 - alpha + alpha lost) / n
//   PR_P        p[j] (1 - alpha + alpha lost)
//   PR_P_D      p[j] (1 - alpha) + d[j] (alpha lost)
// computed with the _rn intrinsics (no contraction into fma), as the host computes
// them.  The row sums, the change and the dangling rank are added in another order
// than the algebra's: the ranks agree to rounding.  Every sum is in an order fixed by
// the graph and the launch shapes: the same numbers on every run.

#define PR_BLOCK 256          // 6 blocks a multiprocessor: 40 registers, no spills (nvcc -Xptxas -v, sm_90)
#define PR_LANE 4          // entries a lane loads at a time (their loads in flight together)
#define PR_BINS 7

enum { PR_GAP = 0, PR_UNIFORM = 1, PR_P = 2, PR_P_D = 3 };
// st[] slots (unsigned long long); PR_CHANGE and PR_LOST hold doubles
enum { PR_TICKET = 0, PR_DONE = 1, PR_ITERS = 2, PR_CHANGE = 4, PR_LOST = 5 };

struct PrConst {
  double c;      // the constant, or the factor of p[j]
  double cd;     // the factor of d[j]
};

__device__ __forceinline__ PrConst pr_constants(int mode, double alpha, long long n, double lost) {
  PrConst k;
  k.cd = 0.0;
  const double jump = 1.0 - alpha;
  if (mode == PR_GAP) {
    k.c = __ddiv_rn(jump, (double)n);
  } else if (mode == PR_UNIFORM) {
    k.c = __ddiv_rn(__dadd_rn(jump, __dmul_rn(alpha, lost)), (double)n);
  } else if (mode == PR_P) {
    k.c = __dadd_rn(jump, __dmul_rn(alpha, lost));
  } else {
    k.c = jump;
    k.cd = __dmul_rn(alpha, lost);
  }
  return k;
}

// Row j's new rank x (r0 on the first pass, else c[j] + acc): its change and dangling
// rank added to ch and lo, r[j] and the next w[j] written.
__device__ __forceinline__ void pr_row_done(const long long j, const double acc, const PrConst k, const int mode,
                                            const double* __restrict__ s, const double* __restrict__ p,
                                            const double* __restrict__ d, const double alpha, const double r0,
                                            const int first, double* __restrict__ r, double* __restrict__ w_out,
                                            double& ch, double& lo) {
  double x;
  if (first) {
    x = r0;
  } else {
    double c = k.c;
    if (mode == PR_P) c = __dmul_rn(p[j], k.c);
    else if (mode == PR_P_D) c = __dadd_rn(__dmul_rn(p[j], k.c), __dmul_rn(d[j], k.cd));
    x = __dadd_rn(c, acc);
    ch += fabs(x - r[j]);
  }
  r[j] = x;
  const double sj = s[j];
  if (sj != 0.0) {
    w_out[j] = __dmul_rn(x, __dmul_rn(1.0 / sj, alpha));   // r * ((1 / s) * alpha), the algebra's scale
  } else {
    w_out[j] = 0.0;                                         // sends nothing (it has no edge of weight > 0)
    lo += x;
  }
}

// Sum of w[k] (times the entry's weight) over entries [b, e) by a group of gs lanes
// (all of them calling); every lane of the group gets the sum.
template <typename IT>
__device__ __forceinline__ double pr_fold(const long long b, const long long e, const int gs,
                                          const IT* __restrict__ tind, const double* __restrict__ tw,
                                          const double* __restrict__ w) {
  const int sub = (int)threadIdx.x & (gs - 1);
  double acc = 0.0;
  for (long long base = b; base < e; base += (long long)gs * PR_LANE) {   // the same passes on every lane
    IT k[PR_LANE];
#pragma unroll
    for (int q = 0; q < PR_LANE; ++q) {            // the column indices first: all loads in flight
      const long long at = base + (long long)(q * gs + sub);
      k[q] = at < e ? __ldcs(tind + at) : (IT)-1;     // streamed: read once, kept out of the way of w in L2
    }
    double x[PR_LANE];
#pragma unroll
    for (int q = 0; q < PR_LANE; ++q) {            // then the gathers they address
      const long long at = base + (long long)(q * gs + sub);
      x[q] = 0.0;
      if (k[q] >= 0) {
        x[q] = __ldg(w + k[q]);
        if (tw != nullptr) x[q] *= __ldcs(tw + at);
      }
    }
#pragma unroll
    for (int q = 0; q < PR_LANE; ++q) acc += x[q];
  }
  const unsigned gmask = la_group_mask(gs);
  for (int off = gs >> 1; off > 0; off >>= 1) acc += __shfl_xor_sync(gmask, acc, off, gs);
  return acc;
}

// The block's sums of a and b (every thread calling), in a fixed order: thread 0 gets them.
__device__ __forceinline__ void pr_block_sum2(double& a, double& b) {
  __shared__ double sa[PR_BLOCK / 32], sb[PR_BLOCK / 32];
  for (int off = 16; off > 0; off >>= 1) {
    a += __shfl_xor_sync(0xffffffffu, a, off);
    b += __shfl_xor_sync(0xffffffffu, b, off);
  }
  const int warp = (int)threadIdx.x >> 5;
  __syncthreads();                                   // a previous call's readers are done
  if ((threadIdx.x & 31) == 0) {
    sa[warp] = a;
    sb[warp] = b;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    a = sa[0];
    b = sb[0];
    for (int i = 1; i < (int)(blockDim.x >> 5); ++i) {
      a += sa[i];
      b += sb[i];
    }
  }
}

template <typename IT>
__global__ void __launch_bounds__(PR_BLOCK, 6) pr_rows(
    const IT* __restrict__ tptr, const IT* __restrict__ tind, const double* __restrict__ tw,
    const IT* __restrict__ order, const long long* __restrict__ tab, const long long* __restrict__ soff,
    long long piece, long long n, int gs, const double* __restrict__ s, const double* __restrict__ p,
    const double* __restrict__ d, int mode, double alpha, double r0, int first,
    const double* __restrict__ w_in, double* __restrict__ w_out, double* __restrict__ r,
    double* __restrict__ pval, double* __restrict__ part, const unsigned long long* __restrict__ st) {
  if (st[PR_DONE]) return;                            // converged: every block leaves
  const PrConst k = pr_constants(mode, alpha, n, __longlong_as_double((long long)st[PR_LOST]));
  int bin;
  long long t, row, b, e;                             // the group's task: a row, or a piece of a long one
  const bool active = la_row_task<PR_BINS, PR_BLOCK, IT>(tptr, order, tab, soff, piece, n, gs, bin, t, row, b, e);
  double acc = 0.0;
  if (active && !first) acc = pr_fold<IT>(b, e, gs, tind, tw, w_in);
  double ch = 0.0, lo = 0.0;
  if (active && (threadIdx.x & (gs - 1)) == 0) {
    if (bin == 0) pval[t] = acc;                      // pr_total finishes the long rows
    else pr_row_done(row, acc, k, mode, s, p, d, alpha, r0, first, r, w_out, ch, lo);
  }
  pr_block_sum2(ch, lo);
  if (threadIdx.x == 0) {
    part[blockIdx.x] = ch;
    part[gridDim.x + blockIdx.x] = lo;
  }
}

template <typename IT>
__global__ void __launch_bounds__(PR_BLOCK) pr_total(
    const IT* __restrict__ order, const long long* __restrict__ tab, const long long* __restrict__ soff,
    long long n, const double* __restrict__ s, const double* __restrict__ p, const double* __restrict__ d,
    int mode, double alpha, double r0, int first, double threshold, const double* __restrict__ pval,
    double* __restrict__ w_out, double* __restrict__ r, const double* __restrict__ part, long long nparts,
    double* part2, unsigned long long* st) {
  if (st[PR_DONE]) return;
  const PrConst k = pr_constants(mode, alpha, n, __longlong_as_double((long long)st[PR_LOST]));
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  double ch = 0.0, lo = 0.0;
  if (tab != nullptr) {                               // the long rows: their pieces in order
    const long long l0 = tab[PR_BINS + 1], nlong = tab[PR_BINS + 2] - l0;
    for (long long i = tid; i < nlong; i += stride) {
      double acc = 0.0;
      if (!first) {
        acc = pval[soff[i]];
        for (long long q = soff[i] + 1; q < soff[i + 1]; ++q) acc += pval[q];
      }
      pr_row_done((long long)order[l0 + i], acc, k, mode, s, p, d, alpha, r0, first, r, w_out, ch, lo);
    }
  }
  for (long long i = tid; i < nparts; i += stride) {  // pr_rows' blocks, a fixed slice a thread
    ch += part[i];
    lo += part[nparts + i];
  }
  pr_block_sum2(ch, lo);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    part2[blockIdx.x] = ch;
    part2[gridDim.x + blockIdx.x] = lo;
    __threadfence();                                  // the partials before the ticket
    last = atomicAdd(st + PR_TICKET, 1ULL) == (unsigned long long)gridDim.x - 1ULL;
  }
  __syncthreads();
  if (!last) return;                                  // block-uniform
  __threadfence();
  ch = lo = 0.0;
  for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) {
    ch += __ldcg(part2 + i);
    lo += __ldcg(part2 + gridDim.x + i);
  }
  pr_block_sum2(ch, lo);
  if (threadIdx.x == 0) {
    st[PR_TICKET] = 0ULL;
    st[PR_LOST] = (unsigned long long)__double_as_longlong(lo);
    if (!first) {
      st[PR_CHANGE] = (unsigned long long)__double_as_longlong(ch);
      st[PR_ITERS] += 1ULL;
      if (ch < threshold) st[PR_DONE] = 1ULL;
    }
  }
}
