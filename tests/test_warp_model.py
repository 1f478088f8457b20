"""The warp model on its own: lanes, sectors, banks, residues (exact values from DESIGN.md §3)."""

from cudalint.analysis.symbols import BDIM, BID, TID, Symbols
from cudalint.analysis.warp import (
    LaunchShape, bank_ways, global_cost, picture, sectors, shared_cost,
)

tx, ty, tz = TID
bx = BID[0]
B256 = LaunchShape((256, 1, 1), "test")


def gid(block=256):
    return bx * block + tx


def cost(offset, shape=B256, size=4, syms=None):
    return global_cost(picture(offset, shape, syms or Symbols(), "global"), size)


def test_unit_stride_float_is_four_sectors():
    c = cost(4 * gid())
    assert (c.sectors_per_request, c.ideal_sectors_per_request, c.efficiency) == (4, 4, 1.0)


def test_stride_two_and_thirty_two():
    assert (cost(8 * gid()).sectors_per_request, cost(8 * gid()).efficiency) == (8, 0.5)
    assert (cost(128 * gid()).sectors_per_request, cost(128 * gid()).efficiency) == (32, 0.125)


def test_offset_by_one_element_is_five_sectors():
    c = cost(4 * (gid() + 1))
    assert (c.sectors_per_request, c.aligned_sectors_per_request, c.efficiency) == (5, 4, 0.8)


def test_runtime_offset_worst_case_over_residues():
    syms = Symbols()
    off = syms.param("offset")
    pic = picture(4 * (gid() + off), B256, syms, "global")
    assert pic.residues == [0, 4, 8, 12, 16, 20, 24, 28]
    assert global_cost(pic, 4).sectors_per_request == 5


def test_runtime_stride_uses_large_value_and_keeps_symbolic_stride():
    syms = Symbols()
    n = syms.param("n")
    pic = picture(4 * gid() * n, B256, syms, "global")
    assert str(pic.stride) == "4*n"
    assert global_cost(pic, 4).sectors_per_request == 32
    assert any("n = 4096" in a for a in pic.assumptions)


def test_16x16_block_puts_two_rows_in_a_warp():
    shape = LaunchShape((16, 16, 1), "test")
    syms = Symbols()
    width = syms.param("width")
    y = BID[1] * 16 + ty
    x = bx * 16 + tx
    pic = picture(4 * (y * width + x), shape, syms, "global")
    # lanes 0-15 are row 0, lanes 16-31 row 1 (width = 4096 floats apart)
    assert pic.warps[0][:2] == [0, 4] and pic.warps[0][16] == 4 * 4096
    assert len(pic.warps) == 8
    assert global_cost(pic, 4).sectors_per_request == 4


def test_sectors_counts_straddling_accesses():
    assert sectors([0, 4, 8], 4) == 1
    assert sectors([30], 4) == 2
    assert sectors([0, 16], 16) == 1


def test_bank_conflicts_column_read_and_padding():
    col32 = [lane * 32 * 4 for lane in range(32)]
    col33 = [lane * 33 * 4 for lane in range(32)]
    assert bank_ways(col32, 4) == (32, 32)
    assert bank_ways(col33, 4) == (1, 1)
    assert bank_ways([lane * 8 for lane in range(32)], 4) == (2, 2)
    assert bank_ways([0] * 32, 4) == (1, 1)  # broadcast


def test_eight_byte_accesses_use_two_phases():
    assert bank_ways([lane * 8 for lane in range(32)], 8) == (1, 2)
    assert bank_ways([lane * 16 for lane in range(32)], 16) == (1, 4)


def test_shared_cost_from_picture_for_2d_tile():
    shape = LaunchShape((32, 32, 1), "test")
    pic = picture(4 * (tx * 32 + ty), shape, Symbols(), "shared")
    assert shared_cost(pic, 4).bank_conflict_ways == 32


