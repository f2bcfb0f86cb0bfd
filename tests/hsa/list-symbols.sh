#!/usr/bin/env bash
# Writes `llvm-readelf -s` of the gfx906 code object inside a hipcc --genco bundle, so tests can
# compare the runtime's symbol addresses with offsets read by an independent tool.
#   list-symbols.sh BUNDLE OUTPUT
set -euo pipefail
bundle=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
target=$(clang-offload-bundler-15 --list --type=o --input="$bundle" | grep -- '--gfx906' | head -1)
clang-offload-bundler-15 --unbundle --type=o --targets="$target" --input="$bundle" \
  --output="$tmp/object.elf"
llvm-readelf-15 -s --wide "$tmp/object.elf" > "$out"
