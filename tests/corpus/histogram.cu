// Shared-memory histogram with atomics, cooperative groups, dynamic shared memory, streams and events.
#include <cooperative_groups.h>
#include <vector>
#include <cstdio>
namespace cg = cooperative_groups;

#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)
#define BINS 256

__global__ void histogram(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, size_t n) {
    extern __shared__ unsigned int local[];
    cg::thread_block block = cg::this_thread_block();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    block.sync();
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    block.sync();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__global__ void scaleColumns(float* m, const float* __restrict__ scale, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) m[c * rows + r] *= scale[c];   // column-major walk with row-fastest threads
}

int main() {
    const size_t n = 1 << 24;
    std::vector<unsigned char> host(n, 7);
    unsigned char* d_data; unsigned int* d_bins; float* d_m; float* d_s;
    CUDA_CHECK(cudaMalloc(&d_data, n));
    CUDA_CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_m, 1024 * 1024 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_s, 1024 * sizeof(float)));
    cudaStream_t s; cudaEvent_t start, stop;
    cudaStreamCreate(&s); cudaEventCreate(&start); cudaEventCreate(&stop);
    cudaEventRecord(start, s);
    CUDA_CHECK(cudaMemcpyAsync(d_data, host.data(), n, cudaMemcpyHostToDevice, s));
    histogram<<<240, 256, BINS * sizeof(unsigned int), s>>>(d_data, d_bins, n);
    dim3 block(32, 8), grid(1024 / 32, 1024 / 8);
    scaleColumns<<<grid, block, 0, s>>>(d_m, d_s, 1024, 1024);
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    return 0;
}
