#!/bin/bash
# One device call (stop 53): `cudalint verify --measure-only` of the fixtures not measured yet or changed:
#  - fixtures/global/bin_search.cu (new): a per-thread histogram row updated only in the bin a loaded value falls in
#    (GPUMD's angular RDF), against the same row walked by every lane and under a one-sided test; the counters say
#    how many sectors a request of the binned update really moves (the finding prices a full warp: 32).
#  - fixtures/sync/exact_grid_exit.cu (stop 53): returns under bounds checks no block straddles (no thread exits) and one
#    a rounded-up grid takes.
#  - fixtures/sync/reset_flag.cu (its input now splits perThreadFlag's rows), aligned_bounds.cu, exact_grid_bounds.cu,
#    pointer_trips.cu (measured in stop 51, not committed) and global/unlaunched_kernel.cu.
# Plus the Nsight Compute source counters of bin_search (one line per access, for `cudalint verify --report`).
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop53.sh OUTDIR
set -u
out=${1:?output directory}; mkdir -p "$out/measured"; B=$(mktemp -d)
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
timeout 400 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" fixtures/global/bin_search.cu \
    fixtures/sync/reset_flag.cu fixtures/sync/aligned_bounds.cu fixtures/sync/exact_grid_bounds.cu \
    fixtures/sync/pointer_trips.cu fixtures/global/unlaunched_kernel.cu fixtures/sync/exact_grid_exit.cu > "$out/verify.log" 2>&1
echo "verify exit $?" >> "$out/verify.log"
nvcc -O3 -lineinfo -arch=sm_90 -o $B/bs fixtures/global/bin_search.cu
P="--clock-control none --section SourceCounters --section LaunchStats --kernel-name-base mangled"
ncu $P -o $B/bs $B/bs > "$out/bs.log" 2>&1
ncu -i $B/bs.ncu-rep --page source --csv --print-source cuda,sass > "$out/bs.source.csv" 2>> "$out/bs.log"
ncu -i $B/bs.ncu-rep --page raw --csv --metrics launch__grid_size > "$out/bs.raw.csv" 2>> "$out/bs.log"
gzip -9 "$out/bs.source.csv"
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum
ncu --clock-control none --csv --metrics $M $B/bs > "$out/bs.csv" 2>&1
(cd "$out" && tar czf measured.tgz measured && rm -rf measured)
ls -la "$out"
