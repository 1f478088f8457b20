/* cuda_runtime_api.h -- stands in for CUDA's cuda_runtime_api.h: the C runtime
 * API (device management, errors, memory, streams, events, launches).
 * Functions CUDA also offers to device code (dynamic parallelism) are marked
 * __host__ __device__ here (CUDALINT_RT_DEV).
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUDA_RUNTIME_API_H
#define CUDALINT_CUDA_RUNTIME_API_H

#define CUDALINT_RT __host__
#define CUDALINT_RT_DEV __host__ __device__

/* extensible launches (CUDA 12: cudaLaunchKernelEx; the toolkit's driver_types.h) */
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  int priority;
  struct { unsigned int x; unsigned int y; unsigned int z; } clusterDim;
  int programmaticStreamSerializationAllowed;
};
typedef struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

extern "C" {
/* errors */
CUDALINT_RT_DEV const char *cudaGetErrorString(cudaError_t error);
CUDALINT_RT_DEV const char *cudaGetErrorName(cudaError_t error);
CUDALINT_RT_DEV cudaError_t cudaGetLastError(void);
CUDALINT_RT_DEV cudaError_t cudaPeekAtLastError(void);

/* devices */
CUDALINT_RT_DEV cudaError_t cudaDeviceSynchronize(void);
CUDALINT_RT cudaError_t cudaDeviceReset(void);
CUDALINT_RT cudaError_t cudaSetDevice(int device);
CUDALINT_RT_DEV cudaError_t cudaGetDevice(int *device);
CUDALINT_RT cudaError_t cudaGetDeviceCount(int *count);
CUDALINT_RT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
CUDALINT_RT_DEV cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
CUDALINT_RT cudaError_t cudaSetDeviceFlags(unsigned int flags);
CUDALINT_RT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
CUDALINT_RT cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
CUDALINT_RT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
CUDALINT_RT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
CUDALINT_RT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
CUDALINT_RT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
CUDALINT_RT cudaError_t cudaDriverGetVersion(int *driverVersion);
CUDALINT_RT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);

/* memory */
CUDALINT_RT_DEV cudaError_t cudaMalloc(void **devPtr, size_t size);
CUDALINT_RT cudaError_t cudaMallocHost(void **ptr, size_t size);
CUDALINT_RT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
CUDALINT_RT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
CUDALINT_RT cudaError_t cudaHostUnregister(void *ptr);
CUDALINT_RT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
CUDALINT_RT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
CUDALINT_RT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
CUDALINT_RT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
CUDALINT_RT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
CUDALINT_RT_DEV cudaError_t cudaFree(void *devPtr);
CUDALINT_RT cudaError_t cudaFreeHost(void *ptr);
CUDALINT_RT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
CUDALINT_RT cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
CUDALINT_RT cudaError_t cudaMemset(void *devPtr, int value, size_t count);
CUDALINT_RT_DEV cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
CUDALINT_RT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
CUDALINT_RT_DEV cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
CUDALINT_RT_DEV cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
CUDALINT_RT_DEV cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
CUDALINT_RT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
CUDALINT_RT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
CUDALINT_RT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
CUDALINT_RT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
CUDALINT_RT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice, int device);

/* streams */
CUDALINT_RT cudaError_t cudaStreamCreate(cudaStream_t *pStream);
CUDALINT_RT_DEV cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
CUDALINT_RT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
CUDALINT_RT_DEV cudaError_t cudaStreamDestroy(cudaStream_t stream);
CUDALINT_RT cudaError_t cudaStreamSynchronize(cudaStream_t stream);
CUDALINT_RT cudaError_t cudaStreamQuery(cudaStream_t stream);
CUDALINT_RT_DEV cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
CUDALINT_RT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
CUDALINT_RT cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                                         unsigned int defaultLaunchValue = 0, unsigned int flags = 0);
/* the device runtime's launch entry points, which clang calls for a launch in device code (-fgpu-rdc) */
extern "C" __device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer, dim3 gridDimension,
                                                   dim3 blockDimension, unsigned int sharedMemSize,
                                                   cudaStream_t stream);
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);
CUDALINT_RT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
CUDALINT_RT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);

/* events */
CUDALINT_RT cudaError_t cudaEventCreate(cudaEvent_t *event);
CUDALINT_RT_DEV cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
CUDALINT_RT_DEV cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaEventQuery(cudaEvent_t event);
CUDALINT_RT cudaError_t cudaEventSynchronize(cudaEvent_t event);
CUDALINT_RT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
CUDALINT_RT_DEV cudaError_t cudaEventDestroy(cudaEvent_t event);

/* kernels and launches */
CUDALINT_RT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
CUDALINT_RT_DEV cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
CUDALINT_RT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
CUDALINT_RT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
CUDALINT_RT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
CUDALINT_RT_DEV cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);

/* What clang lowers `k<<<grid, block, shmem, stream>>>(...)` to: it looks up
 * cudaConfigureCall (older CUDA) or __cudaPushCallConfiguration (newer CUDA),
 * depending on the CUDA version it believes in; declare both. */
__host__ __device__ int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
__host__ __device__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
}

__host__ inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) { return cudaPitchedPtr{d, p, xsz, ysz}; }
__host__ inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
__host__ inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }

#endif /* CUDALINT_CUDA_RUNTIME_API_H */
