// Blocked Floyd-Warshall in the min-plus semiring (Venkataraman, Sahni &
// Mukhopadhyaya 2003; on the GPU Katz & Kider 2008; the seeds' IIT paper,
// section 5.3), the engine's fused step floyd_warshall.
//
// D is the n x n float64 distance matrix, row-major, updated in place (a private
// array of the engine).  It is cut into TS x TS tiles; round K runs the TS pivots
// k of tile row/column K in three launches:
//
//   fw_phase1  the primary tile (K, K): plain Floyd-Warshall on it alone (one block);
//              a diagonal entry < 0 there is a negative cycle: *neg = min(*neg, vertex);
//   fw_phase2  the tiles of row K and of column K (grid nb x 2; blockIdx.y 0: row
//              tile (K, B), 1: column tile (B, K)), each needing only itself and
//              the primary tile;
//   fw_phase3  every other tile (I, J) (grid nb x nb): D[I, J] = min(D[I, J],
//              D[I, K] (min.+) D[K, J]), a min-plus product of two tiles finished in
//              phase 2 -- the bulk of the work.
//
// A block is TS x FW_ROWS threads (threadIdx.x the column in the tile, a warp per
// tile row); each thread owns the TS / FW_ROWS tile rows ty, ty + FW_ROWS, ...
// Tiles are staged in shared memory; positions past n read as +inf (no path), so
// partial tiles need no special case and are never stored.  In phases 1 and 2 a
// pivot step reads the tile it updates, so each step computes into registers,
// synchronizes, then writes.  Every negative cycle is found in phase 1 of the
// round holding its largest vertex, before values can run off to -inf.

#define FW_ROWS 8

__device__ __forceinline__ double fw_inf() { return LaArith<double>::max_value(); }

__device__ __forceinline__ double fw_min(double a, double b) { return b < a ? b : a; }

// s = the TS x TS tile of D at (ti, tj) tile coordinates (+inf past n)
template <int TS>
__device__ __forceinline__ void fw_load(double (*s)[TS], const double* D, long long n, long long ti, long long tj) {
  const long long j = tj * TS + threadIdx.x;
  for (int r = threadIdx.y; r < TS; r += FW_ROWS) {
    const long long i = ti * TS + r;
    s[r][threadIdx.x] = (i < n && j < n) ? D[i * n + j] : fw_inf();
  }
}

template <int TS>
__device__ __forceinline__ void fw_store(const double (*s)[TS], double* D, long long n, long long ti, long long tj) {
  const long long j = tj * TS + threadIdx.x;
  if (j >= n) return;
  for (int r = threadIdx.y; r < TS; r += FW_ROWS) {
    const long long i = ti * TS + r;
    if (i < n) D[i * n + j] = s[r][threadIdx.x];
  }
}

// The TS pivot steps of phases 1 and 2 on tile s, in place: step k sets
// s[r][c] = min(s[r][c], left[r][k] + top[k][c]), where left and top are s itself or
// the primary tile.  A step reads the tile it updates: it computes into registers,
// synchronizes, then writes.
template <int TS>
__device__ __forceinline__ void fw_pivots(double (*s)[TS], const double (*left)[TS], const double (*top)[TS]) {
  constexpr int R = TS / FW_ROWS;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = 0; k < TS; ++k) {
    double v[R];
#pragma unroll
    for (int m = 0; m < R; ++m) {
      const int r = ty + m * FW_ROWS;
      v[m] = fw_min(s[r][tx], left[r][k] + top[k][tx]);
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < R; ++m) s[ty + m * FW_ROWS][tx] = v[m];
    __syncthreads();
  }
}

template <int TS>
__global__ void __launch_bounds__(TS * FW_ROWS) fw_phase1(double* D, long long n, int K, long long* neg) {
  __shared__ double s[TS][TS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  fw_load<TS>(s, D, n, K, K);
  __syncthreads();
  fw_pivots<TS>(s, s, s);
  fw_store<TS>(s, D, n, K, K);
  for (int r = ty; r < TS; r += FW_ROWS) {
    const long long i = (long long)K * TS + r;
    if (r == tx && i < n && s[r][r] < 0.0) atomicMin(neg, i);
  }
}

template <int TS>
__global__ void __launch_bounds__(TS * FW_ROWS) fw_phase2(double* D, long long n, int K) {
  const int B = blockIdx.x;
  if (B == K) return;
  __shared__ double p[TS][TS];   // the primary tile
  __shared__ double s[TS][TS];   // this block's tile
  const bool row_tile = blockIdx.y == 0;
  const long long ti = row_tile ? K : B, tj = row_tile ? B : K;
  fw_load<TS>(p, D, n, K, K);
  fw_load<TS>(s, D, n, ti, tj);
  __syncthreads();
  if (row_tile)
    fw_pivots<TS>(s, p, s);      // D[K, B] via the pivots' rows: p[r][k] + s[k][c]
  else
    fw_pivots<TS>(s, s, p);      // D[B, K] via the pivots' columns: s[r][k] + p[k][c]
  fw_store<TS>(s, D, n, ti, tj);
}

template <int TS>
__global__ void __launch_bounds__(TS * FW_ROWS) fw_phase3(double* D, long long n, int K) {
  const int J = blockIdx.x, I = blockIdx.y;
  if (I == K || J == K) return;
  __shared__ double a[TS][TS];   // D[I, K]: the pivot columns of these rows
  __shared__ double b[TS][TS];   // D[K, J]: the pivot rows of these columns
  constexpr int R = TS / FW_ROWS;
  const int tx = threadIdx.x, ty = threadIdx.y;
  fw_load<TS>(a, D, n, I, K);
  fw_load<TS>(b, D, n, K, J);
  const long long j = (long long)J * TS + tx;
  double c[R];
#pragma unroll
  for (int m = 0; m < R; ++m) {
    const long long i = (long long)I * TS + ty + m * FW_ROWS;
    c[m] = (i < n && j < n) ? D[i * n + j] : fw_inf();
  }
  __syncthreads();
#pragma unroll 8
  for (int k = 0; k < TS; ++k) {
    const double bk = b[k][tx];
#pragma unroll
    for (int m = 0; m < R; ++m) c[m] = fw_min(c[m], a[ty + m * FW_ROWS][k] + bk);
  }
  if (j >= n) return;
#pragma unroll
  for (int m = 0; m < R; ++m) {
    const long long i = (long long)I * TS + ty + m * FW_ROWS;
    if (i < n) D[i * n + j] = c[m];
  }
}
