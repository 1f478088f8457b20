// sm_61 byte and halfword dot products (Packt's mixed_precision_int.cu includes the toolkit's
// sm_61_intrinsics.h by name), with the int and vector overloads.
#include <sm_61_intrinsics.h>

__global__ void dot_products(const int *a, const int *b, const char4 *c, const uchar4 *d, int *out,
                             unsigned int *uout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __dp4a(a[i], b[i], 0) + __dp4a(c[i], c[i], 1) + __dp2a_lo(a[i], b[i], 2) + __dp2a_hi(a[i], b[i], 3);
  uout[i] = __dp4a(d[i], d[i], 0u) + __dp4a((unsigned)a[i], (unsigned)b[i], 1u);
}
