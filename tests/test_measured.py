"""Predictions vs the H200 measurements recorded in ``fixtures/measured/`` (no GPU needed).

One test per measured kernel.  For each CL101/CL102 finding, ``sectors_per_request`` must equal the measured
global load (or store, when the message says store) sectors per request of its kernel within 5 %; for each
CL201 finding, ``wavefronts_per_request`` must equal the measured shared wavefronts per load instruction within
5 %.  Every quantity no finding explains must be ideal: global sectors per request = bytes asked for / 32
(4 for full-warp 4-byte accesses, 8 for 8-byte, 16 for 16-byte) within 5 %, shared wavefronts per
instruction <= 1.2 (x 2 for 8-byte accesses).  Changing a prediction in the model makes this test fail.

The other families (``cudalint.verify.compare``): CL301/CL302 finding lines vs the lines compute-sanitizer's
synccheck reports, one run per kernel (a line synccheck reports without a CL301 finding fails; a finding it does
not report must be listed, line by line, in ``SYNCCHECK_UNREPORTED`` with the reason); CL401
``distinct_addresses_per_warp`` = 1 + (constant-cache requests - LDC instructions executed) / warps within 5 %,
<= 1.05 requests per LDC elsewhere; CL501 kernels execute more than 2 instructions per warp beyond the program's
shiftMask kernel, clean kernels at most 2; CL601 copy calls block the host >= 10x the median pinned call of the
clean host programs, clean ones <= 1/10 of the median pageable call. Host rows have the kernel ``(host)``.

Measurements that disagree are listed in ``KNOWN`` with the quantities and the reason (see
fixtures/measured/NOTES.md): they are reported as xfail; any other disagreement in that kernel fails, and so does
a known one that starts to agree (re-measured, or the linter learned the case).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from cudalint.diagnostics import Severity
from cudalint.verify import Row, case_name, compare_fixture, host_reference, kernel_base

from .expectations import analysed

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "fixtures" / "measured"
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.cu"))

# (case, kernel) -> (the quantities that disagree, why); keep in step with fixtures/measured/NOTES.md
KNOWN = {
    ("global__unknown_2d_block", "transposeRead"): (
        {"global_ld_sectors_per_request"},
        "the point of the fixture: the block is a run-time choice (16 x 16 in the measured run), so the finding's "
        "metric is the 32-wide picture's 32 and its message gives the 16 x 16 count, 16, which is what the H100 "
        "measured (session 41); the finding is info for that reason"),
    ("global__store_reload", "reloadAfterAtomic"): (
        {"global_st_sectors_per_request"},
        "two store sites: `box[o]` at 8 sectors a request, as predicted, and `out[r % 2^20]` at the atomic's results, "
        "which nvcc aggregates per warp (consecutive values: 4 sectors, not a CL101 pattern): (8 + 4) / 2 = 6 measured "
        "(H100, session 41); the loads are the point: 2 requests a warp here, 1 in forwardAfterAtomic"),
    ("global__store_reload", "forwardAfterAtomic"): (
        {"global_st_sectors_per_request"},
        "as reloadAfterAtomic: (8 + 4) / 2 = 6 store sectors a request; 1 load request a warp, the reload forwarded"),
    ("global__store_reload", "forwardPastOtherBytes"): (
        {"global_st_sectors_per_request"},
        "three store sites: `box[o]` and `box[o + 1]` at 8 sectors each, as predicted, and the coalesced `out[o / 2]` "
        "at 4: 20 / 3 = 6.67 measured; 1 load request a warp (the reload forwarded past the store to other bytes)"),
    ("global__store_reload", "reloadPastOtherPointer"): (
        {"global_st_sectors_per_request"},
        "three store sites: `box[o]` at 8 sectors, as predicted, `other[o / 2]` and `out[o / 2]` at 4: 16 / 3 = 5.33 "
        "measured; 2 load requests a warp (the other pointer may alias)"),
    ("global__unseen_loads", "covariance"): (
        {"global_ld_sectors_per_request"},
        "the quaternion and scale copies are `memcpy`s of a dependent `sizeof`, which cudalint cannot evaluate (the "
        "point of the fixture: it names them and holds the stores to the 6x limit); the SASS has LDG.E.U8 x16 and x12, "
        "16 and 12 bytes apart across lanes: (16 x 16 + 12 x 12) / 28 = 14.29 sectors a request, measured"),
    ("shared__tiny_launch_conflict", "diagonalSweep"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction",
         "global_ld_sectors_per_request"},
        "the kernel's counters average its conflicted sweep with its conflict-free fills and reads, and they add up to "
        "the lines' predictions (H100, stop 51, diagonalSweep<17, 128>, 128 warps): 140 loads a warp, 455 wavefronts: "
        "16 row reads and 31 `r` reads at 1, so the sweep's 93 `s` loads take (455 - 47) / 93 = 4.39, the predicted "
        "4.50 (16 steps) and 4.27 (15) weighed: 4.39; 81 stores, 186 wavefronts: 50 fill stores at 1, the 31 sweep "
        "stores (186 - 50) / 31 = 4.39.  Global loads: the `r` and `s` rows at the predicted 2.88 sectors, the 17 "
        "one-lane `s[y][0]` loads at 1: (33 x 2.88 + 17) / 50 = 2.24, measured 2.24"),
    ("shared__texture_fill_conflict", "edges"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "one-byte accesses: at the conflicted pitch 384 the H100 measured 2.16 wavefronts a load and 2.23 a store "
        "(edges<0>; edges<1>, through the function pointer, 2.12 and 2.41), at the padded pitch 448 1.03 and 1.09 "
        "(1.03 and 1.35): a baseline above 1 the model does not have, and the conflict adds the predicted one "
        "wavefront (1.13, 1.14; 1.09, 1.06) to it; the source counters give each conflicted line 2, as predicted "
        "(stop 51, NOTES.md)"),
    ("sync__traits_class", "finalize"): (
        {"global_ld_sectors_per_request"},
        "finalize<Traits<400, ..>>: COLS = 100 in 4 blocks of 32 columns, so the last block runs 4 active lanes (1 "
        "sector a request); cudalint's 4.5 is the full warps' (rows of 400 bytes, every other one 16 bytes past a "
        "sector boundary: 4 and 5 sectors), the measurement the mean over all 4 blocks, 3.625"),
    ("sync__atomic_read", "countedItems"): (
        {"global_st_sectors_per_request"},
        "the control's divergent loop (each lane its own trip count, 0 to 3) leaves the warp split at the store after "
        "it: 4 store requests per warp (8192 for 2048 warps), each of the lanes that left after one trip count, 4 "
        "sectors each at 25 % of their bytes used; cudalint pictures the store once for the whole warp"),
    ("global__switch_cases", "rowCases"): (
        {"global_st_sectors_per_request", "constant_requests_per_ldc"},
        "one kernel holds the three store sites (4, 4 and 8 sectors predicted): their per-kernel mean is "
        "(16 * 63 + 8) / 191 requests = 5.32, block 3 skipping the case-2/3 store, measured 5.32; and 1.29 "
        "constant-cache requests per LDC in a kernel without __constant__ data, whose warps mostly exit early "
        "(parameter reads, not a CL401 pattern)"),
    ("shared__field_update", "strideTwo"): (
        {"shared_ld_wavefronts_per_instruction"},
        "the 2-way load of `s[2 * t] += 1.0f` is one LDS per warp at 2 wavefronts, as predicted (SASS: LDS, STS); "
        "thread 0's final read of s[0] and s[1] is one LDS.64 at 1 wavefront, and the kernel's average over its 5 "
        "load instructions is (4 x 2 + 1) / 5 = 1.8 measured."),
    ("constant__constant_pointer", "devicePointer"): (
        {"global_ld_sectors_per_request"},
        "as predicted, two global loads a warp: the `__device__` pointer `g_vals` (8 bytes at one address, one "
        "sector: a broadcast, which the bytes-asked ideal counts as 0.25) and the coalesced `g_vals[i]` (4 sectors): "
        "(1 + 4) / 2 = 2.5 sectors per request measured (H100, session 37), against 2.125 by bytes"),
    ("sync__rounded_down_loop", "roundedAnd"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the block-strided loop is coalesced (24 requests of 4 sectors: 8 warps x 3 trips to end = 768); thread 0's "
        "tail loop over the 232 remaining items is one lane a request, 1 sector for 4 bytes (232 requests), which the "
        "bytes-asked ideal counts as 0.125: (96 + 232) / 256 = 1.28 measured. synccheck: 0 errors, as predicted"),
    ("global__struct_param", "idKernel"): (
        {"global_ld_sectors_per_request"},
        "the counter is the kernel's average over its two loads, one request each a warp: the flagged `p.pix` read of "
        "each pixel's last float (16 sectors, as predicted) and the coalesced `p.in[pidx]` (4): (16 + 4) / 2 = 10 "
        "measured (H100, session 38)"),
    ("global__tensor_accessor", "pointNorm"): (
        {"global_ld_sectors_per_request"},
        "the prediction takes the run-time `pts.size(1)` as 4096 (info, the assumption stated: 32 sectors); this "
        "program's points have 3 coordinates, 12 bytes a lane: 12 sectors a request measured (H100, session 38), the "
        "thread's three loads using them all"),
    ("shared__bitonic_pairs", "mergePairs"): (
        {"shared_st_wavefronts_per_instruction"},
        "the per-site prediction is exact, the counter is the kernel's average over 17 store instructions a warp "
        "(nvcc unrolls the 8 trips; SASS: 2 STS before the loop, 2 STS a trip for stride 128 .. 2, one STS.64 for "
        "stride 1): 2 + 3 x 2 x 1 + 4 x 2 x 2 + 2 (the STS.64, 256 bytes) = 26 wavefronts, 26 / 17 = 1.53 "
        "measured (H100, session 37); the flagged sites alone: (3 x 1 + 4 x 2 + 2) / 8 = 1.62 per trip"),
    ("sync__rounded_trips", "wordGroups"): (
        {"global_ld_sectors_per_request"},
        "the block-uniform load `seeds[word]` (the point of the kernel: its value is uniform) is one sector per "
        "request for 4 bytes asked, a broadcast, which the bytes-asked ideal counts as waste: 3.4 sectors per request "
        "measured against 3.225 by bytes; the coalesced `out` loads are 4.00."),
    ("global__split_index", "offsetAxpy"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the info findings' 32 sectors rest on a large sample of the run-time stride `inc`; the program calls the "
        "launcher with inc = 1 (as darknet's axpy_gpu does), and the H200 measures 4.00 sectors per request for the "
        "load and the store: the unit-stride case the findings' note names, and why they are info."),
    ("global__runtime_layout", "runTimeStrides"): (
        {"global_ld_sectors_per_request"},
        "the info finding's 32 sectors rest on a large sample of the run-time stride `s00`; the program runs with "
        "s00 = 1 (a contiguous row, as ggml's tensors are), and the H200 measures 4.00 sectors per request: the "
        "case the finding's note names (with a unit stride there the access is coalesced), and why it is info."),
    ("sync__loop_carried", "threadSteps"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the divergent control: its lanes step kbc by 2 or 3, so `bounds[kbc]` is read at lane-varying addresses "
        "(1.08 sectors per request, a value cudalint leaves unknown rather than guess) and the lanes leave the loop "
        "apart, so the final coalesced store is issued in pieces (4 sectors per request at 75 % efficiency)."),
    ("global__error_path", "fixRates"): (
        {"global_st_sectors_per_request"},
        "the three fix-up stores run only for a NaN or infinite rate, and the inputs are finite: 0 store requests "
        "(fixRates 40.2 us, scaleRates 95.5 us with its 5.96 M store sectors at 32 per request). The stores are "
        "uncoalesced as stated (CL101 info), and cost nothing unless the error path runs."),
    ("shared__memory_bound_conflict", "stage2"): (
        {"shared_ld_wavefronts_per_instruction"},
        "2.115 wavefronts per load instruction for the 2-way s[2 * t], 5.8 % over 2: every kernel of this DRAM-bound "
        "fixture measures 0.02 to 0.18 wavefronts over its ways (stage1, conflict-free, 1.09), the arbitration "
        "excess GROUND_TRUTH.md shows for t[32][33] (1.16); the other ways are within 5 %."),
    ("shared__inner_loop_trips", "diagonal"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "one warp, every shared access counted together. The stores add up exactly as modelled per execution: 16 "
        "tile fills (1 each) + line 18's sum over i = 1..14 of i trips x ceil((15 - i) / 2) ways = 308 + line 19's "
        "sum over i = 0..14 of ceil((15 - i) / 2) = 64: 388 wavefronts measured. Line 18's 4.0 is the average over "
        "the outer trips; weighted by the inner loop's i trips it is 308 / 105 = 2.93 (fixtures/measured/NOTES.md)."),
    ("shared__hoisted_load", "hoisted"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "the 4-way a[4 * t] load (4 wavefronts), hoisted out of the loop, is counted with the loop's 32 uniform "
        "LDS.128 of b[j] (2 each): 68 wavefronts in 33 instructions per warp, so the conflicted load runs once, "
        "as modelled (SASS: one LDS before the loop); the stores a[4 * t] (4) and b[t] (1): 5 / 2 = 2.5."),
    ("shared__hoisted_load", "ownElement"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "a[4 * t] loaded once before the loop and stored once after it (SASS: one LDS, one STS around the "
        "loop), counted with b[j]'s 32 LDS.128 and the tile stores: 68 / 33 load and 9 / 3 store wavefronts "
        "per instruction per warp."),
    ("global__dominated_reload", "constantPointer"): (
        {"global_st_sectors_per_request"},
        "the kernel's two stores are counted together: the 32-sector store through the constant pointer and the "
        "4-sector out[i] store, (32 + 4) / 2 = 18 measured; no third access (the reload through the same constant "
        "pointer is served from the register, SASS: one LDG.E, two STG.E)."),
    ("global__dominated_reload", "reloadAfterStore"): (
        {"global_ld_sectors_per_request"},
        "three loads counted together: p[tid].cost (32), lower[tid] (4) and p[tid].cost again past the store to "
        "moved[] (32): (32 + 4 + 32) / 3 = 22.67 measured, so nvcc does issue the reload, as modelled (an info "
        "finding: its sectors are in L1)."),
    ("global__read_offset", "readOffset"): (
        {"global_ld_sectors_per_request"},
        "the offset is a kernel parameter, 0 in the first launch and 11 in the second: a parameter is bound to a "
        "launch's constant only when every launch passes the same one, so the measured 4.50 (both summed) is a "
        "mix CL102 makes no claim on; readOffsetUnroll4, launched once with 11, is predicted (5.00)."),
    ("shared__partial_block", "zSlices"): (
        {"shared_ld_wavefronts_per_instruction"},
        "the load is the same address as the store (SASS: STS [R5] then, after BAR.SYNC, LDS [R5]), and the store "
        "measures 1.00 wavefronts per instruction: its 32 lanes hit 32 banks. The load's 1.30 is not a bank "
        "conflict; the excess (also 1.09-1.16 on conflict-free loads elsewhere) is not explained."),
    ("shared__dynamic_shared", "reduceInterleaved"): (
        {"shared_st_wavefronts_per_instruction"},
        "CL201 predicts the loads (3.92 wavefronts per request over the stride loop's trips, measured 3.87 per "
        "load instruction), but the store side is compared per kernel: the measured 2.77 wavefronts per store "
        "instruction mixes the conflicted s[index] store (3.92) with the conflict-free s[tid] store before "
        "the loop (8 warps x 1): (47 + 8) / (12 + 8) = 2.75. Kernel-level aggregation of several accesses is "
        "not modelled, so this quantity stays unexplained."),
    ("constant__staged_table", "constantRounds"): (
        {"distinct_addresses_per_warp"},
        "the per-lane read in the 64 rounds is 64 bank-3 LDCs once nvcc unrolls the loop, so the kernel's request "
        "count is not one LDC's; per LDC it is (1,075,838,976 - 35,651,584) / 524,288 warps / 64 = 31 extra "
        "requests, the 32 distinct addresses predicted (fixtures/measured/NOTES.md, session 31)."),
    ("constant__hoisted_read", "invariantRead"): (
        {"distinct_addresses_per_warp"},
        "the loop-invariant read is made once per warp before the 256-trip loop, as predicted: (4,608 requests - 640 "
        "LDC executed) / 128 warps = 31 extra, 32 distinct addresses, once (36 requests a warp in all). The comparator "
        "wants as many LDCs executed per warp as the SASS holds, 6, of which one sits on the n <= 0 path "
        "(H100, session 46)."),
    ("constant__hoisted_read", "invariantReadWithBarrier"): (
        {"distinct_addresses_per_warp"},
        "as invariantRead, barriers in the loop: 4,608 requests, 640 LDC executed, 128 warps: 32 distinct addresses "
        "once (SASS: the bank-3 LDC ahead of the loop's BAR.SYNCs; H100, session 46)."),
    ("constant__hoisted_read", "movingRead"): (
        {"distinct_addresses_per_warp"},
        "the moving read is 5 bank-3 LDCs once nvcc unrolls the loop by 4 (and its remainder), so one LDC's requests "
        "cannot be read off the kernel's: 1,049,088 requests / 128 warps = 8,196 a warp, 256 trips x 32 + 4, the 32 "
        "distinct addresses predicted on every trip (H100, session 46)."),
    ("constant__reused_index", "otherEntries"): (
        {"distinct_addresses_per_warp", "shared_st_wavefronts_per_instruction"},
        "three CL401 reads of 4 addresses each: the SASS has three bank-3 LDC.U8 (hoisted above the barriers), and "
        "the per-kernel request count cannot be split between them (sameEntry, one LDC, agrees). Its conflict-free "
        "`s[threadIdx.x]` stores measure 1.235 wavefronts per STS, over the 1.2 bound as other clean shared stores "
        "run 1.01-1.16 (note 5 above)."),
    ("shared__register_tile", "blockTile"): (
        {"shared_ld_wavefronts_per_instruction"},
        "each line agrees (fixtures/measured/shared__register_tile.lines.csv, SourceCounters per line): line 54, 8 "
        "LDS at 2.0 wavefronts each (ideal 1); line 56, 2 LDS.128 at 8.0 (ideal 4) in blockTile<0> and 8 LDS at 4.0 "
        "(ideal 1) in blockTile<1>; the kernel-level counter mixes them: (8*2 + 2*8) / 10 = 3.2 and (8*2 + 8*4) / 16 "
        "= 3.0, as measured. Kernel-level aggregation of several accesses is not modelled."),
    ("shared__unrolled_outer", "pragmaK"): (
        {"shared_ld_wavefronts_per_instruction"},
        "each line agrees (fixtures/measured/shared__unrolled_outer.lines.csv, SourceCounters per line): line 31, per "
        "warp and trip over bk, 16 LDS.128 of sB at 8.0 wavefronts (ideal 4) and 16 LDS.128 of sA at 2.0 (ideal 2: "
        "two 16-byte chunks, no conflict), 160 of 96 ideal, as predicted; the kernel-level counter mixes them: "
        "(16*8 + 16*2) / 32 = 5.0, as measured. Kernel-level aggregation of several accesses is not modelled."),
    ("shared__unrolled_outer", "loopK"): (
        {"shared_ld_wavefronts_per_instruction"},
        "each line agrees (shared__unrolled_outer.lines.csv): line 59, per warp and trip over bk, 8 trips over k of 8 "
        "LDS of sA at 2.0 wavefronts (ideal 1) and 2 LDS.128 of sB at 8.0 (ideal 4): 256 of 128 ideal, as "
        "predicted; the kernel-level counter mixes them with the fill loads: about 3.2, as measured."),
    ("sync__divergent_barrier", "cgSyncFewLanes"): (
        {"global_st_sectors_per_request"},
        "the store out[i] after the divergent cg::sync measures 2 requests and 5 sectors for one warp (2.5 "
        "sectors/request, ideal 2 for one request): SASS `@P0 BRA` over WARPSYNC.ALL + BAR.SYNC, so lanes 4-31 "
        "store and exit before lanes 0-3 leave the barrier, and the warp's store is split in two. A consequence of "
        "the CL301 bug on line 85, not a missed coalescing problem."),
    ("arith__div_mod", "byParameter"): (
        {"instructions_vs_shiftMask"},
        "expect-clean (p is not known to be a power of two, so CL501 makes no claim), but `v / p` and `v % p` "
        "by a run-time p are a real division: 43 instructions per warp against shiftMask's 18 (2.39x). A false "
        "negative by design: the rule is about powers of two; a general division is not reported."),
    ("host__managed", "(host)"): (
        {"copy_call_ms"},
        "clean (cudaMallocManaged memory is not pageable for CL601), but the H2D cudaMemcpyAsync of 64 MiB of "
        "managed memory last written by the CPU blocks the host 10.9 ms (median of 3), like a pageable copy "
        "(10.7-13.5 ms): the pages live in host memory and the driver copies them through its staging path. "
        "A false negative of CL601 (managed memory would need cudaMemPrefetchAsync to overlap)."),
    ("global__active_lanes", "splitWarp"): (
        {"global_st_sectors_per_request"},
        "CL101 predicts the else branch's store b[32 * i] (24 active lanes 128 bytes apart: 24 sectors); the "
        "kernel's other store a[i] (lanes 0-7, unit stride: 1 sector) shares the counter: (24 + 1) / 2 = "
        "12.5, as measured. Per-kernel counters mix the accesses of a kernel."),
    ("global__derived_pointers", "fieldPointer"): (
        {"global_ld_sectors_per_request"},
        "CL101 predicts the 32-sector load through rows[blockIdx.x].data; the uniform 8-byte load of the pointer "
        "itself (LDG.E.64, 1 sector) shares the counter: (32 + 1) / 2 = 16.5, as measured."),
    ("global__derived_pointers", "perThreadPointer"): (
        {"global_ld_sectors_per_request"},
        "CL101 predicts rows[i].data (16 sectors, 8 ideal); the load through the per-thread pointer is not "
        "modelled (no finding) and measures 32: (16 + 32) / 2 = 24, as measured."),
    ("global__derived_pointers", "sharedByReference"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "CL201 predicts the 2-way update of s[2 * tid] through the reference (2 wavefronts); the kernel's "
        "conflict-free s[tid] load and two s[tid] stores share the counters: loads (2 + 1) / 2 = 1.5, stores "
        "(2 + 1 + 1) / 3 = 1.33, as measured."),
    ("shared__template_instances", "reduceInterleaved"): (
        {"shared_ld_wavefronts_per_instruction", "shared_st_wavefronts_per_instruction"},
        "two instantiations share the base name this comparison matches kernels by: <int, 256> measures 3.88 "
        "load wavefronts per instruction (CL201 predicts 3.92), <double, 256> 6.46 (CL201 predicts 6.58); the "
        "store side mixes the conflict-free sdata[tid] store as in dynamic_shared (2.77 and 4.82)."),
    ("suppress__suppressions", "gatherKnownStrided"): (
        {"global_ld_sectors_per_request"},
        "the 32-sector CL101 of this kernel is suppressed on purpose (the fixture tests suppression comments): "
        "the measurement shows the suppressed finding is real."),
    ("global__register_reuse", "accumulate"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the SASS (sass_lines.json) has one LDG.E and one STG.E on line 11, no load on line 12 (the stored value "
        "is reused), one LDG on line 13 and none on line 14 (the field loaded above), as modelled; the counters "
        "mix the kernel's accesses: loads (32 + 20) / 2 = 26, stores (32 + 4 for out[p]) / 2 = 18, as measured."),
    ("global__helper_launch", "masked"): (
        {"global_ld_sectors_per_request"},
        "two load sites through the helper `ldg`: `mask[(base + 2i) / 2]`, 8-byte lanes at consecutive elements, the "
        "ideal 8 sectors a request, and the flagged `mask[64 * (i % 1024)]` at 32 (predicted): (8 + 32) / 2 = 20 "
        "measured (H100, session 43); both are LDG.E.64.CONSTANT in the SASS, the 8-byte width deduced."),
    ("shared__speculated_pair", "minPairs"): (
        {"shared_ld_wavefronts_per_instruction"},
        "the counter mixes three loads, all as modelled (SASS: `LDS R3, [R0]`, `LDS.64 R4, [R4]`, `LDS.64 [UR4]`): a "
        "block of 256 runs the loop's two loads in 4, 2, 1, 1, 1, 1, 1, 1 warps for strides 128 .. 1 and warp 0's final "
        "LDS.64: 25 instructions; the flagged `*cur` 2 wavefronts and the merged pair's LDS.64 2 (the ideal for 8-byte "
        "lanes) while warps are full, 1 each from stride 16 down (16 lanes or fewer), 1 for the final one: 39 "
        "wavefronts, 1.56 a load instruction; measured 39.4 per block, 1.577 (H100, session 43)."),
    ("global__bin_search", "binnedRows"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the point of the info finding: the finding prices a full warp (32 sectors), but at a trip of the bin loop only "
        "the lanes whose value falls in that trip's bin make the access; with values spread over 64 bins about one lane "
        "in two warps does, so a request moves 1 sector (source counters: line 17 at the ideal, 1.03 load and 1.00 "
        "store sectors a request over the kernel; H100, stop 54)"),
    ("global__bin_search", "keyedRows"): (
        {"global_ld_sectors_per_request"},
        "the kernel's loads mix the coalesced `keys[i]` (4 sectors a request) with the flagged `hist` load: (4 + 32) / "
        "2 = 18 measured; the flagged line alone is at 32, as predicted (source counters: 8x the ideal; nvcc turns the "
        "`k == b` loop into one update at `b = k` for every lane; H100, stop 54)"),
    ("global__bin_search", "binnedEveryTrip"): (
        {"global_ld_sectors_per_request"},
        "the kernel's loads mix the broadcast `edges` loads (1 sector a request) with the flagged `hist` load; the "
        "store, `hist` alone, is at the predicted 32 (source counters: the line's loads 6.34x the ideal against 5.67 "
        "predicted for the line's mix; H100, stop 54)"),
    ("global__bin_search", "thresholdRows"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "data-dependent lanes, as the finding's assumption says ('every lane taken to pass the condition on loaded "
        "data'): at trip w only the lanes whose value exceeds edges[w] update, about half over the trips for values "
        "spread over [0, 1): 16.4 store sectors a request against a full warp's 32 (the loads also mix in the "
        "broadcast `edges` loads: 8.63); H100, stop 54"),
    ("global__row_break", "haloRows"): (
        {"global_ld_sectors_per_request", "global_st_sectors_per_request"},
        "the finding's note: the lanes' pattern rests on the run-time `depth`, pictured as a large sample (8.75 sectors "
        "a request: unit-stride rows that start off the sectors); the measured run passes depth = 2, two lanes a row, "
        "so a warp spans 16 rows: 19.75 sectors a request (H100, stop 54)"),
    ("global__row_break", "haloAligned"): (
        {"global_st_sectors_per_request"},
        "clean because nothing can be shown: the lanes' pattern rests on the run-time `depth` (a reversed unit stride "
        "for a large one); the measured run passes depth = 2, two lanes a row of 964 doubles: 15.8 store sectors a "
        "request (H100, stop 54). Before stop 54 a CL102 said 9, from the large sample"),
    ("sync__reset_flag", "resetFlag"): (
        {"shared_ld_wavefronts_per_instruction"},
        "clean, and no conflict: the loads are all of one address a warp. ptxas reads the `noconv[i]` loop over "
        "blockDim.y (8 here) as 16-byte loads from a uniform register (SASS: `LDS.128 R4, [UR7]`, `LDS.128 R8, "
        "[UR7+0x10]`), so a sweep makes 4 scalar `noconv[ty]` loads at 1 wavefront and 2 broadcast 16-byte loads at "
        "2: 8 / 6 = 1.333, measured 1.333 (H100, stop 54); cudalint's picture of the loop is scalar loads at 1"),
    ("host__stack_array", "(host)"): (
        {"copy_call_ms"},
        "CL601, but the copy is 1 MiB: staging it blocks the host 0.108 ms (median of 3), 2.2x the 0.050 ms "
        "pinned call, not 10x. Pageable copies block for about their size at 5-10 GB/s (64 MiB: 10.7-13.5 "
        "ms); CL601 still warns, with the 0.1-0.21 ms it predicts for 1 MiB."),
    ("host__to_symbol_stack", "(host)"): (
        {"copy_call_ms"},
        "CL601, but cudaMemcpyToSymbolAsync copies 1 KiB: the call returns in 0.019 ms (median of 3), as fast "
        "as a pinned call; for so small a copy the staging is a memcpy of 1 KiB (CL601 is info for it)."),
}

# CL301/CL302 findings that synccheck does not report, line by line (case, line) -> why; see NOTES.md.
# Each kernel was checked in a run of its own (a reported barrier error aborts the program, so a whole-program
# run checks only the kernels up to the first faulty one).
SYNCCHECK_UNREPORTED = {
    ("sync__traits_class", 45): (
        "finalize<Traits<400, ..>>: the lanes of the last block past COLS (100) leave the loop and exit, which the "
        "H100 counts as arrived, so synccheck reports nothing; with a barrier after the loop (those lanes waiting "
        "there) the launch hung (timeout 20 s, NOTES.md, session 39): the split is real."),
    ("sync__traits_class", 50): ("finalize<Traits<400, ..>>: the loop's second barrier, as line 45."),
    ("sync__atomic_read", 34): (
        "countedItems: each thread runs (old value & 3) trips of the loop; those that leave it early exit, which the "
        "H100 counts as arrived, so synccheck reports nothing. With a barrier after the loop (the threads that left "
        "waiting there) the program hung past ncu's 120 s (NOTES.md, session 35): the split is real."),
    ("sync__atomic_read", 36): ("countedItems: the loop's second barrier, as line 34."),
    ("sync__grid_trip_count", 34): (
        "unevenItems: the 8 threads of block 0 with gid < 8 run a 5th trip after the rest of their block left the "
        "loop and exited (counted as arrived); with a barrier after the loop the program hung past 120 s (NOTES.md)."),
    ("sync__grid_trip_count", 36): ("unevenItems: the loop's second barrier, as line 34."),
    ("sync__row_index_bounds", 30): (
        "neighbours: the row-major index's boundary tests flip between blocks for this run's 1024 x 1024 image and "
        "grid of cols / 16 x rows / 16 blocks, so no block is split (the finding is a warning: the sizes travel in a "
        "struct whose fields cudalint does not follow to the launch)."),
    ("sync__row_index_bounds", 41): (
        "columnsBelow: lanes with threadIdx.x >= 8 skip the barrier and exit; the H100 counts exited threads as "
        "arrived and synccheck reports nothing (as for array_initializer's varyingElement, NOTES.md)."),
    ("sync__grid_bounded", 40): (
        "roundedGrid, the control of a grid rounded up: with this run's n = 2^20, a multiple of 256, no block "
        "straddles the bound, so every thread reaches the barrier (the finding is info: run's one call passes 2^20)."),
    ("sync__grid_bounded", 67): (
        "roundedChunks, the control of a chunk loop over a rounded-up grid: with num = 4096, a multiple of 32, every "
        "chunk is whole and every thread runs 8 trips; with num = 4090 the last block's second row would run none."),
    ("sync__grid_bounded", 70): ("roundedChunks: the loop's second barrier, as line 67."),
    ("global__array_initializer", 29): (
        "varyingElement: lanes 16-31 of warp 0 skip the barrier and exit; the H100 counts exited threads as "
        "arrived and synccheck reports nothing (as for threads that leave a bounds check to exit, NOTES.md)."),
    ("sync__host_multiple", 28): (
        "scanItems with this run's default of 4096 items, a multiple of 256: no block straddles the bound (the "
        "finding is a warning because the count comes from the command line; 1000 items hung under ncu)."),
    ("sync__host_multiple", 30): ("scanItems: the loop's second barrier, as line 28."),
    ("sync__single_row_block", 47): (
        "twoPerBlock: synccheck reports the rows' different trips once, at the loop's first barrier (line 45, "
        "'Divergent thread(s) in block', 100 reports shown of 832), then the kernel fails under the tool; line 47 is "
        "the same loop's second barrier."),
    ("sync__warp_specialized", 36): (
        "producerConsumer: synccheck reports the split once per block, at the loader branch's first barrier (line "
        "41: 'Divergent thread(s) in block', 100 reports shown of 3,456), then the kernel fails under the tool; the "
        "compute branch's barriers and the second one are the other ends of the same mismatch."),
    ("sync__warp_specialized", 38): ("producerConsumer: the compute branch's second barrier, as line 36."),
    ("sync__warp_specialized", 43): ("producerConsumer: the loader branch's second barrier, as line 36."),
    ("sync__warp_specialized", 63): (
        "splitInWarps: even and odd lanes of each warp wait at two different barriers; synccheck reports the "
        "mismatch once, at the odd lanes' barrier (line 66, 'Divergent thread(s) in warp'), then the kernel fails "
        "under the tool."),
    ("sync__warp_specialized", 54): (
        "oneSided: warps 0-1 wait at the barrier while warps 2-3 skip it and exit; exited threads count as arrived, "
        "so synccheck has nothing to report (undefined by the Programming Guide all the same)."),
    ("sync__rounded_trips", 88): (
        "halfGroups, the control of a group of half a block: `state & 4` with the seeds of this run (zeros) is false "
        "in every thread, so no thread reaches the barrier and there is nothing to report; the condition depends on "
        "which half of the block a thread is in by construction."),
    ("sync__loop_carried", 70): (
        "threadSteps: odd lanes step kbc by 3, even lanes by 2, so lanes of a warp run different trips of the loop "
        "(and take its `continue` on different trips); on the H200 the lanes that leave early exit the kernel and "
        "count as arrived, and synccheck reports nothing (0 errors, measured twice). Undefined by the Programming "
        "Guide all the same (every thread must reach each __syncthreads alike): the control of the two clean loops."),
    ("sync__loop_carried", 72): ("threadSteps: the loop's second barrier, as line 70."),
    ("sync__divergent_barrier", 53): (
        "loopBoundSync, block of 64: the trip count threadIdx.x/32 is uniform per warp, so warp 1 waits at "
        "BAR.SYNC while warp 0 runs no trip and exits; exited warps count as arrived, and no two warps wait at "
        "different barrier instructions. Undefined behaviour all the same: with more trips nvcc unrolls the loop "
        "and synccheck reports it (uniform_trips.cu warpTrips)."),
    ("sync__grid_stride_barrier", 29): (
        "tokenRows: in block 0 the warps of slots 2-3 leave the loop after one trip and exit the kernel while slots "
        "0-1 run a second; exited threads count as arrived (as for unevenTrips), so synccheck reports nothing. "
        "Undefined by the Programming Guide all the same; with a barrier after the loop (warpRows) it is reported."),
    ("sync__grid_stride_barrier", 39): (
        "blockWarpRows: warps 2-3 run one trip and exit while warps 0-1 run two; exited threads count as arrived."),
    ("sync__divergent_barrier", 76): (
        "cgBlockSyncFirstWarp, block of 64: `threadIdx.x < 32` is uniform per warp (warp 0 syncs, warp 1 exits); "
        "no lane of a warp diverges at the barrier, so synccheck has nothing to report."),
    ("sync__divergent_barrier", 85): (
        "cgSyncFewLanes: lanes 0-3 take cg::sync, which compiles to WARPSYNC.ALL + BAR.SYNC behind a branch; "
        "WARPSYNC.ALL waits until lanes 4-31 have exited, so the barrier runs with every live lane of the warp "
        "(the split store measured in the same kernel shows the lanes running apart)."),
    ("sync__divergent_barrier", 92): (
        "ptxBarSyncHalfBlock, block of 128: `threadIdx.x < 64` is uniform per warp (warps 0-1 sync, 2-3 exit); "
        "no intra-warp divergence at the barrier."),
    ("sync__bounds_check", 14): (
        "tileBounds, 8 x 8 blocks, first launch 60 x 60 so the last blocks straddle the bounds: nvcc puts "
        "WARPSYNC.ALL before the BAR.SYNC in the branch, which waits until the lanes past the bound have "
        "exited, so the barrier runs with every live lane and synccheck reports nothing "
        "(as for cgSyncFewLanes). Undefined behaviour by the Programming Guide all the same: CL301 warning."),
    ("sync__uniform_trips", 31): (
        "unevenTrips, block of 256: threads 0-43 run a second trip and wait at the barrier while threads 44-255 "
        "leave the loop and exit the kernel; exited threads count as arrived (as for CL302), so synccheck sees "
        "no divergent warp. The trip counts still differ across the block: undefined by the Programming Guide."),
    ("sync__grid_stride_barrier", 19): (
        "warpRows: synccheck reports the loop's first barrier (line 17, 96 and 128 errors in two runs: the warps "
        "past `rows` wait at the barrier after the loop while the others wait at line 17); the run stops at the "
        "first barrier error."),
    ("sync__divergent_exit", 52): "breakBeforeSync: the `break` is never taken at run time (limit 1e30).",
    ("sync__aligned_bounds", 54): (
        "rowsStraddle: the 8th block's threads 104-127 (i >= 1000) skip the barrier and exit, which the H100 counts as "
        "arrived, so synccheck reports nothing (stop 54); the split is real, as in traits_class."),
    ("sync__exact_grid_bounds", 33): (
        "shortItems: the grid's last item (8 lanes of the last block) lies past the bound; those lanes skip the barrier "
        "and exit, which the H100 counts as arrived, so synccheck reports nothing (stop 54); the split is real."),
    ("sync__pointer_trips", 29): (
        "sharedBound: the measured run has n = 1024 (SPLIT unset), a multiple of the block's 256, so no trip splits "
        "the block; with n = 1000 the last trip's threads past it leave the loop and exit (counted as arrived)."),
    ("sync__pointer_trips", 31): ("sharedBound: the loop's second barrier, as line 29."),
    ("sync__reset_flag", 43): (
        "perThreadFlag: rows 0-3 of each block sweep again while rows 4-7 leave the loop and exit, which the H100 "
        "counts as arrived, so synccheck reports nothing (stop 54); the split is the one the finding names, as in "
        "atomic_read."),
    ("sync__reset_flag", 46): ("perThreadFlag: the loop's second barrier, as line 43."),
    ("sync__taken_exit", 64): (
        "breakTaken: lanes 16-31 of every warp break and exit while lanes 0-15 run two more barriers; synccheck "
        "reports nothing and the kernel finishes here, but the lanes that left are alive until they exit, and a "
        "per-lane split of the trips deadlocks (divergent_barrier.cu, `k < threadIdx.x`): CL302 warning."),
}

# kernels whose findings have no measurement because the fixture's program never launches them (the point of it)
NEVER_LAUNCHED = {
    ("global__unlaunched_kernel", "rowsLeftover"): "written only at its definition: no launch, no pointer taken",
    ("global__unlaunched_kernel", "rowsUncalled"): "launched only from `runFloat`, which nothing calls",
}


def _measurement(fixture: Path):
    f = MEASURED / f"{case_name(fixture)}.json"
    return json.loads(f.read_text(encoding="utf-8")) if f.is_file() else None


def _lint(fixture: str):
    """The fixture's findings and model, as ``cudalint verify`` lints it (no CL001), from the fixture tests' cache."""
    diags, model = analysed(fixture)
    return [d for d in diags if d.code != "CL001"], model


@functools.lru_cache(maxsize=None)
def _host_ref():
    """Median pinned and pageable copy-call times over every measured host program (they are compared with
    each other)."""
    programs = []
    for fx in FIXTURES:
        m = _measurement(fx)
        if m is not None and "host_timing" in m:
            programs.append((m, _lint(str(fx))[0]))
    return host_reference(programs)


@functools.lru_cache(maxsize=None)
def _rows(fixture: str) -> tuple[Row, ...]:
    m = _measurement(Path(fixture))
    return tuple(compare_fixture(fixture, m, _host_ref() if "host_timing" in m else None, _lint(fixture)))


def _known(case: str, kernel: str, r: Row) -> bool:
    if r.quantity == "synccheck_line":   # a finding synccheck does not report, listed by line
        return r.measured is None and r.predicted is not None and (case, int(r.predicted)) in SYNCCHECK_UNREPORTED
    return r.quantity in KNOWN.get((case, kernel), (set(), ""))[0]


def _params():
    out = []
    for fx in FIXTURES:
        m = _measurement(fx)
        if m is None:
            out.append(pytest.param(fx, None, id=f"{case_name(fx)}",
                                    marks=pytest.mark.skip(reason="not measured yet: run `cudalint verify`")))
            continue
        kernels = list(dict.fromkeys(kernel_base(k) for k in m["kernels"]))
        if "host_timing" in m:
            kernels.append("(host)")
        for kernel in kernels:
            out.append(pytest.param(fx, kernel, id=f"{case_name(fx)}::{kernel}",
                                    marks=pytest.mark.xdist_group(str(fx.relative_to(ROOT / "fixtures")))))
    return out


def _describe(r: Row) -> str:
    if r.quantity == "synccheck_line" and r.predicted is None:
        return f"{r.kernel}: {r.note}"
    if r.finding in ("clean", "no finding") and r.predicted is not None and r.measured is not None:
        want = f"<= {r.predicted:.4g}" if r.note == "at most" else f"ideal {r.predicted:.4g}"
        what = "kernel marked clean" if r.finding == "clean" else "no finding explains it"
        return f"{r.kernel}: {what}, but {r.quantity} measured {r.measured:.4g} (want {want})"
    if r.note in ("at least",) or r.note.startswith("more than"):
        return (f"{r.kernel}: {r.finding} predicts {r.quantity} {'>=' if r.note == 'at least' else '>'} "
                f"{r.predicted}, measured {r.measured:.4g} ({r.note})")
    return (f"{r.kernel}: {r.finding} predicts {r.quantity} = {r.predicted}, measured "
            f"{'-' if r.measured is None else format(r.measured, '.4g')} ({r.note or 'off by more than 5 %'})")


@pytest.mark.parametrize("fixture, kernel", _params())
def test_prediction_matches_measurement(fixture: Path, kernel: str) -> None:
    rows = [r for r in _rows(str(fixture)) if r.kernel == kernel]
    assert rows, f"{kernel}: measured, but nothing to compare (no finding, no counter)"
    bad = [r for r in rows if not r.agree]
    case = case_name(fixture)
    known, why = KNOWN.get((case, kernel), (set(), ""))
    new = [_describe(r) for r in bad if not _known(case, kernel, r)]
    assert not new, "measurement disagrees with the linter:\n" + "\n".join(new)
    lines = {int(r.predicted) for r in rows if r.quantity == "synccheck_line" and r.predicted is not None}
    listed = {line for (c, line) in SYNCCHECK_UNREPORTED if c == case and line in lines}
    if known or listed:
        still = [_describe(r) for r in bad if _known(case, kernel, r)]
        assert still, f"{kernel}: a known disagreement now agrees: remove it from KNOWN/SYNCCHECK_UNREPORTED and NOTES.md"
        reasons = [why] if known else []
        reasons += [f"line {line}: {SYNCCHECK_UNREPORTED[(case, line)]}" for line in sorted(listed)]
        pytest.xfail("known disagreement: " + "; ".join(still) + ". " + " ".join(reasons))


@pytest.mark.parametrize("fixture", [pytest.param(f, id=case_name(f), marks=pytest.mark.xdist_group(
    str(f.relative_to(ROOT / "fixtures")))) for f in FIXTURES if _measurement(f) is not None])
def test_every_finding_has_a_measured_kernel(fixture: Path) -> None:
    missing = [f"{r.finding} in {r.kernel}" for r in _rows(str(fixture)) if r.note == "kernel not measured"
               and (case_name(fixture), r.kernel) not in NEVER_LAUNCHED]
    assert not missing, f"findings whose kernel has no measurement: {missing} (re-run `cudalint verify`)"


def test_known_disagreements_are_measured() -> None:
    cases = {case_name(f) for f in FIXTURES if _measurement(f) is not None}
    assert {case for case, _ in KNOWN} <= cases, "KNOWN lists a case that is no longer measured"
    assert {case for case, _ in SYNCCHECK_UNREPORTED} <= cases, "SYNCCHECK_UNREPORTED lists an unmeasured case"
    assert {case for case, _ in NEVER_LAUNCHED} <= cases, "NEVER_LAUNCHED lists an unmeasured case"


def test_unreported_barrier_lines_are_findings() -> None:
    """Every line listed as not reported by synccheck is a CL301/CL302 finding of its fixture."""
    by_case = {case_name(f): f for f in FIXTURES}
    for case, line in SYNCCHECK_UNREPORTED:
        diags = _lint(str(by_case[case]))[0]
        assert any(d.code in ("CL301", "CL302") and d.line == line for d in diags), (case, line)


def test_every_synccheck_report_is_a_barrier_finding() -> None:
    """The other direction, over every barrier fixture at once (each kernel checked on its own): no barrier error
    without a CL301/CL302 warning or error on its line, or on the barrier it pairs with in the same kernel
    (breakThenSync: the warps that broke out wait at line 82 while the others wait at line 79)."""
    checked = 0
    for fx in FIXTURES:
        m = _measurement(fx)
        if m is None or "synccheck" not in m:
            continue
        checked += 1
        assert "sites" in m["synccheck"], m["synccheck"].get("error")
        found = [d for d in _lint(str(fx))[0] if d.code in ("CL301", "CL302") and d.severity != Severity.INFO]
        for kernel, run in m["synccheck"]["per_kernel"].items():
            for site in run.get("sites", []):
                assert site["file"] == fx.name and any(d.kernel == kernel for d in found), \
                    f"{fx.name}: synccheck reports {site}"
    assert checked, "no synccheck measurement"


def test_host_timings_present() -> None:
    """Every host program printed its CL601-timing line in each timing run, and the reference exists."""
    for fx in FIXTURES:
        m = _measurement(fx)
        if m is not None and fx.parent.name == "host":
            ht = m.get("host_timing") or {}
            assert ht.get("parsed") and len(ht["parsed"]) == ht.get("runs"), (fx.name, ht.get("errors"))
    assert _host_ref() is not None


def test_synccheck_and_sass_parsing() -> None:
    """synccheck reports in both formats compute-sanitizer has used; SASS opcode counts with bank-3 loads."""
    from cudalint.verify import parse_sass, parse_synccheck
    text = """========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp.
