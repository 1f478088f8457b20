/* cudaTypedefs.h -- stands in for the toolkit's header of driver-API function-pointer types (the entry points
 * `cudaGetDriverEntryPoint` returns): the ones kernels' host code names (lmdeploy's TMA descriptors). */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDATYPEDEFS_H
#define CUDALINT_CUDATYPEDEFS_H
#include <cuda.h>

typedef CUresult (*PFN_cuTensorMapEncodeTiled_v12000)(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank, void *globalAddress,
    const cuuint64_t *globalDim, const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill);
#define PFN_cuTensorMapEncodeTiled PFN_cuTensorMapEncodeTiled_v12000

#endif /* CUDALINT_CUDATYPEDEFS_H */
