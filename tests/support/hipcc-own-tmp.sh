#!/bin/sh
# Runs hipcc with a TMPDIR of its own, removed afterwards: hipcc-own-tmp.sh HIPCC ARGS...
# Debian's hipcc (clang 15's HIP driver) leaves an empty /tmp/NAME-XXXXXX directory behind on
# every compile; the test build compiles some hundred programs and code objects, so without this
# each build added that many directories to /tmp.
set -u
hipcc=$1
shift
own=$(mktemp -d "${TMPDIR:-/tmp}/vgpu-hipcc-XXXXXX") || exit 1
TMPDIR=$own "$hipcc" "$@"
status=$?
rm -rf "$own"
exit $status
