// Semiring products of the GPU engine: w = A (+.*) u, w = u' (+.*) A, C = A (+.*) B.
//
// Templates over the add monoid M (M_MIN ... M_ANY), the compute type T (long long
// or double) and the index type IT (int or long long); the multiply op is a
// run-time code (uniform across the launch, so the switch costs no divergence),
// which keeps the instantiations at 5 x 2 x 2 per kernel.  Every kernel but
// semiring_rows (a block per task of its plan) loops grid-stride, so any grid size
// is valid; presence of each output entry goes to a separate bool array.  Masks arrive as a dense bool "allowed" array (nullptr:
// no mask) indexed like the output.

// ---------------------------------------------------------------- row-wise products
// w = A (+.*) u row by row (mxv; vxm as the same product on A's cached transpose, with
// LA_SWAP: the vector is then the multiply's first operand).  No atomics: each row is
// folded by one group of lanes, in an order fixed by the row's length, so float sums
// come out the same on every run.
//
// The engine sorts the rows once per matrix into bins by length (a "row plan", cached
// with the matrix; primitives.py says which lengths go where): bin 0 holds the rows
// longer than a limit, cut into pieces of `piece` entries, one warp a piece; bins 1..6
// hold the others, one group of 32, 16, 8, 4, 2 or 1 lanes a row, every lane taking
// LA_ROWS_LANE entries a pass (their loads issued together), so that a row of up to
// 4 * gs entries is one pass.  One launch covers every bin: `tab` holds the first block
// of each bin (tab[0..7], the total last) and its first position in `order` (tab[8..15],
// the row count last), and each block finds its bin there.  A piece's fold goes to
// pval/pfound; semiring_rows_long folds each long row's pieces in order.  Small
// matrices have no plan (tab == order == nullptr): every row in one bin of `gs` lanes.
//
// Every row visited gets w[row] (0 where no product, or with cval the accumulation
// cval[row] accop acc, cval[row] where none) and wpres[row] when wpres is given.  Rows
// that `allowed` forbids get no product.  The ANY monoid stops a row at its first product.

#define LA_ROWS_BLOCK 256           // threads a block; 4 blocks a multiprocessor: at most 64 registers, no spills
#define LA_ROWS_BINS 7
#define LA_ROWS_LANE 4

enum { LA_NEED_MAT = 1, LA_NEED_VEC = 2, LA_SWAP = 4 };

// The monoid over the products of entries [b, e) of row `row`, by a group of gs lanes
// (gs a power of two <= 32, all of them calling); returns whether any product was
// present, acc the sum (every lane of the group gets both).  The group size is a
// run-time value: one body for every bin keeps NVRTC's work (and the module) small.
template <int M, typename T, typename IT>
__device__ __forceinline__ bool la_rows_fold(const long long row, const long long b, const long long e, const int gs,
                                             const IT* __restrict__ indices, const T* __restrict__ avals,
                                             const bool* __restrict__ abools, const T aiso,
                                             const T* __restrict__ u, const bool* __restrict__ upres,
                                             const int op, const int flags, T& acc) {
  const int sub = (int)threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const bool need_mat = (flags & LA_NEED_MAT) != 0, need_vec = (flags & LA_NEED_VEC) != 0;
  const bool swap = (flags & LA_SWAP) != 0;
  bool found = false;
  acc = LaMonoid<M, T>::identity();
  for (long long base = b; base < e; base += (long long)gs * LA_ROWS_LANE) {   // the same passes on every lane
    IT j[LA_ROWS_LANE];
    bool ok[LA_ROWS_LANE];
#pragma unroll
    for (int q = 0; q < LA_ROWS_LANE; ++q) {           // the column indices first: all loads in flight
      const long long p = base + (long long)(q * gs + sub);
      ok[q] = p < e;
      j[q] = ok[q] ? indices[p] : (IT)0;
    }
    T x[LA_ROWS_LANE], a[LA_ROWS_LANE];
#pragma unroll
    for (int q = 0; q < LA_ROWS_LANE; ++q) {           // then the gathers they address
      const long long p = base + (long long)(q * gs + sub);
      x[q] = (T)0;
      a[q] = aiso;
      if (ok[q]) {
        if (upres != nullptr) ok[q] = upres[j[q]];
        if (need_vec) x[q] = u[j[q]];
        if (need_mat) {
          if (avals != nullptr) a[q] = avals[p];
          else if (abools != nullptr) a[q] = (T)abools[p];
        }
      }
    }
#pragma unroll
    for (int q = 0; q < LA_ROWS_LANE; ++q) {           // and the fold, in entry order within the lane
      if (ok[q]) {
        const long long c = (long long)j[q];
        // mxv: (A[row, c], u[c]); vxm on A' (swap): (u[c], A[c, row]), u a row vector
        const T z = la_mult<T>(op, swap ? x[q] : a[q], swap ? a[q] : x[q], swap ? 0LL : row, c, c, swap ? row : 0LL);
        if (!found) {
          acc = z;
          found = true;
        } else if (M != M_ANY) {
          acc = LaMonoid<M, T>::op(acc, z);
        }
      }
    }
    if (M == M_ANY && __any_sync(gmask, found)) break;
  }
  for (int off = gs >> 1; off > 0; off >>= 1) {
    const T other = __shfl_xor_sync(gmask, acc, off, gs);
    const int ofound = __shfl_xor_sync(gmask, (int)found, off, gs);
    if (ofound) {
      if (!found) {
        acc = other;
        found = true;
      } else if (M != M_ANY) {
        acc = LaMonoid<M, T>::op(acc, other);
      }
    }
  }
  return found;
}

