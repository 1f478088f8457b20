/* thrust/system_error.h */
#include "__cudalint_thrust.h"
