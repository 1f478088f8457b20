__global__ void k(unsigned char *output, const unsigned char *in, int M, int K) {
  int tid = threadIdx.x;
  int thread_row = tid / 4;
  int thread_col_base = (tid % 4) * 8;
  size_t global_k = blockIdx.y * 64 + thread_row;
  size_t base = blockIdx.x * 32 + thread_col_base;
  size_t M_packed = M / 2;
  if (global_k >= K) return;
  unsigned char out_bytes[8];
  for (int b = 0; b < 8; ++b) out_bytes[b] = in[b];
  if (base + 7 < M_packed) {
    *reinterpret_cast<uint2 *>(&output[global_k * M_packed + base]) = *reinterpret_cast<uint2 *>(out_bytes);
  } else {
    for (int b = 0; b < 8 && base + b < M_packed; ++b) {
      output[global_k * M_packed + base + b] = out_bytes[b];
    }
  }
}
void h(unsigned char *o, const unsigned char *i, int M, int K) { k<<<dim3(M / 64, K / 64), 256>>>(o, i, M, K); }
