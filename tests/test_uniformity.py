"""Uniformity analysis on its own: which values vary across the threads of a block (DESIGN.md §3)."""

from pathlib import Path

import pytest
import sympy

from cudalint.runner import RunOptions, build_model


def guards_of_barriers(tmp_path: Path, body: str, helpers: str = ""):
    src = helpers + "\n__global__ void k(float* a, int n, bool flag) {\n" + body + "\n}\n" \
        "int main() { float* a; k<<<8, 256>>>(a, 4, true); }\n"
    p = tmp_path / "u.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    syms = model.symbols
    k = model.kernels[0]
    return [[syms.is_varying(v) for v, _ in b.guards if v is not None] for b in k.barriers], k, syms


@pytest.mark.parametrize("cond,varying", [
    ("threadIdx.x < 16", True),
    ("threadIdx.x / 32 == 0", True),          # warp-uniform, still divergent across the block
    ("blockIdx.x == 0", False),
    ("blockDim.x >= 64", False),
    ("n > 3", False),
    ("flag", False),
    ("a[blockIdx.x] > 0.0f", False),           # load from a block-uniform address
    ("a[threadIdx.x] > 0.0f", True),           # load from a thread-varying address
    ("atomicAdd(&a[0], 1.0f) > 0.0f", True),  # atomics' results vary
    ("(blockIdx.x & 1) && n", False),
    ("threadIdx.y || n", True),
])
def test_condition_uniformity(tmp_path, cond, varying):
    got, _, _ = guards_of_barriers(tmp_path, f"if ({cond}) __syncthreads();")
    assert got == [[varying]]


def test_loop_variables_with_uniform_start_step_bound_are_uniform(tmp_path):
    got, _, _ = guards_of_barriers(tmp_path, """
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) __syncthreads();
    int half = blockDim.x / 2;
    while (half != 0) { __syncthreads(); half /= 2; }
    for (int i = threadIdx.x; i < n; i += blockDim.x) __syncthreads();
""")
    assert got == [[False], [False], [True]]


def test_device_function_parameters_take_the_arguments_uniformity(tmp_path):
    helper = "__device__ void stage(bool sync) { if (sync) __syncthreads(); }"
    got, k, _ = guards_of_barriers(tmp_path, "stage(true); stage(threadIdx.x < 3);", helper)
    assert got == [[], [True]]  # `if (sync)` with sync = true takes its branch: no guard at all
    assert [b.call_chain for b in k.barriers] == [(("stage", 3),), (("stage", 3),)]


def test_merged_values_keep_the_condition_uniformity(tmp_path):
    got, _, _ = guards_of_barriers(tmp_path, """
    int m = 0;
    if (threadIdx.x > 4) m = 1;
    if (m) __syncthreads();
    int u = 0;
    if (n > 4) u = 1;
    if (u) __syncthreads();
""")
    assert got == [[True], [False]]


def test_powers_of_two_are_tracked(tmp_path):
    src = """__global__ void k(unsigned* a, int n, unsigned e) {
    unsigned v = a[threadIdx.x];
    for (int s = 1; s < n; s *= 2) a[0] += v / s;
    unsigned m = 1u << e;
    a[1] = v % m;
    a[2] = v / (unsigned)n;
}
"""
    p = tmp_path / "p.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    syms = model.symbols
    divs = model.kernels[0].divisions
    # `1u << e` is not tagged: nvcc sees the shift and emits shift/mask itself (measured, fixtures/arith)
    assert [(d.span.line, d.op, d.pow2, d.signed) for d in divs] == [(3, "/", True, False), (5, "%", False, False),
                                                                    (6, "/", False, False)]


