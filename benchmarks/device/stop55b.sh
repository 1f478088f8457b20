#!/bin/bash
# Stop 55's fixtures (fixtures/measured/NOTES.md, "Stop 55"):
#  - global/dead_load.cu: moveBodies' two loads nothing reads are deleted by nvcc (no LDG of `pos`: expect the
#    kernel's load sectors to be `shift`'s alone, 4 a request, the ideal); readTypes, countTypes and pollFlags keep
#    theirs (32 sectors a request: the 8-byte `w` of a 32-byte struct).
#  - global/union_copy.cu: the 12-byte union loaded whole as three 4-byte loads at a 12-byte stride, 12 sectors a
#    request (SASS: three LDG.E.CONSTANT).
#  - global/launch_ex.cu: launches through cudaLaunchKernelEx; tileCopy clean (16 x 16 block: 4 sectors a request),
#    stridedRead 32 sectors a request with the 64-thread block the config gives, blockSums' barrier under a bound no
#    block straddles.
#  - host/event_join.cu: host timings of the four pageable copies (the two the host waits for through an event).
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/stop55b.sh OUTDIR
set -u
out=${1:?output directory}; mkdir -p "$out/measured"; B=$(mktemp -d)
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
timeout 420 python3 -m cudalint.verify --measure-only --output-dir "$out/measured" \
    fixtures/global/dead_load.cu fixtures/global/union_copy.cu fixtures/global/launch_ex.cu fixtures/host/event_join.cu \
    > "$out/verify.log" 2>&1
echo "verify exit $?" >> "$out/verify.log"
for f in dead_load union_copy launch_ex; do
  nvcc -O3 -arch=sm_90 -cubin -o $B/$f.cubin fixtures/global/$f.cu 2>/dev/null
  cuobjdump -sass $B/$f.cubin | grep -E "Function|LDG|STG|ATOM|RED" > "$out/$f.sass.txt" 2>&1
done
(cd "$out" && tar czf measured.tgz measured && rm -rf measured)
ls -la "$out"
