/* cub/block/block_load.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