@pytest.mark.parametrize("body,varying", [
    # a shared scalar written by one thread and read by all after a barrier: a load at one address
    ("__shared__ int f; if (threadIdx.x == 0) f = a[threadIdx.x] > 0; __syncthreads(); if (f) __syncthreads();",
     [[], [False]]),
    # an atomic's result varies, the shared counter it updates does not
    ("__shared__ int left; if (threadIdx.x == 0) left = atomicSub((int*)a, 1); __syncthreads();"
     " int mine = atomicAdd((int*)a, 1); if (left > 0) __syncthreads(); if (mine) __syncthreads();",
     [[], [False], [True]]),
    # a reference bound to the block's element reads it; one bound to the thread's element varies
    ("float& r = a[blockIdx.x]; if (r > 0) __syncthreads(); float& t = a[threadIdx.x]; if (t) __syncthreads();",
     [[False], [True]]),
    # a value the interpreter cannot model is not thread-varying
    ("float v = unknownCall(); if (v) __syncthreads();", [[False]]),
])
def test_memory_and_unknown_values(tmp_path, body, varying):
    got, _, _ = guards_of_barriers(tmp_path, body, helpers="__device__ float unknownCall();")
    assert got == varying


def test_out_parameters_are_written_back(tmp_path):
    helper = "__device__ void set(int& x, int v) { x = v; }"
    got, k, syms = guards_of_barriers(tmp_path, """
    int q = threadIdx.x, r = 0;
    set(q, blockIdx.x);
    set(r, threadIdx.x);
    if (q > 3) __syncthreads();
    if (r > 3) __syncthreads();
""", helper)
    assert got == [[False], [True]]  # q = blockIdx.x after the calls, r = threadIdx.x


def _loop_guard(tmp_path, loop: str, block: str):
    src = ("__global__ void k(float* s, int n) {\n" + loop + "\n}\n"
           f"int main() {{ float* a; k<<<8, {block}>>>(a, 4); }}\n")
    p = tmp_path / "t.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    (b,) = model.kernels[0].barriers
    return b.guards, model.symbols


@pytest.mark.parametrize("loop,block,divergent", [
    ("for (int p = threadIdx.x; p < 256; p += 256) __syncthreads();", "256", []),   # one trip everywhere
    ("for (int p = threadIdx.x; p < 300; p += 256) __syncthreads();", "256", [2]),  # 2 trips in threads < 44
    ("for (int p = threadIdx.x; p < 4096; p += blockDim.x) __syncthreads();", "256", []),  # 16 trips each
    ("for (int p = threadIdx.x; p < 4096; p += blockDim.x) __syncthreads();", "dim3(96)", [2]),
    ("for (int p = threadIdx.x; p < n; p += blockDim.x) __syncthreads();", "256", [2]),  # n unknown
    ("if (threadIdx.x < 256) __syncthreads();", "256", []),                            # true for all
    ("if (threadIdx.x < 128) __syncthreads();", "256", [2]),
    # a branch in the loop: false for every thread on the first trip, split on the third
    ("for (int k = 0; k < 4; ++k) if (threadIdx.x >= 16 && k == 2) __syncthreads();", "256", [2]),
    ("for (int k = 0; k < 4; ++k) if (threadIdx.x < k) __syncthreads();", "256", [2]),
    ("for (int k = 0; k < 4; ++k) if (threadIdx.x >= 256 && k == 2) __syncthreads();", "256", []),  # no thread
    ("for (int k = 0; k < 4; ++k) if (threadIdx.x < 256 || k == 2) __syncthreads();", "256", []),  # every thread
    # linear in the trip: the branch turns false at trip 300 + threadIdx.x (the loop's own bound is not used)
    ("for (int k = 0; k < 4; ++k) if (threadIdx.x + 300 > k) __syncthreads();", "256", [2]),
])
def test_thread_dependent_conditions_with_uniform_outcome(tmp_path, loop, block, divergent):
    from cudalint.analysis.symbols import BDIM
    from cudalint.analysis.uniformity import divergent_guards
    guards, syms = _loop_guard(tmp_path, loop, block)
    shape = {"256": (256, 1, 1), "dim3(96)": (96, 1, 1)}[block]
    assert divergent_guards(guards, shape, syms) == divergent
    # blockDim unknown: thread-dependent is divergent, but for a block-strided loop whose bound is a multiple of its
    # step (the step is the code's tile, as `blockIdx.x * 256 + threadIdx.x` is: AMGX's cusp reduction)
    assert divergent_guards(guards, None, syms) == ([] if "p < 256; p += 256" in loop else [2])
    assert all(g.free_symbols - set(BDIM) for g, _ in guards)


