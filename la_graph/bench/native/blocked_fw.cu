// Blocked Floyd-Warshall (Katz & Kider, as described in the IIT report, section 5.3), a
// native CUDA baseline for all-pairs shortest paths.
//
// The n x n distance matrix is padded to N, a multiple of FW_T (padding: +inf off the
// diagonal, 0 on it, so it changes nothing), float32, row-major.  For each primary tile b
// on the diagonal: phase 1 runs Floyd-Warshall inside the primary tile (one block, shared
// memory); phase 2 updates the tiles of its tile-row and tile-column from it; phase 3 all
// other tiles from one tile of each (min-plus product of two shared-memory tiles).
// Weights must be non-negative (row and column k of a tile do not change in step k, so one
// barrier per step suffices) and integer sums below 2^24 stay exact in float32.

#define FW_T 32
#define FW_INF __int_as_float(0x7f800000)

extern "C" __global__ void fw_fill(const long long total, const int N, float* __restrict__ D)
{
    const long long from = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    const long long incr = (long long)gridDim.x * blockDim.x;
    for (long long x = from; x < total; x += incr) D[x] = (x / N == x % N) ? 0.0f : FW_INF;
}

// one thread per row: D[u, v] = w(u, v), or 1 when !weighted (CSR entries are unique; self-loops keep 0)
extern "C" __global__ void fw_edges(const int n, const int N, const int* __restrict__ indptr,
                                    const int* __restrict__ indices, const double* __restrict__ w,
                                    const int weighted, float* __restrict__ D)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int u = from; u < n; u += incr) {
        const int end = indptr[u + 1];
        for (int e = indptr[u]; e < end; e++) {
            const int v = indices[e];
            if (v != u) D[(long long)u * N + v] = weighted ? (float)w[e] : 1.0f;
        }
    }
}

extern "C" __global__ void fw_phase1(const int N, const int b, float* __restrict__ D)
{
    __shared__ float t[FW_T][FW_T];
    const int i = threadIdx.y, j = threadIdx.x;
    const long long at = (long long)(b * FW_T + i) * N + b * FW_T + j;
    t[i][j] = D[at];
    __syncthreads();
    for (int k = 0; k < FW_T; k++) {
        const float x = t[i][k] + t[k][j];
        if (x < t[i][j]) t[i][j] = x;
        __syncthreads();
    }
    D[at] = t[i][j];
}

// blockIdx.x: tile index along the row/column (the primary tile skipped); blockIdx.y: 0 =
// tile (b, x) in the primary tile-row, 1 = tile (x, b) in the primary tile-column
extern "C" __global__ void fw_phase2(const int N, const int b, float* __restrict__ D)
{
    if (blockIdx.x == b) return;
    __shared__ float p[FW_T][FW_T];
    __shared__ float c[FW_T][FW_T];
    const int i = threadIdx.y, j = threadIdx.x;
    p[i][j] = D[(long long)(b * FW_T + i) * N + b * FW_T + j];
    const int row = (blockIdx.y == 0) ? b : blockIdx.x;
    const int col = (blockIdx.y == 0) ? blockIdx.x : b;
    const long long at = (long long)(row * FW_T + i) * N + col * FW_T + j;
    c[i][j] = D[at];
    __syncthreads();
    if (blockIdx.y == 0) {
        for (int k = 0; k < FW_T; k++) {
            const float x = p[i][k] + c[k][j];
            if (x < c[i][j]) c[i][j] = x;
            __syncthreads();
        }
    } else {
        for (int k = 0; k < FW_T; k++) {
            const float x = c[i][k] + p[k][j];
            if (x < c[i][j]) c[i][j] = x;
            __syncthreads();
        }
    }
    D[at] = c[i][j];
}

// blockIdx.y, blockIdx.x: tile (y, x) outside the primary tile-row and tile-column
extern "C" __global__ void fw_phase3(const int N, const int b, float* __restrict__ D)
{
    if (blockIdx.x == b || blockIdx.y == b) return;
    __shared__ float colt[FW_T][FW_T];  // tile (y, b)
    __shared__ float rowt[FW_T][FW_T];  // tile (b, x)
    const int i = threadIdx.y, j = threadIdx.x;
    colt[i][j] = D[(long long)(blockIdx.y * FW_T + i) * N + b * FW_T + j];
    rowt[i][j] = D[(long long)(b * FW_T + i) * N + blockIdx.x * FW_T + j];
    __syncthreads();
    const long long at = (long long)(blockIdx.y * FW_T + i) * N + blockIdx.x * FW_T + j;
    float d = D[at];
#pragma unroll
    for (int k = 0; k < FW_T; k++) d = fminf(d, colt[i][k] + rowt[k][j]);
    D[at] = d;
}
