/* cooperative_groups/reduce.h -- stands in for CUDA's header of the same name:
 * cooperative_groups::reduce and the function objects plus, less, greater,
 * bit_and, bit_or, bit_xor.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CG_REDUCE_H
#define CUDALINT_CG_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus { __device__ T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(const T &a, const T &b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(const T &a, const T &b) const { return a ^ b; } };

template <class GroupT, class T, class Op>
__device__ T reduce(const GroupT &group, T val, Op op);
template <class GroupT, class T, class Op>
__device__ void reduce_update_async(const GroupT &group, T &dst, const T &val, Op op);
template <class GroupT, class T, class Op>
__device__ void reduce_store_async(const GroupT &group, T *dst, const T &val, Op op);

} // namespace cooperative_groups

#endif /* CUDALINT_CG_REDUCE_H */
