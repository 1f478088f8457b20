/* cudalint_prelude.h -- stands in for what nvcc implicitly includes before a
 * .cu file (cuda_runtime.h and the crt/ headers behind it).
 *
 * cudalint force-includes this file (-include cudalint_prelude.h) when it
 * parses CUDA sources with libclang.  It never uses NVIDIA's headers: the
 * declarations below are written from the documented CUDA API and only need to
 * be good enough for parsing and type-checking (no definitions, no codegen).
 */
#ifndef CUDALINT_PRELUDE_H
#define CUDALINT_PRELUDE_H

/* ---- compiler / toolkit identification -------------------------------- */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 12080
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#define __CUDALINT_SHIMS__ 1

/* ---- execution-space and memory-space qualifiers ---------------------- */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* Clang treats __noinline__ as a keyword in CUDA mode, so that both
 * `__noinline__ void f()` and `__attribute__((__noinline__))` work; keep it. */
#define __noinline__ __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __grid_constant__
#define __device_builtin__
#define __cudart_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __maxnreg__(n)
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __location__(a) __attribute__((a))
#define __inline_hint__
#define CUDARTAPI
#define CUDAAPI

/* ---- the C and C++ library nvcc's headers pull in --------------------- */
/* A platform C library is assumed present when <sys/types.h> resolves.  The
 * bundled libc++ cannot work without one, so in that case the minimal headers
 * in fallback/ are included now and libc++'s include guards are pre-defined:
 * a later `#include <vector>` then resolves to libc++'s file but adds nothing.
 */
#if !__has_include(<sys/types.h>) && !defined(CUDALINT_USE_FALLBACK_HEADERS)
#define CUDALINT_USE_FALLBACK_HEADERS 1
#endif

/* __device__ overloads of libc / libm functions must be declared before the
 * host declarations from <cmath> etc. (libc++'s `using ::sqrt;` in namespace
 * std only picks up overloads that already exist). */
#include "cudalint_device_libc.h"
#include "math_functions.h"

#ifdef CUDALINT_USE_FALLBACK_HEADERS
#include "fallback/cudalint_fallback_all.h"
#else
#include <stddef.h>
#include <stdint.h>
#include <new>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <ctime>
#include <assert.h> /* crt/common_functions.h, which nvcc's implicit cuda_runtime.h pulls in, includes it */
#endif

/* device-side placement new and clock() (need <new> / <ctime> types) */
__device__ inline void *operator new(size_t, void *__p) noexcept { return __p; }
__device__ inline void *operator new[](size_t, void *__p) noexcept { return __p; }
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
extern "C" __device__ clock_t clock(void);
__device__ long long clock64(void);

/* ---- CUDA proper ------------------------------------------------------ */
#include "vector_types.h"
#include "vector_functions.h"
#include "device_launch_parameters.h"
#include "driver_types.h"
#include "cuda_runtime_api.h"
#include "texture_types.h"
#include "device_functions.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"
#include "cuda_runtime.h"

#endif /* CUDALINT_PRELUDE_H */
