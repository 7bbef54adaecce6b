#!/bin/sh
# The CPU level rustc builds this machine's binary for: prints `x86-64-v3` when the CPU has every
# feature of that level (AVX2, BMI1/2, FMA, LZCNT, MOVBE, F16C, XSAVE; Haswell and later, Zen),
# nothing otherwise (rustc's portable x86-64 default, also on machines that are not x86-64).
# `make` builds for it (the Makefile's CPU_LEVEL) and so does the datagen loop. The NNUE kernels
# choose AVX2 or AVX-512 at run time whatever the level; the level lets the compiler use these
# instructions in the rest of the engine (popcnt, BMI2, vector compares): about 7% more nodes
# per second on the development machine (docs/history/measurements.md, "CPU level").
for f in avx2 bmi1 bmi2 fma abm movbe f16c xsave; do
    grep -qw "$f" /proc/cpuinfo 2> /dev/null || exit 0
done
echo x86-64-v3
