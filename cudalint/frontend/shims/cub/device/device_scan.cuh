/* cub/device/device_scan.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
