// Blocked Floyd-Warshall in the min-plus semiring (Venkataraman, Sahni &
// Mukhopadhyaya 2003; on the GPU Katz & Kider 2008), the engine's fused step
// floyd_warshall.
//
// W is the N x N distance matrix, row-major, N = n rounded up to the tile TS (64);
// the padding rows and columns hold "no path" and keep it.  DT is its type: `int`
// when every weight is an integer and no path can be long enough to reach
// FW_I32_CUT / 2 in magnitude (the host checks: (N - 1) * max |w| <= 2^28), else
// `double`.  "No path" is FW_INF: +inf for double; for int 2^30 - 1, so a sum of two
// entries never overflows.  In int a sum through a missing edge is not +inf but
// FW_INF plus path lengths; every entry is the length of a walk in the graph
// completed by FW_INF edges, so an unreachable pair holds at least
// FW_INF - 2^28 > FW_I32_CUT and a reachable one at most 2^28: fw_export maps
// the first to +inf.  Integer sums are exact, so the int path gives the algebra's
// float64 distances exactly (and at twice the entries per byte, with Hopper's
// fused add-min instruction).
//
// Round K runs the TS pivots of tile row/column K:
//
//   fw_primary  one block: plain Floyd-Warshall on the primary tile (K, K), so it
//               holds the shortest paths among its vertices through pivots <= the
//               round's.  Before pivot k it reads D[k, k]: below 0 is a negative
//               cycle (a closed walk through k over smaller vertices, the algebra's
//               test after pivot k): *neg = k and the round stops there.
//   fw_panels   cross = 1: the tiles of row and column K (grid (nb - 1) x 2),
//               D[K, J] = min(D[K, J], P (min.+) D[K, J]) and
//               D[I, K] = min(D[I, K], D[I, K] (min.+) P) with P the primary tile: a
//               path's last (first) pivot of the round splits it into a path inside
//               the tile and one through earlier pivots only.
//               cross = 0: every other tile (grid (nb - 1) x (nb - 1)),
//               D[I, J] = min(D[I, J], D[I, K] (min.+) D[K, J]).
//               Both are min-plus products of a TS x TS tile by a TS-wide panel, the
//               bulk of the work.
//
// Every kernel returns at once once *neg >= 0 (a negative cycle was found: the
// matrix is abandoned part way).
//
// fw_panels: blocks of 256 threads, a 16 x 16 grid each owning 4 x 4 entries of the
// output tile in registers; the two operand tiles are staged in shared memory BK
// pivots at a time (16 KB each: 64 pivots of int, 32 of double) with 16-byte
// vector loads, and each step of 4 pivots reads 4 + 4 vectors for 64 min-plus
// updates.  A thread's 4 columns are 16-byte vectors 16 vectors apart (int: 4
// adjacent columns; double: 2 + 2), so a warp's loads of a row are contiguous.

#define FW_THREADS 256
#define FW_I32_CUT (1 << 29)

template <typename DT> struct FwNum;

