#!/usr/bin/env bash
# Checks that a built libhsa-runtime64 exports exactly the real library's symbols, each in the
# ROCR_1 version node:  check-exports.sh LIBRARY EXPECTED_LIST
set -euo pipefail
lib=$1 expected=$2
actual=$(nm -D --defined-only "$lib" | awk '{print $NF}' | LC_ALL=C sort)
if ! diff <(grep -v '^#' "$expected") <(echo "$actual"); then
  echo "FAIL: the exported symbols of $lib differ from $expected (< missing, > extra)" >&2
  exit 1
fi
if ! llvm-readelf-15 -V "$lib" | grep -q 'Name: ROCR_1'; then
  echo "FAIL: $lib has no ROCR_1 version definition" >&2
  exit 1
fi
echo "OK: $(echo "$actual" | wc -l) symbols, version node ROCR_1"
