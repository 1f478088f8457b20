/* thrust/iterator/iterator_categories.h -- see ../__cudalint_thrust.h */
#include "../__cudalint_thrust.h"
