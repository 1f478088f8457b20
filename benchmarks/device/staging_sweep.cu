// How large a share of a kernel a per-lane `__constant__` staging read is (CL401's small-share rule): a table
// staged into shared memory once per thread from constant memory (32 serialized requests a warp) or from a
// global copy (one coalesced request), then ROUNDS data-dependent shared reads per thread.
// Prints `rounds=R constant_ms=.. global_ms=.. ratio=..` (mean of 3 launches after a warm-up).
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

__constant__ unsigned c_T[256];

template <int ROUNDS>
__global__ void fromConstant(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
    __shared__ unsigned s_T[256];
    s_T[threadIdx.x] = c_T[threadIdx.x];
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    for (int r = 0; r < ROUNDS; ++r) x = (x >> 8) ^ s_T[(x ^ r) & 255];
    out[i] = x;
}

template <int ROUNDS>
__global__ void fromGlobal(const unsigned* __restrict__ T, const unsigned* __restrict__ in, unsigned* __restrict__ out) {
    __shared__ unsigned s_T[256];
    s_T[threadIdx.x] = T[threadIdx.x];
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = in[i];
    for (int r = 0; r < ROUNDS; ++r) x = (x >> 8) ^ s_T[(x ^ r) & 255];
    out[i] = x;
}

template <int ROUNDS>
void timePair(const unsigned* T, const unsigned* in, unsigned* out, int n, cudaEvent_t a, cudaEvent_t b) {
    const int threads = 256, blocks = n / threads;
    float c_ms = 0.0f, g_ms = 0.0f, ms = 0.0f;
    for (int rep = 0; rep < 4; ++rep) {
        CHECK(cudaEventRecord(a));
        fromConstant<ROUNDS><<<blocks, threads>>>(in, out);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0) c_ms += ms / 3;
        CHECK(cudaEventRecord(a));
        fromGlobal<ROUNDS><<<blocks, threads>>>(T, in, out);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0) g_ms += ms / 3;
    }
    printf("rounds=%d constant_ms=%.3f global_ms=%.3f ratio=%.3f\n", ROUNDS, c_ms, g_ms, c_ms / g_ms);
}

int main() {
    const int n = 1 << 24;
    unsigned h_T[256];
    for (int k = 0; k < 256; ++k) h_T[k] = 2654435761u * (unsigned)k;
    CHECK(cudaMemcpyToSymbol(c_T, h_T, sizeof(h_T)));
    unsigned *T, *in, *out;
    CHECK(cudaMalloc(&T, sizeof(h_T)));
    CHECK(cudaMemcpy(T, h_T, sizeof(h_T), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
    CHECK(cudaMemset(in, 1, n * sizeof(unsigned)));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    timePair<0>(T, in, out, n, a, b);
    timePair<4>(T, in, out, n, a, b);
    timePair<16>(T, in, out, n, a, b);
    timePair<64>(T, in, out, n, a, b);
    timePair<256>(T, in, out, n, a, b);
    timePair<1024>(T, in, out, n, a, b);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(T));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
