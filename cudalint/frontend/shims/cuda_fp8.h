/* cuda_fp8.h -- stands in for CUDA's cuda_fp8.h: the 1-byte FP8 types (E4M3, E5M2; and the E8M0 scale type) and
 * their 2- and 4-element vectors, with conversions from and to float.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_FP8_H
#define CUDALINT_CUDA_FP8_H

#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
#define CUDALINT_FP8(NAME, STORAGE, ALIGN)                                                  \
  struct __align__(ALIGN) NAME {                                                           \
    STORAGE __x;                                                                           \
    NAME() = default;                                                                      \
    __host__ __device__ explicit NAME(float f);                                            \
    __host__ __device__ explicit NAME(double f);                                           \
    __host__ __device__ explicit NAME(__half f);                                           \
    __host__ __device__ explicit NAME(__nv_bfloat16 f);                                    \
    __host__ __device__ explicit NAME(int i);                                              \
    __host__ __device__ explicit operator float() const;                                   \
    __host__ __device__ explicit operator __half() const;                                  \
    __host__ __device__ explicit operator __nv_bfloat16() const;                           \
  };
CUDALINT_FP8(__nv_fp8_e4m3, __nv_fp8_storage_t, 1)
CUDALINT_FP8(__nv_fp8_e5m2, __nv_fp8_storage_t, 1)
CUDALINT_FP8(__nv_fp8_e8m0, __nv_fp8_storage_t, 1)
CUDALINT_FP8(__nv_fp8x2_e4m3, __nv_fp8x2_storage_t, 2)
CUDALINT_FP8(__nv_fp8x2_e5m2, __nv_fp8x2_storage_t, 2)
CUDALINT_FP8(__nv_fp8x4_e4m3, __nv_fp8x4_storage_t, 4)
CUDALINT_FP8(__nv_fp8x4_e5m2, __nv_fp8x4_storage_t, 4)
#undef CUDALINT_FP8
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t s, __nv_fp8_interpretation_t t);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t s,
                                                                  __nv_fp8_interpretation_t t);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t t);

#endif
