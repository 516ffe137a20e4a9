// Shared helpers of the GPU engine's kernels.
//
// The engine prepends this text to every .cu file of this folder before it hands
// the source to NVRTC (cupy.RawModule), so the compiled module and CuPy's kernel
// cache key cover both; the .cu files therefore do not #include it.  No system
// headers: NVRTC compiles this as it is.
//
// Value types: the engine computes every semiring in one of two types, `long long`
// (bool, all integers) or `double` (floats); bool operands arrive as 0/1.
// Index types (`IT`): `int` where n and nnz fit in int32, else `long long`.

#define LA_LLONG_MAX 9223372036854775807LL
#define LA_LLONG_MIN (-LA_LLONG_MAX - 1LL)

// Binary (multiply) ops; the numbers are the engine's _OPCODES (la_graph/engines/gpu/ops.py).
// OP_TO_BOOL or-ed into the code turns the product into 0/1 before the monoid sees it.
enum {
  OP_FIRST = 0, OP_SECOND = 1, OP_PAIR = 2, OP_MIN = 3, OP_MAX = 4, OP_PLUS = 5,
  OP_MINUS = 6, OP_TIMES = 7, OP_DIV = 8, OP_EQ = 9, OP_NE = 10, OP_LT = 11,
  OP_LE = 12, OP_GT = 13, OP_GE = 14, OP_LOR = 15, OP_LAND = 16,
  OP_FIRSTI = 17, OP_FIRSTJ = 18, OP_SECONDI = 19, OP_SECONDJ = 20
};
#define OP_TO_BOOL 0x100

// Add monoids (template parameter M); the numbers are the engine's _MONOID_CODES (ops.py).
enum { M_MIN = 0, M_MAX = 1, M_PLUS = 2, M_TIMES = 3, M_ANY = 4 };

template <typename T> struct LaArith;

template <> struct LaArith<long long> {
  // wrap-around arithmetic (as numpy's int64), without C's signed-overflow UB
  static __device__ __forceinline__ long long add(long long a, long long b) {
    return (long long)((unsigned long long)a + (unsigned long long)b);
  }
  static __device__ __forceinline__ long long sub(long long a, long long b) {
    return (long long)((unsigned long long)a - (unsigned long long)b);
  }
  static __device__ __forceinline__ long long mul(long long a, long long b) {
    return (long long)((unsigned long long)a * (unsigned long long)b);
  }
  // C division (truncates toward zero); x / 0 is 0, LLONG_MAX or LLONG_MIN by the sign of x
  static __device__ __forceinline__ long long div(long long a, long long b) {
    if (b == 0) return a == 0 ? 0 : (a > 0 ? LA_LLONG_MAX : LA_LLONG_MIN);
    if (b == -1) return (long long)(0ULL - (unsigned long long)a);
    return a / b;
  }
  static __device__ __forceinline__ long long max_value() { return LA_LLONG_MAX; }
  static __device__ __forceinline__ long long min_value() { return LA_LLONG_MIN; }
  static __device__ __forceinline__ unsigned long long bits(long long v) { return (unsigned long long)v; }
  static __device__ __forceinline__ long long from_bits(unsigned long long b) { return (long long)b; }
};

template <> struct LaArith<double> {
  static __device__ __forceinline__ double add(double a, double b) { return a + b; }
  static __device__ __forceinline__ double sub(double a, double b) { return a - b; }
  static __device__ __forceinline__ double mul(double a, double b) { return a * b; }
  static __device__ __forceinline__ double div(double a, double b) { return a / b; }
  static __device__ __forceinline__ double max_value() { return __longlong_as_double(0x7ff0000000000000LL); }
  static __device__ __forceinline__ double min_value() { return __longlong_as_double((long long)0xfff0000000000000ULL); }
  static __device__ __forceinline__ unsigned long long bits(double v) { return (unsigned long long)__double_as_longlong(v); }
  static __device__ __forceinline__ double from_bits(unsigned long long b) { return __longlong_as_double((long long)b); }
};

