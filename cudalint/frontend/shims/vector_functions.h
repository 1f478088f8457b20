/* vector_functions.h -- stands in for CUDA's vector_functions.h: the
 * make_<type>() constructors of the vector types (make_float4(x, y, z, w)...).
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_VECTOR_FUNCTIONS_H
#define CUDALINT_VECTOR_FUNCTIONS_H

#define CUDALINT_MAKE(P, T)                                                    \
  __host__ __device__ inline P##1 make_##P##1(T x) { return P##1{x}; }         \
  __host__ __device__ inline P##2 make_##P##2(T x, T y) { return P##2{x, y}; } \
  __host__ __device__ inline P##3 make_##P##3(T x, T y, T z) {                 \
    return P##3{x, y, z};                                                      \
  }                                                                            \
  __host__ __device__ inline P##4 make_##P##4(T x, T y, T z, T w) {            \
    return P##4{x, y, z, w};                                                   \
  }

CUDALINT_MAKE(char, signed char)
CUDALINT_MAKE(uchar, unsigned char)
CUDALINT_MAKE(short, short)
CUDALINT_MAKE(ushort, unsigned short)
CUDALINT_MAKE(int, int)
CUDALINT_MAKE(uint, unsigned int)
CUDALINT_MAKE(long, long)
CUDALINT_MAKE(ulong, unsigned long)
CUDALINT_MAKE(longlong, long long)
CUDALINT_MAKE(ulonglong, unsigned long long)
CUDALINT_MAKE(float, float)
CUDALINT_MAKE(double, double)
#undef CUDALINT_MAKE

#endif /* CUDALINT_VECTOR_FUNCTIONS_H */
