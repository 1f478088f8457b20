#!/bin/bash
# Fourth device call (stop 51): Nsight Compute source counters of the two shared-conflict fixtures of this stop,
# whose kernels mix conflicted and conflict-free accesses so that the kernel-wide wavefronts per instruction of
# `--measure-only` cannot check each line.  Saves each report's source and raw pages (NAME.source.csv, NAME.raw.csv)
# for `cudalint verify --report OUTDIR/NAME.source.csv SOURCES` on a machine without a GPU.
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop51d.sh OUTDIR
set -u
out=${1:?output directory}; B=$(mktemp -d)
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tlc fixtures/shared/tiny_launch_conflict.cu
nvcc -O3 -lineinfo -arch=sm_90 -o $B/tfc fixtures/shared/texture_fill_conflict.cu
P="--clock-control none --section SourceCounters --section LaunchStats --kernel-name-base mangled"
page() {  # report name -> NAME.source.csv, NAME.raw.csv
    ncu -i $B/$1.ncu-rep --page source --csv --print-source cuda,sass > "$out/$1.source.csv" 2> "$out/$1.err"
    ncu -i $B/$1.ncu-rep --page raw --csv --metrics launch__grid_size > "$out/$1.raw.csv" 2>> "$out/$1.err"
    gzip -9 "$out/$1.source.csv"
}
ncu $P -o $B/tlc $B/tlc 1 > "$out/tlc.log" 2>&1 && page tlc
ncu $P -o $B/tfc384 $B/tfc 384 1 > "$out/tfc384.log" 2>&1 && page tfc384
ncu $P -o $B/tfc448 $B/tfc 448 1 > "$out/tfc448.log" 2>&1 && page tfc448
ls -la "$out"
