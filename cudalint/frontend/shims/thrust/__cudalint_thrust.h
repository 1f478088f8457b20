/* thrust/__cudalint_thrust.h -- stands in for Thrust (every thrust/ header of the shims includes this one): the
 * containers and pointers host code passes to kernels (device_vector, host_vector, device_ptr,
 * raw_pointer_cast), the fancy iterators kernels index (counting_iterator, constant_iterator, transform_iterator,
 * zip_iterator, discard_iterator, permutation_iterator), pair/tuple/complex, the function objects, the execution
 * policies (seq, device, host, cuda::par) and the algorithms.  Declarations only, written from Thrust's documented
 * interface: cudalint does not model what an algorithm does, and a call of one stays opaque.  An algorithm returns
 * the type its documentation names where that is one of its arguments' types (an iterator, an initial value),
 * so that host code using the result still parses and the launches after it are kept.
 */
#include "cudalint_prelude.h"
#ifndef CUDALINT_THRUST_H
#define CUDALINT_THRUST_H

#include <cuda_runtime_api.h>
#include <cstddef>   /* nothing else of the C++ library: the shims also serve where there is no C library */

#define THRUST_VERSION 200800
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 8
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_HOST_SYSTEM_CPP 1
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CUDA
#define THRUST_HOST_SYSTEM THRUST_HOST_SYSTEM_CPP
#define __thrust_exec_check_disable__
#define THRUST_NAMESPACE_BEGIN namespace thrust {
#define THRUST_NAMESPACE_END }

namespace thrust {

/* ---- execution policies ------------------------------------------------------------------------------------ */
struct __cudalint_policy {};
struct sequential_t : __cudalint_policy {};
struct host_t : __cudalint_policy {};
struct device_t : __cudalint_policy {};
static constexpr sequential_t seq{};
static constexpr host_t host{};
static constexpr device_t device{};
namespace cuda {
struct par_t : __cudalint_policy {
  template <class S> __host__ __device__ par_t on(const S &) const;
  template <class A> __host__ __device__ par_t operator()(const A &) const;
};
static constexpr par_t par{};
static constexpr par_t par_nosync{};
}  // namespace cuda
namespace system { namespace cuda { using thrust::cuda::par; using thrust::cuda::par_nosync; using thrust::cuda::par_t; } }
namespace cuda_cub = cuda;

template <bool B, class T = void> struct __cudalint_enable_if {};
template <class T> struct __cudalint_enable_if<true, T> { typedef T type; };
template <class T> T &&__cudalint_declval();
template <class P> using __cudalint_is_policy =
    typename __cudalint_enable_if<__is_base_of(__cudalint_policy, __decay(P))>::type;
template <class P> using __cudalint_not_policy =
    typename __cudalint_enable_if<!__is_base_of(__cudalint_policy, __decay(P))>::type;

/* ---- pointers and references ------------------------------------------------------------------------------- */
template <class T> class device_ptr;
template <class T> class device_reference {
 public:
  __host__ __device__ device_reference(const device_ptr<T> &);
  __host__ __device__ operator T() const;
  __host__ __device__ device_reference &operator=(const T &);
  __host__ __device__ device_reference &operator=(const device_reference &);
  __host__ __device__ device_reference &operator+=(const T &);
  __host__ __device__ device_reference &operator-=(const T &);
  __host__ __device__ device_ptr<T> operator&() const;
};
template <class T> class device_ptr {
 public:
  typedef T value_type;
  typedef T element_type;
  typedef std::ptrdiff_t difference_type;
  typedef device_reference<T> reference;
  typedef T *pointer;
  __host__ __device__ device_ptr();
  __host__ __device__ device_ptr(decltype(nullptr));
  template <class U> __host__ __device__ explicit device_ptr(U *);
  template <class U> __host__ __device__ device_ptr(const device_ptr<U> &);
  __host__ __device__ T *get() const;
  __host__ __device__ device_reference<T> operator*() const;
  __host__ __device__ device_reference<T> operator[](difference_type) const;
  __host__ __device__ T *operator->() const;
  __host__ __device__ device_ptr &operator++();
  __host__ __device__ device_ptr operator++(int);
  __host__ __device__ device_ptr &operator--();
  __host__ __device__ device_ptr operator--(int);
  __host__ __device__ device_ptr &operator+=(difference_type);
  __host__ __device__ device_ptr &operator-=(difference_type);
  __host__ __device__ device_ptr operator+(difference_type) const;
  __host__ __device__ device_ptr operator-(difference_type) const;
  __host__ __device__ difference_type operator-(const device_ptr &) const;
  __host__ __device__ bool operator==(const device_ptr &) const;
  __host__ __device__ bool operator!=(const device_ptr &) const;
  __host__ __device__ bool operator<(const device_ptr &) const;
  __host__ __device__ explicit operator bool() const;
};
template <class T> __host__ __device__ T *raw_pointer_cast(const device_ptr<T> &);
template <class T> __host__ __device__ T *raw_pointer_cast(T *);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T *);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(const device_ptr<T> &);
template <class T = void> device_ptr<T> device_malloc(std::size_t);
template <class T> void device_free(device_ptr<T>);
template <class T> device_ptr<T> device_new(std::size_t = 1);
template <class T> void device_delete(device_ptr<T>, std::size_t = 1);
template <class T> class device_allocator { public: typedef T value_type; };
template <class T> class device_malloc_allocator { public: typedef T value_type; };

