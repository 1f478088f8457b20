// cudalint-test: platform-only
// Headers that have no fallback (only checked with the platform's headers).
#include <chrono>
#include <string>
#include <map>
#include <functional>
#include <cmath>
#include <cuda_runtime.h>

__global__ void k(float *p) { p[threadIdx.x] = std::sqrt(p[threadIdx.x]); }

int main() {
  auto t0 = std::chrono::high_resolution_clock::now();
  k<<<1, 32>>>(nullptr);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  std::map<std::string, double> timings;
  timings["k"] = ms;
  std::function<void()> f = [] {};
  f();
  return 0;
}
