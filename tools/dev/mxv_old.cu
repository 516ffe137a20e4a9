// The GPU engine's mxv kernel before the row plans (gpu/semiring.cu at 6d04c87), kept only so that
// tools/dev/mxv.sh can time the old path against the new one on the same card.  Not part of the engine
// (the engine compiles gpu/*.cu only); compiled by the script with gpu/common.cuh prepended.

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

