#!/bin/bash
# How tests/data/fidelity/*.csv were made (one device call, ncu 2025.3, H200, 2026-12-06): every launch of two
# programs of our own, profiled with source counters and launch statistics, the source and raw pages exported.
set -u
cd "$(dirname "$0")/../.."
B=/tmp/b; mkdir -p $B
nvcc -O3 -lineinfo -arch=sm_90 -o $B/several tests/data/fidelity/several.cu
nvcc -O3 -lineinfo -arch=sm_90 -o $B/template_instances fixtures/shared/template_instances.cu
for r in several template_instances; do
  ncu --clock-control none --section SourceCounters --section LaunchStats -f -o $OUT/$r $B/$r > /dev/null 2>&1
  ncu -i $OUT/$r.ncu-rep --page source --csv --print-source cuda,sass > $OUT/$r.source.csv
  ncu -i $OUT/$r.ncu-rep --page raw --csv --metrics launch__grid_dim_x,launch__grid_dim_y,launch__grid_dim_z,launch__block_dim_x,launch__block_dim_y,launch__block_dim_z,gpu__time_duration.sum > $OUT/$r.raw.csv
done