@pytest.mark.parametrize("loop,want", [
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; if (i + 1 < n)", [("n - 1", "blockDim.x")]),  # edge n - 1
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; if (i <= n)", [("n + 1", "blockDim.x")]),
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; if (n > i)", [("n", "blockDim.x")]),
    # a transpose's tiled thread terms: `bidx % blockDim.y` spans blockDim.y, `bidx / blockDim.y` blockDim.x
    ("int b = threadIdx.y * blockDim.x + threadIdx.x; int ix = blockIdx.y * blockDim.y + b % blockDim.y; "
     "int iy = blockIdx.x * blockDim.x + b / blockDim.y; if (ix < n && iy < n)",
     [("n", "blockDim.y"), ("n", "blockDim.x")]),
    ("int w = blockDim.x / 32; for (int r = blockIdx.x * w + threadIdx.x / 32; r < n; r += gridDim.x * w)",
     [("n", "floor(blockDim.x/32)")]),                       # a row per warp, grid-stride
    ("for (int t = blockIdx.x * blockDim.z + threadIdx.z; t < n; t += gridDim.x * blockDim.z)",
     [("n", "blockDim.z")]),                                 # the block's z slices tile the index
    ("for (int r = threadIdx.x / 32; r < n; r += blockDim.x / 32)", [("n", "floor(blockDim.x/32)")]),  # block-strided
    ("if (threadIdx.x < n)", []),                                                        # splits any block if n small
    ("for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += 7)", []),          # a stride off the span
    # a run-time step (apex's `col += COL_STRIDE`, a traits constant): each trip's edge is `n - k*step`, so both must
    # be multiples of the span
    ("int step = 3 * n; for (int c = blockIdx.x * 32 + threadIdx.x % 32; c < n; c += step)",
     [("n", "32"), ("3*n", "32")]),
    ("for (int c = blockIdx.x * 32 + threadIdx.x % 32; c < n; c += 48)", []),             # a number off the span
    # a block's own row of a run-time width (DeepSpeed's fake quantizer: `bid * token_size + tid < total_count`)
    ("int w = n / 4; if (blockIdx.x * w + threadIdx.x < w * 8)", [("8*floor(n/4)", "blockDim.x"),
                                                                   ("floor(n/4)", "blockDim.x")]),
    # rows of a run-time number of warps (DeepSpeed's softmax: `wid / reduce_blocks` with `reduce_blocks = w >> 5`)
    ("int rb = n >> 5; int r = blockIdx.x * ((blockDim.x >> 5) / rb) + (threadIdx.x >> 5) / rb; if (r < n)",
     [("n", "floor(floor(blockDim.x/32)/floor(n/32))")]),
    ("int i = blockIdx.x * blockDim.x + 2 * threadIdx.x; if (i < n)", []),               # lanes skip values
    ("int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < threadIdx.y)", []),         # a bound per thread
])
def test_bounds_checks_of_a_global_index(tmp_path, loop, want):
    from cudalint.analysis.uniformity import bound_checks
    _, k, syms = guards_of_barriers(tmp_path, loop + " { __syncthreads(); }")
    assert [bound_checks(v, syms) for v, _ in k.barriers[0].guards if v is not None] == [want]


@pytest.mark.parametrize("cond,block,uniform", [
    ("threadIdx.x / 32 < n", (64, 1, 1), True),                  # a warp index against a run-time bound
    ("threadIdx.y + blockIdx.x * blockDim.y < n", (16, 4, 1), False),  # 16-wide rows: two y in a warp
    ("threadIdx.y + blockIdx.x * blockDim.y < n", (32, 8, 1), True),   # 32-wide rows: one y per warp
    ("threadIdx.z + blockIdx.x * blockDim.z < n", (32, 1, 8), True),
    ("threadIdx.x >= 128", (256, 1, 1), True),                  # constant bound on a warp boundary
    ("threadIdx.x >= 100", (256, 1, 1), False),                 # splits warp 3
    ("threadIdx.x < n", (256, 1, 1), False),                    # any lane can be the last
    ("(threadIdx.x & 31) >= 16", (256, 1, 1), False),
])
def test_warp_uniform_conditions(tmp_path, cond, block, uniform):
    from cudalint.analysis.uniformity import warp_uniform
    _, k, syms = guards_of_barriers(tmp_path, f"if ({cond}) __syncthreads();")
    (v,) = [v for v, _ in k.barriers[0].guards if v is not None]
    assert warp_uniform(v, block, syms) is uniform
    assert warp_uniform(v, None, syms) is False  # blockDim unknown: not shown


