#!/bin/bash
ROD=${1:?gpu-rodinia checkout}; O=$(realpath ${2:?output folder}); mkdir -p $O/bin; cd $ROD/cuda
B=$O/bin; printf "#pragma once\n#include <sys/time.h>\n#define cudaThreadSynchronize cudaDeviceSynchronize\n#define cudaThreadExit cudaDeviceReset\n#define clockRate major\n#define deviceOverlap asyncEngineCount\n#define kernelExecTimeoutEnabled integrated\n" > $O/compat.h
F="-include $O/compat.h -O3 -lineinfo -arch=sm_90 -w"
b() { n=$1; shift; if nvcc $F "$@" -o $B/$n > $B/$n.log 2>&1; then echo "ok $n"; else echo "FAIL $n: $(grep -m2 error $B/$n.log)"; fi; }
b backprop backprop/backprop_cuda.cu backprop/backprop.c backprop/facetrain.c backprop/imagenet.c -lm
b gaussian gaussian/gaussian.cu
b lud -I lud/common lud/cuda/lud.cu lud/cuda/lud_kernel.cu lud/common/common.c -DRD_WG_SIZE_0=16
b needle nw/needle.cu -I nw
b pathfinder pathfinder/pathfinder.cu
b srad_v2 srad/srad_v2/srad.cu -I srad/srad_v2
b sc_gpu -I streamcluster streamcluster/streamcluster_cuda_cpu.cpp streamcluster/streamcluster_cuda.cu
b particlefilter_naive particlefilter/ex_particle_CUDA_naive_seq.cu -lm
b particlefilter_float particlefilter/ex_particle_CUDA_float_seq.cu -lm
b lavaMD -x cu lavaMD/main.c -x cu lavaMD/kernel/kernel_gpu_cuda_wrapper.cu -x cu lavaMD/util/num/num.c -x cu lavaMD/util/timer/timer.c -x cu lavaMD/util/device/device.cu
