// Hand-written CUDA twins of the benchmark kernels of bench/kernels/.
//
// Each twin runs the protocol its tspipe kernel lowers to, written with
// inline PTX mbarrier operations: the same barriers (full and empty, one of
// each per stage), arrival counts, phase rules (a producer waits on the empty
// barrier with the inverted phase, so its first pass is free), the same
// copies, and the producer's drain at exit. Built on the GPU machine:
//
//     nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -O3 \
//         -o twins.cubin bench/twins.cu
//
// and launched by bench/gpu_bench.py next to the tspipe cubins. Kernel names
// are those of the tspipe kernels with a `twin_` prefix; parameters and
// launch shapes are the same.
#include <cstdint>

namespace {

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}

__device__ __forceinline__ void mbarInitFence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Blocks until the phase with parity `parity` of `bar` has completed.
__device__ __forceinline__ void mbarWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t.reg .pred P1;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared.b64 P1, [%0], %1, 10000000;\n\t"
               "@P1 bra.uni DONE;\n\t"
               "bra.uni WAIT;\n"
               "DONE:\n\t}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

__device__ __forceinline__ void mbarArrive(uint32_t bar) {
  asm volatile("{\n\t.reg .b64 st;\n\t"
               "mbarrier.arrive.shared.b64 st, [%0];\n\t}" ::"r"(bar)
               : "memory");
}

__device__ __forceinline__ void mbarArriveExpectTx(uint32_t bar,
                                                   uint32_t bytes) {
  asm volatile("{\n\t.reg .b64 st;\n\t"
               "mbarrier.arrive.expect_tx.shared.b64 st, [%0], %1;\n\t}" ::"r"(
                   bar),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void bulkCopy(uint32_t dst, const void *src,
                                         uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

__device__ __forceinline__ void cpAsync16(uint32_t dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(src)
               : "memory");
}

__device__ __forceinline__ void cpAsyncArrive(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(bar)
               : "memory");
}

// Arrive (release, cluster scope) on the barrier at the same shared offset
// in the cluster CTA of rank `rank` (mapa + shared::cluster arrive).
__device__ __forceinline__ void mbarArriveCluster(uint32_t bar, uint32_t rank) {
  asm volatile("{\n\t.reg .b32 remote;\n\t"
               "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
               "mbarrier.arrive.release.cluster.shared::cluster.b64 _, "
               "[remote];\n\t}" ::"r"(bar),
               "r"(rank)
               : "memory");
}

__device__ __forceinline__ void bulkCopyMulticast(uint32_t dst, const void *src,
                                                  uint32_t bytes, uint32_t bar,
                                                  uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar), "h"(mask)
               : "memory");
}

__device__ __forceinline__ uint32_t clusterRank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void clusterSync() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\t"
               "barrier.cluster.wait.aligned;" ::: "memory");
}

__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The warp index, broadcast from lane 0 so that the compiler knows it is
// warp-uniform (as CUTLASS's canonical_warp_idx_sync, and tspipe's task
// dispatch, do): branches on it need no reconvergence.
__device__ __forceinline__ int warpIndex() {
  return __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x / 32), 0);
}

// Ring cursor: stage index and phase parity.
struct Cursor {
  int stage;
  uint32_t phase;
  __device__ __forceinline__ void advance(int stages) {
    if (++stage == stages) {
      stage = 0;
      phase ^= 1u;
    }
  }
};

// Barrier block: full[0..S) at base, empty[0..S) at base + 8 S.
template <int S> struct Ring {
  uint32_t base;
  __device__ uint32_t full(int s) const { return base + 8u * s; }
  __device__ uint32_t empty(int s) const { return base + 8u * (S + s); }
  __device__ void init(uint32_t fullCount, uint32_t emptyCount) const {
    for (int s = 0; s < S; ++s) {
      mbarInit(full(s), fullCount);
      mbarInit(empty(s), emptyCount);
    }
  }
  // The producer's exit: wait until every stage it filled was released.
  __device__ void drain(Cursor c) const {
    for (int k = 0; k < S; ++k) {
      mbarWait(empty(c.stage), c.phase);
      c.advance(S);
    }
  }
};

extern __shared__ __align__(128) unsigned char smem[];

