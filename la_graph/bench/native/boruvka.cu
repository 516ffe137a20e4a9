// Boruvka minimum spanning forest after the CMU 15-618 report, a native CUDA baseline.
//
// Edge list (u < v, one entry per undirected edge, sorted by u), union-find array comp kept
// flat between rounds (every vertex points at its root).  Per round:
//   bv_reset    cheapest[c] = none
//   bv_assign   for every edge between two components, atomicMin of the key
//               (weight order bits << 32 | edge index) into both components' cheapest:
//               ties broken by edge index, so the order is strict and no cycle is chosen
//   bv_hook     every root c with a cheapest edge i to component d hooks to d (next[c] = d)
//               and marks i, except when d chose the same edge and c < d (a mutual pair:
//               the smaller root stays a root, the edge is marked once)
//   bv_link     comp[c] = next[c] for the roots (a separate pass: bv_hook reads comp)
//   bv_flatten  comp[v] = its root (pointer chasing; hooks form a forest, so it ends)
// The host stops after a round that marked no edge.

typedef unsigned long long bv_u64;

__device__ __forceinline__ unsigned int bv_order(float w)
{
    // float -> unsigned int with the same order (negative weights included)
    const unsigned int b = __float_as_uint(w);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

extern "C" __global__ void bv_init(const int n, int* __restrict__ comp, int* __restrict__ next)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        comp[v] = v;
        next[v] = v;
    }
}

extern "C" __global__ void bv_reset(const int n, bv_u64* __restrict__ cheapest)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) cheapest[v] = ~0ull;
}

extern "C" __global__ void bv_assign(const int m, const int* __restrict__ eu, const int* __restrict__ ev,
                                     const float* __restrict__ ew, const int* __restrict__ comp,
                                     bv_u64* __restrict__ cheapest)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int i = from; i < m; i += incr) {
        const int cu = comp[eu[i]];
        const int cv = comp[ev[i]];
        if (cu == cv) continue;
        const bv_u64 key = ((bv_u64)bv_order(ew[i]) << 32) | (unsigned int)i;
        if (key < cheapest[cu]) atomicMin(&cheapest[cu], key);
        if (key < cheapest[cv]) atomicMin(&cheapest[cv], key);
    }
}

extern "C" __global__ void bv_hook(const int n, const int* __restrict__ eu, const int* __restrict__ ev,
                                   const int* __restrict__ comp, const bv_u64* __restrict__ cheapest,
                                   int* __restrict__ next, unsigned char* __restrict__ in_msf,
                                   int* __restrict__ added)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int c = from; c < n; c += incr) {
        if (comp[c] != c) continue;
        const bv_u64 key = cheapest[c];
        if (key == ~0ull) continue;
        const int i = (int)(key & 0xffffffffull);
        const int cu = comp[eu[i]];
        const int cv = comp[ev[i]];
        const int other = (cu == c) ? cv : cu;
        if (cheapest[other] == key && c < other) continue;
        next[c] = other;
        in_msf[i] = 1;
        atomicAdd(added, 1);
    }
}

extern "C" __global__ void bv_link(const int n, int* __restrict__ comp, const int* __restrict__ next)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr)
        if (comp[v] == v) comp[v] = next[v];
}

extern "C" __global__ void bv_flatten(const int n, int* comp)
{
    const int from = threadIdx.x + blockIdx.x * blockDim.x;
    const int incr = gridDim.x * blockDim.x;
    for (int v = from; v < n; v += incr) {
        int r = comp[v];
        while (true) {
            const int up = ((volatile int*)comp)[r];
            if (up == r) break;
            r = up;
        }
        comp[v] = r;
    }
}
