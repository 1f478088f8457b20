/* toolkit_fallback/curand_mtgp32_kernel.h -- empty: clang's CUDA runtime wrapper includes this cuRAND header, which a
 * toolkit installed without cuRAND lacks.  Searched after every toolkit folder (toolkit mode only), so a complete
 * toolkit's own header wins. */
