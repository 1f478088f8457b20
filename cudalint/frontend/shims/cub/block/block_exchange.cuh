/* cub/block/block_exchange.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
