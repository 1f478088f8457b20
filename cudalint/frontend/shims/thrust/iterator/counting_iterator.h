/* thrust/iterator/counting_iterator.h -- see ../__cudalint_thrust.h */
#include "../__cudalint_thrust.h"
