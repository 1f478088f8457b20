// cudalint-test: unresolved-include
// Project and third-party headers that are not available must not hide the
// rest of the file.
#include <thrust/device_vector.h>
#include "myproject/util.h"
#include <cuda_runtime.h>

__global__ void kernel_after_missing_include(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

int main() {
  float *d = nullptr;
  cudaMalloc(&d, 16 * sizeof(float));
  kernel_after_missing_include<<<1, 16>>>(d, 16);
  cudaFree(d);
  return 0;
}