@pytest.mark.parametrize("cond,block,varying", [
    ("threadIdx.x / 256 + blockIdx.x < n", (256, 1, 1), False),     # a group of one block: 0 in every thread
    ("threadIdx.x / 256 + blockIdx.x < n", (512, 1, 1), True),      # two groups in a block
    ("threadIdx.y < n", (256, 1, 1), False),                         # a one-row block
    ("threadIdx.y < n", (32, 8, 1), True),
    ("a[threadIdx.x / 256] > 0.0f", (256, 1, 1), False),            # a load at a block-uniform address
    ("a[threadIdx.x / 128] > 0.0f", (256, 1, 1), True),
    ("atomicAdd(&a[threadIdx.x / 256], 1.0f) > 0.0f", (256, 1, 1), True),  # atomics' results still vary
])
def test_uniformity_decided_again_for_the_launched_block(tmp_path, cond, block, varying):
    # HeCBench's word2vec: `word = threadIdx.x / 128 + ...` in blocks of 128 threads is the block's word, and values
    # loaded at it are block-uniform; without the block they are thread-dependent
    src = "__global__ void k(float* a, int n, bool flag) {\n" + f"if ({cond}) __syncthreads();" + "\n}\n"
    p = tmp_path / "v.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    (value, _), = model.kernels[0].barriers[0].guards
    assert model.symbols.varies_in_block(value, block) is varying
    assert model.symbols.varies_in_block(value, None) is True


def test_min_macro_is_min_and_its_comparison_splits(tmp_path):
    """`a < b ? a : b` is Min(a, b), and `m < Min(n, s + 16)` is `m < n && m < s + 16`, each judged alone."""
    _, k, _ = guards_of_barriers(tmp_path, """
    int s = blockIdx.x * 32 + threadIdx.y * 16;
    int stop = n < s + 16 ? n : s + 16;
    if (threadIdx.x < stop) __syncthreads();
    int top = n > s ? n : s;
    if (threadIdx.x < top) __syncthreads();""")
    first, second = (b.guards[-1][0] for b in k.barriers)
    assert str(first) == "(threadIdx.x < n) & (threadIdx.x < 32*blockIdx.x + 16*threadIdx.y + 16)"
    assert str(second) == "(threadIdx.x < n) | (threadIdx.x < 32*blockIdx.x + 16*threadIdx.y)"


def test_a_comparison_every_thread_of_the_grid_meets_is_dropped():
    """With gridDim.x at most num / 32 (the launch's grid in the kernel's parameters), a chunk of 16 at
    `start = 32*blockIdx.x + 16*threadIdx.y` in a block of 2 rows never reaches past num: the loop's trips are
    the chunk's, the same in every thread (HeCBench's hexciton); with num / 16 blocks it can."""
    import sympy

    from cudalint.analysis import uniformity
    from cudalint.analysis.symbols import BDIM, BID, GDIM, TID, Symbols
    syms = Symbols()
    k, num = syms.trip(7), syms.param("num")
    m = 32 * BID[0] + 16 * TID[1] + 2 * k
    past, chunk = sympy.Lt(m, num), sympy.Lt(m, 32 * BID[0] + 16 * TID[1] + 16)
    known = {BDIM[1]: 2, BDIM[2]: 1}
    assert uniformity.holds_in_grid(past, [chunk], known, syms, {GDIM[0]: num / 32})
    assert not uniformity.holds_in_grid(past, [chunk], known, syms, {GDIM[0]: num / 16})
    assert not uniformity.holds_in_grid(past, [chunk], known, syms, {})  # no launch: gridDim unknown
    assert not uniformity.holds_in_grid(past, [], known, syms, {GDIM[0]: num / 32})  # the trips unbounded
    assert not uniformity.holds_in_grid(past, [chunk], {}, syms, {GDIM[0]: num / 32})  # blockDim.y unknown
    assert uniformity.without_grid_facts(sympy.And(past, chunk), known, syms, {GDIM[0]: num / 32}) == chunk