/* ---- containers ---------------------------------------------------------------------------------------------- */
/* what device_vector and host_vector share: construction from a size, a value, another container or a range,
 * and the std::vector-like members */
#define CUDALINT_THRUST_VECTOR(Self) \
  Self(); \
  explicit Self(size_type n); \
  Self(size_type n, const T &value); \
  Self(const Self &); \
  Self(Self &&); \
  template <class V, class = decltype(__cudalint_declval<const V &>().size())> Self(const V &); \
  template <class It> Self(It first, It last); \
  Self &operator=(const Self &); \
  Self &operator=(Self &&); \
  template <class V> Self &operator=(const V &); \
  ~Self(); \
  size_type size() const; \
  size_type capacity() const; \
  bool empty() const; \
  void resize(size_type, const T & = T()); \
  void reserve(size_type); \
  void clear(); \
  void shrink_to_fit(); \
  void push_back(const T &); \
  void pop_back(); \
  void swap(Self &); \
  template <class It> void assign(It, It); \
  void assign(size_type, const T &);

template <class T, class Alloc = device_allocator<T>> class device_vector {
 public:
  typedef T value_type;
  typedef std::size_t size_type;
  typedef device_ptr<T> iterator;
  typedef device_ptr<const T> const_iterator;
  typedef device_reference<T> reference;
  typedef device_ptr<T> pointer;
  CUDALINT_THRUST_VECTOR(device_vector)
  template <class U, class A> device_vector(const device_vector<U, A> &);
  reference operator[](size_type);
  reference operator[](size_type) const;
  reference front();
  reference back();
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  const_iterator cbegin() const;
  const_iterator cend() const;
  pointer data();
  device_ptr<const T> data() const;
  iterator erase(iterator);
  iterator erase(iterator, iterator);
  template <class It> void insert(iterator, It, It);
};
template <class T, class Alloc = void> class host_vector {
 public:
  typedef T value_type;
  typedef std::size_t size_type;
  typedef T *iterator;
  typedef const T *const_iterator;
  typedef T &reference;
  typedef T *pointer;
  CUDALINT_THRUST_VECTOR(host_vector)
  T &operator[](size_type);
  const T &operator[](size_type) const;
  T &front();
  T &back();
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  const T *cbegin() const;
  const T *cend() const;
  T *data();
  const T *data() const;
  T *erase(T *);
  T *erase(T *, T *);
  template <class It> void insert(T *, It, It);
};
template <class T> using universal_vector = device_vector<T>;

/* ---- iterator traits and fancy iterators --------------------------------------------------------------------- */
template <class It> struct iterator_traits {
  typedef typename It::value_type value_type;
  typedef std::ptrdiff_t difference_type;
};
template <class T> struct iterator_traits<T *> { typedef T value_type; typedef std::ptrdiff_t difference_type; };
template <class T> struct iterator_traits<const T *> { typedef T value_type; typedef std::ptrdiff_t difference_type; };
template <class It> struct iterator_value { typedef typename iterator_traits<It>::value_type type; };
template <class It> using iterator_value_t = typename iterator_value<It>::type;
template <class It> struct iterator_difference { typedef std::ptrdiff_t type; };
struct random_access_device_iterator_tag {};
struct random_access_host_iterator_tag {};
struct any_system_tag {};
struct use_default {};

