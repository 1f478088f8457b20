/* cooperative_groups/scan.h -- stands in for CUDA's header of the same name:
 * cooperative_groups::inclusive_scan / exclusive_scan.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CG_SCAN_H
#define CUDALINT_CG_SCAN_H

#include "reduce.h"

namespace cooperative_groups {
template <class GroupT, class T>
__device__ T inclusive_scan(const GroupT &group, T val);
template <class GroupT, class T, class Op>
__device__ T inclusive_scan(const GroupT &group, T val, Op op);
template <class GroupT, class T>
__device__ T exclusive_scan(const GroupT &group, T val);
template <class GroupT, class T, class Op>
__device__ T exclusive_scan(const GroupT &group, T val, Op op);
} // namespace cooperative_groups

#endif /* CUDALINT_CG_SCAN_H */