def test_unknown_block_assumes_multiple_of_32():
    shape = LaunchShape(None, "unknown")
    off = 4 * (bx * BDIM[0] + tx)
    c = global_cost(picture(off, shape, Symbols(), "global"), 4)
    assert c.sectors_per_request == 4


def test_thread_varying_loaded_index_is_not_modelled():
    import pytest

    from cudalint.analysis.warp import NotModelled
    syms = Symbols()
    j = syms.opaque("load", varying=True)
    with pytest.raises(NotModelled):
        picture(4 * j, B256, syms, "global")


def test_an_unrolled_loops_consecutive_loads_become_one_vector_access():
    """`r[i] = s[base + i]`, i < 8 of float, base a multiple of 16 bytes in a 16-byte-aligned array: 16-byte
    loads at base + 16*trip (two LDS.128, fixtures/shared/register_tile.cu); a base of 4-byte multiples, or an
    array aligned to 4 bytes, stays 4-byte loads; a loop of 2 trips reads 8 bytes."""
    import sympy

    from cudalint.analysis.merge import vectorize_unrolled
    from cudalint.analysis.symbols import TID
    from cudalint.model import Access, AddressSpace, ArrayDecl, Span

    k = sympy.Symbol("k", integer=True, nonnegative=True)
    arr = ArrayDecl("Bs", AddressSpace.SHARED, "float", 4, (1024,))
    base = 32 * sympy.Mod(TID[0], 16)

    def load(offset, trips=8):
        return Access(arr, offset, 4, True, False, Span("k.cu", 1, 1, 1, 1), unrolled=(k, trips))

    v = vectorize_unrolled(load(base + 4 * k), 16)
    assert (v.size, v.offset) == (16, base + 16 * k)
    assert vectorize_unrolled(load(base + 4 + 4 * k), 16).size == 4      # base 4 bytes past a boundary
    assert vectorize_unrolled(load(base + 4 * k), 4).size == 4           # the array only 4-byte aligned
    assert vectorize_unrolled(load(base + 4 * k, trips=2), 16).size == 8  # 2 trips fill 8 bytes
    assert vectorize_unrolled(load(base + 8 * k), 16).size == 4          # a stride of 2 floats: not consecutive


def test_a_linear_comparison_decided_at_the_box_corners_agrees_with_every_lane():
    """`_linear_everywhere` answers a guard linear in threadIdx, blockIdx and a loop's trip counter from the smallest
    and largest values over the block and the samples; it must say what evaluating every lane of every sample says,
    and abstain where the lanes or samples disagree."""
    import itertools
    import sympy
    from cudalint.analysis.symbols import BID, TID
    from cudalint.analysis.warp import _SAMPLE_BLOCKS, _linear_everywhere
    k = sympy.Symbol("k", integer=True)
    x, y, z = TID
    coords = [(a, b, 0) for b in range(4) for a in range(32)]
    box = [(0, 31), (0, 3), (0, 0)]
    ks = (0, 1, 2, 5)
    cases = [x + 32 * y + 128 * BID[0] + 1024 * k < 1 << 20,   # a bounds check every lane passes
             x + 32 * y >= 200,                                # no lane passes
             x < 16,                                           # half the lanes: abstain
             x + 128 * BID[0] < 300,                           # depends on the block: abstain
             -x - y > -40,                                     # every lane: -34 > -40
             2 * x + k <= 66]                                  # 67 at lane 31, k = 5: abstain
    for g in cases:
        f = sympy.lambdify([*TID, *BID, k], g)
        seen = {bool(f(a, b, c, *blk, v)) for a, b, c in coords for blk in _SAMPLE_BLOCKS for v in ks}
        want = seen.pop() if len(seen) == 1 else None
        assert _linear_everywhere(g, box, _SAMPLE_BLOCKS, [(k, ks)]) == want, g
    assert _linear_everywhere(sympy.Mod(x, 2) < 1, box, _SAMPLE_BLOCKS, []) is None   # not linear: evaluated
    assert _linear_everywhere(x * y < 500, box, _SAMPLE_BLOCKS, []) is None
