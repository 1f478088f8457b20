/* cub/device/device_radix_sort.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
