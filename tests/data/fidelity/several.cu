// The program behind tests/data/fidelity/several.*.csv (ncu source pages, H100): a kernel launched several
// times, a helper inlined from a header, two accesses of different cost on one line, a shared-memory conflict,
// a template instantiated twice. Built with `nvcc -O3 -lineinfo -arch=sm_90`.
#include <cstdio>
#include "fidelity_helper.cuh"

__global__ void scaled(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

__global__ void twoOnALine(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + in[16 * i];
}

__global__ void viaHeader(const float *in, float *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = columnRead(in + blockIdx.x * 32 * 32, 3, 32);
}

__global__ void tileColumn(const float *in, float *out) {
    __shared__ float tile[32][32];
    for (int r = 0; r < 32; ++r) tile[r][threadIdx.x] = in[blockIdx.x * 1024 + r * 32 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = tile[threadIdx.x][5];
}

template <int STRIDE>
__global__ void strided(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * STRIDE];
}

int main() {
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, 16 * n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, 16 * n * sizeof(float));
    for (int k = 1; k <= 3; ++k) scaled<<<(n / k + 255) / 256, 256>>>(in, out, n / k);
    twoOnALine<<<n / 256, 256>>>(in, out);
    viaHeader<<<n / 1024, 32>>>(in, out);
    tileColumn<<<n / 1024, 32>>>(in, out);
    strided<1><<<n / 256, 256>>>(in, out);
    strided<8><<<n / 256, 256>>>(in, out);
    float h = -1;
    cudaMemcpy(&h, out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("several: out[0] = %g (want 0)\n", h);
    return cudaDeviceSynchronize() != cudaSuccess;
}
