#!/bin/bash
# build cuda-samples programs with -lineinfo for the fidelity run
CS=${1:?cuda-samples checkout}; B=$(realpath ${2:?output folder}); mkdir -p $B/bin $B/data; cd $CS/Samples
B=$B/bin
for s in 0_Introduction/matrixMul 0_Introduction/vectorAdd 0_Introduction/simpleTemplates 0_Introduction/mergeSort 0_Introduction/simpleVoteIntrinsics 0_Introduction/clock \
  2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scalarProd 2_Concepts_and_Techniques/scan 2_Concepts_and_Techniques/shfl_scan \
  2_Concepts_and_Techniques/sortingNetworks 2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/convolutionSeparable \
  2_Concepts_and_Techniques/eigenvalues 2_Concepts_and_Techniques/threadFenceReduction 2_Concepts_and_Techniques/dct8x8 \
  3_CUDA_Features/globalToShmemAsyncCopy 3_CUDA_Features/warpAggregatedAtomicsCG \
  5_Domain_Specific/BlackScholes 5_Domain_Specific/binomialOptions 5_Domain_Specific/convolutionFFT2D 5_Domain_Specific/fastWalshTransform \
  5_Domain_Specific/quasirandomGenerator 5_Domain_Specific/SobolQRNG 5_Domain_Specific/FDTD3d 5_Domain_Specific/dwtHaar1D 5_Domain_Specific/stereoDisparity \
  6_Performance/transpose 6_Performance/alignedTypes; do
  n=$(basename $s)
  srcs=$(ls $s/*.cu $s/*.cpp 2>/dev/null | grep -v _nvrtc)
  inc="-I ../Common"; [ -d $s/inc ] && inc="$inc -I $s/inc"
  if nvcc -O3 -lineinfo -arch=sm_90 -std=c++17 $inc $srcs -o $B/$n > $B/$n.log 2>&1; then echo "ok $n"; else echo "FAIL $n: $(grep -m2 error $B/$n.log)"; fi
  [ -d $s/data ] && mkdir -p $B/../data/$n && cp -r $s/data/* $B/../data/$n/
done
