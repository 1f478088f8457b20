/* cub/warp/warp_scan.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
