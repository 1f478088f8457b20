__global__ void g(float *a) { if (threadIdx.x >= 64) a[threadIdx.x] = 0; }
__global__ void s(float *a) { __shared__ float t[64]; if (threadIdx.x >= 64) t[threadIdx.x] = 0; __syncthreads(); a[threadIdx.x] = t[threadIdx.x ^ 1]; }
__global__ void p(float *a, int n) { float *q = a + threadIdx.x; for (int i = 0; i < n; i++) q = q + 32; *q = 1; }
__global__ void c(float *a, const float *d, int n) { int c = 0; for (int i = 0; i < n; i++) c += (d[i] <= 1.0f); a[threadIdx.x] = c; a[threadIdx.x > 16] = 2; }
__global__ void w(char *s) { char *q = s + threadIdx.x; while (*q) q++; *q = 0; }
int main() { float *a; g<<<1, 32>>>(a); s<<<1, 32>>>(a); p<<<1, 32>>>(a, 4); c<<<1, 32>>>(a, a, 4); w<<<1,32>>>((char*)a); }
