/* vector_types.h -- stands in for CUDA's vector_types.h: the built-in vector
 * types (char1 .. double4), uint3 and dim3, with CUDA's sizes and alignments
 * (e.g. float2: size 8 align 8, float3: size 12 align 4, float4: 16/16,
 * double2: 16/16, long2: 2*sizeof(long), 4-element 64-bit types: align 16).
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_VECTOR_TYPES_H
#define CUDALINT_VECTOR_TYPES_H

#define CUDALINT_VEC1(N, T) struct N { T x; };
#define CUDALINT_VEC2(N, T, A) struct __align__(A) N { T x, y; };
#define CUDALINT_VEC3(N, T) struct N { T x, y, z; };
#define CUDALINT_VEC4(N, T, A) struct __align__(A) N { T x, y, z, w; };
#define CUDALINT_VECS(P, T, A2, A4)                                            \
  CUDALINT_VEC1(P##1, T) CUDALINT_VEC2(P##2, T, A2)                            \
  CUDALINT_VEC3(P##3, T) CUDALINT_VEC4(P##4, T, A4)

CUDALINT_VECS(char, signed char, 2, 4)
CUDALINT_VECS(uchar, unsigned char, 2, 4)
CUDALINT_VECS(short, short, 4, 8)
CUDALINT_VECS(ushort, unsigned short, 4, 8)
CUDALINT_VECS(int, int, 8, 16)
CUDALINT_VECS(uint, unsigned int, 8, 16)
CUDALINT_VECS(long, long, 2 * sizeof(long), 16)
CUDALINT_VECS(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
CUDALINT_VECS(longlong, long long, 16, 16)
CUDALINT_VECS(ulonglong, unsigned long long, 16, 16)
CUDALINT_VECS(float, float, 8, 16)
CUDALINT_VECS(double, double, 16, 16)

#undef CUDALINT_VECS
#undef CUDALINT_VEC1
#undef CUDALINT_VEC2
#undef CUDALINT_VEC3
#undef CUDALINT_VEC4

/* launch-configuration type: like uint3 but with constructors (defaults 1) */
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(dim3) == 12, "dim3");

#endif /* CUDALINT_VECTOR_TYPES_H */
