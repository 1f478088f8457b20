/* cuda_bf16.h -- stands in for CUDA's cuda_bf16.h: a minimal 2-byte
 * __nv_bfloat16 and 4-byte __nv_bfloat162 with conversions, arithmetic
 * intrinsics and operators.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_BF16_H
#define CUDALINT_CUDA_BF16_H

#include "cuda_fp16.h"

typedef struct __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;
struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r);
  __host__ __device__ operator __nv_bfloat16_raw() const;
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ __nv_bfloat16(double f);
  /* every integer width, as cuda_fp16.hpp/cuda_bf16.hpp declare them (a `long long` was ambiguous: DGL) */
  __host__ __device__ __nv_bfloat16(short i);
  __host__ __device__ __nv_bfloat16(unsigned short i);
  __host__ __device__ __nv_bfloat16(int i);
  __host__ __device__ __nv_bfloat16(unsigned int i);
  __host__ __device__ __nv_bfloat16(long i);
  __host__ __device__ __nv_bfloat16(unsigned long i);
  __host__ __device__ __nv_bfloat16(long long i);
  __host__ __device__ __nv_bfloat16(unsigned long long i);
  __host__ __device__ operator float() const;
};
struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
__device__ __nv_bfloat16 __habs(__nv_bfloat16 a);
__device__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat162 __habs2(__nv_bfloat162 a);
__device__ __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b);

__host__ __device__ __nv_bfloat16 __float2bfloat16(float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float a);
__host__ __device__ float __bfloat162float(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(float2 a);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 a);
__host__ __device__ float __low2float(__nv_bfloat162 a);
__host__ __device__ float __high2float(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(float a);
__device__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short i);
__device__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
__device__ short __bfloat16_as_short(__nv_bfloat16 h);
__device__ __nv_bfloat16 __int2bfloat16_rn(int i);
__device__ int __bfloat162int_rn(__nv_bfloat16 h);

__device__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__device__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
__device__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);

__device__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__device__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__device__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b);

#define CUDALINT_BF16_WARP(T)                                                  \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);        \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);   \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  CUDALINT_LDST(T)                                                             \
  __device__ T atomicAdd(T *address, T val);
CUDALINT_BF16_WARP(__nv_bfloat16) CUDALINT_BF16_WARP(__nv_bfloat162)
#undef CUDALINT_BF16_WARP

static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4, "bf16 sizes");

#endif /* CUDALINT_CUDA_BF16_H */
