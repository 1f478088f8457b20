/* fallback/math.h -- minimal <math.h> (host libm declarations, the float
 * overloads C++ adds, classification functions, constants), used only when
 * the platform has no C library.  Device overloads are in math_functions.h. */
#ifndef CUDALINT_FALLBACK_MATH_H
#define CUDALINT_FALLBACK_MATH_H

#define CUDALINT_HOST_MATH1(fn)                                                \
  extern "C" float fn##f(float);                                               \
  extern "C" double fn(double);                                                \
  float fn(float);
#define CUDALINT_HOST_MATH2(fn)                                                \
  extern "C" float fn##f(float, float);                                        \
  extern "C" double fn(double, double);                                        \
  float fn(float, float);
#define CUDALINT_HOST_MATH_LIST(M1, M2)                                        \
  M1(sqrt) M1(cbrt) M1(exp) M1(exp2) M1(expm1) M1(log) M1(log2) M1(log10)      \
  M1(log1p) M1(logb) M1(sin) M1(cos) M1(tan) M1(asin) M1(acos) M1(atan)        \
  M1(sinh) M1(cosh) M1(tanh) M1(asinh) M1(acosh) M1(atanh) M1(fabs) M1(floor)  \
  M1(ceil) M1(trunc) M1(round) M1(rint) M1(nearbyint) M1(erf) M1(erfc)         \
  M1(tgamma) M1(lgamma) M2(pow) M2(atan2) M2(fmin) M2(fmax) M2(fmod) M2(hypot) \
  M2(fdim) M2(copysign) M2(remainder) M2(nextafter)
CUDALINT_HOST_MATH_LIST(CUDALINT_HOST_MATH1, CUDALINT_HOST_MATH2)

extern "C" {
float fmaf(float, float, float);
double fma(double, double, double);
float ldexpf(float, int);
double ldexp(double, int);
float frexpf(float, int *);
double frexp(double, int *);
float modff(float, float *);
double modf(double, double *);
long lrintf(float);
long lroundf(float);
long lrint(double);
long lround(double);
}
float fma(float, float, float);
float ldexp(float, int);
float abs(float);
double abs(double);
bool isnan(float);
bool isnan(double);
bool isinf(float);
bool isinf(double);
bool isfinite(float);
bool isfinite(double);
bool signbit(float);
bool signbit(double);

#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
