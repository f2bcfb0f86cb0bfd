#!/usr/bin/env bash
# Runs hip_smoke over a libhsa-runtime64 and checks what Debian's HIP runtime did with it:
#   run-hip-smoke.sh PROGRAM LIBRARY_DIR
# HIP's device properties must be the fake GPU's, ROCclr must have loaded its blit kernels
# through the executable API, the copies must have gone through the DMA engine, and no
# function ROCclr used may be unsupported.
set -uo pipefail
program=$1 libdir=$2
out=$(LD_LIBRARY_PATH=$libdir timeout 60 "$program" 2>&1)
status=$?
echo "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $status -eq 0 ] || fail "hip_smoke exited with $status"
grep -qx 'devices=1 name=AMD Radeon Instinct MI50 (vgpu vega20) arch=gfx906:sramecc+:xnack- CUs=60 memory=17179869184 clockkHz=1725000 warp=64' <<<"$out" ||
  fail "device properties"
grep -qx 'round trip equal' <<<"$out" || fail "copies"
grep -qx 'fake gpu: kernel __amd_rocclr_copyBuffer' <<<"$out" || fail "ROCclr's blit kernels were not loaded"
[ "$(grep -c '^fake gpu: copy of 262144 bytes' <<<"$out")" -ge 2 ] || fail "no DMA copies of the buffer"
! grep -q 'not supported by the simulated GPU' <<<"$out" || fail "ROCclr called an unsupported function"
echo "OK"
