/* device_functions.h -- stands in for CUDA's device intrinsics (crt/
 * device_functions.h, sm_*_intrinsics.h, device_atomic_functions.h): barriers,
 * fences, warp votes and shuffles, bit manipulation, read-only / cache-hinted
 * loads and stores, atomics, timers.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_DEVICE_FUNCTIONS_H
#define CUDALINT_DEVICE_FUNCTIONS_H

/* ---- barriers and fences ---------------------------------------------- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __nanosleep(unsigned int ns);

/* ---- warp vote / match / reduce --------------------------------------- */
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot(int predicate); /* pre-Volta forms */
__device__ int __all(int predicate);
__device__ int __any(int predicate);
__device__ unsigned int __match_any_sync(unsigned int mask, int value);
__device__ unsigned int __match_any_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __match_any_sync(unsigned int mask, long long value);
__device__ unsigned int __match_any_sync(unsigned int mask, unsigned long long value);
__device__ unsigned int __match_any_sync(unsigned int mask, float value);
__device__ unsigned int __match_all_sync(unsigned int mask, int value, int *pred);
__device__ unsigned int __match_all_sync(unsigned int mask, unsigned int value, int *pred);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

/* ---- shuffles: overloads per element type, like CUDA ------------------ */
#define CUDALINT_SHFL(T)                                                       \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);        \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);   \
  __device__ T __shfl(T var, int srcLane, int width = 32);                     \
  __device__ T __shfl_up(T var, unsigned int delta, int width = 32);           \
  __device__ T __shfl_down(T var, unsigned int delta, int width = 32);         \
  __device__ T __shfl_xor(T var, int laneMask, int width = 32);
CUDALINT_SHFL(int) CUDALINT_SHFL(unsigned int) CUDALINT_SHFL(long)
CUDALINT_SHFL(unsigned long) CUDALINT_SHFL(long long)
CUDALINT_SHFL(unsigned long long) CUDALINT_SHFL(float) CUDALINT_SHFL(double)
#undef CUDALINT_SHFL