// Row `row`'s output: w (and wpres) from the fold, accumulated into cval when given.
template <typename T>
__device__ __forceinline__ void la_rows_write(const long long row, const bool found, T acc,
                                              const T* __restrict__ cval, const int accop,
                                              T* __restrict__ w, bool* __restrict__ wpres) {
  if (cval != nullptr) {
    acc = found ? la_mult<T>(accop, cval[row], acc, 0LL, 0LL, 0LL, 0LL) : cval[row];
  } else if (!found) {
    acc = (T)0;
  }
  w[row] = acc;
  if (wpres != nullptr) wpres[row] = found;
}

template <int M, typename T, typename IT>
__global__ void __launch_bounds__(LA_ROWS_BLOCK, 4) semiring_rows(
    const IT* __restrict__ indptr, const IT* __restrict__ indices, const T* __restrict__ avals,
    const bool* __restrict__ abools, T aiso, const T* __restrict__ u, const bool* __restrict__ upres,
    const bool* __restrict__ allowed, const IT* __restrict__ order, const long long* __restrict__ tab,
    const long long* __restrict__ soff, long long piece, long long nrows, int gs,
    const T* __restrict__ cval, int accop, T* __restrict__ w, bool* __restrict__ wpres,
    T* __restrict__ pval, bool* __restrict__ pfound, int op, int flags) {
  int bin;
  long long t, row, b, e;                               // the group's task: a row, or a piece of a long one
  if (!la_row_task<LA_ROWS_BINS, LA_ROWS_BLOCK, IT>(indptr, order, tab, soff, piece, nrows, gs, bin, t, row, b, e))
    return;                                             // the whole group leaves together
  T acc = LaMonoid<M, T>::identity();
  bool found = false;
  if (allowed == nullptr || allowed[row]) {
    found = la_rows_fold<M, T, IT>(row, b, e, gs, indices, avals, abools, aiso, u, upres, op, flags, acc);
  }
  if ((threadIdx.x & (gs - 1)) != 0) return;
  if (bin == 0) {
    pval[t] = acc;
    pfound[t] = found;
  } else {
    la_rows_write<T>(row, found, acc, cval, accop, w, wpres);
  }
}

// The long rows of a row plan: each row's pieces (semiring_rows' bin 0) folded in order.
template <int M, typename T, typename IT>
__global__ void semiring_rows_long(const IT* __restrict__ order, const long long* __restrict__ tab,
                                   const long long* __restrict__ soff, const T* __restrict__ pval,
                                   const bool* __restrict__ pfound, const T* __restrict__ cval, int accop,
                                   T* __restrict__ w, bool* __restrict__ wpres) {
  const long long r0 = tab[LA_ROWS_BINS + 1], nlong = tab[LA_ROWS_BINS + 2] - r0;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nlong; k += stride) {
    T acc = LaMonoid<M, T>::identity();
    bool found = false;
    for (long long s = soff[k]; s < soff[k + 1]; ++s) {
      if (!pfound[s]) continue;
      if (!found) {
        acc = pval[s];
        found = true;
      } else if (M != M_ANY) {
        acc = LaMonoid<M, T>::op(acc, pval[s]);
      }
    }
    la_rows_write<T>((long long)order[r0 + k], found, acc, cval, accop, w, wpres);
  }
}


// Push: w[eo[e] + j] (+)= ev[e] (*) B[ek[e], j] for every entry e of a compacted list
// and every entry of row ek[e] of B.  One thread per edge (edge-balanced): eoff is
// the exclusive prefix sum of the rows' lengths (ne + 1 values; the total, eoff[ne],
// is read here, so the host launches without waiting for it), searched by bisection.  vxm(u, A) is the list of u's present entries with
// eo = ei = nullptr (0); mxm(A, B) with a dense output is A's entries with
// eo = i * ncols and ei = i.  w starts at the monoid's identity; combined with
// atomics (atomicMin / atomicAdd / CAS loops; a plain store for ANY).
template <int M, typename T, typename IT>
__global__ void semiring_push(const long long* __restrict__ eoff, long long ne,
                              const long long* __restrict__ ek, const T* __restrict__ ev,
                              const long long* __restrict__ eo, const long long* __restrict__ ei,
                              const IT* __restrict__ indptr, const IT* __restrict__ indices,
                              const T* __restrict__ bvals, T biso,
                              const bool* __restrict__ allowed,
                              T* __restrict__ w, bool* __restrict__ wpres,
                              int op, int need_a, int need_b) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long total = eoff[ne];
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < total; p += stride) {
    long long lo = 0, hi = ne - 1;  // the last entry e with eoff[e] <= p
    while (lo < hi) {
      const long long mid = (lo + hi + 1) >> 1;
      if (eoff[mid] <= p) lo = mid; else hi = mid - 1;
    }
    const long long k = ek[lo];
    const long long pos = (long long)indptr[k] + (p - eoff[lo]);
    const long long j = (long long)indices[pos];
    const long long o = (eo != nullptr ? eo[lo] : 0LL) + j;
    if (allowed != nullptr && !allowed[o]) continue;
    const T a = need_a ? ev[lo] : (T)0;
    const T b = need_b ? (bvals != nullptr ? bvals[pos] : biso) : (T)0;
    const T z = la_mult<T>(op, a, b, ei != nullptr ? ei[lo] : 0LL, k, k, j);
    LaMonoid<M, T>::atomic(&w[o], z);
    wpres[o] = true;
  }
}

