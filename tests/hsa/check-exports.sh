#!/usr/bin/env bash
# Checks that a built libhsa-runtime64 exports exactly the real library's symbols, each in the
# ROCR_1 version node, plus the listed extra symbols (name@@VERSION) and nothing else:
#   check-exports.sh LIBRARY EXPECTED_LIST [EXTRA...]
set -euo pipefail
lib=$1 expected=$2
shift 2
actual=$(nm -D --defined-only "$lib" | awk '{print $NF}' | LC_ALL=C sort)
wanted=$( (grep -v '^#' "$expected"; for extra in "$@"; do echo "$extra"; echo "${extra#*@@}"; done) |
  LC_ALL=C sort -u)
if ! diff <(echo "$wanted") <(echo "$actual"); then
  echo "FAIL: the exported symbols of $lib differ from $expected $* (< missing, > extra)" >&2
  exit 1
fi
# grep reads all of readelf's output (-q would stop early and, under pipefail, readelf's
# SIGPIPE would fail the check at random).
if ! llvm-readelf-15 -V "$lib" | grep 'Name: ROCR_1' >/dev/null; then
  echo "FAIL: $lib has no ROCR_1 version definition" >&2
  exit 1
fi
echo "OK: $(echo "$actual" | wc -l) symbols, version node ROCR_1"
