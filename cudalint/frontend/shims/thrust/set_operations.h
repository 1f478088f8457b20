/* thrust/set_operations.h -- see __cudalint_thrust.h */
#include "__cudalint_thrust.h"
