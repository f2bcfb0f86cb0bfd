#!/usr/bin/env bash
# Checks that a built libhsa-runtime64 exports exactly the real library's symbols, each in the
# ROCR_1 version node:  check-exports.sh LIBRARY EXPECTED_LIST
set -euo pipefail
lib=$1 expected=$2
all=$(nm -D --defined-only "$lib" | awk '{print $NF}' | LC_ALL=C sort)
# One symbol more than ROCr, on purpose: sc_main, which Debian's libsystemc-2.3.4.so binds when
# it is loaded (runtime/hsa/ScMain.cpp).
if ! grep -qx 'sc_main@@ROCR_1' <<<"$all"; then
  echo "FAIL: $lib does not define sc_main (Debian's libsystemc will not load)" >&2
  exit 1
fi
actual=$(grep -vx 'sc_main@@ROCR_1' <<<"$all")
if ! diff <(grep -v '^#' "$expected") <(echo "$actual"); then
  echo "FAIL: the exported symbols of $lib differ from $expected (< missing, > extra)" >&2
  exit 1
fi
if ! llvm-readelf-15 -V "$lib" | grep -q 'Name: ROCR_1'; then
  echo "FAIL: $lib has no ROCR_1 version definition" >&2
  exit 1
fi
echo "OK: $(echo "$actual" | wc -l) symbols, version node ROCR_1"