// The multiply op `op` on (a, b); fi/fj are the row/column of the first operand,
// si/sj those of the second (for the positional ops firsti ... secondj).
template <typename T>
__device__ __forceinline__ T la_mult(int op, T a, T b, long long fi, long long fj, long long si, long long sj) {
  T z;
  switch (op & 0xff) {
    case OP_FIRST: z = a; break;
    case OP_SECOND: z = b; break;
    case OP_PAIR: z = (T)1; break;
    case OP_MIN: z = (b < a) ? b : a; break;
    case OP_MAX: z = (b > a) ? b : a; break;
    case OP_PLUS: z = LaArith<T>::add(a, b); break;
    case OP_MINUS: z = LaArith<T>::sub(a, b); break;
    case OP_TIMES: z = LaArith<T>::mul(a, b); break;
    case OP_DIV: z = LaArith<T>::div(a, b); break;
    case OP_EQ: z = (T)(a == b); break;
    case OP_NE: z = (T)(a != b); break;
    case OP_LT: z = (T)(a < b); break;
    case OP_LE: z = (T)(a <= b); break;
    case OP_GT: z = (T)(a > b); break;
    case OP_GE: z = (T)(a >= b); break;
    case OP_LOR: z = (T)((a != (T)0) || (b != (T)0)); break;
    case OP_LAND: z = (T)((a != (T)0) && (b != (T)0)); break;
    case OP_FIRSTI: z = (T)fi; break;
    case OP_FIRSTJ: z = (T)fj; break;
    case OP_SECONDI: z = (T)si; break;
    case OP_SECONDJ: z = (T)sj; break;
    default: z = a; break;
  }
  if (op & OP_TO_BOOL) z = (T)(z != (T)0);
  return z;
}

// ---------------------------------------------------------------- atomics
__device__ __forceinline__ void la_atomic_min(long long* p, long long v) { atomicMin(p, v); }
__device__ __forceinline__ void la_atomic_max(long long* p, long long v) { atomicMax(p, v); }
__device__ __forceinline__ void la_atomic_add(long long* p, long long v) {
  atomicAdd((unsigned long long*)p, (unsigned long long)v);
}
__device__ __forceinline__ void la_atomic_add(double* p, double v) { atomicAdd(p, v); }

