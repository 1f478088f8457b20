/* thrust/iterator/transform_output_iterator.h -- see ../__cudalint_thrust.h */
#include "../__cudalint_thrust.h"
