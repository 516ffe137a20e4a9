// One Boruvka round of the minimum spanning forest on the device (the engine's
// fused step msf_round; la_graph/algorithms/msf.py defines it in primitives).
//
// Edges: eu, ev (IT: int or long long vertex ids, relabelled to tree roots in
// place) and key (distinct long long keys: weight rank * nnz + CSR position).
// f, partner: parents and partners (VT: int or long long), f a star forest on entry: f[v] is v's root.
// cheap: per vertex the smallest key of an edge leaving its tree, LA_LLONG_MAX
// where none (all LA_LLONG_MAX on entry).
//
//   msf_cheapest: a = f[eu], b = f[ev]; an edge with a == b lies inside a tree
//                 (keep[i] = 0: the engine compacts it away); otherwise the ends
//                 are relabelled to a, b and cheap[a], cheap[b] min= key (atomicMin);
//   msf_partner:  the edge whose key is cheap[a] (unique: keys are distinct)
//                 writes partner[a] = b, likewise for b;
//   msf_hook:     every root r with an edge hooks f[r] = partner[r] and records
//                 forest[r] = cheap[r], except the smaller root of a pair that chose
//                 the same edge (the only cycle distinct keys allow); counts hooks;
//   msf_jump:     f[v] = f[f[v]], raising *changed while f moves (the host
//                 repeats it until f is a star forest again).

template <typename IT, typename VT>
__global__ void msf_cheapest(IT* __restrict__ eu, IT* __restrict__ ev, const long long* __restrict__ key,
                             const VT* __restrict__ f, long long* cheap, unsigned char* __restrict__ keep,
                             long long m) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    const long long a = f[eu[i]];
    const long long b = f[ev[i]];
    if (a == b) {
      keep[i] = 0;
      continue;
    }
    keep[i] = 1;
    eu[i] = (IT)a;
    ev[i] = (IT)b;
    const long long k = key[i];
    if (k < cheap[a]) atomicMin(&cheap[a], k);
    if (k < cheap[b]) atomicMin(&cheap[b], k);
  }
}

template <typename IT, typename VT>
__global__ void msf_partner(const IT* __restrict__ eu, const IT* __restrict__ ev, const long long* __restrict__ key,
                            const unsigned char* __restrict__ keep, const long long* __restrict__ cheap,
                            VT* __restrict__ partner, long long m) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
    if (!keep[i]) continue;
    const long long a = (long long)eu[i];
    const long long b = (long long)ev[i];
    const long long k = key[i];
    if (cheap[a] == k) partner[a] = (VT)b;
    if (cheap[b] == k) partner[b] = (VT)a;
  }
}

template <typename VT>
__global__ void msf_hook(VT* __restrict__ f, const long long* __restrict__ cheap, const VT* __restrict__ partner,
                         long long* __restrict__ forest, long long n, unsigned long long* hooked) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  unsigned long long count = 0;
  for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < n; r += stride) {
    const long long c = cheap[r];
    if (c == LA_LLONG_MAX) continue;
    const VT p = partner[r];
    if (cheap[p] == c && r < (long long)p) continue;  // both chose this edge: the smaller root stays a root
    f[r] = p;
    forest[r] = c;
    count += 1;
  }
  if (count) atomicAdd(hooked, count);
}

template <typename VT>
__global__ void msf_jump(VT* f, long long n, int* changed) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  bool moved = false;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    const VT p = f[v];
    const VT g = f[p];
    if (g != p) {
      f[v] = g;
      moved = true;
    }
  }
  if (moved) *changed = 1;
}
