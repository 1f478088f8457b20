/* cub/device/device_select.cuh -- see cub/cub.cuh */
#include "../cub.cuh"
