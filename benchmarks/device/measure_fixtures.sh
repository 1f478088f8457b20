#!/bin/bash
# One device call: measure every fixture (cudalint verify --measure-only: ncu counters, synccheck for
# fixtures/sync, SASS opcode counts where verify records them) and disassemble each fixture with line
# information, so that the SASS of every source line (LDG.E.64, LDS.128 ...) can be checked against the
# vector-merge rules of cudalint/analysis/merge.py.
#   usage (on the GPU machine, in the repository root): bash benchmarks/device/measure_fixtures.sh OUTDIR
set -u
out=${1:?output directory}
mkdir -p "$out/measured" "$out/sass"
{ nvidia-smi -L; nvcc --version | tail -2; ncu --version | tail -1; date -u +%FT%TZ; } > "$out/environment.txt" 2>&1
sass() {  # fixture -> OUTDIR/sass/<family>__<stem>.sass
    local name; name=$(basename "$(dirname "$1")")__$(basename "$1" .cu)
    nvcc -O3 -lineinfo -arch=sm_90 -cubin -o "$2/sass/$name.cubin" "$1" 2> "$2/sass/$name.err" \
        && nvdisasm --print-line-info "$2/sass/$name.cubin" > "$2/sass/$name.sass" 2>> "$2/sass/$name.err"
    rm -f "$2/sass/$name.cubin"
}
export -f sass
ls fixtures/*/*.cu | xargs -P 8 -I{} bash -c 'sass "$@"' _ {} "$out"
python3 -m cudalint.verify --measure-only --output-dir "$out/measured" > "$out/verify.log" 2>&1
echo "verify exit $?" >> "$out/verify.log"
