// CUDA vector types: sizes/alignments, make_* constructors, half / bfloat16.
#include <vector_types.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static_assert(sizeof(float4) == 16, "float4 size");
static_assert(alignof(float4) == 16, "float4 align");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
static_assert(sizeof(float1) == 4, "float1");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16, "double4");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
static_assert(sizeof(uint3) == 12 && alignof(uint3) == 4, "uint3");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4");
static_assert(sizeof(uchar2) == 2 && alignof(uchar2) == 2, "uchar2");
static_assert(sizeof(uchar3) == 3, "uchar3");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2");
static_assert(sizeof(ushort4) == 8 && alignof(ushort4) == 8, "ushort4");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "longlong2");
static_assert(sizeof(ulonglong4) == 32, "ulonglong4");
static_assert(sizeof(long2) == 2 * sizeof(long), "long2");
static_assert(sizeof(dim3) == 12, "dim3");
static_assert(sizeof(__half) == 2 && sizeof(half2) == 4, "half");
static_assert(sizeof(__nv_bfloat16) == 2, "bf16");

__global__ void vec_copy(float4 *__restrict__ dst, const float4 *__restrict__ src, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = src[i];
    v.x *= 2.0f;
    dst[i] = make_float4(v.x, v.y, v.z, v.w);
  }
}

__global__ void reinterpret(const float *in, float *out) {
  const float2 *in2 = reinterpret_cast<const float2 *>(in);
  float2 p = in2[threadIdx.x];
  int3 c = make_int3(1, 2, 3);
  uchar4 px = make_uchar4(0, 1, 2, 255);
  double2 d = make_double2(1.0, 2.0);
  out[threadIdx.x] = p.x + p.y + c.z + px.w + (float)d.y;
}

__global__ void halves(const __half *a, const __half *b, __half *c, __nv_bfloat16 *bf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half s = __hadd(a[i], b[i]);
    c[i] = __hmul(s, __float2half(0.5f));
    float f = __half2float(c[i]);
    half2 h2 = __floats2half2_rn(f, 1.0f);
    float2 back = __half22float2(h2);
    bf[i] = __float2bfloat16(back.x + __bfloat162float(bf[i]));
  }
}

// every integer width converts (a `long long` was ambiguous: DGL's `__half(LongLong)`)
__global__ void integer_halves(__half *c, __nv_bfloat16 *bf, long long n, unsigned u, short s, unsigned long l) {
  c[threadIdx.x] = __half(n);
  c[threadIdx.x + 32] = __half(u) + __half(s) + __half(l);
  bf[threadIdx.x] = __nv_bfloat16(n) + __nv_bfloat16(u);
}
