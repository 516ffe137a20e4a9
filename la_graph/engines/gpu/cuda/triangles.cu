// Triangles over the edges oriented by degree (the engine's fused steps
// triangle_total and vertex_triangles; la_graph/algorithms/triangles.py defines
// them in primitives: C<L> = L plus.pair L, summed).
//
// L: CSR of each vertex's later neighbours in the degree order (rows sorted, no
// row longer than sqrt(2 m)); rows[e]: the row of entry e.  For every edge
// u -> k of L the common later neighbours x of u and k close the triangle
// u, k, x, which no other edge of L finds.  One thread an edge: it walks the
// shorter of the two rows and looks each entry up in the longer one by binary
// search.  The count goes to *total (a warp sum, one atomic a warp) and, with
// tv, to each of the three corners.

template <typename IT>
__global__ void tc_edges(const long long* __restrict__ ptr, const IT* __restrict__ ind,
                         const long long* __restrict__ rows, long long m, unsigned long long* total,
                         unsigned long long* tv) {
  unsigned long long mine = 0;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    const long long u = rows[e], k = (long long)ind[e];
    long long a0 = ptr[u], a1 = ptr[u + 1], b0 = ptr[k], b1 = ptr[k + 1];
    if (a1 - a0 > b1 - b0) {  // walk the shorter row
      long long t = a0; a0 = b0; b0 = t;
      t = a1; a1 = b1; b1 = t;
    }
    unsigned long long c = 0;
    for (long long p = a0; p < a1 && b0 < b1; ++p) {
      const IT x = ind[p];
      long long lo = b0, hi = b1;  // the first entry >= x in [b0, b1)
      while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (ind[mid] < x) lo = mid + 1; else hi = mid;
      }
      if (lo < b1 && ind[lo] == x) {
        ++c;
        if (tv != nullptr) atomicAdd(&tv[x], 1ULL);
      }
      b0 = lo;  // the rows are sorted: the next entry lies further on
    }
    mine += c;
    if (tv != nullptr && c != 0) {
      atomicAdd(&tv[u], c);
      atomicAdd(&tv[k], c);
    }
  }
  mine = la_warp_sum(mine);
  if ((threadIdx.x & 31) == 0 && mine != 0) atomicAdd(total, mine);
}
