/* surface_types.h -- stands in for CUDA's header of that name: see texture_types.h. */
#include "texture_types.h"