def test_comparing_a_bool_that_holds_a_comparison_with_0_or_1(tmp_path):
    """`bool f = threadIdx.x >= 128; if (f == 0)` is `threadIdx.x < 128` (was an opaque value), `f != 0` and
    `f == 1` are the comparison itself."""
    _, k, _ = guards_of_barriers(tmp_path, """
    bool f = threadIdx.x >= 128;
    if (f == 0) __syncthreads();
    if (f != 0) __syncthreads();
    if (f == 1) __syncthreads();""")
    assert [str(b.guards[-1][0]) for b in k.barriers] == ["threadIdx.x < 128", "threadIdx.x >= 128",
                                                           "threadIdx.x >= 128"]


def test_a_comparison_through_a_mod_of_the_thread_is_not_taken_at_its_end():
    """`threadIdx.x % 32 + 32*blockIdx.x < n` is largest at lane 31, not at threadIdx.x = blockDim.x - 1: no worst
    case is taken through a Mod or a floor (the grid bound would prove too much)."""
    import sympy

    from cudalint.analysis import uniformity
    from cudalint.analysis.symbols import BDIM, BID, GDIM, TID, Symbols
    syms = Symbols()
    n = syms.param("n")
    c = sympy.Lt(sympy.Mod(TID[0], 32) + 32 * BID[0], n)
    assert not uniformity.holds_in_grid(c, [], {BDIM[0]: 40}, syms, {GDIM[0]: n / 32})
    assert uniformity.holds_in_grid(sympy.Lt(TID[0] + 32 * BID[0], n), [], {BDIM[0]: 32}, syms, {GDIM[0]: n / 32})


def test_a_comparison_with_a_floored_quotient_is_the_comparison_of_products():
    import sympy

    from cudalint.analysis.symbols import BID, GDIM, TID
    from cudalint.analysis.uniformity import floor_bounds

    i = sympy.Symbol("k@i:9.1", integer=True, nonnegative=True)
    tx, bx, gx = TID[0], BID[0], GDIM[0]
    gid, nthreads = 256 * bx + tx, 256 * gx
    trips = sympy.floor((2**20 - gid + nthreads - 1) / nthreads)
    # i < ceil((N - gid) / T)  <=>  T * (i + 1) <= N - gid + T - 1  <=>  gid + T * i <= N - 1
    assert floor_bounds(sympy.StrictLessThan(i, trips)) == sympy.Le(256 * gx * i + 256 * bx + tx, 2**20 - 1)
    # its negation (an else branch, a loop's exit) and the mirrored forms
    assert floor_bounds(sympy.GreaterThan(i, trips)) == sympy.Gt(256 * gx * i + 256 * bx + tx, 2**20 - 1)
    assert floor_bounds(sympy.StrictGreaterThan(trips, i)) == sympy.Le(256 * gx * i + 256 * bx + tx, 2**20 - 1)
    # a quotient whose divisor is not known positive, or no quotient at all, is left as written
    n = sympy.Symbol("n", integer=True)
    assert floor_bounds(sympy.StrictLessThan(i, sympy.floor(tx / n))) == sympy.StrictLessThan(i, sympy.floor(tx / n))
    assert floor_bounds(sympy.StrictLessThan(tx, n)) == sympy.StrictLessThan(tx, n)


def test_a_thread_index_pinned_to_zero_stays_a_sympy_number():
    """`threadIdx.y` alone, with blockDim.y = 1, is pinned to 0: a Python 0 had no `.has`, and CL301 crashed on DGL's
    labor sampling (a loop-carried value whose source is `threadIdx.y`)."""
    from cudalint.analysis.symbols import Symbols, TID, pin_threads
    zero = pin_threads(TID[1], (128, 1, 1))
    assert zero == 0 and isinstance(zero, sympy.Integer)
    symbols = Symbols()
    row = symbols.opaque("row", True, sources=(TID[1],))
    assert not symbols.varies_in_block(row, (128, 1, 1))
    assert symbols.varies_in_block(row, (32, 4, 1))
