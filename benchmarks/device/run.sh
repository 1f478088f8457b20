#!/bin/bash
# One device call: build the probes and fixtures, time them, per-kernel counters, SASS.
set -u
cd "$(dirname "$0")"
B=$OUT/bin; mkdir -p $B
for f in compute_bound_store staging_sweep constant_width conflict_compute; do nvcc -O3 -lineinfo -arch=sm_90 -o $B/$f $f.cu; done
nvcc -O3 -lineinfo -arch=sm_90 -o $B/staged_table ../../fixtures/constant/staged_table.cu
for f in compute_bound_store staging_sweep staged_table conflict_compute; do echo "== $f"; $B/$f; done 2>&1 | tee $OUT/timing.txt
for f in compute_bound_store staged_table; do cuobjdump -sass $B/$f | grep -E "Function|STG|LDG|LDC|LDS|STS" > $OUT/$f.sass; done
M=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,dram__bytes_write.sum,dram__bytes_read.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
ncu --clock-control none --csv --metrics $M $B/compute_bound_store > $OUT/cbs.csv 2>&1
M2=gpu__time_duration.sum,idc__requests.sum,smsp__inst_executed_op_ldc.sum,smsp__warps_launched.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
ncu --clock-control none --csv --metrics $M2 $B/staged_table > $OUT/st.csv 2>&1
ncu --clock-control none --csv --metrics $M2 -k regex:fromConstant $B/staging_sweep > $OUT/ss.csv 2>&1
ncu --clock-control none --csv --metrics $M2 $B/constant_width > $OUT/cw.csv 2>&1
cuobjdump -sass $B/constant_width | grep -E 'Function|LDC' > $OUT/constant_width.sass
nvcc -O3 -lineinfo -arch=sm_90 -o $B/register_update ../../fixtures/global/register_update.cu && cuobjdump -sass $B/register_update > $OUT/register_update.sass
ncu --clock-control none --section SourceCounters --page source --csv --print-source cuda,sass $B/register_update > $OUT/register_update.lines.csv 2>&1
ls -la $OUT
