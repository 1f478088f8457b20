/* thrust/device_allocator.h -- see __cudalint_thrust.h */
#include "__cudalint_thrust.h"
