/* math_functions.h -- stands in for CUDA's math API (crt/math_functions.h):
 * __device__ declarations of the single/double precision libm functions, the
 * float overloads of the C++ names (sqrt(float) ...), the fast intrinsics
 * (__expf ...) and integer min/max.
 *
 * Included by the prelude BEFORE <cmath>, so that libc++'s `using ::sqrt;`
 * in namespace std also brings in these device overloads (std::sqrt works in
 * kernels).  Host code keeps using the host declarations from <cmath>.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_MATH_FUNCTIONS_H
#define CUDALINT_MATH_FUNCTIONS_H

/* f(x): C float name fnf, C double name fn, and the C++ float overload fn */
#define CUDALINT_MATH1(fn)                                                     \
  extern "C" __device__ float fn##f(float);                                    \
  extern "C" __device__ double fn(double);                                     \
  __device__ float fn(float);
#define CUDALINT_MATH2(fn)                                                     \
  extern "C" __device__ float fn##f(float, float);                             \
  extern "C" __device__ double fn(double, double);                             \
  __device__ float fn(float, float);

CUDALINT_MATH1(sqrt) CUDALINT_MATH1(cbrt) CUDALINT_MATH1(exp)
CUDALINT_MATH1(exp2) CUDALINT_MATH1(expm1) CUDALINT_MATH1(log)
CUDALINT_MATH1(log2) CUDALINT_MATH1(log10) CUDALINT_MATH1(log1p)
CUDALINT_MATH1(logb) CUDALINT_MATH1(sin) CUDALINT_MATH1(cos)
CUDALINT_MATH1(tan) CUDALINT_MATH1(asin) CUDALINT_MATH1(acos)
CUDALINT_MATH1(atan) CUDALINT_MATH1(sinh) CUDALINT_MATH1(cosh)
CUDALINT_MATH1(tanh) CUDALINT_MATH1(asinh) CUDALINT_MATH1(acosh)
CUDALINT_MATH1(atanh) CUDALINT_MATH1(fabs) CUDALINT_MATH1(floor)
CUDALINT_MATH1(ceil) CUDALINT_MATH1(trunc) CUDALINT_MATH1(round)
CUDALINT_MATH1(rint) CUDALINT_MATH1(nearbyint) CUDALINT_MATH1(erf)
CUDALINT_MATH1(erfc) CUDALINT_MATH1(tgamma) CUDALINT_MATH1(lgamma)
CUDALINT_MATH2(pow) CUDALINT_MATH2(atan2) CUDALINT_MATH2(fmin)
CUDALINT_MATH2(fmax) CUDALINT_MATH2(fmod) CUDALINT_MATH2(hypot)
CUDALINT_MATH2(fdim) CUDALINT_MATH2(copysign) CUDALINT_MATH2(remainder)
CUDALINT_MATH2(nextafter)
#undef CUDALINT_MATH1
#undef CUDALINT_MATH2
/* pow with an integer exponent (math_functions.hpp's float/double overloads), and for any other mix of arithmetic
 * types the double one, as <cmath>'s template promotes them (`pow(2, level)`, `pow(10000, x)` with a float x: an
 * exact-match template, so neither is ambiguous) */
__device__ float pow(float, int);
__device__ double pow(double, int);
template <class T> struct __cudalint_arithmetic { enum { value = 0 }; };
#define CUDALINT_ARITHMETIC(T) template <> struct __cudalint_arithmetic<T> { enum { value = 1 }; };
CUDALINT_ARITHMETIC(bool) CUDALINT_ARITHMETIC(char) CUDALINT_ARITHMETIC(signed char)
CUDALINT_ARITHMETIC(unsigned char) CUDALINT_ARITHMETIC(short) CUDALINT_ARITHMETIC(unsigned short)
CUDALINT_ARITHMETIC(int) CUDALINT_ARITHMETIC(unsigned) CUDALINT_ARITHMETIC(long) CUDALINT_ARITHMETIC(unsigned long)
CUDALINT_ARITHMETIC(long long) CUDALINT_ARITHMETIC(unsigned long long) CUDALINT_ARITHMETIC(float)
CUDALINT_ARITHMETIC(double)
#undef CUDALINT_ARITHMETIC
template <bool B, class T> struct __cudalint_enable_if {};
template <class T> struct __cudalint_enable_if<true, T> { typedef T type; };
template <class A, class B>
__device__ typename __cudalint_enable_if<__cudalint_arithmetic<A>::value && __cudalint_arithmetic<B>::value,
                                         double>::type pow(A, B);
/* an integer argument: <cmath>'s constexpr template promotes it to double, which nvcc lets device code call with
 * --expt-relaxed-constexpr (every PyTorch extension's flag: princeton-vl/RAFT's `sqrt(fmap.size(2))`); without it
 * the call was "ambiguous" between the float and double overloads and the kernel only partly modelled */
