// A production-style file: includes that are not installed here (thrust, cub, a project header),
// templates over the element type, float4 loads, dynamic shared memory, a grid-stride loop, __ldg.
#include <cstdio>
#include <thrust/device_vector.h>
#include <cub/cub.cuh>
#include "common/check.h"

namespace ops {

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) blockSum(const T* __restrict__ in, T* __restrict__ out, size_t n)
{
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    T acc = T(0);
    for (size_t i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += (size_t)BLOCK * gridDim.x)
        acc += __ldg(&in[i]);
    smem[threadIdx.x] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = smem[0];
}

__global__ void copy4(const float4* __restrict__ src, float4* __restrict__ dst, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) dst[i] = src[i];
}

__global__ void gatherColumns(const float* __restrict__ m, float* __restrict__ col, int rows, int ld)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) col[r] = m[r * ld];
    CHECK_DEVICE(col);  // macro from the missing project header
}

}  // namespace ops

int main()
{
    const size_t n = 1 << 24;
    thrust::device_vector<float> v(n, 1.0f);
    float* d_out;
    cudaMalloc(&d_out, 1024 * sizeof(float));
    ops::blockSum<float, 256><<<1024, 256, 256 * sizeof(float)>>>(thrust::raw_pointer_cast(v.data()), d_out, n);
    ops::copy4<<<n / 4 / 256, 256>>>(nullptr, nullptr, n / 4);
    ops::gatherColumns<<<64, 128>>>(d_out, d_out, 1024, 1024);
    cudaDeviceSynchronize();
    return 0;
}
