/* cub/block/block_store.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
