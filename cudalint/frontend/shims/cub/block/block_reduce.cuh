/* cub/block/block_reduce.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
