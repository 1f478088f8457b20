// Per-thread 64-byte state (16 words) mixed for ROUNDS rounds, then stored whole: as an array of structs
// (`out[i * 16 + k]`, each store instruction 32 lanes 64 bytes apart) or as a structure of arrays
// (`out[k * n + i]`, coalesced), as hash kernels store their results. Prints `rounds=R aos_ms=.. soa_ms=..`.
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

template <int ROUNDS>
__device__ __forceinline__ void mix(unsigned (&s)[16]) {
#pragma unroll 1
    for (int r = 0; r < ROUNDS; ++r) {
#pragma unroll
        for (int k = 0; k < 16; ++k) {
            s[k] += s[(k + 1) & 15] ^ (s[(k + 7) & 15] >> 3);
            s[k] = (s[k] << 7) | (s[k] >> 25);
        }
    }
}

template <int ROUNDS>
__global__ void storeAoS(const unsigned* __restrict__ in, unsigned* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) s[k] = in[k * n + i];
    mix<ROUNDS>(s);
#pragma unroll
    for (int k = 0; k < 16; ++k) out[i * 16 + k] = s[k];
}

template <int ROUNDS>
__global__ void storeSoA(const unsigned* __restrict__ in, unsigned* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s[16];
#pragma unroll
    for (int k = 0; k < 16; ++k) s[k] = in[k * n + i];
    mix<ROUNDS>(s);
#pragma unroll
    for (int k = 0; k < 16; ++k) out[k * n + i] = s[k];
}

template <int ROUNDS>
void timePair(const unsigned* in, unsigned* out, int n, cudaEvent_t a, cudaEvent_t b) {
    const int threads = 256, blocks = n / threads;
    float aos_ms = 0.0f, soa_ms = 0.0f, ms = 0.0f;
    for (int rep = 0; rep < 4; ++rep) {
        CHECK(cudaEventRecord(a));
        storeAoS<ROUNDS><<<blocks, threads>>>(in, out, n);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0) aos_ms += ms / 3;
        CHECK(cudaEventRecord(a));
        storeSoA<ROUNDS><<<blocks, threads>>>(in, out, n);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0) soa_ms += ms / 3;
    }
    printf("rounds=%d aos_ms=%.3f soa_ms=%.3f ratio=%.3f\n", ROUNDS, aos_ms, soa_ms, aos_ms / soa_ms);
}

int main() {
    const int n = 1 << 22;
    unsigned *in, *out;
    CHECK(cudaMalloc(&in, 16 * (size_t)n * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, 16 * (size_t)n * sizeof(unsigned)));
    CHECK(cudaMemset(in, 1, 16 * (size_t)n * sizeof(unsigned)));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    timePair<0>(in, out, n, a, b);
    timePair<1>(in, out, n, a, b);
    timePair<8>(in, out, n, a, b);
    timePair<32>(in, out, n, a, b);
    timePair<128>(in, out, n, a, b);
    timePair<512>(in, out, n, a, b);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