#define CUDALINT_THRUST_ITERATOR_OPS(Self, Value)                                              \
  typedef Value value_type;                                                                    \
  typedef std::ptrdiff_t difference_type;                                                      \
  __host__ __device__ Value operator*() const;                                                 \
  __host__ __device__ Value operator[](difference_type) const;                                 \
  __host__ __device__ Self &operator++();                                                      \
  __host__ __device__ Self operator++(int);                                                    \
  __host__ __device__ Self &operator--();                                                      \
  __host__ __device__ Self &operator+=(difference_type);                                       \
  __host__ __device__ Self &operator-=(difference_type);                                       \
  __host__ __device__ Self operator+(difference_type) const;                                   \
  __host__ __device__ Self operator-(difference_type) const;                                   \
  __host__ __device__ difference_type operator-(const Self &) const;                           \
  __host__ __device__ bool operator==(const Self &) const;                                     \
  __host__ __device__ bool operator!=(const Self &) const;                                     \
  __host__ __device__ bool operator<(const Self &) const;

template <class T, class System = use_default, class Traversal = use_default, class Difference = use_default>
class counting_iterator {
 public:
  __host__ __device__ counting_iterator();
  __host__ __device__ counting_iterator(T);
  CUDALINT_THRUST_ITERATOR_OPS(counting_iterator, T)
};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T);

template <class T, class Incrementable = use_default, class System = use_default> class constant_iterator {
 public:
  __host__ __device__ constant_iterator();
  template <class U> __host__ __device__ constant_iterator(U, std::ptrdiff_t = 0);
  CUDALINT_THRUST_ITERATOR_OPS(constant_iterator, T)
};
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T, std::ptrdiff_t = 0);

template <class F, class It, class Reference = use_default, class Value = use_default> class transform_iterator {
 public:
  typedef decltype(__cudalint_declval<F>()(*__cudalint_declval<It>())) __value;
  __host__ __device__ transform_iterator();
  __host__ __device__ transform_iterator(It, F);
  __host__ __device__ It base() const;
  CUDALINT_THRUST_ITERATOR_OPS(transform_iterator, __value)
};
template <class It, class F> __host__ __device__ transform_iterator<F, It> make_transform_iterator(It, F);

template <class F, class It> class transform_output_iterator {
 public:
  typedef void value_type;
  __host__ __device__ transform_output_iterator(It, F);
};
template <class F, class It> __host__ __device__ transform_output_iterator<F, It> make_transform_output_iterator(It, F);

template <class Tuple> class zip_iterator {
 public:
  typedef Tuple __tuple;
  __host__ __device__ zip_iterator();
  __host__ __device__ zip_iterator(Tuple);
  __host__ __device__ const Tuple &get_iterator_tuple() const;
  CUDALINT_THRUST_ITERATOR_OPS(zip_iterator, Tuple)
};
template <class... It> class tuple;
template <class... It> __host__ __device__ zip_iterator<tuple<It...>> make_zip_iterator(tuple<It...>);
template <class... It> __host__ __device__ zip_iterator<tuple<It...>> make_zip_iterator(It...);

template <class System = use_default> class discard_iterator {
 public:
  struct __any { template <class T> __host__ __device__ __any &operator=(const T &); };
  __host__ __device__ discard_iterator(std::ptrdiff_t = 0);
  CUDALINT_THRUST_ITERATOR_OPS(discard_iterator, __any)
};
__host__ __device__ discard_iterator<> make_discard_iterator(std::ptrdiff_t = 0);

template <class Elements, class Index> class permutation_iterator {
 public:
  typedef typename iterator_traits<Elements>::value_type __value;
  __host__ __device__ permutation_iterator();
  __host__ __device__ permutation_iterator(Elements, Index);
  CUDALINT_THRUST_ITERATOR_OPS(permutation_iterator, __value)
};
template <class E, class I> __host__ __device__ permutation_iterator<E, I> make_permutation_iterator(E, I);

template <class It> class reverse_iterator {
 public:
  typedef typename iterator_traits<It>::value_type __value;
  __host__ __device__ reverse_iterator(It);
  CUDALINT_THRUST_ITERATOR_OPS(reverse_iterator, __value)
};
template <class It> __host__ __device__ reverse_iterator<It> make_reverse_iterator(It);

template <class Derived, class Value, class System, class Traversal, class Reference,
          class Difference = std::ptrdiff_t> class iterator_facade {
 public:
  typedef Value value_type;
  typedef Difference difference_type;
};
template <class Derived, class Base, class Value = use_default, class System = use_default,
          class Traversal = use_default, class Reference = use_default, class Difference = use_default>