// Two one-warp tasks bounce a token through ping (a -> b) and pong (b -> a);
// every thread of a warp arrives (32 arrivals per barrier).
template <int S> __device__ void pingpong(long long iters) {
  Ring<S> ping{smemAddr(smem)};
  Ring<S> pong{smemAddr(smem) + 16u * S};
  const int warp = warpIndex();
  if (threadIdx.x == 0) {
    ping.init(32, 32);
    pong.init(32, 32);
    mbarInitFence();
  }
  __syncthreads();
  // By value: a reference to one of two local rings would put both in
  // local memory, reloaded after every barrier operation.
  const Ring<S> out{warp == 0 ? ping.base : pong.base};
  const Ring<S> in{warp == 0 ? pong.base : ping.base};
  Cursor p{0, 1u}, c{0, 0u};
  if (warp == 0) {
    for (long long i = 0; i < iters; ++i) {
      mbarWait(out.empty(p.stage), p.phase);
      mbarArrive(out.full(p.stage));
      p.advance(S);
      mbarWait(in.full(c.stage), c.phase);
      mbarArrive(in.empty(c.stage));
      c.advance(S);
    }
  } else {
    for (long long i = 0; i < iters; ++i) {
      mbarWait(in.full(c.stage), c.phase);
      mbarArrive(in.empty(c.stage));
      c.advance(S);
      mbarWait(out.empty(p.stage), p.phase);
      mbarArrive(out.full(p.stage));
      p.advance(S);
    }
  }
  out.drain(p);
}

// TmaAsync streaming: warp 0 bulk-copies tiles of B bytes into an S-stage
// ring (elected arrive.expect_tx, then the copy completing the transaction
// bytes); warps 1..4 compute y = a * x + b and release (fence.proxy.async,
// warp sync, lane 0 arrives: 4 arrivals).
template <int S, int B>
__device__ void tmaStream(const float *x, float *y, float a, float b,
                          long long tilesPerCta) {
  constexpr int kElems = B / 4;
  Ring<S> ring{smemAddr(smem)};
  const uint32_t buf = smemAddr(smem) + 128u;
  const int warp = warpIndex(), lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    ring.init(1, 4);
    mbarInitFence();
  }
  __syncthreads();
  const long long first = blockIdx.x * tilesPerCta;
  if (warp == 0) {
    Cursor p{0, 1u};
    for (long long i = 0; i < tilesPerCta; ++i) {
      mbarWait(ring.empty(p.stage), p.phase);
      if (lane == 0) {
        mbarArriveExpectTx(ring.full(p.stage), B);
        bulkCopy(buf + p.stage * B, x + (first + i) * kElems, B,
                 ring.full(p.stage));
      }
      p.advance(S);
    }
    ring.drain(p);
  } else {
    const int t = threadIdx.x - 32;
    Cursor c{0, 0u};
    for (long long i = 0; i < tilesPerCta; ++i) {
      mbarWait(ring.full(c.stage), c.phase);
      const float4 *src =
          reinterpret_cast<const float4 *>(smem + 128 + c.stage * B);
      float4 *dst = reinterpret_cast<float4 *>(y + (first + i) * kElems);
      for (int v = t; v < kElems / 4; v += 128) {
        float4 q = src[v];
        dst[v] = make_float4(a * q.x + b, a * q.y + b, a * q.z + b,
                             a * q.w + b);
      }
      fenceProxyAsync();
      __syncwarp();
      if (lane == 0)
        mbarArrive(ring.empty(c.stage));
      c.advance(S);
    }
  }
}

// AsyncAsync with a cp.async producer: warps 0-1 copy tiles of B bytes in
// 16-byte cp.async chunks and each thread arrives with
// cp.async.mbarrier.arrive.noinc (64 arrivals); warps 2-3 compute
// y = x * x + 1 and every thread arrives on the empty barrier (64).
template <int S, int B>
__device__ void asyncLoad(const float *x, float *y, long long tilesPerCta) {
  constexpr int kElems = B / 4, kChunks = B / 16;
  Ring<S> ring{smemAddr(smem)};
  const uint32_t buf = smemAddr(smem) + 128u;
  const int warp = warpIndex();
  if (threadIdx.x == 0) {
    ring.init(64, 64);
    mbarInitFence();
  }
  __syncthreads();
  const long long first = blockIdx.x * tilesPerCta;
  if (warp < 2) {
    Cursor p{0, 1u};
    for (long long i = 0; i < tilesPerCta; ++i) {
      mbarWait(ring.empty(p.stage), p.phase);
      const float *src = x + (first + i) * kElems;
      for (int ch = threadIdx.x; ch < kChunks; ch += 64)
        cpAsync16(buf + p.stage * B + 16u * ch, src + 4 * ch);
      cpAsyncArrive(ring.full(p.stage));
      p.advance(S);
    }
    ring.drain(p);
  } else {
    const int t = threadIdx.x - 64;
    Cursor c{0, 0u};
    for (long long i = 0; i < tilesPerCta; ++i) {
      mbarWait(ring.full(c.stage), c.phase);
      const float4 *src =
          reinterpret_cast<const float4 *>(smem + 128 + c.stage * B);
      float4 *dst = reinterpret_cast<float4 *>(y + (first + i) * kElems);
      for (int ch = t; ch < kChunks; ch += 64) {
        float4 q = src[ch];
        dst[ch] = make_float4(q.x * q.x + 1.f, q.y * q.y + 1.f,
                              q.z * q.z + 1.f, q.w * q.w + 1.f);
      }
      mbarArrive(ring.empty(c.stage));
      c.advance(S);
    }
  }
}

