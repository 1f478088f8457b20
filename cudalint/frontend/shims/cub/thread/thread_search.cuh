/* cub/thread/thread_search.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
