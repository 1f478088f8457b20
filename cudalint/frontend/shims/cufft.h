/* cufft.h -- stands in for cuFFT's cufft.h: the value and handle types and
 * the plan / exec / stream API as the cuFFT documentation gives them (the
 * kernels that pre- and post-process FFT data take cufftComplex / cufftReal).
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUFFT_H
#define CUDALINT_CUFFT_H

#include "cuComplex.h"

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
typedef int cufftHandle;
typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0, CUFFT_INVALID_PLAN = 1, CUFFT_ALLOC_FAILED = 2, CUFFT_INVALID_TYPE = 3,
  CUFFT_INVALID_VALUE = 4, CUFFT_INTERNAL_ERROR = 5, CUFFT_EXEC_FAILED = 6, CUFFT_SETUP_FAILED = 7,
  CUFFT_INVALID_SIZE = 8, CUFFT_UNALIGNED_DATA = 9, CUFFT_INVALID_DEVICE = 11, CUFFT_NO_WORKSPACE = 13,
  CUFFT_NOT_IMPLEMENTED = 14, CUFFT_NOT_SUPPORTED = 16
} cufftResult;
typedef enum cufftType_t {
  CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69
} cufftType;
#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

cufftResult cufftCreate(cufftHandle *plan);
cufftResult cufftDestroy(cufftHandle plan);
cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type);
cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type);
cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist,
                          int *onembed, int ostride, int odist, cufftType type, int batch);
cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize);
cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize);
cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize);
cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                              int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workSize);
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream);
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea);
cufftResult cufftGetSize(cufftHandle plan, size_t *workSize);
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata);
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction);
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata);
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata);
cufftResult cufftGetVersion(int *version);

#endif /* CUDALINT_CUFFT_H */