class iterator_adaptor {
 public:
  typedef std::ptrdiff_t difference_type;
  __host__ __device__ iterator_adaptor();
  __host__ __device__ explicit iterator_adaptor(const Base &);
  __host__ __device__ const Base &base() const;
 protected:
  __host__ __device__ Base &base_reference();
};

template <class It> __host__ __device__ std::ptrdiff_t distance(It, It);
template <class It, class D> __host__ __device__ void advance(It &, D);
template <class It> __host__ __device__ It next(It, std::ptrdiff_t = 1);

/* ---- pair, tuple, complex ------------------------------------------------------------------------------------ */
template <class A, class B> struct pair {
  typedef A first_type;
  typedef B second_type;
  A first;
  B second;
  __host__ __device__ pair();
  __host__ __device__ pair(const A &, const B &);
  template <class U, class V> __host__ __device__ pair(const pair<U, V> &);
};
template <class A, class B> __host__ __device__ pair<A, B> make_pair(A, B);
template <class... T> class tuple;
template <> class tuple<> {};
template <class H, class... T> class tuple<H, T...> {
 public:
  H __head;
  tuple<T...> __tail;
  __host__ __device__ tuple();
  __host__ __device__ tuple(const H &, const T &...);
  template <class... U> __host__ __device__ tuple(const tuple<U...> &);
};
template <std::size_t I, class T> struct tuple_element;
template <class H, class... T> struct tuple_element<0, tuple<H, T...>> { typedef H type; };
template <std::size_t I, class H, class... T> struct tuple_element<I, tuple<H, T...>> {
  typedef typename tuple_element<I - 1, tuple<T...>>::type type;
};
template <class T> struct tuple_size;
template <class... T> struct tuple_size<tuple<T...>> { static const std::size_t value = sizeof...(T); };
template <std::size_t I, class... T> __host__ __device__ typename tuple_element<I, tuple<T...>>::type &get(tuple<T...> &);
template <std::size_t I, class... T>
__host__ __device__ const typename tuple_element<I, tuple<T...>>::type &get(const tuple<T...> &);
template <class... T> __host__ __device__ tuple<T...> make_tuple(T...);
template <class... T> __host__ __device__ tuple<T &...> tie(T &...);

template <class T> struct complex {
  typedef T value_type;
  __host__ __device__ complex(const T &re = T(), const T &im = T());
  template <class U> __host__ __device__ complex(const complex<U> &);
  __host__ __device__ T real() const;
  __host__ __device__ T imag() const;
  __host__ __device__ void real(T);
  __host__ __device__ void imag(T);
  __host__ __device__ complex &operator+=(const complex &);
  __host__ __device__ complex &operator-=(const complex &);
  __host__ __device__ complex &operator*=(const complex &);
  __host__ __device__ complex &operator/=(const complex &);
};
template <class T> __host__ __device__ complex<T> operator+(const complex<T> &, const complex<T> &);
template <class T> __host__ __device__ complex<T> operator-(const complex<T> &, const complex<T> &);
template <class T> __host__ __device__ complex<T> operator*(const complex<T> &, const complex<T> &);
template <class T> __host__ __device__ complex<T> operator/(const complex<T> &, const complex<T> &);
template <class T> __host__ __device__ complex<T> operator*(const complex<T> &, const T &);
template <class T> __host__ __device__ complex<T> operator*(const T &, const complex<T> &);
template <class T> __host__ __device__ complex<T> operator-(const complex<T> &);
template <class T> __host__ __device__ bool operator==(const complex<T> &, const complex<T> &);
template <class T> __host__ __device__ T abs(const complex<T> &);
template <class T> __host__ __device__ T arg(const complex<T> &);
template <class T> __host__ __device__ T norm(const complex<T> &);
template <class T> __host__ __device__ complex<T> conj(const complex<T> &);
template <class T> __host__ __device__ complex<T> exp(const complex<T> &);
template <class T> __host__ __device__ complex<T> log(const complex<T> &);
template <class T> __host__ __device__ complex<T> sqrt(const complex<T> &);
template <class T> __host__ __device__ complex<T> pow(const complex<T> &, const T &);
template <class T> __host__ __device__ complex<T> polar(const T &, const T & = T());

