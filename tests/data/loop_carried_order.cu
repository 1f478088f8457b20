// A quickselect whose loop writes several variables (CVCUDA's median_blur, written for the test): what the
// interpreter makes of them must not depend on the order a set of them iterates in (it did: PYTHONHASHSEED 1 and 2
// gave different findings, census 43)
template <typename T> __device__ int partition(T *arr, int length, T pvt, int *numOfEq) {
  int i = 0; *numOfEq = 0;
  for (int j = 0; j < length; j++) { if (arr[j] < pvt) { T t = arr[i]; arr[i] = arr[j]; arr[j] = t; i++; } else if (arr[j] == pvt) (*numOfEq)++; }
  return i;
}
template <typename T> __device__ T placePivot(T *arr, int length) {
  int mid = length / 2;
  T a = arr[0], b = arr[mid], c = arr[length - 1];
  return a < b ? (b < c ? b : c) : a;
}
template <typename T> __global__ void median(const T *src, T *dst, int kw, int kh) {
  extern __shared__ char raw[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int length = kw * kh;
  T *arr = ((T *)raw) + (tx * 16 + ty) * length;
  T pivot;
  int numOfEq, k = length / 2;
  for (int i = 0; i < length; i++) arr[i] = src[i * 64 + tx];
  while (length > 1) {
    pivot = placePivot(arr, length);
    int middle = partition(arr, length, pivot, &numOfEq);
    if (k < middle) { length = middle; }
    else if (k < middle + numOfEq) { dst[blockIdx.x * 256 + tx] = pivot; return; }
    else { length = length - middle - numOfEq; arr = arr + middle + numOfEq; k = k - middle - numOfEq; }
  }
  dst[blockIdx.x * 256 + tx] = arr[0];
}
void run(const float *s, float *d, int kw, int kh) { median<float><<<64, dim3(16, 16), 16 * 16 * kw * kh * 4>>>(s, d, kw, kh); }
