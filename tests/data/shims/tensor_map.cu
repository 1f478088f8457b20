// The Tensor Memory Accelerator's descriptor as sm_90 kernels take it (lmdeploy's linear attention: 17 kernels CL000
// "unknown type name 'CUtensorMap'"), and the host code that encodes it through the driver's entry point.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) == 64, "the driver's descriptor layout");

__global__ void useMap(const __grid_constant__ CUtensorMap map, float *out) {
  out[threadIdx.x] = (float)((const unsigned long long *)&map)[threadIdx.x % 16];
}

int encode(float *data, CUtensorMap *map) {
  cuuint64_t dims[2] = {1024, 1024}, strides[1] = {1024 * sizeof(float)};
  cuuint32_t box[2] = {64, 64}, elem[2] = {1, 1};
  PFN_cuTensorMapEncodeTiled encodeTiled = cuTensorMapEncodeTiled;
  return encodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, data, dims, strides, box, elem,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}