=========     at halfWarpSync(int *)+0x90 in divergent_barrier.cu:23
=========     by thread (1,0,0) in block (0,0,0)
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: main [0x903f] in sync__divergent_barrier
=========
========= Barrier error detected. Divergent thread(s) in warp
=========     at 0x70 in /tmp/x/divergent_barrier.cu:61:helperSync()
=========     by thread (0,0,0) in block (0,0,0)
========= ERROR SUMMARY: 2 errors
"""
    reps = parse_synccheck(text)
    assert [(r["file"], r["line"], r["kernel"]) for r in reps] == [
        ("divergent_barrier.cu", 23, "halfWarpSync"), ("divergent_barrier.cu", 61, "helperSync")]
    assert reps[0]["thread"] == "1,0,0"
    sass = """		Function : _Z12perLaneIndexPf
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
        /*0010*/              @!P0 BAR.SYNC.DEFER_BLOCKING 0x0 ;          /* 0x0000000000008b1d */
        /*0020*/                   ULDC.64 UR4, c[0x0][0x208] ;           /* 0x0000820000047ab9 */
        /*0030*/                   LDC R7, c[0x3][R0] ;                   /* 0x00c0000000077b82 */
        /*0040*/                   EXIT ;                                 /* 0x000000000000794d */
        /*0050*/                   BRA 0x50;                              /* 0xfffffffc00fc7947 */
        /*0060*/                   NOP;                                   /* 0x0000000000007918 */
