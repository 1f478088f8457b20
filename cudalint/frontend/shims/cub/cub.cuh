/* cub/cub.cuh -- stands in for CUB: the block-, warp- and device-wide collectives (BlockReduce, BlockScan,
 * BlockLoad, BlockStore, BlockExchange, BlockRadixSort, WarpReduce, WarpScan, DeviceReduce, DeviceScan, DeviceRadixSort,
 * DeviceSelect), their TempStorage types and the common operators.  Declarations only: cudalint does not model
 * what a collective does inside (its shared-memory accesses and barriers are CUB's, not the caller's); the
 * member functions take any arguments so that every overload of the real library parses.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_CUB_CUH
#define CUDALINT_CUB_CUH

#include <cuda_runtime_api.h>
#include <cfloat>   /* CUB's util_type.cuh brings FLT_MAX and the like to every includer */
#include <climits>

namespace cub {
struct Sum { template <class T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T &a, const T &b) const; };
template <class K, class V> struct KeyValuePair { K key; V value; };
struct ArgMax { template <class T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct ArgMin { template <class T> __host__ __device__ T operator()(const T &a, const T &b) const; };
struct NullType {};

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };

/* the scratch a collective keeps in shared memory: one T per warp is a lower bound of CUB's.  Raw bytes, as
 * CUB's Uninitialized<> is: a T with a constructor (default member initializers) may be a __shared__ collective's
 * item type, and a __shared__ variable cannot have a non-trivial constructor. */
template <class T, int THREADS> struct __cudalint_temp_storage {
  alignas(T) unsigned char bytes[sizeof(T) * ((THREADS + 31) / 32 + 1)];
};

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  typedef __cudalint_temp_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> TempStorage;
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage &temp_storage);
  template <class... A> __device__ T Sum(A &&...args);
  template <class... A> __device__ T Reduce(A &&...args);
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
public:
  typedef __cudalint_temp_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> TempStorage;
  __device__ BlockScan();
  __device__ BlockScan(TempStorage &temp_storage);
  template <class... A> __device__ void ExclusiveSum(A &&...args);
  template <class... A> __device__ void InclusiveSum(A &&...args);
  template <class... A> __device__ void ExclusiveScan(A &&...args);
  template <class... A> __device__ void InclusiveScan(A &&...args);
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
public:
  typedef __cudalint_temp_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockLoad();
  __device__ BlockLoad(TempStorage &temp_storage);
  template <class... A> __device__ void Load(A &&...args);
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
public:
  typedef __cudalint_temp_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockStore();
  __device__ BlockStore(TempStorage &temp_storage);
  template <class... A> __device__ void Store(A &&...args);
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
public:
  typedef __cudalint_temp_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockExchange();
  __device__ BlockExchange(TempStorage &temp_storage);
  template <class... A> __device__ void BlockedToStriped(A &&...args);
  template <class... A> __device__ void StripedToBlocked(A &&...args);
  template <class... A> __device__ void BlockedToWarpStriped(A &&...args);
  template <class... A> __device__ void WarpStripedToBlocked(A &&...args);
  template <class... A> __device__ void ScatterToBlocked(A &&...args);
  template <class... A> __device__ void ScatterToStriped(A &&...args);
};