// compare-and-swap loops: values only move one way, so a stale first read is harmless
__device__ __forceinline__ void la_atomic_min(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a;
  while (v < __longlong_as_double((long long)old)) {
    unsigned long long prev = atomicCAS(a, old, (unsigned long long)__double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}
__device__ __forceinline__ void la_atomic_max(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a;
  while (v > __longlong_as_double((long long)old)) {
    unsigned long long prev = atomicCAS(a, old, (unsigned long long)__double_as_longlong(v));
    if (prev == old) break;
    old = prev;
  }
}
template <typename T>
__device__ __forceinline__ void la_atomic_times(T* p, T v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    T next = LaArith<T>::mul(LaArith<T>::from_bits(assumed), v);
    old = atomicCAS(a, assumed, LaArith<T>::bits(next));
  } while (old != assumed);
}

// ---------------------------------------------------------------- monoids
template <int M, typename T> struct LaMonoid;
template <typename T> struct LaMonoid<M_MIN, T> {
  static __device__ __forceinline__ T identity() { return LaArith<T>::max_value(); }
  static __device__ __forceinline__ T op(T a, T b) { return (b < a) ? b : a; }
  static __device__ __forceinline__ void atomic(T* p, T v) { la_atomic_min(p, v); }
};
template <typename T> struct LaMonoid<M_MAX, T> {
  static __device__ __forceinline__ T identity() { return LaArith<T>::min_value(); }
  static __device__ __forceinline__ T op(T a, T b) { return (b > a) ? b : a; }
  static __device__ __forceinline__ void atomic(T* p, T v) { la_atomic_max(p, v); }
};
template <typename T> struct LaMonoid<M_PLUS, T> {
  static __device__ __forceinline__ T identity() { return (T)0; }
  static __device__ __forceinline__ T op(T a, T b) { return LaArith<T>::add(a, b); }
  static __device__ __forceinline__ void atomic(T* p, T v) { la_atomic_add(p, v); }
};
template <typename T> struct LaMonoid<M_TIMES, T> {
  static __device__ __forceinline__ T identity() { return (T)1; }
  static __device__ __forceinline__ T op(T a, T b) { return LaArith<T>::mul(a, b); }
  static __device__ __forceinline__ void atomic(T* p, T v) { la_atomic_times(p, v); }
};
template <typename T> struct LaMonoid<M_ANY, T> {
  // any value will do: keep the first, and a plain store races harmlessly
  static __device__ __forceinline__ T identity() { return (T)0; }
  static __device__ __forceinline__ T op(T a, T b) { return a; }
  static __device__ __forceinline__ void atomic(T* p, T v) { *p = v; }
};

// ---------------------------------------------------------------- warp helpers
// A unique slot of *ctr for each calling lane; one atomic per group of converged lanes.
__device__ __forceinline__ unsigned long long la_agg_inc(unsigned long long* ctr) {
  unsigned mask = __activemask();
  int lane = threadIdx.x & 31;
  int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(ctr, (unsigned long long)__popc(mask));
  base = __shfl_sync(mask, base, leader);
  return base + (unsigned long long)__popc(mask & ((1u << lane) - 1u));
}

// Sum over the full warp (every lane must call it).
__device__ __forceinline__ unsigned long long la_warp_sum(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Lanes [base, base + gs) of this warp, for a group of gs lanes (gs a power of two <= 32).
__device__ __forceinline__ unsigned la_group_mask(int gs) {
  if (gs >= 32) return 0xffffffffu;
  int lane = threadIdx.x & 31;
  return ((1u << gs) - 1u) << (lane & ~(gs - 1));
}

// ---------------------------------------------------------------- persistent kernels
// A software barrier across the whole grid, for kernels launched with no more
// blocks than can be resident at once (one per multiprocessor): bar[0] counts
// arrivals, bar[1] is the generation; both 0 at launch.  Data other blocks wrote
// before the barrier is read around L1 afterwards (__ldcg, volatile or atomics).
__device__ __forceinline__ void la_grid_barrier(unsigned* bar, unsigned nblocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned* gen = bar + 1;
    const unsigned g = *gen;
    __threadfence();
    if (atomicAdd(bar, 1u) == nblocks - 1u) {
      atomicExch(bar, 0u);
      __threadfence();
      atomicAdd(bar + 1, 1u);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// The same barrier on a counter that only grows, for kernels that cross one per level
// thousands of times: each block adds 1 as it arrives and waits until the count reaches
// `target` (the count at launch plus the number of blocks times the barriers crossed so
// far, this one included).  One atomic and a poll per block, no reset and no generation
// word; the arrival is a release and the last poll an acquire (gpu scope), which order
// the block's writes before and its reads after (__syncthreads carries them to the
// block's other threads), lighter than the sequentially consistent __threadfence.
__device__ __forceinline__ void la_grid_sync(unsigned long long* bar, unsigned long long target) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long g;
    asm("cvta.to.global.u64 %0, %1;" : "=l"(g) : "l"(bar));
    asm volatile("red.release.gpu.global.add.u64 [%0], 1;" ::"l"(g) : "memory");
    unsigned long long seen;
    do {
      asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(seen) : "l"(g) : "memory");
    } while (seen < target);
  }
  __syncthreads();
}

// The engine's row plan (_row_plan in la_graph/engines/gpu), as semiring_rows and pr_rows read it:
// blocks binned by row length, tab[k] bin k's first block, tab[BINS + 1 + k] .. tab[BINS + 2 + k]
// its rows in `order` (null: the rows in order); bin 0 holds the long rows, cut into pieces of
// `piece` edges, a warp a piece (soff[k]: long row k's first piece), bin k > 0 a group of 64 >> k
// lanes a row.  No plan (tab null): every row, groups of gs lanes.  The calling thread's group's
// task: t (its index in the bin), the row, its edges [b, e) in ptr's arrays; gs and bin set from the
// plan.  False where the group has none (the same for the whole group).
template <int BINS, int BLOCK, typename IT>
__device__ __forceinline__ bool la_row_task(const IT* __restrict__ ptr, const IT* __restrict__ order,
                                            const long long* __restrict__ tab, const long long* __restrict__ soff,
                                            long long piece, long long nrows, int& gs, int& bin, long long& t,
                                            long long& row, long long& b, long long& e) {
  long long first = 0, r0 = 0, r1 = nrows;
  bin = -1;
  if (tab != nullptr) {
    bin = 0;
    while (bin < BINS - 1 && (long long)blockIdx.x >= tab[bin + 1]) ++bin;
    first = tab[bin];
    r0 = tab[BINS + 1 + bin];
    r1 = tab[BINS + 2 + bin];
    gs = bin == 0 ? 32 : (64 >> bin);
  }
  t = ((long long)blockIdx.x - first) * (BLOCK / gs) + (long long)(threadIdx.x / gs);
  row = b = e = 0;
  if (bin == 0) {
    const long long nlong = r1 - r0;                    // long row k has pieces soff[k] .. soff[k + 1] - 1
    if (t >= soff[nlong]) return false;
    long long lo = 0, hi = nlong - 1;                   // the last long row k with soff[k] <= t
    while (lo < hi) {
      const long long mid = (lo + hi + 1) >> 1;
      if (soff[mid] <= t) lo = mid; else hi = mid - 1;
    }
    row = (long long)order[r0 + lo];
    b = (long long)ptr[row] + (t - soff[lo]) * piece;
    const long long end = (long long)ptr[row + 1];
    e = b + piece < end ? b + piece : end;
    return true;
  }
  if (r0 + t >= r1) return false;
  row = order != nullptr ? (long long)order[r0 + t] : r0 + t;
  b = (long long)ptr[row];
  e = (long long)ptr[row + 1];
  return true;
}
