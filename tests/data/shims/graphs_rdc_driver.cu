// Device code found in cuda-samples that the shims once missed: conditional graph nodes, dynamic parallelism
// (a launch in device code needs -fgpu-rdc and the device runtime's entry points), driver-API texture objects,
// CUDA's named integer min/max, and an old-style macro glued to a string literal.
#include <cuda.h>
#include <cuda_runtime.h>

#define FMT "d"

__global__ void child(int *out) { out[threadIdx.x] = umin(threadIdx.x, 7u) + umax(1u, 2u); }

__global__ void parent(int *out, cudaGraphConditionalHandle handle, CUtexObject tex, CUsurfObject surf) {
    child<<<1, 32>>>(out);
    cudaGraphSetConditional(handle, out[0] > 0);
    out[1] = (int)(llmin(1ll, 2ll) + llmax(3ll, 4ll) + ullmin(5ull, 6ull) + ullmax(7ull, 8ull) + tex + surf);
    printf("%"FMT"\n", out[0]);
}

int main() {
    cudaGraph_t graph;
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault);
    enum cudaGraphConditionalNodeType t = cudaGraphCondTypeWhile;
    (void)t;
    return 0;
}
