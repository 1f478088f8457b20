#!/bin/bash
# Third device call (stop 51): fixtures/shared/tiny_launch_conflict.cu in its final form (each launch size an
# instantiation of its own) timed three times, and `cudalint verify --measure-only` of the fixtures this stop added or
# changed and of those not measured before; everything under OUTDIR/measured.tgz.
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop51c.sh OUTDIR
set -u
out=${1:?output directory}; B=$out/bin; W=$(mktemp -d); mkdir -p "$B" "$W/measured"
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tlc fixtures/shared/tiny_launch_conflict.cu
for rep in 1 2 3; do $B/tlc 200; done > "$out/timing.txt" 2>&1
timeout 420 python3 -m cudalint.verify --measure-only --output-dir "$W/measured" fixtures/shared/tiny_launch_conflict.cu \
    fixtures/shared/texture_fill_conflict.cu fixtures/shared/one_shot_conflict.cu fixtures/arith/known_range.cu \
    fixtures/arith/one_block.cu fixtures/global/helper_in_loop.cu fixtures/global/launched_once.cu \
    fixtures/global/loaded_pitch.cu fixtures/global/one_shot_access.cu fixtures/global/unlaunched_kernel.cu \
    fixtures/shared/compute_bound_conflict.cu fixtures/sync/aligned_bounds.cu fixtures/sync/exact_grid_bounds.cu \
    fixtures/sync/pointer_trips.cu fixtures/sync/reset_flag.cu fixtures/sync/tile_stride_bounds.cu \
    > "$W/verify.log" 2>&1; echo "verify exit $?" >> "$W/verify.log"
tar czf "$out/measured.tgz" -C "$W" measured verify.log
rm -rf "$B"
