/* thrust/iterator/permutation_iterator.h -- see ../__cudalint_thrust.h */
#include "../__cudalint_thrust.h"
