/* fallback/ATen/cuda/detail/TensorInfo.cuh -- PyTorch is not on the include path: cudalint_torch.h stands in for it */
#include <cudalint_torch.h>