/* ---- function objects ---------------------------------------------------------------------------------------- */
#define CUDALINT_THRUST_BINARY(name)                                                                      \
  template <class T = void> struct name {                                                                 \
    typedef T first_argument_type;                                                                        \
    typedef T result_type;                                                                                \
    template <class A, class B> __host__ __device__ auto operator()(const A &a, const B &b) const -> A; \
  };
#define CUDALINT_THRUST_PREDICATE(name)                                                                   \
  template <class T = void> struct name {                                                                 \
    typedef bool result_type;                                                                             \
    template <class A, class B> __host__ __device__ bool operator()(const A &a, const B &b) const;       \
  };
CUDALINT_THRUST_BINARY(plus) CUDALINT_THRUST_BINARY(minus) CUDALINT_THRUST_BINARY(multiplies)
CUDALINT_THRUST_BINARY(divides) CUDALINT_THRUST_BINARY(modulus) CUDALINT_THRUST_BINARY(maximum)
CUDALINT_THRUST_BINARY(minimum) CUDALINT_THRUST_BINARY(bit_and) CUDALINT_THRUST_BINARY(bit_or)
CUDALINT_THRUST_BINARY(bit_xor) CUDALINT_THRUST_BINARY(project1st)
CUDALINT_THRUST_PREDICATE(equal_to) CUDALINT_THRUST_PREDICATE(not_equal_to) CUDALINT_THRUST_PREDICATE(less)
CUDALINT_THRUST_PREDICATE(greater) CUDALINT_THRUST_PREDICATE(less_equal) CUDALINT_THRUST_PREDICATE(greater_equal)
CUDALINT_THRUST_PREDICATE(logical_and) CUDALINT_THRUST_PREDICATE(logical_or)
template <class T = void> struct project2nd {
  template <class A, class B> __host__ __device__ B operator()(const A &, const B &) const;
};
template <class T = void> struct negate { template <class A> __host__ __device__ A operator()(const A &) const; };
template <class T = void> struct identity { template <class A> __host__ __device__ A operator()(const A &) const; };
template <class T = void> struct logical_not { template <class A> __host__ __device__ bool operator()(const A &) const; };
template <class T = void> struct square { template <class A> __host__ __device__ A operator()(const A &) const; };
template <class F> struct unary_negate { template <class A> __host__ __device__ bool operator()(const A &) const; };
template <class F> __host__ __device__ unary_negate<F> not1(const F &);
template <class A, class R> struct unary_function { typedef A argument_type; typedef R result_type; };
template <class A, class B, class R> struct binary_function {
  typedef A first_argument_type; typedef B second_argument_type; typedef R result_type;
};
namespace placeholders {
struct __placeholder {
  template <class T> __host__ __device__ __placeholder operator+(const T &) const;
  template <class T> __host__ __device__ __placeholder operator-(const T &) const;
  template <class T> __host__ __device__ __placeholder operator*(const T &) const;
  template <class T> __host__ __device__ __placeholder operator/(const T &) const;
  template <class T> __host__ __device__ __placeholder operator<(const T &) const;
  template <class T> __host__ __device__ __placeholder operator>(const T &) const;
  template <class T> __host__ __device__ __placeholder operator==(const T &) const;
  template <class... A> __host__ __device__ int operator()(const A &...) const;
};
static constexpr __placeholder _1{}, _2{}, _3{};
}  // namespace placeholders

/* ---- random -------------------------------------------------------------------------------------------------- */
namespace random {
class default_random_engine {
 public:
  typedef unsigned int result_type;
  __host__ __device__ explicit default_random_engine(unsigned int = 1);
  __host__ __device__ void discard(unsigned long long);
  __host__ __device__ void seed(unsigned int);
  __host__ __device__ unsigned int operator()();
};
typedef default_random_engine minstd_rand;
typedef default_random_engine taus88;
typedef default_random_engine ranlux24;
template <class T> class uniform_real_distribution {
 public:
  __host__ __device__ uniform_real_distribution(T = T(0), T = T(1));
  template <class E> __host__ __device__ T operator()(E &);
};
template <class T> class uniform_int_distribution {
 public:
  __host__ __device__ uniform_int_distribution(T = T(0), T = T(1));
  template <class E> __host__ __device__ T operator()(E &);
};
template <class T> class normal_distribution {
 public:
  __host__ __device__ normal_distribution(T = T(0), T = T(1));
  template <class E> __host__ __device__ T operator()(E &);
};
}  // namespace random
using random::default_random_engine;
using random::uniform_real_distribution;
using random::uniform_int_distribution;

