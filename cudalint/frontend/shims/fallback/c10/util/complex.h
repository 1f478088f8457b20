/* fallback/c10/util/complex.h -- PyTorch is not on the include path: cudalint_torch.h stands in for it */
#include <cudalint_torch.h>
