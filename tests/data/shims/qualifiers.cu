// Every qualifier, built-in variables, launch bounds, shared/constant memory,
// templates over element types.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

#define TILE 32

__constant__ float c_coeffs[16];
__constant__ int c_n;
__device__ float d_scale = 2.0f;
__device__ __managed__ int m_counter;

struct __align__(16) Particle { float x, y, z, w; };
static_assert(sizeof(Particle) == 16 && alignof(Particle) == 16, "Particle");

__device__ __forceinline__ float sq(float v) { return v * v; }
__device__ __noinline__ float cube(float v) { return v * v * v; }
__host__ __device__ inline int clamp_idx(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

__global__ void __launch_bounds__(256) scale(float *__restrict__ out, const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sq(in[i]) * d_scale + c_coeffs[i % 16] + cube(1.0f);
}

__global__ void __launch_bounds__(128, 4) transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void dyn_shared(float *out, int n) {
  extern __shared__ float s[];
  unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  s[tid] = tid < (unsigned)n ? out[tid] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y] = s[0];
  int lane = threadIdx.x % warpSize;
  (void)lane;
  atomicAdd(&m_counter, 1);
}

__global__ void by_value(const __grid_constant__ Particle p, float *out) { out[threadIdx.x] = p.x + p.w; }

template <typename T, int BLOCK>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy<float, 256>(float, const float *, float *, int);
template __global__ void axpy<double, 128>(double, const double *, double *, int);

int main() {
  dim3 block(TILE, 8);
  dim3 grid((1024 + TILE - 1) / TILE, (512 + TILE - 1) / TILE);
  dim3 one;
  uint3 u = {1, 2, 3};
  dim3 fromu(u);
  float *a = nullptr, *b = nullptr;
  scale<<<4, 256>>>(a, b, 1024);
  transpose<<<grid, block>>>(a, b, 1024, 512);
  dyn_shared<<<grid, block, block.x * block.y * sizeof(float)>>>(a, 1024);
  axpy<float, 256><<<one, 256>>>(2.0f, a, b, 1024);
  by_value<<<fromu, 32>>>(Particle{1, 2, 3, 4}, a);
  return 0;
}
