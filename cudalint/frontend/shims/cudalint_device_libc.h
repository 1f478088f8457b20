/* cudalint_device_libc.h -- stands in for the device-side C library that CUDA
 * provides (printf, malloc/free, memcpy/memset, the assert hook).
 *
 * In clang's CUDA mode a __device__ function may only call __device__ or
 * __host__ __device__ functions, so kernels calling printf() need these
 * __device__ overloads next to the host declarations from <cstdio> etc.
 * Uses __SIZE_TYPE__ because it is included before any library header.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_DEVICE_LIBC_H
#define CUDALINT_DEVICE_LIBC_H

extern "C" {
__device__ int printf(const char *, ...);
__device__ void *malloc(__SIZE_TYPE__);
__device__ void free(void *);
__device__ void *memcpy(void *, const void *, __SIZE_TYPE__);
__device__ void *memset(void *, int, __SIZE_TYPE__);
__device__ int abs(int);
__device__ long labs(long);
__device__ long long llabs(long long);
/* what assert() expands to on glibc/musl (and macOS) */
__device__ void __assert_fail(const char *, const char *, unsigned int, const char *);
__device__ void __assert_rtn(const char *, const char *, int, const char *);
__device__ void __trap(void);
__device__ void __brkpt(void);
}

#endif /* CUDALINT_DEVICE_LIBC_H */
