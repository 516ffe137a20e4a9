// Strongly connected components on the device: the GPU engine's scc_trim and
// scc_color steps (la_graph/algorithms/scc.py defines them in primitives).  State: done[v]
// (bool: v is labelled) and lab[v] (its label), both fresh copies the engine
// owns for the call.  Row v of (indptr, indices) lists v's out-neighbours, row v
// of (tptr, tind) its in-neighbours.
//
// Every sweep is asynchronous: a thread may see flags or colors that other
// threads of the same launch have just changed.  That is safe because each
// quantity only moves one way (done and reached go false -> true, colors only
// decrease) and every update is justified by values that stay true:
//  * trim labels v when no unlabelled vertex other than v precedes it (or none
//    follows it); labelled vertices always form whole SCCs, so v's SCC is {v};
//  * colors reach the least priority of the vertices that reach v;
//  * reached spreads backward from each root within its color only.
// The host repeats a sweep until its *changed flag stays 0.

template <typename IT>
__global__ void scc_trim_round(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                               const IT* __restrict__ tptr, const IT* __restrict__ tind,
                               volatile bool* done, long long* lab, long long n, int* changed) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (done[v]) continue;
    bool out = false;
    for (long long p = (long long)indptr[v]; p < (long long)indptr[v + 1]; ++p) {
      const long long w = (long long)indices[p];
      if (w != v && !done[w]) { out = true; break; }
    }
    bool in = false;
    if (out) {
      for (long long p = (long long)tptr[v]; p < (long long)tptr[v + 1]; ++p) {
        const long long u = (long long)tind[p];
        if (u != v && !done[u]) { in = true; break; }
      }
    }
    if (!out || !in) {
      lab[v] = v;
      __threadfence();
      done[v] = true;
      *changed = 1;
    }
  }
}

// color[v] = prio[v] for unlabelled v (-1 for labelled ones); reached[v] = false
template <typename IT>
__global__ void scc_color_init(const bool* __restrict__ done, const long long* __restrict__ prio,
                               long long* color, bool* reached, long long* smallest, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    color[v] = done[v] ? -1 : prio[v];
    reached[v] = false;
    smallest[v] = n;
  }
}

// color[w] min= color[u] along every edge u -> w between unlabelled vertices
template <typename IT>
__global__ void scc_color_fwd(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                              const bool* __restrict__ done, long long* color, long long n, int* changed) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += stride) {
    if (done[u]) continue;
    const long long cu = ((volatile long long*)color)[u];
    for (long long p = (long long)indptr[u]; p < (long long)indptr[u + 1]; ++p) {
      const long long w = (long long)indices[p];
      if (!done[w] && cu < ((volatile long long*)color)[w]) {
        atomicMin(&color[w], cu);
        *changed = 1;
      }
    }
  }
}

// the roots: unlabelled vertices whose color is their own priority
template <typename IT>
__global__ void scc_color_roots(const bool* __restrict__ done, const long long* __restrict__ prio,
                                const long long* __restrict__ color, bool* reached, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (!done[v] && color[v] == prio[v]) reached[v] = true;
  }
}

// reached[v] = true when an out-neighbour of the same color is reached
template <typename IT>
__global__ void scc_color_back(const IT* __restrict__ indptr, const IT* __restrict__ indices,
                               const bool* __restrict__ done, const long long* __restrict__ color,
                               volatile bool* reached, long long n, int* changed) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (done[v] || reached[v]) continue;
    const long long c = color[v];
    for (long long p = (long long)indptr[v]; p < (long long)indptr[v + 1]; ++p) {
      const long long w = (long long)indices[p];
      if (reached[w] && color[w] == c) {
        reached[v] = true;
        *changed = 1;
        break;
      }
    }
  }
}

// smallest[color] min= v over the reached vertices (colors are priorities, 0..n-1)
template <typename IT>
__global__ void scc_color_smallest(const long long* __restrict__ color, const bool* __restrict__ reached,
                                   long long* smallest, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (reached[v]) atomicMin(&smallest[color[v]], v);
  }
}

// label the reached vertices with their SCC's smallest id
template <typename IT>
__global__ void scc_color_label(const long long* __restrict__ color, const bool* __restrict__ reached,
                                const long long* __restrict__ smallest, bool* done, long long* lab, long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (reached[v]) {
      lab[v] = smallest[color[v]];
      done[v] = true;
    }
  }
}

