/* cuda_fp4.h -- stands in for CUDA's cuda_fp4.h: the 4-bit E2M1 type and its 2- and 4-element vectors (storage in
 * one and two bytes), with conversions from and to float.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_FP4_H
#define CUDALINT_CUDA_FP4_H

#include "cuda_fp8.h"

typedef unsigned char __nv_fp4_storage_t;
typedef unsigned char __nv_fp4x2_storage_t;
typedef unsigned short __nv_fp4x4_storage_t;
enum __nv_fp4_interpretation_t { __NV_E2M1 };
#define CUDALINT_FP4(NAME, STORAGE, ALIGN)                                                  \
  struct __align__(ALIGN) NAME {                                                           \
    STORAGE __x;                                                                           \
    NAME() = default;                                                                      \
    __host__ __device__ explicit NAME(float f);                                            \
    __host__ __device__ explicit NAME(float2 f);                                           \
    __host__ __device__ explicit NAME(float4 f);                                           \
    __host__ __device__ explicit operator float() const;                                   \
    __host__ __device__ explicit operator float2() const;                                  \
  };
CUDALINT_FP4(__nv_fp4_e2m1, __nv_fp4_storage_t, 1)
CUDALINT_FP4(__nv_fp4x2_e2m1, __nv_fp4x2_storage_t, 1)
CUDALINT_FP4(__nv_fp4x4_e2m1, __nv_fp4x4_storage_t, 2)
#undef CUDALINT_FP4
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
__host__ __device__ __nv_fp4x2_storage_t __nv_cvt_float2_to_fp4x2(float2 x, __nv_fp4_interpretation_t t,
                                                                  enum cudaRoundMode r);

#endif
