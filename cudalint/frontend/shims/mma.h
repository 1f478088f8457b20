/* mma.h -- stands in for CUDA's warp matrix functions (CUDA C++ Programming Guide, "Warp Matrix Functions"):
 * nvcuda::wmma fragments and the warp-wide load, store, fill and multiply-accumulate calls.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_MMA_H
#define CUDALINT_MMA_H

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision { struct tf32 {}; }
namespace experimental {
namespace precision { struct u4 {}; struct s4 {}; struct b1 {}; }
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}

template <class T> struct __cudalint_element { typedef T type; };
template <> struct __cudalint_element<precision::tf32> { typedef float type; };
template <> struct __cudalint_element<experimental::precision::u4> { typedef int type; };
template <> struct __cudalint_element<experimental::precision::s4> { typedef int type; };
template <> struct __cudalint_element<experimental::precision::b1> { typedef int type; };

template <class Use, int m, int n, int k, class T, class Layout = void>
class fragment {
 public:
  typedef typename __cudalint_element<T>::type element_type;
  enum { num_elements = 8 };
  element_type x[num_elements];
};

template <class Use, int m, int n, int k, class T, class Layout, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const P *mptr, unsigned ldm);
template <class Use, int m, int n, int k, class T, class Layout, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const P *mptr, unsigned ldm, layout_t layout);
template <int m, int n, int k, class T, class P>
__device__ void store_matrix_sync(P *mptr, const fragment<accumulator, m, n, k, T> &a, unsigned ldm, layout_t layout);
template <class Use, int m, int n, int k, class T, class Layout, class V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a, const V &v);
template <int m, int n, int k, class TA, class LA, class TB, class LB, class TC, class TD>
__device__ void mma_sync(fragment<accumulator, m, n, k, TD> &d, const fragment<matrix_a, m, n, k, TA, LA> &a,
                         const fragment<matrix_b, m, n, k, TB, LB> &b, const fragment<accumulator, m, n, k, TC> &c,
                         bool satf = false);
template <int m, int n, int k, class LA, class LB>
__device__ void bmma_sync(fragment<accumulator, m, n, k, int> &d,
                          const fragment<matrix_a, m, n, k, experimental::precision::b1, LA> &a,
                          const fragment<matrix_b, m, n, k, experimental::precision::b1, LB> &b,
                          const fragment<accumulator, m, n, k, int> &c,
                          experimental::bmmaBitOp = experimental::bmmaBitOpXOR,
                          experimental::bmmaAccumulateOp = experimental::bmmaAccumulateOpPOPC);
__device__ float __float_to_tf32(float in);
}  // namespace wmma
}  // namespace nvcuda

#endif /* CUDALINT_MMA_H */
