/* cub/device/device_reduce.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
