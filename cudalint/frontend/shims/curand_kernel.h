/* curand_kernel.h -- stands in for cuRAND's device API (cuRAND documentation, "Device API Overview"): the
 * generator states and the functions kernels call on them.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CURAND_KERNEL_H
#define CUDALINT_CURAND_KERNEL_H

struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag, boxmuller_flag_double;
                           float boxmuller_extra; double boxmuller_extra_double; };
struct curandStatePhilox4_32_10 { uint4 ctr, output; uint2 key; unsigned int STATE; int boxmuller_flag,
                                  boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateMRG32k3a { double s1[3], s2[3]; int boxmuller_flag, boxmuller_flag_double;
                             float boxmuller_extra; double boxmuller_extra_double; };
struct curandStateSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateScrambledSobol32 { unsigned int i, x, c; unsigned int direction_vectors[32]; };
struct curandStateSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
struct curandStateScrambledSobol64 { unsigned long long i, x, c; unsigned long long direction_vectors[64]; };
struct curandStateMtgp32 { unsigned int s[1024]; int offset, pIdx; void *k; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef unsigned int *curandDirectionVectors32_t;
typedef unsigned long long *curandDirectionVectors64_t;
struct curandDiscreteDistribution_st;
typedef struct curandDiscreteDistribution_st *curandDiscreteDistribution_t;

#define CUDALINT_CURAND_FOR_EACH_STATE(X) X(curandStateXORWOW) X(curandStatePhilox4_32_10) X(curandStateMRG32k3a) \
  X(curandStateSobol32) X(curandStateScrambledSobol32) X(curandStateSobol64) X(curandStateScrambledSobol64) \
  X(curandStateMtgp32)
#define CUDALINT_CURAND_DRAWS(S)                                                    \
  __device__ unsigned int curand(struct S *state);                                 \
  __device__ float curand_uniform(struct S *state);                                \
  __device__ double curand_uniform_double(struct S *state);                        \
  __device__ float curand_normal(struct S *state);                                 \
  __device__ double curand_normal_double(struct S *state);                         \
  __device__ float2 curand_normal2(struct S *state);                               \
  __device__ double2 curand_normal2_double(struct S *state);                       \
  __device__ float curand_log_normal(struct S *state, float mean, float stddev);   \
  __device__ double curand_log_normal_double(struct S *state, double mean, double stddev); \
  __device__ unsigned int curand_poisson(struct S *state, double lambda);          \
  __device__ unsigned int curand_discrete(struct S *state, curandDiscreteDistribution_t d);
CUDALINT_CURAND_FOR_EACH_STATE(CUDALINT_CURAND_DRAWS)
#undef CUDALINT_CURAND_DRAWS
#undef CUDALINT_CURAND_FOR_EACH_STATE
__device__ uint4 curand4(struct curandStatePhilox4_32_10 *state);
__device__ float4 curand_uniform4(struct curandStatePhilox4_32_10 *state);
__device__ float4 curand_normal4(struct curandStatePhilox4_32_10 *state);
__device__ double2 curand_uniform2_double(struct curandStatePhilox4_32_10 *state);
__device__ double2 curand_normal4_double(struct curandStatePhilox4_32_10 *state);

__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            struct curandStateXORWOW *state);
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            struct curandStatePhilox4_32_10 *state);
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                            struct curandStateMRG32k3a *state);
__device__ void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                            struct curandStateSobol32 *state);
__device__ void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                            struct curandStateSobol64 *state);
__device__ void skipahead(unsigned long long n, struct curandStateXORWOW *state);
__device__ void skipahead(unsigned long long n, struct curandStatePhilox4_32_10 *state);
__device__ void skipahead_sequence(unsigned long long n, struct curandStateXORWOW *state);

#endif /* CUDALINT_CURAND_KERNEL_H */
