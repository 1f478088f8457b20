// Warp intrinsics, atomics, read-only loads, bit tricks, math, timers,
// printf/assert in device code.
#include <cstdio>
#include <cassert>

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__device__ int warp_max(int v) {
  for (int m = 16; m > 0; m /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
  return __shfl_sync(0xffffffff, v, 0);
}

__global__ void intrinsics(const float *__restrict__ in, float *out, int *counts,
                           unsigned int *bits, unsigned long long *big, double *dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  float v = i < n ? __ldg(&in[i]) : 0.0f;
  float4 q = __ldg(reinterpret_cast<const float4 *>(in));
  int iv = __ldg(counts);
  v += q.x + __ldcg(in + 1) + __ldca(in + 2) + __ldcs(in + 3) + iv;
  __stcg(out + i, v);
  __stcs(out + i, v);
  unsigned mask = __ballot_sync(0xffffffff, v > 0.0f);
  if (__all_sync(mask, v > 0.0f) || __any_sync(__activemask(), v < 0.0f)) {
    atomicAdd(&counts[0], __popc(mask));
  }
  float up = __shfl_up_sync(0xffffffff, v, 1);
  double dv = __shfl_down_sync(0xffffffff, (double)v, 2);
  long long ll = __shfl_xor_sync(0xffffffff, (long long)i, 4);
  unsigned uv = __shfl_sync(0xffffffff, (unsigned)lane, 0, 16);
  atomicAdd(out, up);
  atomicAdd(dsum, dv);
  atomicAdd(big, 1ull);
  atomicSub(counts, 1);
  atomicExch(bits, 0u);
  atomicMin(counts + 1, lane);
  atomicMax(bits + 1, uv);
  atomicInc(bits + 2, 100u);
  atomicDec(bits + 3, 100u);
  atomicCAS(counts + 2, 0, 1);
  atomicCAS(big, 0ull, (unsigned long long)ll);
  atomicAnd(bits, 0xffu);
  atomicOr(bits, 1u);
  atomicXor(bits, 2u);
  atomicAdd_block(counts, 1);
  bits[4] = __brev(mask) ^ (unsigned)__clz(lane) ^ (unsigned)__ffs(lane);
  float s = warp_sum(v) + (float)warp_max(lane);
  s += sqrtf(fabsf(s)) + rsqrtf(2.0f) + expf(1.0f) + __expf(1.0f) + logf(2.0f) + __logf(2.0f);
  s += sinf(s) + cosf(s) + __sinf(s) + __cosf(s) + fmaf(s, 2.0f, 1.0f) + powf(s, 2.0f);
  s += fminf(s, 1.0f) + fmaxf(s, 0.0f) + floorf(s) + ceilf(s) + tanhf(s) + erff(s);
  s += min(1.5f, s) + max(0.5f, s) + (float)min(lane, 3) + (float)max(2u, uv);
  s += sqrt(s) + exp(s) + fabs(-s) + (float)sqrt(2.0) + (float)pow(2.0, 3.0) + (float)fmin(1.0, 2.0);
  s += (float)(1.0 / pow(2, lane)) + pow(s, 2) + (float)pow((double)s, 3) + (float)pow(10000, s);  // kaolin's `1.0f / pow(2, miplevel)`, FasterTransformer's `pow(10000, f)`
  double d = (double)s;
  d = ::max(d, 1.0) + ::min(d, 2.0) + floor(d) + erf(d);
  long long t0 = clock64();
  clock_t t1 = clock();
  __syncthreads();
  int c = __syncthreads_count(v > 0.0f) + __syncthreads_and(1) + __syncthreads_or(0);
  __syncwarp();
  __syncwarp(mask);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  if (isnan(s) || isinf(s)) printf("bad value at %d: %f\n", i, s);
  assert(n > 0);
  out[i] = s + (float)d + (float)(clock64() - t0) + (float)t1 + (float)c;
}