"""
    assert parse_sass(sass) == {"perLaneIndex": {"LDC": 2, "BAR": 1, "ULDC": 1, "LDC.c3": 1, "EXIT": 1}}


def test_derived_comparisons_fail_on_a_wrong_prediction() -> None:
    """The CL401/CL501/CL601/CL301 comparisons are not vacuous: a wrong prediction or a missed report fails."""
    from types import SimpleNamespace as D
    from cudalint.verify import compare
    k = lambda req, ldc, inst: {"counters": {"idc__requests.sum": req, "smsp__inst_executed_op_ldc.sum": ldc,
                                             "smsp__inst_executed.sum": inst, "smsp__warps_launched.sum": 100.0},
                                "derived": {}, "per_launch": [{"grid": "(1, 1, 1)", "block": "(32, 1, 1)",
                                                                "counters": {"smsp__warps_launched.sum": 100.0},
                                                                "derived": {}}]}
    m = {"kernels": {"shiftMask": k(400, 400, 1800), "perLane": k(3500, 400, 1800), "signed": k(400, 400, 2100)},
         "sass": {"perLane": {"LDC": 4, "LDC.c3": 1}}}
    good = [D(code="CL401", line=5, kernel="perLane", metrics={"distinct_addresses_per_warp": 32}, message=""),
            D(code="CL501", line=9, kernel="signed", metrics={"instructions_ratio": 1.18}, message="")]
    assert all(r.agree for r in compare("x.cu", m, good))
    wrong = [D(code="CL401", line=5, kernel="perLane", metrics={"distinct_addresses_per_warp": 16}, message="")]
    assert not all(r.agree for r in compare("x.cu", m, wrong))          # 16 predicted, 32 measured
    assert not all(r.agree for r in compare("x.cu", m, good[:1]))       # signed division missed: 3 extra/warp
    sync = dict(m, synccheck={"sites": [], "per_kernel": {"shiftMask": {"errors": 0, "sites": []},
                                                           "perLane": {"errors": 0, "sites": []},
                                                           "signed": {"errors": 1, "sites": [
                                                               {"file": "x.cu", "line": 7, "kernel": "signed",
                                                                "message": "Barrier error", "reports": 1}]}}})
    assert not all(r.agree for r in compare("x.cu", sync, good))        # a barrier error with no CL301
    host = {"kernels": {}, "host_timing": {"median_copy_call_ms": 0.2, "pinned": 0}}
    ref = {"pinned_ms": 0.05, "pageable_ms": 11.0}
    cl601 = [D(code="CL601", line=3, kernel=None, metrics={}, message="")]
    assert not all(r.agree for r in compare("h.cu", host, cl601, host_ref=ref))   # 0.2 ms < 10 x 0.05 ms


def test_ncu_csv_parsing_and_aggregation() -> None:
    """The raw page as ncu prints it: program output and ==PROF== lines around a header, a units row, one row
    per launch, thousands separators, auto-scaled units; a kernel launched twice is summed and kept per launch."""
    from cudalint.verify import METRICS, aggregate, kernel_key, parse_ncu_csv
    head = ["ID", "Process ID", "Kernel Name", "Block Size", "Grid Size", *METRICS]
    units = ["", "", "", "", "", "request", "sector", "request", "sector", "%", "%",
             "", "inst", "", "inst", "", "inst", "usecond"]

    def row(i, name, req, sec, pct, us):
        return [str(i), "7", name, "(256, 1, 1)", "(16384, 1, 1)", req, sec, req, req.replace("131", "524"),
                pct, "100", "0", "0", "0", "0", "0", "1,000", us]
    ro_name = "readOffset(float *, float *, float *, int, int)"
    lines = [head, units, row(0, ro_name, "131,072", "524,288", "100", "15.3"),
             row(1, ro_name, "131,072", "655,360", "80", "16.25"),
             row(2, "void scale<double>(double *, const double *, double, unsigned long)", "100", "800", "100", "1")]
    text = "==PROF== Connected to process 7\nread_offset: C[0] = 22.0\n"
    text += "".join(",".join(f'"{c}"' for c in r) + "\n" for r in lines) + "==PROF== Disconnected\n"
    launches = parse_ncu_csv(text)
    assert [la["key"] for la in launches] == ["readOffset", "readOffset", "scale<double>"]
    assert kernel_key("void ns::f<int, float>(int *)") == "ns::f<int, float>"
    kernels = aggregate(launches)
    ro = kernels["readOffset"]
    assert ro["launches"] == 2 and len(ro["per_launch"]) == 2
    assert ro["counters"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 524288 + 655360
    assert ro["derived"]["global_ld_sectors_per_request"] == 4.5
    assert [pl["derived"]["global_ld_sectors_per_request"] for pl in ro["per_launch"]] == [4.0, 5.0]
    assert ro["derived"]["duration_ns"] == [15300.0, 16250.0]
    assert kernels["scale<double>"]["derived"]["global_ld_sectors_per_request"] == 8.0
    assert "shared_ld_wavefronts_per_instruction" not in ro["derived"]   # denominator 0: left out


def test_a_finding_on_one_instantiation_is_compared_with_that_instantiation() -> None:
    """A template kernel whose instantiations differ gets one finding each, suffixed "(in `k<2>`)": each is set
    beside the launch of its own instantiation (fixtures/global/unrolled_neighbours.cu: 16 sectors per request in
    upsample<2>, 32 in upsample<3>), not the worst of all."""
    from types import SimpleNamespace as D
    from cudalint.verify import compare
    k = lambda name, st: {"name": f"void {name}(const float *, float *)", "counters": {},
                          "derived": {"global_st_sectors_per_request": st}}
    m = {"kernels": {"upsample<2>": k("upsample<2>", 16.0), "upsample<3>": k("upsample<3>", 32.0)}}
    diags = [D(code="CL101", line=17, kernel="upsample", metrics={"sectors_per_request": n}, message=f"uncoalesced "
               f"global store of `out`: lanes are {2 * n} bytes apart (in `upsample<{s}>`)") for n, s in ((16, 2), (32, 3))]
    rows = [r for r in compare("u.cu", m, diags) if r.finding.startswith("CL101")]
    assert [(r.predicted, r.measured, r.agree) for r in rows] == [(16.0, 16.0, True), (32.0, 32.0, True)]
    unnamed = [D(code="CL101", line=17, kernel="upsample", metrics={"sectors_per_request": 32}, message="uncoalesced "
                 "global store of `out`")]     # one finding for every instantiation: the worst launch
    assert [(r.predicted, r.measured) for r in compare("u.cu", m, unnamed) if r.finding.startswith("CL101")] == [(32.0, 32.0)]
