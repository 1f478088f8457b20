/* cuda_pipeline.h -- stands in for CUDA's pipeline primitives (sm_80 asynchronous copies into shared
 * memory) and includes the C++ pipeline API, as CUDA's header does.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_PIPELINE_H
#define CUDALINT_CUDA_PIPELINE_H
#include <cuda/pipeline>
__device__ void __pipeline_memcpy_async(void *dst_shared, const void *src_global, unsigned long long size_and_align,
                                        unsigned long long zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(unsigned long long prior);
#endif /* CUDALINT_CUDA_PIPELINE_H */
