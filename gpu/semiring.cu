// Semiring products of the GPU engine: w = A (+.*) u, w = u' (+.*) A, C = A (+.*) B.
//
// Templates over the add monoid M (M_MIN ... M_ANY), the compute type T (long long
// or double) and the index type IT (int or long long); the multiply op is a
// run-time code (uniform across the launch, so the switch costs no divergence),
// which keeps the instantiations at 5 x 2 x 2 per kernel.  Every kernel loops
// grid-stride, so any grid size is valid; presence of each output entry goes to
// a separate bool array.  Masks arrive as a dense bool "allowed" array (nullptr:
// no mask) indexed like the output.

// Row-parallel w = A (+.*) u: a group of gs lanes (a power of two <= 32) per row.
// Rows the mask forbids are skipped; the ANY monoid stops a row at its first
// product (the BFS pull step).  Writes wpres[i] for every row, w[i] where present.
template <int M, typename T, typename IT>
__global__ void semiring_mxv(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                             const T* __restrict__ avals, T aiso,
                             const T* __restrict__ u, const bool* __restrict__ upres,
                             const bool* __restrict__ allowed,
                             T* __restrict__ w, bool* __restrict__ wpres,
                             long long nrows, int op, int need_a, int need_b, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = tid / gs; i < nrows; i += ngroups) {
    if (allowed != nullptr && !allowed[i]) {
      if (sub == 0) wpres[i] = false;
      continue;
    }
    const long long start = (long long)indptr[i], end = (long long)indptr[i + 1];
    T acc = LaMonoid<M, T>::identity();
    bool found = false;
    for (long long base = start; base < end; base += gs) {
      const long long p = base + sub;
      if (p < end) {
        const long long j = (long long)indices[p];
        if (upres == nullptr || upres[j]) {
          const T a = need_a ? (avals != nullptr ? avals[p] : aiso) : (T)0;
          const T b = need_b ? u[j] : (T)0;
          const T z = la_mult<T>(op, a, b, i, j, j, 0);
          if (!found) {
            acc = z;
            found = true;
          } else if (M != M_ANY) {
            acc = LaMonoid<M, T>::op(acc, z);
          }
        }
      }
      if (M == M_ANY) {
        if (gs == 1) {
          if (found) break;
        } else if (__any_sync(gmask, found)) {
          break;
        }
      }
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
    if (sub == 0) {
      wpres[i] = found;
      if (found) w[i] = acc;
    }
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
