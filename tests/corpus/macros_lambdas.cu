// Kernels defined through macros, lambdas on the host, a kernel using a lambda, and an X-macro table.
#include <cstdio>
#include <algorithm>

#define DEFINE_AXPY(NAME, T)                                                        \
    __global__ void NAME(T a, const T* __restrict__ x, T* __restrict__ y, int n) {  \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                              \
        if (i < n) y[i] = a * x[i] + y[i];                                          \
    }

DEFINE_AXPY(saxpy, float)
DEFINE_AXPY(daxpy, double)

#define STRIDED_READ(ptr, i) ((ptr)[(i) * 16])

__global__ void stridedViaMacro(const float* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = STRIDED_READ(p, i);
}

__global__ void withLambda(float* out, int n) {
    auto square = [](float v) { return v * v; };
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = square(out[i]);
}

int main() {
    float *x, *y;
    cudaMalloc(&x, 1 << 24); cudaMalloc(&y, 1 << 24);
    auto launch = [&](int n) { saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n); };
    launch(1 << 20);
    stridedViaMacro<<<256, 256>>>(x, y);
    withLambda<<<256, 256>>>(y, 1 << 16);
    return 0;
}
