// CUB's block, warp and device collectives as kernels use them (TempStorage in shared memory, a union of
// several, user vector types in the reduction), and cuRAND's host API around them.
#include <cub/cub.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/thread/thread_search.cuh>
#include <curand.h>

struct Pair { double a, b; };
__device__ Pair operator+(const Pair &x, const Pair &y) { return Pair{x.a + y.a, x.b + y.b}; }

// a thread's binary search in a sorted row (DGL's weighted sampling)
__global__ void searches(const float *cdf, long long *out, long long deg, float r) {
  long long hi = cub::UpperBound<const float *, long long, float>(cdf, deg, r);
  out[threadIdx.x] = hi - cub::LowerBound(cdf, deg, r);
}

template <int THREADS> __global__ void collectives(const int *in, int *out, Pair *pairs) {
  typedef cub::BlockScan<int, THREADS> Scan;
  typedef cub::BlockReduce<int, THREADS> Reduce;
  typedef cub::BlockReduce<Pair, THREADS> ReducePairs;
  typedef cub::WarpReduce<int> Warp;
  typedef cub::BlockLoad<int, THREADS, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockRadixSort<int, THREADS, 4> Sort;
  union Storage {
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
    typename ReducePairs::TempStorage pairs;
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
  };
  __shared__ Storage smem;
  __shared__ typename Warp::TempStorage warp[THREADS / 32];
  int items[4];
  Load(smem.load).Load(in + blockIdx.x * THREADS * 4, items);
  __syncthreads();
  Sort(smem.sort).Sort(items);
  __syncthreads();
  int prefix, total;
  Scan(smem.scan).ExclusiveSum(items[0], prefix, total);
  __syncthreads();
  int sum = Reduce(smem.reduce).Sum(prefix);
  int best = Reduce(smem.reduce).Reduce(prefix, cub::Max(), THREADS);
  Pair p = ReducePairs(smem.pairs).Sum(pairs[threadIdx.x]);
  int lane_sum = Warp(warp[threadIdx.x / 32]).Sum(items[1]);
  if (threadIdx.x == 0) out[blockIdx.x] = sum + best + total + lane_sum + (int)p.a;
}

int main() {
  int *d_in = nullptr, *d_out = nullptr;
  void *d_temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, 1024);
  cub::DeviceScan::ExclusiveSum(d_temp, bytes, d_in, d_out, 1024, (cudaStream_t)0);
  cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, 1024);
  collectives<256><<<4, 256>>>(d_in, d_out, nullptr);
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  double *d_x = nullptr;
  curandGenerateNormalDouble(gen, d_x, 1024, 0.0, 1.0);
  curandDestroyGenerator(gen);
  return 0;
}
