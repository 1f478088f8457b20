/* device_launch_parameters.h -- stands in for CUDA's header of the same name:
 * the built-in variables threadIdx, blockIdx, blockDim, gridDim, warpSize.
 *
 * Deliberately plain extern variables of plain struct types (not clang's
 * __declspec(property) builtins), so that `threadIdx.x` is a MEMBER_REF_EXPR
 * `x` over a DECL_REF_EXPR `threadIdx` in libclang's AST.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_DEVICE_LAUNCH_PARAMETERS_H
#define CUDALINT_DEVICE_LAUNCH_PARAMETERS_H

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

#endif /* CUDALINT_DEVICE_LAUNCH_PARAMETERS_H */
