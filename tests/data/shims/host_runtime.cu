// Host side: allocations of every kind and the whole runtime API surface.
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <array>

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err_), cudaGetErrorName(err_));                \
      exit(EXIT_FAILURE);                                                       \
    }                                                                           \
  } while (0)

__constant__ float c_filter[9];
__device__ int d_flag;

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] * c_filter[i % 9] + d_flag;
}

__global__ void big_smem(float *y) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

int main(int argc, char **argv) {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  int count = 0, dev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  printf("%s: %zu bytes, smem %zu, warp %d, %d threads/block, %d SMs, cc %d.%d, %d kHz, mem %d kHz x %d bits\n",
         prop.name, prop.totalGlobalMem, prop.sharedMemPerBlock, prop.warpSize,
         prop.maxThreadsPerBlock, prop.multiProcessorCount, prop.major, prop.minor,
         prop.clockRate, prop.memoryClockRate, prop.memoryBusWidth);

  float *h_x = (float *)malloc(bytes);
  float *h_y = static_cast<float *>(calloc(n, sizeof(float)));
  float *h_z = new float[n];
  std::vector<float> hv(n, 1.0f);
  std::vector<float> hw(n);
  hw.resize(2 * n);
  std::array<float, 9> filt = {1, 2, 1, 2, 4, 2, 1, 2, 1};
  float stack_buf[256];
  memset(stack_buf, 0, sizeof(stack_buf));
  memcpy(h_x, hv.data(), hv.size() * sizeof(float));
  for (size_t i = 0; i < hv.size(); ++i) h_y[i] = hv[i] + h_z[i % 4];
  for (float &f : hw) f = 0.0f;

  float *d_x = nullptr, *d_y = nullptr, *pinned = nullptr, *mapped = nullptr, *managed = nullptr;
  void *raw = nullptr;
  size_t pitch = 0;
  CUDA_CHECK(cudaMalloc(&d_x, bytes));
  CUDA_CHECK(cudaMalloc((void **)&d_y, bytes));
  CUDA_CHECK(cudaMalloc(&raw, 64));
  CUDA_CHECK(cudaMallocHost(&pinned, bytes));
  CUDA_CHECK(cudaMallocHost((void **)&pinned, bytes));
  CUDA_CHECK(cudaHostAlloc(&mapped, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CUDA_CHECK(cudaHostAlloc((void **)&mapped, bytes, cudaHostAllocDefault | cudaHostAllocWriteCombined));
  CUDA_CHECK(cudaHostRegister(h_x, bytes, cudaHostRegisterDefault));
  CUDA_CHECK(cudaHostRegister(h_y, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped));
  CUDA_CHECK(cudaMallocManaged(&managed, bytes));
  CUDA_CHECK(cudaMallocManaged(&managed, bytes, cudaMemAttachGlobal));
  CUDA_CHECK(cudaMallocPitch(&raw, &pitch, 256 * sizeof(float), 256));
  CUDA_CHECK(cudaMemset(d_y, 0, bytes));

  cudaStream_t s1, s2;
  cudaEvent_t start, stop, ready;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));

  CUDA_CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyAsync(d_y, hv.data(), bytes, cudaMemcpyHostToDevice, s1));
  CUDA_CHECK(cudaMemsetAsync(d_y, 0, bytes, s2));
  CUDA_CHECK(cudaMemcpy2D(raw, pitch, h_x, 256 * sizeof(float), 256 * sizeof(float), 256, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy2DAsync(raw, pitch, h_x, 256 * sizeof(float), 256 * sizeof(float), 256, cudaMemcpyDefault, s1));
  cudaMemcpy3DParms p3 = {};
  p3.srcPtr = make_cudaPitchedPtr(h_x, 256 * sizeof(float), 256, 16);
  p3.dstPtr = make_cudaPitchedPtr(raw, pitch, 256, 16);
  p3.extent = make_cudaExtent(256 * sizeof(float), 16, 4);
  p3.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3DAsync(&p3, s2));
  CUDA_CHECK(cudaMemcpyToSymbol(c_filter, filt.data(), sizeof(float) * 9));
  CUDA_CHECK(cudaMemcpyToSymbol(d_flag, &count, sizeof(int), 0, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filt.data(), sizeof(float) * 9, 0, cudaMemcpyHostToDevice, s1));
  CUDA_CHECK(cudaMemcpyFromSymbol(stack_buf, c_filter, sizeof(float) * 9));
  CUDA_CHECK(cudaMemcpyFromSymbolAsync(stack_buf, d_flag, sizeof(int), 0, cudaMemcpyDeviceToHost, s2));

  int threads = 256;
  int minGrid = 0, bestBlock = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, saxpy, 0, 0));
  CUDA_CHECK(cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  dim3 block(threads);
  dim3 grid((n + threads - 1) / threads);
  size_t shmem = threads * sizeof(float);
  CUDA_CHECK(cudaEventRecord(start, s1));
  saxpy<<<grid, block>>>(2.0f, d_x, d_y, n);
  saxpy<<<grid, block, 0, s1>>>(2.0f, d_x, d_y, n);
  big_smem<<<grid, block, shmem, s2>>>(d_y);
  saxpy<<<(n + 255) / 256, 256>>>(3.0f, d_x, d_y, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaPeekAtLastError());
  float a = 2.0f;
  int nn = n;
  void *args[] = {&a, &d_x, &d_y, &nn};
  CUDA_CHECK(cudaLaunchKernel((const void *)saxpy, grid, block, args, 0, s1));
  CUDA_CHECK(cudaLaunchKernel(saxpy, grid, block, args));
  CUDA_CHECK(cudaEventRecord(ready, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, ready, 0));
  CUDA_CHECK(cudaEventRecord(stop, s1));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaStreamSynchronize(s1));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(d_x, d_y, bytes, cudaMemcpyDeviceToDevice));

  CUdeviceptr dptr = 0;
  CUresult cr = CUDA_SUCCESS;
  (void)dptr; (void)cr;

  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(ready));
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
  CUDA_CHECK(cudaHostUnregister(h_x));
  CUDA_CHECK(cudaHostUnregister(h_y));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(raw));
  CUDA_CHECK(cudaFree(managed));
  CUDA_CHECK(cudaFreeHost(pinned));
  CUDA_CHECK(cudaFreeHost(mapped));
  free(h_x);
  free(h_y);
  delete[] h_z;
  CUDA_CHECK(cudaDeviceReset());
  printf("%f ms, %d args\n", ms, argc);
  (void)argv;
  return 0;
}