/* ---- algorithms ---------------------------------------------------------------------------------------------- */
/* Each name is declared twice: without an execution policy (`thrust::sort(v.begin(), v.end())`) and with one
 * (`thrust::sort(thrust::device, ...)`); the trailing arguments are taken as they come.  RET names the result:
 * V the call returns nothing; I1 the type of its first iterator argument; I3 / I4 / I5 that of the third / fourth /
 * fifth argument (the output iterator); T3 / T4 that argument's type (an initial value); B a bool; D a count. */
#define CUDALINT_THRUST_ALGO(name, RET)                                                                          \
  template <class A1, class... R, class = __cudalint_not_policy<A1>>                                            \
  __host__ __device__ CUDALINT_THRUST_RET_##RET name(A1 &&a1, R &&...r);                                        \
  template <class P, class A1, class... R, class = __cudalint_is_policy<P>>                                     \
  __host__ __device__ CUDALINT_THRUST_RET_##RET name(const P &p, A1 &&a1, R &&...r);
template <std::size_t N, class... A> struct __cudalint_pick { typedef void type; };
template <class H, class... A> struct __cudalint_pick<0, H, A...> { typedef __decay(H) type; };
template <std::size_t N, class H, class... A> struct __cudalint_pick<N, H, A...> {
  typedef typename __cudalint_pick<N - 1, A...>::type type;
};
template <std::size_t N, class... A> using __cudalint_nth = typename __cudalint_pick<N, A...>::type;
#define CUDALINT_THRUST_RET_V void
#define CUDALINT_THRUST_RET_B bool
#define CUDALINT_THRUST_RET_D std::ptrdiff_t
#define CUDALINT_THRUST_RET_I1 __decay(A1)
#define CUDALINT_THRUST_RET_I3 __cudalint_nth<1, R...>
#define CUDALINT_THRUST_RET_T3 __cudalint_nth<1, R...>
#define CUDALINT_THRUST_RET_I4 __cudalint_nth<2, R...>
#define CUDALINT_THRUST_RET_T4 __cudalint_nth<2, R...>
#define CUDALINT_THRUST_RET_I5 __cudalint_nth<3, R...>
#define CUDALINT_THRUST_RET_P12 thrust::pair<__decay(A1), __cudalint_nth<1, R...>>
#define CUDALINT_THRUST_RET_P45 thrust::pair<__cudalint_nth<2, R...>, __cudalint_nth<3, R...>>
#define CUDALINT_THRUST_RET_PI1 thrust::pair<__decay(A1), __decay(A1)>
#define CUDALINT_THRUST_RET_VAL typename thrust::iterator_traits<__decay(A1)>::value_type

