// Thrust as host code and kernels use it: containers and raw pointers passed to a launch, fancy iterators indexed
// in a kernel, pair/tuple/complex, function objects, execution policies, algorithms whose results are used.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/unique.h>
#include <thrust/extrema.h>
#include <thrust/binary_search.h>
#include <thrust/sequence.h>
#include <thrust/fill.h>
#include <thrust/complex.h>
#include <thrust/pair.h>
#include <thrust/tuple.h>
#include <thrust/random.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

struct square_op { __host__ __device__ float operator()(float x) const { return x * x; } };

__global__ void count_up(int *out, int n) {
  thrust::counting_iterator<int> all(0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = all[i] + thrust::raw_pointer_cast(thrust::device_pointer_cast(out))[0];
  int *p = thrust::lower_bound(thrust::seq, out, out + n, 3);
  thrust::pair<int, float> pr = thrust::make_pair(1, 2.0f);
  thrust::complex<float> c(1.0f, 2.0f);
  c *= c;
  thrust::default_random_engine rng(i);
  thrust::uniform_real_distribution<float> u(0.0f, 1.0f);
  out[0] = (int)(u(rng) + pr.second + c.real()) + (int)(p - out);
}

int main() {
  thrust::host_vector<int> h(1024);
  thrust::device_vector<int> d = h;
  thrust::device_vector<float> f(1024, 1.0f);
  thrust::sequence(d.begin(), d.end());
  thrust::fill(thrust::device, f.begin(), f.end(), 2.0f);
  thrust::sort(d.begin(), d.end(), thrust::greater<int>());
  thrust::sort_by_key(thrust::cuda::par.on(0), d.begin(), d.end(), f.begin());
  int s = thrust::reduce(d.begin(), d.end());
  float m = thrust::reduce(f.begin(), f.end(), 0.0f, thrust::maximum<float>());
  float ss = thrust::transform_reduce(f.begin(), f.end(), square_op(), 0.0f, thrust::plus<float>());
  thrust::inclusive_scan(d.begin(), d.end(), d.begin());
  thrust::transform(f.begin(), f.end(), f.begin(), square_op());
  auto end = thrust::unique(d.begin(), d.end());
  long n = end - d.begin();
  long k = thrust::count(d.begin(), d.end(), 3);
  auto mx = thrust::max_element(f.begin(), f.end());
  bool found = thrust::binary_search(d.begin(), d.end(), 7);
  thrust::device_vector<int> keys(8), vals(8);
  auto ends = thrust::reduce_by_key(d.begin(), d.end(), thrust::make_constant_iterator(1), keys.begin(), vals.begin());
  long groups = ends.first - keys.begin();
  auto z = thrust::make_zip_iterator(thrust::make_tuple(d.begin(), f.begin()));
  auto t = thrust::make_transform_iterator(f.begin(), square_op());
  thrust::copy(d.begin(), d.end(), h.begin());
  thrust::device_ptr<int> raw = thrust::device_malloc<int>(16);
  count_up<<<4, 256>>>(thrust::raw_pointer_cast(d.data()), (int)d.size());
  thrust::device_free(raw);
  (void)z; (void)t; (void)mx;
  return s + (int)m + (int)ss + (int)n + (int)k + found + (int)groups;
}