template <> struct FwNum<int> {
  static __device__ __forceinline__ int inf() { return 0x3fffffff; }
  // min(a + b, c) in one instruction on sm_90 (VIADDMNMX); the PTX wraps, never UB
  static __device__ __forceinline__ int addmin(int a, int b, int c) {
    int r;
    asm("{.reg .s32 t; add.s32 t, %1, %2; min.s32 %0, t, %3;}" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  static __device__ __forceinline__ double out(int x) {
    return x >= FW_I32_CUT ? LaArith<double>::max_value() : (double)x;
  }
};

template <> struct FwNum<double> {
  static __device__ __forceinline__ double inf() { return LaArith<double>::max_value(); }
  static __device__ __forceinline__ double addmin(double a, double b, double c) {
    const double s = a + b;
    return s < c ? s : c;
  }
  static __device__ __forceinline__ double out(double x) { return x; }
};

// 4 values of DT from p in 16-byte vectors: VE = 16 / sizeof(DT) adjacent values each,
// vector g at p + g * gap
template <typename DT> struct FwVec;

template <> struct FwVec<int> {
  static __device__ __forceinline__ void load(int (&d)[4], const int* p, int) {
    const int4 v = *reinterpret_cast<const int4*>(p);
    d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
  }
  static __device__ __forceinline__ void store(int* p, const int (&d)[4], int) {
    *reinterpret_cast<int4*>(p) = make_int4(d[0], d[1], d[2], d[3]);
  }
};

template <> struct FwVec<double> {
  static __device__ __forceinline__ void load(double (&d)[4], const double* p, int gap) {
    const double2 u = *reinterpret_cast<const double2*>(p);
    const double2 v = *reinterpret_cast<const double2*>(p + gap);
    d[0] = u.x; d[1] = u.y; d[2] = v.x; d[3] = v.y;
  }
  static __device__ __forceinline__ void store(double* p, const double (&d)[4], int gap) {
    *reinterpret_cast<double2*>(p) = make_double2(d[0], d[1]);
    *reinterpret_cast<double2*>(p + gap) = make_double2(d[2], d[3]);
  }
};

__device__ __forceinline__ void fw_copy16(void* dst, const void* src) {
  *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
}

template <typename DT, int TS>
__global__ void __launch_bounds__(FW_THREADS) fw_primary(DT* W, long long N, int K, long long* neg) {
  static_assert(FW_THREADS % TS == 0, "a tile row is a whole number of thread rows");
  constexpr int RG = FW_THREADS / TS;   // thread (tx, ty) owns rows ty, ty + RG, ... of column tx
  if (*neg >= 0) return;
  __shared__ DT s[TS][TS];
  const int tx = threadIdx.x % TS, ty = threadIdx.x / TS;
  DT* const T = W + (long long)K * TS * N + (long long)K * TS;
#pragma unroll
  for (int m = 0; m < TS / RG; ++m) s[ty + m * RG][tx] = T[(ty + m * RG) * N + tx];
  for (int k = 0; k < TS; ++k) {
    __syncthreads();
    // Row and column k change at pivot k only through D[k, k] < 0, so with D[k, k] >= 0
    // no thread writes what another reads here; with D[k, k] < 0 every thread sees it
    // (nothing writes D[k, k] before that) and the round ends.
    if (s[k][k] < 0) {
      if (threadIdx.x == 0) *neg = (long long)K * TS + k;
      return;
    }
    const DT b = s[k][tx];
#pragma unroll
    for (int m = 0; m < TS / RG; ++m) {
      const int r = ty + m * RG;
      const DT cur = s[r][tx], x = FwNum<DT>::addmin(s[r][k], b, cur);
      if (x < cur) s[r][tx] = x;
    }
  }
#pragma unroll
  for (int m = 0; m < TS / RG; ++m) T[(ty + m * RG) * N + tx] = s[ty + m * RG][tx];   // own entries only
}

template <typename DT, int TS>
__global__ void __launch_bounds__(FW_THREADS) fw_panels(DT* W, long long N, int K, int cross, const long long* neg) {
  static_assert(TS == 64 && FW_THREADS == 256, "16 x 16 threads of 4 x 4 entries");
  constexpr int VE = 16 / sizeof(DT);     // values of a 16-byte vector
  constexpr int BK = 256 / sizeof(DT);    // pivots staged at a time: a 16 KB panel
  constexpr int AP = BK + VE;             // a padded row of As: rows 4 apart fall in other banks
  constexpr int GAP = 16 * VE;            // a thread's next vector of columns
  if (*neg >= 0) return;
  __shared__ __align__(16) DT As[TS][AP];   // D[I, pivots]: the output tile's rows
  __shared__ __align__(16) DT Bs[BK][TS];   // D[pivots, J]: the output tile's columns
  int ti, tj;
  if (cross) {
    const int b = blockIdx.x + (blockIdx.x >= K);
    ti = blockIdx.y ? b : K;
    tj = blockIdx.y ? K : b;
  } else {
    ti = blockIdx.y + (blockIdx.y >= K);
    tj = blockIdx.x + (blockIdx.x >= K);
  }
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const long long r0 = (long long)ti * TS, c0 = (long long)tj * TS, k0 = (long long)K * TS;
  DT* const C = W + (r0 + ty * 4) * N + c0 + tx * VE;   // this thread's first entry
  DT acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i) FwVec<DT>::load(acc[i], C + i * N, GAP);
#pragma unroll 1
  for (int kc = 0; kc < TS; kc += BK) {
    // In place where the output tile is an operand (cross): every block reads its
    // operands before it writes, and no other block reads its output tile this launch.
    for (int v = threadIdx.x; v < TS * (BK / VE); v += FW_THREADS) {
      const int row = v / (BK / VE), col = v % (BK / VE) * VE;
      fw_copy16(&As[row][col], W + (r0 + row) * N + k0 + kc + col);
    }
    for (int v = threadIdx.x; v < BK * (TS / VE); v += FW_THREADS) {
      const int row = v / (TS / VE), col = v % (TS / VE) * VE;
      fw_copy16(&Bs[row][col], W + (k0 + kc + row) * N + c0 + col);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; k += 4) {
      DT a[4][4], b[4][4];
#pragma unroll
      for (int i = 0; i < 4; ++i) FwVec<DT>::load(a[i], &As[ty * 4 + i][k], VE);
#pragma unroll
      for (int q = 0; q < 4; ++q) FwVec<DT>::load(b[q], &Bs[k + q][tx * VE], GAP);
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = FwNum<DT>::addmin(a[i][q], b[q][j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) FwVec<DT>::store(C + i * N, acc[i], GAP);
}

// out (n x n float64) = W[:n, :n], an int entry >= FW_I32_CUT as +inf; grid
// (column blocks, row strides)
template <typename DT>
__global__ void fw_export(const DT* W, long long N, double* out, long long n) {
  for (long long i = blockIdx.y; i < n; i += gridDim.y)
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (long long)gridDim.x * blockDim.x)
      out[i * n + j] = FwNum<DT>::out(W[i * N + j]);
}
