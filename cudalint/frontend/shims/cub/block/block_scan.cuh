/* cub/block/block_scan.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
