/* cooperative_groups/memcpy_async.h -- stands in for CUDA's header of the same
 * name: group-wide asynchronous copies into shared memory and wait().
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CG_MEMCPY_ASYNC_H
#define CUDALINT_CG_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class GroupT>
__device__ void memcpy_async(const GroupT &group, void *dst, const void *src, size_t count);
template <class GroupT, class T>
__device__ void memcpy_async(const GroupT &group, T *dst, const T *src, size_t count);
template <class GroupT> __device__ void wait(const GroupT &group);
template <unsigned int N, class GroupT> __device__ void wait_prior(const GroupT &group);
} // namespace cooperative_groups

#endif /* CUDALINT_CG_MEMCPY_ASYNC_H */
