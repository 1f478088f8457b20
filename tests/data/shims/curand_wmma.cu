// cuRAND's device API (states, curand_init, uniform/normal draws) and the warp matrix functions (nvcuda::wmma).
#include <curand_kernel.h>
#include <mma.h>
using namespace nvcuda;

__global__ void draws(curandState *states, curandStatePhilox4_32_10_t *ph, float *out, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, i, 0, &states[i]);
  curandState local = states[i];
  float4 q = curand_uniform4(&ph[i]);
  out[i] = curand_uniform(&local) + curand_normal(&local) + (float)curand_normal_double(&local) + q.x;
  states[i] = local;
}

__global__ void tile(const half *a, const half *b, float *c, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, ld);
  wmma::load_matrix_sync(fb, b, ld);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int e = 0; e < acc.num_elements; e++) acc.x[e] *= 2.0f;
  wmma::store_matrix_sync(c, acc, ld, wmma::mem_row_major);
}
