/* cudalint_toolkit_prelude.h -- force-included in the toolkit mode only (after clang's CUDA runtime wrapper, which
 * brings the toolkit's cuda_runtime.h).  clang lowers `k<<<g, b>>>(..)` to a call of cudaConfigureCall for a toolkit
 * version it does not know (CUDA 13 with libclang 22), which CUDA 12 removed from its headers: without this
 * declaration every launch in host code is an error and is lost. */
#ifndef CUDALINT_TOOLKIT_PRELUDE_H
#define CUDALINT_TOOLKIT_PRELUDE_H
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
extern "C" __host__ __device__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                             cudaStream_t stream = 0);
#endif
#endif
