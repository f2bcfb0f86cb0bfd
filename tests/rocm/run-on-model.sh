#!/bin/sh
# Runs one test program on the simulated GPU and keeps its digest lines for
# compare-digests.sh: run-on-model.sh VGPU_SIM PLATFORM MODE DIGEST_FILE PROGRAM
# The program's output is shown (ctest --output-on-failure); its exit status is the test's.
set -u
sim=$1 platform=$2 mode=$3 digests=$4 program=$5
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rm -f "$digests"
"$sim" exec --quiet --platform "$platform" --mode "$mode" -- "$program" >"$out" 2>&1
status=$?
cat "$out"
if [ "$status" -ne 0 ]; then
  echo "run-on-model.sh: $program on $platform ($mode) exited with status $status"
  exit 1
fi
grep '^digest ' "$out" >"$digests"
if [ ! -s "$digests" ]; then
  echo "run-on-model.sh: $program printed no digest"
  exit 1
fi
