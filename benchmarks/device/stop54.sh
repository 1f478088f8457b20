#!/bin/bash
# One device call (stop 54): what stop 53's script left or what changed after it ran.
#  - fixtures/sync/exact_grid_bounds.cu: spareItems' bound now lies past the grid (info) and shortItems (new) ends one
#    item short of it, its last block straddling the bound (warning); `verify --measure-only` with synccheck.
#  - fixtures/global/row_break.cu: haloAligned (new, clean: the halo's pattern rests on the sampled depth) beside the
#    two kernels measured earlier in stop 54 (bigRowFlux 8.755 sectors a request, predicted 8.73-8.77).
#  - fixtures/sync/reset_flag.cu: the SASS of resetFlag, to read whether its `noconv[i]` loop is the two 16-byte
#    shared loads the measured 1.333 wavefronts a load instruction implies (tests/test_measured.py KNOWN).
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop54.sh OUTDIR
set -u
out=${1:?output directory}; mkdir -p "$out/measured"; B=$(mktemp -d)
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
timeout 300 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" fixtures/sync/exact_grid_bounds.cu \
    fixtures/global/row_break.cu > "$out/verify.log" 2>&1
echo "verify exit $?" >> "$out/verify.log"
nvcc -O3 -lineinfo -arch=sm_90 -cubin -o $B/rf.cubin fixtures/sync/reset_flag.cu
cuobjdump -sass $B/rf.cubin | grep -E "Function|LDS|STS|BAR" > "$out/reset_flag.sass.txt" 2>&1
(cd "$out" && tar czf measured.tgz measured && rm -rf measured)
ls -la "$out"
