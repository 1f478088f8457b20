// Standard headers included together with CUDA math, on host and device.
#include <cmath>
#include <iostream>
#include <algorithm>
#include <numeric>
#include <memory>
#include <vector>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cassert>
#include <cuda_runtime.h>
#include <math_constants.h>

template <typename T>
__device__ T softplus(T x) { return log1p(exp(x)); }

__global__ void math_kernel(const float *in, float *out, double *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float y = sqrtf(x) + std::sqrt(x) + std::exp(x) + std::fabs(x) + std::max(x, 0.0f) + std::min(x, 1.0f);
  y += sinf(x * CUDART_PI_F) + cosf(x) + atan2f(x, 1.0f) + log2f(x) + exp2f(x) + std::abs(x);
  y += softplus(x) + (float)softplus((double)x) + fmodf(x, 2.0f) + truncf(x) + roundf(x);
  double d = std::sqrt((double)x) + std::pow((double)x, 2.0) + std::floor((double)x) + CUDART_PI;
  assert(i < n);
  out[i] = y;
  dout[i] = d;
}

int main() {
  std::vector<float> h(1024);
  std::iota(h.begin(), h.end(), 0.0f);
  float total = std::accumulate(h.begin(), h.end(), 0.0f);
  float m = *std::max_element(h.begin(), h.end());
  std::sort(h.begin(), h.end());
  std::unique_ptr<float[]> buf(new float[16]);
  auto sp = std::make_unique<int>(3);
  std::array<double, 4> a = {1.0, 2.0, 3.0, 4.0};
  double r = std::sqrt(a[0]) + std::pow(a[1], 2.0) + std::fabs(-a[2]) + std::max(a[3], 1.0) + sqrt(4.0);
  std::cout << "total=" << total << " max=" << m << " r=" << r << " " << *sp << std::endl;
  std::cerr << buf.get() << "\n";
  float *d_in = nullptr, *d_out = nullptr;
  double *d_d = nullptr;
  cudaMalloc(&d_in, h.size() * sizeof(float));
  cudaMalloc(&d_out, h.size() * sizeof(float));
  cudaMalloc(&d_d, h.size() * sizeof(double));
  math_kernel<<<(int)(h.size() + 255) / 256, 256>>>(d_in, d_out, d_d, (int)h.size());
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return EXIT_SUCCESS;
}
