/* fallback/ATen/Dispatch_v2.h -- PyTorch is not on the include path: cudalint_torch.h stands in for it */
#include <cudalint_torch.h>