template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
public:
  typedef __cudalint_temp_storage<KeyT, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * ITEMS_PER_THREAD> TempStorage;
  __device__ BlockRadixSort();
  __device__ BlockRadixSort(TempStorage &temp_storage);
  template <class... A> __device__ void Sort(A &&...args);
  template <class... A> __device__ void SortDescending(A &&...args);
  template <class... A> __device__ void SortBlockedToStriped(A &&...args);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpReduce {
public:
  typedef __cudalint_temp_storage<T, LOGICAL_WARP_THREADS> TempStorage;
  __device__ WarpReduce(TempStorage &temp_storage);
  template <class... A> __device__ T Sum(A &&...args);
  template <class... A> __device__ T Reduce(A &&...args);
  template <class... A> __device__ T HeadSegmentedSum(A &&...args);
  template <class... A> __device__ T TailSegmentedSum(A &&...args);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpScan {
public:
  typedef __cudalint_temp_storage<T, LOGICAL_WARP_THREADS> TempStorage;
  __device__ WarpScan(TempStorage &temp_storage);
  template <class... A> __device__ void ExclusiveSum(A &&...args);
  template <class... A> __device__ void InclusiveSum(A &&...args);
  template <class... A> __device__ void ExclusiveScan(A &&...args);
  template <class... A> __device__ void InclusiveScan(A &&...args);
  template <class... A> __device__ T Broadcast(A &&...args);
};

/* CUB's utilities that code building its own collectives uses (Mamba's reverse scan): Uninitialized<T> (raw
 * storage aliasing a T), Log2<N>::VALUE (ceil log2), the lane mask of a logical warp, a block's row-major thread
 * rank (written out, so the thread's index is seen), warp shuffles (declared: opaque values), and the raking
 * layout of CUB's block scan as its documentation describes it: a block's T items in segments of
 * SEGMENT_LENGTH = ceil(threads / min(threads, 32)), one per raking thread, an even segment longer than 2 padded by
 * one item (PlacementPtr: thread i's item; RakingPtr: raking thread i's segment). */
template <class T> struct Uninitialized {
  alignas(T) unsigned char storage[sizeof(T)];
  __host__ __device__ T &Alias() { return reinterpret_cast<T &>(*this); }
};
template <int N, int CURRENT = N, int COUNT = 0> struct Log2 {
  enum { VALUE = Log2<N, (CURRENT >> 1), COUNT + 1>::VALUE };
};
template <int N, int COUNT> struct Log2<N, 0, COUNT> {
  enum { VALUE = (1 << (COUNT - 1) < N) ? COUNT : COUNT - 1 };
};
template <int LOGICAL_WARP_THREADS> __host__ __device__ inline unsigned int WarpMask(unsigned int warp_id) {
  return LOGICAL_WARP_THREADS == 32 ? 0xffffffffu
                                    : (((1u << LOGICAL_WARP_THREADS) - 1u) << (LOGICAL_WARP_THREADS * (warp_id % (32 / LOGICAL_WARP_THREADS))));
}
__device__ inline int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
  return (block_dim_z == 1 ? 0 : threadIdx.z * block_dim_x * block_dim_y) +
         (block_dim_y == 1 ? 0 : threadIdx.y * block_dim_x) + threadIdx.x;
}
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
template <int LOGICAL_WARP_THREADS, class T> __device__ T ShuffleIndex(T input, int src_lane, unsigned int member_mask);
template <int LOGICAL_WARP_THREADS, class T>
__device__ T ShuffleDown(T input, int src_offset, int last_thread, unsigned int member_mask);
template <int LOGICAL_WARP_THREADS, class T>
__device__ T ShuffleUp(T input, int src_offset, int first_thread, unsigned int member_mask);
template <class T, int BLOCK_THREADS, int LEGACY_PTX_ARCH = 0> struct BlockRakingLayout {
  enum {
    SHARED_ELEMENTS = BLOCK_THREADS,
    MAX_RAKING_THREADS = BLOCK_THREADS < 32 ? BLOCK_THREADS : 32,
    SEGMENT_LENGTH = (SHARED_ELEMENTS + MAX_RAKING_THREADS - 1) / MAX_RAKING_THREADS,
    RAKING_THREADS = (SHARED_ELEMENTS + SEGMENT_LENGTH - 1) / SEGMENT_LENGTH,
    USE_SEGMENT_PADDING = ((SEGMENT_LENGTH & 1) == 0) && (SEGMENT_LENGTH > 2),
    GRID_ELEMENTS = RAKING_THREADS * (SEGMENT_LENGTH + USE_SEGMENT_PADDING),
    UNGUARDED = (SHARED_ELEMENTS % RAKING_THREADS == 0),
  };
  struct alignas(16) _TempStorage { T buff[GRID_ELEMENTS]; };
  struct TempStorage : Uninitialized<_TempStorage> {};
  __device__ static T *PlacementPtr(TempStorage &temp_storage, unsigned int linear_tid) {
    unsigned int offset = linear_tid + (USE_SEGMENT_PADDING ? linear_tid / SEGMENT_LENGTH : 0);
    return temp_storage.Alias().buff + offset;
  }
  __device__ static T *RakingPtr(TempStorage &temp_storage, unsigned int linear_tid) {
    return temp_storage.Alias().buff + linear_tid * (SEGMENT_LENGTH + USE_SEGMENT_PADDING);
  }
};
/* cub/thread/thread_search.cuh: binary searches over a sorted range (opaque: the loads depend on the data) */
template <class InputIteratorT, class OffsetT, class T>
__device__ OffsetT LowerBound(InputIteratorT input, OffsetT num_items, T val);
template <class InputIteratorT, class OffsetT, class T>
__device__ OffsetT UpperBound(InputIteratorT input, OffsetT num_items, T val);

/* device-wide algorithms: host calls, first with d_temp_storage = NULL to size the scratch */
#define CUDALINT_CUB_ENTRY(name) template <class... A> __host__ static cudaError_t name(A &&...args);
struct DeviceReduce {
  CUDALINT_CUB_ENTRY(Sum) CUDALINT_CUB_ENTRY(Max) CUDALINT_CUB_ENTRY(Min) CUDALINT_CUB_ENTRY(ArgMax)
  CUDALINT_CUB_ENTRY(ArgMin) CUDALINT_CUB_ENTRY(Reduce) CUDALINT_CUB_ENTRY(ReduceByKey)
};
struct DeviceScan {
  CUDALINT_CUB_ENTRY(ExclusiveSum) CUDALINT_CUB_ENTRY(InclusiveSum) CUDALINT_CUB_ENTRY(ExclusiveScan)
  CUDALINT_CUB_ENTRY(InclusiveScan) CUDALINT_CUB_ENTRY(ExclusiveSumByKey) CUDALINT_CUB_ENTRY(InclusiveSumByKey)
};
struct DeviceRadixSort {
  CUDALINT_CUB_ENTRY(SortKeys) CUDALINT_CUB_ENTRY(SortKeysDescending) CUDALINT_CUB_ENTRY(SortPairs)
  CUDALINT_CUB_ENTRY(SortPairsDescending)
};
struct DeviceSelect {
  CUDALINT_CUB_ENTRY(If) CUDALINT_CUB_ENTRY(Flagged) CUDALINT_CUB_ENTRY(Unique)
};
struct DeviceSegmentedReduce {
  CUDALINT_CUB_ENTRY(Sum) CUDALINT_CUB_ENTRY(Max) CUDALINT_CUB_ENTRY(Min) CUDALINT_CUB_ENTRY(Reduce)
};
struct DeviceHistogram {
  CUDALINT_CUB_ENTRY(HistogramEven) CUDALINT_CUB_ENTRY(HistogramRange)
};
#undef CUDALINT_CUB_ENTRY
} // namespace cub

#endif /* CUDALINT_CUB_CUH */
