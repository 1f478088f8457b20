// Does an array-of-structs store of K words a thread cost the same in a kernel that also loads and computes as in a
// kernel that only stores?  Session 37's neighbour_cost (stores only) measured K = 6 at 2.99x the time of K coalesced
// arrays; census ab's judge timed gsplat's quat_scale_to_covar (two AoS loads, ~60 flops, 6 stores 24 bytes apart) at
// 1.02x the same kernel with its stores staged through shared memory.  Both forms, K = 6 and K = 9, median of 15 runs.
#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

template <int K, bool AOS>
__global__ void storeOnly(float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = i * 0.5f;
#pragma unroll
    for (int j = 0; j < K; j++) out[AOS ? (size_t)i * K + j : (size_t)j * n + i] = v + j;
}

// gsplat-like: a quaternion (float4) and a scale (3 floats) per item, a rotation matrix and R S S^T R^T
template <int K, bool AOS>
__global__ void loadComputeStore(const float4* __restrict__ quats, const float* __restrict__ scales,
                                 float* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 q = quats[i];
    float sx = scales[i * 3], sy = scales[i * 3 + 1], sz = scales[i * 3 + 2];
    float inv = rsqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    float w = q.x * inv, x = q.y * inv, y = q.z * inv, z = q.w * inv;
    float r[9] = {1.f - 2.f * (y * y + z * z), 2.f * (x * y - w * z), 2.f * (x * z + w * y),
                  2.f * (x * y + w * z), 1.f - 2.f * (x * x + z * z), 2.f * (y * z - w * x),
                  2.f * (x * z - w * y), 2.f * (y * z + w * x), 1.f - 2.f * (x * x + y * y)};
    float s2[3] = {sx * sx, sy * sy, sz * sz};
    float c[9];
#pragma unroll
    for (int a = 0; a < 3; a++)
#pragma unroll
        for (int b = 0; b < 3; b++)
            c[a * 3 + b] = r[a * 3] * s2[0] * r[b * 3] + r[a * 3 + 1] * s2[1] * r[b * 3 + 1] +
                           r[a * 3 + 2] * s2[2] * r[b * 3 + 2];
    const int pick[9] = {0, 1, 2, 4, 5, 8, 3, 6, 7};  // K = 6: the upper triangle
#pragma unroll
    for (int j = 0; j < K; j++) out[AOS ? (size_t)i * K + j : (size_t)j * n + i] = c[pick[j]];
}

template <class F>
float median_ms(F launch) {
    std::vector<float> t;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int r = 0; r < 16; r++) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (r) t.push_back(ms);  // the first run warms up
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main() {
    const int n = 1 << 22, B = 256, G = (n + B - 1) / B;
    float4* quats;
    float *scales, *out;
    CHECK(cudaMalloc(&quats, (size_t)n * sizeof(float4)));
    CHECK(cudaMalloc(&scales, (size_t)n * 3 * sizeof(float)));
    CHECK(cudaMalloc(&out, (size_t)n * 9 * sizeof(float)));
    CHECK(cudaMemset(quats, 0, (size_t)n * sizeof(float4)));
    CHECK(cudaMemset(scales, 0, (size_t)n * 3 * sizeof(float)));
    float s6a = median_ms([&] { storeOnly<6, true><<<G, B>>>(out, n); });
    float s6s = median_ms([&] { storeOnly<6, false><<<G, B>>>(out, n); });
    float s9a = median_ms([&] { storeOnly<9, true><<<G, B>>>(out, n); });
    float s9s = median_ms([&] { storeOnly<9, false><<<G, B>>>(out, n); });
    float c6a = median_ms([&] { loadComputeStore<6, true><<<G, B>>>(quats, scales, out, n); });
    float c6s = median_ms([&] { loadComputeStore<6, false><<<G, B>>>(quats, scales, out, n); });
    float c9a = median_ms([&] { loadComputeStore<9, true><<<G, B>>>(quats, scales, out, n); });
    float c9s = median_ms([&] { loadComputeStore<9, false><<<G, B>>>(quats, scales, out, n); });
    CHECK(cudaDeviceSynchronize());
    printf("n = %d items, blocks of %d, median of 15 runs (ms), AoS / SoA\n", n, B);
    printf("storeOnly        K=6 %.4f / %.4f = %.2fx   K=9 %.4f / %.4f = %.2fx\n", s6a, s6s, s6a / s6s, s9a, s9s,
           s9a / s9s);
    printf("loadComputeStore K=6 %.4f / %.4f = %.2fx   K=9 %.4f / %.4f = %.2fx\n", c6a, c6s, c6a / c6s, c9a, c9s,
           c9a / c9s);
    return 0;
}
