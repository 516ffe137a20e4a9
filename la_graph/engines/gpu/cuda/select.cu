// The selects of a CSR matrix row by row, a warp a row, without the int64 key of every entry
// that the generic select builds (with its row and diagonal arrays, about five times the
// matrix: R-MAT 26 on one GPU ran out of memory there): the structural ones (the engine's
// select with op tril, triu, diag, offdiag, rowle or rowgt) and, given `mask` (an entry kept
// where mask[p]: the value selects, whose comparison the host makes), any other.
//
// Pass 1 (offs null): counts[r + 1] = how many entries of row r are kept.  Pass 2, offs[r] the
// start of row r's kept entries (the scan of the counts): the kept entries in order, their
// columns to out_ind and their positions in the input to pos (the host gathers the values).

#define SEL_TRIL 0
#define SEL_TRIU 1
#define SEL_DIAG 2
#define SEL_OFFDIAG 3
#define SEL_ROWLE 4
#define SEL_ROWGT 5

__device__ __forceinline__ bool sel_keep(int op, long long r, long long c, long long k) {
  const long long d = c - r;
  switch (op) {
    case SEL_TRIL: return d <= k;
    case SEL_TRIU: return d >= k;
    case SEL_DIAG: return d == k;
    case SEL_OFFDIAG: return d != k;
    case SEL_ROWLE: return r <= k;
    default: return r > k;  // SEL_ROWGT
  }
}

template <typename IT>
__global__ void select_rows(const IT* __restrict__ indptr, const IT* __restrict__ indices, long long nrows, int op,
                            long long k, const bool* __restrict__ mask, long long* counts,
                            const long long* __restrict__ offs, IT* out_ind,
                            long long* pos) {
  const int lane = threadIdx.x & 31;
  const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  for (long long r = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < nrows; r += nwarps) {
    const long long b = (long long)indptr[r], e = (long long)indptr[r + 1];
    long long at = offs != nullptr ? offs[r] : 0;
    for (long long p0 = b; p0 < e; p0 += 32) {  // the same trips for the whole warp
      const long long p = p0 + lane;
      const bool y = p < e && (mask != nullptr ? mask[p] : sel_keep(op, r, (long long)indices[p], k));
      const unsigned m = __ballot_sync(0xffffffffu, y);
      if (offs != nullptr && y) {
        const long long q = at + __popc(m & ((1u << lane) - 1u));
        out_ind[q] = indices[p];
        pos[q] = p;
      }
      at += __popc(m);
    }
    if (offs == nullptr && lane == 0) counts[r + 1] = at;
  }
}