template <class T> struct __cudalint_integral { enum { value = __cudalint_arithmetic<T>::value }; };
template <> struct __cudalint_integral<float> { enum { value = 0 }; };
template <> struct __cudalint_integral<double> { enum { value = 0 }; };
#define CUDALINT_MATH1_INT(fn)                                                 \
  template <class T>                                                           \
  __device__ typename __cudalint_enable_if<__cudalint_integral<T>::value, double>::type fn(T);
CUDALINT_MATH1_INT(sqrt) CUDALINT_MATH1_INT(cbrt) CUDALINT_MATH1_INT(exp)
CUDALINT_MATH1_INT(exp2) CUDALINT_MATH1_INT(expm1) CUDALINT_MATH1_INT(log)
CUDALINT_MATH1_INT(log2) CUDALINT_MATH1_INT(log10) CUDALINT_MATH1_INT(log1p)
CUDALINT_MATH1_INT(sin) CUDALINT_MATH1_INT(cos) CUDALINT_MATH1_INT(tan)
CUDALINT_MATH1_INT(floor) CUDALINT_MATH1_INT(ceil) CUDALINT_MATH1_INT(round)
#undef CUDALINT_MATH1_INT

extern "C" {
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ float ldexpf(float, int);
__device__ double ldexp(double, int);
__device__ float frexpf(float, int *);
__device__ double frexp(double, int *);
__device__ float modff(float, float *);
__device__ double modf(double, double *);
__device__ float scalbnf(float, int);
__device__ double scalbn(double, int);
__device__ long lrintf(float);
__device__ long lroundf(float);
__device__ long long llrintf(float);
__device__ long long llroundf(float);
__device__ long lrint(double);
__device__ long lround(double);
__device__ void sincosf(float, float *, float *);
__device__ void sincos(double, double *, double *);
/* CUDA-only functions */
__device__ float rsqrtf(float);
__device__ double rsqrt(double);
__device__ float rcbrtf(float);
__device__ double rcbrt(double);
__device__ float exp10f(float);
__device__ double exp10(double);
__device__ float sinpif(float);
__device__ float cospif(float);
__device__ void sincospif(float, float *, float *);
__device__ double sinpi(double);
__device__ double cospi(double);
__device__ float erfinvf(float);
__device__ double erfinv(double);
__device__ float erfcinvf(float);
__device__ float normcdff(float);
__device__ float normcdfinvf(float);
__device__ float norm3df(float, float, float);
__device__ float rnorm3df(float, float, float);
__device__ float rhypotf(float, float);
__device__ float fdividef(float, float);
}
__device__ float fma(float, float, float);
__device__ float ldexp(float, int);
__device__ float frexp(float, int *);
__device__ float modf(float, float *);
__device__ float abs(float);
__device__ double abs(double);
__device__ long long abs(long long);
__device__ long abs(long);
__device__ float rsqrt(float);
__device__ bool signbit(float);
__device__ bool signbit(double);
__device__ bool isnan(float);
__device__ bool isnan(double);
__device__ bool isinf(float);
__device__ bool isinf(double);
__device__ bool isfinite(float);
__device__ bool isfinite(double);

/* fast-math intrinsics */
__device__ float __expf(float);
__device__ float __exp10f(float);
__device__ float __logf(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ double __fdivide(double, double);
__device__ float __saturatef(float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __fadd_rn(float, float);
__device__ float __fadd_rz(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fmul_rz(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __fmaf_rz(float, float, float);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __fma_rn(double, double, double);
__device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double);

/* integer min/max (CUDA declares these in the global namespace) */
#define CUDALINT_MINMAX(T)                                                     \
  __host__ __device__ T min(T, T);                                             \
  __host__ __device__ T max(T, T);
CUDALINT_MINMAX(int) CUDALINT_MINMAX(unsigned int) CUDALINT_MINMAX(long)
CUDALINT_MINMAX(unsigned long) CUDALINT_MINMAX(long long)
CUDALINT_MINMAX(unsigned long long) CUDALINT_MINMAX(float)
CUDALINT_MINMAX(double)
#undef CUDALINT_MINMAX
/* the named integer forms of CUDA's math API */
__device__ unsigned int umin(unsigned int, unsigned int);
__device__ unsigned int umax(unsigned int, unsigned int);
__device__ long long llmin(long long, long long);
__device__ long long llmax(long long, long long);
__device__ unsigned long long ullmin(unsigned long long, unsigned long long);
__device__ unsigned long long ullmax(unsigned long long, unsigned long long);
/* mixed signed/unsigned forms exist in CUDA too */
__host__ __device__ unsigned int min(int, unsigned int);
__host__ __device__ unsigned int min(unsigned int, int);
__host__ __device__ unsigned int max(int, unsigned int);
__host__ __device__ unsigned int max(unsigned int, int);
__host__ __device__ double min(float, double);
__host__ __device__ double min(double, float);
__host__ __device__ double max(float, double);
__host__ __device__ double max(double, float);

#endif /* CUDALINT_MATH_FUNCTIONS_H */
