// cuFFT and cuBLAS value and handle types beside the kernels that pre- and post-process their data, the bf16/half
// cache-hint loads and stores and raw conversions (llm.c's kernels), `assert` without an include (nvcc's implicit
// cuda_runtime.h brings it), and the C++17-invalid `register` nvcc accepts.
#include <cufft.h>
#include <cufftXt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>

__global__ void scale(cufftComplex *data, const cufftReal *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (i < n) data[i] = cuCmulf(data[i], make_cuComplex(w[i], 0.0f));
}

__global__ void stream(const __nv_bfloat16 *in, __nv_bfloat16 *out, const __half *h, __half *ho) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_bfloat16 v = __ldcs(in + i);
  __nv_bfloat162 p = __halves2bfloat162(v, __ushort_as_bfloat16(0));
  __stcs(out + i, __low2bfloat16(p));
  __nv_bfloat16_raw r = v;
  __stcg(ho + i, __ldlu(h + i));
  out[i + 1] = __nv_bfloat16(r);
  // mmdeploy's deformable attention: the rounding-mode integer conversions
  ho[i + 2] = __hadd(__int2half_rz(i), __int2half_rd(-i));
  ho[i + 3] = __hadd(__ll2half_ru((long long)i), __float2half_rz(0.5f));
  out[i + 2] = __nv_bfloat16((float)__half2int_rd(h[i]) + (float)__half2ushort_rn(h[i]));
}

void run(cufftComplex *d, cufftReal *w, float *A, cudaStream_t s) {
  cufftHandle plan;
  cufftPlan1d(&plan, 1024, CUFFT_C2C, 1);
  cufftSetStream(plan, s);
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  scale<<<4, 256, 0, s>>>(d, w, 1024);
  cublasHandle_t h;
  cublasCreate(&h);
  const float one = 1.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 64, 64, 64, &one, A, 64, A, 64, &one, A, 64);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, A, CUDA_R_32F, 64, A, CUDA_R_32F, 64, &one, A,
               CUDA_R_32F, 64, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cufftDestroy(plan);
  cublasDestroy(h);
}
