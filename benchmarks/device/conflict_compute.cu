// When a shared-memory bank conflict hides behind arithmetic (a CL201 analogue of CL101's compute_bound): each thread
// reads a shared table in 64 rounds at `lane * STRIDE + r` words (STRIDE 2: 2-way, 32: 32-way, 1: conflict-free), with
// OPS integer operations on each value. Prints
// `ways=W ops=M conflict_ms=.. free_ms=.. ratio=..` (mean of 3 launches after a warm-up).
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));      \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

template <int STRIDE, int OPS>
__global__ void rounds(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
    __shared__ unsigned s[32 * 32];
    for (int k = threadIdx.x; k < 32 * 32; k += blockDim.x) s[k] = in[k];
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    unsigned x = in[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll 1
    for (int r = 0; r < 64; ++r) {
        unsigned v = s[(lane * STRIDE + r) & 1023] ^ x;
#pragma unroll
        for (int m = 0; m < OPS; ++m) v = (v ^ (v >> 3)) + 0x9e3779b9u * (m + 1);
        x += v;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

template <int WAYS, int OPS>
void timePair(const unsigned* in, unsigned* out, cudaEvent_t a, cudaEvent_t b) {
    const int threads = 256, blocks = 132 * 64;
    float c_ms = 0, f_ms = 0, ms = 0;
    for (int rep = 0; rep < 4; ++rep) {
        CHECK(cudaEventRecord(a));
        rounds<WAYS, OPS><<<blocks, threads>>>(in, out);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep) c_ms += ms / 3;
        CHECK(cudaEventRecord(a));
        rounds<1, OPS><<<blocks, threads>>>(in, out);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep) f_ms += ms / 3;
    }
    printf("ways=%d ops=%d conflict_ms=%.3f free_ms=%.3f ratio=%.3f\n", WAYS, OPS, c_ms, f_ms, c_ms / f_ms);
}

int main() {
    unsigned *in, *out;
    const int n = 132 * 64 * 256;
    CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
    CHECK(cudaMemset(in, 1, n * sizeof(unsigned)));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    timePair<2, 0>(in, out, a, b);
    timePair<2, 4>(in, out, a, b);
    timePair<2, 16>(in, out, a, b);
    timePair<2, 64>(in, out, a, b);
    timePair<32, 0>(in, out, a, b);
    timePair<32, 16>(in, out, a, b);
    timePair<32, 64>(in, out, a, b);
    timePair<32, 256>(in, out, a, b);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
