// How many constant-cache requests a warp's per-lane read of 2-byte and 1-byte `__constant__` elements takes
// (CL401 counts distinct addresses): 32 lanes reading consecutive shorts cover 16 distinct 4-byte words, consecutive
// bytes 8. Read `idc__requests` per kernel (one LDC per kernel) against the warps launched.
#include <cstdio>

__constant__ short c_S[256];
__constant__ unsigned char c_B[256];
__constant__ int c_I[256];

__global__ void shorts(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = c_S[threadIdx.x]; }
__global__ void bytes(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = c_B[threadIdx.x]; }
__global__ void ints(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = c_I[threadIdx.x]; }
__global__ void pairs(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = c_I[threadIdx.x / 2]; }

int main() {
    int* out;
    cudaMalloc(&out, 1024 * 256 * sizeof(int));
    shorts<<<1024, 256>>>(out);
    bytes<<<1024, 256>>>(out);
    ints<<<1024, 256>>>(out);
    pairs<<<1024, 256>>>(out);
    cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(out);
    return 0;
}
