// Device helper in a header, inlined into the kernel that calls it (tests/test_fidelity.py).
#pragma once

__device__ inline float columnRead(const float *m, int row, int width) {
    return m[threadIdx.x * width + row];   // lanes `width` floats apart
}