// TmaAsync multicast streaming (examples/tma_mcast_*.mlir): clusters of
// M x N CTAs, rank r = m + M n; 4 stages; at step g = cluster * tiles + i a
// stage of CTA (m, n) holds the A part (2048 f32 of A[g, m], each of the N
// CTAs of row m copying slice n and multicasting it to the row) and / or the
// B part (B[g, n], slice m from each CTA of column n, multicast to the
// column). Consumers write y[g, m, n, :] = alpha * A + B (both), alpha * A +
// beta or alpha * B + beta, and release on every CTA of the multicast set
// (lane l < M N arrives on CTA l's empty barrier when CTA l shares the row
// (A) or the column (B); consumer_group = 4 x the set's size).
template <int M, int N, bool UseA, bool UseB>
__device__ void tmaMcast(const float *a, const float *b, float *y, float alpha,
                         float beta, long long tiles) {
  constexpr int S = 4, kPart = 2048, T = M * N;
  constexpr int kParts = (UseA ? 1 : 0) + (UseB ? 1 : 0);
  constexpr int kStage = kParts * kPart * 4;
  constexpr int kSet = (UseA && UseB) ? M + N - 1 : (UseA ? N : M);
  Ring<S> ring{smemAddr(smem)};
  const uint32_t buf = smemAddr(smem) + 128u;
  const int warp = warpIndex(), lane = threadIdx.x % 32;
  const int rank = static_cast<int>(clusterRank());
  const int m = rank % M, n = rank / M;
  if (threadIdx.x == 0) {
    ring.init(1, 4 * kSet);
    mbarInitFence();
  }
  clusterSync();
  const long long first = (blockIdx.x / T) * tiles;
  if (warp == 0) {
    Cursor p{0, 1u};
    for (long long i = 0; i < tiles; ++i) {
      mbarWait(ring.empty(p.stage), p.phase);
      if (lane == 0) {
        const long long g = first + i;
        const uint32_t stage = buf + p.stage * kStage;
        mbarArriveExpectTx(ring.full(p.stage), kStage);
        if (UseA) {
          uint16_t mask = 0;
          for (int k = 0; k < N; ++k)
            mask |= uint16_t(1u << (m + M * k));
          const int slice = kPart / N;
          bulkCopyMulticast(stage + 4u * slice * n,
                            a + (g * M + m) * kPart + slice * n, 4 * slice,
                            ring.full(p.stage), mask);
        }
        if (UseB) {
          const uint16_t mask = uint16_t(((1u << M) - 1u) << (M * n));
          const int slice = kPart / M;
          const uint32_t part = UseA ? 4u * kPart : 0u;
          bulkCopyMulticast(stage + part + 4u * slice * m,
                            b + (g * N + n) * kPart + slice * m, 4 * slice,
                            ring.full(p.stage), mask);
        }
      }
      p.advance(S);
    }
    ring.drain(p);
  } else {
    const int t = threadIdx.x - 32;
    Cursor c{0, 0u};
    for (long long i = 0; i < tiles; ++i) {
      mbarWait(ring.full(c.stage), c.phase);
      const long long g = first + i;
      const float4 *src =
          reinterpret_cast<const float4 *>(smem + 128 + c.stage * kStage);
      float4 *dst =
          reinterpret_cast<float4 *>(y + ((g * M + m) * N + n) * kPart);
      for (int v = t; v < kPart / 4; v += 128) {
        const float4 p4 = src[v];
        float4 q4 = make_float4(beta, beta, beta, beta);
        if (UseA && UseB)
          q4 = src[v + kPart / 4];
        dst[v] = make_float4(alpha * p4.x + q4.x, alpha * p4.y + q4.y,
                             alpha * p4.z + q4.z, alpha * p4.w + q4.w);
      }
      fenceProxyAsync();
      __syncwarp();
      if (lane < T) {
        const int ml = lane % M, nl = lane / M;
        if ((UseA && ml == m) || (UseB && nl == n))
          mbarArriveCluster(ring.empty(c.stage), lane);
      }
      c.advance(S);
    }
  }
}

} // namespace