// Masked dot products: w[p] = A[i, :] (+.*) B[:, j] for each listed position
// (i, j) = (pi[p], pj[p]); B comes transposed (bptr/bind: CSR of B', row j holds
// column j of B).  Sorted-list intersection: walk the shorter list, binary-search
// the longer one from a moving lower bound.
template <int M, typename T, typename IT>
__global__ void semiring_dot(const long long* __restrict__ pi, const long long* __restrict__ pj, long long np,
                             const IT* __restrict__ aptr, const IT* __restrict__ aind,
                             const T* __restrict__ avals, T aiso,
                             const IT* __restrict__ bptr, const IT* __restrict__ bind,
                             const T* __restrict__ bvals, T biso,
                             T* __restrict__ w, bool* __restrict__ wpres, int op, int need_a, int need_b) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x; p < np; p += stride) {
    const long long i = pi[p], j = pj[p];
    const long long as = (long long)aptr[i], ae = (long long)aptr[i + 1];
    const long long bs = (long long)bptr[j], be = (long long)bptr[j + 1];
    T acc = LaMonoid<M, T>::identity();
    bool found = false;
    if (ae - as <= be - bs) {
      long long lo = bs;
      for (long long x = as; x < ae && lo < be; ++x) {
        const long long k = (long long)aind[x];
        long long h = be;
        while (lo < h) {
          const long long m = (lo + h) >> 1;
          if ((long long)bind[m] < k) lo = m + 1; else h = m;
        }
        if (lo < be && (long long)bind[lo] == k) {
          const T a = need_a ? (avals != nullptr ? avals[x] : aiso) : (T)0;
          const T b = need_b ? (bvals != nullptr ? bvals[lo] : biso) : (T)0;
          const T z = la_mult<T>(op, a, b, i, k, k, j);
          if (!found) {
            acc = z;
            found = true;
          } else if (M != M_ANY) {
            acc = LaMonoid<M, T>::op(acc, z);
          }
          if (M == M_ANY) break;
        }
      }
    } else {
      long long lo = as;
      for (long long y = bs; y < be && lo < ae; ++y) {
        const long long k = (long long)bind[y];
        long long h = ae;
        while (lo < h) {
          const long long m = (lo + h) >> 1;
          if ((long long)aind[m] < k) lo = m + 1; else h = m;
        }
        if (lo < ae && (long long)aind[lo] == k) {
          const T a = need_a ? (avals != nullptr ? avals[lo] : aiso) : (T)0;
          const T b = need_b ? (bvals != nullptr ? bvals[y] : biso) : (T)0;
          const T z = la_mult<T>(op, a, b, i, k, k, j);
          if (!found) {
            acc = z;
            found = true;
          } else if (M != M_ANY) {
            acc = LaMonoid<M, T>::op(acc, z);
          }
          if (M == M_ANY) break;
        }
      }
    }
    wpres[p] = found;
    if (found) w[p] = acc;
  }
}

// Scatter whose duplicates reduce the same in any order (min, max; plus and times
// on integers): w[idx[k]] (+)= vals[k] by atomics and wpres[idx[k]] = true, w
// starting at the monoid's identity.  No sort, and no serial fold of a long run
// of one index (a scatter onto the roots of a few large trees).
template <int M, typename T>
__global__ void semiring_scatter(const long long* __restrict__ idx, const T* __restrict__ vals, long long k,
                                 T* __restrict__ w, bool* __restrict__ wpres) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < k; i += stride) {
    const long long o = idx[i];
    LaMonoid<M, T>::atomic(&w[o], vals[i]);
    wpres[o] = true;
  }
}

// Left fold of each segment [off[s], off[s+1]) (never empty) with the binary op
// `op`, in order: duplicate reduction of a build (dup=first keeps the first, ...),
// and the monoid reductions of reduce_rows and of the sparse mxm.
template <typename T>
__global__ void semiring_segfold(const long long* __restrict__ off, const T* __restrict__ vals,
                                 T* __restrict__ out, long long nseg, int op) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x; s < nseg; s += stride) {
    const long long a = off[s], b = off[s + 1];
    T acc = vals[a];
    for (long long q = a + 1; q < b; ++q) acc = la_mult<T>(op, acc, vals[q], 0, 0, 0, 0);
    out[s] = acc;
  }
}