CUDALINT_THRUST_ALGO(sort, V) CUDALINT_THRUST_ALGO(stable_sort, V) CUDALINT_THRUST_ALGO(sort_by_key, V)
CUDALINT_THRUST_ALGO(stable_sort_by_key, V) CUDALINT_THRUST_ALGO(fill, V) CUDALINT_THRUST_ALGO(sequence, V)
CUDALINT_THRUST_ALGO(generate, V) CUDALINT_THRUST_ALGO(tabulate, V) CUDALINT_THRUST_ALGO(replace, V)
CUDALINT_THRUST_ALGO(replace_if, V) CUDALINT_THRUST_ALGO(scatter, V) CUDALINT_THRUST_ALGO(scatter_if, V)
CUDALINT_THRUST_ALGO(uninitialized_fill, V) CUDALINT_THRUST_ALGO(reverse, V) CUDALINT_THRUST_ALGO(shuffle, V)
CUDALINT_THRUST_ALGO(swap_ranges, I3)
CUDALINT_THRUST_ALGO(for_each, I1) CUDALINT_THRUST_ALGO(for_each_n, I1) CUDALINT_THRUST_ALGO(fill_n, I1)
CUDALINT_THRUST_ALGO(find, I1) CUDALINT_THRUST_ALGO(find_if, I1) CUDALINT_THRUST_ALGO(find_if_not, I1)
CUDALINT_THRUST_ALGO(max_element, I1) CUDALINT_THRUST_ALGO(min_element, I1) CUDALINT_THRUST_ALGO(unique, I1)
CUDALINT_THRUST_ALGO(remove, I1) CUDALINT_THRUST_ALGO(remove_if, I1) CUDALINT_THRUST_ALGO(partition, I1)
CUDALINT_THRUST_ALGO(stable_partition, I1) CUDALINT_THRUST_ALGO(lower_bound, I1)
CUDALINT_THRUST_ALGO(upper_bound, I1) CUDALINT_THRUST_ALGO(partition_point, I1)
CUDALINT_THRUST_ALGO(adjacent_find, I1) CUDALINT_THRUST_ALGO(is_sorted_until, I1)
CUDALINT_THRUST_ALGO(copy, I3) CUDALINT_THRUST_ALGO(copy_n, I3) CUDALINT_THRUST_ALGO(copy_if, I3)
CUDALINT_THRUST_ALGO(transform, I3) CUDALINT_THRUST_ALGO(transform_if, I3) CUDALINT_THRUST_ALGO(gather, I3)
CUDALINT_THRUST_ALGO(gather_if, I3) CUDALINT_THRUST_ALGO(inclusive_scan, I3) CUDALINT_THRUST_ALGO(exclusive_scan, I3)
CUDALINT_THRUST_ALGO(transform_inclusive_scan, I3) CUDALINT_THRUST_ALGO(transform_exclusive_scan, I3)
CUDALINT_THRUST_ALGO(adjacent_difference, I3) CUDALINT_THRUST_ALGO(remove_copy, I3)
CUDALINT_THRUST_ALGO(remove_copy_if, I3) CUDALINT_THRUST_ALGO(unique_copy, I3) CUDALINT_THRUST_ALGO(replace_copy, I3)
CUDALINT_THRUST_ALGO(replace_copy_if, I3) CUDALINT_THRUST_ALGO(reverse_copy, I3)
CUDALINT_THRUST_ALGO(uninitialized_copy, I3)
CUDALINT_THRUST_ALGO(inclusive_scan_by_key, I4) CUDALINT_THRUST_ALGO(exclusive_scan_by_key, I4)
CUDALINT_THRUST_ALGO(merge, I5) CUDALINT_THRUST_ALGO(set_union, I5) CUDALINT_THRUST_ALGO(set_intersection, I5)
CUDALINT_THRUST_ALGO(set_difference, I5) CUDALINT_THRUST_ALGO(set_symmetric_difference, I5)
CUDALINT_THRUST_ALGO(reduce_by_key, P45) CUDALINT_THRUST_ALGO(unique_by_key, P12)
CUDALINT_THRUST_ALGO(unique_by_key_copy, P45) CUDALINT_THRUST_ALGO(minmax_element, PI1)
CUDALINT_THRUST_ALGO(mismatch, P12)
CUDALINT_THRUST_ALGO(binary_search, B) CUDALINT_THRUST_ALGO(equal, B) CUDALINT_THRUST_ALGO(all_of, B)
CUDALINT_THRUST_ALGO(any_of, B) CUDALINT_THRUST_ALGO(none_of, B) CUDALINT_THRUST_ALGO(is_sorted, B)
CUDALINT_THRUST_ALGO(is_partitioned, B)
CUDALINT_THRUST_ALGO(count, D) CUDALINT_THRUST_ALGO(count_if, D) CUDALINT_THRUST_ALGO(unique_count, D)
CUDALINT_THRUST_ALGO(inner_product, T4) CUDALINT_THRUST_ALGO(transform_reduce, T4)
/* reduce(first, last) returns the element type; reduce(first, last, init[, op]) the type of init */
template <class I, class = __cudalint_not_policy<I>> __host__ __device__ typename iterator_traits<I>::value_type reduce(I, I);
template <class P, class I, class = __cudalint_is_policy<P>>
__host__ __device__ typename iterator_traits<I>::value_type reduce(const P &, I, I);
template <class I, class T, class... R, class = __cudalint_not_policy<I>> __host__ __device__ T reduce(I, I, T, R...);
template <class P, class I, class T, class... R, class = __cudalint_is_policy<P>>
__host__ __device__ T reduce(const P &, I, I, T, R...);
template <class T> __host__ __device__ void swap(T &, T &);
template <class T> __host__ __device__ const T &min(const T &, const T &);
template <class T> __host__ __device__ const T &max(const T &, const T &);

/* ---- errors -------------------------------------------------------------------------------------------------- */
namespace system {
class system_error {
 public:
  const char *what() const;
};
}  // namespace system
}  // namespace thrust

#endif
