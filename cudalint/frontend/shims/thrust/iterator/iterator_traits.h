/* thrust/iterator/iterator_traits.h -- see ../__cudalint_thrust.h */
#include "../__cudalint_thrust.h"
