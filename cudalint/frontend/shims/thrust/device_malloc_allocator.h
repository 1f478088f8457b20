/* thrust/device_malloc_allocator.h -- see __cudalint_thrust.h */
#include "__cudalint_thrust.h"
