#!/bin/sh
# The results of one test program must be identical on every platform and in both modes:
# compare-digests.sh DIGEST_FILE... (each written by run-on-model.sh).
set -u
first=$1
status=0
for f in "$@"; do
  if [ ! -s "$f" ]; then
    echo "compare-digests.sh: $f is missing (its run failed)"
    status=1
  elif ! cmp -s "$first" "$f"; then
    echo "compare-digests.sh: $f differs from $first:"
    diff "$first" "$f"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "identical digests in $# runs:" && cat "$first"
exit "$status"
