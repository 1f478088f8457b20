/* sm_30_intrinsics.h -- the toolkit header of that name; its declarations are in device_functions.h */
#include "device_functions.h"
