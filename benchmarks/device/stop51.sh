#!/bin/bash
# One device call (stop 51): time and profile the two shared-conflict questions of issue 10.
#  1. fixtures/shared/texture_fill_conflict.cu (SobelFilter / FunctionPointers shape): the 2-way conflict of a byte
#     tile at pitch 384 against the padded 448, the filter inlined (Mode 0) and through a function pointer (Mode 1).
#  2. fixtures/shared/tiny_launch_conflict.cu (nw / lud shape): an 8-way conflicted diagonal sweep of 16-thread blocks
#     in a 128-block launch (one warp per SM at most) and a 16,384-block one, against the padded tile; a 32-way
#     column read with no barrier as the control.
# Then `cudalint verify --measure-only` of both and of the fixtures not measured yet.
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop51.sh OUTDIR
set -u
out=${1:?output directory}; B=$out/bin; mkdir -p "$B" "$out/measured"
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tfc fixtures/shared/texture_fill_conflict.cu
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tlc fixtures/shared/tiny_launch_conflict.cu
{ for rep in 1 2 3; do for p in 384 448; do $B/tfc $p 50; done; done
  for rep in 1 2 3; do $B/tlc 200; done; } > "$out/timing.txt" 2>&1
M=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
for p in 384 448; do ncu --clock-control none --csv --metrics $M $B/tfc $p 1 > "$out/tfc$p.csv" 2>&1; done
ncu --clock-control none --csv --metrics $M $B/tlc 1 > "$out/tlc.csv" 2>&1
cuobjdump -sass $B/tfc | grep -E "Function|CALL|RET|LDS|STS|TEX|TLD" | sed 's@/\*[0-9a-f]*\*/@@' > "$out/tfc.sass"
cuobjdump -sass $B/tlc | grep -E "Function|LDS|STS|BAR" | sed 's@/\*[0-9a-f]*\*/@@' > "$out/tlc.sass"
timeout 200 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" fixtures/shared/texture_fill_conflict.cu \
    fixtures/shared/tiny_launch_conflict.cu > "$out/verify.log" 2>&1; echo "verify exit $?" >> "$out/verify.log"
timeout 240 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" fixtures/arith/known_range.cu \
    fixtures/arith/one_block.cu fixtures/global/helper_in_loop.cu fixtures/global/launched_once.cu \
    fixtures/global/loaded_pitch.cu fixtures/global/one_shot_access.cu fixtures/global/unlaunched_kernel.cu \
    fixtures/shared/compute_bound_conflict.cu fixtures/sync/aligned_bounds.cu fixtures/sync/exact_grid_bounds.cu \
    fixtures/sync/pointer_trips.cu fixtures/sync/reset_flag.cu fixtures/sync/tile_stride_bounds.cu \
    > "$out/verify2.log" 2>&1; echo "verify exit $?" >> "$out/verify2.log"
ls -la "$out" "$out/measured"
