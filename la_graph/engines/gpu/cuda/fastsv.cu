// One FastSV round (Zhang, Azad & Buluc 2020) on the device (the engine's fused
// step fastsv_round), on full int vectors f, gp, mngp of n entries:
//
//   fastsv_mngp: mngp_new[i] = min(mngp[i], min over neighbours j of gp[j])
//                (A min.second gp, accumulated; a group of gs lanes per row);
//   fastsv_hook: fn starts as a copy of f;  fn[f[i]] min= mngp[i] (stochastic
//                hooking) and fn[i] min= min(mngp[i], gp[i]) (aggressive hooking
//                and shortcutting), all with atomicMin, so the order is free;
//   fastsv_gp:   gp_new[i] = fn[fn[i]], raising *changed where it differs from
//                gp[i] (the host reads the flag once per round).
// Outputs go to fresh arrays: the engine never writes into an array that a vector
// holds, so vectors may share arrays (copy is O(1)).

template <typename IT, typename VT>
__global__ void fastsv_mngp(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                            const VT* __restrict__ gp, const VT* __restrict__ mngp,
                            VT* __restrict__ mngp_new, long long n, int gs) {
  const int sub = threadIdx.x & (gs - 1);
  const unsigned gmask = la_group_mask(gs);
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long ngroups = ((long long)gridDim.x * blockDim.x) / gs;
  for (long long i = tid / gs; i < n; i += ngroups) {
    VT m = mngp[i];
    const long long end = (long long)indptr[i + 1];
    for (long long p = (long long)indptr[i] + sub; p < end; p += gs) {
      const VT g = gp[indices[p]];
      if (g < m) m = g;
    }
    for (int off = gs >> 1; off > 0; off >>= 1) {
      const VT other = __shfl_xor_sync(gmask, m, off, gs);
      if (other < m) m = other;
    }
    if (sub == 0) mngp_new[i] = m;
  }
}

template <typename VT>
__global__ void fastsv_hook(const VT* __restrict__ f, const VT* __restrict__ gp, const VT* __restrict__ mngp,
                            VT* fn, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const VT m = mngp[i];
    const VT p = f[i];
    if (m < fn[p]) atomicMin(&fn[p], m);
    const VT g = gp[i];
    const VT s = (g < m) ? g : m;
    if (s < fn[i]) atomicMin(&fn[i], s);
  }
}

template <typename VT>
__global__ void fastsv_gp(const VT* __restrict__ fn, const VT* __restrict__ gp, VT* __restrict__ gp_new,
                          long long n, int* changed) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  bool moved = false;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const VT g = fn[fn[i]];
    gp_new[i] = g;
    if (g != gp[i]) moved = true;
  }
  if (moved) *changed = 1;
}
