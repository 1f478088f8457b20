// A reverse scan built from CUB's raking layout, as Mamba's selective scan builds one (written for the test)
// cudalint-test: platform-only
// (the torch stand-in includes <optional>, which needs the platform C library)
#include <cub/block/block_exchange.cuh>
#include <c10/util/complex.h>
template <int THREADS> struct ReverseScan {
  using Layout = cub::BlockRakingLayout<float, THREADS>;
  static constexpr int STEPS = cub::Log2<32>::VALUE;
  struct _TempStorage { typename Layout::TempStorage grid; float total; };
  struct TempStorage : cub::Uninitialized<_TempStorage> {};
  _TempStorage &storage;
  int tid;
  __device__ ReverseScan(TempStorage &s) : storage(s.Alias()), tid(cub::RowMajorTid(THREADS, 1, 1)) {}
  __device__ float Sum(float v) {
    *Layout::PlacementPtr(storage.grid, tid) = v;
    __syncthreads();
    float acc = 0.f;
    if (tid < Layout::RAKING_THREADS) {
      float *seg = Layout::RakingPtr(storage.grid, tid);
      for (int i = 0; i < Layout::SEGMENT_LENGTH; ++i) acc += seg[i];
      for (int s = 0; s < STEPS; ++s) acc += cub::ShuffleDown<32>(acc, 1 << s, 31, 0xffffffffu);
    }
    return acc;
  }
};
__global__ void reduce_rows(const float *x, float *out, c10::complex<float> *z) {
  __shared__ typename ReverseScan<128>::TempStorage scan;
  __shared__ typename cub::BlockExchange<float, 128, 4>::TempStorage exchange;
  float items[4];
  for (int i = 0; i < 4; ++i) items[i] = x[blockIdx.x * 512 + threadIdx.x * 4 + i];
  cub::BlockExchange<float, 128, 4>(exchange).BlockedToStriped(items, items);
  float total = ReverseScan<128>(scan).Sum(items[0]);
  c10::complex<float> w = std::conj(z[blockIdx.x * 128 + threadIdx.x]) * total;
  z[blockIdx.x * 128 + threadIdx.x] = w;
  if (threadIdx.x == 0) out[blockIdx.x] = total + w.real_;
}
void run(const float *x, float *o, c10::complex<float> *z) { reduce_rows<<<64, 128>>>(x, o, z); }
static_assert(cub::Log2<32>::VALUE == 5 && cub::Log2<33>::VALUE == 6, "");
static_assert(cub::BlockRakingLayout<float, 128>::GRID_ELEMENTS == 160, "");