/* ---- integer and bit intrinsics --------------------------------------- */
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
/* sm_61_intrinsics.h: four- and two-way byte/halfword dot products with accumulate */
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp2a_lo(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_lo(ushort2 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __dp2a_hi(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_hi(ushort2 srcA, uchar4 srcB, unsigned int c);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);

/* ---- type punning / conversions --------------------------------------- */
__device__ int __float_as_int(float x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __int_as_float(int x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
__device__ double __hiloint2double(int hi, int lo);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ int __float2int_rd(float x);
__device__ int __float2int_ru(float x);
__device__ unsigned int __float2uint_rn(float x);
__device__ unsigned int __float2uint_rz(float x);
__device__ long long __float2ll_rn(float x);
__device__ float __int2float_rn(int x);
__device__ float __uint2float_rn(unsigned int x);
__device__ int __double2int_rn(double x);
__device__ float __double2float_rn(double x);

/* ---- loads and stores with cache hints (also used by cuda_fp16.h, cuda_bf16.h) -- */
#define CUDALINT_LDST(T)                                                       \
  __device__ T __ldg(const T *ptr);                                            \
  __device__ T __ldcg(const T *ptr);                                           \
  __device__ T __ldca(const T *ptr);                                           \
  __device__ T __ldcs(const T *ptr);                                           \
  __device__ T __ldlu(const T *ptr);                                           \
  __device__ T __ldcv(const T *ptr);                                           \
  __device__ void __stwb(T *ptr, T value);                                     \
  __device__ void __stcg(T *ptr, T value);                                     \
  __device__ void __stcs(T *ptr, T value);                                     \
  __device__ void __stwt(T *ptr, T value);
CUDALINT_LDST(char) CUDALINT_LDST(signed char) CUDALINT_LDST(unsigned char)
CUDALINT_LDST(short) CUDALINT_LDST(unsigned short) CUDALINT_LDST(int)
CUDALINT_LDST(unsigned int) CUDALINT_LDST(long) CUDALINT_LDST(unsigned long)
CUDALINT_LDST(long long) CUDALINT_LDST(unsigned long long)
CUDALINT_LDST(float) CUDALINT_LDST(double)
CUDALINT_LDST(char2) CUDALINT_LDST(char4) CUDALINT_LDST(uchar2)
CUDALINT_LDST(uchar4) CUDALINT_LDST(short2) CUDALINT_LDST(short4)
CUDALINT_LDST(ushort2) CUDALINT_LDST(ushort4) CUDALINT_LDST(int2)
CUDALINT_LDST(int4) CUDALINT_LDST(uint2) CUDALINT_LDST(uint4)
CUDALINT_LDST(longlong2) CUDALINT_LDST(ulonglong2) CUDALINT_LDST(float2)
CUDALINT_LDST(float4) CUDALINT_LDST(double2)

/* ---- atomics ---------------------------------------------------------- */
/* each one also exists with _block and _system scope suffixes */
#define CUDALINT_ATOMIC(name, T, ...)                                          \
  __device__ T name(T *address, T val __VA_ARGS__);                           \
  __device__ T name##_block(T *address, T val __VA_ARGS__);                   \
  __device__ T name##_system(T *address, T val __VA_ARGS__);
CUDALINT_ATOMIC(atomicAdd, int) CUDALINT_ATOMIC(atomicAdd, unsigned int)
CUDALINT_ATOMIC(atomicAdd, unsigned long long) CUDALINT_ATOMIC(atomicAdd, float)
CUDALINT_ATOMIC(atomicAdd, double)
CUDALINT_ATOMIC(atomicSub, int) CUDALINT_ATOMIC(atomicSub, unsigned int)
CUDALINT_ATOMIC(atomicExch, int) CUDALINT_ATOMIC(atomicExch, unsigned int)
CUDALINT_ATOMIC(atomicExch, unsigned long long) CUDALINT_ATOMIC(atomicExch, float)
CUDALINT_ATOMIC(atomicMin, int) CUDALINT_ATOMIC(atomicMin, unsigned int)
CUDALINT_ATOMIC(atomicMin, long long) CUDALINT_ATOMIC(atomicMin, unsigned long long)
CUDALINT_ATOMIC(atomicMax, int) CUDALINT_ATOMIC(atomicMax, unsigned int)
CUDALINT_ATOMIC(atomicMax, long long) CUDALINT_ATOMIC(atomicMax, unsigned long long)
CUDALINT_ATOMIC(atomicInc, unsigned int) CUDALINT_ATOMIC(atomicDec, unsigned int)
CUDALINT_ATOMIC(atomicAnd, int) CUDALINT_ATOMIC(atomicAnd, unsigned int)
CUDALINT_ATOMIC(atomicAnd, unsigned long long)
CUDALINT_ATOMIC(atomicOr, int) CUDALINT_ATOMIC(atomicOr, unsigned int)
CUDALINT_ATOMIC(atomicOr, unsigned long long)
CUDALINT_ATOMIC(atomicXor, int) CUDALINT_ATOMIC(atomicXor, unsigned int)
CUDALINT_ATOMIC(atomicXor, unsigned long long)
#undef CUDALINT_ATOMIC
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address, unsigned long long compare, unsigned long long val);
__device__ unsigned short atomicCAS(unsigned short *address, unsigned short compare, unsigned short val);
__device__ int atomicCAS_block(int *address, int compare, int val);
__device__ unsigned int atomicCAS_block(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS_block(unsigned long long *address, unsigned long long compare, unsigned long long val);
__device__ int atomicCAS_system(int *address, int compare, int val);
__device__ unsigned int atomicCAS_system(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS_system(unsigned long long *address, unsigned long long compare, unsigned long long val);
__device__ float2 atomicAdd(float2 *address, float2 val);
__device__ float4 atomicAdd(float4 *address, float4 val);

/* ---- misc -------------------------------------------------------------- */
__device__ void __prof_trigger(int counter);
__device__ int __isGlobal(const void *ptr);
__device__ int __isShared(const void *ptr);
__device__ int __isConstant(const void *ptr);
__device__ int __isLocal(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ void *__cvta_shared_to_generic(size_t rawbits);

#endif /* CUDALINT_DEVICE_FUNCTIONS_H */
