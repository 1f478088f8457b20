// What a thread's K neighbouring 4-byte accesses cost when they cover its element whole (array of structs moved
// field by field: `out[i * K + k]` for k < K, straight-line or in an unrolled loop: the same SASS, K STG.E/LDG.E),
// against the same bytes as K coalesced arrays (structure of arrays) and, for K = 4, one 16-byte vector access.
// Each request of the AoS form touches min(32, 4K) sectors against 4; the thread's other accesses fill them, so
// DRAM moves the same bytes (L2 merges partial stores; the later loads hit L1). The question: does the time
// follow the sectors per request (warning) or the DRAM bytes (info)? n = 2^24 threads, so the data is well past
// L2 (50 MiB on H100, 60 MiB on H200). Prints `K form op ms ratio` lines; median of 15 runs after 3 warm-ups.
#include <algorithm>
#include <cstdio>
#include <vector>

template <int K>
__global__ void aosStore(float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = i * 0.5f;
#pragma unroll
    for (int k = 0; k < K; ++k) out[i * K + k] = v + k;
}

template <int K>
__global__ void soaStore(float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = i * 0.5f;
#pragma unroll
    for (int k = 0; k < K; ++k) out[k * n + i] = v + k;
}

template <int K>
__global__ void aosLoad(const float* __restrict__ in, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) s += in[i * K + k];
    out[i] = s;
}

template <int K>
__global__ void soaLoad(const float* __restrict__ in, float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) s += in[k * n + i];
    out[i] = s;
}

__global__ void vectorStore4(float4* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = i * 0.5f;
    out[i] = make_float4(v, v + 1, v + 2, v + 3);
}

template <typename F>
static float time_ms(F launch) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> t;
    for (int r = 0; r < 18; ++r) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (r >= 3) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <int K>
static void run(float* in, float* out, int n) {
    const int threads = 256, blocks = (n + threads - 1) / threads;
    float as = time_ms([&] { aosStore<K><<<blocks, threads>>>(out, n); });
    float ss = time_ms([&] { soaStore<K><<<blocks, threads>>>(out, n); });
    float al = time_ms([&] { aosLoad<K><<<blocks, threads>>>(in, out, n); });
    float sl = time_ms([&] { soaLoad<K><<<blocks, threads>>>(in, out, n); });
    printf("K=%d store aos_ms=%.4f soa_ms=%.4f ratio=%.2f\n", K, as, ss, as / ss);
    printf("K=%d load  aos_ms=%.4f soa_ms=%.4f ratio=%.2f\n", K, al, sl, al / sl);
    if (K == 4) {
        float vs = time_ms([&] { vectorStore4<<<blocks, threads>>>((float4*)out, n); });
        printf("K=4 store vector_ms=%.4f aos/vector=%.2f\n", vs, as / vs);
    }
}

int main() {
    const int n = 1 << 24;
    float *in = nullptr, *out = nullptr;
    cudaMalloc(&in, 16ull * n * sizeof(float));
    cudaMalloc(&out, 16ull * n * sizeof(float));
    cudaMemset(in, 0, 16ull * n * sizeof(float));
    run<2>(in, out, n);
    run<3>(in, out, n);
    run<4>(in, out, n);
    run<6>(in, out, n);
    run<8>(in, out, n);
    run<16>(in, out, n);
    printf("neighbour_cost: %s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
