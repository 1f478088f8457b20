/* cooperative_groups.h -- stands in for CUDA's cooperative_groups.h: the
 * group types (thread_block, thread_block_tile<N>, coalesced_group,
 * grid_group, cluster_group), the functions that create them and the free
 * sync()/thread_rank()/group_size() helpers.  Declarations only.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_COOPERATIVE_GROUPS_H
#define CUDALINT_COOPERATIVE_GROUPS_H

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
};

class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
__device__ thread_block this_thread_block();
/* scratch memory for tiles larger than a warp (CUDA 11.1+): this_thread_block(scratch) */
template <unsigned int MaxBlockSize, unsigned int TileCommunicationSize = 8> struct block_tile_memory {
  unsigned char scratch[1];
};
template <unsigned int N, unsigned int C>
__device__ thread_block this_thread_block(block_tile_memory<N, C>& scratch);

/* operations shared by warp-sized groups (tiles and coalesced groups) */
class __cudalint_warp_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int srcRank) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
  template <class T> __device__ unsigned int match_any(T val) const;
  template <class T> __device__ unsigned int match_all(T val, int &pred) const;
};

template <unsigned int Size, class ParentT = void>
class thread_block_tile : public thread_block_tile<Size, void> {};
template <unsigned int Size>
class thread_block_tile<Size, void> : public __cudalint_warp_group {
public:
  static constexpr unsigned int num_threads_value = Size;
};

template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent, unsigned int tilesz);

class coalesced_group : public __cudalint_warp_group {};
__device__ coalesced_group coalesced_threads();
template <class ParentT>
__device__ coalesced_group binary_partition(const ParentT &g, bool pred);
template <class ParentT, class T>
__device__ coalesced_group labeled_partition(const ParentT &g, T label);

class grid_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long block_rank() const;
};
__device__ grid_group this_grid();

class cluster_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int num_blocks() const;
  __device__ unsigned int block_rank() const;
  __device__ dim3 block_index() const;
  __device__ dim3 dim_blocks() const;
  template <class T> __device__ T *map_shared_rank(T *addr, int rank) const;
};
__device__ cluster_group this_cluster();

template <class GroupT> __device__ void sync(const GroupT &g);
template <class GroupT> __device__ unsigned long long thread_rank(const GroupT &g);
template <class GroupT> __device__ unsigned long long group_size(const GroupT &g);
template <class GroupT> __device__ unsigned long long num_threads(const GroupT &g);

} // namespace cooperative_groups

#endif /* CUDALINT_COOPERATIVE_GROUPS_H */
