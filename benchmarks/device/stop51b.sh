#!/bin/bash
# Second device call (stop 51): the fixed control of fixtures/shared/tiny_launch_conflict.cu (volatile column reads,
# 256 and 16 per warp), its per-kernel counters, and Nsight Compute's full set for texture_fill_conflict's two
# pitches (which unit limits the kernel: the texture pipe or the shared-memory wavefronts).
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop51b.sh OUTDIR
set -u
out=${1:?output directory}; B=$out/bin; mkdir -p "$B"
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tfc fixtures/shared/texture_fill_conflict.cu
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tlc fixtures/shared/tiny_launch_conflict.cu
for rep in 1 2 3; do $B/tlc 200; done > "$out/timing.txt" 2>&1
M=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second
ncu --clock-control none --csv --metrics $M $B/tlc 1 > "$out/tlc.csv" 2>&1
cuobjdump -sass $B/tlc | grep -E "Function|LDS|STS|BAR" | sed 's@/\*[0-9a-f]*\*/@@' > "$out/tlc.sass"
for p in 384 448; do ncu --clock-control none --set full -k regex:edges --page details $B/tfc $p 1 > "$out/tfc$p.full.txt" 2>&1; done
ls -la "$out"
