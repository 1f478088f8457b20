// libcu++ and the pipeline primitives as sm_80+ kernels use them: a block-scoped cuda::barrier initialised by
// one thread, cuda::memcpy_async into shared memory completing on the barrier or on a pipeline,
// cuda::aligned_size_t, the pipeline's producer/consumer calls, cuda::atomic and cuda::std traits.
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/type_traits>
#include <cuda/std/cstdint>
#include <cuda/std/utility>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

__global__ void stage(const float *in, float *out, int n) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
  bar.arrive_and_wait();
  cuda::barrier<cuda::thread_scope_block>::arrival_token t = bar.arrive();
  bar.wait(cuda::std::move(t));
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}

__global__ void pipelined(const float *in, float *out) {
  __shared__ float buf[2][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
  for (int s = 0; s < 2; ++s) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[s], in + s * 128, sizeof(float) * 128, pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  out[threadIdx.x] = buf[0][threadIdx.x];
  pipe.consumer_release();
  cuda::pipeline<cuda::thread_scope_thread> own = cuda::make_pipeline();
  cuda::memcpy_async(&buf[1][threadIdx.x], in + threadIdx.x, sizeof(float), own);
  own.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(own);
  __pipeline_memcpy_async(&buf[0][threadIdx.x], in + threadIdx.x, sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

__global__ void counters(int *hits, cuda::std::uint32_t n) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> local;
  if (threadIdx.x == 0) local.store(0, cuda::std::memory_order_relaxed);
  __syncthreads();
  local.fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(hits[0]);
  static_assert(cuda::std::is_same<cuda::std::uint32_t, unsigned int>::value, "u32");
  if (threadIdx.x == 0) ref.fetch_add(local.load() + (int)n);
  ref.load(::cuda::memory_order_relaxed);   // libcu++ names the orders in cuda:: too
}