#define MCAST(NAME, M, N, A, B)                                                \
  extern "C" __global__ void __launch_bounds__(160)                            \
      twin_##NAME(const float *a, const float *b, float *y, float alpha,       \
                  float beta, long long tiles) {                               \
    tmaMcast<M, N, A, B>(a, b, y, alpha, beta, tiles);                         \
  }
MCAST(tma_mcast_2cta_m, 2, 1, false, true)
MCAST(tma_mcast_2cta_n, 1, 2, true, false)
MCAST(tma_mcast_4cta_n, 1, 4, true, false)
MCAST(tma_mcast_4cta_mn, 2, 2, true, true)

#define PINGPONG(S)                                                            \
  extern "C" __global__ void __launch_bounds__(64)                             \
      twin_pingpong_s##S(long long iters) {                                    \
    pingpong<S>(iters);                                                        \
  }
PINGPONG(1)
PINGPONG(2)
PINGPONG(4)

// One 64-byte stage: elected arrive.expect_tx + bulk copy, consumer lane 0
// releases after fence.proxy.async and a warp sync (as TmaAsync's release).
extern "C" __global__ void __launch_bounds__(64)
    twin_tma_elect_s1(const float *x, long long iters) {
  Ring<1> ring{smemAddr(smem)};
  const uint32_t buf = smemAddr(smem) + 128u;
  const int warp = warpIndex(), lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    ring.init(1, 1);
    mbarInitFence();
  }
  __syncthreads();
  if (warp == 0) {
    Cursor p{0, 1u};
    for (long long i = 0; i < iters; ++i) {
      mbarWait(ring.empty(0), p.phase);
      if (lane == 0) {
        mbarArriveExpectTx(ring.full(0), 64);
        bulkCopy(buf, x, 64, ring.full(0));
      }
      p.advance(1);
    }
    ring.drain(p);
  } else {
    Cursor c{0, 0u};
    for (long long i = 0; i < iters; ++i) {
      mbarWait(ring.full(0), c.phase);
      fenceProxyAsync();
      __syncwarp();
      if (lane == 0)
        mbarArrive(ring.empty(0));
      c.advance(1);
    }
  }
}

// tma_elect_s1 across a 2-CTA cluster: each CTA multicasts its 32-byte
// half to both CTAs; consumer lanes 0 and 1 arrive on CTA 0's and CTA 1's
// empty barrier (2 arrivals; one local, one a peer's remote arrive).
extern "C" __global__ void __launch_bounds__(64)
    twin_tma_mcast_elect_c2(const float *x, long long iters) {
  Ring<1> ring{smemAddr(smem)};
  const uint32_t buf = smemAddr(smem) + 128u;
  const int warp = warpIndex(), lane = threadIdx.x % 32;
  const uint32_t rank = clusterRank();
  if (threadIdx.x == 0) {
    ring.init(1, 2);
    mbarInitFence();
  }
  clusterSync();
  if (warp == 0) {
    Cursor p{0, 1u};
    for (long long i = 0; i < iters; ++i) {
      mbarWait(ring.empty(0), p.phase);
      if (lane == 0) {
        mbarArriveExpectTx(ring.full(0), 64);
        bulkCopyMulticast(buf + 32u * rank, x + 8 * rank, 32, ring.full(0),
                          3);
      }
      p.advance(1);
    }
    ring.drain(p);
  } else {
    Cursor c{0, 0u};
    for (long long i = 0; i < iters; ++i) {
      mbarWait(ring.full(0), c.phase);
      fenceProxyAsync();
      __syncwarp();
      if (lane < 2)
        mbarArriveCluster(ring.empty(0), lane);
      c.advance(1);
    }
  }
}

#define STREAM(S, K)                                                           \
  extern "C" __global__ void __launch_bounds__(160)                            \
      twin_tma_stream_s##S##_t##K(const float *x, float *y, float a, float b,  \
                                  long long tilesPerCta) {                     \
    tmaStream<S, K * 1024>(x, y, a, b, tilesPerCta);                           \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(128)                            \
      twin_async_load_s##S##_t##K(const float *x, float *y,                    \
                                  long long tilesPerCta) {                     \
    asyncLoad<S, K * 1024>(x, y, tilesPerCta);                                 \
  }
STREAM(2, 4)
STREAM(2, 8)
STREAM(2, 16)
STREAM(4, 4)
STREAM(4, 8)
STREAM(4, 16)
STREAM(8, 4)
STREAM(8, 8)
STREAM(8, 16)
