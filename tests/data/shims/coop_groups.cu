// Cooperative groups: blocks, tiles, coalesced groups, grid sync, reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v) {
  for (int i = tile.size() / 2; i > 0; i /= 2) v += tile.shfl_down(v, i);
  return v;
}

__global__ void coop(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[32];
  unsigned r = block.thread_rank();
  float v = r < (unsigned)n ? in[block.group_index().x * block.size() + r] : 0.0f;
  block.sync();
  cg::sync(block);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  auto tile16 = cg::tiled_partition<16>(block);
  cg::thread_group tile8 = cg::tiled_partition(block, 8);
  float s = tile_sum(tile, v);
  s += tile.shfl(s, 0) + tile.shfl_xor(s, 1) + tile16.shfl_down(s, 1);
  if (tile.any(s > 0.0f) && tile.all(s >= 0.0f)) s += (float)__popc(tile.ballot(s > 1.0f));
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  tile8.sync();
  block.sync();
  float total = cg::reduce(tile, v, cg::plus<float>());
  float biggest = cg::reduce(tile, v, cg::greater<float>());
  cg::coalesced_group active = cg::coalesced_threads();
  if (active.thread_rank() == 0) atomicAdd(out, total + biggest + (float)active.size());
  dim3 ti = block.thread_index();
  dim3 bd = block.group_dim();
  out[ti.x + bd.x * ti.y] = partial[0] + (float)block.num_threads() + (float)block.dim_threads().x;
}

__global__ void grid_wide(float *data, int n) {
  cg::grid_group grid = cg::this_grid();
  unsigned long long i = grid.thread_rank();
  if (i < (unsigned long long)n) data[i] *= 2.0f;
  grid.sync();
  cg::sync(grid);
}

int main() {
  float *d = nullptr;
  int n = 1024;
  void *args[] = {&d, &n};
  cudaLaunchCooperativeKernel((void *)grid_wide, dim3(8), dim3(128), args, 0, 0);
  cudaLaunchCooperativeKernel(grid_wide, 8, 128, args);
  coop<<<8, 128>>>(d, d, n);
  return 0;
}

// block_tile_memory scratch for large tiles (CUDA 11.1+)
__global__ void bigTiles(float* a) {
    __shared__ cooperative_groups::block_tile_memory<256> scratch;
    auto cta = cooperative_groups::this_thread_block(scratch);
    a[threadIdx.x] = 0.0f;
    cooperative_groups::sync(cta);
}
