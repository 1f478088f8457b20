// Texture and surface API: objects (tex1Dfetch<T>, tex2D<T>, tex3D<T>, surf2Dread/surf2Dwrite) and references
// (texture<T, dim, mode> with the normalized-float read mode, cudaBindTexture), host setup included.
#include <cuda_runtime.h>
#include <cuda_texture_types.h>

texture<float, 1, cudaReadModeElementType> tLinear;
texture<uchar4, 2, cudaReadModeNormalizedFloat> tImage;

__global__ void fetches(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                        cudaSurfaceObject_t s, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float a = tex1Dfetch<float>(t1, x) + tex2D<float>(t2, x + 0.5f, y + 0.5f) + tex3D<float>(t3, x, y, 0.5f);
  float4 c = tex2D(tImage, x, y);
  float b = tex1Dfetch(tLinear, x) + tex2DLod<float>(t2, x, y, 0.0f) + c.x;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(a + b + v, s, x * 4, y);
  out[y * w + x] = a + b;
}

void setup(float *d, size_t n) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  size_t offset = 0;
  cudaBindTexture(&offset, tLinear, d, n * sizeof(float));
  cudaArray_t arr;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  cudaMallocArray(&arr, &desc, 64, 64);
  tImage.normalized = 0;
  cudaBindTextureToArray(tImage, arr);
  cudaDestroyTextureObject(t);
}
