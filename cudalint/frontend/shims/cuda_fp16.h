/* cuda_fp16.h -- stands in for CUDA's cuda_fp16.h: a minimal 2-byte __half,
 * 4-byte __half2 (aliases half, half2), conversions and the common arithmetic
 * intrinsics and operators.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_FP16_H
#define CUDALINT_CUDA_FP16_H

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const struct __half_raw &r);
  __host__ __device__ operator struct __half_raw() const;
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  /* every integer width, as cuda_fp16.hpp/cuda_bf16.hpp declare them (a `long long` was ambiguous: DGL) */
  __host__ __device__ __half(short i);
  __host__ __device__ __half(unsigned short i);
  __host__ __device__ __half(int i);
  __host__ __device__ __half(unsigned int i);
  __host__ __device__ __half(long i);
  __host__ __device__ __half(unsigned long i);
  __host__ __device__ __half(long long i);
  __host__ __device__ __half(unsigned long long i);
  __host__ __device__ operator float() const;
};
struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
};
typedef __half half;
typedef __half2 half2;
typedef struct __half_raw { unsigned short x; } __half_raw;

__host__ __device__ __half __float2half(float a);
__host__ __device__ __half __float2half_rn(float a);
__host__ __device__ float __half2float(__half a);
__host__ __device__ __half2 __float2half2_rn(float a);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__host__ __device__ float2 __half22float2(__half2 a);
__host__ __device__ __half2 __float22half2_rn(float2 a);
__host__ __device__ float __low2float(__half2 a);
__host__ __device__ float __high2float(__half2 a);
__host__ __device__ __half __low2half(__half2 a);
__host__ __device__ __half __high2half(__half2 a);
__host__ __device__ __half2 __halves2half2(__half a, __half b);
__host__ __device__ __half2 __half2half2(__half a);
/* the integer conversions in every rounding mode (cuda_fp16.h: __int2half_rn/rz/rd/ru, __half2ll_rz, ...) */
#define CUDALINT_HALF_CONVERSIONS(T, NAME)                                   \
  __device__ __half __##NAME##2half_rn(T i); __device__ __half __##NAME##2half_rz(T i); \
  __device__ __half __##NAME##2half_rd(T i); __device__ __half __##NAME##2half_ru(T i); \
  __device__ T __half2##NAME##_rn(__half h); __device__ T __half2##NAME##_rz(__half h);  \
  __device__ T __half2##NAME##_rd(__half h); __device__ T __half2##NAME##_ru(__half h);
CUDALINT_HALF_CONVERSIONS(int, int) CUDALINT_HALF_CONVERSIONS(unsigned int, uint)
CUDALINT_HALF_CONVERSIONS(short, short) CUDALINT_HALF_CONVERSIONS(unsigned short, ushort)
CUDALINT_HALF_CONVERSIONS(long long, ll) CUDALINT_HALF_CONVERSIONS(unsigned long long, ull)
#undef CUDALINT_HALF_CONVERSIONS
__host__ __device__ __half __float2half_rz(float a);
__host__ __device__ __half __float2half_rd(float a);
__host__ __device__ __half __float2half_ru(float a);
__host__ __device__ __half __double2half(double a);
__device__ short __half_as_short(__half h);
__device__ unsigned short __half_as_ushort(__half h);
__device__ __half __ushort_as_half(unsigned short i);

__device__ __half __hadd(__half a, __half b);
__device__ __half __hsub(__half a, __half b);
__device__ __half __hmul(__half a, __half b);
__device__ __half __hdiv(__half a, __half b);
__device__ __half __hfma(__half a, __half b, __half c);
__device__ __half __hneg(__half a);
__device__ __half __habs(__half a);
__device__ __half __hmax(__half a, __half b);
__device__ __half __hmin(__half a, __half b);
__device__ bool __heq(__half a, __half b);
__device__ bool __hlt(__half a, __half b);
__device__ bool __hgt(__half a, __half b);
__device__ bool __hisnan(__half a);
__device__ __half2 __hadd2(__half2 a, __half2 b);
__device__ __half2 __hsub2(__half2 a, __half2 b);
__device__ __half2 __hmul2(__half2 a, __half2 b);
__device__ __half2 __h2div(__half2 a, __half2 b);
__device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c);
__device__ __half2 __hmax2(__half2 a, __half2 b);
__device__ __half2 __hmin2(__half2 a, __half2 b);
__device__ __half hsqrt(__half a);
__device__ __half hrsqrt(__half a);
__device__ __half hexp(__half a);
__device__ __half hlog(__half a);
__device__ __half2 h2sqrt(__half2 a);
__device__ __half2 h2exp(__half2 a);

__device__ __half operator+(const __half &a, const __half &b);
__device__ __half operator-(const __half &a, const __half &b);
__device__ __half operator*(const __half &a, const __half &b);
__device__ __half operator/(const __half &a, const __half &b);
__device__ __half operator-(const __half &a);
__device__ __half &operator+=(__half &a, const __half &b);
__device__ __half &operator-=(__half &a, const __half &b);
__device__ __half &operator*=(__half &a, const __half &b);
__device__ __half &operator/=(__half &a, const __half &b);
__device__ bool operator==(const __half &a, const __half &b);
__device__ bool operator!=(const __half &a, const __half &b);
__device__ bool operator<(const __half &a, const __half &b);
__device__ bool operator<=(const __half &a, const __half &b);
__device__ bool operator>(const __half &a, const __half &b);
__device__ bool operator>=(const __half &a, const __half &b);
__device__ __half2 operator+(const __half2 &a, const __half2 &b);
__device__ __half2 operator-(const __half2 &a, const __half2 &b);
__device__ __half2 operator*(const __half2 &a, const __half2 &b);
__device__ __half2 operator/(const __half2 &a, const __half2 &b);
__device__ __half2 &operator+=(__half2 &a, const __half2 &b);
__device__ __half2 &operator*=(__half2 &a, const __half2 &b);

#define CUDALINT_HALF_WARP(T)                                                  \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);        \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);   \
  CUDALINT_LDST(T)                                                             \
  __device__ T atomicAdd(T *address, T val);
CUDALINT_HALF_WARP(__half) CUDALINT_HALF_WARP(__half2)
#undef CUDALINT_HALF_WARP

static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4, "half sizes");

#endif /* CUDALINT_CUDA_FP16_H */
