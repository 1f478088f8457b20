/* texture_types.h -- stands in for CUDA's texture_types.h, surface_types.h,
 * channel_descriptor.h and the texture/surface fetch functions
 * (texture_fetch_functions.h, texture_indirect_functions.h,
 * surface_functions.h, surface_indirect_functions.h): the object API
 * (cudaTextureObject_t, cudaSurfaceObject_t) and the reference API
 * (texture<T, dim, mode>, surface<void, dim>) as documented in the CUDA C++
 * Programming Guide, "Texture and Surface Memory".  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_TEXTURE_TYPES_H
#define CUDALINT_TEXTURE_TYPES_H

enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
                             cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc { int x; int y; int z; int w; enum cudaChannelFormatKind f; };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
                              cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
                        cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width; size_t height; size_t pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc { int format; size_t width; size_t height; size_t depth; unsigned int firstMipmapLevel;
                              unsigned int lastMipmapLevel; unsigned int firstLayer; unsigned int lastLayer; };

/* ---- host API ---------------------------------------------------------- */
CUDALINT_RT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
CUDALINT_RT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                                const struct cudaTextureDesc *pTexDesc,
                                                const struct cudaResourceViewDesc *pResViewDesc);
CUDALINT_RT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
CUDALINT_RT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
CUDALINT_RT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
CUDALINT_RT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                        size_t height = 0, unsigned int flags = 0);
CUDALINT_RT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                          struct cudaExtent extent, unsigned int flags = 0);
CUDALINT_RT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                 const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                                 unsigned int numLevels, unsigned int flags = 0);
CUDALINT_RT cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                   unsigned int level);
CUDALINT_RT cudaError_t cudaFreeArray(cudaArray_t array);
CUDALINT_RT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray);
CUDALINT_RT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                          enum cudaMemcpyKind kind);
CUDALINT_RT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                            size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
CUDALINT_RT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                              size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
CUDALINT_RT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                            size_t count, enum cudaMemcpyKind kind);

/* ---- the reference API (texture<T, dim, mode>, surface<void, dim>) -------------------------------------------- */
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};
template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface { struct cudaChannelFormatDesc channelDesc; };
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                     size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                     const struct cudaChannelFormatDesc &desc, size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                       size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                       const struct cudaChannelFormatDesc &desc, size_t width, size_t height,
                                       size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex, cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode mode>
__host__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, mode> &tex);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array);

/* what a fetch returns: the element type, or float of its width in cudaReadModeNormalizedFloat */
template <class T, enum cudaTextureReadMode mode> struct __cudalint_texel { typedef T type; };
#define CUDALINT_NORMALIZED(T, F) \
  template <> struct __cudalint_texel<T, cudaReadModeNormalizedFloat> { typedef F type; };
CUDALINT_NORMALIZED(char, float) CUDALINT_NORMALIZED(signed char, float) CUDALINT_NORMALIZED(unsigned char, float)
CUDALINT_NORMALIZED(short, float) CUDALINT_NORMALIZED(unsigned short, float)
CUDALINT_NORMALIZED(char1, float1) CUDALINT_NORMALIZED(uchar1, float1) CUDALINT_NORMALIZED(short1, float1)
CUDALINT_NORMALIZED(ushort1, float1) CUDALINT_NORMALIZED(char2, float2) CUDALINT_NORMALIZED(uchar2, float2)
CUDALINT_NORMALIZED(short2, float2) CUDALINT_NORMALIZED(ushort2, float2) CUDALINT_NORMALIZED(char4, float4)
CUDALINT_NORMALIZED(uchar4, float4) CUDALINT_NORMALIZED(short4, float4) CUDALINT_NORMALIZED(ushort4, float4)
#undef CUDALINT_NORMALIZED
#define CUDALINT_TEXEL typename __cudalint_texel<T, mode>::type
#define CUDALINT_TEXREF(d) const texture<T, d, mode> &

