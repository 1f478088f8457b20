/* cub/warp/warp_reduce.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
