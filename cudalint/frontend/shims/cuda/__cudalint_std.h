/* cuda::std as the host C++ library's std (libcu++ gives the same names for device code). */
#ifndef CUDALINT_CUDA_STD
#define CUDALINT_CUDA_STD
namespace cuda { namespace std { using namespace ::std; } }
#endif