template <class T, enum cudaTextureReadMode mode> __device__ CUDALINT_TEXEL tex1Dfetch(CUDALINT_TEXREF(1), int x);
template <class T, enum cudaTextureReadMode mode> __device__ CUDALINT_TEXEL tex1D(CUDALINT_TEXREF(1), float x);
template <class T, enum cudaTextureReadMode mode> __device__ CUDALINT_TEXEL tex2D(CUDALINT_TEXREF(2), float x, float y);
template <class T, enum cudaTextureReadMode mode>
__device__ CUDALINT_TEXEL tex3D(CUDALINT_TEXREF(3), float x, float y, float z);
template <class T, enum cudaTextureReadMode mode>
__device__ CUDALINT_TEXEL tex1DLayered(CUDALINT_TEXREF(0xF1), float x, int layer);
template <class T, enum cudaTextureReadMode mode>
__device__ CUDALINT_TEXEL tex2DLayered(CUDALINT_TEXREF(0xF2), float x, float y, int layer);
template <class T, enum cudaTextureReadMode mode>
__device__ CUDALINT_TEXEL texCubemap(CUDALINT_TEXREF(0x0C), float x, float y, float z);
template <class T, enum cudaTextureReadMode mode>
__device__ CUDALINT_TEXEL tex2DLod(CUDALINT_TEXREF(2), float x, float y, float level);
#undef CUDALINT_TEXEL
#undef CUDALINT_TEXREF

/* ---- the object API: tex*<T>(obj, ...) and the void tex*(T *, obj, ...) forms ------------------------------- */
#define CUDALINT_TEXOBJ(name, ...)                                   \
  template <class T> __device__ T name(cudaTextureObject_t, __VA_ARGS__); \
  template <class T> __device__ void name(T *, cudaTextureObject_t, __VA_ARGS__);
CUDALINT_TEXOBJ(tex1Dfetch, int x)
CUDALINT_TEXOBJ(tex1D, float x)
CUDALINT_TEXOBJ(tex2D, float x, float y)
CUDALINT_TEXOBJ(tex3D, float x, float y, float z)
CUDALINT_TEXOBJ(tex1DLayered, float x, int layer)
CUDALINT_TEXOBJ(tex2DLayered, float x, float y, int layer)
CUDALINT_TEXOBJ(texCubemap, float x, float y, float z)
CUDALINT_TEXOBJ(texCubemapLayered, float x, float y, float z, int layer)
CUDALINT_TEXOBJ(tex1DLod, float x, float level)
CUDALINT_TEXOBJ(tex2DLod, float x, float y, float level)
CUDALINT_TEXOBJ(tex3DLod, float x, float y, float z, float level)
CUDALINT_TEXOBJ(tex2DGrad, float x, float y, float2 dx, float2 dy)
CUDALINT_TEXOBJ(tex2Dgather, float x, float y, int comp = 0)
#undef CUDALINT_TEXOBJ

/* ---- surfaces: object and reference forms -------------------------------------------------------------------- */
#define CUDALINT_SURF(read, write, ...)                                                                    \
  template <class T> __device__ T read(cudaSurfaceObject_t, __VA_ARGS__,                                  \
                                       cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                     \
  template <class T> __device__ void read(T *, cudaSurfaceObject_t, __VA_ARGS__,                          \
                                          cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                  \
  template <class T> __device__ void write(T, cudaSurfaceObject_t, __VA_ARGS__,                           \
                                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                 \
  template <class T, class S, int d> __device__ T read(const surface<S, d> &, __VA_ARGS__,               \
                                                       cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);     \
  template <class T, class S, int d> __device__ void read(T *, const surface<S, d> &, __VA_ARGS__,       \
                                                          cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);  \
  template <class T, class S, int d> __device__ void write(T, const surface<S, d> &, __VA_ARGS__,        \
                                                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
CUDALINT_SURF(surf1Dread, surf1Dwrite, int x)
CUDALINT_SURF(surf2Dread, surf2Dwrite, int x, int y)
CUDALINT_SURF(surf3Dread, surf3Dwrite, int x, int y, int z)
CUDALINT_SURF(surf1DLayeredread, surf1DLayeredwrite, int x, int layer)
CUDALINT_SURF(surf2DLayeredread, surf2DLayeredwrite, int x, int y, int layer)
#undef CUDALINT_SURF

#endif /* CUDALINT_TEXTURE_TYPES_H */
