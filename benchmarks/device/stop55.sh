#!/bin/bash
# Run at the end of stop 54 (written when no machine could be started for it; fixtures/measured/NOTES.md):
#  - fixtures/global/block_residues.cu (stop 54): blocks of 8 x 8 threads over `uchar3` pixels; CL101 states 6 sectors
#    a request for each of the three byte accesses of a pixel (the mean over the blocks' residues 0, 24, 16, 8 bytes:
#    4, 4, 8, 8), the `uchar4` twin is clean (4 = the ideal). Expect about 6.0 load and store sectors a request for
#    copyPixels3 and 4.0 for copyPixels4; the SASS shows whether the pixel moves as three LDG.E.U8 / STG.E.U8.
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop55.sh OUTDIR
set -u
out=${1:?output directory}; mkdir -p "$out/measured"; B=$(mktemp -d)
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
timeout 300 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" fixtures/global/block_residues.cu \
    > "$out/verify.log" 2>&1
echo "verify exit $?" >> "$out/verify.log"
nvcc -O3 -arch=sm_90 -cubin -o $B/br.cubin fixtures/global/block_residues.cu
cuobjdump -sass $B/br.cubin | grep -E "Function|LDG|STG" > "$out/block_residues.sass.txt" 2>&1
(cd "$out" && tar czf measured.tgz measured && rm -rf measured)
ls -la "$out"
