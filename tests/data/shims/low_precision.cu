// The low-precision types of cuda_fp8.h and cuda_fp4.h and the bf16 comparison intrinsics (NVIDIA TransformerEngine's
// cast, amax and MoE kernels were CL000 without them); libcu++'s cuda::ceil_div.
#include <cuda_bf16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>
#include <cuda/cmath>

__global__ void lowPrecision(__nv_fp8_e4m3 *o, __nv_fp8_e5m2 *o2, const float *in, __nv_fp4x4_e2m1 *q,
                             __nv_fp4x2_storage_t *q2, __nv_bfloat16 *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cuda::ceil_div(n, 4) * 4) return;
  o[i] = static_cast<__nv_fp8_e4m3>(in[i]);
  o2[i] = __nv_fp8_e5m2(in[i]);
  float back = static_cast<float>(o[i]);
  q[i] = __nv_fp4x4_e2m1(make_float4(in[i], back, 0.f, 0.f));
  q2[i] = __nv_cvt_float2_to_fp4x2(make_float2(in[i], back), __NV_E2M1, cudaRoundNearest);
  b[i] = __hmax(__habs(b[i]), __hmin(b[i], b[i]));
  __nv_fp8x2_storage_t s = __nv_cvt_float2_to_fp8x2(make_float2(in[i], back), __NV_SATFINITE, __NV_E4M3);
  (void)s;
}
