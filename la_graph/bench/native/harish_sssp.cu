// Single-source shortest paths after Harish & Narayanan as corrected in the IIT report
// (Algorithms 10-12, section 4.2), a native CUDA baseline.
//
// cost C, updating cost U, mask M.  Phase 1: every masked vertex u clears its mask and
// relaxes its out-edges into U with an atomic minimum (the correction: test-and-update of
// U[v] must be atomic).  Phase 2: every vertex whose U is below its C takes it, is masked
// again and raises the flag; U is reset to C.  The host repeats until no flag.
// Distances are doubles; weights must be non-negative, so the atomic minimum can work on
// the bit patterns (non-negative doubles order as their 64-bit patterns, +inf above all).

#define HS_INF __longlong_as_double(0x7ff0000000000000LL)

__device__ __forceinline__ void hs_atomic_min(double* addr, double val)
{
    unsigned long long* a = reinterpret_cast<unsigned long long*>(addr);
    const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(val));
    if (bits < *a) atomicMin(a, bits);
}

extern "C" __global__ void hs_init(const int n, const int source, double* __restrict__ cost,
                                   double* __restrict__ ucost, int* __restrict__ mask)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        const bool s = (v == source);
        cost[v] = s ? 0.0 : HS_INF;
        ucost[v] = s ? 0.0 : HS_INF;
        mask[v] = s ? 1 : 0;
    }
}

extern "C" __global__ void hs_phase1(const int n, const int* __restrict__ indptr, const int* __restrict__ indices,
                                     const double* __restrict__ w, const double* __restrict__ cost,
                                     double* __restrict__ ucost, int* __restrict__ mask)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int u = from; u < n; u += incr) {
        if (!mask[u]) continue;
        mask[u] = 0;
        const double c = cost[u];
        const int end = indptr[u + 1];
        for (int e = indptr[u]; e < end; e++) hs_atomic_min(&ucost[indices[e]], c + w[e]);
    }
}

extern "C" __global__ void hs_phase2(const int n, double* __restrict__ cost, double* __restrict__ ucost,
                                     int* __restrict__ mask, int* __restrict__ flag)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        const double u = ucost[v];
        if (u < cost[v]) {
            cost[v] = u;
            mask[v] = 1;
            *flag = 1;
        } else {
            ucost[v] = cost[v];
        }
    }
}
